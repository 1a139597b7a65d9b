//! What a fleet manager looks for (D16), planted now and then, each a pure
//! function of (machine, time) like everything else:
//!
//! - night shifts: on a few weekdays a month across the fleet, a machine's
//!   shift starts before 06:00 local or runs past 20:00 (weekend work comes
//!   from the working days themselves);
//! - telemetry gaps: on a few days a month, one long session in which the
//!   feed is silent for some hours, every sensor kind and position alike;
//!   engine events and daily figures are as they were (the machine worked);
//! - fuel drains: the tank loses 8-25 % while parked between the last stop
//!   of a working day and the next start, on a start that is not a refuel;
//!   nothing burns, moves or accrues, and the level stays lower until the
//!   next refuel. Slots of [`DRAIN_SLOT_DAYS`] days take turns among the
//!   fuel-metered machines of each 60 indices, so a 60-machine fleet has
//!   one in every slot;
//! - hour-meter resets: at a start, `cumulativeOperatingHours` restarts
//!   from a replacement meter's low reading and counts on from there; one
//!   machine of each 60 in every [`RESET_SLOT_DAYS`] days, each in turn.

use std::sync::LazyLock;

use super::calendar::weekday;
use super::day_plan::{DayPlan, SegKind, Session};
use super::machine::{FIRST_ID, Feed, Machine, hash2, hash3, unit};
use super::refuel::{is_refuel_day, refuel_block_days};
use super::totals::{Cumulative, totals_until};

/// Machines take turns by index modulo this (the default fleet's size).
const CYCLE: i64 = 60;
/// Chance that a weekday's shift is a night shift.
const NIGHT_SHIFT_CHANCE: f64 = 0.004;
/// Chance that a weekday's feed falls silent for some hours.
const GAP_CHANCE: f64 = 0.006;
pub(crate) const DRAIN_SLOT_DAYS: i64 = 10;
pub(crate) const RESET_SLOT_DAYS: i64 = 25;
/// A drain takes this share of the tank at least (well above the 5 points
/// the app looks for), and leaves this share in it at the lowest.
const DRAIN_MIN_SHARE: f64 = 0.08;
const DRAIN_MAX_SHARE: f64 = 0.25;
const TANK_RESERVE_SHARE: f64 = 0.03;

/// When a working day's shift lies, in local seconds after midnight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Shift {
    /// Inside the working hours.
    Day,
    /// Starting at `start_secs` before 06:00, or (`late`, where the site's
    /// UTC day has room) ending at `end_secs` after 20:00.
    Night {
        start_secs: i64,
        end_secs: i64,
        late: bool,
    },
}

/// Fuel drained from a parked machine, read when it next starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Drain {
    /// The working day whose first start finds the tank lower.
    pub(crate) day: i64,
    /// That first start.
    pub(crate) at: i64,
    pub(crate) litres: f64,
}

/// The hour meter counting `cumulativeOperatingHours`: from `base_h` at
/// the sums `op_secs_at` / `idle_secs_at` (the factory meter from the
/// hours at commissioning, a replacement from a low reading).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Meter {
    pub(crate) base_h: f64,
    pub(crate) op_secs_at: i64,
    pub(crate) idle_secs_at: i64,
}

impl Meter {
    pub(crate) fn factory(m: &Machine) -> Self {
        Self {
            base_h: m.base_hours,
            op_secs_at: 0,
            idle_secs_at: 0,
        }
    }

    /// The meter fitted on `day`, at the sums `at` of its first start.
    pub(crate) fn replaced(m: &Machine, day: i64, at: &Cumulative) -> Self {
        Self {
            base_h: (unit(hash3(m.seed, day as u64, 0x4E5E)) * 120.0).round() / 10.0,
            op_secs_at: at.op_secs,
            idle_secs_at: at.idle_secs,
        }
    }
}

