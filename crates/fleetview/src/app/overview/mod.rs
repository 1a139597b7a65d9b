//! The fleet overview, the app's first page: every machine of the fleet
//! list with its snapshot (read page by page, kept for offline starts,
//! read again every 10 minutes) and, for the selected window, its figures
//! from `/history` and `/faults` (read in the background, a few machines at
//! a time, the rows in view first). Filters and sort survive a restart.
//!
//! `rows.rs`: the rows as shown (join, filters, sort); `attention.rs`:
//! the "needs attention" strip's look-back and counts; `columns.rs`: the
//! table's columns shown and their order.

mod attention;
mod columns;
mod files;
mod rows;

use fleetview_core::analysis::Attention;
use fleetview_core::service::due::DueStatus;
use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

pub use attention::{
    AttentionFilter, AttentionSettings, LOOK_BACK_CHOICES_DAYS, LookBack, MachineAttention,
    worst_fault,
};
pub use columns::ColumnLayout;
pub use rows::{Column, Filters, FleetRow, RowInputs, Sort, choices, engine_hours, fuel_percent};

use super::errors::{Problem, explain_read};
use super::failure::Failure;
use super::intake::Intake;
use super::loadable::Loadable;
use fleetview_api::ApiError;
use fleetview_api::equipment::EquipmentSnapshot;
use fleetview_api::model::EquipmentSummary;
use fleetview_api::time::TimeWindow;
use fleetview_core::analysis::MachineFigures;
use fleetview_core::worker::{Command, OverviewEvent, Target};

/// How many machines' figures are read at once: each is a `/history`, a
/// `/faults` and an operating hours read, in chunks of their own. Enough
/// that the worker never waits for the next frame to ask for more (a
/// frame comes up to 16.7 ms after a machine's figures), few enough that
/// the rows in view still come first.
pub const FIGURES_AT_ONCE: usize = 16;

/// The platform updates snapshots at most this often; so does the app.
pub const SNAPSHOT_REFRESH_SECS: i64 = 600;

/// What the overview keeps across restarts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OverviewSettings {
    pub filters: Filters,
    pub sort: Sort,
    /// The "needs attention" strip's look-back and idle threshold.
    pub attention: AttentionSettings,
    /// The table's columns shown, in order.
    pub columns: ColumnLayout,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OverviewAction {
    SetFilters(Filters),
    /// A click on a column's header.
    SortBy(Column),
    /// The machines that need attention first, the worst first.
    SortByAttention,
    /// Columns shown or hidden, or moved.
    SetColumns(ColumnLayout),
    /// The machines in view in the table, top to bottom: their figures are
    /// read first.
    InView(Vec<i64>),
    /// Read the snapshots (and the window's figures) again.
    Refresh,
    /// The strip's look-back or idle threshold.
    SetAttention(AttentionSettings),
    /// Open a machine at an attention item: the cursor at `at` (if it has
    /// a time) and the map on `position` (if known), as the Events table
    /// does. The composition does it (it crosses features).
    OpenAt {
        equipment: i64,
        at: Option<i64>,
        position: Option<fleetview_api::geo::LatLon>,
    },
}

/// How the snapshot reading stands.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SnapshotStatus {
    pub loading: bool,
    pub done: i64,
    pub total: i64,
    pub error: Option<String>,
    /// The service has no snapshots (404): the overview shows identities.
    pub unsupported: bool,
    /// Shown from the cache (service away, or signed out): when they were
    /// read.
    pub cached_at: Option<i64>,
    /// When the last reading started (wall clock), for the 10-minute
    /// refresh.
    pub requested_at: Option<i64>,
}

