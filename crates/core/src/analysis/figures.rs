//! A machine's figures over a window and over each of its days: hours
//! (engine, working, idle), fuel (with the working/idle split where
//! `dailyIdleFuel` allows it), CO2, distance, activities, stops (D16) and
//! utilisation against expected hours. A window's figure is the sum of its
//! days' (ratios are taken from the sums), so the two always agree. A
//! figure whose inputs are missing is `None`, never 0.
//!
//! Days are the service's days (UTC), as its daily figures are.

use serde::{Deserialize, Serialize};

pub use super::day::DayInput;
use super::events::detect::detect;
use super::events::types::{CounterSeries, Event, EventInputs, RowTimes, WorkingHours};
use super::stops::{Stop, StopSource, engine_stops, position_stops};
use crate::series::TrackSample;
use fleetview_api::geo::LatLon;
use fleetview_api::model::{
    ActivityRow, DailyUsageRow, EngineConditionRow, FuelRemainingRow, HistoryFaultRow,
};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_api::units::{Quantity, UnitSystem};

/// Hours a machine is expected to run on a working day, by default.
pub const DEFAULT_EXPECTED_HOURS_PER_DAY: f64 = 8.0;

/// What utilisation is measured against: hours per working day (Monday to
/// Friday); weekends expect none.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    pub hours_per_working_day: f64,
}

impl Default for Expected {
    fn default() -> Self {
        Self {
            hours_per_working_day: DEFAULT_EXPECTED_HOURS_PER_DAY,
        }
    }
}

impl Expected {
    /// The hours expected on a UTC day (days since 1970-01-01, a Thursday).
    pub(crate) fn hours_on(&self, day: i64) -> f64 {
        let weekday = (day + 3).rem_euclid(7); // 0 = Monday
        if weekday < 5 {
            self.hours_per_working_day.max(0.0)
        } else {
            0.0
        }
    }
}

/// Fuel burned working and idling, over the days that give both the total
/// (measured, not estimated) and the idle part, with their hours.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct FuelSplit {
    pub(crate) working_fuel_l: f64,
    pub(crate) idle_fuel_l: f64,
    pub(crate) working_hours_h: f64,
    pub(crate) idle_hours_h: f64,
    pub(crate) days: usize,
}

/// Figures over some days (a window, or one day).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    /// Days counted (every day of the window, with data or not).
    pub(crate) days: usize,
    pub engine_hours_h: Option<f64>,
    pub working_hours_h: Option<f64>,
    /// Whether some day's working hours were derived (engine − idle).
    pub(crate) working_derived: bool,
    pub idle_hours_h: Option<f64>,
    pub fuel_used_l: Option<f64>,
    /// The part of `fuel_used_l` the service marks estimated.
    pub fuel_estimated_l: f64,
    pub(crate) idle_fuel_l: Option<f64>,
    pub(crate) split: Option<FuelSplit>,
    pub(crate) co2_kg: Option<f64>,
    pub(crate) co2_estimated_kg: f64,
    pub distance_km: Option<f64>,
    pub activities: Option<usize>,
    pub(crate) stops: Option<usize>,
    pub expected_hours_h: f64,
}

fn add(sum: &mut Option<f64>, v: Option<f64>) {
    if let Some(v) = v {
        *sum.get_or_insert(0.0) += v;
    }
}

fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => Some(a / b),
        _ => None,
    }
}

impl Figures {
    /// The sums of `days`, with `expected` hours per working day.
    pub fn over(days: &[DayInput], expected: Expected) -> Self {
        let mut f = Figures {
            days: days.len(),
            ..Figures::default()
        };
        let mut split = FuelSplit::default();
        for d in days {
            add(&mut f.engine_hours_h, d.engine_hours_h);
            let working = d.working_or_derived();
            f.working_derived |= d.working_hours_h.is_none() && working.is_some();
            add(&mut f.working_hours_h, working);
            add(&mut f.idle_hours_h, d.idle_hours_h);
            add(&mut f.fuel_used_l, d.fuel_used_l);
            if d.fuel_estimated {
                f.fuel_estimated_l += d.fuel_used_l.unwrap_or(0.0);
            }
            add(&mut f.idle_fuel_l, d.idle_fuel_l);
            if let (Some(fuel), Some(idle_fuel), Some(wh), Some(ih), false) = (
                d.fuel_used_l,
                d.idle_fuel_l,
                working,
                d.idle_hours_h,
                d.fuel_estimated,
            ) {
                split.working_fuel_l += (fuel - idle_fuel).max(0.0);
                split.idle_fuel_l += idle_fuel;
                split.working_hours_h += wh;
                split.idle_hours_h += ih;
                split.days += 1;
            }
            add(&mut f.co2_kg, d.co2_kg);
            if d.co2_estimated {
                f.co2_estimated_kg += d.co2_kg.unwrap_or(0.0);
            }
            add(&mut f.distance_km, d.distance_km);
            f.expected_hours_h += expected.hours_on(d.day);
        }
        f.split = (split.days > 0).then_some(split);
        f
    }

