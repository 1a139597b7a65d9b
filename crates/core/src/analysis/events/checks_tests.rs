//! The cross-checks: agreement within 10 % shows nothing, a disagreement
//! one finding with both figures, missing data nothing.

use super::*;
use crate::analysis::day::DayInput;
use fleetview_api::geo::LatLon;
use fleetview_api::model::{EngineConditionRow, FuelRemainingRow};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow, Timestamp};

const H: i64 = 3600;
/// 2025-03-03, a Monday.
const DAY0: i64 = 20_150;

fn window(days: i64) -> TimeWindow {
    TimeWindow {
        since: DAY0 * SECS_PER_DAY,
        until: (DAY0 + days) * SECS_PER_DAY - 1,
    }
}

fn day(k: i64) -> DayInput {
    DayInput {
        day: DAY0 + k,
        ..DayInput::default()
    }
}

fn base<'a>(days: i64, daily: &'a [DayInput]) -> EventInputs<'a> {
    EventInputs {
        daily,
        working_hours: WorkingHours {
            days: [true; 7],
            start_min: 0,
            end_min: 24 * 60,
        },
        ..EventInputs::nothing_in(window(days))
    }
}

fn findings(input: &EventInputs<'_>) -> Vec<(CheckKind, f64, f64)> {
    detect(input)
        .into_iter()
        .filter_map(|e| match e.detail {
            EventDetail::Check {
                check,
                first,
                second,
                ..
            } => Some((check, first.value, second.value)),
            _ => None,
        })
        .collect()
}

/// Two days running 08:00-16:00 (8 h each).
fn engine_two_days() -> Vec<EngineConditionRow> {
    (0..2)
        .flat_map(|k| {
            let d = (DAY0 + k) * SECS_PER_DAY;
            [
                EngineConditionRow::started_at(d + 8 * H),
                EngineConditionRow::stopped_at(d + 16 * H),
            ]
        })
        .collect()
}

/// The counter sampled every 30 min while running, rising with the hours.
fn counter_samples(engine: &[EngineConditionRow], start_h: f64) -> Vec<(i64, f64)> {
    let mut out = Vec::new();
    let mut hours = start_h;
    for pair in engine.chunks(2) {
        let (a, b) = (pair[0].date.0, pair[1].date.0);
        let mut t = a;
        while t <= b {
            out.push((t, hours + (t - a) as f64 / 3600.0));
            t += 1800;
        }
        hours += (b - a) as f64 / 3600.0;
    }
    out
}

#[test]
fn operating_hours_rise_against_daily_hours() {
    let engine = engine_two_days();
    let samples = counter_samples(&engine, 1000.0);
    let counters = [CounterSeries {
        name: "cumulative operating hours",
        samples: &samples,
    }];
    // Rise 16 h; daily 8 + 8.3: within 10 %.
    let agree = [
        DayInput {
            engine_hours_h: Some(8.0),
            ..day(0)
        },
        DayInput {
            engine_hours_h: Some(8.3),
            ..day(1)
        },
    ];
    let mut input = base(2, &agree);
    input.counters = &counters;
    input.engine = &engine;
    assert!(findings(&input).is_empty());
    // Daily 8 + 12 = 20 h: 20 % more than 16.
    let apart = [
        DayInput {
            engine_hours_h: Some(8.0),
            ..day(0)
        },
        DayInput {
            engine_hours_h: Some(12.0),
            ..day(1)
        },
    ];
    input.daily = &apart;
    let got = detect(&input);
    let checks: Vec<&Event> = got.iter().filter(|e| e.kind == EventKind::Check).collect();
    // Both checks disagree with the daily hours (the events say 16 h too).
    assert_eq!(checks.len(), 2);
    let op = checks
        .iter()
        .find(|e| {
            matches!(
                e.detail,
                EventDetail::Check {
                    check: CheckKind::OperatingHours,
                    ..
                }
            )
        })
        .expect("operating hours finding");
    assert_eq!(
        (op.start, op.end),
        (DAY0 * SECS_PER_DAY, Some((DAY0 + 2) * SECS_PER_DAY))
    );
    let EventDetail::Check {
        unit,
        first,
        second,
        ..
    } = &op.detail
    else {
        unreachable!()
    };
    assert_eq!(*unit, "h");
    assert_eq!(first.series, "rise of cumulative operating hours");
    assert!((first.value - 16.0).abs() < 1e-9);
    assert_eq!(second.series, "daily operating hours");
    assert_eq!(second.value, 20.0);
    let values = op.values();
    assert!(values.iter().any(|(k, v)| *k == "difference_percent"
        && matches!(v, EventValue::Number(p) if (p - 20.0).abs() < 1e-9)));
    // A reset in the middle does not count backwards: still 16 h of rise.
    let mut reset = samples.clone();
    let k = reset.len() - 3;
    for s in &mut reset[k..] {
        s.1 -= 1000.0;
    }
    let counters = [CounterSeries {
        name: "cumulative operating hours",
        samples: &reset,
    }];
    input.counters = &counters;
    input.daily = &agree;
    assert!(findings(&input).is_empty());
    // No counter, or no daily hours: no operating-hours finding.
    input.counters = &[];
    input.daily = &apart;
    assert!(
        findings(&input)
            .iter()
            .all(|f| f.0 != CheckKind::OperatingHours)
    );
    input.counters = &counters;
    input.daily = &[];
    assert!(findings(&input).is_empty());
}

