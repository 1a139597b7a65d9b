//! The list of what the simulator planted for the app to find (D16), for
//! tests: each item as the served rows show it.

use super::rows::{Flow, Val};
use crate::simulate::local::out_of_hours;
use crate::simulate::machine::Machine;
use crate::simulate::simulator::Simulator;
use fleetview_api::DataKind;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};

/// What was planted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PlantedKind {
    /// `fuelRemaining` falls with the engine off: `start` is the sample at
    /// the stop before, `end` the one at the next start; `before` and
    /// `after` their percents.
    Drain,
    /// The engine runs outside Monday-Friday 06:00-20:00 local time:
    /// `start`..`end`, one maximal running stretch (no values).
    OutOfHours,
    /// No row of any sensor kind or position: `start` and `end` are the
    /// last row before and the first after, of every such kind (no values).
    Gap,
    /// `cumulativeOperatingHours` goes down: `start` is the last reading on
    /// the old meter (the stop before), `end` the first on the new one (a
    /// start); `before` and `after` their `hour` values.
    CounterReset,
}

/// One planted item of a machine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Planted {
    pub kind: PlantedKind,
    pub start: i64,
    pub end: i64,
    pub before: Option<f64>,
    pub after: Option<f64>,
}

impl Simulator {
    /// What was planted for `equipment` and shows in the window `w` by now,
    /// sorted by `start` then kind (none for an unknown equipment):
    ///
    /// - drains, gaps and resets whose two bounding rows both lie in the
    ///   window (at or before now), as the window's rows show them;
    /// - out-of-hours stretches cut to the window and now (a session
    ///   still running at now ends there).
    pub fn planted(&self, equipment: i64, w: TimeWindow) -> Vec<Planted> {
        let Some(m) = self.machine(equipment) else {
            return Vec::new();
        };
        let now = self.now();
        let end = w.until.min(now);
        let first = w.since.div_euclid(SECS_PER_DAY).max(m.commissioned_day);
        let last = end.div_euclid(SECS_PER_DAY);
        let seen = |a: i64, b: i64| w.since <= a && b <= end;
        let mut out = Vec::new();
        for day in first..=last {
            if !m.is_working_day(day) {
                continue;
            }
            let plan = m.plan(day, now);
            for s in &plan.sessions {
                for (a, b) in out_of_hours(m.site, s.start, s.stop) {
                    let (a, b) = (a.max(w.since), b.min(end));
                    if a < b {
                        out.push(item(PlantedKind::OutOfHours, a, b, None, None));
                    }
                }
            }
            if let Some((a, b)) = plan.silent
                && seen(a, b)
            {
                out.push(item(PlantedKind::Gap, a, b, None, None));
            }
            let stop_before = || {
                let prev = m.previous_working_day(day)?;
                Some(m.full_plan(prev).sessions.last()?.stop)
            };
            if let Some(d) = self.drain_on(&m, day)
                && let Some(a) = stop_before()
                && seen(a, d.at)
            {
                let level = |t| self.reading(&m, DataKind::FuelRemaining, "percent", t);
                out.push(item(PlantedKind::Drain, a, d.at, level(a), level(d.at)));
            }
            if m.is_reset_day(day)
                && let (Some(a), Some(b)) = (stop_before(), plan.sessions.first())
                && seen(a, b.start)
            {
                let hour = |t| self.reading(&m, DataKind::CumulativeOperatingHours, "hour", t);
                out.push(item(
                    PlantedKind::CounterReset,
                    a,
                    b.start,
                    hour(a),
                    hour(b.start),
                ));
            }
        }
        out.sort_by_key(|p| (p.start, p.kind));
        out
    }

    /// The value `field` of the row of `kind` served at exactly `t`.
    fn reading(&self, m: &Machine, kind: DataKind, field: &str, t: i64) -> Option<f64> {
        let mut found = None;
        let _ = self.try_for_each_value_row(m, kind, TimeWindow { since: t, until: t }, |r| {
            if let Some(Val::F(v)) = r.get(field) {
                found = Some(v);
            }
            Flow::Continue(())
        });
        found
    }
}

