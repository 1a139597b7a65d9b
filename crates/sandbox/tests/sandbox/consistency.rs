//! Property tests over random equipment and windows: the simulated series are
//! consistent with each other as real telemetry is (DESIGN.md), read over HTTP
//! from a running sandbox. What the simulator plants for the app to find
//! (`Simulator::planted`) is the documented exception: an hour-meter reset
//! makes `cumulativeOperatingHours` go down, a drain makes the fuel level
//! fall with the engine off. Over 700 lines: one property per consistency
//! rule of the simulated fleet, all over the same random windows.

use fleetview_testkit as common;

use common::{Sandbox, start, window_query};
use fleetview_api::model::*;
use fleetview_api::time::TimeWindow;
use fleetview_api::time::{SECS_PER_DAY, parse_wire};
use fleetview_sandbox::Clock;
use fleetview_sandbox::simulate::machine::{LatLon, address, haversine_m};
use fleetview_sandbox::simulate::{FIRST_ID, Machine, Planted, PlantedKind, Simulator};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::Value;

type Check = Result<(), TestCaseError>;

/// A random machine of the 60 and a window of whole days in the last ~2 years.
fn case() -> impl Strategy<Value = (i64, i64, i64)> {
    (0i64..60, 0i64..700, 1i64..8).prop_map(|(index, back, days)| {
        let today = common::now().div_euclid(SECS_PER_DAY);
        let first = today - back;
        (
            FIRST_ID + index,
            first * SECS_PER_DAY,
            (first + days) * SECS_PER_DAY - 1,
        )
    })
}

/// The sandbox and the runtime that serves it; checks run synchronously and
/// block on requests.
struct Ctx {
    rt: tokio::runtime::Runtime,
    sb: Sandbox,
}

fn context() -> Ctx {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let sb = rt.block_on(start());
    Ctx { rt, sb }
}

/// Cases a property once failed on, checked first by every property: a
/// week with a lay-up in it (no daily row for 5 days).
const KNOWN_CASES: [(i64, i64, i64); 1] = [(1036, 1_737_072_000, 1_737_676_799)];

fn run_property(cases: u32, check: impl Fn(&Ctx, i64, i64, i64) -> Check) {
    let ctx = context();
    for (id, since, until) in KNOWN_CASES {
        if let Err(e) = check(&ctx, id, since, until) {
            panic!("known case ({id}, {since}, {until}): {e}");
        }
    }
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    if let Err(e) = runner.run(&case(), |(id, since, until)| check(&ctx, id, since, until)) {
        panic!("{e}");
    }
}

fn rows<T: serde::de::DeserializeOwned>(
    ctx: &Ctx,
    id: i64,
    kind: &str,
    since: i64,
    until: i64,
) -> Vec<T> {
    let path = format!(
        "/v2/fleet/equipments/{id}/{kind}?{}",
        window_query(since, until)
    );
    ctx.rt
        .block_on(ctx.sb.get_ok::<Envelope<SeriesData<T>>>(&path))
        .data
        .rows
}

fn get_json(ctx: &Ctx, path: &str) -> Value {
    ctx.rt.block_on(ctx.sb.get_ok::<Value>(path))
}

/// Engine-on intervals from the engine condition events (D10: `running:
/// false` is a start, `true` a stop). An interval still open ends at `end`.
fn engine_intervals(
    events: &[EngineConditionRow],
    end: i64,
) -> Result<Vec<(i64, i64)>, TestCaseError> {
    let mut out = Vec::new();
    let mut open: Option<i64> = None;
    for e in events {
        match (e.event(), open) {
            (EngineEvent::Started, None) => open = Some(e.date.0),
            (EngineEvent::Stopped, Some(s)) => {
                out.push((s, e.date.0));
                open = None;
            }
            (ev, _) => {
                return Err(TestCaseError::fail(format!(
                    "engine events do not alternate at {}: {ev:?}",
                    e.date
                )));
            }
        }
    }
    if let Some(s) = open {
        out.push((s, end));
    }
    Ok(out)
}

fn running_between(intervals: &[(i64, i64)], a: i64, b: i64) -> bool {
    intervals.iter().any(|(s, e)| *s < b && *e > a)
}

