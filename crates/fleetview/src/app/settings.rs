//! What survives a restart, and the choices it is made of: the window
//! presets and the tabs. No secret is ever in here (D11).

use serde::{Deserialize, Serialize};

use super::connection::Profile;
use super::overview::OverviewSettings;
use super::timeline::{MapSettings, Replay};
use fleetview_api::DataKind;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow, civil_from_days, days_from_civil};

/// Which zone times are shown in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimesIn {
    #[default]
    Utc,
    /// This computer's zone.
    Computer,
    /// Each machine's own zone, where it is (the one its working hours are
    /// read in, D16).
    Machine,
}

impl TimesIn {
    pub const ALL: [TimesIn; 3] = [TimesIn::Utc, TimesIn::Computer, TimesIn::Machine];

    pub fn label(self) -> &'static str {
        match self {
            TimesIn::Utc => "UTC",
            TimesIn::Computer => "This computer's time",
            TimesIn::Machine => "Machine's local time",
        }
    }

    pub fn hint(self) -> &'static str {
        match self {
            TimesIn::Utc => "Show times in UTC, as the service sends them",
            TimesIn::Computer => "Show times in this computer's time zone",
            TimesIn::Machine => {
                "Show each machine's times in its own time zone, where it is \
                 (the one its working hours are read in)"
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Preset {
    Today,
    Yesterday,
    Last7Days,
    Last30Days,
    ThisMonth,
    Custom,
}

impl Preset {
    pub const ALL: [Preset; 6] = [
        Preset::Today,
        Preset::Yesterday,
        Preset::Last7Days,
        Preset::Last30Days,
        Preset::ThisMonth,
        Preset::Custom,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Preset::Today => "Today",
            Preset::Yesterday => "Yesterday",
            Preset::Last7Days => "Last 7 days",
            Preset::Last30Days => "Last 30 days",
            Preset::ThisMonth => "This month",
            Preset::Custom => "Custom",
        }
    }

    /// The window, in whole UTC days, relative to `now`.
    pub fn window(self, now: i64, custom: (i64, i64)) -> TimeWindow {
        let today = now.div_euclid(SECS_PER_DAY);
        let (first, last) = match self {
            Preset::Today => (today, today),
            Preset::Yesterday => (today - 1, today - 1),
            Preset::Last7Days => (today - 6, today),
            Preset::Last30Days => (today - 29, today),
            Preset::ThisMonth => {
                let (y, m, _) = civil_from_days(today);
                (days_from_civil(y, m, 1), today)
            }
            Preset::Custom => (custom.0.min(custom.1), custom.0.max(custom.1)),
        };
        TimeWindow {
            since: first * SECS_PER_DAY,
            until: (last + 1) * SECS_PER_DAY - 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tab {
    /// The fleet overview (the first page).
    Fleet,
    Faults,
    Activities,
    History,
    /// Events and cross-checks (D16).
    Events,
    /// The machine's service plans and services done.
    Service,
    /// The integration catalog: data sources and integrations.
    Catalog,
}

impl Tab {
    /// One of the machine page's tables.
    pub fn is_machine_tab(self) -> bool {
        matches!(
            self,
            Tab::Faults | Tab::Activities | Tab::History | Tab::Events | Tab::Service
        )
    }
}

/// What survives a restart (no secrets: the token is never in here).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub base_url: Option<String>,
    #[serde(default)]
    pub profiles: Vec<Profile>,
    /// The profile in use; `None` for the embedded sandbox.
    #[serde(default)]
    pub active_profile: Option<usize>,
    pub selected: Option<i64>,
    pub recent: Vec<i64>,
    /// The names of the selected and recent machines, to show them before
    /// the fleet is known (an offline start read "Equipment 1011").
    #[serde(default)]
    pub names: Vec<(i64, String)>,
    pub preset: Preset,
    pub custom_days: (i64, i64),
    pub tab: Tab,
    /// This computer's zone rather than UTC (kept for settings written
    /// before `times_in`, and read by them).
    pub local_time: bool,
    /// `None` in settings written before: `local_time` says.
    #[serde(default)]
    pub times_in: Option<TimesIn>,
    /// `None`: the default kinds (an emptied list stays empty).
    #[serde(default)]
    pub plot_kinds: Option<Vec<DataKind>>,
    #[serde(default)]
    pub map: MapSettings,
    #[serde(default)]
    pub replay: Replay,
    /// The overview's filters and sort.
    #[serde(default)]
    pub overview: OverviewSettings,
    /// What utilisation is measured against.
    #[serde(default)]
    pub expected: fleetview_core::analysis::Expected,
    /// Out-of-hours use is running outside these (D16).
    #[serde(default)]
    pub working_hours: fleetview_core::analysis::WorkingHours,
    /// Fuel tank capacities entered by the user, litres by equipment id.
    #[serde(default)]
    pub tanks_l: Vec<(i64, f64)>,
    #[serde(default)]
    pub theme: super::desktop::ThemeChoice,
    /// Metric or imperial, everywhere values are shown.
    #[serde(default)]
    pub units: fleetview_core::analysis::UnitSystem,
    /// The page left (`tab` is the machine page's table last shown).
    #[serde(default)]
    pub page: Option<Tab>,
    /// The panes' sizes, as shares of the room they are in.
    #[serde(default)]
    pub panes: PaneShares,
    /// A service is due soon within this share of its interval, in
    /// percent (`None`: the default, 10).
    #[serde(default)]
    pub service_soon_percent: Option<u8>,
}

/// The resizable panes' sizes as shares of the room they are in (not
/// pixels: a pane restored at its pixel size on a smaller screen left the
/// rest no room).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct PaneShares {
    /// The tables' pane, of the machine page's height.
    pub tables: Option<f32>,
    /// The map, of the width it shares with the plots.
    pub map: Option<f32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::time::parse_wire;

    #[test]
    fn presets_are_whole_utc_days() {
        let now = parse_wire("2025-06-18T15:30:00Z").unwrap_or_default();
        let w = Preset::Last7Days.window(now, (0, 0));
        assert_eq!(
            (w.since_wire(), w.until_wire()),
            ("2025-06-12T00:00:00Z".into(), "2025-06-18T23:59:59Z".into())
        );
        let w = Preset::Yesterday.window(now, (0, 0));
        assert_eq!(
            (w.since_wire(), w.until_wire()),
            ("2025-06-17T00:00:00Z".into(), "2025-06-17T23:59:59Z".into())
        );
        let w = Preset::ThisMonth.window(now, (0, 0));
        assert_eq!(w.since_wire(), "2025-06-01T00:00:00Z");
        let d = days_from_civil(2025, 1, 10);
        let w = Preset::Custom.window(now, (d, d - 2));
        assert_eq!(
            (w.since_wire(), w.until_wire()),
            ("2025-01-08T00:00:00Z".into(), "2025-01-10T23:59:59Z".into())
        );
    }
}
