//! Files and documents: a whole file written aside then renamed (a pipe or
//! a device written into), streamed by the writer that makes it, and JSON.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::error::ExportError;

/// Why a file was not written: the file itself (its folder, the disk; the
/// caller names the path it gave), or what was being written into it.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error(transparent)]
    File(std::io::Error),
    #[error(transparent)]
    Content(ExportError),
}

/// Whether a file already at the path may be replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    /// The user chose this path (a dialog that confirmed it, `--output`).
    Allowed,
    /// Nobody confirmed: an existing file is an error, never lost.
    Never,
}

/// Writes a whole file aside and renames it (D14): a temporary file of its
/// own in the same directory (two exports to one directory never share
/// one), synced to the disk before the rename, so an error or a crash never
/// leaves half a file, nor replaces a good one. Something there that is
/// not a file (a named pipe, a device) is written into, when it may be
/// replaced, never renamed over. A link stays a link: what it points to is
/// written (a file, aside and renamed beside it; anything else, into).
/// An error never names the temporary file: the caller names the path it
/// gave.
pub fn write_file(path: &Path, bytes: &[u8], replace: Replace) -> std::io::Result<()> {
    write_file_with(path, replace, |out| Ok(out.write_all(bytes)?)).map_err(|e| match e {
        FileError::File(e) => e,
        // Bytes only fail to go into the file.
        FileError::Content(e) => std::io::Error::other(e),
    })
}

/// [`write_file`] of what `write` writes, streamed into the file as it
/// comes (through a buffer), never a whole document in memory. An error
/// of `write` leaves nothing, as any error; a failure of the file itself
/// (a full disk) is a [`FileError::File`] even when `write` reports it.
pub fn write_file_with<T>(
    path: &Path,
    replace: Replace,
    write: impl FnOnce(&mut dyn Write) -> Result<T, ExportError>,
) -> Result<T, FileError> {
    let written = match (destination(path), replace) {
        (Destination::Into, Replace::Allowed) => std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(path)
            .map_err(FileError::File)
            .and_then(|f| write_stream(f, write)),
        (Destination::Aside(target), Replace::Allowed) => write_aside(&target, write, replace),
        // Not confirmed: whatever is there (a link too) is never replaced.
        _ => write_aside(path, write, replace),
    };
    written.map_err(|e| match e {
        FileError::File(e) => FileError::File(without_paths(e)),
        content => content,
    })
}

/// Streams what `write` writes into `out` through a buffer, flushed at the
/// end: a failure of `out` told apart from one of the content.
pub fn write_stream<T>(
    out: impl Write,
    write: impl FnOnce(&mut dyn Write) -> Result<T, ExportError>,
) -> Result<T, FileError> {
    let mut watched = Watched {
        inner: out,
        failed: None,
    };
    let mut buffered = BufWriter::with_capacity(64 << 10, &mut watched);
    let written = write(&mut buffered);
    let flushed = match written {
        Ok(_) => buffered.flush(),
        Err(_) => Ok(()),
    };
    // What is left after an error is not written (no flush on drop).
    drop(buffered.into_parts());
    match (written, flushed) {
        (Ok(t), Ok(())) => Ok(t),
        (Ok(_), Err(e)) => Err(FileError::File(e)),
        (Err(e), _) => Err(watched
            .failed
            .map_or(FileError::Content(e), FileError::File)),
    }
}

/// A writer that keeps its first failure, whatever the writer above it
/// makes of it.
struct Watched<W> {
    inner: W,
    failed: Option<std::io::Error>,
}

impl<W> Watched<W> {
    fn note(&mut self, e: std::io::Error) -> std::io::Error {
        if e.kind() != std::io::ErrorKind::Interrupted && self.failed.is_none() {
            self.failed = Some(match e.raw_os_error() {
                Some(code) => std::io::Error::from_raw_os_error(code),
                None => std::io::Error::new(e.kind(), e.to_string()),
            });
        }
        e
    }
}

impl<W: Write> Write for Watched<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf).map_err(|e| self.note(e))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().map_err(|e| self.note(e))
    }
}

/// How a path given is written.
enum Destination {
    /// A whole file aside, renamed over this path (the path given, or the
    /// file a link there points to).
    Aside(PathBuf),
    /// Into what is there: a pipe or a device (or a link to one).
    Into,
}