fn within(intervals: &[(i64, i64)], t: i64) -> bool {
    intervals.iter().any(|(s, e)| *s <= t && t <= *e)
}

/// What the simulator the sandbox serves planted in a window, of a kind.
fn planted(id: i64, since: i64, until: i64, kind: PlantedKind) -> Vec<Planted> {
    Simulator::new(60, Clock::Fixed(common::now()))
        .planted(id, TimeWindow { since, until })
        .into_iter()
        .filter(|p| p.kind == kind)
        .collect()
}

fn hour(h: &Option<Hours>) -> Option<f64> {
    h.as_ref().and_then(|h| h.hour)
}

#[test]
fn engine_events_bound_movement_hours_and_fuel() {
    run_property(20, |sb, id, since, until| {
        let end = until.min(common::now());
        let events: Vec<EngineConditionRow> = rows(sb, id, "engineCondition", since, until);
        let intervals = engine_intervals(&events, end)?;
        let positions: Vec<PositionRow> = rows(sb, id, "positions", since, until);
        for pair in positions.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if !running_between(&intervals, a.date.0, b.date.0) {
                prop_assert_eq!(
                    (a.latitude, a.longitude),
                    (b.latitude, b.longitude),
                    "moved with the engine off between {} and {}",
                    a.date,
                    b.date
                );
            }
        }
        for p in &positions {
            if p.speed.is_some_and(|s| s > 0.0) {
                prop_assert!(
                    within(&intervals, p.date.0),
                    "speed with the engine off at {}",
                    p.date
                );
            }
        }
        let days: Vec<DailyUsageRow> = rows(sb, id, "dailyUsages", since, until);
        for d in &days {
            let (d0, d1) = (d.date.0, d.date.0 + SECS_PER_DAY);
            let on_secs: i64 = intervals
                .iter()
                .map(|(s, e)| (e.min(&d1) - s.max(&d0)).max(0))
                .sum();
            let op = hour(&d.operating_hours).unwrap_or(0.0);
            prop_assert!(
                (op - on_secs as f64 / 3600.0).abs() <= 0.006,
                "{}: {op} h vs {on_secs} s of engine on",
                d.date
            );
            let fuel = d
                .fuel_used
                .as_ref()
                .and_then(|f| f.fuel_used)
                .unwrap_or(0.0);
            if op == 0.0 {
                prop_assert_eq!(fuel, 0.0, "fuel burnt with the engine off on {}", d.date);
            }
        }
        Ok(())
    });
}

#[test]
fn activity_distance_is_the_path_of_its_positions() {
    run_property(20, |sb, id, since, until| {
        let acts: Vec<ActivityRow> = rows(sb, id, "activities", since, until);
        // Positions a little either side, for activities at the window's edges.
        let positions: Vec<PositionRow> = rows(sb, id, "positions", since, until + 86_400);
        let events: Vec<EngineConditionRow> =
            rows(sb, id, "engineCondition", since, until + 86_400);
        let intervals = engine_intervals(&events, until + 86_400)?;
        for a in &acts {
            prop_assert!(a.date_start <= a.date_stop);
            prop_assert!(
                within(&intervals, a.date_start.0) && within(&intervals, a.date_stop.0),
                "activity {} outside engine-on time",
                a.date_start
            );
            let inside: Vec<LatLon> = positions
                .iter()
                .filter(|p| a.date_start <= p.date && p.date <= a.date_stop)
                .map(|p| LatLon {
                    lat: p.latitude,
                    lon: p.longitude,
                })
                .collect();
            prop_assert!(
                !inside.is_empty(),
                "activity {} has positions",
                a.date_start
            );
            let path_m: f64 = inside.windows(2).map(|w| haversine_m(w[0], w[1])).sum();
            prop_assert!(
                (path_m - a.distance_meters).abs() <= 0.06 + 1e-9 * path_m,
                "activity {}: {} m reported, {path_m} m of positions",
                a.date_start,
                a.distance_meters
            );
            prop_assert_eq!(&a.first_position_address, &address(inside[0]));
            prop_assert_eq!(&a.last_position_address, &address(inside[inside.len() - 1]));
            let secs = (a.date_stop.0 - a.date_start.0).max(1) as f64;
            prop_assert!((a.average_speed_km_h - a.distance_meters / secs * 3.6).abs() <= 0.06);
        }
        Ok(())
    });
}

