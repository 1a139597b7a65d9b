//! Daily figures, dated 00:00:00Z: the `dailyUsages` rows and the daily
//! single-kind rows (fuel, CO2, distance, loads, payload, energy, ...).

use super::figures::{co2_kg, counters, load_factor};
use super::rows::{Flow, KindRow, Val, hours, r1, r2};
use super::walk::has_day_start;
use crate::simulate::day_context::DayCtx;
use crate::simulate::machine::Machine;
use crate::simulate::simulator::Simulator;
use fleetview_api::DataKind;
use fleetview_api::model::*;
use fleetview_api::time::TimeWindow;

impl Simulator {
    pub(crate) fn daily_usages(&self, m: &Machine, w: TimeWindow) -> Vec<DailyUsageRow> {
        let mut rows = Vec::new();
        let _ = self.try_for_each_daily_usage(m, w, |r| {
            rows.push(r);
            Flow::Continue(())
        });
        rows
    }

    /// Daily usages in time order, handed to `emit` as they are made.
    pub(crate) fn try_for_each_daily_usage(
        &self,
        m: &Machine,
        w: TimeWindow,
        mut emit: impl FnMut(DailyUsageRow) -> Flow,
    ) -> Flow {
        if !has_day_start(w) {
            return Flow::Continue(());
        }
        self.walk_days(m, w, true, |ctx| {
            if self.in_window(w, ctx.day_start()) {
                emit(daily_usage_row(ctx))?;
            }
            Flow::Continue(())
        })
    }
}

fn daily_usage_row(ctx: &DayCtx) -> DailyUsageRow {
    let m = ctx.m;
    let tot = ctx.day_totals();
    let end = ctx.before.plus(&tot);
    let c = counters(m, &end, ctx.meter_at(ctx.plan.day_end()));
    let ran = tot.ran();
    let ev = m.is_electric();
    let when_ran = |v: f64| Hours {
        hour: ran.then_some(v),
    };
    DailyUsageRow {
        date: Timestamp::from_secs(ctx.day_start()),
        operating_hours: Some(Hours {
            hour: Some(hours(tot.op_secs)),
        }),
        idle_hours: Some(Hours {
            hour: Some(hours(tot.idle_secs)),
        }),
        // Working is what the rounded operating hours leave after the
        // rounded idle ones, so that the day adds up exactly as shown.
        working_hours: Some(Hours {
            hour: Some(r2(hours(tot.op_secs) - hours(tot.idle_secs))),
        }),
        fuel_used: Some(FuelUsed {
            fuel_used: (!ev).then(|| r2(tot.fuel_l)),
            unit: "L".into(),
            estimated: (!ev).then(|| m.fuel_estimated()),
        }),
        daily_distance: Some(Distance {
            odometer: Some(r2(tot.distance_m / 1000.0)),
            unit: "km".into(),
        }),
        cumulative_idle_hours: Some(when_ran(c.idle_h)),
        cumulative_operating_hours: Some(when_ran(c.op_h)),
        cumulative_fuel_used: Some(CumulativeFuel {
            fuel_used: if ev { 0.0 } else { c.fuel_l },
            unit: "L".into(),
        }),
        cumulative_distance: Some(CumulativeDistance {
            odometer: c.distance_km,
            unit: "km".into(),
        }),
        cumulative_load_count: Some(LoadCount {
            count: (ran && m.model.loads_per_hour > 0.0).then_some(c.loads),
        }),
        cumulative_payload_total: Some(Payload {
            payload: c.payload_t,
            payload_unit: "t".into(),
        }),
        cumulative_active_regeneration_hours: Some(Hours {
            hour: (ran && m.model.def_tank_l > 0.0).then_some(c.regen_h),
        }),
        cumulative_power_take_off_hours: Some(Hours {
            hour: (ran && m.class().pto_fraction() > 0.0).then_some(c.pto_h),
        }),
        peak_daily_speed: Some(PeakSpeed {
            speed: r1(tot.peak_speed_kmh),
            speed_unit: "km/h".into(),
        }),
        average_daily_engine_load_factor: Some(Percent {
            percent: load_factor(m, &tot),
        }),
        def_remaining_ratio: Some(DefRemaining {
            percent: r1(ctx.def_percent(ctx.plan.day_end())),
            tank_capacity: m.model.def_tank_l,
            tank_capacity_unit: "L".into(),
        }),
        co2: Some(Co2 {
            weight: co2_kg(&tot),
            unit: "kg".into(),
            estimated: (!ev).then(|| m.fuel_estimated()),
        }),
    }
}

pub(super) fn daily_value_row(ctx: &DayCtx, kind: DataKind) -> Option<KindRow> {
    use DataKind::*;
    let m = ctx.m;
    let day = ctx.day_start();
    let tot = ctx.day_totals();
    let row = KindRow::new(day);
    let (before, after) = (
        counters(m, &ctx.before, &ctx.meter),
        counters(m, &ctx.before.plus(&tot), &ctx.meter),
    );
    Some(match kind {
        DailyFuel => row
            .with("fuelUsed", Val::OptF(Some(r2(tot.fuel_l))))
            .with("unit", Val::S("L"))
            .with("estimated", Val::B(m.fuel_estimated())),
        DailyIdleFuel => row
            .with("fuelUsed", Val::F(r2(tot.idle_fuel_l)))
            .with("unit", Val::S("L")),
        DailyCo2 => row
            .with("weight", Val::F(co2_kg(&tot)))
            .with("unit", Val::S("kg"))
            .with("estimated", Val::B(m.fuel_estimated())),
        DailyDistance => row
            .with("odometer", Val::F(r2(tot.distance_m / 1000.0)))
            .with("unit", Val::S("km")),
        DailyLoadCount => row.with("count", Val::I(after.loads - before.loads)),
        DailyPayload => row
            .with("payload", Val::F(r2(after.payload_t - before.payload_t)))
            .with("payloadUnit", Val::S("t")),
        PeakDailySpeed => row
            .with("speed", Val::F(r1(tot.peak_speed_kmh)))
            .with("speedUnit", Val::S("km/h")),
        AverageDailyEngineLoadFactor => row.with("percent", Val::F(load_factor(m, &tot))),
        DailyEvEnergyUsed => row
            .with("energy", Val::F(r2(tot.energy_used_kwh)))
            .with("unit", Val::S("kWh")),
        EvEnergyCharged => row
            .with("energy", Val::F(r2(tot.energy_charged_kwh)))
            .with("unit", Val::S("kWh")),
        _ => return None,
    })
}