/// Whether a machine can have drains: it meters fuel, and some of its
/// working days are not refuel days.
fn drain_eligible(m: &Machine) -> bool {
    !m.is_electric() && m.model.fuel_telemetry && m.model.tank_l > 0.0 && refuel_block_days(m) >= 2
}

/// Which of the first [`CYCLE`] indices can have drains.
static DRAIN_ELIGIBLE: LazyLock<Vec<bool>> = LazyLock::new(|| {
    (0..CYCLE as u64)
        .map(|i| drain_eligible(&Machine::at_index(i)))
        .collect()
});

/// The index (modulo [`CYCLE`]) whose turn a drain slot is: one of the
/// eligible indices in a third of them, the thirds in turn, so that a
/// machine's slots are at least three slots apart (one drain per tank).
fn drain_turn(slot: i64) -> Option<i64> {
    let third = slot.rem_euclid(3);
    let candidates: Vec<i64> = (0..CYCLE)
        .filter(|r| r % 3 == third && DRAIN_ELIGIBLE[*r as usize])
        .collect();
    if candidates.is_empty() {
        return None;
    }
    Some(candidates[(hash2(0xD4A1, slot as u64) % candidates.len() as u64) as usize])
}

/// The index (modulo [`CYCLE`]) whose turn a reset slot is: every index
/// once in [`CYCLE`] slots.
fn reset_turn(slot: i64) -> i64 {
    (slot * 7 + 3).rem_euclid(CYCLE)
}

impl Machine {
    fn turn_index(&self) -> i64 {
        (self.id - FIRST_ID).rem_euclid(CYCLE)
    }

    /// When the shift of a working day lies.
    pub(crate) fn shift(&self, day: i64) -> Shift {
        let h = hash3(self.seed, day as u64, 0x4167);
        if weekday(day) >= 5 || unit(h) >= NIGHT_SHIFT_CHANCE {
            return Shift::Day;
        }
        let h2 = hash2(h, 1);
        Shift::Night {
            start_secs: 9000 + (unit(h2) * 9000.0) as i64,
            end_secs: 75_600 + (unit(hash2(h, 2)) * 9000.0) as i64,
            late: h2 & 1 == 1,
        }
    }

    /// Whether the feed falls silent for some hours in the day's session.
    pub(crate) fn is_gap_day(&self, day: i64) -> bool {
        weekday(day) < 5
            && self.shift(day) == Shift::Day
            && unit(hash3(self.seed, day as u64, 0x6A9)) < GAP_CHANCE
    }

    /// The silent span of a gap day, `(a, b)`: rows at `a` and `b`, none
    /// between; inside the session's longest stretch without moves (a move
    /// keeps its positions), longer than three report periods and two
    /// hours, so the app sees it as a gap.
    pub(crate) fn silent_span(&self, day: i64, sessions: &[Session]) -> Option<(i64, i64)> {
        if !self.is_gap_day(day) {
            return None;
        }
        let (position_secs, sensor_secs) = match self.feed {
            Feed::Oem { period_secs } => (period_secs, period_secs),
            Feed::Tracker { moving_secs, .. } => (moving_secs, self.feed.sensor_period_secs()),
        };
        let min_secs = (3 * position_secs.max(sensor_secs)).max(7200) + 1800;
        let mut best = (0, 0);
        for s in sessions {
            let mut run: Option<(i64, i64)> = None;
            for g in &s.segments {
                if matches!(g.kind, SegKind::Move { .. }) {
                    run = None;
                    continue;
                }
                let r = run.map_or((g.start, g.stop), |(a, _)| (a, g.stop));
                run = Some(r);
                if r.1 - r.0 > best.1 - best.0 {
                    best = r;
                }
            }
        }
        const EDGE_SECS: i64 = 600;
        let room = best.1 - best.0 - 2 * EDGE_SECS;
        let h = hash3(self.seed, day as u64, 0x6AA);
        let len = (min_secs + (unit(h) * 5400.0) as i64).min(room);
        if len < min_secs {
            return None;
        }
        let a = best.0 + EDGE_SECS + (unit(hash2(h, 1)) * (room - len) as f64) as i64;
        Some((a, a + len))
    }

