//! The machine being looked at: which one, over which window (a preset or
//! custom days), and its tables as loaded (faults, activities, daily
//! history). Map and plots are the timeline's.

use std::sync::Arc;

use super::errors::explain_read;
use super::failure::Failure;
use super::intake::Intake;
use super::loadable::Loadable;
use super::settings::Preset;
use fleetview_api::ApiError;
use fleetview_api::limits::MAX_WINDOW_DAYS;
use fleetview_api::model::{ActivityRow, EquipmentHistory, FaultRow};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_core::worker::{Command, MachineEvent, Target};

/// Recently viewed equipments kept.
const RECENT_MAX: usize = 8;

#[derive(Debug, Clone, PartialEq)]
pub enum MachineAction {
    Select(i64),
    SetPreset(Preset),
    /// A custom window of whole UTC days (days since 1970-01-01), inclusive.
    SetCustomDays {
        first_day: i64,
        last_day: i64,
    },
    /// Fetch the selected equipment's data again.
    Refresh,
}

#[derive(Debug)]
pub struct MachineView {
    pub selected: Option<i64>,
    pub recent: Vec<i64>,
    pub preset: Preset,
    pub custom_days: (i64, i64),
    /// The window of the data shown (as sent to the service).
    pub window: Option<TimeWindow>,
    pub faults: Loadable<Vec<FaultRow>>,
    pub activities: Loadable<Arc<Vec<ActivityRow>>>,
    pub history: Loadable<Arc<EquipmentHistory>>,
    /// When the page's reads were sent, by the earlier of this computer's
    /// clock and the service's (`None`: the service's was not known).
    pub as_of: Option<i64>,
    pub read_at: ReadAt,
}

/// Why a custom window of these days (inclusive) is refused, if it is:
/// longer than D13's cap.
pub fn custom_window_refusal(first_day: i64, last_day: i64) -> Option<String> {
    let days = (last_day - first_day).abs() + 1;
    (days > MAX_WINDOW_DAYS).then(|| {
        format!(
            "{days} days is longer than fleetview fetches at once ({MAX_WINDOW_DAYS} days, ten years)."
        )
    })
}

/// Custom days restored from settings, cut to the cap (the last days kept).
pub fn capped_custom_days((first_day, last_day): (i64, i64)) -> (i64, i64) {
    let (first, last) = (first_day.min(last_day), first_day.max(last_day));
    (first.max(last - MAX_WINDOW_DAYS + 1), last)
}

impl MachineView {
    pub fn new(today: i64) -> Self {
        Self {
            selected: None,
            recent: Vec::new(),
            preset: Preset::Last7Days,
            custom_days: (today - 6, today),
            window: None,
            faults: Loadable::Idle,
            activities: Loadable::Idle,
            history: Loadable::Idle,
            as_of: None,
            read_at: ReadAt::NEVER,
        }
    }

    /// The window the preset gives now.
    pub fn selected_window(&self, now: i64) -> TimeWindow {
        self.preset.window(now, self.custom_days)
    }

    /// Applies an action; whether the selection's data is to be fetched
    /// again, and whether it is another machine (nothing of the last may
    /// show).
    pub fn on_action(&mut self, action: MachineAction, now: i64) -> (bool, bool) {
        match action {
            MachineAction::Select(id) => {
                let other = self.selected != Some(id);
                if other {
                    self.clear_data();
                }
                self.selected = Some(id);
                // A machine seen again keeps its place: its chip is under
                // the pointer that picked it, and moving it put another
                // machine's there. A new one comes first.
                if !self.recent.contains(&id) {
                    self.recent.insert(0, id);
                    self.recent.truncate(RECENT_MAX);
                }
                (true, other)
            }
            MachineAction::SetPreset(p) => {
                let before = self.selected_window(now);
                if p == Preset::Custom && self.preset != Preset::Custom {
                    // Custom starts from the window shown: it does not jump.
                    self.custom_days = (Self::today(before.since), Self::today(before.until));
                }
                self.preset = p;
                // The same window is not read again (*Refresh* does that).
                (self.selected_window(now) != before, false)
            }
            MachineAction::SetCustomDays {
                first_day,
                last_day,
            } => {
                let days = (first_day.min(last_day), first_day.max(last_day));
                if custom_window_refusal(days.0, days.1).is_some() {
                    // The pickers say why; the window shown stays.
                    return (false, false);
                }
                self.preset = Preset::Custom;
                self.custom_days = days;
                (true, false)
            }
            MachineAction::Refresh => (true, false),
        }
    }

    /// Starts loading the tables of the selection over the preset's window
    /// (what is shown stays until the answers come); the equipment and the
    /// window, for the timeline to fetch the same.
    pub fn fetch(&mut self, now: i64) -> Option<(i64, TimeWindow, Vec<Command>)> {
        let equipment = self.selected?;
        let window = self.selected_window(now);
        self.window = Some(window);
        self.faults.start();
        self.activities.start();
        self.history.start();
        let commands = vec![
            Command::FetchFaults { equipment, window },
            Command::FetchActivities { equipment, window },
            Command::FetchHistory {
                equipment,
                window,
                keep_body: false,
                offline: false,
            },
        ];
        Some((equipment, window, commands))
    }

