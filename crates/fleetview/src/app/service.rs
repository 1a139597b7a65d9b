//! Service planning as the app knows it: the service book (plans, the
//! services done) as the worker last read it, each planned machine's
//! daily usage read for the due rules, and where every machine's services
//! stand (recomputed when any of those, the snapshots or the day change;
//! never per frame).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

use super::loadable::Loadable;
use fleetview_api::equipment::EquipmentSnapshot;
use fleetview_api::model::EquipmentSummary;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_core::analysis::Attention;
use fleetview_core::export::shown::{ExportContent, ServiceFile};
use fleetview_core::service::attention::{describe, due_attention};
use fleetview_core::service::change::{Saved, ServiceCommand};
use fleetview_core::service::due::{
    DEFAULT_SOON_FRACTION, DueItem, DueStatus, machine_due, usage_from,
};
use fleetview_core::service::plan::{Day, DoneRecord, Plan, PlanId, ServiceBook};
use fleetview_core::service::usage::{MachineUsage, MetersNow, UsageDay};
use fleetview_core::service::write::{calendar, done_csv, plans_csv};
use fleetview_core::worker::{Command, ServiceEvent};

/// How many machines' daily usage is read at once.
const USAGE_AT_ONCE: usize = 4;

#[derive(Debug, Clone, PartialEq)]
pub enum ServiceAction {
    /// A new plan (`id` none) or one changed.
    SavePlan {
        id: Option<PlanId>,
        plan: Plan,
    },
    DeletePlan(PlanId),
    /// A service done on a machine.
    MarkDone(DoneRecord),
    /// Due soon within this share of the interval (percent).
    SetSoonPercent(u8),
    /// Save the plans, the services done or the upcoming services to a
    /// file (the worker asks where).
    Export(ServiceFile),
}

/// What the last write did, for the form that sent it.
#[derive(Debug, Clone, PartialEq)]
pub enum WriteNews {
    Saved(String),
    Failed(String),
}

/// One machine's daily usage as read for the due rules.
#[derive(Debug, Clone)]
pub struct UsageRead {
    pub window: TimeWindow,
    pub days: Arc<Vec<UsageDay>>,
    /// Read on this day (read again the next).
    pub read_on: Day,
}

/// Where a machine's services stand.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MachineService {
    /// Its plans (its own and its category's), overdue first.
    pub items: Vec<DueItem>,
    /// The worst status among them.
    pub worst: Option<DueStatus>,
    /// The Fleet table's cell: `Overdue: Engine oil` or `OK (3 plans)`.
    pub summary: String,
    /// Its services overdue or due soon, as attention items.
    pub attention: Vec<Attention>,
}

#[derive(Debug)]
pub struct ServiceState {
    /// The file (`None`: none on this system, nothing is kept).
    pub path: Option<PathBuf>,
    pub book: Loadable<Arc<ServiceBook>>,
    /// Why the book cannot be written (a damaged or newer file).
    pub read_only: Option<String>,
    pub usage: HashMap<i64, UsageRead>,
    usage_in_flight: HashSet<i64>,
    /// Writes sent, by their count, and what each does.
    pub writing: HashMap<u64, &'static str>,
    next_write: u64,
    /// What the last write answered.
    pub news: Option<WriteNews>,
    /// Counts the news (a view shows only what came after it looked).
    pub news_count: u64,
    /// Counts the writes that succeeded: a form seeing it change clears.
    pub saved: u64,
    /// Due soon within this share of the interval.
    pub soon_fraction: f64,
    /// Each machine's services, as last computed.
    pub machines: HashMap<i64, MachineService>,
    dirty: bool,
    computed_on: Option<Day>,
    /// The service (base URL) the book was last read for.
    read_for: Option<String>,
}

impl Default for ServiceState {
    fn default() -> Self {
        Self {
            path: None,
            book: Loadable::Idle,
            read_only: None,
            usage: HashMap::new(),
            usage_in_flight: HashSet::new(),
            writing: HashMap::new(),
            next_write: 0,
            news: None,
            news_count: 0,
            saved: 0,
            soon_fraction: DEFAULT_SOON_FRACTION,
            machines: HashMap::new(),
            dirty: true,
            computed_on: None,
            read_for: None,
        }
    }
}

impl ServiceState {
    /// Opens the book (the worker reads it off this thread), for the
    /// service at `base_url`.
    pub fn open(&mut self, base_url: &str) -> Vec<Command> {
        let Some(path) = self.path.clone() else {
            return Vec::new();
        };
        self.read_for = Some(base_url.to_owned());
        self.book.start();
        vec![Command::Service {
            write: 0,
            command: ServiceCommand::Open(path),
        }]
    }

