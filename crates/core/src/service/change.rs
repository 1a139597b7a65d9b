//! What the app asks of the service book, and what a write did: the
//! worker's commands for it (a file of its own so the worker's messages
//! and its book thread both read it).

use std::path::PathBuf;

use super::import::Imported;
use super::plan::{DoneRecord, Plan, PlanId};
use super::store::ImportCount;

/// What is asked of the service book.
#[derive(Debug, Clone, PartialEq)]
pub enum ServiceCommand {
    /// Opens the file (once; later ones are the same file) and reads it.
    Open(PathBuf),
    /// Reads it again.
    Load,
    /// A new plan (`id` none) or one changed.
    SavePlan {
        id: Option<PlanId>,
        plan: Plan,
    },
    DeletePlan(PlanId),
    RecordDone(DoneRecord),
    Import(Imported),
}

impl ServiceCommand {
    pub fn is_write(&self) -> bool {
        !matches!(self, ServiceCommand::Open(_) | ServiceCommand::Load)
    }
}

/// What a write did.
#[derive(Debug, Clone, PartialEq)]
pub enum Saved {
    Plan(PlanId),
    Deleted(PlanId),
    Done,
    Imported(ImportCount),
}