#[test]
fn today_running_counts_until_now_not_the_windows_end() {
    // Day 1 is today: started at 06:00, still running at now (12:00), and
    // the service's daily figure so far says 6 h.
    let engine = [
        EngineConditionRow::started_at(DAY0 * SECS_PER_DAY + 8 * H),
        EngineConditionRow::stopped_at(DAY0 * SECS_PER_DAY + 16 * H),
        EngineConditionRow::started_at((DAY0 + 1) * SECS_PER_DAY + 6 * H),
    ];
    let daily = [
        DayInput {
            engine_hours_h: Some(8.0),
            ..day(0)
        },
        DayInput {
            engine_hours_h: Some(6.0),
            ..day(1)
        },
    ];
    let mut input = base(2, &daily);
    input.engine = &engine;
    input.now = (DAY0 + 1) * SECS_PER_DAY + 12 * H;
    assert!(findings(&input).is_empty(), "{:?}", findings(&input));
}

#[test]
fn engine_on_time_against_daily_hours() {
    let engine = engine_two_days();
    let daily = [
        DayInput {
            engine_hours_h: Some(8.0),
            ..day(0)
        },
        DayInput {
            engine_hours_h: Some(8.0),
            ..day(1)
        },
    ];
    let mut input = base(2, &daily);
    input.engine = &engine;
    assert!(findings(&input).is_empty());
    let low = [
        DayInput {
            engine_hours_h: Some(4.0),
            ..day(0)
        },
        DayInput {
            engine_hours_h: Some(8.0),
            ..day(1)
        },
    ];
    input.daily = &low;
    assert_eq!(findings(&input), vec![(CheckKind::EngineOn, 16.0, 12.0)]);
    // Tiny on both sides (under 0.5 h): nothing to compare.
    let short = [
        EngineConditionRow::started_at(DAY0 * SECS_PER_DAY + 8 * H),
        EngineConditionRow::stopped_at(DAY0 * SECS_PER_DAY + 8 * H + 600),
    ];
    let tiny = [DayInput {
        engine_hours_h: Some(0.05),
        ..day(0)
    }];
    let mut input = base(1, &tiny);
    input.engine = &short;
    assert!(findings(&input).is_empty());
    // No engine events: nothing.
    input.engine = &[];
    input.daily = &low;
    assert!(findings(&input).is_empty());
}

#[test]
fn distance_along_positions_against_daily_distance() {
    // 10 legs of about 1.11 km (0.01 degree of latitude) on day 0.
    let positions: Vec<(i64, LatLon)> = (0..=10)
        .map(|i| {
            (
                DAY0 * SECS_PER_DAY + 8 * H + i * 600,
                LatLon {
                    lat: 45.0 + 0.01 * i as f64,
                    lon: 4.0,
                },
            )
        })
        .collect();
    let km = 11.12;
    let daily = |d: f64| {
        [DayInput {
            distance_km: Some(d),
            ..day(0)
        }]
    };
    let near = daily(km * 1.05);
    let mut input = base(1, &near);
    input.positions = &positions;
    assert!(findings(&input).is_empty());
    let far = daily(km * 1.5);
    input.daily = &far;
    let got = findings(&input);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, CheckKind::Distance);
    assert!((got[0].1 - km).abs() < 0.05, "{}", got[0].1);
    // A finding is about the window, not a place (positions are given).
    let check = detect(&input)
        .into_iter()
        .find(|e| e.kind == EventKind::Check)
        .expect("the finding");
    assert_eq!(check.position, None);
    // No daily distance: nothing.
    let none = [day(0)];
    input.daily = &none;
    assert!(findings(&input).is_empty());
}

#[test]
fn fuel_from_the_tank_against_measured_daily_fuel() {
    let engine = engine_two_days();
    // Falls 2 points an hour while running, on a 400 L tank: 8 L an hour,
    // 64 L a day; sampled hourly 08..16.
    let fuel: Vec<FuelRemainingRow> = (0..2)
        .flat_map(|k| {
            (8..=16).map(move |h| FuelRemainingRow {
                percent: 90.0 - 16.0 * k as f64 - 2.0 * (h - 8) as f64,
                date: Timestamp::from_secs((DAY0 + k) * SECS_PER_DAY + h * H),
            })
        })
        .collect();
    let daily = |a: f64, b: f64, estimated: bool| {
        [
            DayInput {
                fuel_used_l: Some(a),
                fuel_estimated: estimated,
                ..day(0)
            },
            DayInput {
                fuel_used_l: Some(b),
                fuel_estimated: estimated,
                ..day(1)
            },
        ]
    };
    let agree = daily(64.0, 66.0, false);
    let mut input = base(2, &agree);
    input.engine = &engine;
    input.fuel = &fuel;
    input.tank_l = Some(400.0);
    assert!(findings(&input).is_empty());
    let apart = daily(64.0, 100.0, false);
    input.daily = &apart;
    let got = findings(&input);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, CheckKind::Fuel);
    assert!((got[0].1 - 128.0).abs() < 1e-6);
    assert_eq!(got[0].2, 164.0);
    // Estimated daily fuel is not a measure; an unknown tank, no litres.
    let estimated = daily(64.0, 100.0, true);
    input.daily = &estimated;
    assert!(findings(&input).is_empty());
    input.daily = &apart;
    input.tank_l = None;
    assert!(findings(&input).is_empty());
}
