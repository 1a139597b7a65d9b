//! Rows of one data kind: which machines report it, at which instants, and
//! the value at each (counters, levels, temperatures, EV battery, ...).

use super::daily::daily_value_row;
use super::figures::counters;
use super::rows::{Flow, KindRow, Rows, Val, r1, r2};
use super::walk::has_day_start;
use crate::simulate::day_context::DayCtx;
use crate::simulate::day_plan::{DayPlan, SegKind};
use crate::simulate::machine::{Machine, hash3, unit};
use crate::simulate::simulator::Simulator;
use fleetview_api::DataKind;
use fleetview_api::model::EngineEvent;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};

/// Whether a machine reports a kind at all; others answer with no rows (D6).
pub(crate) fn supports(m: &Machine, kind: DataKind) -> bool {
    use DataKind::*;
    let ev = m.is_electric();
    match kind {
        k if k.is_ev() => ev,
        CumulativeFuel | DailyFuel | DailyCo2 | EngineCoolantTemperature => !ev,
        FuelRemaining | CumulativeIdleFuel | DailyIdleFuel => !ev && m.model.fuel_telemetry,
        DefRemainingRatio | CumulativeActiveRegenerationHours => m.model.def_tank_l > 0.0,
        CumulativeLoadCount | DailyLoadCount | CumulativePayloadTotal | DailyPayload => {
            m.model.loads_per_hour > 0.0
        }
        CumulativePowerTakeOffHours => m.class().pto_fraction() > 0.0,
        _ => true,
    }
}

impl Simulator {
    /// Rows of any data kind; kinds the machine cannot report have none.
    pub fn kind_rows(&self, m: &Machine, kind: DataKind, w: TimeWindow) -> Rows {
        match kind {
            DataKind::Positions => return Rows::Positions(self.positions(m, w)),
            DataKind::Activities => return Rows::Activities(self.activities(m, w)),
            DataKind::DailyUsages => return Rows::DailyUsages(self.daily_usages(m, w)),
            _ => {}
        }
        let mut rows = Vec::new();
        let _ = self.try_for_each_value_row(m, kind, w, |r| {
            rows.push(r);
            Flow::Continue(())
        });
        Rows::Values(rows)
    }

    /// Rows of a kind of a single value (not positions, activities or
    /// daily usages, which have their own rows) in time order, handed to
    /// `emit` as they are made.
    pub(crate) fn try_for_each_value_row(
        &self,
        m: &Machine,
        kind: DataKind,
        w: TimeWindow,
        mut emit: impl FnMut(KindRow) -> Flow,
    ) -> Flow {
        if matches!(
            kind,
            DataKind::Positions | DataKind::Activities | DataKind::DailyUsages
        ) || !supports(m, kind)
            || (kind.is_daily() && !has_day_start(w))
        {
            return Flow::Continue(());
        }
        self.walk_days(m, w, needs_sums(kind), |ctx| {
            if kind.is_daily() {
                if self.in_window(w, ctx.day_start())
                    && let Some(row) = daily_value_row(ctx, kind)
                {
                    emit(row)?;
                }
                return Flow::Continue(());
            }
            if kind == DataKind::EngineCondition {
                for s in &ctx.plan.sessions {
                    let events = [
                        (s.start, EngineEvent::Started),
                        (s.stop, EngineEvent::Stopped),
                    ];
                    for (t, event) in events.into_iter().take(if s.stopped { 2 } else { 1 }) {
                        if self.in_window(w, t) {
                            emit(KindRow::new(t).with("running", Val::B(event.running_flag())))?;
                        }
                    }
                }
                return Flow::Continue(());
            }
            let mut instants = Vec::new();
            if !matches!(kind, DataKind::EvChargingRate) {
                instants.extend(session_instants(ctx));
            }
            if charges_matter(kind) {
                instants.extend(charge_instants(ctx));
            }
            for t in instants {
                if self.in_window(w, t)
                    && let Some(row) = instant_value_row(ctx, kind, t)
                {
                    emit(row)?;
                }
            }
            Flow::Continue(())
        })
    }
}

/// Kinds whose values need the sums since commissioning.
fn needs_sums(kind: DataKind) -> bool {
    kind.is_daily()
        || kind.wire().starts_with("cumulative")
        || kind == DataKind::EvBatteryChargeCyclesCount
}

fn charges_matter(kind: DataKind) -> bool {
    use DataKind::*;
    matches!(
        kind,
        EvBatteryLevel
            | EvBatteryVoltage
            | EvBatteryCurrent
            | EvBatteryTemperature
            | EvBatteryHealth
            | EvChargingState
            | EvChargingRate
            | EvBatteryChargeCyclesCount
    )
}

