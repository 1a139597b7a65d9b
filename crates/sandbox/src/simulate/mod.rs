//! The simulated fleet: deterministic, procedural telemetry.
//!
//! Every value is a function of (equipment, time): a machine's identity comes
//! from its index ([`machine`]), each day is planned from hashes of (machine,
//! day) ([`day`]) with its moves between stops ([`trips`]) over the site's
//! roads for road trucks ([`roads`]), and every series is read off those
//! plans ([`series`]). Any window, short or years long, is served without
//! stored telemetry. Nothing after the simulator's clock exists yet, as with
//! a real service.

pub mod calendar;
pub mod catalogue;
pub mod day;
pub mod local;
pub mod machine;
pub mod path;
pub mod planted;
pub mod random;
pub mod roads;
pub mod series;
pub mod trips;

use std::collections::HashMap;
use std::sync::Mutex;

use day::{Cumulative, DayPlan, Totals, totals_until};
pub use machine::{FIRST_ID, Machine};
use planted::{Drain, Meter, drain_slot};
pub use series::{Planted, PlantedKind};

use super::clock::Clock;
use fleetview_api::time::SECS_PER_DAY;

/// Days between memoised cumulative checkpoints.
const CHECKPOINT_DAYS: i64 = 32;
/// Memo entries kept before the memo is cleared (bounds memory on huge fleets).
const MEMO_CAP: usize = 1 << 20;

#[derive(Debug)]
pub struct Simulator {
    fleet_size: u64,
    clock: Clock,
    /// (equipment id, checkpoint index) -> sums of all days before it.
    memo: Mutex<HashMap<(i64, i64), Cumulative>>,
    /// (equipment id, drain slot) -> the slot's drain (each costs the
    /// plans of a refuel period).
    drains: Mutex<HashMap<(i64, i64), Option<Drain>>>,
}

impl Simulator {
    pub fn new(fleet_size: u64, clock: Clock) -> Self {
        Self {
            fleet_size,
            clock,
            memo: Mutex::new(HashMap::new()),
            drains: Mutex::new(HashMap::new()),
        }
    }

    pub fn fleet_size(&self) -> u64 {
        self.fleet_size
    }

    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    pub fn machine(&self, id: i64) -> Option<Machine> {
        Machine::by_id(id, self.fleet_size)
    }

    /// Sums of every whole day of `m` before `day` (which must not be after
    /// today, so all those days are complete).
    pub fn cumulative_before(&self, m: &Machine, day: i64) -> Cumulative {
        let first = m.commissioned_day;
        if day <= first {
            return Cumulative::default();
        }
        let target = (day - first) / CHECKPOINT_DAYS;
        // Start from the highest checkpoint already known.
        let (mut k, mut acc) = {
            let memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
            (0..=target)
                .rev()
                .find_map(|k| memo.get(&(m.id, k)).map(|c| (k, *c)))
                .unwrap_or((0, Cumulative::default()))
        };
        let mut fresh = Vec::new();
        while k < target {
            let from = first + k * CHECKPOINT_DAYS;
            for d in from..from + CHECKPOINT_DAYS {
                acc.add(&self.full_day_totals(m, d));
            }
            k += 1;
            fresh.push((k, acc));
        }
        if !fresh.is_empty() {
            let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
            if memo.len() > MEMO_CAP {
                memo.clear();
            }
            memo.extend(fresh.into_iter().map(|(k, c)| ((m.id, k), c)));
        }
        for d in first + target * CHECKPOINT_DAYS..day {
            acc.add(&self.full_day_totals(m, d));
        }
        acc
    }

    fn full_day_totals(&self, m: &Machine, day: i64) -> Totals {
        if !m.is_working_day(day) {
            return Totals::default();
        }
        let plan = m.full_plan(day);
        totals_until(m, &plan, plan.day_end())
    }