/// Links followed only to find what is written: a link to a file writes
/// that file (resolved, so the rename lands beside it, not over the link,
/// and never in the link's directory, such as /dev for /dev/stdout); one
/// whose target cannot be named (a process's open file already deleted)
/// is written into. A link to nothing is replaced, as a new file.
fn destination(path: &Path) -> Destination {
    let Ok(own) = std::fs::symlink_metadata(path) else {
        return Destination::Aside(path.to_owned());
    };
    let kind = own.file_type();
    if !kind.is_symlink() {
        return if kind.is_file() || kind.is_dir() {
            Destination::Aside(path.to_owned())
        } else {
            Destination::Into
        };
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => match std::fs::canonicalize(path) {
            Ok(target) if target.is_file() => Destination::Aside(target),
            _ => Destination::Into,
        },
        Ok(m) if !m.is_dir() => Destination::Into,
        _ => Destination::Aside(path.to_owned()),
    }
}

/// `e` without the temporary file's path, which tempfile adds to its
/// errors' words (" at path ..."; the system's error is not reachable
/// under it), kind kept.
fn without_paths(e: std::io::Error) -> std::io::Error {
    if e.raw_os_error().is_some() {
        return e;
    }
    let words = e.to_string();
    let words = words
        .split_once(" at path ")
        .map_or(&*words, |(own, _)| own);
    std::io::Error::new(e.kind(), words.to_owned())
}

fn write_aside<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<T, ExportError>,
    replace: Replace,
) -> Result<T, FileError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let stem = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{stem}."))
        .suffix(".partial")
        .tempfile_in(dir)
        .map_err(FileError::File)?;
    // An error drops `temp`, which removes it: no half file is left.
    let written = write_stream(temp.as_file_mut(), write)?;
    temp.as_file().sync_all().map_err(FileError::File)?;
    let file = match replace {
        Replace::Allowed => temp.persist(path),
        Replace::Never => temp.persist_noclobber(path),
    }
    .map_err(|e| FileError::File(e.error))?;
    drop(file);
    // The rename itself is durable once the directory is synced; not every
    // system can open a directory, and the file is whole either way.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(written)
}

