//! Exports asked for from the panels: which are under way (one of each
//! kind at a time: a second would cancel the first, whose end would then
//! never come), where they go, and what they are named.

use fleetview_api::time::{TimeWindow, format_wire};
use fleetview_core::export::shown::{ExportContent, ExportKey};
use fleetview_core::report::ReportFormat;
use fleetview_core::worker::{
    Command, ExportEvent, ExportJob, ExportOutcome, ReportJob, ReportPlace,
};

use super::notifications::{Level, Notifications};

/// A report asked for from a page's *Report...* menu: the fleet's (over
/// the Fleet page's window) or the machine open's (over its window).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportAsk {
    pub fleet: bool,
    pub format: ReportFormat,
}

#[derive(Debug, Default)]
pub struct Exports {
    /// Under way (waiting for a file name, or being written): what each is.
    pub under_way: Vec<(ExportKey, String)>,
    /// Saved here without a dialog (`--export-dir`).
    pub directory: Option<std::path::PathBuf>,
    /// Saved here when no file dialog can open (the user's Downloads).
    pub fallback_directory: Option<std::path::PathBuf>,
    /// A report under way (one at a time): what it is.
    pub report_under_way: Option<String>,
}

impl Exports {
    /// Asks the worker for a file of `content`, unless one of its kind is
    /// under way.
    /// `machine`: the id and the name it is listed under, if known.
    pub fn start(
        &mut self,
        content: ExportContent,
        machine: Option<(i64, Option<&str>)>,
        window: TimeWindow,
        units: fleetview_core::analysis::UnitSystem,
    ) -> Vec<Command> {
        let key = content.key();
        if self.under_way.iter().any(|(k, _)| *k == key) {
            return Vec::new();
        }
        let file_name = file_name(&content, machine, window);
        self.under_way.push((key, content.describe()));
        vec![Command::Export(ExportJob {
            content,
            file_name,
            directory: self.directory.clone(),
            fallback_directory: self.fallback_directory.clone(),
            units,
        })]
    }

    pub fn on_event(&mut self, event: ExportEvent, notes: &mut Notifications) {
        match event {
            ExportEvent::Exported {
                key, what, outcome, ..
            } => self.ended(&key, &what, outcome, notes),
            ExportEvent::Reported { what, outcome, .. } => self.report_ended(&what, outcome, notes),
        }
    }

    /// Asks the worker for a report, unless one is under way.
    pub fn start_report(&mut self, mut job: ReportJob) -> Vec<Command> {
        if self.report_under_way.is_some() {
            return Vec::new();
        }
        if let ReportPlace::Saved {
            directory,
            fallback_directory,
            ..
        } = &mut job.place
        {
            directory.clone_from(&self.directory);
            fallback_directory.clone_from(&self.fallback_directory);
        }
        self.report_under_way = Some(job.describe());
        vec![Command::Report(Box::new(job))]
    }

    /// A report ended: says how.
    fn report_ended(
        &mut self,
        what: &str,
        outcome: Option<ExportOutcome>,
        notes: &mut Notifications,
    ) {
        self.report_under_way = None;
        let Some(outcome) = outcome else {
            return;
        };
        // At a title's start: "The fleet report (HTML) saved".
        let said = capitalised(what);
        let _ = match outcome {
            ExportOutcome::Saved { path, .. } => notes.notify(
                Level::Info,
                format!("{said} saved"),
                format!("Written to {}", path.display()),
            ),
            ExportOutcome::SavedWithoutDialog { path, why, .. } => {
                let folder = path.parent().map(std::path::Path::to_path_buf);
                notes.notify_with_folder(
                    format!("{said} saved to {}", path.display()),
                    format!(
                        "No file dialog can open on this computer ({why}), so reports go to \
                         this folder; start fleetview with --export-dir DIR to choose another."
                    ),
                    folder,
                )
            }
            ExportOutcome::Cancelled => {
                notes.notify(Level::Info, format!("No file chosen: {what} not saved"), "")
            }
            ExportOutcome::Failed(e) => {
                notes.notify(Level::Error, format!("Could not write {what}"), e)
            }
        };
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
            ExportOutcome::SavedWithoutDialog { path, rows, why } => {
                let folder = path.parent().map(std::path::Path::to_path_buf);
                notes.notify_with_folder(
                    format!("Exported {what} to {}", path.display()),
                    format!(
                        "{rows} rows written. No file dialog can open on this computer ({why}), \
                         so exports go to this folder; start fleetview with --export-dir DIR \
                         to choose another."
                    ),
                    folder,
                )
            }
            ExportOutcome::Cancelled => notes.notify(
                Level::Info,
                format!("No file chosen: {what} not exported"),
                "",
            ),
            ExportOutcome::Failed(e) => {
                notes.notify(Level::Error, format!("Could not export {what}"), e)
            }
        };
    }

    /// What is being exported, for the status bar.
    pub fn describe_under_way(&self) -> impl Iterator<Item = &str> {
        self.under_way
            .iter()
            .map(|(_, what)| what.as_str())
            .chain(self.report_under_way.as_deref())
    }
}

