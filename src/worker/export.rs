//! Writing what the app shows: ask where to save (a native dialog, which
//! waits on the user, not on the UI thread), then write the file on a
//! blocking thread.

use super::messages::{ExportJob, ExportOutcome};

pub async fn export_file(job: ExportJob) -> ExportOutcome {
    let path = match &job.directory {
        Some(dir) => Some(dir.join(&job.file_name)),
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
        crate::export::write_file(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok::<_, String>(ExportOutcome::Saved { path, rows })
    })
    .await;
    match written {
        Ok(Ok(saved)) => saved,
        Ok(Err(e)) => ExportOutcome::Failed(e),
        Err(e) => ExportOutcome::Failed(e.to_string()),
    }
}
