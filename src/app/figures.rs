//! The machine page's window figures (the strip above map and plots, the
//! daily charts): asked of the worker once what they come from is read
//! (history and activities; the track too when there are no engine events,
//! for stops from positions), and again when any of it, or the expected
//! hours, change. The last figures stay while new ones are computed.

use std::sync::Arc;

use super::loadable::Loadable;
use super::machine::MachineView;
use crate::analysis::{Expected, Report, WorkingHours};
use crate::series::Track;
use crate::worker::{Command, ReportData, ReportRequest};

#[derive(Debug, Clone, PartialEq)]
pub enum FiguresAction {
    /// Hours expected of a machine per working day (utilisation).
    SetExpectedHours(f64),
}

/// The most a working day can be expected to run.
pub const MAX_EXPECTED_HOURS: f64 = 24.0;

/// What the last figures were asked from: the data's addresses and the
/// settings. Another basis asks again.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Basis {
    equipment: i64,
    window: (i64, i64),
    history: usize,
    activities: usize,
    track: usize,
    expected: f64,
}

#[derive(Debug, Default)]
pub struct FiguresState {
    pub report: Loadable<Arc<Report>>,
    pub expected: Expected,
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
                working_hours: WorkingHours::default(),
                tank_l: None,
            },
            data: ReportData {
                history: history.clone(),
                activities: machine.activities.value().cloned(),
                track: track.cloned(),
            },
        })
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
}
