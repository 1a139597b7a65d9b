//! What can go wrong while writing a file.

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("writing CSV: {0}")]
    Csv(#[from] csv::Error),
    #[error("writing JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("writing: {0}")]
    Io(#[from] std::io::Error),
}