/// `1003-RT-003-DAF-XF-480-Rotterdam-faults-2025-06-12_2025-06-18.csv`: the
/// machine (id and name), what, the window; only letters, digits, `-`, `_`
/// and `.` (D14).
fn file_name(
    content: &ExportContent,
    machine: Option<(i64, Option<&str>)>,
    window: TimeWindow,
) -> String {
    let day = |t: i64| format_wire(t).chars().take(10).collect::<String>();
    let who = match machine {
        Some((id, Some(name))) => format!("{id}-{name}"),
        Some((id, None)) => id.to_string(),
        None => "fleet".to_owned(),
    };
    format!(
        "{}-{}-{}_{}.{}",
        safe_name(&who),
        safe_name(&content.stem()),
        day(window.since),
        day(window.until),
        content.extension()
    )
}

/// `The fleet report (HTML)` from `the fleet report (HTML)`.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `fleet-report-2025-06-12_2025-06-18.html`, or with the machine's id and
/// name for one machine's: only safe characters (D14).
pub fn report_file_name(
    machine: Option<(i64, Option<&str>)>,
    window: TimeWindow,
    extension: &str,
) -> String {
    let day = |t: i64| format_wire(t).chars().take(10).collect::<String>();
    let who = match machine {
        Some((id, Some(name))) => format!("{id}-{name}-report"),
        Some((id, None)) => format!("{id}-report"),
        None => "fleet-report".to_owned(),
    };
    format!(
        "{}-{}_{}.{extension}",
        safe_name(&who),
        day(window.since),
        day(window.until)
    )
}

/// Letters and digits kept, any run of other characters one `-`.
fn safe_name(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reports_notices_read_as_sentences() {
        let mut exports = Exports::default();
        let mut notes = Notifications::default();
        let what = "the fleet report (HTML)";
        for (outcome, title) in [
            (
                ExportOutcome::Failed("disk full".into()),
                "Could not write the fleet report (HTML)",
            ),
            (
                ExportOutcome::Cancelled,
                "No file chosen: the fleet report (HTML) not saved",
            ),
            (
                ExportOutcome::Saved {
                    path: "/tmp/f.html".into(),
                    rows: 3,
                },
                "The fleet report (HTML) saved",
            ),
        ] {
            exports.report_under_way = Some(what.to_owned());
            exports.report_ended(what, Some(outcome), &mut notes);
            assert_eq!(notes.list().last().map(|n| n.title.as_str()), Some(title));
            assert!(exports.report_under_way.is_none());
        }
    }

    #[test]
    fn names_keep_only_safe_characters() {
        assert_eq!(
            safe_name("RT-003 DAF XF 480 (Rotterdam)"),
            "RT-003-DAF-XF-480-Rotterdam"
        );
        assert_eq!(safe_name("a/b\\c:d\ne"), "a-b-c-d-e");
        assert_eq!(
            safe_name("evEnergyUsed faults-energy"),
            "evEnergyUsed-faults-energy"
        );
    }
}