#[derive(Debug, Default)]
pub struct OverviewState {
    pub settings: OverviewSettings,
    pub snapshots: HashMap<i64, EquipmentSnapshot>,
    pub status: SnapshotStatus,
    /// The window the figures are for.
    pub window: Option<TimeWindow>,
    pub figures: HashMap<i64, Loadable<MachineFigures>>,
    /// Machines whose operating hours could not be read (after their
    /// retries), and why: their figures flag no counter reset, and the
    /// page says so.
    pub hours_unread: BTreeMap<i64, Problem>,
    /// Machines whose window the cache does not hold (read offline or
    /// signed out): said so in their cells, read again once connected.
    not_cached: HashSet<i64>,
    in_flight: HashSet<i64>,
    in_view: Vec<i64>,
    /// Every machine's figures have been asked for: the next pump has
    /// nothing to look for until the fleet, the window or a refresh brings
    /// some (a pump walks the whole fleet, and runs every frame).
    drained: bool,
    /// The rows as shown, recomputed when anything they depend on changes.
    rows: Vec<FleetRow>,
    /// Whether the rows need computing again.
    dirty: bool,
    /// The minute the rows were computed for (states depend on now).
    rows_minute: i64,
    /// Counts every change of `rows`, so views can cache what they derive.
    pub generation: u64,
    /// The snapshot pages replace what is shown from the first page on.
    replace_on_page: bool,
    /// The "needs attention" strip: its own look-back's figures, each
    /// machine's items and the counts.
    pub look_back: LookBack,
    /// Services overdue or due soon, per machine (the service book's).
    service_attention: HashMap<i64, Vec<Attention>>,
    /// The Service column: each planned machine's worst status, in words.
    pub service: HashMap<i64, (DueStatus, String)>,
}

impl OverviewState {
    /// Another service: nothing of the last one stays but the filters and
    /// the sort.
    pub fn forget(&mut self) {
        *self = OverviewState {
            settings: std::mem::take(&mut self.settings),
            dirty: true,
            generation: self.generation + 1,
            ..OverviewState::default()
        };
    }

    /// The rows as shown, in order.
    pub fn rows(&self) -> &[FleetRow] {
        &self.rows
    }

    /// Machines whose figures are still to come (for the window in use).
    pub fn figures_loading(&self, fleet_len: usize) -> usize {
        let ready = self
            .figures
            .values()
            .filter(|f| matches!(f, Loadable::Ready(_) | Loadable::Failed { .. }))
            .count();
        fleet_len.saturating_sub(ready)
    }

    /// Where the snapshots last placed a machine, if anywhere.
    pub fn last_position(&self, id: i64) -> Option<fleetview_api::geo::LatLon> {
        self.snapshots.get(&id).and_then(rows::snapshot_position)
    }

    pub fn figures_of(&self, id: i64) -> Option<&Loadable<MachineFigures>> {
        self.figures.get(&id)
    }

    /// Whether the cache lacks the machine's window (read without the
    /// service).
    pub fn not_cached(&self, id: i64) -> bool {
        self.not_cached.contains(&id)
    }

    /// Where the machines' services stand now.
    pub fn set_service(
        &mut self,
        attention: HashMap<i64, Vec<Attention>>,
        cells: HashMap<i64, (DueStatus, String)>,
    ) {
        self.service_attention = attention;
        self.service = cells;
        self.dirty = true;
    }

    pub fn mark_dirty(&mut self) {
        self.dirty = true;
        self.drained = false;
        self.look_back.wake();
    }

    /// Reads the snapshots from the first page; what is shown stays until
    /// the first page comes.
    pub fn fetch_snapshots(&mut self, wall_now: i64) -> Command {
        self.status.loading = true;
        self.status.error = None;
        self.status.requested_at = Some(wall_now);
        self.replace_on_page = true;
        Command::FetchSnapshots
    }

    pub fn on_snapshot_page(
        &mut self,
        snapshots: Vec<EquipmentSnapshot>,
        (done, total): (i64, i64),
        finished: bool,
    ) {
        if std::mem::take(&mut self.replace_on_page) {
            self.snapshots.clear();
            self.status.cached_at = None;
        }
        self.snapshots
            .extend(snapshots.into_iter().map(|s| (s.id, s)));
        self.status.done = done;
        self.status.total = total;
        self.status.loading = !finished;
        self.status.unsupported = false;
        self.dirty = true;
    }

