//! The worker's events and failures: each handed to the feature it
//! concerns; what crosses features (connected, back online, a failed
//! connection) done here.

use super::AppState;
use crate::app::connection::ConnectionNews;
use crate::app::failure::Failure;
use crate::app::intake::{Intake, tell_failure};
use crate::app::loadable::Loadable;
use crate::app::notifications::Level;
use crate::app::settings::Tab;
use fleetview_api::ApiError;
use fleetview_api::time::now_secs;
use fleetview_core::cache::{CacheNotice, Unwritable};
use fleetview_core::worker::{CatalogChange, CatalogEvent, Command, Event, FleetEvent, Target};

impl AppState {
    /// The local cache's own trouble (rows it dropped, a damaged file, a
    /// read-only or full disk): its words, never the service's. Rows
    /// dropped and read again is news; a cache that cannot keep new data
    /// is a problem, said until it is written again or dismissed.
    pub fn on_cache_notice(&mut self, notice: &CacheNotice) {
        let level = match notice {
            CacheNotice::Repaired { .. } | CacheNotice::Rebuilt { .. } => Level::Warning,
            CacheNotice::NotKept { .. } => Level::Error,
            CacheNotice::Kept => {
                for why in [Unwritable::ReadOnly, Unwritable::Full, Unwritable::Other] {
                    let error = String::new();
                    let gone = CacheNotice::NotKept { why, error }.title();
                    self.notifications.withdraw(&gone);
                }
                Level::Info
            }
        };
        self.notify(level, notice.title(), notice.detail());
    }

    pub fn on_event(&mut self, event: Event) -> Vec<Command> {
        let mut out = self.apply_event(event);
        out.extend(self.figures_wanted());
        out
    }

    /// The window figures, once what they come from is read.
    pub(super) fn figures_wanted(&mut self) -> Vec<Command> {
        let now = self.now();
        self.figures
            .wanted(&self.machine, &self.timeline.track, now)
            .into_iter()
            .collect()
    }

    /// Hands each feature its events; what crosses features is done here.
    /// A request answered takes the notices of its failures with it.
    fn apply_event(&mut self, event: Event) -> Vec<Command> {
        let mut answered = Vec::new();
        let out = self.route_event(event, &mut answered);
        for target in &answered {
            self.notifications.resolved(target);
        }
        out
    }

    fn route_event(&mut self, event: Event, answered: &mut Vec<Target>) -> Vec<Command> {
        match &event {
            Event::Fleet(FleetEvent::Page { finished: true, .. } | FleetEvent::Cached { .. }) => {
                answered.push(Target::Fleet);
            }
            Event::Catalog(CatalogEvent::Loaded { .. }) => answered.push(Target::Catalog),
            Event::Catalog(CatalogEvent::Changed { change, .. }) => answered.push(match change {
                CatalogChange::Created { .. } => Target::CatalogCreate,
                CatalogChange::Updated { id }
                | CatalogChange::Deleted { id }
                | CatalogChange::StatusSet { id, .. } => Target::Integration(*id),
            }),
            _ => {}
        }
        let mut intake = Intake {
            shown: self.machine.selected.zip(self.machine.window),
            progress: &mut self.progress,
            conn: &mut self.conn,
            answered: Vec::new(),
        };
        let mut out = Vec::new();
        match event {
            Event::Connection(e) => {
                return match self.conn.on_event(e) {
                    ConnectionNews::Nothing => Vec::new(),
                    ConnectionNews::Connected { failure_note } => self.connected(failure_note),
                    ConnectionNews::BackOnline => self.back_online(),
                };
            }
            Event::Fleet(e) => {
                self.fleet.on_event(e, &mut intake);
                self.service.mark_dirty();
                self.overview.mark_dirty();
            }
            Event::Overview(e) => {
                self.overview.on_event(e, &mut intake);
                self.service.mark_dirty();
            }
            Event::Machine(e) => self.machine.on_event(e, &mut intake),
            Event::Timeline(e) => self.timeline.on_event(e, &mut intake),
            Event::Figures(e) => self.figures.on_event(e, &mut intake),
            Event::Catalog(e) => out = self.catalog.on_event(e, &mut intake),
            Event::Export(e) => self.exports.on_event(e, &mut self.notifications),
            Event::Service(e) => {
                if let fleetview_core::worker::ServiceEvent::Usage { equipment, .. } = &e {
                    intake.progress.remove(&Target::ServiceUsage(*equipment));
                }
                self.service.on_event(e);
            }
            Event::Progress {
                target, progress, ..
            } => intake.progressed(target, progress),
            Event::Failed { target, error, .. } => return self.failed(target, &error),
        }
        answered.append(&mut intake.answered);
        out
    }

