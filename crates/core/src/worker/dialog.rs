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

/// What the dialog answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveAnswer {
    Chosen(PathBuf),
    /// The user closed the dialog without choosing.
    Cancelled,
    /// No dialog can open on this system (no desktop portal, no zenity):
    /// why, in a sentence. The export then goes to a folder of its own.
    Unavailable(String),
}

/// Asks the user where to save.
pub trait SaveDialog: Send + Sync + std::fmt::Debug {
    fn choose(&self, request: SaveRequest) -> BoxFuture<'static, SaveAnswer>;
}

pub type SaveDialogRef = Arc<dyn SaveDialog>;
