//! `fleetview service`: the service book from the command line. `import`
//! reads plans or services done from CSV, each row checked against the
//! fleet (its machines, categories and meters now) before anything is
//! written, then written in one transaction; `due` says where each plan
//! stands on each machine (JSON or CSV); `export` writes the plans or the
//! services done as CSV, or what is coming as an iCalendar file.
//!
//! The book is opened directly (not through the worker); the fleet, its
//! meters and the machines' daily usage are read through the worker and
//! the cache, as the other jobs read them (`service_due.rs`).

use std::collections::HashMap;
use std::path::PathBuf;

use super::args::{CacheArgs, ServiceArgs, parse_now};
use super::job::write_output;
pub use super::service_due::CliServiceError;
use super::service_due::{Setup, due_items, read_book, read_usage, with_fleet};
use fleetview_api::address::host_port;
use fleetview_api::time::{format_wire, now_secs};
use fleetview_core::service::due::{self, DEFAULT_SOON_FRACTION, DueItem};
use fleetview_core::service::import::{self, FleetCheck, Imported};
use fleetview_core::service::plan::{Day, PlanScope, PlanUnit};
use fleetview_core::service::store::ServiceStore;
use fleetview_core::service::write::{self, DueRow};

/// `fleetview service`'s arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = super::exit::EXIT_STATUS_HELP)]
pub struct ServiceCmdArgs {
    #[command(subcommand)]
    pub job: ServiceJob,
}

/// What is done with the service book.
#[derive(Debug, clap::Subcommand)]
pub enum ServiceJob {
    /// Read plans (scope,task,every,unit,last_done_date,last_done_meter) or
    /// services done (equipment,task,unit,date,meter) from a CSV file into
    /// the service book; one bad row refuses the whole file.
    #[command(after_help = super::exit::EXIT_STATUS_HELP)]
    Import(ImportArgs),
    /// Where each plan stands on each machine of the fleet: the meter now,
    /// the next due reading, what remains, a forecast date.
    #[command(after_help = super::exit::EXIT_STATUS_HELP)]
    Due(DueArgs),
    /// The plans (or, with --history, the services done) as CSV, or the
    /// services coming as an iCalendar file (ics).
    #[command(after_help = super::exit::EXIT_STATUS_HELP)]
    Export(BookExportArgs),
}

/// What every `service` job reads: the service (whose plans the book
/// keeps apart), the cache, now, and the book's file.
#[derive(Debug, clap::Args)]
pub struct BookArgs {
    #[command(flatten)]
    pub service: ServiceArgs,
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Now, as YYYY-MM-DDTHH:mm:ssZ (default: the clock): today for the
    /// due dates, and against a sandbox started with its own --now.
    #[arg(long)]
    pub now: Option<String>,
    /// The service book (default: service.sqlite in the user's data
    /// folder, the app's).
    #[arg(long)]
    pub service_file: Option<PathBuf>,
}

impl BookArgs {
    fn setup(self) -> Result<Setup, CliServiceError> {
        let service_file = self
            .service_file
            .clone()
            .or_else(ServiceStore::default_path)
            .ok_or(CliServiceError::NoServiceDir)?;
        Ok(Setup {
            cache_path: self.cache.path()?,
            offline: self.cache.offline,
            now: parse_now(self.now.as_deref())?.unwrap_or_else(now_secs),
            client: self.service.client(),
            service_file,
        })
    }
}

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The CSV file (its header says whether it holds plans or services
    /// done).
    pub file: PathBuf,
    #[command(flatten)]
    pub book: BookArgs,
}

/// Which of the due services are listed (`due`, and `export`'s calendar).
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct DueWindow {
    /// Only what is overdue or falls due within this many days (with
    /// `export`, for `--format ics`).
    #[arg(long)]
    pub within: Option<u32>,
    /// Due soon within this share of the interval, in percent (with
    /// `export`, for `--format ics`).
    #[arg(
        long,
        default_value_t = (DEFAULT_SOON_FRACTION * 100.0).round() as u8,
        value_parser = clap::value_parser!(u8).range(0..=100)
    )]
    pub soon_percent: u8,
}

#[derive(Debug, clap::Args)]
pub struct DueArgs {
    #[command(flatten)]
    pub book: BookArgs,
    #[command(flatten)]
    pub window: DueWindow,
    #[arg(long, value_enum, default_value_t = DueFormat::Json)]
    pub format: DueFormat,
    /// Output file (default: stdout; `-` for stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DueFormat {
    /// `{"generated_at", "items": [...]}`, for scripts.
    Json,
    /// One row per machine and plan.
    Csv,
}