    /// Everything the generators need about one day of one machine.
    /// `sums`: whether the running sums since commissioning are needed
    /// (counters, daily figures); they cost a scan of past days.
    pub fn day_context<'m>(&self, m: &'m Machine, day: i64, now: i64, sums: bool) -> DayCtx<'m> {
        let plan = m.plan(day, now);
        let before = if sums {
            self.cumulative_before(m, day)
        } else {
            Cumulative::default()
        };
        // Counters need the sums; without them the meter does not matter.
        let meter = match m.last_reset_before(day).filter(|_| sums) {
            Some(d) => Meter::replaced(m, d, &self.cumulative_before(m, d)),
            None => Meter::factory(m),
        };
        let refuel = refuel_instant(m, &plan);
        let (fuel_at_start, drained_at_start) = if m.model.tank_l > 0.0 {
            self.fuel_since_refuel_at_start(m, day)
        } else {
            (0.0, 0.0)
        };
        let drain = self.drain_on(m, day);
        let reset = reset_of_day(m, &plan, &before, sums);
        DayCtx {
            m,
            plan,
            before,
            refuel,
            fuel_at_start,
            drained_at_start,
            drain,
            meter,
            reset,
        }
    }

    /// Fuel burnt and fuel drained between the last refuel before `day`
    /// and the start of `day`.
    fn fuel_since_refuel_at_start(&self, m: &Machine, day: i64) -> (f64, f64) {
        let (mut fuel, mut drained) = (0.0, 0.0);
        let mut d = day - 1;
        while d >= m.commissioned_day {
            if !m.is_working_day(d) {
                d -= 1;
                continue;
            }
            fuel += self.full_day_totals(m, d).fuel_l;
            if is_refuel_day(m, d) {
                return (fuel, drained);
            }
            drained += self.drain_on(m, d).map_or(0.0, |x| x.litres);
            d -= 1;
        }
        (fuel, drained)
    }

    /// The drain found on starting on `day`, if any.
    pub fn drain_on(&self, m: &Machine, day: i64) -> Option<Drain> {
        let slot = drain_slot(day);
        let key = (m.id, slot);
        let known = self
            .drains
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .copied();
        let drain = known.unwrap_or_else(|| {
            let d = m.drain_in_slot(slot);
            let mut memo = self.drains.lock().unwrap_or_else(|e| e.into_inner());
            if memo.len() > MEMO_CAP {
                memo.clear();
            }
            memo.insert(key, d);
            d
        });
        drain.filter(|d| d.day == day)
    }
}

/// The meter fitted on the plan's day at its first start, if it is a
/// reset day (and the sums are known).
pub(crate) fn reset_of_day(
    m: &Machine,
    plan: &DayPlan,
    before: &Cumulative,
    sums: bool,
) -> Option<(i64, Meter)> {
    if !sums || !m.is_reset_day(plan.day) {
        return None;
    }
    let at = plan.sessions.first().map_or(plan.day_end(), |s| s.start);
    Some((at, Meter::replaced(m, plan.day, before)))
}

/// Days per refuel block: the tank is filled on the first working day of
/// each block, and a block never burns more than ~80 % of a tank.
pub(crate) fn refuel_block_days(m: &Machine) -> i64 {
    let max_daily_l = (m.class().engine_hours().1 + 0.5) * m.model.work_lph * 1.15;
    ((0.8 * m.model.tank_l / max_daily_l.max(1.0)) as i64).clamp(1, 14)
}

pub fn is_refuel_day(m: &Machine, day: i64) -> bool {
    if !m.is_working_day(day) {
        return false;
    }
    let k = refuel_block_days(m);
    let block_start = m.commissioned_day + (day - m.commissioned_day).div_euclid(k) * k;
    (block_start..day).all(|d| !m.is_working_day(d))
}

/// When the tank is filled on this day, if it is: just before the engine
/// first starts.
fn refuel_instant(m: &Machine, plan: &DayPlan) -> Option<i64> {
    if m.model.tank_l <= 0.0 || !is_refuel_day(m, plan.day) {
        return None;
    }
    plan.sessions.first().map(|s| s.start)
}

/// One machine's day with the running sums at its start.
#[derive(Debug)]
pub struct DayCtx<'m> {
    pub m: &'m Machine,
    pub plan: DayPlan,
    /// Sums of all days before this one.
    pub before: Cumulative,
    pub refuel: Option<i64>,
    /// Fuel burnt since the last refuel, at the start of the day.
    pub fuel_at_start: f64,
    /// Fuel drained since the last refuel, at the start of the day.
    pub drained_at_start: f64,
    /// A drain found at the day's first start.
    pub drain: Option<Drain>,
    /// The hour meter at the start of the day, and the one fitted at the
    /// day's first start if it is replaced then.
    pub meter: Meter,
    pub reset: Option<(i64, Meter)>,
}

