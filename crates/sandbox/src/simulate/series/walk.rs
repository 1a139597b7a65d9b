//! Walking a window day by day: the days of a machine that overlap the
//! window and have begun, with the running sums carried from one day to the
//! next rather than recomputed.

use super::rows::Flow;
use crate::simulate::day_context::DayCtx;
use crate::simulate::machine::Machine;
use crate::simulate::planted::reset_of_day;
use crate::simulate::refuel::refuel_instant;
use crate::simulate::simulator::Simulator;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};

impl Simulator {
    /// Calls `f` for each day of `m` that overlaps `w` and has begun, with
    /// the running sums carried forward instead of recomputed per day,
    /// until `f` says stop.
    pub(super) fn walk_days(
        &self,
        m: &Machine,
        w: TimeWindow,
        sums: bool,
        mut f: impl FnMut(&DayCtx) -> Flow,
    ) -> Flow {
        let now = self.now();
        let first = w.since.div_euclid(SECS_PER_DAY).max(m.commissioned_day);
        let last = w.until.min(now).div_euclid(SECS_PER_DAY);
        if first > last {
            return Flow::Continue(());
        }
        let mut ctx = self.day_context(m, first, now, sums);
        loop {
            // A machine laid up reports nothing (its sums carry on).
            if !m.is_laid_up(ctx.plan.day) {
                f(&ctx)?;
            }
            let day = ctx.plan.day + 1;
            if day > last {
                return Flow::Continue(());
            }
            let totals = ctx.day_totals();
            let fuel_at_start = if ctx.refuel.is_some() {
                totals.fuel_l
            } else {
                ctx.fuel_at_start + totals.fuel_l
            };
            let drained_at_start = ctx.drained_at_end();
            let meter = ctx.meter_at_end();
            let before = ctx.before.plus(&totals);
            let plan = m.plan(day, now);
            let refuel = refuel_instant(m, &plan);
            let drain = self.drain_on(m, day);
            let reset = reset_of_day(m, &plan, &before, sums);
            ctx = DayCtx {
                m,
                plan,
                before,
                refuel,
                fuel_at_start,
                drained_at_start,
                drain,
                meter,
                reset,
            };
        }
    }

    pub(super) fn in_window(&self, w: TimeWindow, t: i64) -> bool {
        w.contains(t) && t <= self.now()
    }
}

/// Whether a window holds a 00:00:00Z, the date of daily rows.
pub(super) fn has_day_start(w: TimeWindow) -> bool {
    w.since.div_euclid(SECS_PER_DAY) != w.until.div_euclid(SECS_PER_DAY)
        || w.since.rem_euclid(SECS_PER_DAY) == 0
}
