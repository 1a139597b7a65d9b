//! `fleetview report`: a machine's figures over a window and each of its
//! UTC days (`analysis::figures`), or the whole fleet's, read through the
//! worker and the cache (offline too), written as JSON, CSV, Markdown or
//! HTML (`fleetview_core::report`).

use std::path::PathBuf;

use super::args::{CacheArgs, EventArgs, ServiceArgs, UnitsArg, WindowArgs};
use super::exit::{FAILED, NOT_CACHED, OfflineJobError, UNREACHABLE, api_status};
use super::job::{Waiting, check_sign_in, note_cache_notices, start_worker, write_output};
use super::report_fleet::{FleetSource, fleet_scope};
use fleetview_api::limits::check_window;
use fleetview_api::time::TimeWindow;
use fleetview_api::{ApiError, ClientConfig};
use fleetview_core::analysis::attention::DEFAULT_IDLE_THRESHOLD_PERCENT;
use fleetview_core::analysis::{Expected, WorkingHours};
use fleetview_core::cache::CacheError;
use fleetview_core::export::ExportError;
use fleetview_core::report::ReportFormat;
use fleetview_core::worker::{
    Command, Event, ExportEvent, ExportOutcome, OfflineSince, ReportJob as CoreJob, ReportMachine,
    ReportPlace, ReportScope, ReportWritten, RequestId, Worker, WorkerError,
};

/// `fleetview report`'s arguments: one machine (`--equipment ID`) or the
/// whole fleet (`--fleet`), exactly one of them.
#[derive(Debug, clap::Parser)]
#[command(group(clap::ArgGroup::new("subject").required(true).args(["equipment", "fleet"])))]
#[command(after_help = super::exit::EXIT_STATUS_HELP)]
pub struct ReportArgs {
    #[command(flatten)]
    pub service: ServiceArgs,
    /// Equipment id: that machine's report.
    #[arg(long)]
    pub equipment: Option<i64>,
    /// Every machine of the fleet (the tanks from the machines' models:
    /// no --tank-capacity-l).
    #[arg(long, conflicts_with = "tank_capacity_l")]
    pub fleet: bool,
    #[command(flatten)]
    pub window: WindowArgs,
    /// Hours a machine is expected to run per working day (Monday to
    /// Friday), for utilisation.
    #[arg(long, default_value_t = fleetview_core::analysis::figures::DEFAULT_EXPECTED_HOURS_PER_DAY)]
    pub expected_hours: f64,
    /// The fleet report: idle above this share of engine hours (0-100)
    /// needs attention.
    #[arg(
        long,
        conflicts_with = "equipment",
        default_value_t = DEFAULT_IDLE_THRESHOLD_PERCENT,
        value_parser = clap::value_parser!(u8).range(0..=100)
    )]
    pub idle_threshold_percent: u8,
    #[arg(long, value_enum, default_value_t = ReportFormatArg::Json)]
    pub format: ReportFormatArg,
    /// Units of the figures and events written.
    #[arg(long, value_enum, default_value_t = UnitsArg::Metric)]
    pub units: UnitsArg,
    /// Output file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub cache: CacheArgs,
    #[command(flatten)]
    pub events: EventArgs,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ReportFormatArg {
    /// One JSON document, for scripts.
    Json,
    /// A row per day, then the total.
    Csv,
    /// Markdown tables, for e-mails.
    #[value(name = "md", alias = "markdown")]
    Md,
    /// One self-contained HTML file (charts inline), to send or print.
    Html,
}

