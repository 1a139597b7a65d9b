//! Cross-checks (D16): two series that should agree, compared over the
//! whole UTC days of the window that the daily figures cover. A finding is
//! shown only when both figures exist, at least one is above the check's
//! floor (tiny figures differ by large percentages for no reason: a few
//! minutes of running, a few hundred metres of GPS jitter) and they differ
//! by more than 10 %.
//!
//! Alignment: each day is a UTC day, as the daily figures are. A step of a
//! series (a counter's increment, a leg between two positions, a fall of
//! the tank level) counts when both of its samples fall in covered days:
//! steps across midnight between two covered days count, steps into or out
//! of the covered days do not. Counters sample only while running, so a
//! session running over midnight at the first or last day's edge is
//! partly missed; inside the days nothing is.

use fleetview_api::geo::{LatLon, haversine_m};
use fleetview_api::model::{EngineConditionRow, FuelRemainingRow};
use fleetview_api::time::SECS_PER_DAY;

use super::fuel::burned_percent;
use super::types::{
    CheckKind, CheckSide, Event, EventDetail, EventInputs, EventKind, difference_percent,
};
use crate::analysis::span::engine_on_secs;

/// The counter the operating-hours check reads.
pub(crate) const OPERATING_HOURS_COUNTER: &str = "cumulative operating hours";
/// A difference of more than this is a finding.
pub(crate) const CHECK_TOLERANCE_PERCENT: f64 = 10.0;
/// Below these on both sides there is nothing to compare.
pub(crate) const HOURS_FLOOR_H: f64 = 0.5;
pub(crate) const DISTANCE_FLOOR_KM: f64 = 1.0;
pub(crate) const FUEL_FLOOR_L: f64 = 5.0;

/// The days (sorted, distinct) whose daily figure `value` has one, among
/// the whole UTC days inside the window.
fn covered_days(
    input: &EventInputs<'_>,
    value: impl Fn(&crate::analysis::day::DayInput) -> Option<f64>,
) -> (Vec<i64>, f64) {
    let w = input.window;
    let mut days = Vec::new();
    let mut sum = 0.0;
    for d in input.daily {
        let (start, end) = (d.day * SECS_PER_DAY, (d.day + 1) * SECS_PER_DAY);
        if start < w.since || end - 1 > w.until {
            continue;
        }
        if let Some(v) = value(d).filter(|v| v.is_finite()) {
            days.push(d.day);
            sum += v;
        }
    }
    days.sort_unstable();
    days.dedup();
    (days, sum)
}

fn covers(days: &[i64], t: i64) -> bool {
    days.binary_search(&t.div_euclid(SECS_PER_DAY)).is_ok()
}

/// The finding, if the two figures disagree beyond the tolerance.
fn finding(check: CheckKind, days: &[i64], first: CheckSide, second: CheckSide) -> Option<Event> {
    let (unit, floor) = match check {
        CheckKind::OperatingHours | CheckKind::EngineOn => ("h", HOURS_FLOOR_H),
        CheckKind::Distance => ("km", DISTANCE_FLOOR_KM),
        CheckKind::Fuel => ("L", FUEL_FLOOR_L),
    };
    let (d0, d1) = (days.first()?, days.last()?);
    if first.value.abs().max(second.value.abs()) < floor
        || difference_percent(first.value, second.value)? <= CHECK_TOLERANCE_PERCENT
    {
        return None;
    }
    Some(Event {
        kind: EventKind::Check,
        start: d0 * SECS_PER_DAY,
        end: Some((d1 + 1) * SECS_PER_DAY),
        position: None,
        detail: EventDetail::Check {
            check,
            unit,
            first,
            second,
        },
    })
}

fn side(series: &str, value: f64) -> CheckSide {
    CheckSide {
        series: series.to_owned(),
        value,
    }
}

