//! What the `fleetview service` jobs read and work out beside the service
//! book: the fleet and its meters now (the snapshots), each machine's daily
//! usage (through the worker and the cache, offline too), and where each
//! plan stands on each machine (`service::due`), in the order `due` lists
//! them. The jobs' error, and the exit status it ends them with, live here
//! too, as both `service.rs` and this file raise it.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use super::exit::{FAILED, NOT_CACHED, OfflineJobError, REFUSED, UNREACHABLE, USAGE, api_status};
use super::job::{Waiting, check_sign_in, note_cache_notices, start_worker};
use super::report_fleet::{FleetSource, fleet_list, snapshots};
use fleetview_api::limits::MAX_WINDOW_DAYS;
use fleetview_api::model::EquipmentSummary;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_api::{ApiError, ClientConfig};
use fleetview_core::cache::CacheError;
use fleetview_core::service::due::{self, DueItem, FORECAST_DAYS};
use fleetview_core::service::import::ImportError;
use fleetview_core::service::plan::{Day, ServiceBook};
use fleetview_core::service::store::{ServiceStore, StoreError};
use fleetview_core::service::usage::{MachineUsage, MetersNow, UsageDay};
use fleetview_core::worker::{Command, Event, RequestId, ServiceEvent, Worker, WorkerError};