    /// Adds `other`'s sums (hours, fuel, CO2, distance) into these: a
    /// fleet's day from its machines' (the ratios follow from the sums).
    pub fn add_sums(&mut self, other: &Figures) {
        add(&mut self.engine_hours_h, other.engine_hours_h);
        add(&mut self.working_hours_h, other.working_hours_h);
        add(&mut self.idle_hours_h, other.idle_hours_h);
        add(&mut self.fuel_used_l, other.fuel_used_l);
        self.fuel_estimated_l += other.fuel_estimated_l;
        add(&mut self.co2_kg, other.co2_kg);
        self.co2_estimated_kg += other.co2_estimated_kg;
        add(&mut self.distance_km, other.distance_km);
    }

    pub(crate) fn idle_percent(&self) -> Option<f64> {
        ratio(self.idle_hours_h, self.engine_hours_h).map(|r| 100.0 * r)
    }

    pub(crate) fn fuel_per_engine_hour_l(&self) -> Option<f64> {
        ratio(self.fuel_used_l, self.engine_hours_h)
    }

    pub(crate) fn working_fuel_per_hour_l(&self) -> Option<f64> {
        let s = self.split?;
        ratio(Some(s.working_fuel_l), Some(s.working_hours_h))
    }

    pub(crate) fn idle_fuel_per_hour_l(&self) -> Option<f64> {
        let s = self.split?;
        ratio(Some(s.idle_fuel_l), Some(s.idle_hours_h))
    }

    pub(crate) fn utilisation_percent(&self) -> Option<f64> {
        ratio(self.engine_hours_h, Some(self.expected_hours_h)).map(|r| 100.0 * r)
    }

    /// The share of the fuel used that is estimated, in %.
    pub fn fuel_estimated_percent(&self) -> Option<f64> {
        let total = self.fuel_used_l?;
        (total > 0.0).then(|| 100.0 * self.fuel_estimated_l / total)
    }

    /// The share of the CO2 that is estimated, in %.
    pub fn co2_estimated_percent(&self) -> Option<f64> {
        let total = self.co2_kg?;
        (total > 0.0).then(|| 100.0 * self.co2_estimated_kg / total)
    }

    /// The sums of `days` as of `now`: a day not over yet expects only the
    /// hours of its part gone by, and a day to come none (utilisation over
    /// a window reaching today is not lowered by hours still ahead).
    pub(crate) fn over_until(days: &[DayInput], expected: Expected, now: i64) -> Self {
        let mut f = Self::over(days, expected);
        f.expected_hours_h = days
            .iter()
            .map(|d| {
                let gone = (now - d.day * SECS_PER_DAY).clamp(0, SECS_PER_DAY);
                expected.hours_on(d.day) * gone as f64 / SECS_PER_DAY as f64
            })
            .sum();
        f
    }

    /// A figure by name.
    pub fn value(&self, figure: Figure) -> Option<f64> {
        use Figure::*;
        match figure {
            EngineHours => self.engine_hours_h,
            WorkingHours => self.working_hours_h,
            IdleHours => self.idle_hours_h,
            IdlePercent => self.idle_percent(),
            FuelUsed => self.fuel_used_l,
            FuelPerEngineHour => self.fuel_per_engine_hour_l(),
            WorkingFuelPerHour => self.working_fuel_per_hour_l(),
            IdleFuel => self.idle_fuel_l,
            IdleFuelPerHour => self.idle_fuel_per_hour_l(),
            Co2 => self.co2_kg,
            Distance => self.distance_km,
            Activities => self.activities.map(|n| n as f64),
            Stops => self.stops.map(|n| n as f64),
            ExpectedHours => Some(self.expected_hours_h),
            Utilisation => self.utilisation_percent(),
            FuelEstimated => self.fuel_estimated_percent(),
            Co2Estimated => self.co2_estimated_percent(),
        }
    }

