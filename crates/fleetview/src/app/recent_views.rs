//! Machines' pages kept after switching away, so that coming back to one is
//! instant. Only a page whose window was settled when it was read is shown
//! again from here: what the cache holds of it cannot change (the cache
//! settles by the same rule), so what was decoded is what a fetch would
//! bring again. The rest is fetched.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use super::figures::Basis;
use super::machine::ReadAt;
use fleetview_api::DataKind;
use fleetview_api::model::{ActivityRow, EquipmentHistory, FaultRow};
use fleetview_api::time::TimeWindow;
use fleetview_core::analysis::Report;
use fleetview_core::cache::SETTLE_SECS;
use fleetview_core::series::{PlotSeries, Track};

/// Pages kept at most.
pub const KEPT_VIEWS: usize = 4;
/// Rows kept at most across the pages (positions, plotted samples, table
/// rows): about 100 MB at the track's size per position.
pub const KEPT_ROWS: usize = 1_000_000;

/// One machine's page over one window, everything loaded.
#[derive(Debug)]
pub struct KeptView {
    pub equipment: i64,
    pub window: TimeWindow,
    pub faults: Vec<FaultRow>,
    pub activities: Arc<Vec<ActivityRow>>,
    pub history: Arc<EquipmentHistory>,
    pub track: Arc<Track>,
    /// The plotted kinds that were loaded.
    pub plots: BTreeMap<DataKind, Arc<PlotSeries>>,
    pub report: Arc<Report>,
    /// What the figures were computed from.
    pub basis: Basis,
    /// When its data was read, by the earlier of this computer's clock
    /// and the service's (`None`: the service's was not known).
    pub as_of: Option<i64>,
    pub read_at: ReadAt,
}

impl KeptView {
    fn rows(&self) -> usize {
        self.track.len()
            + self
                .plots
                .values()
                .map(|p| p.series.times.len())
                .sum::<usize>()
            + self.faults.len()
            + self.activities.len()
            + self.history.daily_usages.rows.len()
    }
}

/// Whether `window` was settled for data read `as_of` (the earlier of
/// this computer's clock and the service's, as the cache's rule): nothing
/// in it could still change. An unknown service time settles nothing.
pub fn settled(window: TimeWindow, as_of: Option<i64>) -> bool {
    as_of.is_some_and(|t| window.until <= t.saturating_sub(SETTLE_SECS))
}

/// The pages last left, the newest first.
#[derive(Debug, Default)]
pub struct RecentViews {
    views: VecDeque<KeptView>,
}

impl RecentViews {
    /// Keeps a page left (replacing an older one of the same machine and
    /// window); the oldest go past the caps.
    pub fn keep(&mut self, view: KeptView) {
        self.views
            .retain(|v| (v.equipment, v.window) != (view.equipment, view.window));
        self.views.push_front(view);
        while self.views.len() > KEPT_VIEWS
            || self.views.iter().map(KeptView::rows).sum::<usize>() > KEPT_ROWS
        {
            self.views.pop_back();
        }
    }

    /// The page of `equipment` over `window`, if kept (it leaves the list:
    /// it is shown again).
    pub fn take(&mut self, equipment: i64, window: TimeWindow) -> Option<KeptView> {
        let i = self
            .views
            .iter()
            .position(|v| (v.equipment, v.window) == (equipment, window))?;
        self.views.remove(i)
    }

    pub fn len(&self) -> usize {
        self.views.len()
    }

    pub fn is_empty(&self) -> bool {
        self.views.is_empty()
    }