    /// Reads it again when another service is in use (its own plans);
    /// the same one keeps what is shown.
    pub fn reload(&mut self, base_url: &str) -> Vec<Command> {
        if self.path.is_none() || self.read_for.as_deref() == Some(base_url) {
            return Vec::new();
        }
        // Connected before `start` opened it (an API key, a profile, the
        // embedded sandbox): opened now.
        if self.read_for.is_none() {
            return self.open(base_url);
        }
        self.read_for = Some(base_url.to_owned());
        self.usage.clear();
        self.usage_in_flight.clear();
        self.machines.clear();
        self.dirty = true;
        self.book.start();
        vec![Command::Service {
            write: 0,
            command: ServiceCommand::Load,
        }]
    }

    pub fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    pub fn on_action(&mut self, action: ServiceAction) -> Vec<Command> {
        let (what, command) = match action {
            ServiceAction::SetSoonPercent(p) => {
                self.soon_fraction = f64::from(p.clamp(1, 50)) / 100.0;
                self.dirty = true;
                return Vec::new();
            }
            // Made by `AppState`, which knows the names (see `export`).
            ServiceAction::Export(_) => return Vec::new(),
            ServiceAction::SavePlan { id, plan } => {
                ("saving the plan", ServiceCommand::SavePlan { id, plan })
            }
            ServiceAction::DeletePlan(id) => ("deleting the plan", ServiceCommand::DeletePlan(id)),
            ServiceAction::MarkDone(r) => ("recording the service", ServiceCommand::RecordDone(r)),
        };
        if self.path.is_none() {
            self.news = Some(WriteNews::Failed(
                "No service book on this system: nothing can be kept.".into(),
            ));
            return Vec::new();
        }
        self.next_write += 1;
        self.writing.insert(self.next_write, what);
        self.news = None;
        vec![Command::Service {
            write: self.next_write,
            command,
        }]
    }

    pub fn on_event(&mut self, event: ServiceEvent) {
        match event {
            ServiceEvent::Book {
                book,
                read_only,
                outcome,
                write,
                ..
            } => {
                self.writing.remove(&write);
                self.book = Loadable::Ready(book);
                self.read_only = read_only;
                if outcome.is_some() {
                    self.news_count += 1;
                }
                match outcome {
                    Some(Ok(saved)) => {
                        self.saved += 1;
                        self.news = Some(WriteNews::Saved(saved_words(&saved).into()));
                        // (A service dated before the usage read makes
                        // `pump` read further back.)
                    }
                    Some(Err(why)) => self.news = Some(WriteNews::Failed(why)),
                    None => {}
                }
                self.dirty = true;
            }
            ServiceEvent::Usage {
                equipment,
                window,
                days,
                ..
            } => {
                self.usage_in_flight.remove(&equipment);
                let read_on = Day::of_secs(window.until);
                self.usage.insert(
                    equipment,
                    UsageRead {
                        window,
                        days,
                        read_on,
                    },
                );
                self.dirty = true;
            }
        }
    }

    /// A usage read failed: tried again on the next change, not at once.
    pub fn on_usage_failed(&mut self, equipment: i64) {
        self.usage_in_flight.remove(&equipment);
    }

    fn plans(&self) -> (&[fleetview_core::service::plan::StoredPlan], &[DoneRecord]) {
        match self.book.value() {
            Some(b) => (&b.plans, &b.done),
            None => (&[], &[]),
        }
    }

    /// Computes every machine's services again if anything changed;
    /// whether it did.
    pub fn refresh(
        &mut self,
        fleet: &[EquipmentSummary],
        snapshots: &HashMap<i64, EquipmentSnapshot>,
        now: i64,
    ) -> bool {
        let today = Day::of_secs(now);
        if !self.dirty && self.computed_on == Some(today) {
            return false;
        }
        let (plans, done) = self.plans();
        let mut machines = HashMap::new();
        for e in fleet {
            let usage = self.machine_usage(e.id, snapshots.get(&e.id));
            let mut items = machine_due(
                e.id,
                e.category.as_deref(),
                plans,
                done,
                &usage,
                today,
                self.soon_fraction,
            );
            if items.is_empty() {
                continue;
            }
            items.sort_by(|a, b| a.status.cmp(&b.status).then(a.when().cmp(&b.when())));
            machines.insert(e.id, summarise(items));
        }
        self.machines = machines;
        self.dirty = false;
        self.computed_on = Some(today);
        true
    }

