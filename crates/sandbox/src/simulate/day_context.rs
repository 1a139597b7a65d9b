//! One machine's day as the row generators read it: the day's plan with
//! the running sums, fuel, drains and hour meter at its start ([`DayCtx`]).

use super::day_plan::DayPlan;
use super::machine::Machine;
use super::planted::{Drain, Meter};
use super::totals::{Cumulative, Totals, totals_until};
use fleetview_api::time::SECS_PER_DAY;

/// One machine's day with the running sums at its start.
#[derive(Debug)]
pub(crate) struct DayCtx<'m> {
    pub(crate) m: &'m Machine,
    pub(crate) plan: DayPlan,
    /// Sums of all days before this one.
    pub(crate) before: Cumulative,
    pub(crate) refuel: Option<i64>,
    /// Fuel burnt since the last refuel, at the start of the day.
    pub(crate) fuel_at_start: f64,
    /// Fuel drained since the last refuel, at the start of the day.
    pub(crate) drained_at_start: f64,
    /// A drain found at the day's first start.
    pub(crate) drain: Option<Drain>,
    /// The hour meter at the start of the day, and the one fitted at the
    /// day's first start if it is replaced then.
    pub(crate) meter: Meter,
    pub(crate) reset: Option<(i64, Meter)>,
}

impl DayCtx<'_> {
    pub(crate) fn totals_until(&self, t: i64) -> Totals {
        totals_until(self.m, &self.plan, t)
    }

    pub(crate) fn day_totals(&self) -> Totals {
        self.totals_until(self.plan.day_end())
    }

    pub(crate) fn cumulative_at(&self, t: i64) -> Cumulative {
        self.before.plus(&self.totals_until(t))
    }

    /// Fuel burnt since the tank was last filled, at `t`.
    pub(crate) fn fuel_since_refuel(&self, t: i64) -> f64 {
        let today = self.totals_until(t).fuel_l;
        match self.refuel {
            Some(r) if t >= r => today,
            _ => self.fuel_at_start + today,
        }
    }

    /// Fuel drained since the tank was last filled, at `t`.
    pub(crate) fn drained_since_refuel(&self, t: i64) -> f64 {
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
    pub(crate) fn drained_at_end(&self) -> f64 {
        let before = if self.refuel.is_some() {
            0.0
        } else {
            self.drained_at_start
        };
        before + self.drain.map_or(0.0, |d| d.litres)
    }

    /// The hour meter counting at `t`.
    pub(crate) fn meter_at(&self, t: i64) -> &Meter {
        match &self.reset {
            Some((at, meter)) if t >= *at => meter,
            _ => &self.meter,
        }
    }

    /// The hour meter at the end of the day, for the next day's start.
    pub(crate) fn meter_at_end(&self) -> Meter {
        self.reset.map_or(self.meter, |(_, m)| m)
    }

    /// Tank level at `t`, percent (burnt and drained fuel both gone).
    pub(crate) fn fuel_percent(&self, t: i64) -> f64 {
        let used = self.fuel_since_refuel(t) + self.drained_since_refuel(t);
        (100.0 * (1.0 - used / self.m.model.tank_l)).clamp(0.0, 100.0)
    }

    /// DEF level at `t`, percent: DEF burns at ~4 % of diesel and is
    /// topped up with the fuel.
    pub(crate) fn def_percent(&self, t: i64) -> f64 {
        if self.m.model.def_tank_l <= 0.0 {
            return 0.0;
        }
        let used = self.fuel_since_refuel(t) * 0.04;
        (100.0 * (1.0 - used / self.m.model.def_tank_l)).clamp(0.0, 100.0)
    }

    /// EV battery level at `t`, percent: full at the start of a working
    /// day, drawn down by work, charged back after it.
    pub(crate) fn battery_percent(&self, t: i64) -> f64 {
        let tot = self.totals_until(t);
        let cap = self.m.model.battery_kwh;
        (100.0 * (1.0 - (tot.energy_used_kwh - tot.energy_charged_kwh) / cap)).clamp(0.0, 100.0)
    }

    pub(crate) fn day_start(&self) -> i64 {
        self.plan.day * SECS_PER_DAY
    }
}