    /// Whether a figure rests (partly) on estimated values.
    pub fn is_estimated(&self, figure: Figure) -> bool {
        use Figure::*;
        match figure {
            FuelUsed | FuelPerEngineHour => self.fuel_estimated_l > 0.0,
            Co2 => self.co2_estimated_kg > 0.0,
            _ => false,
        }
    }
}

/// Every figure, in the order the strip and the report give them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Figure {
    EngineHours,
    WorkingHours,
    IdleHours,
    IdlePercent,
    FuelUsed,
    FuelPerEngineHour,
    WorkingFuelPerHour,
    IdleFuel,
    IdleFuelPerHour,
    Co2,
    Distance,
    Activities,
    Stops,
    ExpectedHours,
    Utilisation,
    FuelEstimated,
    Co2Estimated,
}

impl Figure {
    pub const ALL: [Figure; 17] = [
        Figure::EngineHours,
        Figure::WorkingHours,
        Figure::IdleHours,
        Figure::IdlePercent,
        Figure::FuelUsed,
        Figure::FuelPerEngineHour,
        Figure::WorkingFuelPerHour,
        Figure::IdleFuel,
        Figure::IdleFuelPerHour,
        Figure::Co2,
        Figure::Distance,
        Figure::Activities,
        Figure::Stops,
        Figure::ExpectedHours,
        Figure::Utilisation,
        Figure::FuelEstimated,
        Figure::Co2Estimated,
    ];

