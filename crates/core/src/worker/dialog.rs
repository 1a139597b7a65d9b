//! Where to save an export, asked of the user. The desktop app gives the
//! worker a native dialog (it waits on the user, not on the UI thread);
//! the core itself links no GUI crate, so it only names what it needs.

use std::path::PathBuf;
use std::sync::Arc;

use futures_util::future::BoxFuture;

/// What the dialog asks for: its title, the name it proposes, and the
/// extension its filter shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveRequest {
    pub title: String,
    pub file_name: String,
    pub extension: &'static str,
}

/// Asks the user where to save; `None` when they cancel.
pub trait SaveDialog: Send + Sync + std::fmt::Debug {
    fn choose(&self, request: SaveRequest) -> BoxFuture<'static, Option<PathBuf>>;
}

pub type SaveDialogRef = Arc<dyn SaveDialog>;