    pub fn on_snapshots_cached(&mut self, snapshots: Vec<EquipmentSnapshot>, fetched_at: i64) {
        self.replace_on_page = false;
        self.snapshots = snapshots.into_iter().map(|s| (s.id, s)).collect();
        let n = self.snapshots.len() as i64;
        self.status = SnapshotStatus {
            loading: false,
            done: n,
            total: n,
            error: None,
            unsupported: false,
            cached_at: Some(fetched_at),
            requested_at: self.status.requested_at,
        };
        self.dirty = true;
    }

    /// Takes in a page of snapshots (or those last read) or a machine's
    /// figures.
    pub fn on_event(&mut self, event: OverviewEvent, intake: &mut Intake) {
        match event {
            OverviewEvent::SnapshotPage {
                snapshots,
                done,
                total,
                finished,
                ..
            } => {
                intake.conn.answered();
                self.on_snapshot_page(snapshots, (done, total), finished);
            }
            OverviewEvent::SnapshotsCached {
                snapshots,
                fetched_at,
                ..
            } => {
                self.on_snapshots_cached(snapshots, fetched_at);
                intake
                    .conn
                    .shown_from_cache(fetched_at, "the snapshots could not be read");
            }
            OverviewEvent::Figures {
                equipment,
                window,
                figures,
                offline,
                unread,
                ..
            } => {
                // Signed out, the cache answers for want of a key, not of
                // the service.
                if let Some(t) = offline {
                    intake
                        .conn
                        .shown_from_cache(t, "figures served from the cache");
                }
                if self.window == Some(window) {
                    match unread.first() {
                        Some(u) => {
                            self.hours_unread.insert(equipment, explain_read(&u.error));
                        }
                        None => {
                            self.hours_unread.remove(&equipment);
                        }
                    }
                }
                self.on_figures(equipment, window, figures);
            }
            OverviewEvent::NotCached {
                equipment, window, ..
            } => self.on_not_cached(equipment, window),
            OverviewEvent::LookBack {
                equipment,
                window,
                figures,
                offline,
                ..
            } => {
                if let Some(t) = offline {
                    intake
                        .conn
                        .shown_from_cache(t, "figures served from the cache");
                }
                self.dirty |= self.look_back.on_figures(equipment, window, figures);
            }
        }
    }

    /// The snapshots, or a machine's figures, could not be read.
    pub fn on_failed(&mut self, target: &Target, error: &ApiError) -> Failure {
        let message = error.to_string();
        if let Target::LookBack(id) = target {
            self.look_back
                .on_failed(*id, message, error.is_unreachable());
            self.dirty = true;
            return if error.is_unauthorized() || error.is_unreachable() {
                Failure::Notice
            } else {
                Failure::Said
            };
        }
        let Target::Figures(id) = target else {
            let not_found = matches!(error, ApiError::NotFound { .. });
            self.snapshots_failed(message, not_found);
            return Failure::Notice;
        };
        self.look_back.release(*id);
        if error.is_unreachable() {
            // Read again from the cache, offline.
            self.in_flight.remove(id);
            if self.figures.get(id).is_some_and(|f| f.value().is_none()) {
                self.figures.remove(id);
            }
            self.stop_reads();
        } else {
            self.figures_failed(*id, message);
        }
        // Said in its row, not as one notice per machine.
        if error.is_unauthorized() || error.is_unreachable() {
            Failure::Notice
        } else {
            Failure::Said
        }
    }

    pub fn snapshots_failed(&mut self, message: String, not_found: bool) {
        self.status.loading = false;
        self.replace_on_page = false;
        if not_found {
            self.status.unsupported = true;
        } else {
            self.status.error = Some(message);
        }
    }

