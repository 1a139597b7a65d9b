//! The simulator: the fleet's size and clock, and the running sums and
//! drains it keeps in memos so that a day deep into a machine's life does
//! not cost a scan of every day before it. Each day it serves is handed to
//! the row generators as a [`DayCtx`]; the generators themselves add their
//! operations to [`Simulator`] in [`super::series`].

use std::collections::HashMap;
use std::sync::Mutex;

use super::day_context::DayCtx;
use super::machine::Machine;
use super::planted::{Drain, Meter, drain_slot, reset_of_day};
use super::refuel::{is_refuel_day, refuel_instant};
use super::totals::{Cumulative, Totals, totals_until};
use crate::clock::Clock;

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

    pub(crate) fn fleet_size(&self) -> u64 {
        self.fleet_size
    }

    pub(crate) fn now(&self) -> i64 {
        self.clock.now()
    }

    pub fn machine(&self, id: i64) -> Option<Machine> {
        Machine::by_id(id, self.fleet_size)
    }

    /// Sums of every whole day of `m` before `day` (which must not be after
    /// today, so all those days are complete).
    pub(crate) fn cumulative_before(&self, m: &Machine, day: i64) -> Cumulative {
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
    pub(crate) fn day_context<'m>(
        &self,
        m: &'m Machine,
        day: i64,
        now: i64,
        sums: bool,
    ) -> DayCtx<'m> {
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
    pub(crate) fn drain_on(&self, m: &Machine, day: i64) -> Option<Drain> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::time::{SECS_PER_DAY, days_from_civil};

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
}
