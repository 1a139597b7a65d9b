//! Writing what the app shows: ask where to save (the dialog the app gave
//! the worker), then write the file on a blocking thread.

use super::dialog::{SaveDialog, SaveRequest};
use super::messages::{ExportJob, ExportOutcome};
use crate::export::{Replace, write_file};

pub(crate) async fn export_file(job: ExportJob, dialog: Option<&dyn SaveDialog>) -> ExportOutcome {
    // Without a dialog nobody confirms a replacement: the file goes under
    // the first free name, found by the write itself (no probe beforehand
    // that another export could race).
    let chosen = match &job.directory {
        Some(_) => None,
        None => {
            // Without a dialog nobody can say where: as if cancelled.
            let Some(dialog) = dialog else {
                return ExportOutcome::Cancelled;
            };
            let request = SaveRequest {
                title: format!("Export {}", job.content.describe()),
                file_name: job.file_name.clone(),
                extension: job.content.extension(),
            };
            let Some(path) = dialog.choose(request).await else {
                return ExportOutcome::Cancelled;
            };
            Some(path)
        }
    };
    let written = tokio::task::spawn_blocking(move || {
        let mut bytes = Vec::new();
        let rows = job
            .content
            .write(&mut bytes, job.units)
            .map_err(|e| e.to_string())?;
        let path = match (chosen, &job.directory) {
            (Some(path), _) => {
                // The dialog asked before replacing a file.
                write_file(&path, &bytes, Replace::Allowed)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                path
            }
            (None, Some(dir)) => save_unused(dir, &job.file_name, &bytes)?,
            (None, None) => return Err("no file to write".to_owned()),
        };
        Ok::<_, String>(ExportOutcome::Saved { path, rows })
    })
    .await;
    match written {
        Ok(Ok(saved)) => saved,
        Ok(Err(e)) => ExportOutcome::Failed(e),
        Err(e) => ExportOutcome::Failed(e.to_string()),
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