    /// Figures for another window: those of the last one go (and their
    /// reads are stopped).
    pub fn set_window(&mut self, window: TimeWindow) -> Vec<Command> {
        if self.window == Some(window) {
            return Vec::new();
        }
        self.window = Some(window);
        self.figures.clear();
        self.hours_unread.clear();
        self.not_cached.clear();
        self.drained = false;
        self.dirty = true;
        self.in_flight
            .drain()
            .map(|id| {
                self.look_back.release(id);
                Command::Cancel(Target::Figures(id))
            })
            .collect()
    }

    /// Reads the window's figures again, keeping those shown meanwhile
    /// (those the cache lacked too).
    pub fn refresh_figures(&mut self) -> Vec<Command> {
        self.not_cached.clear();
        let mut out: Vec<Command> = self
            .in_flight
            .drain()
            .map(|id| Command::Cancel(Target::Figures(id)))
            .collect();
        for f in self.figures.values_mut() {
            f.start();
            self.drained = false;
        }
        out.extend(self.look_back.refresh());
        out
    }

    pub fn on_figures(&mut self, equipment: i64, window: TimeWindow, figures: MachineFigures) {
        if self.window != Some(window) {
            return;
        }
        self.in_flight.remove(&equipment);
        self.figures.insert(equipment, Loadable::Ready(figures));
        self.dirty = true;
    }

    /// The cache, read alone, lacks the machine's window: said in its
    /// cells, not asked again until a refresh.
    pub fn on_not_cached(&mut self, equipment: i64, window: TimeWindow) {
        if self.window != Some(window) {
            return;
        }
        self.in_flight.remove(&equipment);
        self.not_cached.insert(equipment);
        self.figures
            .entry(equipment)
            .or_default()
            .fail("Not in the cache");
        self.dirty = true;
    }

    pub fn figures_failed(&mut self, equipment: i64, message: String) {
        self.in_flight.remove(&equipment);
        self.figures.entry(equipment).or_default().fail(message);
    }

    /// The service went away: the reads under way will not come.
    pub fn stop_reads(&mut self) {
        self.drained = false;
        for id in self.in_flight.drain() {
            self.look_back.release(id);
            if let Some(f) = self.figures.get_mut(&id)
                && f.is_pending()
                && f.value().is_none()
            {
                self.figures.remove(&id);
            }
        }
    }

    pub fn on_action(&mut self, action: OverviewAction) {
        match action {
            OverviewAction::SetFilters(f) => {
                if f != self.settings.filters {
                    self.settings.filters = f;
                    self.dirty = true;
                }
            }
            OverviewAction::SortBy(c) => {
                self.settings.sort = self.settings.sort.clicked(c);
                self.dirty = true;
            }
            OverviewAction::SortByAttention => {
                self.settings.sort.attention_first = true;
                self.dirty = true;
            }
            OverviewAction::SetColumns(c) => self.settings.columns = c,
            OverviewAction::InView(ids) => self.in_view = ids,
            OverviewAction::SetAttention(a) => {
                self.settings.attention = a;
                self.dirty = true;
            }
            // The state's composition does them: they need the clock, or
            // cross features.
            OverviewAction::Refresh | OverviewAction::OpenAt { .. } => {}
        }
    }

    /// The next machines whose figures and look-back to read (the
    /// look-back follows the day and the setting): those in view first,
    /// then the rows as shown, then the rest of the fleet. When the
    /// look-back is the figures' window (the defaults: 30 days), one read
    /// of a machine gives both.
    pub fn pump(&mut self, fleet: &[EquipmentSummary], offline: bool, now: i64) -> Vec<Command> {
        let mut out = self
            .look_back
            .set_window(self.settings.attention.window(now));
        out.extend(self.pump_figures(fleet, offline, now));
        let together = self.window.is_some() && self.window == self.look_back.window;
        let order = self
            .in_view
            .iter()
            .copied()
            .chain(self.rows.iter().map(|r| r.id))
            .chain(fleet.iter().map(|e| e.id));
        // Together, a machine's look-back comes with its figures; read on
        // its own only once those are in (or failed) without it.
        let figures = &self.figures;
        let order = order.filter(|id| {
            !together
                || figures
                    .get(id)
                    .is_some_and(|f| matches!(f, Loadable::Ready(_) | Loadable::Failed { .. }))
        });
        out.extend(self.look_back.pump(order, now, offline));
        out
    }

