//! The event and finding types (D16) and what detection reads: one file
//! every rule imports, so no rule file and `mod.rs` import each other.

use fleetview_api::geo::LatLon;
use fleetview_api::model::{EngineConditionRow, FuelRemainingRow, HistoryFaultRow};
use fleetview_api::time::TimeWindow;

use crate::analysis::day::DayInput;

/// What an event is. The order is the order of the Events tab's filter and
/// of the report's `counts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventKind {
    Stop,
    Refuel,
    FuelDrop,
    OutOfHours,
    Gap,
    CounterReset,
    Fault,
    Check,
}

impl EventKind {
    pub const ALL: [EventKind; 8] = [
        EventKind::Stop,
        EventKind::Refuel,
        EventKind::FuelDrop,
        EventKind::OutOfHours,
        EventKind::Gap,
        EventKind::CounterReset,
        EventKind::Fault,
        EventKind::Check,
    ];

    /// The report's name of the kind (`kind` in JSON, keys of `counts`).
    pub fn key(self) -> &'static str {
        match self {
            EventKind::Stop => "stop",
            EventKind::Refuel => "refuel",
            EventKind::FuelDrop => "fuel_drop",
            EventKind::OutOfHours => "out_of_hours",
            EventKind::Gap => "gap",
            EventKind::CounterReset => "counter_reset",
            EventKind::Fault => "fault",
            EventKind::Check => "check",
        }
    }

    /// What the app calls the kind.
    pub fn label(self) -> &'static str {
        match self {
            EventKind::Stop => "Stop",
            EventKind::Refuel => "Refuel",
            EventKind::FuelDrop => "Suspected drain",
            EventKind::OutOfHours => "Out of hours",
            EventKind::Gap => "Reporting gap",
            EventKind::CounterReset => "Counter reset",
            EventKind::Fault => "Fault",
            EventKind::Check => "Check",
        }
    }

    /// The rule, in words (shown on hover, written in the report).
    pub fn rule(self) -> &'static str {
        match self {
            EventKind::Stop => {
                "The engine off (engine events) for 5 min or more; with no engine events, \
                 5 min or more without moving 50 m."
            }
            EventKind::Refuel => {
                "Fuel remaining rises by 5 points or more between consecutive samples, however \
                 far apart. Litres where the tank's capacity is known."
            }
            EventKind::FuelDrop => {
                "Fuel remaining falls by 5 points or more between consecutive samples with the \
                 engine off all the way between them: an engine that is off burns nothing."
            }
            EventKind::OutOfHours => {
                "The engine running outside the working hours (by default Monday to Friday \
                 06:00-20:00), in the machine's local time zone from its position."
            }
            EventKind::Gap => {
                "No row of a kind for more than 3 times its median interval (and at least 2 h) \
                 while the engine was running."
            }
            EventKind::CounterReset => "A cumulative counter that goes down.",
            EventKind::Fault => "A fault code as the machine reported it.",
            EventKind::Check => {
                "Two series that should agree differ by more than 10 %: the rise of cumulative \
                 operating hours against the daily operating hours, engine-on time from engine \
                 events against operating hours, distance from positions against the daily \
                 distance, fuel from the tank level against the daily fuel."
            }
        }
    }

    /// Whether this kind flags a machine in the fleet overview.
    pub fn flags_machine(self) -> bool {
        matches!(self, EventKind::FuelDrop | EventKind::CounterReset)
    }
}

/// Which cross-check a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckKind {
    /// Rise of `cumulativeOperatingHours` vs the sum of daily operating hours.
    OperatingHours,
    /// Engine-on time from D10 events vs daily operating hours.
    EngineOn,
    /// Distance along the positions vs the daily distance.
    Distance,
    /// Fuel from the tank level's falls (with a known capacity) vs the daily
    /// fuel used.
    Fuel,
}

impl CheckKind {
    pub(crate) fn key(self) -> &'static str {
        match self {
            CheckKind::OperatingHours => "operating_hours",
            CheckKind::EngineOn => "engine_on",
            CheckKind::Distance => "distance",
            CheckKind::Fuel => "fuel",
        }
    }
}

/// One figure of a cross-check: which series, its value.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckSide {
    /// The series it comes from, in words ("rise of cumulative operating
    /// hours").
    pub series: String,
    pub value: f64,
}

