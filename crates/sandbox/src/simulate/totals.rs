//! What a day's plan adds up to: the hours, fuel, distance and energy
//! accrued up to an instant ([`Totals`]), and the running sums since
//! commissioning ([`Cumulative`]) that counters are read from.

use super::day_plan::{DayPlan, SegKind};
use super::machine::Machine;

/// What accrued during a day up to some instant.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Totals {
    pub(crate) op_secs: i64,
    pub(crate) idle_secs: i64,
    /// Engine on, not idle, not moving (digging, lifting, loading).
    pub(crate) work_secs: i64,
    pub(crate) move_secs: i64,
    pub(crate) fuel_l: f64,
    pub(crate) idle_fuel_l: f64,
    pub(crate) distance_m: f64,
    pub(crate) peak_speed_kmh: f64,
    pub(crate) energy_used_kwh: f64,
    pub(crate) energy_charged_kwh: f64,
}

impl Totals {
    pub(crate) fn ran(&self) -> bool {
        self.op_secs > 0
    }
}

/// Running sums since commissioning.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Cumulative {
    pub(crate) op_secs: i64,
    pub(crate) idle_secs: i64,
    pub(crate) work_secs: i64,
    pub(crate) move_secs: i64,
    pub(crate) fuel_l: f64,
    pub(crate) idle_fuel_l: f64,
    pub(crate) distance_m: f64,
    pub(crate) energy_charged_kwh: f64,
    pub(crate) energy_used_kwh: f64,
}

impl Cumulative {
    pub(crate) fn add(&mut self, t: &Totals) {
        self.op_secs += t.op_secs;
        self.idle_secs += t.idle_secs;
        self.work_secs += t.work_secs;
        self.move_secs += t.move_secs;
        self.fuel_l += t.fuel_l;
        self.idle_fuel_l += t.idle_fuel_l;
        self.distance_m += t.distance_m;
        self.energy_charged_kwh += t.energy_charged_kwh;
        self.energy_used_kwh += t.energy_used_kwh;
    }

    pub(crate) fn plus(mut self, t: &Totals) -> Self {
        self.add(t);
        self
    }
}

/// What accrued on the plan's day up to and including `t`.
pub(crate) fn totals_until(m: &Machine, plan: &DayPlan, t: i64) -> Totals {
    let model = m.model;
    let mut tot = Totals::default();
    for seg in plan.segments() {
        if seg.start >= t {
            break;
        }
        let end = seg.stop.min(t);
        let secs = end - seg.start;
        let hours = secs as f64 / 3600.0;
        tot.op_secs += secs;
        match seg.kind {
            SegKind::Idle => {
                tot.idle_secs += secs;
                tot.idle_fuel_l += hours * model.idle_lph;
                tot.fuel_l += hours * model.idle_lph;
                tot.energy_used_kwh += hours * model.work_kw * 0.08;
            }
            SegKind::Work => {
                tot.work_secs += secs;
                tot.fuel_l += hours * model.work_lph * plan.fuel_factor;
                tot.energy_used_kwh += hours * model.work_kw;
            }
            SegKind::Move {
                path,
                speed_kmh,
                planned_secs,
            } => {
                tot.move_secs += secs;
                tot.fuel_l += hours * model.work_lph * plan.fuel_factor * 0.9;
                tot.energy_used_kwh += hours * model.work_kw * 0.7;
                let f = secs as f64 / planned_secs as f64;
                tot.distance_m += path.distance_at_m(f);
                tot.peak_speed_kmh = tot.peak_speed_kmh.max(speed_kmh * 1.12);
            }
        }
    }
    if m.fuel_estimated() {
        // No fuel telemetry: hours times the model's consumption rate.
        tot.fuel_l = tot.op_secs as f64 / 3600.0 * m.estimate_lph();
        tot.idle_fuel_l = 0.0;
    }
    if m.is_electric() {
        tot.fuel_l = 0.0;
        tot.idle_fuel_l = 0.0;
    }
    if let Some(c) = plan.charge
        && c.start < t
    {
        tot.energy_charged_kwh = (c.stop.min(t) - c.start) as f64 / 3600.0 * c.power_kw;
    }
    tot
}