/// Sensor report instants while the engine runs: each session's start,
/// every period after it, and its stop; none inside a telemetry gap, one
/// at each of its ends.
fn session_instants(ctx: &DayCtx) -> Vec<i64> {
    let period = ctx.m.feed.sensor_period_secs();
    let mut out = Vec::new();
    for s in &ctx.plan.sessions {
        out.extend((s.start..s.stop).step_by(period as usize));
        if s.stopped || out.last() != Some(&s.stop) {
            out.push(s.stop);
        }
    }
    silence(&ctx.plan, &mut out);
    out
}

/// Drops the instants inside the plan's telemetry gap and reports at both
/// its ends (those the clock has reached); sorts and dedups.
pub(super) fn silence(plan: &DayPlan, instants: &mut Vec<i64>) {
    if let Some((a, b)) = plan.silent {
        instants.retain(|t| !plan.is_silent(*t));
        let reached = plan.sessions.last().map_or(i64::MIN, |s| s.stop);
        instants.extend([a, b].into_iter().filter(|t| *t <= reached));
    }
    instants.sort_unstable();
    instants.dedup();
}

/// Report instants while an electric machine charges.
fn charge_instants(ctx: &DayCtx) -> Vec<i64> {
    let period = ctx.m.feed.sensor_period_secs();
    match ctx.plan.charge {
        Some(c) => {
            let mut v: Vec<i64> = (c.start..c.stop).step_by(period as usize).collect();
            v.push(c.stop);
            v
        }
        None => Vec::new(),
    }
}

fn noise(m: &Machine, t: i64, salt: u64) -> f64 {
    unit(hash3(m.seed, t as u64, salt))
}

/// The row of `kind` at `t`, if `kind` is read at instants: a counter, a
/// gauge of the machine, or one of the EV battery's figures.
fn instant_value_row(ctx: &DayCtx, kind: DataKind, t: i64) -> Option<KindRow> {
    counter_row(ctx, kind, t)
        .or_else(|| gauge_row(ctx, kind, t))
        .or_else(|| ev_row(ctx, kind, t))
}

/// The counters since commissioning, read off the running sums and the
/// hour meter counting at `t`.
fn counter_row(ctx: &DayCtx, kind: DataKind, t: i64) -> Option<KindRow> {
    use DataKind::*;
    let row = KindRow::new(t);
    let c = || counters(ctx.m, &ctx.cumulative_at(t), ctx.meter_at(t));
    Some(match kind {
        // As the real service names them (D7): `hour` here, `hours` below.
        CumulativeOperatingHours => {
            let c = c();
            row.with("hour", Val::F(c.op_h))
                .with("usageHours", Val::F(r2(c.op_h - c.meter_idle_h)))
        }
        CumulativeIdleHours => row.with("hours", Val::F(c().idle_h)),
        CumulativeActiveRegenerationHours => row.with("hours", Val::F(c().regen_h)),
        CumulativePowerTakeOffHours => row.with("hours", Val::F(c().pto_h)),
        CumulativeDistance => row
            .with("odometer", Val::F(c().distance_km))
            .with("unit", Val::S("km")),
        CumulativeFuel => row
            .with("fuelUsed", Val::F(c().fuel_l))
            .with("unit", Val::S("L")),
        CumulativeIdleFuel => row
            .with("fuelUsed", Val::F(c().idle_fuel_l))
            .with("unit", Val::S("L")),
        CumulativeLoadCount => row.with("count", Val::I(c().loads)),
        CumulativePayloadTotal => row
            .with("payload", Val::F(c().payload_t))
            .with("payloadUnit", Val::S("t")),
        EvBatteryChargeCyclesCount => row.with("count", Val::I(c().cycles)),
        _ => return None,
    })
}