/// What an event says beyond its kind, time and place.
#[derive(Debug, Clone, PartialEq)]
pub enum EventDetail {
    Stop,
    /// A refuel or a suspected drain: the level before and after.
    Fuel {
        from_percent: f64,
        to_percent: f64,
        /// The change in litres, where the tank's capacity is known.
        litres: Option<f64>,
    },
    /// One running stretch outside the working hours (the event's span),
    /// and why, in the machine's zone: "Saturday 06:29 local time (CST),
    /// outside Mon–Fri 06:00–20:00".
    OutOfHours {
        reason: String,
    },
    /// No row of `series` for the event's span.
    Gap {
        series: String,
        median_interval_secs: i64,
    },
    CounterReset {
        counter: String,
        before: f64,
        after: f64,
    },
    Fault {
        identifier: String,
        description: String,
        severity: Option<i64>,
        level: String,
    },
    Check {
        check: CheckKind,
        unit: &'static str,
        first: CheckSide,
        second: CheckSide,
    },
}

/// One value of an event, for the report and the table.
#[derive(Debug, Clone, PartialEq)]
pub enum EventValue {
    Number(f64),
    Text(String),
}

/// One event: its kind, when, where, and what it says.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub kind: EventKind,
    pub start: i64,
    /// `None` for an instant (a fault, a counter reset). A refuel or a
    /// suspected drain spans its two samples; a check, the days compared.
    pub end: Option<i64>,
    /// Where the machine was (the last position at or before `start`).
    pub position: Option<LatLon>,
    pub detail: EventDetail,
}

impl Event {
    pub fn duration_secs(&self) -> Option<i64> {
        self.end.map(|e| e - self.start)
    }

    /// The event's values, keys ending in their unit where they have one
    /// (`from_percent`, `litres_l`, `duration_s`): the report's fields and
    /// the table's Value column.
    pub fn values(&self) -> Vec<(&'static str, EventValue)> {
        use EventValue::{Number, Text};
        let mut v = Vec::new();
        if let Some(d) = self.duration_secs() {
            v.push(("duration_s", Number(d as f64)));
        }
        match &self.detail {
            EventDetail::Stop => {}
            EventDetail::OutOfHours { reason } => v.push(("reason", Text(reason.clone()))),
            EventDetail::Fuel {
                from_percent,
                to_percent,
                litres,
            } => {
                v.push(("from_percent", Number(*from_percent)));
                v.push(("to_percent", Number(*to_percent)));
                v.push(("change_percent", Number(to_percent - from_percent)));
                if let Some(l) = litres {
                    v.push(("change_l", Number(*l)));
                }
            }
            EventDetail::Gap {
                series,
                median_interval_secs,
            } => {
                v.push(("series", Text(series.clone())));
                v.push(("median_interval_s", Number(*median_interval_secs as f64)));
            }
            EventDetail::CounterReset {
                counter,
                before,
                after,
            } => {
                v.push(("counter", Text(counter.clone())));
                v.push(("before", Number(*before)));
                v.push(("after", Number(*after)));
            }
            EventDetail::Fault {
                identifier,
                description,
                severity,
                level,
            } => {
                v.push(("identifier", Text(identifier.clone())));
                v.push(("description", Text(description.clone())));
                if let Some(s) = severity {
                    v.push(("severity", Number(*s as f64)));
                }
                v.push(("level", Text(level.clone())));
            }
            EventDetail::Check {
                check,
                unit,
                first,
                second,
            } => {
                v.push(("check", Text(check.key().to_owned())));
                v.push(("unit", Text((*unit).to_owned())));
                v.push(("first_series", Text(first.series.clone())));
                v.push(("first_value", Number(first.value)));
                v.push(("second_series", Text(second.series.clone())));
                v.push(("second_value", Number(second.value)));
                v.push(("difference", Number(first.value - second.value)));
                if let Some(p) = difference_percent(first.value, second.value) {
                    v.push(("difference_percent", Number(p)));
                }
            }
        }
        if let Some(p) = self.position {
            v.push(("latitude", Number(p.lat)));
            v.push(("longitude", Number(p.lon)));
        }
        v
    }
}

/// How far `second` is from `first`, in percent of the larger of the two
/// (so the figure is the same whichever side is named first).
pub fn difference_percent(first: f64, second: f64) -> Option<f64> {
    let base = first.abs().max(second.abs());
    (base > 0.0 && base.is_finite()).then(|| 100.0 * (second - first).abs() / base)
}