    /// Another service: nothing kept may show.
    pub fn clear(&mut self) {
        self.views.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::machine::KEPT_FRESH_SECS;
    use fleetview_core::series::TrackSample;

    fn view(equipment: i64, positions: usize) -> KeptView {
        let history: EquipmentHistory = serde_json::from_value(serde_json::json!({
            "id": equipment, "name": "m", "make": "", "model": "", "serialNumber": "",
            "positions": {"total": 0, "rows": []},
            "faultCodes": {"total": 0, "rows": []},
            "fuelRemainings": {"total": 0, "rows": []},
            "engineConditions": {"total": 0, "rows": []},
            "dailyUsages": {"total": 0, "rows": []},
        }))
        .unwrap_or_else(|e| panic!("a history: {e}"));
        KeptView {
            equipment,
            window: TimeWindow {
                since: 0,
                until: 86_399,
            },
            faults: Vec::new(),
            activities: Arc::new(Vec::new()),
            history: Arc::new(history),
            track: Arc::new(Track::new(
                (0..positions as i64)
                    .map(|t| TrackSample::at(t, 45.0, 5.0))
                    .collect(),
            )),
            plots: BTreeMap::new(),
            report: Arc::new(Report::default()),
            basis: Basis::default(),
            as_of: None,
            read_at: ReadAt::NEVER,
        }
    }

    #[test]
    fn a_page_kept_is_taken_back_once_and_only_for_its_window() {
        let mut r = RecentViews::default();
        r.keep(view(1, 10));
        let other = TimeWindow { since: 0, until: 1 };
        assert!(r.take(1, other).is_none(), "another window");
        assert!(r.take(2, view(1, 0).window).is_none(), "another machine");
        let back = r.take(1, view(1, 0).window).expect("kept");
        assert_eq!(back.track.len(), 10);
        assert!(r.take(1, back.window).is_none(), "taken once");
    }

    #[test]
    fn the_oldest_pages_go_past_the_caps() {
        let mut r = RecentViews::default();
        for id in 0..(KEPT_VIEWS as i64 + 2) {
            r.keep(view(id, 1));
        }
        assert_eq!(r.len(), KEPT_VIEWS);
        assert!(r.take(0, view(0, 0).window).is_none(), "the oldest went");
        assert!(r.take(KEPT_VIEWS as i64 + 1, view(0, 0).window).is_some());

        let mut r = RecentViews::default();
        r.keep(view(1, KEPT_ROWS / 2));
        r.keep(view(2, KEPT_ROWS / 2 + 1));
        assert_eq!(r.len(), 1, "over the rows' cap, the older page goes");
        assert!(r.take(2, view(0, 0).window).is_some());
    }

    #[test]
    fn only_a_window_past_the_settling_time_is_settled() {
        let w = TimeWindow {
            since: 0,
            until: 1_000,
        };
        assert!(settled(w, Some(1_000 + SETTLE_SECS)));
        assert!(!settled(w, Some(1_000 + SETTLE_SECS - 1)));
        assert!(!settled(w, None), "the service's time unknown");
    }

    /// The app's state with machine `id`'s page loaded whole over its
    /// window (the worker's answers fed in, the figures computed from them
    /// as the worker computes those asked with the page's reads).
    fn load_page(s: &mut crate::app::AppState, id: i64) -> TimeWindow {
        use fleetview_core::worker::{
            Event, FiguresEvent, MachineEvent, ReportData, TimelineEvent,
        };
        let window = s.window().expect("a window");
        let history = view(id, 0).history;
        let activities = Arc::new(Vec::new());
        let track = view(id, 3).track;
        s.on_event(Event::Machine(MachineEvent::Faults {
            request: 1,
            equipment: id,
            window,
            rows: Vec::new(),
            offline: None,
        }));
        s.on_event(Event::Machine(MachineEvent::Activities {
            request: 1,
            equipment: id,
            window,
            rows: activities.clone(),
            offline: None,
        }));
        s.on_event(Event::Timeline(TimelineEvent::Track {
            request: 1,
            equipment: id,
            window,
            track: track.clone(),
            offline: None,
        }));
        for kind in s.timeline.plot_kinds.clone() {
            s.on_event(Event::Timeline(TimelineEvent::Plot {
                request: 1,
                equipment: id,
                kind,
                window,
                series: Arc::new(PlotSeries::new(fleetview_core::series::Series::default())),
                offline: None,
            }));
        }
        let asked = s.on_event(Event::Machine(MachineEvent::History {
            request: 1,
            equipment: id,
            window,
            history: history.clone(),
            body: None,
            offline: None,
            requests: 1,
        }));
        assert!(
            !asked
                .iter()
                .any(|c| matches!(c, fleetview_core::worker::Command::ComputeReport { .. })),
            "the figures were asked with the page's reads"
        );
        let from = ReportData::new(history, Some(activities), Some(track));
        s.on_event(Event::Figures(FiguresEvent::Report {
            request: 1,
            equipment: id,
            window,
            report: Arc::new(Report {
                window: Some(window),
                ..Report::default()
            }),
            offline: None,
            sources: Some(from.sources()),
            unread: Vec::new(),
        }));
        window
    }

    /// Noon of a day: "yesterday" ended 12 hours before.
    const NOON: i64 = 20_000 * 86_400 + 12 * 3600;

    /// The app's state with this computer's clock at `now`, the service's
    /// as the worker heard it at `service_now`, over `preset`'s window.
    fn state_at(
        now: i64,
        service_now: Option<i64>,
        preset: crate::app::Preset,
    ) -> crate::app::AppState {
        use crate::app::{AppState, Connection, MachineAction};
        let mut s = AppState::new(
            Connection::embedded("http://127.0.0.1:1", "demo"),
            Some(now),
        );
        s.set_service_now(service_now);
        s.on_action(MachineAction::SetPreset(preset).into());
        s
    }

    /// Whether `commands` read machine 1003's page again.
    fn read_again(commands: &[fleetview_core::worker::Command]) -> bool {
        use fleetview_core::worker::Command;
        let track = commands.iter().any(|c| {
            matches!(
                c,
                Command::FetchTrack {
                    equipment: 1003,
                    ..
                }
            )
        });
        let faults = commands.iter().any(|c| {
            matches!(
                c,
                Command::FetchFaults {
                    equipment: 1003,
                    ..
                }
            )
        });
        let history = commands.iter().any(|c| {
            matches!(
                c,
                Command::FetchHistory {
                    equipment: 1003,
                    ..
                }
            )
        });
        track && faults && history
    }

    #[test]
    fn a_page_read_before_its_window_settled_is_read_again_once_it_has() {
        use crate::app::{MachineAction, Preset};
        // Read while the service (its clock behind) still lived yesterday.
        let mut s = state_at(NOON, Some(NOON - 14 * 3600), Preset::Yesterday);
        s.on_action(MachineAction::Select(1003).into());
        load_page(&mut s, 1003);
        s.on_action(MachineAction::Select(1004).into());
        // Settled now by both clocks, but not when it was read (over a
        // minute before).
        s.set_service_now(Some(NOON));
        s.set_clock(NOON + KEPT_FRESH_SECS);
        let back = s.on_action(MachineAction::Select(1003).into());
        assert!(read_again(&back), "read again: {back:?}");
        // Read again as settled: the next time it shows as kept.
        load_page(&mut s, 1003);
        s.on_action(MachineAction::Select(1004).into());
        let back = s.on_action(MachineAction::Select(1003).into());
        assert!(!read_again(&back), "kept: {back:?}");
    }

    #[test]
    fn a_page_read_before_the_service_told_its_time_is_read_again() {
        use crate::app::{MachineAction, Preset};
        let mut s = state_at(NOON, None, Preset::Yesterday);
        s.on_action(MachineAction::Select(1003).into());
        load_page(&mut s, 1003);
        s.on_action(MachineAction::Select(1004).into());
        s.set_clock(NOON + KEPT_FRESH_SECS);
        let back = s.on_action(MachineAction::Select(1003).into());
        assert!(read_again(&back), "read again: {back:?}");
    }

    #[test]
    fn back_to_a_machine_its_settled_page_shows_at_once_without_a_read() {
        use crate::app::{Loadable, MachineAction, Preset};
        use fleetview_core::worker::Command;
        // Yesterday ended 12 hours before, by both clocks.
        let mut s = state_at(NOON, Some(NOON), Preset::Yesterday);
        s.on_action(MachineAction::Select(1003).into());
        let window = load_page(&mut s, 1003);
        let shown = s.timeline.track.value().map(Arc::as_ptr);

        s.on_action(MachineAction::Select(1004).into());
        assert!(s.faults().is_pending(), "another machine is read");
        let back = s.on_action(MachineAction::Select(1003).into());
        assert!(
            !back.iter().any(|c| matches!(
                c,
                Command::FetchFaults { .. }
                    | Command::FetchActivities { .. }
                    | Command::FetchHistory { .. }
                    | Command::FetchTrack { .. }
                    | Command::FetchPlot { .. }
                    | Command::ComputeReport { .. }
            )),
            "nothing read again: {back:?}"
        );
        assert_eq!(s.window(), Some(window));
        assert!(matches!(s.faults(), Loadable::Ready(_)));
        assert!(matches!(s.activities(), Loadable::Ready(_)));
        assert!(matches!(s.history(), Loadable::Ready(_)));
        assert_eq!(
            s.timeline.track.value().map(Arc::as_ptr),
            shown,
            "the same track"
        );
        assert!(
            s.timeline
                .plot_kinds
                .iter()
                .all(|k| matches!(s.timeline.plots.get(k), Some(Loadable::Ready(_))))
        );
        assert!(matches!(&s.figures.report, Loadable::Ready(r) if r.window == Some(window)));
    }

    #[test]
    fn back_to_a_machine_within_a_minute_its_page_shows_without_a_read_settled_or_not() {
        use crate::app::{Loadable, MachineAction, Preset};
        // Today's window, still being written.
        let mut s = state_at(NOON, Some(NOON), Preset::Today);
        s.on_action(MachineAction::Select(1003).into());
        let window = load_page(&mut s, 1003);
        let shown = s.timeline.track.value().map(Arc::as_ptr);
        s.on_action(MachineAction::Select(1004).into());
        s.set_clock(NOON + KEPT_FRESH_SECS - 1);
        let back = s.on_action(MachineAction::Select(1003).into());
        assert!(!read_again(&back), "kept: {back:?}");
        assert_eq!(s.window(), Some(window));
        assert_eq!(s.timeline.track.value().map(Arc::as_ptr), shown);
        assert!(matches!(s.faults(), Loadable::Ready(_)));
        assert!(matches!(&s.figures.report, Loadable::Ready(r) if r.window == Some(window)));
        // Its reads' time is kept with it: a minute after them, back again,
        // it is read again.
        s.on_action(MachineAction::Select(1004).into());
        s.set_clock(NOON + KEPT_FRESH_SECS);
        let back = s.on_action(MachineAction::Select(1003).into());
        assert!(read_again(&back), "read again: {back:?}");
    }

    #[test]
    fn back_to_a_machine_whose_window_is_not_settled_its_page_shows_while_read_again() {
        use crate::app::{Loadable, MachineAction, Preset};
        // Today's window is still being written by this computer's clock,
        // the earlier one here.
        let mut s = state_at(NOON, Some(NOON + 2 * 86_400), Preset::Today);
        s.on_action(MachineAction::Select(1003).into());
        let window = load_page(&mut s, 1003);
        let shown = s.timeline.track.value().map(Arc::as_ptr);
        s.on_action(MachineAction::Select(1004).into());
        // A minute later.
        s.set_clock(NOON + KEPT_FRESH_SECS);
        let back = s.on_action(MachineAction::Select(1003).into());
        assert!(read_again(&back), "read again: {back:?}");
        // Meanwhile the page is the one kept, whole: nothing blank.
        assert_eq!(s.window(), Some(window));
        assert_eq!(
            s.timeline.track.value().map(Arc::as_ptr),
            shown,
            "the kept track"
        );
        assert!(s.faults().value().is_some() && s.activities().value().is_some());
        assert!(s.history().value().is_some());
        assert!(
            s.timeline.plot_kinds.iter().all(|k| s
                .timeline
                .plots
                .get(k)
                .is_some_and(|p| p.value().is_some()))
        );
        assert!(
            matches!(s.figures.report.value(), Some(r) if r.window == Some(window)),
            "the kept figures: {:?}",
            s.figures.report
        );
        assert!(
            matches!(s.faults(), Loadable::Pending { .. }),
            "marked as refreshing"
        );
    }

    #[test]
    fn back_to_a_page_whose_figures_settings_changed_meanwhile_they_are_computed_again() {
        use crate::app::{FiguresAction, MachineAction, Preset};
        use fleetview_core::worker::Command;
        let mut s = state_at(NOON, Some(NOON), Preset::Yesterday);
        s.on_action(MachineAction::Select(1003).into());
        load_page(&mut s, 1003);
        s.on_action(MachineAction::Select(1004).into());
        s.on_action(FiguresAction::SetExpectedHours(3.5).into());
        let back = s.on_action(MachineAction::Select(1003).into());
        assert!(
            back.iter().any(|c| matches!(
                c,
                Command::ComputeReport { request, .. } if request.equipment == 1003
            )),
            "the kept figures are of the old settings: {back:?}"
        );
        assert!(!back.iter().any(|c| matches!(c, Command::FetchTrack { .. })));
    }
}
