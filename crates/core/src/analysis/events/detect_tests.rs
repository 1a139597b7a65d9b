//! Detection over whole schedules: series built with known events injected
//! at random times must give back exactly those events; odd input must not
//! panic.

use proptest::prelude::*;

use super::*;
use fleetview_api::geo::LatLon;
use fleetview_api::model::{EngineConditionRow, FuelRemainingRow, HistoryFaultRow};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow, Timestamp};

const MIN: i64 = 60;
const H: i64 = 3600;
const DAY0: i64 = 20_150;
/// Points of tank level burned per running hour.
const BURN_PER_H: f64 = 2.5;

/// A small deterministic generator (splitmix64): proptest draws the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo) as u64) as i64
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() % 10_000) as f64 / 10_000.0 < p
    }
    fn unit(&mut self) -> f64 {
        (self.next() % 1_000_001) as f64 / 1_000_000.0
    }
}

/// A schedule's series, and what was injected into them.
#[derive(Default)]
struct Built {
    engine: Vec<EngineConditionRow>,
    /// Sample times (every series shares them).
    times: Vec<i64>,
    fuel: Vec<FuelRemainingRow>,
    positions: Vec<(i64, LatLon)>,
    counter: Vec<(i64, f64)>,
    stops: Vec<(i64, Option<i64>)>,
    refuels: Vec<(i64, Option<i64>)>,
    drains: Vec<(i64, Option<i64>)>,
    /// The injected silences (start, end), each a gap in every series.
    gaps: Vec<(i64, i64)>,
    resets: Vec<(i64, Option<i64>)>,
}

/// `days` working days of one or two running segments (a break of under
/// 5 min is no stop, 10-90 min is); samples every 30 min (jittered) while
/// running and at every start and stop, as OEM feeds do.
fn build(days: i64, seed: u64) -> Built {
    let mut rng = Rng(seed);
    let mut b = Built::default();
    // Running segments, and which of them can hold a gap.
    let mut segments: Vec<(i64, i64)> = Vec::new();
    let mut gap_in: Vec<Option<(i64, i64)>> = Vec::new();
    for d in 0..days {
        let day = (DAY0 + d) * SECS_PER_DAY;
        let start = day + 6 * H + rng.range(0, 120) * MIN;
        let len = rng.range(5 * 60, 10 * 60) * MIN;
        let end = start + len;
        if rng.chance(0.6) {
            let at = start + rng.range(2 * 60, len / MIN - 2 * 60) * MIN;
            let off = if rng.chance(0.4) {
                rng.range(1, 5) * MIN
            } else {
                rng.range(10, 90) * MIN
            };
            segments.push((start, at));
            segments.push((at + off, end + off));
        } else {
            segments.push((start, end));
        }
    }
    for (k, &(a, e)) in segments.iter().enumerate() {
        b.engine.push(EngineConditionRow::started_at(a));
        b.engine.push(EngineConditionRow::stopped_at(e));
        // The off period after this segment (to the next start, or to the
        // window's end).
        let next = segments
            .get(k + 1)
            .map_or((DAY0 + days) * SECS_PER_DAY - 1, |s| s.0);
        if next - e >= 5 * MIN {
            b.stops.push((e, Some(next)));
        }
        let room = e - a;
        let gap = (room >= 6 * H && rng.chance(0.5)).then(|| {
            let g0 = a + H + rng.range(0, (room - 5 * H) / MIN) * MIN;
            (g0, g0 + rng.range(150, 210) * MIN)
        });
        gap_in.push(gap.filter(|g| g.1 <= e - 30 * MIN));
        let mut t = a;
        while t < e {
            if gap_in[k].is_none_or(|(g0, g1)| t <= g0 || t >= g1) {
                b.times.push(t);
            }
            t += 30 * MIN + rng.range(-4, 5) * MIN;
        }
        b.times.push(e);
    }
    b.times.dedup();
    // Walk the samples: burn while running, inject at random.
    let running = |t0: i64, t1: i64| segments.iter().any(|&(a, e)| a <= t0 && t1 <= e);
    let mut level = 80.0;
    let mut hours = 1000.0;
    let mut offset = 0.0;
    let mut lat = 45.0;
    for (i, &t) in b.times.iter().enumerate() {
        if i > 0 {
            let t0 = b.times[i - 1];
            let dt_h = (t - t0) as f64 / 3600.0;
            if running(t0, t) {
                level = f64::max(level - BURN_PER_H * dt_h, 0.0);
                hours += dt_h;
                lat += 0.002;
                let in_gap = t - t0 > H;
                if !in_gap && (level < 10.0 || (level <= 70.0 && rng.chance(0.05))) {
                    level += 20.0 + 10.0 * rng.unit();
                    b.refuels.push((t0, Some(t)));
                }
                // A reset to zero (after a rise, so it goes down).
                if !in_gap && hours - dt_h - offset > 0.01 && rng.chance(0.04) {
                    offset = hours;
                    b.resets.push((t, None));
                }
            } else if level < 30.0 || (level <= 75.0 && rng.chance(0.25)) {
                level += 15.0 + 10.0 * rng.unit();
                b.refuels.push((t0, Some(t)));
            } else if level >= 30.0 && rng.chance(0.35) {
                level -= 8.0 + 17.0 * rng.unit();
                b.drains.push((t0, Some(t)));
            }
        }
        let noise = 0.8 * rng.unit() - 0.4;
        b.fuel.push(FuelRemainingRow {
            percent: level + noise,
            date: Timestamp::from_secs(t),
        });
        b.positions.push((t, LatLon { lat, lon: 4.85 }));
        b.counter.push((t, hours - offset));
    }
    for (k, g) in gap_in.iter().enumerate() {
        if let Some((g0, g1)) = *g {
            let before = b.times.iter().rev().find(|t| **t <= g0).copied();
            let after = b.times.iter().find(|t| **t >= g1).copied();
            if let (Some(s), Some(e)) = (before, after) {
                debug_assert!(segments[k].0 <= s && e <= segments[k].1);
                b.gaps.push((s, e));
            }
        }
    }
    b
}