#[test]
fn daily_hours_add_up_and_counters_follow_daily_figures() {
    run_property(24, |sb, id, since, until| {
        let days: Vec<DailyUsageRow> = rows(sb, id, "dailyUsages", since, until);
        for d in &days {
            let (o, i, w) = (
                hour(&d.operating_hours),
                hour(&d.idle_hours),
                hour(&d.working_hours),
            );
            let (Some(o), Some(i), Some(w)) = (o, i, w) else {
                return Err(TestCaseError::fail("hours are reported every day"));
            };
            prop_assert!(
                (w + i - o).abs() <= 1e-9,
                "{}: working {w} + idle {i} != operating {o}",
                d.date
            );
        }
        let cum_fuel = |d: &DailyUsageRow| d.cumulative_fuel_used.as_ref().map(|c| c.fuel_used);
        let cum_km = |d: &DailyUsageRow| d.cumulative_distance.as_ref().map(|c| c.odometer);
        let machine = Machine::at_index((id - FIRST_ID) as u64);
        for pair in days.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            // One row a day, but for the days the machine is laid up (no
            // row of any kind, its counters unchanged).
            let (day_a, day_b) = (a.date.0 / SECS_PER_DAY, b.date.0 / SECS_PER_DAY);
            prop_assert!(day_b > day_a, "rows in order, one a day");
            for day in day_a + 1..day_b {
                prop_assert!(machine.is_laid_up(day), "no row on day {day}, not laid up");
            }
            let fuel = b
                .fuel_used
                .as_ref()
                .and_then(|f| f.fuel_used)
                .unwrap_or(0.0);
            let (fa, fb) = (cum_fuel(a).unwrap_or(0.0), cum_fuel(b).unwrap_or(0.0));
            prop_assert!(fb >= fa, "cumulative fuel decreased on {}", b.date);
            prop_assert!(
                (fb - fa - fuel).abs() <= 0.021,
                "{}: fuel delta {} vs daily {fuel}",
                b.date,
                fb - fa
            );
            let km = b
                .daily_distance
                .as_ref()
                .and_then(|d| d.odometer)
                .unwrap_or(0.0);
            let (ka, kb) = (cum_km(a).unwrap_or(0.0), cum_km(b).unwrap_or(0.0));
            prop_assert!(kb >= ka);
            prop_assert!(
                (kb - ka - km).abs() <= 0.021,
                "{}: km delta {} vs daily {km}",
                b.date,
                kb - ka
            );
        }
        // Cumulative hours are null on days without engine use; between two
        // days that have them, the difference is the sum of the days between
        // (unless the hour meter was replaced between them).
        let resets = planted(id, since, until, PlantedKind::CounterReset);
        let reset_in = |a: i64, b: i64| resets.iter().any(|r| a < r.end && r.end <= b);
        let with_hours: Vec<(usize, f64, f64)> = days
            .iter()
            .enumerate()
            .filter_map(|(n, d)| {
                Some((
                    n,
                    hour(&d.cumulative_operating_hours)?,
                    hour(&d.cumulative_idle_hours)?,
                ))
            })
            .collect();
        for pair in with_hours.windows(2) {
            let ((na, oa, ia), (nb, ob, ib)) = (pair[0], pair[1]);
            let op: f64 = days[na + 1..=nb]
                .iter()
                .filter_map(|d| hour(&d.operating_hours))
                .sum();
            let idle: f64 = days[na + 1..=nb]
                .iter()
                .filter_map(|d| hour(&d.idle_hours))
                .sum();
            let tol = 0.011 + 0.005 * (nb - na) as f64;
            prop_assert!(ib >= ia, "cumulative idle hours decreased");
            if !reset_in(days[na].date.0, days[nb].date.0 + SECS_PER_DAY) {
                prop_assert!(ob >= oa, "cumulative operating hours decreased");
                prop_assert!(
                    (ob - oa - op).abs() <= tol,
                    "operating: delta {} vs {op}",
                    ob - oa
                );
            }
            prop_assert!(
                (ib - ia - idle).abs() <= tol,
                "idle: delta {} vs {idle}",
                ib - ia
            );
        }
        for d in &days {
            if hour(&d.operating_hours) == Some(0.0) {
                prop_assert_eq!(
                    hour(&d.cumulative_operating_hours),
                    None,
                    "null when the engine did not run"
                );
            }
        }
        // Each hour counter's series never decreases and ends each day at the
        // day's member; it names its value as the real service does (D7).
        let member = |d: &DailyUsageRow, kind: &str| match kind {
            "cumulativeOperatingHours" => hour(&d.cumulative_operating_hours),
            "cumulativeIdleHours" => hour(&d.cumulative_idle_hours),
            "cumulativeActiveRegenerationHours" => hour(&d.cumulative_active_regeneration_hours),
            _ => hour(&d.cumulative_power_take_off_hours),
        };
        let mut counters = Vec::new();
        for (kind, field) in [
            ("cumulativeOperatingHours", "hour"),
            ("cumulativeIdleHours", "hours"),
            ("cumulativeActiveRegenerationHours", "hours"),
            ("cumulativePowerTakeOffHours", "hours"),
        ] {
            let series: Vec<Value> = rows(sb, id, kind, since, until);
            let mut values: Vec<(i64, f64)> = Vec::new();
            for r in &series {
                let date = r["date"].as_str().and_then(|d| parse_wire(d).ok());
                let (Some(date), Some(v)) = (date, r[field].as_f64()) else {
                    return Err(TestCaseError::fail(format!("{kind}: no {field} in {r}")));
                };
                values.push((date, v));
            }
            // Only at a planted reset, from its last reading to its first.
            prop_assert!(
                values.windows(2).all(|w| w[1].1 >= w[0].1
                    || resets.iter().any(|r| kind == "cumulativeOperatingHours"
                        && (r.start, r.end, r.before, r.after)
                            == (w[0].0, w[1].0, Some(w[0].1), Some(w[1].1)))),
                "{} decreased",
                kind
            );
            for d in &days {
                let last = values
                    .iter()
                    .rfind(|(t, _)| *t >= d.date.0 && *t < d.date.0 + SECS_PER_DAY);
                if let (Some((_, v)), Some(c)) = (last, member(d, kind)) {
                    prop_assert!(
                        (v - c).abs() < 1e-9,
                        "{} {}: last reading {} vs daily cumulative {}",
                        kind,
                        d.date,
                        v,
                        c
                    );
                }
            }
            counters.push(series);
        }
        // Usage hours grow by the operating hours that were not idle; on the
        // factory meter they are those hours (a replaced meter counts its
        // own from its first reading).
        let mut usage_rows = Vec::new();
        for (op, idle) in counters[0].iter().zip(&counters[1]) {
            prop_assert_eq!(&op["date"], &idle["date"]);
            let date = op["date"].as_str().and_then(|d| parse_wire(d).ok());
            let values = op["usageHours"].as_f64().zip(op["hour"].as_f64());
            match (date, values, idle["hours"].as_f64()) {
                (Some(t), Some((u, o)), Some(i)) => usage_rows.push((t, u, o, i)),
                _ => return Err(TestCaseError::fail(format!("usageHours of {op}"))),
            }
        }
        for w in usage_rows.windows(2) {
            let ((ta, ua, oa, ia), (tb, ub, ob, ib)) = (w[0], w[1]);
            if !reset_in(ta, tb) {
                prop_assert!(
                    ((ub - ua) - ((ob - oa) - (ib - ia))).abs() <= 0.021,
                    "usageHours from {ta} to {tb}"
                );
            }
        }
        let machine = Machine::at_index((id - FIRST_ID) as u64);
        if let Some((t, u, o, i)) = usage_rows.first()
            && machine
                .last_reset_before(t.div_euclid(SECS_PER_DAY) + 1)
                .is_none()
        {
            prop_assert!(
                (u - (o - i)).abs() <= 0.011,
                "usageHours {u} of {o} h with {i} idle"
            );
        }
        Ok(())
    });
}

