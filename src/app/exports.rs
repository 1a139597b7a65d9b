//! Exports asked for from the panels: which are under way (one of each
//! kind at a time: a second would cancel the first, whose end would then
//! never come), where they go, and what they are named.

use crate::api::time::{TimeWindow, format_wire};
use crate::export::shown::{ExportContent, ExportKey};
use crate::worker::{Command, ExportJob, ExportOutcome};

use super::notifications::{Level, Notifications};

#[derive(Debug, Default)]
pub struct Exports {
    /// Under way (waiting for a file name, or being written): what each is.
    pub under_way: Vec<(ExportKey, String)>,
    /// Saved here without a dialog (`--export-dir`).
    pub directory: Option<std::path::PathBuf>,
}

impl Exports {
    /// Asks the worker for a file of `content`, unless one of its kind is
    /// under way.
    pub fn start(
        &mut self,
        content: ExportContent,
        equipment: Option<i64>,
        window: TimeWindow,
    ) -> Vec<Command> {
        let key = content.key();
        if self.under_way.iter().any(|(k, _)| *k == key) {
            return Vec::new();
        }
        let file_name = file_name(&content, equipment, window);
        self.under_way.push((key, content.describe()));
        vec![Command::Export(ExportJob {
            content,
            file_name,
            directory: self.directory.clone(),
        })]
    }

    /// An export ended: says how, and frees its kind.
    pub fn ended(
        &mut self,
        key: &ExportKey,
        what: &str,
        outcome: ExportOutcome,
        notes: &mut Notifications,
    ) {
        self.under_way.retain(|(k, _)| k != key);
        let _ = match outcome {
            ExportOutcome::Saved { path, rows } => notes.notify(
                Level::Info,
                format!("Exported {what}"),
                format!("{rows} rows written to {}", path.display()),
            ),
            ExportOutcome::Cancelled => notes.notify(
                Level::Info,
                format!("No file chosen: {what} not exported"),
                "Where no file dialog can open, start fleetview with --export-dir DIR to save exports there.",
            ),
            ExportOutcome::Failed(e) => notes.notify(Level::Error, format!("Could not export {what}"), e),
        };
    }

    /// What is being exported, for the status bar.
    pub fn describe_under_way(&self) -> impl Iterator<Item = &str> {
        self.under_way.iter().map(|(_, what)| what.as_str())
    }
}

/// `1003-faults-2025-06-12_2025-06-18.csv`: the machine, what, the window.
fn file_name(content: &ExportContent, equipment: Option<i64>, window: TimeWindow) -> String {
    let day = |t: i64| format_wire(t).chars().take(10).collect::<String>();
    format!(
        "{}-{}-{}_{}.{}",
        equipment.map_or_else(|| "fleet".to_owned(), |id| id.to_string()),
        content.stem(),
        day(window.since),
        day(window.until),
        content.extension()
    )
}