fn spans(events: &[Event], kind: EventKind) -> Vec<(i64, Option<i64>)> {
    events
        .iter()
        .filter(|e| e.kind == kind)
        .map(|e| (e.start, e.end))
        .collect()
}

fn run(b: &Built, days: i64) -> Vec<Event> {
    let window = TimeWindow {
        since: DAY0 * SECS_PER_DAY,
        until: (DAY0 + days) * SECS_PER_DAY - 1,
    };
    let counters = [CounterSeries {
        name: "cumulative operating hours",
        samples: &b.counter,
    }];
    let rows = [
        RowTimes {
            name: "fuelRemaining",
            times: &b.times,
        },
        RowTimes {
            name: "positions",
            times: &b.times,
        },
        RowTimes {
            name: "cumulativeOperatingHours",
            times: &b.times,
        },
    ];
    detect(&EventInputs {
        window,
        now: window.until,
        engine: &b.engine,
        fuel: &b.fuel,
        positions: &b.positions,
        faults: &[],
        counters: &counters,
        rows: &rows,
        daily: &[],
        // Every hour of every day is working time: no out-of-hours here.
        working_hours: WorkingHours {
            days: [true; 7],
            start_min: 0,
            end_min: 24 * 60,
        },
        time_zone: None,
        tank_l: Some(400.0),
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn detection_finds_the_injected_events_and_nothing_else(days in 2i64..7, seed in any::<u64>()) {
        let b = build(days, seed);
        let got = run(&b, days);
        prop_assert_eq!(spans(&got, EventKind::Stop), b.stops.clone());
        prop_assert_eq!(spans(&got, EventKind::Refuel), b.refuels.clone());
        prop_assert_eq!(spans(&got, EventKind::FuelDrop), b.drains.clone());
        prop_assert_eq!(spans(&got, EventKind::CounterReset), b.resets.clone());
        // One gap per series for each injected silence.
        let mut gaps: Vec<(i64, Option<i64>)> = b
            .gaps
            .iter()
            .flat_map(|&(s, e)| [(s, Some(e)); 3])
            .collect();
        gaps.sort();
        prop_assert_eq!(spans(&got, EventKind::Gap), gaps);
        let kinds = [
            EventKind::Stop,
            EventKind::Refuel,
            EventKind::FuelDrop,
            EventKind::Gap,
            EventKind::CounterReset,
        ];
        prop_assert!(got.iter().all(|e| kinds.contains(&e.kind)), "{:?}", got);
        // In time order, each placed where the machine was.
        prop_assert!(got.windows(2).all(|w| (w[0].start, w[0].kind) <= (w[1].start, w[1].kind)));
        prop_assert!(got.iter().all(|e| e.position.is_some()));
    }

    #[test]
    fn odd_input_does_not_panic(
        engine in prop::collection::vec((0i64..20_000, any::<bool>()), 0..20),
        fuel in prop::collection::vec((0i64..20_000, prop_oneof![Just(f64::NAN), -10.0..110.0f64]), 0..20),
        counter in prop::collection::vec((0i64..20_000, prop_oneof![Just(f64::NAN), 0.0..10.0f64]), 0..20),
        times in prop::collection::vec(0i64..20_000, 0..20),
        now in 0i64..30_000,
    ) {
        let engine: Vec<EngineConditionRow> =
            engine
                .iter()
                .map(|&(t, stop)| {
                    if stop {
                        EngineConditionRow::stopped_at(t)
                    } else {
                        EngineConditionRow::started_at(t)
                    }
                })
                .collect();
        let fuel: Vec<FuelRemainingRow> = fuel
            .iter()
            .map(|&(t, p)| FuelRemainingRow { percent: p, date: Timestamp::from_secs(t) })
            .collect();
        let positions: Vec<(i64, LatLon)> =
            times.iter().map(|&t| (t, LatLon { lat: f64::NAN, lon: 1.0 })).collect();
        let counters = [CounterSeries { name: "cumulative operating hours", samples: &counter }];
        let rows = [RowTimes { name: "x", times: &times }];
        let daily = [crate::analysis::day::DayInput {
            day: 0,
            engine_hours_h: Some(f64::NAN),
            ..Default::default()
        }];
        let got = detect(&EventInputs {
            window: TimeWindow { since: 0, until: 20_000 },
            now,
            engine: &engine,
            fuel: &fuel,
            positions: &positions,
            faults: &[],
            counters: &counters,
            rows: &rows,
            daily: &daily,
            working_hours: WorkingHours::default(),
            time_zone: None,
            tank_l: Some(f64::NAN),
        });
        prop_assert!(got.windows(2).all(|w| (w[0].start, w[0].kind) <= (w[1].start, w[1].kind)));
    }
}

fn empty(window: TimeWindow) -> EventInputs<'static> {
    EventInputs::nothing_in(window)
}

#[test]
fn nothing_in_nothing_out() {
    let w = TimeWindow {
        since: 0,
        until: 86_399,
    };
    assert!(detect(&empty(w)).is_empty());
    let one = [FuelRemainingRow {
        percent: 50.0,
        date: Timestamp::from_secs(10),
    }];
    let mut input = empty(w);
    input.fuel = &one;
    assert!(detect(&input).is_empty());
}

#[test]
fn faults_come_as_they_are_placed_where_the_machine_was() {
    let fault = |t: i64, label: Option<&str>| HistoryFaultRow {
        level_label: label.map(str::to_owned),
        severity: Some(2),
        identifier: "SPN 100 FMI 1".to_owned(),
        description: "Engine oil pressure low".to_owned(),
        date: Timestamp::from_secs(t),
    };
    let faults = [
        fault(500, Some("high")),
        fault(50, None),
        fault(90_000, None),
    ];
    let at = |lat| LatLon { lat, lon: 4.0 };
    let positions = [(100, at(1.0)), (350, at(2.0)), (580, at(3.0))];
    let mut input = empty(TimeWindow {
        since: 0,
        until: 86_399,
    });
    input.faults = &faults;
    input.positions = &positions;
    let got = detect(&input);
    // Positions never stay within 50 m for 5 min: no stop.
    assert!(got.iter().all(|e| e.kind == EventKind::Fault));
    let placed: Vec<(i64, Option<LatLon>, String)> = got
        .iter()
        .map(|e| match &e.detail {
            EventDetail::Fault { level, .. } => (e.start, e.position, level.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        placed,
        vec![
            (50, Some(at(1.0)), "unknown".to_owned()),
            (500, Some(at(2.0)), "high".to_owned()),
        ]
    );
}

#[test]
fn without_engine_events_stops_come_from_positions() {
    let at = |north_m: f64| LatLon {
        lat: 52.0 + north_m / 111_195.0,
        lon: 4.0,
    };
    let positions = [
        (0, at(0.0)),
        (60, at(500.0)),
        (400, at(520.0)),
        (460, at(2000.0)),
    ];
    let mut input = empty(TimeWindow {
        since: 0,
        until: 86_399,
    });
    input.positions = &positions;
    assert_eq!(
        spans(&detect(&input), EventKind::Stop),
        vec![(60, Some(460))]
    );
}

#[test]
fn the_schedules_inject_every_kind() {
    // The property above is only as good as what it injects: over a few
    // seeds, every kind comes up, short breaks (no stop) included.
    let (mut refuels, mut drains, mut gaps, mut resets, mut short_breaks) = (0, 0, 0, 0, 0);
    for seed in 0..40 {
        let b = build(5, seed);
        refuels += b.refuels.len();
        drains += b.drains.len();
        gaps += b.gaps.len();
        resets += b.resets.len();
        let starts = b.engine.iter().filter(|e| e.is_start()).count();
        short_breaks += starts - b.stops.len();
    }
    assert!(
        refuels > 10 && drains > 10 && gaps > 10 && resets > 5,
        "{refuels} {drains} {gaps} {resets}"
    );
    assert!(short_breaks > 3, "{short_breaks}");
}
