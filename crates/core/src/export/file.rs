//! Files and documents: a whole file written aside then renamed (a pipe or
//! a device written into), and JSON.

use std::io::Write;
use std::path::Path;

use super::error::ExportError;

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
/// replaced, never renamed over. An error never names the temporary file:
/// the caller names the path it gave.
pub fn write_file(path: &Path, bytes: &[u8], replace: Replace) -> std::io::Result<()> {
    let special = std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir());
    let written = if special && replace == Replace::Allowed {
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes))
    } else {
        write_aside(path, bytes, replace)
    };
    written.map_err(without_paths)
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

fn write_aside(path: &Path, bytes: &[u8], replace: Replace) -> std::io::Result<()> {
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
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    let file = match replace {
        Replace::Allowed => temp.persist(path),
        Replace::Never => temp.persist_noclobber(path),
    }
    .map_err(|e| e.error)?;
    drop(file);
    // The rename itself is durable once the directory is synced; not every
    // system can open a directory, and the file is whole either way.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Writes JSON values as a pretty array (or any value).
pub fn write_json(value: &impl serde::Serialize, mut out: impl Write) -> Result<(), ExportError> {
    serde_json::to_writer_pretty(&mut out, value)?;
    out.write_all(b"\n")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