    /// The report's key: the name with its unit last.
    pub fn key(self) -> &'static str {
        use Figure::*;
        match self {
            EngineHours => "engine_hours_h",
            WorkingHours => "working_hours_h",
            IdleHours => "idle_hours_h",
            IdlePercent => "idle_percent",
            FuelUsed => "fuel_used_l",
            FuelPerEngineHour => "fuel_per_engine_hour_l",
            WorkingFuelPerHour => "working_fuel_per_hour_l",
            IdleFuel => "idle_fuel_l",
            IdleFuelPerHour => "idle_fuel_per_hour_l",
            Co2 => "co2_kg",
            Distance => "distance_km",
            Activities => "activities_count",
            Stops => "stops_count",
            ExpectedHours => "expected_hours_h",
            Utilisation => "utilisation_percent",
            FuelEstimated => "fuel_estimated_percent",
            Co2Estimated => "co2_estimated_percent",
        }
    }

    /// What people call it.
    pub fn label(self) -> &'static str {
        use Figure::*;
        match self {
            EngineHours => "Engine hours",
            WorkingHours => "Working",
            IdleHours => "Idle",
            IdlePercent => "Idle share",
            FuelUsed => "Fuel used",
            FuelPerEngineHour => "Fuel per engine hour",
            WorkingFuelPerHour => "Fuel per working hour",
            IdleFuel => "Idle fuel",
            IdleFuelPerHour => "Fuel per idle hour",
            Co2 => "CO2",
            Distance => "Distance",
            Activities => "Activities",
            Stops => "Stops",
            ExpectedHours => "Expected hours",
            Utilisation => "Utilisation",
            FuelEstimated => "Fuel estimated",
            Co2Estimated => "CO2 estimated",
        }
    }

    /// The unit shown after the value (empty for counts).
    pub(crate) fn unit(self) -> &'static str {
        use Figure::*;
        match self {
            EngineHours | WorkingHours | IdleHours | ExpectedHours => "h",
            IdlePercent | Utilisation | FuelEstimated | Co2Estimated => "%",
            FuelUsed | IdleFuel => "L",
            FuelPerEngineHour | WorkingFuelPerHour | IdleFuelPerHour => "L/h",
            Co2 => "kg",
            Distance => "km",
            Activities | Stops => "",
        }
    }

    /// Its key in a unit system: the metric key's unit suffix replaced
    /// (`fuel_used_l` -> `fuel_used_gal`).
    pub fn key_in(self, units: UnitSystem) -> std::borrow::Cow<'static, str> {
        use Quantity as Q;
        let key = self.key();
        let (Some(q), UnitSystem::Imperial) = (self.quantity(), units) else {
            return key.into();
        };
        let (metric, imperial) = match q {
            Q::Volume | Q::VolumeRate => ("_l", "_gal"),
            Q::Mass => ("_kg", "_lb"),
            Q::Distance => ("_km", "_mi"),
            _ => return key.into(),
        };
        match key.strip_suffix(metric) {
            Some(stem) => format!("{stem}{imperial}").into(),
            None => key.into(),
        }
    }

    /// What it measures, where the unit system changes its unit.
    pub(crate) fn quantity(self) -> Option<Quantity> {
        use Figure::*;
        use Quantity as Q;
        match self {
            FuelUsed | IdleFuel => Some(Q::Volume),
            FuelPerEngineHour | WorkingFuelPerHour | IdleFuelPerHour => Some(Q::VolumeRate),
            Co2 => Some(Q::Mass),
            Distance => Some(Q::Distance),
            _ => None,
        }
    }

    /// Its unit in a unit system.
    pub fn unit_in(self, units: UnitSystem) -> &'static str {
        self.quantity()
            .map_or_else(|| self.unit(), |q| units.unit(q))
    }

    /// Its (metric) value in a unit system.
    pub fn value_in(self, units: UnitSystem, metric: f64) -> f64 {
        self.quantity()
            .map_or(metric, |q| units.from_metric(q, metric))
    }

    /// Decimals shown.
    pub fn decimals(self) -> usize {
        use Figure::*;
        match self {
            Activities | Stops => 0,
            IdlePercent | Utilisation | FuelEstimated | Co2Estimated | Distance | FuelUsed
            | IdleFuel | Co2 => 1,
            _ => 2,
        }
    }

    /// How it is computed, and from which data kinds.
    pub fn how(self) -> &'static str {
        use Figure::*;
        match self {
            EngineHours => {
                "Sum of the daily operating hours (dailyUsages: operatingHours) of the window's days."
            }
            WorkingHours => {
                "Sum of the daily working hours (dailyUsages: workingHours); a day that gives none counts its operating minus idle hours."
            }
            IdleHours => "Sum of the daily idle hours (dailyUsages: idleHours).",
            IdlePercent => "Idle hours divided by engine hours.",
            FuelUsed => {
                "Sum of the daily fuel used (dailyUsages: fuelUsed), estimated days included; est. gives their share."
            }
            FuelPerEngineHour => "Fuel used divided by engine hours.",
            WorkingFuelPerHour => {
                "Fuel used minus idle fuel (dailyIdleFuel), divided by working hours, over the days that give measured fuel and idle fuel."
            }
            IdleFuel => "Sum of the daily idle fuel (dailyIdleFuel).",
            IdleFuelPerHour => {
                "Idle fuel (dailyIdleFuel) divided by idle hours, over the days that give measured fuel and idle fuel."
            }
            Co2 => "Sum of the daily CO2 (dailyUsages: co2), estimated days included.",
            Distance => "Sum of the daily distance (dailyUsages: dailyDistance).",
            Activities => "Activities that start in the window (activities).",
            Stops => {
                "Engine-off periods of 5 min or more that begin in the window (engineCondition, D16); with no engine events, 5 min or more within 50 m (positions)."
            }
            ExpectedHours => {
                "The expected hours per working day (Monday to Friday, editable) times the working days of the window; today counts only its hours gone by."
            }
            Utilisation => {
                "Engine hours divided by expected hours: the expected hours per working day (Monday to Friday, editable) times the working days of the window, today only for its hours gone by."
            }
            FuelEstimated => {
                "The share of the fuel used that the service marks estimated (estimated: true)."
            }
            Co2Estimated => {
                "The share of the CO2 that the service marks estimated (estimated: true)."
            }
        }
    }
}

/// What a report is computed from: what the service returned for the
/// window, read.
#[derive(Debug, Clone, Copy)]
pub struct ReportInputs<'a> {
    pub window: TimeWindow,
    /// Now, for a stop still on at the end (it lasts until now, not the
    /// window's end).
    pub now: i64,
    pub daily: &'a [DailyUsageRow],
    /// `dailyIdleFuel`: the day's start and the litres; `None` if the
    /// machine gives none (or it could not be read).
    pub idle_fuel: Option<&'a [(i64, f64)]>,
    /// `None` if the activities could not be read.
    pub activities: Option<&'a [ActivityRow]>,
    /// D10 events, sorted.
    pub engine: &'a [EngineConditionRow],
    /// Positions, sorted; only used without engine events.
    pub positions: Option<&'a [TrackSample]>,
    pub expected: Expected,
    /// What the events are detected from besides the above.
    pub events: EventContext<'a>,
}