/// Writes JSON values as a pretty array (or any value).
pub fn write_json(value: &impl serde::Serialize, mut out: impl Write) -> Result<(), ExportError> {
    serde_json::to_writer_pretty(&mut out, value)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// A JSON array written element by element, the very bytes [`write_json`]
/// writes for the whole array (pretty, two spaces), holding one element.
#[derive(Debug)]
pub struct JsonArrayWriter<W: Write> {
    out: W,
    rows: usize,
    one: Vec<u8>,
}

impl<W: Write> JsonArrayWriter<W> {
    pub fn start(mut out: W) -> std::io::Result<Self> {
        out.write_all(b"[")?;
        Ok(JsonArrayWriter {
            out,
            rows: 0,
            one: Vec::new(),
        })
    }

    pub fn row(&mut self, value: &impl serde::Serialize) -> Result<(), ExportError> {
        self.one.clear();
        serde_json::to_writer_pretty(&mut self.one, value)?;
        let open: &[u8] = if self.rows == 0 { b"\n  " } else { b",\n  " };
        self.out.write_all(open)?;
        // One level in: each of its lines two spaces further (a JSON string
        // holds no raw newline, so every newline is the printer's).
        for (i, line) in self.one.split(|b| *b == b'\n').enumerate() {
            if i > 0 {
                self.out.write_all(b"\n  ")?;
            }
            self.out.write_all(line)?;
        }
        self.rows += 1;
        Ok(())
    }

    /// Closes the array; returns how many elements it holds.
    pub fn finish(mut self) -> Result<usize, ExportError> {
        let close: &[u8] = if self.rows == 0 { b"]\n" } else { b"\n]\n" };
        self.out.write_all(close)?;
        self.out.flush()?;
        Ok(self.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_written_row_by_row_is_the_whole_arrays_bytes() {
        let rows = serde_json::json!([
            {"date": "2025-06-01T00:00:00Z", "a": {"b": [1, 2.5, {"c": "x\ny"}], "e": []}, "f": {}},
            [],
            "text",
            null,
        ]);
        let rows = rows.as_array().cloned().unwrap_or_default();
        for n in 0..=rows.len() {
            let mut whole = Vec::new();
            write_json(&rows[..n].to_vec(), &mut whole).expect("whole");
            let mut one_by_one = Vec::new();
            let mut w = JsonArrayWriter::start(&mut one_by_one).expect("start");
            for r in &rows[..n] {
                w.row(r).expect("row");
            }
            assert_eq!(w.finish().expect("finish"), n);
            assert_eq!(
                String::from_utf8(one_by_one).expect("utf-8"),
                String::from_utf8(whole).expect("utf-8")
            );
        }
    }

    #[test]
    fn a_failed_writer_leaves_no_file_and_a_full_disk_is_the_files_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.geojson");
        // The content fails half-way: nothing is left, not even aside.
        let e = write_file_with(&path, Replace::Allowed, |out| {
            out.write_all(&[b'x'; 100_000])?;
            Err::<(), _>(ExportError::Io(std::io::Error::other("no more rows")))
        })
        .expect_err("failed");
        assert!(matches!(e, FileError::Content(_)), "{e:?}");
        assert!(std::fs::read_dir(dir.path()).expect("dir").next().is_none());
        // /dev/full fails every write: the file's error, whatever the
        // writer above it turned it into.
        let e = write_file_with(Path::new("/dev/full"), Replace::Allowed, |out| {
            let mut w = csv::Writer::from_writer(out);
            for _ in 0..100_000 {
                w.write_record(["a", "b"])?;
            }
            w.flush()?;
            Ok(())
        })
        .expect_err("the disk is full");
        match e {
            FileError::File(e) => assert_eq!(e.kind(), std::io::ErrorKind::StorageFull),
            other => panic!("not the file's error: {other:?}"),
        }
    }

    #[test]
    fn files_are_whole_and_nothing_is_left_aside() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.csv");
        write_file(&path, b"one", Replace::Never).expect("written");
        assert_eq!(std::fs::read(&path).expect("read"), b"one");
        // Not confirmed: the file stays as it was.
        let e = write_file(&path, b"two", Replace::Never).expect_err("refused");
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&path).expect("read"), b"one");
        write_file(&path, b"three", Replace::Allowed).expect("replaced");
        assert_eq!(std::fs::read(&path).expect("read"), b"three");
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.csv"]);
    }

    #[test]
    fn an_error_names_no_temporary_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("none").join("a.csv");
        let e = write_file(&path, b"one", Replace::Allowed).expect_err("no folder");
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
        assert!(!e.to_string().contains(".partial"), "{e}");
    }

    #[test]
    fn two_formats_of_one_name_written_at_once_are_both_intact() {
        // A GPX and a GeoJSON of one window differ only in their extension.
        let dir = tempfile::tempdir().expect("tempdir");
        let gpx = dir.path().join("1003-track.gpx");
        let geojson = dir.path().join("1003-track.geojson");
        let a = vec![b'a'; 4 << 20];
        let b = vec![b'b'; 4 << 20];
        for _ in 0..20 {
            std::thread::scope(|s| {
                let one = s.spawn(|| write_file(&gpx, &a, Replace::Allowed));
                let two = s.spawn(|| write_file(&geojson, &b, Replace::Allowed));
                one.join().expect("thread").expect("gpx written");
                two.join().expect("thread").expect("geojson written");
            });
            assert!(std::fs::read(&gpx).expect("gpx") == a, "the GPX is intact");
            assert!(
                std::fs::read(&geojson).expect("geojson") == b,
                "the GeoJSON is intact"
            );
        }
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_link_to_a_file_stays_a_link_and_its_target_gets_the_bytes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (at, to) = (dir.path().join("at"), dir.path().join("to"));
        std::fs::create_dir_all(&at).expect("at");
        std::fs::create_dir_all(&to).expect("to");
        std::fs::write(to.join("real.csv"), b"old").expect("target");
        let link = at.join("link.csv");
        std::os::unix::fs::symlink("../to/real.csv", &link).expect("symlink");
        write_file(&link, b"new", Replace::Allowed).expect("written");
        let kind = std::fs::symlink_metadata(&link).expect("link").file_type();
        assert!(kind.is_symlink(), "still a link: {kind:?}");
        assert_eq!(std::fs::read(to.join("real.csv")).expect("target"), b"new");
        assert_eq!(names_in(&at), ["link.csv"], "nothing left beside the link");
        assert_eq!(
            names_in(&to),
            ["real.csv"],
            "nothing left beside the target"
        );
        // Not confirmed: something is there, and it stays as it was.
        let e = write_file(&link, b"newer", Replace::Never).expect_err("refused");
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&link).expect("target"), b"new");
    }

    #[test]
    fn a_link_to_a_device_is_written_into() {
        let dir = tempfile::tempdir().expect("tempdir");
        let link = dir.path().join("out");
        std::os::unix::fs::symlink("/dev/null", &link).expect("symlink");
        write_file(&link, b"gone", Replace::Allowed).expect("written");
        let kind = std::fs::symlink_metadata(&link).expect("link").file_type();
        assert!(kind.is_symlink(), "still a link: {kind:?}");
        assert_eq!(names_in(dir.path()), ["out"], "nothing written aside");
    }
}