/// The rise of the operating-hours counter vs the daily operating hours.
fn operating_hours(input: &EventInputs<'_>) -> Option<Event> {
    let counter = input
        .counters
        .iter()
        .find(|c| c.name.trim().eq_ignore_ascii_case(OPERATING_HOURS_COUNTER))?;
    let (days, daily_h) = covered_days(input, |d| d.engine_hours_h);
    let mut samples: Vec<(i64, f64)> = counter
        .samples
        .iter()
        .copied()
        .filter(|(_, v)| v.is_finite())
        .collect();
    samples.sort_by_key(|(t, _)| *t);
    if !samples.iter().any(|(t, _)| covers(&days, *t)) {
        return None;
    }
    // Only rises: a reset is an event of its own, not hours run backwards.
    let rise: f64 = samples
        .windows(2)
        .filter(|w| covers(&days, w[0].0) && covers(&days, w[1].0))
        .map(|w| (w[1].1 - w[0].1).max(0.0))
        .sum();
    finding(
        CheckKind::OperatingHours,
        &days,
        side("rise of cumulative operating hours", rise),
        side("daily operating hours", daily_h),
    )
}

/// Engine-on time from D10 events vs the daily operating hours.
fn engine_on(input: &EventInputs<'_>, engine: &[EngineConditionRow]) -> Option<Event> {
    if engine.is_empty() {
        return None;
    }
    let (days, daily_h) = covered_days(input, |d| d.engine_hours_h);
    // A day is counted up to now: today's figure is the hours so far, and
    // an engine still running has not run into the evening yet.
    let on_secs: i64 = days
        .iter()
        .filter_map(|d| {
            let start = d * SECS_PER_DAY;
            let end = ((d + 1) * SECS_PER_DAY).min(input.now.max(start));
            engine_on_secs(engine, start, end)
        })
        .sum();
    finding(
        CheckKind::EngineOn,
        &days,
        side("engine-on time from engine events", on_secs as f64 / 3600.0),
        side("daily operating hours", daily_h),
    )
}

/// The distance along the positions vs the daily distance.
fn distance(input: &EventInputs<'_>, positions: &[(i64, LatLon)]) -> Option<Event> {
    let (days, daily_km) = covered_days(input, |d| d.distance_km);
    let valid: Vec<(i64, LatLon)> = positions
        .iter()
        .copied()
        .filter(|(_, p)| p.lat.is_finite() && p.lon.is_finite())
        .collect();
    if !valid.iter().any(|(t, _)| covers(&days, *t)) {
        return None;
    }
    let km: f64 = valid
        .windows(2)
        .filter(|w| covers(&days, w[0].0) && covers(&days, w[1].0))
        .map(|w| haversine_m(w[0].1, w[1].1))
        .sum::<f64>()
        / 1000.0;
    finding(
        CheckKind::Distance,
        &days,
        side("distance along the positions", km),
        side("daily distance", daily_km),
    )
}

/// Fuel burned by the tank level vs the measured daily fuel used.
fn fuel(
    input: &EventInputs<'_>,
    fuel: &[FuelRemainingRow],
    engine: &[EngineConditionRow],
) -> Option<Event> {
    let tank_l = input.tank_l.filter(|c| c.is_finite() && *c > 0.0)?;
    let (days, daily_l) = covered_days(input, |d| d.fuel_used_l.filter(|_| !d.fuel_estimated));
    let burned = burned_percent(fuel, engine, |t| covers(&days, t))?;
    finding(
        CheckKind::Fuel,
        &days,
        side("fuel from the tank level's falls", burned * tank_l / 100.0),
        side("daily fuel used (measured)", daily_l),
    )
}

/// Every check that finds a disagreement. The series in time order.
pub(crate) fn checks(
    input: &EventInputs<'_>,
    engine: &[EngineConditionRow],
    fuel_rows: &[FuelRemainingRow],
    positions: &[(i64, LatLon)],
) -> Vec<Event> {
    [
        operating_hours(input),
        engine_on(input, engine),
        distance(input, positions),
        fuel(input, fuel_rows, engine),
    ]
    .into_iter()
    .flatten()
    .collect()
}
