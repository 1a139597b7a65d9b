//! The user's actions: each handed to the feature it concerns, and what
//! crosses features done here (another machine clears the last one's
//! data; another service clears everything).

use super::AppState;
use crate::app::action::Action;
use crate::app::catalog::CatalogState;
use crate::app::connection::{ConnStatus, ConnectionAction};
use crate::app::fleet::FleetState;
use crate::app::machine::{MachineAction, ReadAt};
use crate::app::notifications::Level;
use crate::app::overview::OverviewAction;
use crate::app::settings::{Preset, Tab};
use crate::app::timeline::TimelineAction;
use fleetview_api::geo::LatLon;
use fleetview_api::time::{SECS_PER_DAY, now_secs};
use fleetview_core::worker::Command;

/// A machine opened at an item keeps its window if it holds this much
/// before the item.
const OPEN_AT_MARGIN_SECS: i64 = 3 * SECS_PER_DAY;

impl AppState {
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
        out.extend(self.service.open(&self.conn.current.base_url));
        out
    }

    /// The overview's snapshots, and its figures for the selected window.
    pub(super) fn start_overview(&mut self) -> Vec<Command> {
        let mut out = self.overview.set_window(self.selected_window());
        out.push(self.overview.fetch_snapshots(now_secs()));
        out
    }

    /// Tables, map and plots of the selection over the preset's window.
    pub(super) fn fetch_selected(&mut self) -> Vec<Command> {
        let now = self.now();
        let Some((equipment, window, mut out)) = self.machine.fetch(now) else {
            return Vec::new();
        };
        self.machine.as_of = self.as_of();
        self.machine.read_at = ReadAt {
            app: now,
            service: self.service_now,
        };
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
            Action::Overview(OverviewAction::OpenAt {
                equipment,
                at,
                position,
            }) => self.open_at(equipment, at, position),
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
            Action::Service(a) => self.service_action(a),
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
            Action::Report(ask) => self.report(ask),
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
            Action::SetTimesIn(zone) => {
                self.times_in = zone;
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

    /// Opens a machine at an attention item, as a click on the Events
    /// table does: its Events tab, the cursor at the item's time and the
    /// map on its place. The window stays if it holds the item and the
    /// days before it (a reset is seen from the reading before); else it is
    /// the look-back the strip found the item in, so the Events tab finds
    /// it too.
    fn open_at(
        &mut self,
        equipment: i64,
        at: Option<i64>,
        position: Option<LatLon>,
    ) -> Vec<Command> {
        let mut out = self.on_action(MachineAction::Select(equipment).into());
        self.tab = Tab::Events;
        self.machine_tab = Tab::Events;
        let Some(t) = at else {
            return out;
        };
        let now = self.now();
        let chosen = self.selected_window();
        let holds = chosen.since <= t - OPEN_AT_MARGIN_SECS && t <= chosen.until;
        if let (false, Some(look_back)) = (holds, self.overview.look_back.window) {
            let custom = self.machine.custom_days;
            let preset = [Preset::Last7Days, Preset::Last30Days]
                .into_iter()
                .find(|p| p.window(now, custom) == look_back);
            let wider = match preset {
                Some(p) => MachineAction::SetPreset(p),
                None => MachineAction::SetCustomDays {
                    first_day: look_back.since.div_euclid(SECS_PER_DAY),
                    last_day: look_back.until.div_euclid(SECS_PER_DAY),
                },
            };
            out.extend(self.on_action(wider.into()));
        }
        let seek = match position {
            Some(position) => TimelineAction::SeekToPlace { time: t, position },
            None => TimelineAction::SeekTo(t),
        };
        out.extend(self.timeline_action(seek));
        out
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

    /// A service-book action; its exports need the fleet's names and the
    /// service's address.
    fn service_action(&mut self, a: crate::app::ServiceAction) -> Vec<Command> {
        let crate::app::ServiceAction::Export(file) = a else {
            return self.service.on_action(a);
        };
        let service = self.conn.current.base_url.clone();
        let content = self
            .service
            .export(file, &self.fleet.equipments, self.now(), &service);
        let window = self.selected_window();
        self.exports.start(content, None, window, self.units)
    }
}
