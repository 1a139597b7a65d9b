//! Refuels and suspected drains (D16) from `fuelRemaining`, and the fuel
//! burned by the tank level for the fuel cross-check.

use fleetview_api::model::{EngineConditionRow, FuelRemainingRow};

use super::timeline::running_after;
use super::types::{Event, EventDetail, EventKind};

/// A rise or fall of this many points between consecutive samples is a
/// refuel or (engine off) a suspected drain.
pub(crate) const FUEL_STEP_PERCENT: f64 = 5.0;
/// Float noise: 95.0 - 90.0 must count as a 5-point step.
const EPS: f64 = 1e-9;

/// Consecutive pairs of valid samples (levels that are numbers), in time
/// order.
fn pairs(fuel: &[FuelRemainingRow]) -> Vec<(&FuelRemainingRow, &FuelRemainingRow)> {
    let valid: Vec<&FuelRemainingRow> = fuel.iter().filter(|f| f.percent.is_finite()).collect();
    valid.windows(2).map(|w| (w[0], w[1])).collect()
}

/// Whether the engine was off all the way from `t0` to `t1`: off just
/// after `t0` by the last event at or before it (unknown without one: not
/// off), and no start strictly before `t1`.
fn off_between(engine: &[EngineConditionRow], t0: i64, t1: i64) -> bool {
    if running_after(engine, t0) != Some(false) {
        return false;
    }
    let k = engine.partition_point(|e| e.date.0 <= t0);
    !engine[k..]
        .iter()
        .take_while(|e| e.date.0 < t1)
        .any(|e| e.is_start())
}

/// Refuels and suspected drains whose first sample is in `since..=until`;
/// `fuel` and `engine` in time order.
pub(crate) fn fuel_events(
    fuel: &[FuelRemainingRow],
    engine: &[EngineConditionRow],
    since: i64,
    until: i64,
    tank_l: Option<f64>,
) -> Vec<Event> {
    let mut out = Vec::new();
    for (a, b) in pairs(fuel) {
        let (t0, t1) = (a.date.0, b.date.0);
        if !(since..=until).contains(&t0) {
            continue;
        }
        let change = b.percent - a.percent;
        let kind = if change >= FUEL_STEP_PERCENT - EPS {
            EventKind::Refuel
        } else if change <= -(FUEL_STEP_PERCENT - EPS) && off_between(engine, t0, t1) {
            EventKind::FuelDrop
        } else {
            continue;
        };
        out.push(Event {
            kind,
            start: t0,
            end: Some(t1),
            position: None,
            detail: EventDetail::Fuel {
                from_percent: a.percent,
                to_percent: b.percent,
                litres: tank_l.map(|c| c * change / 100.0),
            },
        });
    }
    out
}

/// Points of tank level burned between samples both accepted by `counts`
/// (by their times): the sum of the falls that are not suspected drains
/// (rises, refuels among them, add nothing). `None` with no such pair.
pub(crate) fn burned_percent(
    fuel: &[FuelRemainingRow],
    engine: &[EngineConditionRow],
    counts: impl Fn(i64) -> bool,
) -> Option<f64> {
    let mut total: Option<f64> = None;
    for (a, b) in pairs(fuel) {
        let (t0, t1) = (a.date.0, b.date.0);
        if !(counts(t0) && counts(t1)) {
            continue;
        }
        let fall = a.percent - b.percent;
        let drain = fall >= FUEL_STEP_PERCENT - EPS && off_between(engine, t0, t1);
        *total.get_or_insert(0.0) += if fall > 0.0 && !drain { fall } else { 0.0 };
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(t: i64, percent: f64) -> FuelRemainingRow {
        FuelRemainingRow {
            percent,
            date: fleetview_api::time::Timestamp::from_secs(t),
        }
    }

    #[test]
    fn a_fall_with_the_engine_off_is_a_drain_only_when_the_state_is_known() {
        // Stopped at 100; started at 500.
        let engine = [
            EngineConditionRow::started_at(0),
            EngineConditionRow::stopped_at(100),
            EngineConditionRow::started_at(500),
        ];
        let fuel = [f(100, 60.0), f(500, 50.0), f(600, 40.0)];
        let got = fuel_events(&fuel, &engine, 0, 1000, Some(400.0));
        // 100 -> 500: off all along (the start at 500 is the second
        // sample's own time); 500 -> 600: running, burn.
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].kind, EventKind::FuelDrop);
        assert_eq!((got[0].start, got[0].end), (100, Some(500)));
        assert_eq!(
            got[0].detail,
            EventDetail::Fuel {
                from_percent: 60.0,
                to_percent: 50.0,
                litres: Some(-40.0)
            }
        );
        // A start strictly between: not off all the way.
        let started = [
            EngineConditionRow::started_at(0),
            EngineConditionRow::stopped_at(100),
            EngineConditionRow::started_at(300),
        ];
        assert!(fuel_events(&fuel, &started, 0, 1000, None).is_empty());
        // No event at or before the first sample: unknown, not a drain.
        assert!(
            fuel_events(&fuel, &[EngineConditionRow::started_at(200)], 0, 1000, None).is_empty()
        );
        assert!(fuel_events(&fuel, &[], 0, 1000, None).is_empty());
    }

    #[test]
    fn a_rise_of_five_points_is_a_refuel_however_far_apart() {
        let fuel = [f(0, 90.0), f(10, 95.0), f(99_999, 94.0), f(200_000, 98.9)];
        let got = fuel_events(&fuel, &[], 0, 300_000, None);
        assert_eq!(got.len(), 1);
        assert_eq!(
            (got[0].kind, got[0].start, got[0].end),
            (EventKind::Refuel, 0, Some(10))
        );
        // NaN samples are skipped: the pair is 90 -> 96.
        let nan = [f(0, 90.0), f(5, f64::NAN), f(10, 96.0)];
        let got = fuel_events(&nan, &[], 0, 100, Some(100.0));
        assert_eq!((got.len(), got[0].end), (1, Some(10)));
        // Outside the window: not the window's.
        assert!(fuel_events(&fuel, &[], 1, 100, None).is_empty());
    }

    #[test]
    fn burned_counts_falls_that_are_not_drains() {
        let engine = [
            EngineConditionRow::started_at(0),
            EngineConditionRow::stopped_at(100),
            EngineConditionRow::started_at(500),
        ];
        // 80 -> 70 running (10), 70 -> 60 off (drain), 60 -> 90 refuel,
        // 90 -> 88 running (2).
        let fuel = [
            f(0, 80.0),
            f(100, 70.0),
            f(500, 60.0),
            f(600, 90.0),
            f(700, 88.0),
        ];
        assert_eq!(burned_percent(&fuel, &engine, |_| true), Some(12.0));
        assert_eq!(burned_percent(&fuel, &engine, |t| t >= 600), Some(2.0));
        assert_eq!(burned_percent(&fuel, &engine, |_| false), None);
    }
}
