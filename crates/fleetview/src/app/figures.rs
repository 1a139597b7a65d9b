//! The machine page's window figures (the strip above map and plots, the
//! daily charts): asked of the worker with the page's reads, which it
//! computes as soon as what they come from is read (history and
//! activities; the track too when there are no engine events, for stops
//! from positions); asked again when any of it, or the expected hours, the
//! working hours or the tank's capacity, change. The last figures stay
//! while new ones are computed.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::errors::Problem;
use super::failure::Failure;
use super::intake::Intake;
use super::loadable::Loadable;
use super::machine::MachineView;
use fleetview_api::ApiError;
use fleetview_api::time::TimeWindow;
use fleetview_core::analysis::{Expected, Report, WorkingHours};
use fleetview_core::series::Track;
use fleetview_core::worker::{
    Command, FiguresEvent, FiguresPart, ReportData, ReportRequest, ReportSources, Target,
};

#[derive(Debug, Clone, PartialEq)]
pub enum FiguresAction {
    /// Hours expected of a machine per working day (utilisation).
    SetExpectedHours(f64),
    /// Out-of-hours use is running outside these.
    SetWorkingHours(WorkingHours),
    /// A machine's fuel tank capacity, as the user entered it; `None`:
    /// from the machine's model.
    SetTank { equipment: i64, litres: Option<f64> },
}

/// The largest tank capacity accepted, litres (a road tanker's is less).
pub const MAX_TANK_L: f64 = 100_000.0;

/// The most a working day can be expected to run.
pub const MAX_EXPECTED_HOURS: f64 = 24.0;

/// The page and the settings figures are asked for.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Asked {
    equipment: i64,
    window: (i64, i64),
    expected: f64,
    working_hours: WorkingHours,
    tank_l: Option<f64>,
}

/// What the last figures were asked from: the page, the settings and the
/// data's addresses. Another basis asks again.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Basis {
    asked: Asked,
    sources: ReportSources,
}

#[derive(Debug, Default)]
pub struct FiguresState {
    pub report: Loadable<Arc<Report>>,
    pub expected: Expected,
    pub working_hours: WorkingHours,
    /// Tank capacities entered by the user, litres by equipment id.
    pub tanks_l: BTreeMap<i64, f64>,
    asked: Option<Basis>,
    /// Asked with the page's reads: the worker computes them when those
    /// are in, from what it sends the page.
    with_reads: Option<Asked>,
    /// What the figures shown come from that could not be read, and why:
    /// they go without it, and the strip says so.
    pub unread: Vec<(FiguresPart, Problem)>,
}

impl FiguresState {
    pub fn on_action(&mut self, action: FiguresAction) {
        match action {
            FiguresAction::SetExpectedHours(h) if h.is_finite() => {
                self.expected.hours_per_working_day = h.clamp(0.0, MAX_EXPECTED_HOURS);
            }
            FiguresAction::SetExpectedHours(_) => {}
            FiguresAction::SetWorkingHours(h) => {
                self.working_hours = WorkingHours {
                    start_min: h.start_min.min(24 * 60),
                    end_min: h.end_min.min(24 * 60),
                    ..h
                };
            }
            FiguresAction::SetTank { equipment, litres } => {
                match litres.filter(|l| l.is_finite() && *l > 0.0) {
                    Some(l) => self.tanks_l.insert(equipment, l.min(MAX_TANK_L)),
                    None => self.tanks_l.remove(&equipment),
                };
            }
        }
    }

    /// The tank capacity the user entered for a machine, if any.
    pub fn tank_l(&self, equipment: i64) -> Option<f64> {
        self.tanks_l.get(&equipment).copied()
    }

    fn asked_now(&self, equipment: i64, window: TimeWindow) -> Asked {
        Asked {
            equipment,
            window: (window.since, window.until),
            expected: self.expected.hours_per_working_day,
            working_hours: self.working_hours,
            tank_l: self.tank_l(equipment),
        }
    }

    fn request(&self, equipment: i64, window: TimeWindow, now: i64) -> ReportRequest {
        ReportRequest {
            equipment,
            window,
            expected: self.expected,
            now,
            working_hours: self.working_hours,
            tank_l: self.tank_l(equipment),
        }
    }

    /// The figures of a page whose reads are being sent: computed by the
    /// worker as soon as those are in.
    pub fn with_reads(&mut self, equipment: i64, window: TimeWindow, now: i64) -> Command {
        self.with_reads = Some(self.asked_now(equipment, window));
        self.report.start();
        Command::PageReport {
            request: self.request(equipment, window, now),
        }
    }