#[test]
fn fuel_level_stays_in_range_falls_with_use_and_jumps_at_refuels() {
    run_property(24, |sb, id, since, until| {
        let fuel: Vec<FuelRemainingRow> = rows(sb, id, "fuelRemaining", since, until);
        let events: Vec<EngineConditionRow> = rows(sb, id, "engineCondition", since, until);
        let starts: Vec<i64> = events
            .iter()
            .filter(|e| e.event() == EngineEvent::Started)
            .map(|e| e.date.0)
            .collect();
        for f in &fuel {
            prop_assert!((0.0..=100.0).contains(&f.percent), "{} %", f.percent);
        }
        let stops: Vec<i64> = events
            .iter()
            .filter(|e| e.event() == EngineEvent::Stopped)
            .map(|e| e.date.0)
            .collect();
        let drains = planted(id, since, until, PlantedKind::Drain);
        for pair in fuel.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            // With the engine off from one sample to the next, the level
            // falls only at a planted drain, by its amount.
            let off =
                stops.contains(&a.date.0) && !starts.iter().any(|s| a.date.0 < *s && *s < b.date.0);
            if off && b.percent < a.percent {
                prop_assert!(
                    drains.iter().any(|d| (d.start, d.end, d.before, d.after)
                        == (a.date.0, b.date.0, Some(a.percent), Some(b.percent))),
                    "fuel fell with the engine off from {} to {}",
                    a.date,
                    b.date
                );
            }
            if b.percent > a.percent + 0.05 {
                prop_assert!(
                    starts.contains(&b.date.0),
                    "fuel rose at {} without a refuel at engine start",
                    b.date
                );
            }
        }
        Ok(())
    });
}

