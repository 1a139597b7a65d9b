//! The app's state, composed of its features (connection, fleet, machine,
//! timeline, catalog, exports, notifications). It routes panel actions and
//! worker events to the feature they concern, and handles what crosses
//! features (a new connection clears everything; a new window refetches
//! tables, map and plots). It does no I/O, so it can be tested without a
//! window.
//!
//! Here: the state, its clocks and what moves by itself (`tick`). The
//! user's actions are in `actions.rs`, the worker's events in `events.rs`,
//! the pages kept on switching machines in `kept.rs`, the settings saved
//! between runs in `saved.rs`; `tests.rs` drives the features through the
//! composition.

mod actions;
mod events;
mod kept;
mod reports;
mod saved;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use super::catalog::CatalogState;
use super::connection::{Connection, ConnectionState};
use super::exports::Exports;
use super::figures::FiguresState;
use super::fleet::FleetState;
use super::machine::MachineView;
use super::notifications::{Level, Notifications};
use super::overview::OverviewState;
use super::recent_views::RecentViews;
use super::service::ServiceState;
use super::settings::Tab;
use super::timeline::{MapSettings, TimelineState};
use fleetview_api::time::now_secs;
use fleetview_core::worker::{Command, Progress, Target};

#[derive(Debug)]
pub struct AppState {
    clock: Option<i64>,
    /// Now by the service, as the worker last heard it.
    service_now: Option<i64>,
    pub(super) conn: ConnectionState,
    pub(super) fleet: FleetState,
    pub(super) machine: MachineView,
    /// The machine page's window figures.
    pub(super) figures: FiguresState,
    /// Map, plots and the time cursor they share.
    pub(super) timeline: TimelineState,
    pub(super) catalog: CatalogState,
    pub(super) exports: Exports,
    pub(super) notifications: Notifications,
    pub(super) tab: Tab,
    /// The machine page's table last shown (back to it from another page).
    pub(super) machine_tab: Tab,
    /// The fleet overview: snapshots, window figures, filters and sort.
    pub(super) overview: OverviewState,
    /// The zone times are shown in.
    pub(super) times_in: super::TimesIn,
    pub(super) map: MapSettings,
    /// The panes' sizes, as shares (restored at the next start).
    pub(super) panes: super::settings::PaneShares,
    /// Where online map tiles are cached (`None`: not on disk).
    pub(super) tile_cache_dir: Option<std::path::PathBuf>,
    /// Light, dark or the system's.
    pub(super) theme: super::desktop::ThemeChoice,
    /// Metric or imperial: the units values are shown in.
    pub(super) units: fleetview_core::analysis::UnitSystem,
    /// Where the settings, the cache and the logs are (About).
    pub(super) places: super::desktop::Places,
    /// Fetches under way and how far they have come.
    pub(super) progress: HashMap<Target, Progress>,
    /// Machines' pages left lately, to show again at once.
    pub(super) recent_views: RecentViews,
    /// Service plans and where each machine's stand.
    pub(super) service: ServiceState,
}

impl AppState {
    pub fn new(connection: Connection, clock: Option<i64>) -> Self {
        let today = MachineView::today(clock.unwrap_or_else(now_secs));
        Self {
            clock,
            service_now: None,
            conn: ConnectionState::new(connection),
            fleet: FleetState::default(),
            machine: MachineView::new(today),
            figures: FiguresState::default(),
            timeline: TimelineState::new(),
            catalog: CatalogState::default(),
            exports: Exports::default(),
            notifications: Notifications::default(),
            tab: Tab::Fleet,
            machine_tab: Tab::Faults,
            overview: OverviewState::default(),
            times_in: super::TimesIn::Utc,
            map: MapSettings::default(),
            tile_cache_dir: None,
            theme: Default::default(),
            units: Default::default(),
            places: Default::default(),
            progress: HashMap::new(),
            recent_views: RecentViews::default(),
            service: ServiceState::default(),
            panes: Default::default(),
        }
    }