    /// The next machines whose figures to read, in the pump's order;
    /// never more than `FIGURES_AT_ONCE` at once. `offline`: from the
    /// cache alone.
    fn pump_figures(
        &mut self,
        fleet: &[EquipmentSummary],
        offline: bool,
        now: i64,
    ) -> Vec<Command> {
        let Some(window) = self.window else {
            return Vec::new();
        };
        let together = self.look_back.window == Some(window);
        let free = FIGURES_AT_ONCE.saturating_sub(self.in_flight.len());
        if free == 0 || self.drained {
            return Vec::new();
        }
        let wanted = |id: &i64| match self.figures.get(id) {
            None => true,
            // Refreshing: asked again, the old value shown meanwhile.
            Some(Loadable::Pending { .. }) => !self.in_flight.contains(id),
            Some(_) => false,
        };
        let mut next: Vec<i64> = Vec::with_capacity(free);
        let order = self
            .in_view
            .iter()
            .copied()
            .chain(self.rows.iter().map(|r| r.id))
            .chain(fleet.iter().map(|e| e.id));
        for id in order {
            if next.len() == free {
                break;
            }
            if wanted(&id) && !next.contains(&id) {
                next.push(id);
            }
        }
        // Fewer than there was room for: the whole fleet was looked at.
        self.drained = next.len() < free;
        next.into_iter()
            .map(|id| {
                self.in_flight.insert(id);
                self.figures.entry(id).or_default().start();
                let look_back_now = (together && self.look_back.wants(id)).then(|| {
                    self.look_back.ride(id);
                    now
                });
                Command::FetchFigures {
                    equipment: id,
                    window,
                    offline,
                    look_back_now,
                }
            })
            .collect()
    }

    /// Computes the rows again if anything changed (or the minute did:
    /// states depend on now).
    pub fn refresh_rows(&mut self, fleet: &[EquipmentSummary], now: i64) {
        let minute = now.div_euclid(60);
        if !self.dirty && minute == self.rows_minute {
            return;
        }
        let window_reaches_now = self
            .window
            .is_some_and(|w| w.since <= now && now <= w.until + 60);
        let s = &self.status;
        let snapshots_pending = !s.unsupported
            && s.error.is_none()
            && (s.loading || (s.cached_at.is_none() && s.requested_at.is_none()));
        let silence = !snapshots_pending && !s.unsupported;
        self.look_back.assess(
            fleet,
            &self.snapshots,
            self.settings.attention,
            silence,
            &self.service_attention,
            now,
        );
        self.rows = RowInputs {
            fleet,
            snapshots: &self.snapshots,
            figures: &self.figures,
            attention: &self.look_back.machines,
            service: &self.service,
            window_reaches_now,
            snapshots_pending,
            now,
        }
        .rows(&self.settings.filters, self.settings.sort);
        self.dirty = false;
        self.rows_minute = minute;
        self.generation += 1;
    }

    /// Whether the 10-minute refresh is due.
    /// When the snapshots are next refreshed (wall clock), if they will be.
    pub fn next_refresh(&self) -> Option<i64> {
        let waiting = !self.status.loading && !self.status.unsupported;
        self.status
            .requested_at
            .filter(|_| waiting)
            .map(|t| t + SNAPSHOT_REFRESH_SECS)
    }

