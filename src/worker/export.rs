//! Writing what the app shows: ask where to save (a native dialog, which
//! waits on the user, not on the UI thread), then write the file on a
//! blocking thread.

use super::messages::{ExportJob, ExportOutcome};
use crate::export::{Replace, write_file};

pub async fn export_file(job: ExportJob) -> ExportOutcome {
    let path = match &job.directory {
        // No dialog to confirm a replacement: never replace, pick a new name.
        Some(dir) => Some(unused_path(dir, &job.file_name)),
        None => {
            let ext = job.content.extension();
            rfd::AsyncFileDialog::new()
                .set_title(format!("Export {}", job.content.describe()))
                .set_file_name(job.file_name.clone())
                .add_filter(ext.to_uppercase(), &[ext])
                .save_file()
                .await
                .map(|f| f.path().to_path_buf())
        }
    };
    let Some(path) = path else {
        return ExportOutcome::Cancelled;
    };
    let written = tokio::task::spawn_blocking(move || {
        let mut bytes = Vec::new();
        let rows = job.content.write(&mut bytes).map_err(|e| e.to_string())?;
        let path = match &job.directory {
            None => {
                // The dialog asked before replacing a file.
                write_file(&path, &bytes, Replace::Allowed)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                path
            }
            Some(dir) => save_unused(dir, &job.file_name, path, &bytes)?,
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

/// Saves under `first`, or the next unused name if a file took it
/// meanwhile (another export, another program): nothing is replaced.
fn save_unused(
    dir: &std::path::Path,
    name: &str,
    first: std::path::PathBuf,
    bytes: &[u8],
) -> Result<std::path::PathBuf, String> {
    let mut path = first;
    for _ in 0..100 {
        match write_file(&path, bytes, Replace::Never) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                path = unused_path(dir, name);
            }
            Err(e) => return Err(format!("{}: {e}", path.display())),
        }
    }
    Err(format!("{}: no unused file name", dir.display()))
}

/// `dir/name`, or `dir/stem-2.ext`, `-3`, ... if that file exists.
fn unused_path(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let first = dir.join(name);
    if !first.exists() {
        return first;
    }
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) => (s, format!(".{e}")),
        None => (name, String::new()),
    };
    (2..)
        .map(|n| dir.join(format!("{stem}-{n}{ext}")))
        .find(|p| !p.exists())
        .unwrap_or(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_existing_file_is_never_replaced() {
        let dir = tempfile::tempdir().expect("tempdir");
        let a = unused_path(dir.path(), "x.csv");
        assert_eq!(a, dir.path().join("x.csv"));
        std::fs::write(&a, "first").expect("write");
        let b = unused_path(dir.path(), "x.csv");
        assert_eq!(b, dir.path().join("x-2.csv"));
        std::fs::write(&b, "second").expect("write");
        assert_eq!(unused_path(dir.path(), "x.csv"), dir.path().join("x-3.csv"));
    }
}