impl DayCtx<'_> {
    pub fn totals_until(&self, t: i64) -> Totals {
        totals_until(self.m, &self.plan, t)
    }

    pub fn day_totals(&self) -> Totals {
        self.totals_until(self.plan.day_end())
    }

    pub fn cumulative_at(&self, t: i64) -> Cumulative {
        self.before.plus(&self.totals_until(t))
    }

    /// Fuel burnt since the tank was last filled, at `t`.
    pub fn fuel_since_refuel(&self, t: i64) -> f64 {
        let today = self.totals_until(t).fuel_l;
        match self.refuel {
            Some(r) if t >= r => today,
            _ => self.fuel_at_start + today,
        }
    }

    /// Fuel drained since the tank was last filled, at `t`.
    pub fn drained_since_refuel(&self, t: i64) -> f64 {
        match self.refuel {
            // A refuel day has no drain.
            Some(r) if t >= r => 0.0,
            _ => {
                let today = self.drain.filter(|d| t >= d.at).map_or(0.0, |d| d.litres);
                self.drained_at_start + today
            }
        }
    }

    /// Fuel drained since the last refuel at the end of the day, for the
    /// next day's start.
    pub fn drained_at_end(&self) -> f64 {
        let before = if self.refuel.is_some() {
            0.0
        } else {
            self.drained_at_start
        };
        before + self.drain.map_or(0.0, |d| d.litres)
    }

    /// The hour meter counting at `t`.
    pub fn meter_at(&self, t: i64) -> &Meter {
        match &self.reset {
            Some((at, meter)) if t >= *at => meter,
            _ => &self.meter,
        }
    }

    /// The hour meter at the end of the day, for the next day's start.
    pub fn meter_at_end(&self) -> Meter {
        self.reset.map_or(self.meter, |(_, m)| m)
    }

    /// Tank level at `t`, percent (burnt and drained fuel both gone).
    pub fn fuel_percent(&self, t: i64) -> f64 {
        let used = self.fuel_since_refuel(t) + self.drained_since_refuel(t);
        (100.0 * (1.0 - used / self.m.model.tank_l)).clamp(0.0, 100.0)
    }

    /// DEF level at `t`, percent: DEF burns at ~4 % of diesel and is
    /// topped up with the fuel.
    pub fn def_percent(&self, t: i64) -> f64 {
        if self.m.model.def_tank_l <= 0.0 {
            return 0.0;
        }
        let used = self.fuel_since_refuel(t) * 0.04;
        (100.0 * (1.0 - used / self.m.model.def_tank_l)).clamp(0.0, 100.0)
    }

    /// EV battery level at `t`, percent: full at the start of a working
    /// day, drawn down by work, charged back after it.
    pub fn battery_percent(&self, t: i64) -> f64 {
        let tot = self.totals_until(t);
        let cap = self.m.model.battery_kwh;
        (100.0 * (1.0 - (tot.energy_used_kwh - tot.energy_charged_kwh) / cap)).clamp(0.0, 100.0)
    }

    pub fn day_start(&self) -> i64 {
        self.plan.day * SECS_PER_DAY
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::time::days_from_civil;

    #[test]
    fn memoised_cumulative_equals_a_plain_sum() {
        let sim = Simulator::new(60, Clock::Fixed(days_from_civil(2025, 6, 1) * SECS_PER_DAY));
        for i in [0u64, 2, 6, 8] {
            let m = Machine::at_index(i);
            for day in [days_from_civil(2024, 7, 3), days_from_civil(2025, 5, 30)] {
                let mut plain = Cumulative::default();
                for d in m.commissioned_day..day {
                    plain.add(&sim.full_day_totals(&m, d));
                }
                let memo = sim.cumulative_before(&m, day);
                assert_eq!(memo.op_secs, plain.op_secs, "{}", m.name);
                assert!((memo.fuel_l - plain.fuel_l).abs() < 1e-6 * plain.fuel_l.max(1.0));
                // A second call reads the memo and agrees.
                assert_eq!(sim.cumulative_before(&m, day).op_secs, plain.op_secs);
            }
        }
    }

    #[test]
    fn the_first_working_day_of_each_block_refuels() {
        for i in 0..20 {
            let m = Machine::at_index(i);
            if m.model.tank_l <= 0.0 {
                continue;
            }
            let k = refuel_block_days(&m);
            let mut block = m.commissioned_day + 400 * k;
            for _ in 0..20 {
                let days: Vec<i64> = (block..block + k).collect();
                let first_working = days.iter().copied().find(|d| m.is_working_day(*d));
                for d in days {
                    assert_eq!(
                        is_refuel_day(&m, d),
                        Some(d) == first_working,
                        "{} day {d}",
                        m.name
                    );
                }
                block += k;
            }
        }
    }
}