    /// Figures came for `equipment` over `window`, from `sources`.
    /// Takes in the window figures, if they are of the page shown.
    pub fn on_event(&mut self, event: FiguresEvent, intake: &mut Intake) {
        let FiguresEvent::Report {
            equipment,
            window,
            report,
            offline,
            sources,
            unread,
            ..
        } = event;
        if intake.accept(Target::Report, equipment, window, offline, "window figures") {
            self.report = Loadable::Ready(report);
            self.unread = unread
                .iter()
                // Out of reach, said as such ("not in the cache" would
                // hide why the part was asked of the service at all).
                .map(|u| (u.part, super::errors::explain(&u.error)))
                .collect();
            if let Some(sources) = sources {
                self.computed(equipment, window, sources);
            }
        }
    }

    pub fn on_failed(&mut self, error: &ApiError) -> Failure {
        self.report.fail(super::errors::explain_read(error));
        Failure::Notice
    }

    pub fn computed(&mut self, equipment: i64, window: TimeWindow, sources: ReportSources) {
        if let Some(asked) = self
            .with_reads
            .filter(|a| (a.equipment, a.window) == (equipment, (window.since, window.until)))
        {
            self.asked = Some(Basis { asked, sources });
            self.with_reads = None;
        }
    }

    /// The command computing the figures of what the machine page shows,
    /// if what they come from is read and they were not asked for it yet.
    pub fn wanted(
        &mut self,
        machine: &MachineView,
        track: &Loadable<Arc<Track>>,
        now: i64,
    ) -> Option<Command> {
        let (equipment, window) = machine.selected.zip(machine.window)?;
        let asked = self.asked_now(equipment, window);
        if self.with_reads == Some(asked) {
            if matches!(machine.history, Loadable::Failed { .. }) {
                // No history, no figures: the worker computes none. The
                // last ones (of the history still shown) stay.
                self.with_reads = None;
                self.report.settle();
            }
            return None;
        }
        if machine.history.is_pending() || machine.activities.is_pending() {
            return None;
        }
        let history = machine.history.value()?;
        let engine_events = !history.engine_conditions.rows.is_empty();
        if !engine_events && track.is_pending() {
            return None;
        }
        let data = ReportData::new(
            history.clone(),
            machine.activities.value().cloned(),
            track.value().cloned(),
        );
        let basis = Basis {
            asked,
            sources: data.sources(),
        };
        if self.asked == Some(basis) {
            return None;
        }
        self.asked = Some(basis);
        self.with_reads = None;
        self.report.start();
        Some(Command::ComputeReport {
            request: self.request(equipment, window, now),
            data,
        })
    }

    /// The figures shown and what they were computed from, if they are
    /// those of `window` and whole (for a page kept when switching away:
    /// one with a part unread is read again when opened again).
    pub fn kept(&self, window: TimeWindow) -> Option<(Arc<Report>, Basis)> {
        if !self.unread.is_empty() {
            return None;
        }
        match (&self.report, self.asked) {
            (Loadable::Ready(r), Some(basis)) if r.window == Some(window) => {
                Some((r.clone(), basis))
            }
            _ => None,
        }
    }

    /// Shows kept figures again: the data they came from is shown again
    /// too (same addresses), so they are not asked for again.
    pub fn restore(&mut self, report: Arc<Report>, basis: Basis) {
        self.report = Loadable::Ready(report);
        self.unread.clear();
        self.asked = Some(basis);
        self.with_reads = None;
    }

    /// Another machine or service: nothing of the last may show.
    pub fn clear(&mut self) {
        self.report.clear();
        self.unread.clear();
        self.asked = None;
        self.with_reads = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::model::EquipmentHistory;
    use fleetview_api::time::TimeWindow;

    fn history() -> Arc<EquipmentHistory> {
        Arc::new(
            serde_json::from_str(
                r#"{"id":7,"name":"EX","make":"M","model":"X","serialNumber":"S",
                "positions":{"total":0,"rows":[]},"faultCodes":{"total":0,"rows":[]},
                "fuelRemainings":{"total":0,"rows":[]},"dailyUsages":{"total":0,"rows":[]},
                "engineConditions":{"total":1,"rows":[{"running":false,"date":"2026-11-20T08:00:00Z"}]}}"#,
            )
            .expect("a history"),
        )
    }