    /// What the shell knows at start-up (before the saved settings are
    /// restored over it).
    pub fn set_up(&mut self, setup: super::desktop::Setup) {
        self.conn.embedded = setup.embedded;
        self.map.online_tiles = setup.online_tiles;
        self.tile_cache_dir = setup.tile_cache_dir;
        self.exports.directory = setup.export_dir;
        self.exports.fallback_directory = setup.fallback_export_dir;
        self.service.path = setup.places.service_book.clone();
        self.places = setup.places;
    }

    /// The fixed instant moved (tests of what time changes).
    #[cfg(test)]
    pub(crate) fn set_clock(&mut self, now: i64) {
        self.clock = Some(now);
    }

    /// "Now": the clock, or a fixed instant (tests, demos on a fixed sandbox).
    pub fn now(&self) -> i64 {
        self.clock.unwrap_or_else(now_secs)
    }

    /// The service's time as the worker last heard it (`None`: not yet).
    pub fn set_service_now(&mut self, secs: Option<i64>) {
        self.service_now = secs;
    }

    /// What data read now is final up to (less the settling time): the
    /// earlier of this computer's clock and the service's; unknown while
    /// the service's is.
    fn as_of(&self) -> Option<i64> {
        Some(self.now().min(self.service_now?))
    }

    pub fn notify(
        &mut self,
        level: Level,
        title: impl Into<String>,
        detail: impl Into<String>,
    ) -> u64 {
        self.notifications.notify(level, title, detail)
    }

    /// Called every frame with the wall clock: offline, tries the service
    /// again when it is time.
    pub fn tick(&mut self, now: i64) -> Vec<Command> {
        self.notifications.expire(now);
        let mut out: Vec<Command> = self.conn.tick(now).into_iter().collect();
        // Signed out, the service would refuse every read.
        let online = self.conn.offline.is_none() && !self.conn.needs_secret();
        if online && self.overview.refresh_due(now) {
            out.push(self.overview.fetch_snapshots(now));
        }
        let now = self.now();
        if self
            .service
            .refresh(&self.fleet.equipments, &self.overview.snapshots, now)
        {
            self.overview
                .set_service(self.service.attention(), service_cells(&self.service));
        }
        if online || self.conn.offline.is_some() {
            let offline = !online;
            out.extend(self.service.pump(&self.fleet.equipments, offline, now));
        }
        self.overview
            .refresh_rows(&self.fleet.equipments, self.now());
        // Figures are read while the overview shows, so they never slow
        // down a machine's own page; offline or signed out, what the cache
        // holds of them.
        if self.tab == Tab::Fleet {
            let now = self.now();
            out.extend(self.overview.pump(&self.fleet.equipments, !online, now));
        }
        out
    }

    /// When (wall clock) the model next moves on by itself: the next try
    /// of the service, news going, the fleet's refresh, the ages shown
    /// offline. The shell asks for a frame then and none before, so an
    /// app left alone uses no CPU.
    pub fn next_wake(&self) -> Option<i64> {
        // (Offline, the status bar says when the data was fetched, not how
        // long ago: an age would need a frame a minute.)
        let offline = self
            .conn
            .offline
            .as_ref()
            .and_then(|o| if o.probing { None } else { o.next_retry });
        let refresh = self
            .overview
            .next_refresh()
            .filter(|_| self.conn.offline.is_none());
        [offline, refresh, self.notifications.next_expiry()]
            .into_iter()
            .flatten()
            .min()
    }

    /// Moves a playing replay on by `dt_secs` of wall time; whether it still
    /// plays (and so wants another frame).
    pub fn advance_replay(&mut self, dt_secs: f64) -> bool {
        let Some(window) = self.machine.window else {
            return false;
        };
        let engine = self
            .machine
            .history
            .value()
            .map_or(&[][..], |h| &h.engine_conditions.rows[..]);
        self.timeline
            .advance_replay(dt_secs, window.since, window.until, engine)
    }
}

/// The Fleet table's Service cells: each planned machine's worst status
/// and its words.
fn service_cells(
    service: &ServiceState,
) -> HashMap<i64, (fleetview_core::service::due::DueStatus, String)> {
    service
        .machines
        .iter()
        .filter_map(|(id, m)| Some((*id, (m.worst?, m.summary.clone()))))
        .collect()
}
