//! The app's state, composed of its features (connection, fleet, machine,
//! timeline, catalog, exports, notifications). It routes panel actions and
//! worker events to the feature they concern, and handles what crosses
//! features (a new connection clears everything; a new window refetches
//! tables, map and plots). It does no I/O, so it can be tested without a
//! window. Over 700 lines because of its tests (about 300): they drive the
//! features through the composition, which is what they check.

use std::collections::HashMap;

use super::action::Action;
use super::catalog::CatalogState;
use super::connection::{
    ConnStatus, Connection, ConnectionAction, ConnectionNews, ConnectionState,
};
use super::exports::Exports;
use super::failure::Failure;
use super::figures::FiguresState;
use super::fleet::FleetState;
use super::intake::{Intake, tell_failure};
use super::loadable::Loadable;
use super::machine::{MachineAction, MachineView};
use super::notifications::{Level, Notifications};
use super::overview::{OverviewAction, OverviewState};
use super::recent_views::{KeptView, RecentViews, settled};
use super::settings::{Settings, Tab};
use super::timeline::{MapSettings, Replay, TimelineAction, TimelineState};
use fleetview_api::ApiError;
use fleetview_api::time::now_secs;
use fleetview_core::worker::{
    CatalogChange, CatalogEvent, Command, Event, FleetEvent, Progress, Target,
};

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
    /// Show times in this computer's zone rather than UTC.
    pub(super) local_time: bool,
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
            local_time: false,
            map: MapSettings::default(),
            tile_cache_dir: None,
            theme: Default::default(),
            units: Default::default(),
            places: Default::default(),
            progress: HashMap::new(),
            recent_views: RecentViews::default(),
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
        self.places = setup.places;
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

    // ---------------------------------------------------------- settings

    /// Restores settings; the selection only when it was made on this same
    /// service.
    pub fn restore(&mut self, s: Settings) {
        self.map = s.map;
        self.panes = s.panes;
        self.timeline.replay = Replay {
            playing: false,
            ..s.replay
        };
        if let Some(kinds) = s.plot_kinds {
            self.timeline.plot_kinds = kinds;
        }
        self.overview.settings = s.overview;
        self.figures.expected = s.expected;
        self.figures.working_hours = s.working_hours;
        self.figures.tanks_l = s.tanks_l.into_iter().collect();
        self.theme = s.theme;
        self.units = s.units;
        self.overview.mark_dirty();
        self.conn.profiles = s.profiles;
        self.conn.active_profile = s.active_profile.filter(|i| *i < self.conn.profiles.len());
        let current = &self.conn.current;
        let here = (!current.embedded).then(|| current.base_url.clone());
        if s.base_url != here {
            return;
        }
        self.machine.selected = s.selected;
        self.machine.recent = s.recent;
        self.fleet.remember(s.names);
        self.machine.preset = s.preset;
        // A window saved by an older version may be longer than the cap.
        self.machine.custom_days = super::machine::capped_custom_days(s.custom_days);
        if s.tab.is_machine_tab() {
            self.machine_tab = s.tab;
        }
        // The page left, if it can show: a machine's page needs the
        // machine.
        self.tab = match s.page {
            Some(Tab::Catalog) => Tab::Catalog,
            Some(t) if t.is_machine_tab() && self.machine.selected.is_some() => t,
            _ => Tab::Fleet,
        };
        self.local_time = s.local_time;
    }

    pub fn settings(&self) -> Settings {
        let current = &self.conn.current;
        Settings {
            base_url: (!current.embedded).then(|| current.base_url.clone()),
            profiles: self.conn.profiles.clone(),
            active_profile: self.conn.active_profile,
            selected: self.machine.selected,
            recent: self.machine.recent.clone(),
            names: self
                .machine
                .selected
                .iter()
                .chain(&self.machine.recent)
                .filter_map(|id| Some((*id, self.fleet.known_name(*id)?.to_owned())))
                .collect(),
            preset: self.machine.preset,
            custom_days: self.machine.custom_days,
            tab: self.machine_tab,
            local_time: self.local_time,
            overview: self.overview.settings.clone(),
            plot_kinds: Some(self.timeline.plot_kinds.clone()),
            map: self.map.clone(),
            replay: self.timeline.replay,
            expected: self.figures.expected,
            working_hours: self.figures.working_hours,
            tanks_l: self.figures.tanks_l.iter().map(|(k, v)| (*k, *v)).collect(),
            theme: self.theme,
            units: self.units,
            page: Some(self.tab),
            panes: self.panes,
        }
    }

    pub fn notify(
        &mut self,
        level: Level,
        title: impl Into<String>,
        detail: impl Into<String>,
    ) -> u64 {
        self.notifications.notify(level, title, detail)
    }

    // ----------------------------------------------------------- actions

    /// Commands to start with when the connection is ready: discover the
    /// fleet and load the restored selection.
    pub fn start(&mut self) -> Vec<Command> {
        // "online" only once the service has answered (an offline start
        // said "online" until the cache was shown).
        self.conn.current.status = ConnStatus::Connecting;
        let mut out = vec![self.fleet.discover(self.now())];
        out.extend(self.start_overview());
        out.extend(self.fetch_selected());
        // Started on the integrations tab: show them.
        if self.tab == Tab::Catalog {
            out.extend(self.catalog.load());
        }
        out
    }

    /// The overview's snapshots, and its figures for the selected window.
    fn start_overview(&mut self) -> Vec<Command> {
        let mut out = self.overview.set_window(self.selected_window());
        out.push(self.overview.fetch_snapshots(now_secs()));
        out
    }

    /// The page shown, to keep when switching away: only a whole one (every
    /// table, the track and the figures loaded), read online.
    fn page_to_keep(&mut self) -> Option<KeptView> {
        let (equipment, window) = self.machine.selected.zip(self.machine.window)?;
        if self.offline().is_some() {
            return None;
        }
        let (report, basis) = self.figures.kept(window)?;
        let (Loadable::Ready(_), Loadable::Ready(activities), Loadable::Ready(history)) = (
            &self.machine.faults,
            &self.machine.activities,
            &self.machine.history,
        ) else {
            return None;
        };
        let Loadable::Ready(track) = &self.timeline.track else {
            return None;
        };
        let (activities, history, track) = (activities.clone(), history.clone(), track.clone());
        let plots = self
            .timeline
            .plots
            .iter()
            .filter_map(|(k, p)| match p {
                Loadable::Ready(p) => Some((*k, p.clone())),
                _ => None,
            })
            .collect();
        // Switching away clears the tables next: the faults are moved.
        let Loadable::Ready(faults) = std::mem::take(&mut self.machine.faults) else {
            return None;
        };
        Some(KeptView {
            equipment,
            window,
            faults,
            activities,
            history,
            track,
            plots,
            report,
            basis,
            as_of: self.machine.as_of,
        })
    }

    /// Shows the selection's page again from those kept: the commands for
    /// what it lacks (kinds plotted since) when its window is settled, else
    /// for reading it all again, the kept page showing meanwhile.
    fn page_kept(&mut self) -> Option<Vec<Command>> {
        let equipment = self.machine.selected?;
        let window = self.selected_window();
        let view = self.recent_views.take(equipment, window)?;
        let read_settled = settled(window, view.as_of);
        self.machine.window = Some(window);
        self.machine.faults = Loadable::Ready(view.faults);
        self.machine.activities = Loadable::Ready(view.activities);
        self.machine.history = Loadable::Ready(view.history);
        self.timeline.keep_within(window);
        self.timeline.track = Loadable::Ready(view.track);
        self.figures.restore(view.report, view.basis);
        // The last machine's reads still under way are of no use now.
        let mut out: Vec<Command> = [
            Target::Faults,
            Target::Activities,
            Target::History,
            Target::Track,
            Target::Report,
        ]
        .into_iter()
        .chain(self.timeline.plot_kinds.iter().map(|k| Target::Plot(*k)))
        .map(|t| {
            self.progress.remove(&t);
            Command::Cancel(t)
        })
        .collect();
        let mut missing = Vec::new();
        for kind in self.timeline.plot_kinds.clone() {
            match view.plots.get(&kind) {
                Some(p) => {
                    self.timeline.plots.insert(kind, Loadable::Ready(p.clone()));
                }
                None => missing.push(kind),
            }
        }
        if !read_settled {
            // Still being written when read: shown as kept while read
            // again (what is pending keeps its value), the figures with
            // the new answers.
            out.extend(self.fetch_selected());
            return Some(out);
        }
        self.machine.as_of = view.as_of;
        for kind in missing {
            out.push(self.timeline.fetch_plot(equipment, kind, window));
        }
        // Settings of the figures changed meanwhile: computed again.
        out.extend(self.figures_wanted());
        Some(out)
    }

    /// Tables, map and plots of the selection over the preset's window.
    fn fetch_selected(&mut self) -> Vec<Command> {
        let now = self.now();
        let Some((equipment, window, mut out)) = self.machine.fetch(now) else {
            return Vec::new();
        };
        self.machine.as_of = self.as_of();
        self.timeline.keep_within(window);
        out.extend(self.timeline.fetch(equipment, window));
        out.push(Command::ReadAhead { equipment, window });
        // After the reads it waits for (the worker takes commands in order).
        out.push(self.figures.with_reads(equipment, window, now));
        out
    }

    pub fn on_action(&mut self, action: Action) -> Vec<Command> {
        match action {
            Action::Machine(a) => {
                // Choosing a machine anywhere (the list, the overview's
                // table or map) opens its history.
                if matches!(a, MachineAction::Select(_)) && !self.tab.is_machine_tab() {
                    self.tab = self.machine_tab;
                }
                let switching =
                    matches!(a, MachineAction::Select(id) if self.machine.selected != Some(id));
                if switching && let Some(view) = self.page_to_keep() {
                    self.recent_views.keep(view);
                }
                let (fetch, other) = self.machine.on_action(a, self.now());
                // The overview's figures follow the window chosen.
                let mut out = self.overview.set_window(self.selected_window());
                // The user chose what to see: the plots show all of it.
                self.timeline.view_generation += 1;
                if other {
                    // Another machine: nothing of the last one may show.
                    self.timeline.clear_data();
                    self.figures.clear();
                }
                if fetch {
                    match switching.then(|| self.page_kept()).flatten() {
                        Some(commands) => out.extend(commands),
                        None => out.extend(self.fetch_selected()),
                    }
                }
                out
            }
            Action::Overview(OverviewAction::Refresh) => {
                let mut out = vec![self.overview.fetch_snapshots(now_secs())];
                out.extend(self.overview.refresh_figures());
                out
            }
            Action::Overview(a) => {
                self.overview.on_action(a);
                Vec::new()
            }
            Action::Figures(a) => {
                self.figures.on_action(a);
                self.figures_wanted()
            }
            Action::Timeline(a) => self.timeline_action(a),
            Action::Connection(a) => self.connection_action(a),
            Action::Catalog(a) => self.catalog.on_action(a),
            // The list shown stays until the new one comes (or the cache's,
            // offline): a reload that fails leaves it.
            Action::ReloadFleet => vec![self.fleet.rediscover(self.now())],
            Action::Export(content) if content.is_fleet() => {
                let window = self
                    .overview
                    .window
                    .unwrap_or_else(|| self.selected_window());
                self.exports.start(content, None, window, self.units)
            }
            Action::Export(content) => {
                let window = self.shown_or_selected_window();
                let machine = self.machine.selected.map(|id| {
                    let listed = self.fleet.equipments.iter().find(|e| e.id == id);
                    (id, listed.map(|e| e.name.as_str()))
                });
                self.exports.start(content, machine, window, self.units)
            }
            Action::DismissNotification(id) => {
                self.notifications.dismiss(id);
                Vec::new()
            }
            Action::SetTheme(theme) => {
                self.theme = theme;
                Vec::new()
            }
            Action::SetUnits(units) => {
                self.units = units;
                Vec::new()
            }
            // Opened by the shell, which sees every action first.
            Action::OpenFolder(_) => Vec::new(),
            Action::ClearNotificationHistory => {
                self.notifications.clear_history();
                Vec::new()
            }
            Action::SetTab(t) => {
                self.tab = t;
                if t.is_machine_tab() {
                    self.machine_tab = t;
                }
                if t == Tab::Catalog {
                    return self.catalog.load_once();
                }
                Vec::new()
            }
            Action::SetLocalTime(on) => {
                self.local_time = on;
                Vec::new()
            }
            Action::SetMapSettings(map) => {
                self.map = map;
                Vec::new()
            }
            Action::SetPaneShares(panes) => {
                self.panes = panes;
                Vec::new()
            }
        }
    }

    fn timeline_action(&mut self, action: TimelineAction) -> Vec<Command> {
        let shown = self.machine.selected.zip(self.machine.window);
        let window = self.shown_or_selected_window();
        let activities = self.machine.activities.value();
        self.timeline.on_action(action, shown, window, |i| {
            activities
                .and_then(|rows| rows.get(i))
                .map(|a| a.date_start.0)
        })
    }

    fn connection_action(&mut self, action: ConnectionAction) -> Vec<Command> {
        let outcome = self.conn.on_action(action);
        if let Some(e) = outcome.error {
            self.notify(Level::Error, e, "");
        }
        if outcome.switched {
            // Another service: nothing of the last one may show, not even
            // an answer it is still sending.
            self.fleet = FleetState::default();
            self.overview.forget();
            self.machine.forget();
            self.timeline.clear_data();
            self.figures.clear();
            self.recent_views.clear();
            self.catalog = CatalogState::default();
            self.progress.clear();
            let mut out = vec![Command::CancelReads];
            out.extend(outcome.commands);
            return out;
        }
        outcome.commands
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
        self.overview
            .refresh_rows(&self.fleet.equipments, self.now());
        // Figures are read while the overview shows, so they never slow
        // down a machine's own page; offline or signed out, what the cache
        // holds of them.
        if self.tab == Tab::Fleet {
            out.extend(self.overview.pump(&self.fleet.equipments, !online));
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

    // ------------------------------------------------------------ events

    pub fn on_event(&mut self, event: Event) -> Vec<Command> {
        let mut out = self.apply_event(event);
        out.extend(self.figures_wanted());
        out
    }

    /// The window figures, once what they come from is read.
    fn figures_wanted(&mut self) -> Vec<Command> {
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
                self.overview.mark_dirty();
            }
            Event::Overview(e) => self.overview.on_event(e, &mut intake),
            Event::Machine(e) => self.machine.on_event(e, &mut intake),
            Event::Timeline(e) => self.timeline.on_event(e, &mut intake),
            Event::Figures(e) => self.figures.on_event(e, &mut intake),
            Event::Catalog(e) => out = self.catalog.on_event(e, &mut intake),
            Event::Export(e) => self.exports.on_event(e, &mut self.notifications),
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
            Target::Snapshots | Target::Figures(_) => self.overview.on_failed(&target, error),
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
            Target::ConnectionTest | Target::TokenStore | Target::Series(_) | Target::Export(_) => {
                Failure::Notice
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::connection::Profile;
    use crate::app::figures::FiguresAction;
    use crate::app::machine::MachineAction;
    use crate::app::notifications::NEWS_SECS;
    use crate::app::settings::Preset;
    use fleetview_api::DataKind;
    use fleetview_api::model::SecretValue;
    use fleetview_api::time::TimeWindow;
    use fleetview_core::export::shown::{ExportContent, ExportKey};
    use fleetview_core::worker::{
        ConnectionEvent, ExportEvent, ExportOutcome, MachineEvent, OverviewEvent,
    };

    fn connection(embedded: bool, url: &str) -> Connection {
        let mut c = if embedded {
            Connection::embedded(url, "demo")
        } else {
            Connection::service(url, false, fleetview_api::AuthMethod::Token)
        };
        c.status = ConnStatus::Connected;
        c
    }

    #[test]
    fn settings_survive_a_restart_without_secrets() {
        let mut a = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
        a.on_action(MachineAction::Select(1003).into());
        a.on_action(MachineAction::SetPreset(Preset::Last30Days).into());
        a.on_action(Action::SetTab(Tab::History));
        a.on_action(Action::SetLocalTime(true));
        a.on_action(Action::SetTheme(crate::app::ThemeChoice::Light));
        a.on_action(Action::SetUnits(
            fleetview_core::analysis::UnitSystem::Imperial,
        ));
        let hours = fleetview_core::analysis::WorkingHours {
            days: [true; 7],
            start_min: 420,
            end_min: 1080,
        };
        a.on_action(FiguresAction::SetWorkingHours(hours).into());
        a.on_action(
            FiguresAction::SetTank {
                equipment: 1003,
                litres: Some(380.0),
            }
            .into(),
        );
        let filters = crate::app::overview::Filters {
            text: "volvo".into(),
            category: Some("Excavator".into()),
            state: Some(fleetview_core::analysis::MachineState::Silent),
            ..Default::default()
        };
        a.on_action(OverviewAction::SetFilters(filters.clone()).into());
        a.on_action(OverviewAction::SortBy(crate::app::overview::Column::LastReport).into());
        a.on_action(
            ConnectionAction::SaveProfile {
                index: None,
                profile: Profile {
                    name: "Prod".into(),
                    base_url: "https://fleet.example".into(),
                    sandbox_url: "https://sandbox.fleet.example".into(),
                    use_sandbox: true,
                    allow_insecure_http: false,
                    auth: fleetview_api::AuthMethod::ApiKey {
                        name: "ops-laptop".into(),
                    },
                },
                secret: Some(SecretValue::new("key-secret-456")),
            }
            .into(),
        );
        a.on_action(ConnectionAction::UseSecret(SecretValue::new("tok-secret-123")).into());
        let saved = serde_json::to_string(&a.settings()).unwrap_or_default();
        assert!(!saved.contains("tok-secret-123"));
        assert!(!saved.contains("key-secret-456"));
        assert!(
            saved.contains("ops-laptop"),
            "the key's name is kept: {saved}"
        );
        let settings: Settings = serde_json::from_str(&saved).expect("settings read back");

        // Same (embedded) service: everything comes back.
        let mut b = AppState::new(connection(true, "http://127.0.0.1:2"), Some(1_750_000_000));
        b.restore(settings.clone());
        assert_eq!(
            (b.selected(), b.machine.preset, b.machine_tab, b.local_time),
            (Some(1003), Preset::Last30Days, Tab::History, true)
        );
        assert_eq!(b.tab, Tab::History, "the page left is reopened");
        assert_eq!(b.theme, crate::app::ThemeChoice::Light);
        assert_eq!(b.units, fleetview_core::analysis::UnitSystem::Imperial);
        assert_eq!(b.overview.settings.filters, filters);
        assert_eq!(
            (b.figures.working_hours, b.figures.tank_l(1003)),
            (hours, Some(380.0))
        );
        assert_eq!(
            b.overview.settings.sort,
            crate::app::overview::Sort {
                column: crate::app::overview::Column::LastReport,
                descending: true
            }
        );
        assert_eq!(b.machine.recent, vec![1003]);
        assert_eq!(b.profiles().len(), 1);
        assert_eq!(b.profiles()[0].url(), "https://sandbox.fleet.example");
        // Another service: the profiles, not the machine of the other one.
        let mut c = AppState::new(
            connection(false, "https://other.example"),
            Some(1_750_000_000),
        );
        c.restore(settings);
        assert_eq!((c.selected(), c.profiles().len()), (None, 1));
    }

    #[test]
    fn choosing_another_service_first_cancels_the_last_ones_reads() {
        let mut s = AppState::new(connection(false, "https://a.example"), Some(1_750_000_000));
        let profile = Profile {
            name: "B".into(),
            base_url: "https://b.example".into(),
            sandbox_url: String::new(),
            use_sandbox: false,
            allow_insecure_http: false,
            auth: fleetview_api::AuthMethod::Token,
        };
        s.on_action(
            ConnectionAction::SaveProfile {
                index: None,
                profile,
                secret: None,
            }
            .into(),
        );
        let commands = s.on_action(
            ConnectionAction::UseProfile {
                index: 0,
                secret: None,
            }
            .into(),
        );
        assert!(matches!(commands.first(), Some(Command::CancelReads)));
        assert!(matches!(commands.get(1), Some(Command::UseProfile { .. })));
        // A new token for the same service keeps its reads going.
        let commands = s.on_action(ConnectionAction::UseSecret(SecretValue::new("t")).into());
        assert!(!commands.iter().any(|c| matches!(c, Command::CancelReads)));
    }

    #[test]
    fn a_key_profile_with_no_key_kept_asks_for_the_key_and_the_notice_goes_once_connected() {
        let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
        let kept = s.on_event(Event::Failed {
            target: Target::Connection,
            request: 1,
            error: ApiError::NoToken,
        });
        assert_eq!(s.conn.current.status, ConnStatus::NoSecret);
        assert!(s.conn.needs_secret());
        assert_eq!(
            s.notifications()[0].title,
            "No API key is kept for this service on this computer"
        );
        // The fleet the cache holds shows meanwhile, not as offline.
        assert!(
            matches!(
                kept.as_slice(),
                [Command::KeptFleet { scope }, Command::KeptSnapshots { .. }]
                    if scope == s.connection().config.cache_scope()
            ),
            "{kept:?}"
        );
        let machine = fleetview_api::model::EquipmentSummary {
            id: 1003,
            ..Default::default()
        };
        s.on_event(Event::Fleet(fleetview_core::worker::FleetEvent::Cached {
            request: 3,
            equipments: vec![machine],
            fetched_at: 1_749_000_000,
        }));
        assert_eq!(s.fleet.equipments.len(), 1);
        assert!(s.offline().is_none(), "signed out, not offline");
        // Nothing is asked of a service that refuses: the Fleet page's
        // figures come from the cache alone.
        let asked = s.tick(1_750_000_000);
        assert!(
            !asked.is_empty()
                && asked
                    .iter()
                    .all(|c| matches!(c, Command::FetchFigures { offline: true, .. })),
            "{asked:?}"
        );
        let read = s.on_event(Event::Connection(ConnectionEvent::Connected {
            request: 2,
            base_url: "x".into(),
            token_place: None,
            user: None,
        }));
        assert!(s.notifications().is_empty(), "{:?}", s.notifications());
        // Signed in: what the cache showed is read afresh.
        assert!(
            read.iter()
                .any(|c| matches!(c, Command::DiscoverFleet { .. }))
        );
        assert!(
            s.fleet.loading && s.fleet.equipments.len() == 1,
            "kept until it comes"
        );
    }

    #[test]
    fn connecting_on_the_integrations_tab_loads_them() {
        let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
        s.tab = Tab::Catalog;
        let commands = s.on_event(Event::Connection(ConnectionEvent::Connected {
            request: 7,
            base_url: "x".into(),
            token_place: None,
            user: None,
        }));
        assert!(commands.iter().any(|c| matches!(c, Command::LoadCatalog)));
        assert!(
            commands
                .iter()
                .any(|c| matches!(c, Command::DiscoverFleet { .. }))
        );
    }

    #[test]
    fn the_snapshots_are_read_again_every_ten_minutes_while_online() {
        let reads = |commands: &[Command]| {
            commands
                .iter()
                .filter(|c| matches!(c, Command::FetchSnapshots))
                .count()
        };
        let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
        let t0 = now_secs();
        assert_eq!(reads(&s.start()), 1);
        s.on_event(Event::Overview(OverviewEvent::SnapshotPage {
            request: 1,
            snapshots: Vec::new(),
            done: 0,
            total: 0,
            finished: true,
        }));
        assert_eq!(reads(&s.tick(t0 + 598)), 0);
        assert_eq!(reads(&s.tick(t0 + 605)), 1);
        assert_eq!(reads(&s.tick(t0 + 606)), 0, "one read at a time");
        s.on_event(Event::Overview(OverviewEvent::SnapshotPage {
            request: 2,
            snapshots: Vec::new(),
            done: 0,
            total: 0,
            finished: true,
        }));
        s.conn.went_offline(None, "gone".into());
        assert_eq!(reads(&s.tick(t0 + 2_000)), 0, "not while offline");
    }

    #[test]
    fn a_page_sends_the_figures_reads_ahead_with_its_own() {
        let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
        let out = s.on_action(MachineAction::Select(1003).into());
        let window = s.window().expect("a window");
        assert!(
            out.iter().any(|c| matches!(
                c,
                Command::ReadAhead { equipment: 1003, window: w } if *w == window
            )),
            "{out:?}"
        );
        // Never said as failed: nothing to tell the user.
        let before = s.notifications().len();
        s.on_event(Event::Failed {
            target: Target::ReadAhead,
            request: 1,
            error: ApiError::NotConnected,
        });
        assert_eq!(s.notifications().len(), before);
    }

    #[test]
    fn a_cursor_outside_a_new_window_goes() {
        let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
        s.on_action(MachineAction::Select(1003).into());
        s.on_action(MachineAction::SetPreset(Preset::Last30Days).into());
        let month = s.window().expect("a window");
        s.on_action(TimelineAction::SeekTo(month.since + 3_600).into());
        s.on_action(MachineAction::SetPreset(Preset::Yesterday).into());
        assert_eq!(s.timeline().cursor, None, "not left before the window");
        let day = s.window().expect("a window");
        s.on_action(TimelineAction::SeekTo(day.since + 60).into());
        s.on_action(MachineAction::SetPreset(Preset::Last7Days).into());
        assert_eq!(
            s.timeline().cursor,
            Some(day.since + 60),
            "kept when still inside"
        );
    }

    #[test]
    fn an_answer_for_another_machine_or_window_is_dropped() {
        let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
        s.on_action(MachineAction::Select(1003).into());
        let window = s.window().expect("a window");
        let answer = |equipment, window| {
            Event::Machine(MachineEvent::Faults {
                request: 1,
                equipment,
                window,
                rows: Vec::new(),
                offline: None,
            })
        };
        s.on_event(answer(1004, window));
        assert!(
            s.faults().is_pending(),
            "another machine's faults are not shown"
        );
        let other = TimeWindow {
            since: window.since - 1,
            ..window
        };
        s.on_event(answer(1003, other));
        assert!(
            s.faults().is_pending(),
            "another window's faults are not shown"
        );
        s.on_event(answer(1003, window));
        assert_eq!(s.faults().value().map(Vec::len), Some(0));
    }

    #[test]
    fn offline_retries_back_off_and_a_reachable_service_refreshes_in_place() {
        let mut s = AppState::new(connection(false, "http://127.0.0.1:1"), Some(1_750_000_000));
        s.on_action(MachineAction::Select(1001).into());
        s.machine.faults = Loadable::Ready(Vec::new());
        s.on_event(Event::Failed {
            target: Target::Faults,
            request: 1,
            error: ApiError::Network {
                endpoint: "GET /x".into(),
                message: "connection refused".into(),
                refused: true,
                address: "127.0.0.1:1".into(),
                cause: fleetview_api::NetworkCause::Refused,
            },
        });
        assert!(s.offline().is_some());
        assert!(
            s.notifications().is_empty(),
            "the offline mark says it, once"
        );
        assert!(s.title().ends_with("(offline)"));
        // First tick schedules, then tries at 5 s, then 10 s after that.
        assert!(s.tick(100).is_empty());
        assert!(s.tick(104).is_empty());
        assert!(matches!(s.tick(105).as_slice(), [Command::Probe]));
        assert!(s.tick(200).is_empty(), "one probe at a time");
        s.on_event(Event::Failed {
            target: Target::Probe,
            request: 2,
            error: ApiError::Timeout {
                endpoint: "GET /catalog/dataSources".into(),
                timeout_secs: 60,
                address: "127.0.0.1:1".into(),
                connect: false,
            },
        });
        assert!(s.tick(114).is_empty());
        assert!(matches!(s.tick(115).as_slice(), [Command::Probe]));
        // The service answers: a refresh that keeps what is shown meanwhile.
        let commands = s.on_event(Event::Connection(ConnectionEvent::Reachable { request: 3 }));
        assert!(s.offline().is_none());
        assert!(
            commands
                .iter()
                .any(|c| matches!(c, Command::DiscoverFleet { .. }))
        );
        assert!(
            commands
                .iter()
                .any(|c| matches!(c, Command::FetchFaults { .. }))
        );
        assert_eq!(
            s.faults().value().map(Vec::len),
            Some(0),
            "kept while refreshing"
        );
        assert!(s.tick(1_000).is_empty());
    }

    #[test]
    fn exports_of_two_kinds_with_the_same_channel_get_their_own_names() {
        let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
        s.fleet.on_page(
            vec![fleetview_api::model::EquipmentSummary {
                id: 1021,
                name: "GE-021 Atlas Copco QAS 150 (Lyon)".into(),
                make: "Atlas Copco".into(),
                model: "QAS 150".into(),
                serial_number: "S".into(),
                ..Default::default()
            }],
            (1, 1),
            true,
            fleetview_core::worker::FleetSource::List,
        );
        s.on_action(MachineAction::Select(1021).into());
        let rows = br#"[{"date":"2025-06-01T00:00:00Z","voltage":12.5,"unit":"V"}]"#;
        let series = std::sync::Arc::new(fleetview_core::series::PlotSeries::new(
            fleetview_core::series::decode_rows(rows).expect("rows"),
        ));
        let names: Vec<String> = [DataKind::BatteryVoltage, DataKind::DeviceBatteryVoltage]
            .into_iter()
            .flat_map(|kind| {
                s.on_action(Action::Export(ExportContent::Channel {
                    kind,
                    series: series.clone(),
                    channel: 0,
                    unit: "V".into(),
                }))
            })
            .map(|c| match c {
                Command::Export(job) => job.file_name,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(names.len(), 2, "both are under way at once");
        assert_ne!(names[0], names[1]);
        for n in &names {
            assert!(
                n.starts_with("1021-GE-021-Atlas-Copco-QAS-150-Lyon-"),
                "{n}"
            );
            assert!(
                n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)),
                "{n}"
            );
        }
    }

    #[test]
    fn an_export_under_way_is_not_asked_for_twice() {
        let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
        s.on_action(MachineAction::Select(1003).into());
        let faults = || Action::Export(ExportContent::Faults(Vec::new()));
        let first = s.on_action(faults());
        assert!(matches!(
            first.as_slice(),
            [Command::Export(job)] if job.file_name.starts_with("1003-faults-")
                && job.file_name.ends_with(".csv")
        ));
        assert!(s.on_action(faults()).is_empty(), "its dialog is still open");
        assert_eq!(
            s.exports.describe_under_way().collect::<Vec<_>>(),
            vec!["faults (CSV)"]
        );
        s.on_event(Event::Export(ExportEvent::Exported {
            request: 1,
            key: ExportKey::Faults,
            what: "faults (CSV)".into(),
            outcome: ExportOutcome::Cancelled,
        }));
        assert_eq!(s.exports.describe_under_way().count(), 0);
        assert_eq!(s.on_action(faults()).len(), 1, "and can be asked for again");
    }

    #[test]
    fn an_app_left_alone_wakes_only_when_something_is_due() {
        let now = 1_750_000_000;
        let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(now));
        assert_eq!(s.next_wake(), None, "nothing due: no frame");
        s.notify(Level::Info, "Exported", "faults.csv");
        s.tick(now);
        assert_eq!(s.next_wake(), Some(now + NEWS_SECS), "the news goes");
        s.tick(now + NEWS_SECS);
        assert_eq!(s.next_wake(), None);
        s.notify(Level::Error, "Failed", "");
        s.tick(now + NEWS_SECS);
        assert_eq!(s.next_wake(), None, "a problem stays");
        s.conn.went_offline(None, "no network".into());
        s.tick(now);
        let retry = s.offline().and_then(|o| o.next_retry);
        assert!(retry.is_some_and(|t| t > now));
        assert_eq!(s.next_wake(), retry, "the next try");
    }
}