/// Why a `fleetview service` job failed.
#[derive(Debug, thiserror::Error)]
pub enum CliServiceError {
    #[error(transparent)]
    Api(#[from] ApiError),
    #[error(transparent)]
    Cache(#[from] CacheError),
    #[error(transparent)]
    Worker(#[from] WorkerError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Arg(#[from] super::args::ArgError),
    /// A row of the file refused: nothing of the file is kept. (Not its
    /// source: the row's reason is said once.)
    #[error("{0}; nothing was imported")]
    Row(ImportError),
    #[error("{path} could not be read")]
    ReadFile {
        path: String,
        source: std::io::Error,
    },
    #[error("the service book {path} is read-only ({why}); nothing was imported")]
    ReadOnly { path: String, why: String },
    #[error("no data folder on this system for the service book; use --service-file")]
    NoServiceDir,
    #[error("{0} is not cached: run the command once online (offline, only the cache is read)")]
    NotCached(String),
    /// The service could not be reached at the login, and the cache then
    /// lacked what was asked for.
    #[error("{cause}; and {then}")]
    Unreachable {
        cause: ApiError,
        then: Box<CliServiceError>,
    },
    #[error("{0}")]
    Usage(String),
    #[error("the background worker stopped without an answer")]
    NoAnswer,
    #[error("writing: {0}")]
    Io(#[from] std::io::Error),
}

impl From<ImportError> for CliServiceError {
    fn from(e: ImportError) -> Self {
        CliServiceError::Row(e)
    }
}

impl CliServiceError {
    /// The exit status it ends the command with (`exit.rs`).
    pub fn exit_status(&self) -> u8 {
        match self {
            CliServiceError::Api(e) | CliServiceError::Worker(WorkerError::Client(e)) => {
                api_status(e)
            }
            CliServiceError::Row(_) | CliServiceError::Usage(_) => USAGE,
            CliServiceError::NotCached(_) => NOT_CACHED,
            CliServiceError::Unreachable { .. } => UNREACHABLE,
            _ => FAILED,
        }
    }
}

impl OfflineJobError for CliServiceError {
    fn status(&self) -> u8 {
        self.exit_status()
    }

    fn unreachable(cause: ApiError, then: Box<Self>) -> Self {
        CliServiceError::Unreachable { cause, then }
    }
}

/// Where a service job reads from, as asked.
#[derive(Debug, Clone)]
pub(crate) struct Setup {
    pub(crate) client: ClientConfig,
    pub(crate) cache_path: Option<PathBuf>,
    /// Read only the cache, never the service.
    pub(crate) offline: bool,
    /// UTC seconds; today is its day.
    pub(crate) now: i64,
    pub(crate) service_file: PathBuf,
}

impl Setup {
    pub(crate) fn today(&self) -> Day {
        Day::of_secs(self.now)
    }

    /// What the service book keeps this service's plans under.
    pub(crate) fn scope(&self) -> &str {
        self.client.cache_scope()
    }

    /// The window from the start of `since` to now, no longer than the
    /// client reads.
    fn window_from(&self, since: Day) -> TimeWindow {
        let earliest = self.now - MAX_WINDOW_DAYS * SECS_PER_DAY + 1;
        let since = (since.0 * SECS_PER_DAY).clamp(earliest, self.now);
        TimeWindow {
            since,
            until: self.now,
        }
    }
}

/// The fleet as the service jobs read it.
pub(crate) struct FleetNow {
    pub(crate) machines: Vec<EquipmentSummary>,
    pub(crate) meters: HashMap<i64, MetersNow>,
}

impl FleetNow {
    /// Each machine's category, by id.
    pub(crate) fn categories(&self) -> HashMap<i64, Option<String>> {
        self.machines
            .iter()
            .map(|m| (m.id, m.category.clone()))
            .collect()
    }
}

/// Signs in, starts the worker on the cache, reads the fleet and its
/// meters, and hands them to `work`. A service that cannot be reached is
/// said and the cache read instead; a job the cache then cannot serve
/// fails as unreachable.
pub(crate) fn with_fleet<T>(
    setup: &Setup,
    note: &mut impl FnMut(&str),
    work: impl FnOnce(&Worker, &Setup, &FleetNow, &mut dyn FnMut(&str)) -> Result<T, CliServiceError>,
) -> Result<T, CliServiceError> {
    let mut setup = setup.clone();
    let unreachable =
        check_sign_in::<CliServiceError>(&mut setup.client, &mut setup.offline, note)?;
    let run = || -> Result<T, CliServiceError> {
        let worker = start_worker::<CliServiceError>(
            &setup.client,
            setup.cache_path.as_deref(),
            setup.offline,
            note,
        )?;
        let fleet = read_fleet(&worker, &setup, note)?;
        let out = work(&worker, &setup, &fleet, note)?;
        note_cache_notices(&worker, note);
        Ok(out)
    };
    run().map_err(|e| e.after(unreachable))
}

fn read_fleet(
    worker: &Worker,
    setup: &Setup,
    note: &mut impl FnMut(&str),
) -> Result<FleetNow, CliServiceError> {
    let from = FleetSource {
        scope: setup.scope().to_owned(),
        offline: setup.offline,
        // Only read if the service has no list of its machines (D2).
        window: TimeWindow {
            since: setup.now - FORECAST_DAYS * SECS_PER_DAY,
            until: setup.now,
        },
    };
    let mut notes = Vec::new();
    let machines = fleet_list(worker, &from, &mut notes)?
        .ok_or_else(|| CliServiceError::NotCached("the fleet's list of machines".to_owned()))?;
    for n in &notes {
        note(n);
    }
    let (snapshots, known) = snapshots(worker, &from)?;
    if !known {
        note(
            "the machines' meters now could not be read: meter plans are unknown, and readings are not checked against them",
        );
    }
    let meters = snapshots.iter().map(|s| (s.id, MetersNow::of(s))).collect();
    Ok(FleetNow { machines, meters })
}

/// Each machine's daily usage from the day given to now, read at once
/// (one request per machine, each through the cache), sorted by day, one
/// per day. `strict`: a read that fails fails the job; otherwise it is
/// said and that machine is left out (a refused key always fails).
pub(crate) fn read_usage(
    worker: &Worker,
    setup: &Setup,
    wanted: &HashMap<i64, Day>,
    strict: bool,
    note: &mut dyn FnMut(&str),
) -> Result<HashMap<i64, Vec<UsageDay>>, CliServiceError> {
    let mut out = HashMap::new();
    if wanted.is_empty() {
        return Ok(out);
    }
    let mut pending: HashMap<RequestId, i64> = HashMap::new();
    for (&equipment, &since) in wanted {
        let id = worker.send(Command::FetchServiceUsage {
            equipment,
            window: setup.window_from(since),
            offline: setup.offline,
        });
        pending.insert(id, equipment);
    }
    let what = match wanted.len() {
        1 => "the daily usage of 1 machine".to_owned(),
        n => format!("the daily usage of {n} machines"),
    };
    let waiting = Waiting::new(&setup.client, setup.offline, what);
    let mut not_cached = BTreeSet::new();
    let mut note = note;
    while !pending.is_empty() {
        match waiting.recv(worker, &mut note) {
            Some(Event::Service(ServiceEvent::Usage {
                request,
                equipment,
                days,
                offline,
                ..
            })) if pending.remove(&request).is_some() => {
                if days.is_empty() && offline.is_some() && setup.offline {
                    not_cached.insert(equipment);
                }
                // Sorted, one per day, by the worker.
                out.insert(equipment, days.to_vec());
            }
            Some(Event::Failed { request, error, .. }) => {
                let Some(equipment) = pending.remove(&request) else {
                    continue;
                };
                if strict || api_status(&error) == REFUSED {
                    return Err(error.into());
                }
                note(&format!(
                    "the daily usage of equipment {equipment} could not be read ({error}): no forecast for it"
                ));
            }
            Some(_) => {}
            None => return Err(CliServiceError::NoAnswer),
        }
    }
    if !not_cached.is_empty() {
        let ids: Vec<String> = not_cached.iter().map(i64::to_string).collect();
        note(&format!(
            "the cache holds no daily usage of equipment {}: no forecast for it",
            ids.join(", ")
        ));
    }
    Ok(out)
}

/// Where each plan stands on each machine of the fleet with plans, with
/// the machine's name, in `due`'s order: overdue, due soon, unknown, ok;
/// then by date (undated last) and machine name.
pub(crate) fn due_items(
    book: &ServiceBook,
    setup: &Setup,
    soon_fraction: f64,
    note: &mut impl FnMut(&str),
) -> Result<Vec<(DueItem, String)>, CliServiceError> {
    if book.plans.is_empty() {
        note(&format!(
            "no plans for {} in the service book {}: import them with `fleetview service import`",
            setup.scope(),
            setup.service_file.display()
        ));
        return Ok(Vec::new());
    }
    with_fleet(setup, note, |worker, setup, fleet, note| {
        let today = setup.today();
        let wanted = usage_wanted(book, fleet, today);
        let usage = read_usage(worker, setup, &wanted, false, note)?;
        note_unlisted(book, fleet, note);
        let mut items = Vec::new();
        for m in &fleet.machines {
            let usage = MachineUsage {
                meters: fleet.meters.get(&m.id).copied().unwrap_or_default(),
                days_read: usage.contains_key(&m.id),
                days: usage.get(&m.id).cloned().unwrap_or_default(),
            };
            let category = m.category.as_deref();
            items.extend(
                due::machine_due(
                    m.id,
                    category,
                    &book.plans,
                    &book.done,
                    &usage,
                    today,
                    soon_fraction,
                )
                .into_iter()
                .map(|item| (item, m.name.clone())),
            );
        }
        sort_items(&mut items);
        Ok(items)
    })
}

/// The machines whose daily usage the due rules read, each from the
/// earliest last done of its meter plans, or 30 days before today if
/// earlier (the forecast's pace). Machines with days plans only read none.
fn usage_wanted(book: &ServiceBook, fleet: &FleetNow, today: Day) -> HashMap<i64, Day> {
    let mut wanted = HashMap::new();
    for m in &fleet.machines {
        let Some(since) =
            due::usage_from(m.id, m.category.as_deref(), &book.plans, &book.done, today)
        else {
            continue;
        };
        wanted.insert(m.id, since);
    }
    wanted
}

/// Says which machines' own plans are left out: not in the fleet (any
/// more).
fn note_unlisted(book: &ServiceBook, fleet: &FleetNow, note: &mut dyn FnMut(&str)) {
    use fleetview_core::service::plan::PlanScope;
    let listed: BTreeSet<i64> = fleet.machines.iter().map(|m| m.id).collect();
    let unlisted: BTreeSet<i64> = book
        .plans
        .iter()
        .filter_map(|p| match p.plan.scope {
            PlanScope::Machine(id) if !listed.contains(&id) => Some(id),
            _ => None,
        })
        .collect();
    if !unlisted.is_empty() {
        let ids: Vec<String> = unlisted.iter().map(i64::to_string).collect();
        note(&format!(
            "plans of equipment {} are left out: not in the fleet",
            ids.join(", ")
        ));
    }
}

/// Overdue first, then due soon, unknown, ok; within that by date (the
/// undated last), machine name, task.
pub(crate) fn sort_items(items: &mut [(DueItem, String)]) {
    items.sort_by(|(a, an), (b, bn)| {
        let key = |i: &DueItem| (i.status, i.when().map_or(i64::MAX, |d| d.0));
        key(a)
            .cmp(&key(b))
            .then_with(|| an.cmp(bn))
            .then_with(|| a.equipment.cmp(&b.equipment))
            .then_with(|| {
                let task = |i: &DueItem| i.plan.plan.task.trim().to_lowercase();
                task(a).cmp(&task(b))
            })
    });
}

/// The service book as it is, to read: none yet is an empty one (nothing
/// is made by reading it). A read-only book is read, and said.
pub(crate) fn read_book(
    path: &Path,
    scope: &str,
    note: &mut impl FnMut(&str),
) -> Result<ServiceBook, CliServiceError> {
    if !path.exists() {
        return Ok(ServiceBook::default());
    }
    let store = ServiceStore::open(path)?;
    if let Some(why) = store.read_only() {
        note(&format!(
            "the service book {} is read-only ({why}): read as it is",
            path.display()
        ));
    }
    Ok(store.book(scope)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_core::service::due::{DueStatus, Forecast};
    use fleetview_core::service::plan::{Plan, PlanId, PlanScope, PlanUnit, StoredPlan};

    fn item(equipment: i64, status: DueStatus, day: Option<i64>) -> DueItem {
        DueItem {
            equipment,
            plan: StoredPlan {
                id: PlanId(1),
                plan: Plan {
                    scope: PlanScope::Machine(equipment),
                    task: "Oil".to_owned(),
                    every: 250.0,
                    unit: PlanUnit::Hours,
                    last_done: None,
                },
            },
            from_category: false,
            last_done: None,
            meter_now: None,
            next_due_meter: None,
            remaining: None,
            due_day: None,
            forecast: day.map_or(Forecast::NoBase, |d| Forecast::On(Day(d))),
            resets: 0,
            status,
        }
    }

    #[test]
    fn items_go_by_status_then_date_undated_last_then_name() {
        let mut items = vec![
            (item(1, DueStatus::Ok, Some(5)), "a".to_owned()),
            (item(2, DueStatus::Unknown, None), "b".to_owned()),
            (item(3, DueStatus::DueSoon, None), "c".to_owned()),
            (item(4, DueStatus::DueSoon, Some(9)), "z".to_owned()),
            (item(5, DueStatus::DueSoon, Some(9)), "y".to_owned()),
            (item(6, DueStatus::Overdue, Some(20)), "x".to_owned()),
        ];
        sort_items(&mut items);
        let order: Vec<i64> = items.iter().map(|(i, _)| i.equipment).collect();
        assert_eq!(order, [6, 5, 4, 3, 2, 1]);
    }
}