    /// Connected: the last failure's notice goes; what is not shown is read.
    fn connected(&mut self, failure_note: Option<u64>) -> Vec<Command> {
        if let Some(note) = failure_note {
            self.notifications.dismiss(note);
        }
        let mut out = Vec::new();
        if self.fleet.equipments.is_empty() {
            out.push(self.fleet.discover(self.now()));
        } else if self.fleet.cached_at.is_some() {
            // Shown from the cache while signed out: read afresh.
            out.push(self.fleet.rediscover(self.now()));
        }
        let from_cache = self.overview.status.cached_at.is_some();
        if self.overview.snapshots.is_empty() || from_cache {
            out.extend(self.start_overview());
        }
        // The figures read from the cache alone, signed out: from the
        // service now.
        if from_cache {
            out.extend(self.overview.refresh_figures());
        }
        out.extend(self.fetch_selected());
        // The service in use may be another: its own book.
        out.extend(self.service.reload(&self.conn.current.base_url));
        // Restarted on the integrations tab: show them.
        if self.tab == Tab::Catalog {
            out.extend(self.catalog.load());
        }
        out
    }

    /// Back online: the view is refreshed in place (what is shown stays).
    fn back_online(&mut self) -> Vec<Command> {
        self.notify(
            Level::Info,
            "Back online",
            "The service answers again: the view was refreshed.",
        );
        let mut out = vec![self.fleet.rediscover(self.now())];
        out.push(self.overview.fetch_snapshots(now_secs()));
        // Those read from the cache alone: from the service now.
        out.extend(self.overview.refresh_figures());
        out.extend(self.fetch_selected());
        if self.tab == Tab::Catalog {
            out.extend(self.catalog.load());
        }
        out
    }

    /// Hands a failure to its feature; told as a notice unless it said it.
    /// A connection that fails shows the fleet the cache holds.
    fn failed(&mut self, target: Target, error: &ApiError) -> Vec<Command> {
        self.progress.remove(&target);
        let failure = match &target {
            Target::Probe | Target::Connection => self.conn.on_failed(&target, error),
            Target::Fleet => self.fleet.on_failed(error),
            Target::Snapshots | Target::Figures(_) | Target::LookBack(_) => {
                self.overview.on_failed(&target, error)
            }
            Target::Faults | Target::Activities | Target::History => {
                self.machine.on_failed(&target, error)
            }
            Target::Report => self.figures.on_failed(error),
            Target::Plot(_) | Target::Track => self.timeline.on_failed(&target, error),
            Target::Catalog | Target::CatalogCreate | Target::Integration(_) => {
                self.catalog.on_failed(&target, error)
            }
            // Reads ahead say nothing: the figures' own request does.
            Target::ReadAhead => Failure::Said,
            // The Service tab says a machine's forecast is not known.
            Target::ServiceUsage(id) => {
                self.service.on_usage_failed(*id);
                Failure::Said
            }
            Target::ServiceBook | Target::ServiceWrite(_) => Failure::Notice,
            Target::ConnectionTest
            | Target::TokenStore
            | Target::Series(_)
            | Target::Export(_)
            | Target::ReportFile => Failure::Notice,
        };
        if failure == Failure::Notice {
            tell_failure(&mut self.conn, &mut self.notifications, &target, error);
        }
        if target != Target::Connection {
            return Vec::new();
        }
        // Nothing to sign in with (a key kept for a session only, after a
        // restart) is no reason for an empty page. The service chosen's,
        // which the failed connection did not put in use.
        // The Fleet page's figures, as the cache holds them.
        let window = self.selected_window();
        let mut out = self.overview.set_window(window);
        let scope = || self.conn.current.config.cache_scope().to_owned();
        if self.fleet.equipments.is_empty() {
            out.push(Command::KeptFleet { scope: scope() });
        }
        if self.overview.snapshots.is_empty() {
            out.push(Command::KeptSnapshots { scope: scope() });
        }
        // The machine page left, as the cache holds it (read once: the
        // reads answered are not asked again).
        if self.conn.needs_secret() && matches!(self.machine.history, Loadable::Idle) {
            out.extend(self.fetch_selected());
        }
        out
    }
}
