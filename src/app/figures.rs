//! The machine page's window figures (the strip above map and plots, the
//! daily charts): asked of the worker once what they come from is read
//! (history and activities; the track too when there are no engine events,
//! for stops from positions), and again when any of it, or the expected
//! hours, the working hours or the tank's capacity, change. The last
//! figures stay while new ones are computed.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::loadable::Loadable;
use super::machine::MachineView;
use crate::analysis::{Expected, Report, WorkingHours};
use crate::api::time::TimeWindow;
use crate::series::Track;
use crate::worker::{Command, ReportData, ReportRequest};

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

/// What the last figures were asked from: the data's addresses and the
/// settings. Another basis asks again.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Basis {
    equipment: i64,
    window: (i64, i64),
    history: usize,
    activities: usize,
    track: usize,
    expected: f64,
    working_hours: WorkingHours,
    tank_l: Option<f64>,
}

#[derive(Debug, Default)]
pub struct FiguresState {
    pub report: Loadable<Arc<Report>>,
    pub expected: Expected,
    pub working_hours: WorkingHours,
    /// Tank capacities entered by the user, litres by equipment id.
    pub tanks_l: BTreeMap<i64, f64>,
    asked: Option<Basis>,
}

fn address<T>(v: Option<&Arc<T>>) -> usize {
    v.map_or(0, |a| Arc::as_ptr(a) as usize)
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

    /// The command computing the figures of what the machine page shows,
    /// if what they come from is read and they were not asked for it yet.
    pub fn wanted(
        &mut self,
        machine: &MachineView,
        track: &Loadable<Arc<Track>>,
        now: i64,
    ) -> Option<Command> {
        let (equipment, window) = machine.selected.zip(machine.window)?;
        if machine.history.is_pending() || machine.activities.is_pending() {
            return None;
        }
        let history = machine.history.value()?;
        let engine_events = !history.engine_conditions.rows.is_empty();
        if !engine_events && track.is_pending() {
            return None;
        }
        let track = track.value().filter(|_| !engine_events);
        let basis = Basis {
            equipment,
            window: (window.since, window.until),
            history: address(Some(history)),
            activities: address(machine.activities.value()),
            track: address(track),
            expected: self.expected.hours_per_working_day,
            working_hours: self.working_hours,
            tank_l: self.tank_l(equipment),
        };
        if self.asked == Some(basis) {
            return None;
        }
        self.asked = Some(basis);
        self.report.start();
        Some(Command::ComputeReport {
            request: ReportRequest {
                equipment,
                window,
                expected: self.expected,
                now,
                working_hours: self.working_hours,
                tank_l: self.tank_l(equipment),
            },
            data: ReportData {
                history: history.clone(),
                activities: machine.activities.value().cloned(),
                track: track.cloned(),
            },
        })
    }

    /// The figures shown and what they were computed from, if they are
    /// those of `window` (for a page kept when switching away).
    pub fn kept(&self, window: TimeWindow) -> Option<(Arc<Report>, Basis)> {
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
        self.asked = Some(basis);
    }

    /// Another machine or service: nothing of the last may show.
    pub fn clear(&mut self) {
        self.report.clear();
        self.asked = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::model::EquipmentHistory;
    use crate::api::time::TimeWindow;

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
