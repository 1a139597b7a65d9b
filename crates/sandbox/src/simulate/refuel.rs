//! When a machine's tank is filled: on the first working day of each block
//! of a few days, sized so that a block never empties the tank.

use super::day_plan::DayPlan;
use super::machine::Machine;

/// Days per refuel block: the tank is filled on the first working day of
/// each block, and a block never burns more than ~80 % of a tank.
pub(crate) fn refuel_block_days(m: &Machine) -> i64 {
    let max_daily_l = (m.class().engine_hours().1 + 0.5) * m.model.work_lph * 1.15;
    ((0.8 * m.model.tank_l / max_daily_l.max(1.0)) as i64).clamp(1, 14)
}

pub(crate) fn is_refuel_day(m: &Machine, day: i64) -> bool {
    if !m.is_working_day(day) {
        return false;
    }
    let k = refuel_block_days(m);
    let block_start = m.commissioned_day + (day - m.commissioned_day).div_euclid(k) * k;
    (block_start..day).all(|d| !m.is_working_day(d))
}

/// When the tank is filled on this day, if it is: just before the engine
/// first starts.
pub(crate) fn refuel_instant(m: &Machine, plan: &DayPlan) -> Option<i64> {
    if m.model.tank_l <= 0.0 || !is_refuel_day(m, plan.day) {
        return None;
    }
    plan.sessions.first().map(|s| s.start)
}

#[cfg(test)]
mod tests {
    use super::*;

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
