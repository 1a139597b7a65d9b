//! Writing what the app shows: ask where to save (the dialog the app gave
//! the worker), then write the file on a blocking thread.

use std::io::Write;

use super::dialog::{SaveAnswer, SaveDialog, SaveRequest};
use super::messages::{ExportJob, ExportOutcome};
use crate::export::{ExportError, FileError, Replace, write_file_with};

/// Where a file goes: a path the user chose (who confirmed a
/// replacement), or a folder where it takes the first free name.
pub(crate) enum Place {
    Chosen(std::path::PathBuf),
    Folder(std::path::PathBuf),
    /// The folder when no dialog could open, and why none did.
    Fallback(std::path::PathBuf, String),
}

/// Where a file is to be saved, as asked.
pub(crate) struct SaveAsk {
    pub(crate) title: String,
    pub(crate) file_name: String,
    pub(crate) extension: &'static str,
    pub(crate) directory: Option<std::path::PathBuf>,
    pub(crate) fallback_directory: Option<std::path::PathBuf>,
}

pub(crate) async fn export_file(job: ExportJob, dialog: Option<&dyn SaveDialog>) -> ExportOutcome {
    let ask = SaveAsk {
        title: format!("Export {}", job.content.describe()),
        file_name: job.file_name.clone(),
        extension: job.content.extension(),
        directory: job.directory.clone(),
        fallback_directory: job.fallback_directory.clone(),
    };
    let place = match where_to(&ask, dialog).await {
        Ok(place) => place,
        Err(outcome) => return outcome,
    };
    // Streamed into the file as it is made: never the whole file in memory.
    let written = tokio::task::spawn_blocking(move || {
        put_with(place, &job.file_name, &mut |out| {
            job.content.write(out, job.units)
        })
    })
    .await;
    match written {
        Ok(Ok(saved)) => saved,
        Ok(Err(e)) => ExportOutcome::Failed(e),
        Err(e) => ExportOutcome::Failed(e.to_string()),
    }
}

/// Writes `bytes` to `place` (blocking): the outcome to tell, or why not.
pub(crate) fn put(
    place: Place,
    file_name: &str,
    bytes: &[u8],
    rows: usize,
) -> Result<ExportOutcome, String> {
    put_with(place, file_name, &mut |out| {
        out.write_all(bytes)?;
        Ok(rows)
    })
}

/// Writes a file's content, returning the rows written; run again for
/// each name tried in a folder.
pub(crate) type WriteRows<'a> = dyn FnMut(&mut dyn Write) -> Result<usize, ExportError> + 'a;

/// Streams what `write` writes to `place` (blocking): the outcome to
/// tell, or why not.
pub(crate) fn put_with(
    place: Place,
    file_name: &str,
    write: &mut WriteRows<'_>,
) -> Result<ExportOutcome, String> {
    Ok(match place {
        Place::Chosen(path) => {
            // The dialog asked before replacing a file.
            let rows =
                write_file_with(&path, Replace::Allowed, write).map_err(|e| failed(&path, e))?;
            ExportOutcome::Saved { path, rows }
        }
        Place::Folder(dir) => {
            let (path, rows) = save_unused(&dir, file_name, write)?;
            ExportOutcome::Saved { path, rows }
        }
        Place::Fallback(dir, why) => {
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let (path, rows) = save_unused(&dir, file_name, write)?;
            ExportOutcome::SavedWithoutDialog { path, rows, why }
        }
    })
}

/// Why a file was not written: the file's trouble names it.
fn failed(path: &std::path::Path, e: FileError) -> String {
    match e {
        FileError::File(e) => format!("{}: {e}", path.display()),
        FileError::Content(e) => e.to_string(),
    }
}

/// The job's folder (`--export-dir`), else what the dialog answers; with
/// no dialog, the fallback folder. Without a dialog nobody confirms a
/// replacement: in a folder the file goes under the first free name, found
/// by the write itself (no probe beforehand that another export could race).
pub(crate) async fn where_to(
    ask: &SaveAsk,
    dialog: Option<&dyn SaveDialog>,
) -> Result<Place, ExportOutcome> {
    if let Some(dir) = &ask.directory {
        return Ok(Place::Folder(dir.clone()));
    }
    let answer = match dialog {
        Some(dialog) => {
            dialog
                .choose(SaveRequest {
                    title: ask.title.clone(),
                    file_name: ask.file_name.clone(),
                    extension: ask.extension,
                })
                .await
        }
        None => SaveAnswer::Unavailable("no file dialog was given to the app".to_owned()),
    };
    match answer {
        SaveAnswer::Chosen(path) => Ok(Place::Chosen(path)),
        SaveAnswer::Cancelled => Err(ExportOutcome::Cancelled),
        SaveAnswer::Unavailable(why) => match &ask.fallback_directory {
            Some(dir) => Ok(Place::Fallback(dir.clone(), why)),
            None => Err(ExportOutcome::Failed(format!(
                "No file dialog can open ({why}) and there is no folder to save in"
            ))),
        },
    }
}

/// Saves as `dir/name`, or `stem-2.ext`, `-3`, ... if a file has that
/// name: nothing is replaced.
fn save_unused(
    dir: &std::path::Path,
    name: &str,
    write: &mut WriteRows<'_>,
) -> Result<(std::path::PathBuf, usize), String> {
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) => (s, format!(".{e}")),
        None => (name, String::new()),
    };
    let names =
        std::iter::once(name.to_owned()).chain((2..10_000).map(|n| format!("{stem}-{n}{ext}")));
    for candidate in names {
        let path = dir.join(candidate);
        match write_file_with(&path, Replace::Never, &mut *write) {
            Ok(rows) => return Ok((path, rows)),
            Err(FileError::File(e)) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(failed(&path, e)),
        }
    }
    Err(format!("{}: no unused file name for {name}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn save(dir: &std::path::Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let mut write = |out: &mut dyn Write| {
            out.write_all(bytes)?;
            Ok(bytes.len())
        };
        let (path, written) = save_unused(dir, name, &mut write).expect("saved");
        assert_eq!(written, bytes.len());
        path
    }

    #[test]
    fn an_existing_file_is_never_replaced() {
        let dir = tempfile::tempdir().expect("tempdir");
        let a = save(dir.path(), "x.csv", b"first");
        assert_eq!(a, dir.path().join("x.csv"));
        let b = save(dir.path(), "x.csv", b"second");
        assert_eq!(b, dir.path().join("x-2.csv"));
        let c = save(dir.path(), "x.csv", b"third");
        assert_eq!(c, dir.path().join("x-3.csv"));
        assert_eq!(std::fs::read(&a).expect("read"), b"first");
        assert_eq!(std::fs::read(&b).expect("read"), b"second");
    }
}
