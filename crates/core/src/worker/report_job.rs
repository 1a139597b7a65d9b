//! A report to write (a machine's or the fleet's): what it covers, how it
//! is written and where it goes. Types the command, the event and the task
//! all name, kept apart from the work.

use crate::analysis::{Expected, UnitSystem, WorkingHours};
use crate::report::ReportFormat;
use fleetview_api::time::TimeWindow;

/// A machine a report covers: who it is, and when it last reported.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReportMachine {
    pub equipment: i64,
    pub name: Option<String>,
    pub category: Option<String>,
    pub make: Option<String>,
    pub model: Option<String>,
    /// Its last report (`analysis::last_report` of its snapshot); `None`:
    /// it never reported.
    pub last_report: Option<i64>,
}

/// What a report covers.
#[derive(Debug, Clone, PartialEq)]
pub enum ReportScope {
    /// One machine; the fuel tank's capacity as the user entered it
    /// (`None`: from the machine's model).
    Machine {
        machine: ReportMachine,
        tank_l: Option<f64>,
    },
    /// Every machine of the fleet; `last_reports_known`: whether the
    /// snapshots were read (without them, no machine is called silent).
    Fleet {
        machines: Vec<ReportMachine>,
        last_reports_known: bool,
    },
}

/// Where the document goes.
#[derive(Debug, Clone, PartialEq)]
pub enum ReportPlace {
    /// Back in the event (the command line writes it where it was asked).
    Returned,
    /// Saved as an export is: in `directory` without asking, else where
    /// the save dialog answers, else in `fallback_directory`.
    Saved {
        file_name: String,
        directory: Option<std::path::PathBuf>,
        fallback_directory: Option<std::path::PathBuf>,
    },
}

/// A report to write.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportJob {
    pub scope: ReportScope,
    pub window: TimeWindow,
    pub expected: Expected,
    /// When the report is made: a stop still on, and silence, count to it.
    pub now: i64,
    /// Out-of-hours use is running outside these (D16).
    pub working_hours: WorkingHours,
    pub format: ReportFormat,
    pub units: UnitSystem,
    /// Idle above this share of engine hours needs attention.
    pub idle_threshold_percent: f64,
    /// Read only the cache.
    pub offline: bool,
    pub place: ReportPlace,
    /// Said in the report's notes besides its own (the fleet came from the
    /// cache, ...).
    pub notes: Vec<String>,
}

impl ReportJob {
    /// What it is, for notices: `the fleet report (HTML)`.
    pub fn describe(&self) -> String {
        let who = match &self.scope {
            ReportScope::Fleet { .. } => "the fleet report".to_owned(),
            ReportScope::Machine { machine, .. } => match &machine.name {
                Some(name) if !name.trim().is_empty() => format!("the report of {}", name.trim()),
                _ => format!("the report of equipment {}", machine.equipment),
            },
        };
        format!("{who} ({})", self.format.label())
    }
}

/// What a written report holds, for the one who asked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReportWritten {
    /// The document, when asked back ([`ReportPlace::Returned`]).
    pub document: Option<std::sync::Arc<Vec<u8>>>,
    /// The report's notes (said on stderr by the command line).
    pub notes: Vec<String>,
    /// Days and events of a machine's report; machines of the fleet's.
    pub days: usize,
    pub events: usize,
    pub machines: usize,
    /// The fleet's machines with nothing read (offline: not cached).
    pub lacking: Vec<i64>,
    /// Set if data came from the cache because the service was away.
    /// (When the oldest part was fetched, Unix seconds.)
    pub offline: Option<i64>,
}