    pub fn refresh_due(&self, wall_now: i64) -> bool {
        !self.status.loading
            && !self.status.unsupported
            && self
                .status
                .requested_at
                .is_some_and(|t| wall_now - t >= SNAPSHOT_REFRESH_SECS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fleet(n: i64) -> Vec<EquipmentSummary> {
        (1..=n)
            .map(|id| EquipmentSummary {
                id,
                name: format!("M-{id:03}"),
                ..Default::default()
            })
            .collect()
    }

    fn asked(commands: &[Command]) -> Vec<i64> {
        commands
            .iter()
            .filter_map(|c| match c {
                Command::FetchFigures { equipment, .. } => Some(*equipment),
                _ => None,
            })
            .collect()
    }

    const WINDOW: TimeWindow = TimeWindow {
        since: 0,
        until: 86_399,
    };

    /// The clock: the look-back (30 days to it) is not `WINDOW`.
    const NOW: i64 = 0;

    #[test]
    fn figures_are_read_a_few_at_a_time_rows_in_view_first() {
        let n = FIGURES_AT_ONCE as i64;
        let fleet = fleet(n + 6);
        let mut o = OverviewState::default();
        assert!(
            asked(&o.pump(&fleet, false, NOW)).is_empty(),
            "no window, nothing to read"
        );
        o.set_window(WINDOW);
        o.refresh_rows(&fleet, 0);
        o.on_action(OverviewAction::InView(vec![7, 8]));
        let first = asked(&o.pump(&fleet, false, NOW));
        let expected: Vec<i64> = [7, 8]
            .into_iter()
            .chain((1..=n).filter(|id| *id != 7 && *id != 8))
            .take(FIGURES_AT_ONCE)
            .collect();
        assert_eq!(first, expected);
        assert!(
            asked(&o.pump(&fleet, false, NOW)).is_empty(),
            "never more than FIGURES_AT_ONCE at once"
        );
        o.on_figures(8, WINDOW, MachineFigures::default());
        assert_eq!(asked(&o.pump(&fleet, false, NOW)), vec![n + 1]);
        // An answer for another window is not kept, and frees nothing.
        o.on_figures(
            7,
            TimeWindow { since: 1, ..WINDOW },
            MachineFigures::default(),
        );
        assert!(asked(&o.pump(&fleet, false, NOW)).is_empty());
        o.figures_failed(7, "boom".into());
        assert_eq!(asked(&o.pump(&fleet, false, NOW)), vec![n + 2]);
        assert_eq!(o.figures_loading(fleet.len()), fleet.len() - 2);
    }

    #[test]
    fn once_every_figure_is_asked_for_the_queue_rests_until_there_is_more() {
        let fleet = fleet(3);
        let mut o = OverviewState::default();
        o.set_window(WINDOW);
        assert_eq!(asked(&o.pump(&fleet, false, NOW)), vec![1, 2, 3]);
        assert!(o.drained, "nothing left to look for");
        o.on_figures(1, WINDOW, MachineFigures::default());
        assert!(asked(&o.pump(&fleet, false, NOW)).is_empty());
        assert!(o.drained);
        // More machines: the queue looks again.
        let more = self::fleet(4);
        o.mark_dirty();
        assert_eq!(asked(&o.pump(&more, false, NOW)), vec![4]);
        // A refresh asks again for what was read.
        for id in 2..=4 {
            o.on_figures(id, WINDOW, MachineFigures::default());
        }
        let _ = o.pump(&more, false, NOW);
        assert!(o.drained);
        o.refresh_figures();
        assert_eq!(asked(&o.pump(&more, false, NOW)), vec![1, 2, 3, 4]);
    }

    #[test]
    fn a_new_window_drops_the_figures_and_stops_their_reads() {
        let fleet = fleet(3);
        let mut o = OverviewState::default();
        o.set_window(WINDOW);
        let _ = o.pump(&fleet, false, NOW);
        o.on_figures(1, WINDOW, MachineFigures::default());
        let stopped = o.set_window(TimeWindow {
            since: 86_400,
            until: 2 * 86_400 - 1,
        });
        assert_eq!(stopped.len(), 2);
        assert!(o.figures.is_empty());
        assert_eq!(asked(&o.pump(&fleet, false, NOW)), vec![1, 2, 3]);
    }

    #[test]
    fn a_refresh_reads_every_figure_again_keeping_the_old_ones_shown() {
        let fleet = fleet(2);
        let mut o = OverviewState::default();
        o.set_window(WINDOW);
        let _ = o.pump(&fleet, false, NOW);
        let figures = MachineFigures {
            engine_hours_h: Some(3.0),
            ..Default::default()
        };
        o.on_figures(1, WINDOW, figures.clone());
        o.on_figures(2, WINDOW, figures.clone());
        assert!(asked(&o.pump(&fleet, false, NOW)).is_empty());
        o.refresh_figures();
        assert_eq!(asked(&o.pump(&fleet, false, NOW)), vec![1, 2]);
        assert_eq!(
            o.figures_of(1).and_then(Loadable::value),
            Some(&figures),
            "kept while read again"
        );
    }

    /// The commands' machines: figures (and whether each brings the
    /// look-back), and look-backs read on their own.
    fn reads(commands: &[Command]) -> (Vec<(i64, bool)>, Vec<i64>) {
        let mut figures = Vec::new();
        let mut look_backs = Vec::new();
        for c in commands {
            match c {
                Command::FetchFigures {
                    equipment,
                    look_back_now,
                    ..
                } => figures.push((*equipment, look_back_now.is_some())),
                Command::FetchLookBack { equipment, .. } => look_backs.push(*equipment),
                _ => {}
            }
        }
        (figures, look_backs)
    }

    #[test]
    fn when_the_look_back_is_the_window_one_read_gives_both() {
        let n = FIGURES_AT_ONCE as i64;
        let fleet = fleet(n + 2);
        let mut o = OverviewState::default();
        let window = o.settings.attention.window(NOW);
        o.set_window(window);
        let (figures, alone) = reads(&o.pump(&fleet, false, NOW));
        assert_eq!(
            figures,
            (1..=n).map(|id| (id, true)).collect::<Vec<_>>(),
            "each figures read brings the look-back"
        );
        assert!(alone.is_empty(), "no machine read twice: {alone:?}");
        o.look_back
            .on_figures(1, window, Some(MachineFigures::default()));
        o.on_figures(1, window, MachineFigures::default());
        let (figures, alone) = reads(&o.pump(&fleet, false, NOW));
        assert_eq!(figures, vec![(n + 1, true)]);
        assert!(alone.is_empty());
        assert!(
            o.look_back
                .figures
                .get(&1)
                .and_then(Loadable::value)
                .is_some()
        );
        // The figures' reads stopped (another window): the look-backs they
        // were to bring are read on their own.
        let other = TimeWindow {
            since: 0,
            until: 86_399,
        };
        o.set_window(other);
        let (figures, alone) = reads(&o.pump(&fleet, false, NOW));
        assert_eq!(figures, (1..=n).map(|id| (id, false)).collect::<Vec<_>>());
        // Four at a time, as the look-back reads on its own.
        assert_eq!(alone, vec![2, 3, 4, 5]);
    }

    #[test]
    fn snapshots_refresh_every_ten_minutes_and_pages_replace_from_the_first() {
        let mut o = OverviewState::default();
        assert!(!o.refresh_due(1_000), "never read: the start reads them");
        let _ = o.fetch_snapshots(1_000);
        assert!(!o.refresh_due(5_000), "not while reading");
        let s = |id| EquipmentSnapshot {
            id,
            ..Default::default()
        };
        o.on_snapshot_page(vec![s(1), s(2)], (2, 3), false);
        o.on_snapshot_page(vec![s(3)], (3, 3), true);
        assert_eq!(o.snapshots.len(), 3);
        assert!(!o.refresh_due(1_599));
        assert!(o.refresh_due(1_600));
        let _ = o.fetch_snapshots(1_600);
        assert_eq!(o.snapshots.len(), 3, "kept until the first new page");
        o.on_snapshot_page(vec![s(9)], (1, 1), true);
        assert_eq!(o.snapshots.keys().copied().collect::<Vec<_>>(), vec![9]);
        o.snapshots_failed("404".into(), true);
        assert!(o.status.unsupported && !o.refresh_due(10_000));
    }
}