/// The machine's gauges and sensors: tank levels, engine load and coolant,
/// batteries, the air, and the work switch.
fn gauge_row(ctx: &DayCtx, kind: DataKind, t: i64) -> Option<KindRow> {
    use DataKind::*;
    let m = ctx.m;
    let row = KindRow::new(t);
    let seg = || ctx.plan.segment_at(t).map(|g| g.kind);
    Some(match kind {
        FuelRemaining => row.with("percent", Val::F(r1(ctx.fuel_percent(t)))),
        DefRemainingRatio => row
            .with("percent", Val::F(r1(ctx.def_percent(t))))
            .with("tankCapacity", Val::F(m.model.def_tank_l))
            .with("tankCapacityUnit", Val::S("L")),
        EngineLoadPercentage => {
            let n = noise(m, t, 1);
            let load = match seg() {
                Some(SegKind::Work) => 55.0 + 30.0 * n,
                Some(SegKind::Move { .. }) => 40.0 + 20.0 * n,
                Some(SegKind::Idle) => 12.0 + 8.0 * n,
                None => 0.0,
            };
            row.with("percent", Val::F(r1(load)))
        }
        EngineCoolantTemperature => {
            let amb = m.ambient_c(t);
            let session_start = ctx
                .plan
                .sessions
                .iter()
                .find(|s| s.start <= t && t <= s.stop)
                .map(|s| s.start);
            let warm = session_start.map_or(0.0, |s| 1.0 - (-((t - s) as f64) / 600.0).exp());
            let temp = amb + (88.0 - amb) * warm + 3.0 * (noise(m, t, 2) - 0.5);
            row.with("temperature", Val::F(r1(temp)))
                .with("unit", Val::S("°C"))
        }
        BatteryVoltage => row
            .with("voltage", Val::F(r2(27.6 + 0.5 * noise(m, t, 3))))
            .with("unit", Val::S("V")),
        BatteryLevel => row.with("percent", Val::F(r1(88.0 + 10.0 * noise(m, t, 4)))),
        DeviceBatteryLevel => row.with("percent", Val::F(r1(95.0 + 5.0 * noise(m, t, 5)))),
        DeviceBatteryVoltage => row
            .with("voltage", Val::F(r2(4.05 + 0.15 * noise(m, t, 6))))
            .with("unit", Val::S("V")),
        Temperature => row
            .with("temperature", Val::F(m.ambient_c(t)))
            .with("unit", Val::S("°C")),
        SensorBoolean => row.with("value", Val::B(matches!(seg(), Some(SegKind::Work)))),
        _ => return None,
    })
}

/// An electric machine's battery: level, voltage, current, temperature,
/// health, charging state and rates, and the energy used today.
fn ev_row(ctx: &DayCtx, kind: DataKind, t: i64) -> Option<KindRow> {
    use DataKind::*;
    let m = ctx.m;
    let row = KindRow::new(t);
    let seg = ctx.plan.segment_at(t).map(|g| g.kind);
    let charging = ctx.plan.charge.is_some_and(|c| c.start <= t && t <= c.stop);
    Some(match kind {
        EvBatteryLevel => row.with("percent", Val::F(r1(ctx.battery_percent(t)))),
        EvBatteryVoltage => row
            .with("voltage", Val::F(r2(ev_voltage(ctx, t))))
            .with("unit", Val::S("V")),
        EvBatteryCurrent => {
            let kw = ev_power_kw(ctx, seg, charging);
            let amps = if charging { -kw } else { kw } * 1000.0 / ev_voltage(ctx, t);
            row.with("current", Val::F(r1(amps)))
                .with("unit", Val::S("A"))
        }
        EvBatteryTemperature => {
            let rise = if charging {
                6.0
            } else if seg.is_some() {
                9.0
            } else {
                2.0
            };
            row.with("temperature", Val::F(r1(m.ambient_c(t) + rise)))
                .with("unit", Val::S("°C"))
        }
        EvBatteryHealth => {
            let years = (t.div_euclid(SECS_PER_DAY) - m.commissioned_day) as f64 / 365.25;
            row.with("percent", Val::F(r1(100.0 - 2.5 * years)))
        }
        EvChargingState => {
            let state = if charging {
                "charging"
            } else if seg.is_some() {
                "discharging"
            } else {
                "idle"
            };
            row.with("state", Val::S(state))
        }
        EvChargingRate => row
            .with("power", Val::F(r2(ev_power_kw(ctx, None, true))))
            .with("unit", Val::S("kW")),
        EvDischargingRate => row
            .with("power", Val::F(r2(ev_power_kw(ctx, seg, false))))
            .with("unit", Val::S("kW")),
        EvEnergyUsedFaults => row
            .with("energy", Val::F(r2(ctx.totals_until(t).energy_used_kwh)))
            .with("unit", Val::S("kWh")),
        _ => return None,
    })
}

fn ev_voltage(ctx: &DayCtx, t: i64) -> f64 {
    // A 48 V pack: ~44 V empty to ~54 V full.
    44.0 + 10.0 * ctx.battery_percent(t) / 100.0
}

fn ev_power_kw(ctx: &DayCtx, seg: Option<SegKind>, charging: bool) -> f64 {
    let kw = ctx.m.model.work_kw;
    if charging {
        return ctx.plan.charge.map_or(0.0, |c| c.power_kw);
    }
    match seg {
        Some(SegKind::Work) => kw,
        Some(SegKind::Move { .. }) => kw * 0.7,
        Some(SegKind::Idle) => kw * 0.08,
        None => 0.0,
    }
}