#[test]
fn estimated_fuel_is_hours_times_a_rate_and_co2_follows_fuel() {
    run_property(24, |sb, id, since, until| {
        let days: Vec<DailyUsageRow> = rows(sb, id, "dailyUsages", since, until);
        let daily_fuel: Vec<DailyFuelRow> = rows(sb, id, "dailyFuel", since, until);
        let daily_co2: Vec<DailyCo2Row> = rows(sb, id, "dailyCO2", since, until);
        let gauge: Vec<FuelRemainingRow> =
            rows(sb, id, "fuelRemaining", since - 30 * 86_400, until);
        prop_assert_eq!(daily_fuel.len(), daily_co2.len());
        let mut rate: Option<f64> = None;
        for (f, c) in daily_fuel.iter().zip(&daily_co2) {
            let litres = f.fuel_used.unwrap_or(0.0);
            prop_assert!(
                (c.weight - litres * 2.68).abs() <= 0.03,
                "{}: {} kg CO2 for {litres} L",
                f.date,
                c.weight
            );
            prop_assert_eq!(f.estimated, c.estimated);
            let day = days.iter().find(|d| d.date == f.date);
            prop_assert_eq!(
                day.and_then(|d| d.fuel_used.as_ref())
                    .and_then(|u| u.estimated),
                Some(f.estimated)
            );
            prop_assert_eq!(
                day.and_then(|d| d.co2.as_ref()).map(|c| c.weight),
                Some(c.weight)
            );
            if f.estimated {
                prop_assert!(
                    gauge.is_empty(),
                    "an estimated machine has no fuel telemetry"
                );
                let op = day.and_then(|d| hour(&d.operating_hours)).unwrap_or(0.0);
                if op > 0.5 {
                    let r = litres / op;
                    let expected = *rate.get_or_insert(r);
                    prop_assert!(
                        (r - expected).abs() <= 0.05 * expected.max(1.0) / op.max(1.0) + 0.02,
                        "estimate uses one rate: {r} vs {expected} L/h"
                    );
                }
            }
        }
        Ok(())
    });
}