/// What the events (D16) need beyond the figures' inputs.
#[derive(Debug, Clone, Copy, Default)]
pub struct EventContext<'a> {
    /// `fuelRemaining`, sorted.
    pub(crate) fuel: &'a [FuelRemainingRow],
    /// Positions (time, point), sorted: where each event was.
    pub(crate) positions: &'a [(i64, LatLon)],
    pub(crate) faults: &'a [HistoryFaultRow],
    pub(crate) counters: &'a [CounterSeries<'a>],
    pub(crate) rows: &'a [RowTimes<'a>],
    pub(crate) working_hours: WorkingHours,
    pub(crate) time_zone: Option<&'a jiff::tz::TimeZone>,
    pub(crate) tank_l: Option<f64>,
}

/// A window's figures, its days' and its stops.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    pub window: Option<TimeWindow>,
    pub expected: Option<Expected>,
    pub totals: Figures,
    /// One per UTC day of the window, in order, with data or not.
    pub days: Vec<(i64, Figures)>,
    pub stops: Vec<Stop>,
    pub stops_from: Option<StopSource>,
    /// Events and findings (D16), in time order.
    pub events: Vec<Event>,
    /// The machine's time zone the working hours were read in (from its
    /// position); `None`: not known, UTC was used.
    pub time_zone: Option<jiff::tz::TimeZone>,
}

impl Report {
    pub fn compute(input: &ReportInputs<'_>) -> Self {
        let w = input.window;
        // The whole UTC days inside the window: a day's figures are the
        // whole day's, so a part of one is not counted.
        let (first, last) = (
            w.since.div_euclid(SECS_PER_DAY) + i64::from(w.since.rem_euclid(SECS_PER_DAY) != 0),
            (w.until + 1).div_euclid(SECS_PER_DAY) - 1,
        );
        let mut days: Vec<DayInput> = (first..=last)
            .map(|day| DayInput {
                day,
                ..DayInput::default()
            })
            .collect();
        let slot = |t: i64| -> Option<usize> {
            let day = t.div_euclid(SECS_PER_DAY);
            (day >= first && day <= last && w.contains(t)).then(|| (day - first) as usize)
        };
        for row in input.daily {
            if let Some(k) = slot(row.date.0) {
                days[k] = DayInput::from_row(row);
            }
        }
        if let Some(idle) = input.idle_fuel {
            for &(t, litres) in idle {
                if let Some(k) = slot(t) {
                    days[k].idle_fuel_l = Some(litres);
                }
            }
        }
        let (stops, stops_from) = if !input.engine.is_empty() {
            let open_end = w.until.min(input.now.max(w.since));
            (
                engine_stops(input.engine, w.since, w.until, open_end),
                Some(StopSource::EngineEvents),
            )
        } else if let Some(p) = input.positions.filter(|p| !p.is_empty()) {
            (
                position_stops(p, w.since, w.until),
                Some(StopSource::Positions),
            )
        } else {
            (Vec::new(), None)
        };
        let mut totals = Figures::over_until(&days, input.expected, input.now);
        // Counts per day, bucketed once (a long window has many of both).
        let mut activities_on = vec![0usize; days.len()];
        let mut stops_on = vec![0usize; days.len()];
        if let Some(a) = input.activities {
            let mut n = 0;
            for k in a.iter().filter_map(|a| slot(a.date_start.0)) {
                activities_on[k] += 1;
                n += 1;
            }
            totals.activities = Some(n);
        }
        let mut n = 0;
        for k in stops.iter().filter_map(|s| slot(s.start)) {
            stops_on[k] += 1;
            n += 1;
        }
        totals.stops = stops_from.map(|_| n);
        let per_day = days
            .iter()
            .enumerate()
            .map(|(k, d)| {
                let mut f = Figures::over_until(std::slice::from_ref(d), input.expected, input.now);
                f.activities = input.activities.map(|_| activities_on[k]);
                f.stops = stops_from.map(|_| stops_on[k]);
                (d.day, f)
            })
            .collect();
        let e = &input.events;
        let events = detect(&EventInputs {
            window: w,
            now: input.now,
            engine: input.engine,
            fuel: e.fuel,
            positions: e.positions,
            faults: e.faults,
            counters: e.counters,
            rows: e.rows,
            daily: &days,
            working_hours: e.working_hours,
            time_zone: e.time_zone,
            tank_l: e.tank_l,
        });
        Report {
            window: Some(w),
            expected: Some(input.expected),
            totals,
            days: per_day,
            stops,
            stops_from,
            events,
            time_zone: e.time_zone.cloned(),
        }
    }
}

#[cfg(test)]
#[path = "figures_tests.rs"]
mod tests;
