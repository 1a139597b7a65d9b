//! Writing what the app shows: ask where to save (the dialog the app gave
//! the worker), then write the file on a blocking thread.

use super::dialog::{SaveAnswer, SaveDialog, SaveRequest};
use super::messages::{ExportJob, ExportOutcome};
use crate::export::{Replace, write_file};

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
    let written = tokio::task::spawn_blocking(move || {
        let mut bytes = Vec::new();
        let rows = job
            .content
            .write(&mut bytes, job.units)
            .map_err(|e| e.to_string())?;
        put(place, &job.file_name, &bytes, rows)
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
    Ok(match place {
        Place::Chosen(path) => {
            // The dialog asked before replacing a file.
            write_file(&path, bytes, Replace::Allowed)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            ExportOutcome::Saved { path, rows }
        }
        Place::Folder(dir) => ExportOutcome::Saved {
            path: save_unused(&dir, file_name, bytes)?,
            rows,
        },
        Place::Fallback(dir, why) => {
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            ExportOutcome::SavedWithoutDialog {
                path: save_unused(&dir, file_name, bytes)?,
                rows,
                why,
            }
        }
    })
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
    bytes: &[u8],
) -> Result<std::path::PathBuf, String> {
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) => (s, format!(".{e}")),
        None => (name, String::new()),
    };
    let names =
        std::iter::once(name.to_owned()).chain((2..10_000).map(|n| format!("{stem}-{n}{ext}")));
    for candidate in names {
        let path = dir.join(candidate);
        match write_file(&path, bytes, Replace::Never) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(format!("{}: {e}", path.display())),
        }
    }
    Err(format!("{}: no unused file name for {name}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_existing_file_is_never_replaced() {
        let dir = tempfile::tempdir().expect("tempdir");
        let a = save_unused(dir.path(), "x.csv", b"first").expect("saved");
        assert_eq!(a, dir.path().join("x.csv"));
        let b = save_unused(dir.path(), "x.csv", b"second").expect("saved");
        assert_eq!(b, dir.path().join("x-2.csv"));
        let c = save_unused(dir.path(), "x.csv", b"third").expect("saved");
        assert_eq!(c, dir.path().join("x-3.csv"));
        assert_eq!(std::fs::read(&a).expect("read"), b"first");
        assert_eq!(std::fs::read(&b).expect("read"), b"second");
    }
}