    fn machine_usage(&self, id: i64, snapshot: Option<&EquipmentSnapshot>) -> MachineUsage {
        let meters = snapshot.map(MetersNow::of).unwrap_or_default();
        match self.usage.get(&id) {
            Some(u) => MachineUsage {
                meters,
                days: u.days.to_vec(),
                days_read: true,
            },
            None => MachineUsage {
                meters,
                ..Default::default()
            },
        }
    }

    /// The daily usage reads wanted: each machine with a meter plan, from
    /// its oldest last done (or 30 days back) to today, a few at a time.
    pub fn pump(&mut self, fleet: &[EquipmentSummary], offline: bool, now: i64) -> Vec<Command> {
        let today = Day::of_secs(now);
        let (plans, done) = self.plans();
        let mut wanted = Vec::new();
        for e in fleet {
            if self.usage_in_flight.len() + wanted.len() >= USAGE_AT_ONCE {
                break;
            }
            if self.usage_in_flight.contains(&e.id) {
                continue;
            }
            let Some(from) = usage_from(e.id, e.category.as_deref(), plans, done, today) else {
                continue;
            };
            let since = from.0 * SECS_PER_DAY;
            let fresh = self
                .usage
                .get(&e.id)
                .is_some_and(|u| u.read_on == today && u.window.since <= since);
            if !fresh {
                wanted.push((e.id, since));
            }
        }
        let until = (today.0 + 1) * SECS_PER_DAY - 1;
        wanted
            .into_iter()
            .map(|(equipment, since)| {
                self.usage_in_flight.insert(equipment);
                Command::FetchServiceUsage {
                    equipment,
                    window: TimeWindow {
                        since,
                        until: until.max(since),
                    },
                    offline,
                }
            })
            .collect()
    }

    /// A file of the book: its bytes, made here (a few rows per plan).
    /// `service`: the base URL, which keys the calendar's UIDs.
    pub fn export(
        &self,
        file: ServiceFile,
        fleet: &[EquipmentSummary],
        now: i64,
        service: &str,
    ) -> ExportContent {
        let (plans, done) = self.plans();
        let bytes = match file {
            ServiceFile::Plans => plans_csv(plans),
            ServiceFile::Done => done_csv(done),
            ServiceFile::Calendar => {
                let mut items: Vec<(DueItem, String)> = fleet
                    .iter()
                    .filter_map(|e| Some((e, self.machines.get(&e.id)?)))
                    .flat_map(|(e, m)| m.items.iter().map(|i| (i.clone(), e.name.clone())))
                    .collect();
                items.sort_by_key(|a| a.0.when());
                calendar(&items, Day::of_secs(now), now, service)
            }
        };
        ExportContent::Service {
            file,
            bytes: Arc::new(bytes),
        }
    }

    /// Due soon within this percent of the interval.
    pub fn soon_percent(&self) -> u8 {
        (self.soon_fraction * 100.0).round().clamp(1.0, 50.0) as u8
    }

    /// The machine's services (none: no plan applies).
    pub fn of(&self, id: i64) -> Option<&MachineService> {
        self.machines.get(&id)
    }

    /// The attention items of every machine with services due.
    pub fn attention(&self) -> HashMap<i64, Vec<Attention>> {
        self.machines
            .iter()
            .filter(|(_, m)| !m.attention.is_empty())
            .map(|(id, m)| (*id, m.attention.clone()))
            .collect()
    }

    /// Whether the machine's daily usage is still being read.
    pub fn usage_pending(&self, id: i64) -> bool {
        self.usage_in_flight.contains(&id)
    }
}

fn saved_words(saved: &Saved) -> &'static str {
    match saved {
        Saved::Plan(_) => "Plan saved",
        Saved::Deleted(_) => "Plan deleted",
        Saved::Done => "Service recorded",
        Saved::Imported(_) => "Imported",
    }
}

fn summarise(items: Vec<DueItem>) -> MachineService {
    let worst = items.iter().map(|i| i.status).min();
    let summary = match items.iter().find(|i| i.status.is_due()) {
        Some(first) => {
            let more = items.iter().filter(|i| i.status.is_due()).count() - 1;
            let extra = if more > 0 {
                format!(" (+{more})")
            } else {
                String::new()
            };
            format!("{}{extra}", describe(first))
        }
        None => {
            let n = items.len();
            let plans = if n == 1 {
                "1 plan".to_owned()
            } else {
                format!("{n} plans")
            };
            match worst {
                Some(DueStatus::Unknown) => format!("Unknown ({plans})"),
                _ => format!("OK ({plans})"),
            }
        }
    };
    let attention = due_attention(&items);
    MachineService {
        items,
        worst,
        summary,
        attention,
    }
}