fn item(
    kind: PlantedKind,
    start: i64,
    end: i64,
    before: Option<f64>,
    after: Option<f64>,
) -> Planted {
    Planted {
        kind,
        start,
        end,
        before,
        after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Clock;
    use crate::simulate::calendar::weekday;
    use crate::simulate::local::out_of_hours;
    use crate::simulate::planted::{DRAIN_SLOT_DAYS, Shift, drain_slot};
    use crate::simulate::{FIRST_ID, is_refuel_day};
    use fleetview_api::time::days_from_civil;

    fn fleet() -> Vec<Machine> {
        (0..60).map(Machine::at_index).collect()
    }

    fn day(y: i64, m: u32, d: u32) -> i64 {
        days_from_civil(y, m, d)
    }

    fn sim() -> Simulator {
        Simulator::new(
            60,
            Clock::Fixed(day(2025, 6, 18) * SECS_PER_DAY + 15 * 3600),
        )
    }

    fn days_window(first: i64, days: i64) -> TimeWindow {
        TimeWindow {
            since: first * SECS_PER_DAY,
            until: (first + days) * SECS_PER_DAY - 1,
        }
    }

    #[test]
    fn a_drain_falls_in_every_30_day_window_of_two_years_of_the_fleet() {
        let (first, last) = (day(2023, 6, 1), day(2025, 6, 1));
        let mut drains: Vec<(i64, i64)> = Vec::new();
        for slot in drain_slot(first)..=drain_slot(last) {
            for m in fleet() {
                if let Some(d) = m.drain_in_slot(slot) {
                    assert!(m.model.fuel_telemetry && !m.is_electric(), "{}", m.name);
                    assert!(m.is_working_day(d.day) && !is_refuel_day(&m, d.day));
                    drains.push((d.day, m.id));
                }
            }
        }
        drains.sort_unstable();
        for start in first..last - 30 {
            let n = drains
                .iter()
                .filter(|(d, _)| (start..start + 30).contains(d))
                .count();
            assert!(
                (1..=6).contains(&n),
                "{n} drains in the 30 days from {start}"
            );
        }
        // One per tank: a machine's drains are weeks apart.
        for pair in drains.windows(2) {
            let later = drains.iter().find(|d| d.1 == pair[0].1 && d.0 > pair[0].0);
            if let Some(l) = later {
                assert!(l.0 - pair[0].0 >= 2 * DRAIN_SLOT_DAYS, "{pair:?}");
            }
        }
    }

    #[test]
    fn ordinary_weekday_shifts_are_inside_local_working_hours_and_night_shifts_are_not() {
        let (first, last) = (day(2024, 10, 1), day(2025, 4, 30));
        let mut nights = 0;
        for m in fleet() {
            for d in first..last {
                if !m.is_working_day(d) || weekday(d) >= 5 {
                    continue;
                }
                let plan = m.full_plan(d);
                let outside: Vec<(i64, i64)> = plan
                    .sessions
                    .iter()
                    .flat_map(|s| out_of_hours(m.site, s.start, s.stop))
                    .collect();
                match m.shift(d) {
                    Shift::Day => assert!(outside.is_empty(), "{} day {d}: {outside:?}", m.name),
                    Shift::Night { .. } => {
                        assert!(!outside.is_empty(), "{} night {d}", m.name);
                        nights += 1;
                    }
                }
            }
        }
        // A few a month across the fleet (seven months here).
        assert!((7..=60).contains(&nights), "{nights} night shifts");
    }

    /// Every sensor kind and position the machine reports is silent inside
    /// a planted gap and reports at both its ends.
    #[test]
    fn gaps_silence_every_sensor_kind() {
        let sim = sim();
        let first = day(2025, 1, 1);
        let mut gaps = Vec::new();
        for m in fleet() {
            for d in first..first + 150 {
                if m.is_working_day(d)
                    && let Some(g) = m.full_plan(d).silent
                {
                    gaps.push((m.id, g));
                }
            }
        }
        assert!(
            (5..=40).contains(&gaps.len()),
            "{} gaps in 5 months",
            gaps.len()
        );
        for (id, (a, b)) in gaps.iter().take(6).copied() {
            let m = sim.machine(id).expect("machine");
            assert!(b - a > 2 * 3600, "{} {a}..{b}", m.name);
            let w = TimeWindow {
                since: a - 6 * 3600,
                until: b + 6 * 3600,
            };
            let plan = m.full_plan(a.div_euclid(SECS_PER_DAY));
            assert!(plan.running_at(a) && plan.running_at(b), "inside a session");
            let mut times: Vec<(DataKind, Vec<i64>)> = vec![(
                DataKind::Positions,
                sim.positions(&m, w).iter().map(|p| p.date.0).collect(),
            )];
            for kind in DataKind::ALL.iter().copied().filter(|k| {
                !k.is_daily()
                    && !matches!(
                        k,
                        DataKind::Positions
                            | DataKind::Activities
                            | DataKind::EngineCondition
                            | DataKind::EvChargingRate
                    )
            }) {
                if let super::super::Rows::Values(rows) = sim.kind_rows(&m, kind, w)
                    && !rows.is_empty()
                {
                    times.push((kind, rows.iter().map(|r| r.date).collect()));
                }
            }
            assert!(times.len() > 5, "{}: {} kinds", m.name, times.len());
            for (kind, ts) in &times {
                assert!(ts.contains(&a) && ts.contains(&b), "{kind:?} at the ends");
                assert!(!ts.iter().any(|t| a < *t && *t < b), "{kind:?} inside");
            }
            let faults = sim.faults(&m, w);
            assert!(faults.iter().all(|f| f.date.0 <= a || f.date.0 >= b));
            // Engine events are as ever: none in the gap (one session).
            assert!(
                planted_of(&sim, id, w)
                    .iter()
                    .any(|p| { p.kind == PlantedKind::Gap && (p.start, p.end) == (a, b) })
            );
        }
    }

    fn planted_of(sim: &Simulator, id: i64, w: TimeWindow) -> Vec<Planted> {
        sim.planted(id, w)
    }

    /// Over 30 days of the whole fleet, what the rows show is what was
    /// planted: each fall of the fuel level between a stop and the next
    /// start is a planted drain (no other fall of 5 points), each decrease
    /// of the hour meter a planted reset.
    #[test]
    fn the_rows_show_exactly_the_planted_drains_and_resets() {
        let sim = sim();
        let w = days_window(day(2025, 5, 1), 30);
        let (mut drains, mut resets) = (0, 0);
        for id in FIRST_ID..FIRST_ID + 60 {
            let m = sim.machine(id).expect("machine");
            let planted = sim.planted(id, w);
            let listed = |kind| {
                planted
                    .iter()
                    .filter(|p| p.kind == kind)
                    .map(|p| (p.start, p.end, p.before, p.after))
                    .collect::<Vec<_>>()
            };
            let values = |kind, field| match sim.kind_rows(&m, kind, w) {
                super::super::Rows::Values(rows) => rows
                    .iter()
                    .filter_map(|r| match r.get(field) {
                        Some(Val::F(v)) => Some((r.date, v)),
                        _ => None,
                    })
                    .collect::<Vec<_>>(),
                _ => Vec::new(),
            };
            let plans: Vec<_> = (w.since / SECS_PER_DAY..=w.until / SECS_PER_DAY)
                .map(|d| m.full_plan(d))
                .collect();
            let off_between = |a: i64, b: i64| {
                !plans
                    .iter()
                    .flat_map(|p| &p.sessions)
                    .any(|s| s.start < b && s.stop > a)
            };
            let fuel = values(DataKind::FuelRemaining, "percent");
            // Falls while running are fuel burnt; with the engine off, any
            // fall at all is a drain.
            let falls: Vec<_> = fuel
                .windows(2)
                .filter(|p| p[1].1 < p[0].1 && off_between(p[0].0, p[1].0))
                .map(|p| (p[0].0, p[1].0, Some(p[0].1), Some(p[1].1)))
                .collect();
            assert_eq!(falls, listed(PlantedKind::Drain), "{}", m.name);
            for (p, f) in listed(PlantedKind::Drain).iter().zip(&falls) {
                assert!(p.2.zip(p.3).is_some_and(|(b, a)| b - a >= 7.9), "{f:?}");
            }
            drains += falls.len();
            let hours = values(DataKind::CumulativeOperatingHours, "hour");
            let downs: Vec<_> = hours
                .windows(2)
                .filter(|p| p[1].1 < p[0].1)
                .map(|p| (p[0].0, p[1].0, Some(p[0].1), Some(p[1].1)))
                .collect();
            assert_eq!(downs, listed(PlantedKind::CounterReset), "{}", m.name);
            resets += downs.len();
            for (_, v) in values(DataKind::FuelRemaining, "percent") {
                assert!((0.0..=100.0).contains(&v));
            }
        }
        assert!(
            drains >= 1 && resets >= 1,
            "{drains} drains, {resets} resets"
        );
    }

    /// The tank never runs dry, drains included, over two years of drains.
    #[test]
    fn the_tank_keeps_a_reserve_after_a_drain() {
        let sim = sim();
        let (first, last) = (day(2023, 6, 1), day(2025, 6, 1));
        for slot in drain_slot(first)..=drain_slot(last) {
            for m in fleet() {
                let Some(d) = m.drain_in_slot(slot) else {
                    continue;
                };
                let mut day = d.day;
                while !is_refuel_day(&m, day + 1) || day == d.day {
                    let ctx = sim.day_context(&m, day, i64::MAX, false);
                    let end = ctx.plan.day_end();
                    let used = ctx.fuel_since_refuel(end) + ctx.drained_since_refuel(end);
                    assert!(used <= 0.971 * m.model.tank_l, "{} day {day}", m.name);
                    day += 1;
                }
            }
        }
    }

    #[test]
    fn the_list_is_deterministic_and_empty_without_plantings() {
        let w = days_window(day(2025, 5, 1), 30);
        let (a, b) = (sim(), sim());
        for id in FIRST_ID..FIRST_ID + 60 {
            assert_eq!(a.planted(id, w), b.planted(id, w));
        }
        // A quiet weekday of a machine without plantings lists none.
        let quiet = (FIRST_ID..FIRST_ID + 60)
            .find(|id| a.planted(*id, days_window(day(2025, 6, 10), 1)).is_empty());
        assert!(quiet.is_some());
        assert!(a.planted(FIRST_ID - 1, w).is_empty());
    }
}