    #[test]
    fn figures_are_asked_once_what_they_need_is_read_and_again_on_a_change() {
        let mut m = MachineView::new(20_000);
        m.selected = Some(7);
        m.window = Some(TimeWindow::new(0, 86_399).expect("window"));
        let mut f = FiguresState::default();
        let track = Loadable::Idle;
        m.history.start();
        assert!(f.wanted(&m, &track, 0).is_none(), "history still loading");
        m.history = Loadable::Ready(history());
        m.activities.start();
        assert!(
            f.wanted(&m, &track, 0).is_none(),
            "activities still loading"
        );
        m.activities.fail("offline");
        assert!(matches!(
            f.wanted(&m, &track, 0),
            Some(Command::ComputeReport { ref data, .. }) if data.activities.is_none()
        ));
        assert!(f.report.is_pending());
        assert!(f.wanted(&m, &track, 0).is_none(), "asked once");
        f.on_action(FiguresAction::SetExpectedHours(10.0));
        assert!(f.wanted(&m, &track, 0).is_some(), "new expected hours");
        f.on_action(FiguresAction::SetExpectedHours(99.0));
        assert_eq!(f.expected.hours_per_working_day, MAX_EXPECTED_HOURS);
        assert!(f.wanted(&m, &track, 0).is_some());
        m.history = Loadable::Ready(history());
        assert!(f.wanted(&m, &track, 0).is_some(), "the history read again");
    }

    #[test]
    fn figures_asked_with_the_reads_are_not_asked_again_when_they_come() {
        let mut m = MachineView::new(20_000);
        let w = TimeWindow::new(0, 86_399).expect("window");
        m.selected = Some(7);
        m.window = Some(w);
        let track = Loadable::Idle;
        let mut f = FiguresState::default();
        assert!(matches!(
            f.with_reads(7, w, 0),
            Command::PageReport { request } if request.equipment == 7 && request.window == w
        ));
        assert!(f.report.is_pending());
        m.history = Loadable::Ready(history());
        m.activities = Loadable::Ready(Arc::new(Vec::new()));
        assert!(
            f.wanted(&m, &track, 0).is_none(),
            "the worker computes them from the same reads"
        );
        let sent = ReportData {
            history: m.history.value().cloned().expect("history"),
            activities: m.activities.value().cloned(),
            track: None,
        };
        f.computed(7, w, sent.sources());
        assert!(f.wanted(&m, &track, 0).is_none(), "they are of what shows");
        // Read again: computed again from the new reads.
        m.history = Loadable::Ready(history());
        assert!(matches!(
            f.wanted(&m, &track, 0),
            Some(Command::ComputeReport { ref data, .. })
                if Arc::ptr_eq(&data.history, m.history.value().expect("history"))
        ));
        // Settings changed while the worker waits: asked here once read.
        f.with_reads(7, w, 0);
        f.on_action(FiguresAction::SetExpectedHours(6.0));
        assert!(f.wanted(&m, &track, 0).is_some());
        // No history: no figures, nothing left loading.
        f.with_reads(7, w, 0);
        m.history.fail("not found");
        assert!(f.wanted(&m, &track, 0).is_none());
        assert!(!f.report.is_pending(), "nothing is computed without it");
    }

    #[test]
    fn working_hours_and_the_tank_ask_again_and_go_with_the_request() {
        let mut m = MachineView::new(20_000);
        m.selected = Some(7);
        m.window = Some(TimeWindow::new(0, 86_399).expect("window"));
        m.history = Loadable::Ready(history());
        m.activities.fail("offline");
        let track = Loadable::Idle;
        let mut f = FiguresState::default();
        assert!(f.wanted(&m, &track, 0).is_some());
        let weekend = WorkingHours {
            days: [true; 7],
            start_min: 7 * 60,
            end_min: 18 * 60,
        };
        f.on_action(FiguresAction::SetWorkingHours(weekend));
        assert!(matches!(
            f.wanted(&m, &track, 0),
            Some(Command::ComputeReport { ref request, .. })
                if request.working_hours == weekend && request.tank_l.is_none()
        ));
        f.on_action(FiguresAction::SetTank {
            equipment: 7,
            litres: Some(400.0),
        });
        assert!(matches!(
            f.wanted(&m, &track, 0),
            Some(Command::ComputeReport { ref request, .. }) if request.tank_l == Some(400.0)
        ));
        // Another machine's tank changes nothing here.
        f.on_action(FiguresAction::SetTank {
            equipment: 8,
            litres: Some(90.0),
        });
        assert!(f.wanted(&m, &track, 0).is_none());
        // Emptied: from the model again.
        f.on_action(FiguresAction::SetTank {
            equipment: 7,
            litres: None,
        });
        assert!(matches!(
            f.wanted(&m, &track, 0),
            Some(Command::ComputeReport { ref request, .. }) if request.tank_l.is_none()
        ));
        assert_eq!(f.tank_l(8), Some(90.0));
    }
}