#[test]
fn history_and_fleet_history_agree_with_single_kind_endpoints() {
    run_property(12, |sb, id, since, until| {
        let w = window_query(since, until);
        let history: Envelope<EquipmentHistory> = serde_json::from_value(get_json(
            sb,
            &format!("/v2/fleet/equipments/{id}/history?{w}"),
        ))
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let h = history.data;
        let positions: Vec<PositionRow> = rows(sb, id, "positions", since, until);
        let as_history: Vec<HistoryPositionRow> = positions
            .iter()
            .map(|p| HistoryPositionRow {
                latitude: p.latitude,
                longitude: p.longitude,
                date: p.date,
            })
            .collect();
        prop_assert_eq!(&h.positions.rows, &as_history);
        prop_assert_eq!(h.positions.total, as_history.len() as i64);
        let faults: Vec<FaultRow> = rows(sb, id, "faults", since, until);
        prop_assert_eq!(h.fault_codes.rows.len(), faults.len());
        for (a, b) in h.fault_codes.rows.iter().zip(&faults) {
            prop_assert_eq!(
                (&a.identifier, a.severity, &a.level_label, a.date),
                (&b.identifier, b.severity, &b.level_label, b.date)
            );
        }
        let fuel: Vec<FuelRemainingRow> = rows(sb, id, "fuelRemaining", since, until);
        prop_assert_eq!(&h.fuel_remainings.rows, &fuel);
        let engine: Vec<EngineConditionRow> = rows(sb, id, "engineCondition", since, until);
        prop_assert_eq!(&h.engine_conditions.rows, &engine);
        let days: Vec<DailyUsageRow> = rows(sb, id, "dailyUsages", since, until);
        prop_assert_eq!(&h.daily_usages.rows, &days);

        // The deprecated fleet history: the same data, less a few fields.
        let page = get_json(
            sb,
            &format!(
                "/v2/fleet/equipments/history?limit=1&offset={}&{w}",
                id - FIRST_ID
            ),
        );
        let fleet: Envelope<FleetHistory> =
            serde_json::from_value(page.clone()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let f = &fleet.data.rows[0];
        prop_assert_eq!(f.id, id);
        prop_assert_eq!(&f.positions, &h.positions);
        prop_assert_eq!(&f.engine_conditions, &h.engine_conditions);
        prop_assert_eq!(&f.fuel_remainings, &h.fuel_remainings);
        let expected: Vec<FleetDailyUsageRow> = days.into_iter().map(Into::into).collect();
        prop_assert_eq!(&f.daily_usages.rows, &expected);
        let raw = &page["data"]["rows"][0];
        prop_assert!(raw.get("pin").is_none() && raw.get("vin").is_none());
        for fault in raw["faultCodes"]["rows"].as_array().into_iter().flatten() {
            prop_assert!(fault.get("levelLabel").is_none());
        }
        for day in raw["dailyUsages"]["rows"].as_array().into_iter().flatten() {
            prop_assert!(day.get("co2").is_none() && day["fuelUsed"].get("estimated").is_none());
        }
        Ok(())
    });
}

#[test]
fn faults_are_coded_with_matching_severity_and_label() {
    run_property(24, |sb, id, since, until| {
        let faults: Vec<FaultRow> = rows(sb, id, "faults", since, until + 20 * 86_400);
        for f in &faults {
            let parts: Vec<&str> = f.identifier.split(' ').collect();
            prop_assert!(
                parts.len() == 4 && parts[0] == "SPN" && parts[2] == "FMI",
                "{}",
                f.identifier
            );
            prop_assert!(parts[1].parse::<u32>().is_ok() && parts[3].parse::<u32>().is_ok());
            let label = match f.severity {
                Some(-1) => "unknown",
                Some(0) => "information",
                Some(1) => "warning",
                Some(2) => "error",
                other => return Err(TestCaseError::fail(format!("severity {other:?}"))),
            };
            prop_assert_eq!(f.level_label.as_deref(), Some(label));
            prop_assert!(!f.description.is_empty());
        }
        Ok(())
    });
}

#[test]
fn rows_are_sorted_and_inside_the_window() {
    let kinds = [
        "positions",
        "faults",
        "engineCondition",
        "fuelRemaining",
        "temperature",
        "dailyUsages",
        "cumulativeDistance",
        "evBatteryLevel",
        "evChargingState",
        "defRemainingRatio",
    ];
    run_property(16, |sb, id, since, until| {
        // Shift the window off day boundaries.
        let (since, until) = (since + 3 * 3600 + 17, until - 5 * 3600);
        let end = until.min(common::now());
        for kind in kinds {
            let rs: Vec<Value> = rows(sb, id, kind, since, until);
            let dates: Vec<i64> = rs
                .iter()
                .filter_map(|r| parse_wire(r["date"].as_str()?).ok())
                .collect();
            prop_assert_eq!(dates.len(), rs.len(), "{}: every row has a wire date", kind);
            prop_assert!(
                dates.windows(2).all(|w| w[0] <= w[1]),
                "{} rows sorted",
                kind
            );
            prop_assert!(
                dates.iter().all(|t| *t >= since && *t <= end),
                "{} rows inside the window",
                kind
            );
        }
        let acts: Vec<ActivityRow> = rows(sb, id, "activities", since, until);
        prop_assert!(acts.windows(2).all(|w| w[0].date_start <= w[1].date_start));
        prop_assert!(
            acts.iter()
                .all(|a| a.date_start.0 >= since && a.date_start.0 <= end)
        );
        Ok(())
    });
}

#[test]
fn any_window_length_works_even_years() {
    let sb = context();
    let now = common::now();
    // Three years of daily rows for a machine, asked for in pieces of at
    // most 366 days (the longest window one request may cover, D13): one
    // row a day across the pieces, none twice.
    let mut days: Vec<DailyUsageRow> = Vec::new();
    let mut since = now - 3 * 365 * 86_400;
    while since <= now {
        let until = (since + 366 * SECS_PER_DAY - 1).min(now);
        days.extend(rows::<DailyUsageRow>(
            &sb,
            FIRST_ID + 1,
            "dailyUsages",
            since,
            until,
        ));
        since = until + 1;
    }
    assert!(days.len() > 2 * 365, "{} days", days.len());
    assert!(
        days.windows(2)
            .all(|w| w[1].date.0 - w[0].date.0 == SECS_PER_DAY),
        "one row a day across the pieces"
    );
    // A year of positions in one request: the longest window allowed.
    let positions: Vec<PositionRow> = rows(&sb, FIRST_ID + 2, "positions", now - 366 * 86_400, now);
    assert!(positions.len() > 10_000, "{} positions", positions.len());
    // A window entirely before the machine existed, or far in the future, is empty.
    let none: Vec<PositionRow> = rows(&sb, FIRST_ID, "positions", 0, 86_400);
    assert!(none.is_empty());
    let future: Vec<PositionRow> =
        rows(&sb, FIRST_ID, "positions", now + 86_400, now + 10 * 86_400);
    assert!(future.is_empty());

    // One second more is refused with 400, naming the limit: 367 days of a
    // machine, 32 days of the fleet's history.
    let long = window_query(now - 367 * 86_400, now);
    for op in [
        "positions",
        "dailyUsages",
        "faults",
        "history",
        "fuelRemaining",
    ] {
        let path = format!("/v2/fleet/equipments/{}/{op}?{long}", FIRST_ID + 2);
        let (status, body) = sb.rt.block_on(sb.sb.get(&path));
        let head: String = body.to_string().chars().take(300).collect();
        assert_eq!(status, reqwest::StatusCode::BAD_REQUEST, "{path}: {head}");
        let msg = body["message"].as_str().unwrap_or_default();
        assert!(msg.contains("366 days"), "{path}: {msg:?}");
    }
    let fleet = |days: i64| {
        format!(
            "/v2/fleet/equipments/history?limit=2&{}",
            window_query(now - days * 86_400, now)
        )
    };
    let (status, body) = sb.rt.block_on(sb.sb.get(&fleet(32)));
    let head: String = body.to_string().chars().take(300).collect();
    assert_eq!(status, reqwest::StatusCode::BAD_REQUEST, "{head}");
    let msg = body["message"].as_str().unwrap_or_default();
    assert!(msg.contains("31 days"), "{msg:?}");
    let page: Envelope<FleetHistory> = sb.rt.block_on(sb.sb.get_ok(&fleet(31)));
    assert_eq!(page.data.rows.len(), 2);
}
