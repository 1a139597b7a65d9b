//! The cache's error, in a file of its own so the cache's parts can use it
//! without importing the module that gathers them.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("cache database: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("cache file {0}: {1}")]
    Io(PathBuf, std::io::Error),
    #[error("cached rows are not readable: {0}")]
    Rows(#[from] serde_json::Error),
    /// Not written; the cache has told the user and logged it.
    #[error("not kept in the local cache: {0}")]
    NotKept(String),
}

impl CacheError {
    /// Whether the cache has already said it (logged, and told the user):
    /// callers need not log it again.
    pub fn is_told(&self) -> bool {
        matches!(self, CacheError::NotKept(_))
    }
}