/// Working hours: on which weekdays, from when to when (local time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WorkingHours {
    /// Monday first.
    pub days: [bool; 7],
    /// Minutes after local midnight.
    pub start_min: u16,
    pub end_min: u16,
}

const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// `06:00` from minutes after midnight (`24:00` at the end of a day).
fn clock_text(min: u16) -> String {
    format!("{:02}:{:02}", min / 60, min % 60)
}

impl WorkingHours {
    /// The working hours in words, as the app and the reports write them:
    /// `Mon–Fri 06:00–20:00`, `Mon, Wed, Sat–Sun 07:30–24:00`, `every day
    /// 22:00–06:00`.
    pub fn describe(&self) -> String {
        format!(
            "{} {}–{}",
            self.days_text(),
            clock_text(self.start_min),
            clock_text(self.end_min)
        )
    }

    /// The working days in words: `Mon–Fri`, `Mon, Wed, Sat–Sun`, `every
    /// day`, `no day`.
    fn days_text(&self) -> String {
        if self.days.iter().all(|d| *d) {
            return "every day".to_owned();
        }
        let mut parts = Vec::new();
        let mut k = 0;
        while k < 7 {
            if !self.days[k] {
                k += 1;
                continue;
            }
            let first = k;
            while k + 1 < 7 && self.days[k + 1] {
                k += 1;
            }
            parts.push(if k == first {
                DAYS[k].to_owned()
            } else {
                format!("{}–{}", DAYS[first], DAYS[k])
            });
            k += 1;
        }
        if parts.is_empty() {
            "no day".to_owned()
        } else {
            parts.join(", ")
        }
    }
}

impl Default for WorkingHours {
    fn default() -> Self {
        Self {
            days: [true, true, true, true, true, false, false],
            start_min: 6 * 60,
            end_min: 20 * 60,
        }
    }
}

/// One cumulative counter's samples (time, value), for resets and the
/// operating-hours check.
#[derive(Debug, Clone, Copy)]
pub struct CounterSeries<'a> {
    /// What the app calls it ("cumulative operating hours").
    pub(crate) name: &'a str,
    pub(crate) samples: &'a [(i64, f64)],
}

/// One kind's row times, sorted, for gaps.
#[derive(Debug, Clone, Copy)]
pub struct RowTimes<'a> {
    pub(crate) name: &'a str,
    pub(crate) times: &'a [i64],
}

/// What the events of a window are detected from: what the service returned
/// for it, read.
#[derive(Debug, Clone, Copy)]
pub struct EventInputs<'a> {
    pub(crate) window: TimeWindow,
    /// Now: a stop or a gap still open ends here if sooner than the window.
    pub(crate) now: i64,
    /// D10 events, sorted.
    pub(crate) engine: &'a [EngineConditionRow],
    /// `fuelRemaining`, sorted.
    pub(crate) fuel: &'a [FuelRemainingRow],
    /// Positions (time, point), sorted.
    pub(crate) positions: &'a [(i64, LatLon)],
    pub(crate) faults: &'a [HistoryFaultRow],
    /// Cumulative counters (resets; the first named "cumulative operating
    /// hours" also feeds the operating-hours check).
    pub(crate) counters: &'a [CounterSeries<'a>],
    /// The kinds whose silences count as gaps.
    pub(crate) rows: &'a [RowTimes<'a>],
    /// The window's days, for the cross-checks.
    pub(crate) daily: &'a [DayInput],
    pub(crate) working_hours: WorkingHours,
    /// The machine's time zone (from its position); `None`: UTC.
    pub(crate) time_zone: Option<&'a jiff::tz::TimeZone>,
    /// The fuel tank's capacity, where known.
    pub(crate) tank_l: Option<f64>,
}

impl EventInputs<'_> {
    /// A window with nothing in it yet (now at its end, the default working
    /// hours, UTC, no tank): fill in what a caller has with `..`.
    pub(crate) fn nothing_in(window: TimeWindow) -> Self {
        Self {
            window,
            now: window.until,
            engine: &[],
            fuel: &[],
            positions: &[],
            faults: &[],
            counters: &[],
            rows: &[],
            daily: &[],
            working_hours: WorkingHours::default(),
            time_zone: None,
            tank_l: None,
        }
    }
}