impl From<ReportFormatArg> for ReportFormat {
    fn from(f: ReportFormatArg) -> Self {
        match f {
            ReportFormatArg::Json => ReportFormat::Json,
            ReportFormatArg::Csv => ReportFormat::Csv,
            ReportFormatArg::Md => ReportFormat::Markdown,
            ReportFormatArg::Html => ReportFormat::Html,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CliReportError {
    #[error(transparent)]
    Api(#[from] ApiError),
    #[error(transparent)]
    Cache(#[from] CacheError),
    #[error(transparent)]
    Worker(#[from] WorkerError),
    #[error(transparent)]
    Write(#[from] ExportError),
    #[error("writing: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0} is not cached: run the report once online (offline, only the cache is read)")]
    NotCached(String),
    /// The service could not be reached at the login, and the cache then
    /// lacked what was asked for.
    #[error("{cause}; and {then}")]
    Unreachable {
        cause: ApiError,
        then: Box<CliReportError>,
    },
    #[error("expected hours per working day must be between 0 and 24, not {0}")]
    ExpectedHours(f64),
    #[error("the background worker stopped without an answer")]
    NoAnswer,
    #[error("working days '{0}': give weekdays as mon,tue,... or a range such as mon-fri")]
    WorkingDays(String),
    #[error(
        "working hours '{0}': give them as HH:MM-HH:MM, the start before the end, such as 06:00-20:00"
    )]
    WorkingHours(String),
    #[error("the tank capacity must be a number of litres above 0, not {0}")]
    TankCapacity(f64),
    #[error("the report could not be written: {0}")]
    Render(String),
}

impl CliReportError {
    /// The exit status it ends the command with (`exit.rs`).
    pub fn exit_status(&self) -> u8 {
        match self {
            CliReportError::Api(e) | CliReportError::Worker(WorkerError::Client(e)) => {
                api_status(e)
            }
            CliReportError::NotCached(_) => NOT_CACHED,
            CliReportError::Unreachable { .. } => UNREACHABLE,
            _ => FAILED,
        }
    }
}

impl OfflineJobError for CliReportError {
    fn status(&self) -> u8 {
        self.exit_status()
    }

    fn unreachable(cause: ApiError, then: Box<Self>) -> Self {
        CliReportError::Unreachable { cause, then }
    }
}

const WEEKDAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const WEEKDAY_NAMES: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// Working hours from `mon-fri` (or `mon,wed,sat`, ranges and lists mixed)
/// and `06:00-20:00`, in the machine's local time.
pub fn parse_working_hours(days: &str, hours: &str) -> Result<WorkingHours, CliReportError> {
    let day_err = || CliReportError::WorkingDays(days.to_owned());
    let index = |d: &str| {
        let d = d.trim().to_ascii_lowercase();
        WEEKDAYS
            .iter()
            .zip(WEEKDAY_NAMES)
            .position(|(short, long)| d == *short || d == long)
    };
    let mut on = [false; 7];
    for part in days.split(',').filter(|p| !p.trim().is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (index(a).ok_or_else(day_err)?, index(b).ok_or_else(day_err)?);
                // A range may wrap past Sunday (sat-mon).
                let mut d = a;
                loop {
                    on[d] = true;
                    if d == b {
                        break;
                    }
                    d = (d + 1) % 7;
                }
            }
            None => on[index(part).ok_or_else(day_err)?] = true,
        }
    }
    let hours_err = || CliReportError::WorkingHours(hours.to_owned());
    let minutes = |t: &str| -> Option<u16> {
        let (h, m) = t.trim().split_once(':')?;
        let (h, m): (u16, u16) = (h.parse().ok()?, m.parse().ok()?);
        (m < 60 && (h < 24 || (h == 24 && m == 0))).then_some(h * 60 + m)
    };
    let (a, b) = hours.split_once('-').ok_or_else(hours_err)?;
    let (start_min, end_min) = (
        minutes(a).ok_or_else(hours_err)?,
        minutes(b).ok_or_else(hours_err)?,
    );
    if start_min >= end_min {
        return Err(hours_err());
    }
    Ok(WorkingHours {
        days: on,
        start_min,
        end_min,
    })
}

/// What a report covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    Machine(i64),
    Fleet,
}

/// What `fleetview report` is asked for.
#[derive(Debug, Clone)]
pub struct ReportJob {
    pub client: ClientConfig,
    pub subject: Subject,
    pub window: TimeWindow,
    pub expected: Expected,
    pub format: ReportFormat,
    /// Read only the cache.
    pub offline: bool,
    /// The cache file; `None` for no cache at all.
    pub cache_path: Option<PathBuf>,
    /// The output file; `None` for stdout.
    pub output: Option<PathBuf>,
    /// Now, for a stop still on at the window's end.
    pub now: i64,
    /// Out-of-hours use is running outside these.
    pub working_hours: WorkingHours,
    /// The fuel tank's capacity; `None`: from the machine's model.
    pub tank_l: Option<f64>,
    /// The units the figures and events are written in.
    pub units: fleetview_core::analysis::UnitSystem,
    /// The fleet report: idle above this share of engine hours needs
    /// attention.
    pub idle_threshold_percent: f64,
}

/// What a report did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReportSummary {
    /// Days written (one machine's report).
    pub days: usize,
    /// Events and findings found.
    pub events: usize,
    /// Machines in the report.
    pub machines: usize,
    /// Set if data came from the cache because the service was away (or
    /// `--offline`): when the oldest part was fetched.
    pub offline: OfflineSince,
}

/// Reads (through the same worker and cache as the app), computes and
/// writes. `note` receives progress and notes, for stderr. A fleet report
/// the cache holds only part of is written, then fails (`NotCached`),
/// naming the machines it lacks.
pub fn run_report(
    req: &ReportJob,
    mut note: impl FnMut(&str),
) -> Result<ReportSummary, CliReportError> {
    let hours = req.expected.hours_per_working_day;
    if !(0.0..=24.0).contains(&hours) {
        return Err(CliReportError::ExpectedHours(hours));
    }
    if let Some(l) = req.tank_l.filter(|l| !(l.is_finite() && *l > 0.0)) {
        return Err(CliReportError::TankCapacity(l));
    }
    // A window refused online is refused offline, before anything is sent.
    check_window(req.window)?;
    let mut req = req.clone();
    let unreachable =
        check_sign_in::<CliReportError>(&mut req.client, &mut req.offline, &mut note)?;
    report_signed_in(&req, &mut note).map_err(|e| e.after(unreachable))
}

/// [`run_report`] once the sign-in is checked.
fn report_signed_in(
    req: &ReportJob,
    mut note: impl FnMut(&str),
) -> Result<ReportSummary, CliReportError> {
    let worker = start_worker::<CliReportError>(
        &req.client,
        req.cache_path.as_deref(),
        req.offline,
        &mut note,
    )?;
    let (scope, notes) = match req.subject {
        Subject::Machine(equipment) => (
            ReportScope::Machine {
                machine: ReportMachine {
                    equipment,
                    ..ReportMachine::default()
                },
                tank_l: req.tank_l,
            },
            Vec::new(),
        ),
        Subject::Fleet => {
            let from = FleetSource {
                scope: req.client.cache_scope().to_owned(),
                offline: req.offline,
                window: req.window,
            };
            fleet_scope(&worker, &from, &mut note)?.ok_or_else(|| {
                CliReportError::NotCached("the fleet's list of machines".to_owned())
            })?
        }
    };
    let id = worker.send(Command::Report(Box::new(CoreJob {
        scope,
        window: req.window,
        expected: req.expected,
        now: req.now,
        working_hours: req.working_hours,
        format: req.format,
        units: req.units,
        idle_threshold_percent: req.idle_threshold_percent,
        offline: req.offline,
        place: ReportPlace::Returned,
        notes,
    })));
    let written = wait_written(&worker, req, id, &mut note)?;
    note_cache_notices(&worker, &mut note);
    for n in &written.notes {
        note(n);
    }
    let document = written.document.as_deref().map_or(&[][..], Vec::as_slice);
    write_output(req.output.as_deref(), document)?;
    if !written.lacking.is_empty() {
        let ids: Vec<String> = written.lacking.iter().map(i64::to_string).collect();
        return Err(CliReportError::NotCached(format!(
            "the window {} of equipment {}",
            req.window,
            ids.join(", ")
        )));
    }
    Ok(ReportSummary {
        days: written.days,
        events: written.events,
        machines: written.machines,
        offline: written.offline,
    })
}

/// The report's answer, with progress said meanwhile.
fn wait_written(
    worker: &Worker,
    req: &ReportJob,
    id: RequestId,
    note: &mut impl FnMut(&str),
) -> Result<ReportWritten, CliReportError> {
    let what = match req.subject {
        Subject::Machine(e) => format!("the report of equipment {e}"),
        Subject::Fleet => "the fleet report".to_owned(),
    };
    let waiting = Waiting::new(&req.client, req.offline, what);
    loop {
        match waiting.recv(worker, note) {
            // A fleet's reads are many: its progress would be noise.
            Some(Event::Progress {
                request, progress, ..
            }) if request == id && req.subject != Subject::Fleet => note(&format!(
                "{}/{} chunks fetched, {} cached windows, {} rows",
                progress.chunks_done, progress.chunks_total, progress.cached_windows, progress.rows
            )),
            Some(Event::Export(ExportEvent::Reported {
                request,
                outcome,
                written,
                ..
            })) if request == id => {
                return match outcome {
                    Some(ExportOutcome::Failed(e)) => Err(CliReportError::Render(e)),
                    _ => Ok(*written),
                };
            }
            Some(Event::Failed { request, error, .. }) if request == id => {
                note_cache_notices(worker, note);
                return Err(match (error, req.subject) {
                    // Offline, only the history's absence fails the report
                    // (the rest only leaves figures out).
                    (ApiError::NotConnected, Subject::Machine(e)) if req.offline => {
                        CliReportError::NotCached(format!(
                            "the history of equipment {e} for {}",
                            req.window
                        ))
                    }
                    (e, _) => e.into(),
                });
            }
            Some(_) => {}
            None => return Err(CliReportError::NoAnswer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn working_hours_read_ranges_lists_and_refuse_nonsense() {
        let w = parse_working_hours("mon-fri", "06:00-20:00").expect("default");
        assert_eq!(w, WorkingHours::default());
        let w = parse_working_hours("Sat-mon, wednesday", "07:30-24:00").expect("wrapped");
        assert_eq!(w.days, [true, false, true, false, false, true, true]);
        assert_eq!((w.start_min, w.end_min), (450, 1440));
        for (days, hours) in [
            ("mon-funday", "06:00-20:00"),
            ("mo", "06:00-20:00"),
            ("mon-fri", "20:00-06:00"),
            ("mon-fri", "6-20"),
            ("mon-fri", "06:60-20:00"),
            ("mon-fri", "25:00-26:00"),
        ] {
            assert!(parse_working_hours(days, hours).is_err(), "{days} {hours}");
        }
        assert!(
            parse_working_hours("mon-fri", "x")
                .expect_err("refused")
                .to_string()
                .contains("HH:MM-HH:MM")
        );
    }
}