#[derive(Debug, clap::Args)]
pub struct BookExportArgs {
    #[command(flatten)]
    pub book: BookArgs,
    #[command(flatten)]
    pub what: ExportWhat,
    /// Output file (default: stdout; `-` for stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// What `service export` writes.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct ExportWhat {
    #[arg(long, value_enum, default_value_t = BookFormat::Csv)]
    pub format: BookFormat,
    /// CSV: the services done rather than the plans.
    #[arg(long)]
    pub history: bool,
    #[command(flatten)]
    pub window: DueWindow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BookFormat {
    /// The plans (or services done) in the file `import` reads.
    Csv,
    /// An iCalendar file (RFC 5545): an all-day event per dated service.
    Ics,
}

/// Runs the job; `note` receives what is said on stderr. Returns the line
/// for stdout (an import's), said once the book has committed it.
pub fn run_service(
    args: ServiceCmdArgs,
    mut note: impl FnMut(&str),
) -> Result<Option<String>, CliServiceError> {
    match args.job {
        ServiceJob::Import(a) => {
            let setup = a.book.setup()?;
            import_file(&a.file, &setup, &mut note).map(Some)
        }
        ServiceJob::Due(a) => {
            let setup = a.book.setup()?;
            let rows: Vec<DueRow> = due_listed(&setup, a.window, &mut note)?
                .iter()
                .map(|(i, name)| DueRow::of(i, name))
                .collect();
            let bytes = match a.format {
                DueFormat::Json => write::due_json(&rows, &format_wire(setup.now)),
                DueFormat::Csv => write::due_csv(&rows),
            };
            write_output(a.output.as_deref(), &bytes)?;
            Ok(None)
        }
        ServiceJob::Export(a) => {
            let bytes = export_bytes(a.what, a.book.setup()?, &mut note)?;
            write_output(a.output.as_deref(), &bytes)?;
            Ok(None)
        }
    }
}

/// The document `service export` writes.
fn export_bytes(
    a: ExportWhat,
    setup: Setup,
    note: &mut impl FnMut(&str),
) -> Result<Vec<u8>, CliServiceError> {
    match a.format {
        BookFormat::Csv => {
            if a.window.within.is_some() {
                return Err(CliServiceError::Usage(
                    "--within applies to --format ics".to_owned(),
                ));
            }
            let book = read_book(&setup.service_file, setup.scope(), note)?;
            Ok(if a.history {
                write::done_csv(&book.done)
            } else {
                write::plans_csv(&book.plans)
            })
        }
        BookFormat::Ics => {
            if a.history {
                return Err(CliServiceError::Usage(
                    "--history applies to --format csv (the calendar holds what is coming)"
                        .to_owned(),
                ));
            }
            let items = due_listed(&setup, a.window, note)?;
            let host = host_port(&setup.client.base_url);
            Ok(write::calendar(&items, setup.today(), setup.now, &host))
        }
    }
}

/// The due services `window` lists, in `service due`'s order, with
/// their machines' names.
fn due_listed(
    setup: &Setup,
    window: DueWindow,
    note: &mut impl FnMut(&str),
) -> Result<Vec<(DueItem, String)>, CliServiceError> {
    let book = read_book(&setup.service_file, setup.scope(), note)?;
    let today = setup.today();
    let soon_fraction = f64::from(window.soon_percent) / 100.0;
    let mut items = due_items(&book, setup, soon_fraction, note)?;
    if let Some(days) = window.within {
        items.retain(|(i, _)| i.within(today, i64::from(days)));
    }
    Ok(items)
}

/// Reads and checks the file, then writes it into the book in one
/// transaction; nothing is written unless every row passed. Returns the
/// line said once committed.
fn import_file(
    file: &std::path::Path,
    setup: &Setup,
    note: &mut impl FnMut(&str),
) -> Result<String, CliServiceError> {
    let bytes = std::fs::read(file).map_err(|source| CliServiceError::ReadFile {
        path: file.display().to_string(),
        source,
    })?;
    let imported = import::read_csv(&bytes, setup.now)?;
    with_fleet(setup, note, |worker, setup, fleet, note| {
        let machines = fleet.categories();
        let wanted = readings_above(&imported, &machines, &fleet.meters, setup.today());
        let usage = read_usage(worker, setup, &wanted, true, note)?;
        let reset_since = |id: i64, unit: PlanUnit, since: Day| {
            usage
                .get(&id)
                .is_some_and(|days| due::reset_since(unit, since, days))
        };
        let check = FleetCheck {
            machines: &machines,
            meters: &fleet.meters,
            reset_since: &reset_since,
            today: setup.today(),
        };
        Ok(import::check(&imported, &check)?)
    })?;
    let path = &setup.service_file;
    let store = ServiceStore::open(path)?;
    if let Some(why) = store.read_only() {
        return Err(CliServiceError::ReadOnly {
            path: path.display().to_string(),
            why: why.to_owned(),
        });
    }
    let count = store.import(setup.scope(), &imported)?;
    let n = count.added + count.replaced;
    Ok(match imported {
        Imported::Plans(_) => format!(
            "imported {n} {} ({} replaced) into {}",
            if n == 1 { "plan" } else { "plans" },
            count.replaced,
            path.display()
        ),
        Imported::Done(_) => format!(
            "imported {n} {} into {}",
            if n == 1 {
                "service done"
            } else {
                "services done"
            },
            path.display()
        ),
    })
}

/// The machines with a reading in the file above their meter now, each
/// with the earliest such day: their daily usage from then says whether
/// the meter was reset since (which makes the reading fine). Rows the
/// check refuses anyway (an unknown machine, a day after today) read
/// nothing.
fn readings_above(
    imported: &Imported,
    machines: &HashMap<i64, Option<String>>,
    meters: &HashMap<i64, fleetview_core::service::usage::MetersNow>,
    today: Day,
) -> HashMap<i64, Day> {
    let rows: Vec<(
        i64,
        PlanUnit,
        Option<fleetview_core::service::plan::LastDone>,
    )> = match imported {
        Imported::Plans(rows) => rows
            .iter()
            .filter_map(|(_, p)| match p.scope {
                PlanScope::Machine(id) => Some((id, p.unit, p.last_done)),
                PlanScope::Category(_) => None,
            })
            .collect(),
        Imported::Done(rows) => rows
            .iter()
            .map(|(_, r)| (r.equipment, r.unit, Some(r.done)))
            .collect(),
    };
    let mut wanted: HashMap<i64, Day> = HashMap::new();
    for (id, unit, done) in rows {
        let Some(done) = done.filter(|d| d.day <= today) else {
            continue;
        };
        let now = meters.get(&id).and_then(|m| m.get(unit));
        let above = matches!((done.meter, now), (Some(r), Some(now)) if r > now);
        if above && machines.contains_key(&id) {
            let day = wanted.entry(id).or_insert(done.day);
            *day = (*day).min(done.day);
        }
    }
    wanted
}