    /// The drain of a slot of [`DRAIN_SLOT_DAYS`] days, if it is this
    /// machine's turn and one of its days can take it: a working day that
    /// is not a refuel day, whose tank can lose the amount and still hold
    /// [`TANK_RESERVE_SHARE`] after the rest of the refuel period's work.
    pub(crate) fn drain_in_slot(&self, slot: i64) -> Option<Drain> {
        if drain_turn(slot) != Some(self.turn_index()) || !drain_eligible(self) {
            return None;
        }
        let first = slot * DRAIN_SLOT_DAYS;
        let offset = (hash2(self.seed, slot as u64) % DRAIN_SLOT_DAYS as u64) as i64;
        let tank = self.model.tank_l;
        (0..DRAIN_SLOT_DAYS).find_map(|j| {
            let day = first + (offset + j) % DRAIN_SLOT_DAYS;
            if !self.is_working_day(day) || is_refuel_day(self, day) {
                return None;
            }
            self.previous_working_day(day)?;
            let refuelled = (day - 40..day).rev().find(|d| is_refuel_day(self, *d))?;
            let next = (day + 1..day + 40).find(|d| is_refuel_day(self, *d))?;
            let burnt: f64 = (refuelled..next)
                .filter(|d| self.is_working_day(*d))
                .map(|d| self.full_day_fuel_l(d))
                .sum();
            let share = DRAIN_MIN_SHARE
                + (DRAIN_MAX_SHARE - DRAIN_MIN_SHARE) * unit(hash3(self.seed, day as u64, 0xD7A1));
            let litres = (share * tank).min((1.0 - TANK_RESERVE_SHARE) * tank - burnt);
            let at = self.full_plan(day).sessions.first()?.start;
            (litres >= DRAIN_MIN_SHARE * tank).then_some(Drain { day, at, litres })
        })
    }

    fn full_day_fuel_l(&self, day: i64) -> f64 {
        let plan = self.full_plan(day);
        totals_until(self, &plan, plan.day_end()).fuel_l
    }

    /// The day of a slot of [`RESET_SLOT_DAYS`] days on which the hour
    /// meter is replaced, if it is this machine's turn: a working day a
    /// month or more after commissioning, with a working day before it.
    pub(crate) fn reset_day_in_slot(&self, slot: i64) -> Option<i64> {
        if reset_turn(slot) != self.turn_index() {
            return None;
        }
        let first = slot * RESET_SLOT_DAYS;
        let offset = (hash2(self.seed, !slot as u64) % RESET_SLOT_DAYS as u64) as i64;
        (0..RESET_SLOT_DAYS)
            .map(|j| first + (offset + j) % RESET_SLOT_DAYS)
            .find(|d| {
                *d >= self.commissioned_day + 30
                    && self.is_working_day(*d)
                    && self.previous_working_day(*d).is_some()
            })
    }

    pub(crate) fn is_reset_day(&self, day: i64) -> bool {
        self.reset_day_in_slot(day.div_euclid(RESET_SLOT_DAYS)) == Some(day)
    }

    /// The last day before `day` on which the hour meter was replaced.
    pub fn last_reset_before(&self, day: i64) -> Option<i64> {
        let oldest = self.commissioned_day.div_euclid(RESET_SLOT_DAYS);
        (oldest..=(day - 1).div_euclid(RESET_SLOT_DAYS))
            .rev()
            .filter(|slot| reset_turn(*slot) == self.turn_index())
            .filter_map(|slot| self.reset_day_in_slot(slot))
            .find(|d| *d < day)
    }
}

/// The slot of [`DRAIN_SLOT_DAYS`] days holding `day`.
pub(crate) fn drain_slot(day: i64) -> i64 {
    day.div_euclid(DRAIN_SLOT_DAYS)
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
