//! Figures worked out the same way wherever they appear: the counters a
//! machine reports, CO2 from fuel, and the engine load factor.

use super::rows::{r1, r2};
use crate::simulate::machine::Machine;
use crate::simulate::planted::Meter;
use crate::simulate::totals::{Cumulative, Totals};

/// Counters as reported: what the machine had at commissioning plus sums.
pub(super) struct Counters {
    /// On the hour meter in place (see [`Meter`]).
    pub(super) op_h: f64,
    /// The idle hours the hour meter in place has seen, for its usage hours.
    pub(super) meter_idle_h: f64,
    pub(super) idle_h: f64,
    pub(super) fuel_l: f64,
    pub(super) idle_fuel_l: f64,
    pub(super) distance_km: f64,
    pub(super) loads: i64,
    pub(super) payload_t: f64,
    pub(super) regen_h: f64,
    pub(super) pto_h: f64,
    pub(super) cycles: i64,
}

pub(super) fn counters(m: &Machine, c: &Cumulative, meter: &Meter) -> Counters {
    let loads = (c.work_secs as f64 * m.model.loads_per_hour / 3600.0).floor() as i64;
    let base_idle_h = m.base_hours * 0.3;
    let cap = m.model.battery_kwh.max(1.0);
    Counters {
        op_h: r2(meter.base_h + (c.op_secs - meter.op_secs_at) as f64 / 3600.0),
        meter_idle_h: r2(meter.base_h * 0.3 + (c.idle_secs - meter.idle_secs_at) as f64 / 3600.0),
        idle_h: r2(base_idle_h + c.idle_secs as f64 / 3600.0),
        fuel_l: r2(m.base_hours * m.estimate_lph() + c.fuel_l),
        idle_fuel_l: r2(base_idle_h * m.model.idle_lph + c.idle_fuel_l),
        distance_km: r2(m.base_km + c.distance_m / 1000.0),
        loads: m.base_loads + loads,
        payload_t: r2((m.base_loads + loads) as f64 * m.model.payload_t),
        regen_h: r2(m.base_hours * 0.03 + (c.work_secs + c.move_secs) as f64 * 0.03 / 3600.0),
        pto_h: r2(m.base_hours * 0.2 + c.work_secs as f64 * m.class().pto_fraction() / 3600.0),
        cycles: (m.base_cycles + c.energy_charged_kwh / cap).floor() as i64,
    }
}

pub(super) fn co2_kg(tot: &Totals) -> f64 {
    r2(tot.fuel_l * 2.68)
}

/// Fuel burnt over the fuel the engine would burn at continuous rated output
/// for the hours it ran, percent (energy for electric machines).
pub(super) fn load_factor(m: &Machine, tot: &Totals) -> f64 {
    let h = tot.op_secs as f64 / 3600.0;
    if h <= 0.0 {
        return 0.0;
    }
    let ratio = if m.is_electric() {
        tot.energy_used_kwh / (m.model.work_kw * 1.3 * h)
    } else {
        tot.fuel_l / (m.model.rated_lph * h)
    };
    r1(ratio * 100.0)
}