    /// Whether an answer about `equipment` over `window` is for what is
    /// shown now (an answer for another machine or window is dropped).
    /// Takes in a table's rows, if they are of the page shown.
    pub fn on_event(&mut self, event: MachineEvent, intake: &mut Intake) {
        match event {
            MachineEvent::Faults {
                equipment,
                window,
                rows,
                offline,
                ..
            } => {
                if intake.accept(Target::Faults, equipment, window, offline, "faults") {
                    self.faults = Loadable::Ready(rows);
                }
            }
            MachineEvent::Activities {
                equipment,
                window,
                rows,
                offline,
                ..
            } => {
                if intake.accept(Target::Activities, equipment, window, offline, "activities") {
                    self.activities = Loadable::Ready(rows);
                }
            }
            MachineEvent::History {
                equipment,
                window,
                history,
                offline,
                ..
            } => {
                if intake.accept(Target::History, equipment, window, offline, "daily history") {
                    self.history = Loadable::Ready(history);
                }
            }
            // Raw rows are for the command line; the app asks for decoded ones.
            MachineEvent::Series { .. } => {}
        }
    }

    /// A table could not be read: it says so.
    pub fn on_failed(&mut self, target: &Target, error: &ApiError) -> Failure {
        let message = explain_read(error);
        match target {
            Target::Faults => self.faults.fail(message.clone()),
            Target::Activities => self.activities.fail(message.clone()),
            Target::History => self.history.fail(message),
            _ => {}
        }
        Failure::Notice
    }

    pub fn clear_data(&mut self) {
        self.faults.clear();
        self.activities.clear();
        self.history.clear();
    }

    /// Another service: no machine of the last one.
    pub fn forget(&mut self) {
        self.selected = None;
        self.recent.clear();
        self.window = None;
        self.clear_data();
    }

    /// Today in whole UTC days.
    pub fn today(now: i64) -> i64 {
        now.div_euclid(SECS_PER_DAY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_custom_window_over_the_cap_is_refused_and_the_window_stays() {
        let mut m = MachineView::new(20_000);
        m.selected = Some(1003);
        let (fetch, _) = m.on_action(
            MachineAction::SetCustomDays {
                first_day: 20_000 - MAX_WINDOW_DAYS + 1,
                last_day: 20_000,
            },
            0,
        );
        assert!(fetch, "ten years are allowed");
        assert_eq!(m.custom_days, (20_000 - MAX_WINDOW_DAYS + 1, 20_000));
        let before = m.custom_days;
        let (fetch, _) = m.on_action(
            MachineAction::SetCustomDays {
                first_day: -25_567, // 1900
                last_day: 47_482,   // 2100
            },
            0,
        );
        assert!(!fetch, "nothing is fetched");
        assert_eq!(m.custom_days, before);
        let note = custom_window_refusal(-25_567, 47_482).expect("refused");
        assert!(note.contains("73050 days"), "{note}");
        assert!(custom_window_refusal(0, MAX_WINDOW_DAYS - 1).is_none());
        assert!(custom_window_refusal(MAX_WINDOW_DAYS, 0).is_some());
    }

    #[test]
    fn custom_starts_from_the_window_shown() {
        let now = 20_000 * SECS_PER_DAY + 3_600;
        let mut m = MachineView::new(20_000);
        m.selected = Some(1003);
        m.on_action(MachineAction::SetPreset(Preset::Last30Days), now);
        let shown = m.selected_window(now);
        let (fetch, _) = m.on_action(MachineAction::SetPreset(Preset::Custom), now);
        assert_eq!(m.selected_window(now), shown, "the window does not jump");
        assert!(!fetch, "nor is it read again");
        // Custom again keeps the days chosen.
        m.on_action(
            MachineAction::SetCustomDays {
                first_day: 19_990,
                last_day: 19_995,
            },
            now,
        );
        m.on_action(MachineAction::SetPreset(Preset::Custom), now);
        assert_eq!(m.custom_days, (19_990, 19_995));
    }

    #[test]
    fn restored_custom_days_are_cut_to_the_cap() {
        assert_eq!(capped_custom_days((10, 0)), (0, 10));
        assert_eq!(
            capped_custom_days((-25_567, 47_482)),
            (47_482 - MAX_WINDOW_DAYS + 1, 47_482)
        );
    }
}

/// A page read this recently is shown again as it was, though its window
/// is not settled: an open page is not read again on its own either, and
/// switching back and forth between machines asks the service nothing.
pub const KEPT_FRESH_SECS: i64 = 60;

/// When a page's reads were sent, by this computer's clock and by the
/// service's as the worker last heard it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadAt {
    pub app: i64,
    pub service: Option<i64>,
}

impl ReadAt {
    /// Never read.
    pub const NEVER: Self = Self {
        app: i64::MIN,
        service: None,
    };

    /// Whether the page is fresh: read under [`KEPT_FRESH_SECS`] before by
    /// both clocks (a clock set back, or a service's time unknown, is not).
    pub fn fresh(self, now: i64, service_now: Option<i64>) -> bool {
        let within = |then: i64, now: i64| (0..KEPT_FRESH_SECS).contains(&now.saturating_sub(then));
        within(self.app, now)
            && self
                .service
                .zip(service_now)
                .is_some_and(|(then, now)| within(then, now))
    }
}
