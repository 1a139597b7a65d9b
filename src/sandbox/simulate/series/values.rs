//! Rows of every data kind over a window, read off the day plans.
//!
//! Row shapes follow D7: every row has `date`; values are named as in the
//! daily-usage members (`hour`, `fuelUsed`+`unit`, `odometer`+`unit`, `count`,
//! `payload`+`payloadUnit`, `percent`, `speed`+`speedUnit`, `weight`+`unit`)
//! or plainly (`voltage`, `temperature`, `current`, `energy`, `power`, `state`,
//! `value`) with a `unit` where one applies.

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::catalogue::fault_codes::{DIESEL_FAULTS, ELECTRIC_FAULTS, level_label};
use super::day::{Cumulative, SegKind, Totals};
use super::machine::{
    Feed, LatLon, Machine, address, hash3, haversine_m, round_to, rounded, unit,
};
use super::{DayCtx, Simulator, is_refuel_day};
use crate::api::DataKind;
use crate::api::model::*;
use crate::api::time::{SECS_PER_DAY, TimeWindow};

/// One value of a data-kind row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val {
    F(f64),
    OptF(Option<f64>),
    I(i64),
    B(bool),
    S(&'static str),
}

/// A data-kind row: `date` and up to three named values, serialised as a
/// flat JSON object without building a `serde_json::Value`.
#[derive(Debug, Clone, PartialEq)]
pub struct KindRow {
    pub date: i64,
    fields: [(&'static str, Val); 3],
    len: u8,
}

impl KindRow {
    fn new(date: i64) -> Self {
        Self {
            date,
            fields: [("", Val::I(0)); 3],
            len: 0,
        }
    }

    fn with(mut self, name: &'static str, v: Val) -> Self {
        if (self.len as usize) < self.fields.len() {
            self.fields[self.len as usize] = (name, v);
            self.len += 1;
        }
        self
    }

    pub fn fields(&self) -> &[(&'static str, Val)] {
        &self.fields[..self.len as usize]
    }

    pub fn get(&self, name: &str) -> Option<Val> {
        self.fields().iter().find(|f| f.0 == name).map(|f| f.1)
    }
}

impl Serialize for KindRow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1 + self.len as usize))?;
        map.serialize_entry("date", &Timestamp(self.date))?;
        for (name, v) in self.fields() {
            match v {
                Val::F(x) => map.serialize_entry(name, x)?,
                Val::OptF(x) => map.serialize_entry(name, x)?,
                Val::I(x) => map.serialize_entry(name, x)?,
                Val::B(x) => map.serialize_entry(name, x)?,
                Val::S(x) => map.serialize_entry(name, x)?,
            }
        }
        map.end()
    }
}

/// The rows of one `{dataKind}` request.
#[derive(Debug)]
pub enum Rows {
    Positions(Vec<PositionRow>),
    Activities(Vec<ActivityRow>),
    DailyUsages(Vec<DailyUsageRow>),
    Values(Vec<KindRow>),
}

impl Rows {
    pub fn len(&self) -> usize {
        match self {
            Rows::Positions(r) => r.len(),
            Rows::Activities(r) => r.len(),
            Rows::DailyUsages(r) => r.len(),
            Rows::Values(r) => r.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn r1(v: f64) -> f64 {
    round_to(v, 10.0)
}

fn r2(v: f64) -> f64 {
    round_to(v, 100.0)
}

fn hours(secs: i64) -> f64 {
    r2(secs as f64 / 3600.0)
}

/// Whether a machine reports a kind at all; others answer with no rows (D6).
pub fn supports(m: &Machine, kind: DataKind) -> bool {
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

// ------------------------------------------------------------- instants

/// Sensor report instants while the engine runs: each session's start,
/// every period after it, and its stop.
fn session_instants(ctx: &DayCtx) -> Vec<i64> {
    let period = ctx.m.feed.sensor_period_secs();
    let mut out = Vec::new();
    for s in &ctx.plan.sessions {
        out.extend((s.start..s.stop).step_by(period as usize));
        if s.stopped || out.last() != Some(&s.stop) {
            out.push(s.stop);
        }
    }
    out.dedup();
    out
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

/// Position report instants of a day: periodic while running, at the start
/// and end of every move, and (trackers) keep-alives while parked.
fn position_instants(ctx: &DayCtx) -> Vec<i64> {
    let plan = &ctx.plan;
    let mut out = Vec::new();
    let (running_period, keepalive) = match ctx.m.feed {
        Feed::Oem { period_secs } => (period_secs, None),
        Feed::Tracker {
            moving_secs,
            keepalive_secs,
        } => (moving_secs, Some(keepalive_secs)),
    };
    for s in &plan.sessions {
        out.extend((s.start..s.stop).step_by(running_period as usize));
        if s.stopped {
            out.push(s.stop);
        }
        for g in &s.segments {
            if matches!(g.kind, SegKind::Move { .. }) {
                out.push(g.start);
                out.push(g.stop);
            }
        }
    }
    if let Some(ka) = keepalive {
        let phase = (ctx.m.seed % ka as u64) as i64;
        let first = plan.day_start() + (phase - plan.day_start()).rem_euclid(ka);
        out.extend(
            (first..=plan.day_end())
                .step_by(ka as usize)
                .filter(|t| !plan.running_at(*t)),
        );
    }
    out.sort_unstable();
    out.dedup();
    out
}

// --------------------------------------------------------------- walking

impl Simulator {
    /// Calls `f` for each day of `m` that overlaps `w` and has begun, with
    /// the running sums carried forward instead of recomputed per day.
    fn walk_days(&self, m: &Machine, w: TimeWindow, sums: bool, mut f: impl FnMut(&DayCtx)) {
        let now = self.now();
        let first = w.since.div_euclid(SECS_PER_DAY).max(m.commissioned_day);
        let last = w.until.min(now).div_euclid(SECS_PER_DAY);
        if first > last {
            return;
        }
        let mut ctx = self.day_context(m, first, now, sums);
        loop {
            f(&ctx);
            let day = ctx.plan.day + 1;
            if day > last {
                break;
            }
            let totals = ctx.day_totals();
            let fuel_at_start = if ctx.refuel.is_some() {
                totals.fuel_l
            } else {
                ctx.fuel_at_start + totals.fuel_l
            };
            let before = ctx.before.plus(&totals);
            let plan = m.plan(day, now);
            let refuel = if m.model.tank_l > 0.0 && is_refuel_day(m, day) {
                plan.sessions.first().map(|s| s.start)
            } else {
                None
            };
            ctx = DayCtx {
                m,
                plan,
                before,
                refuel,
                fuel_at_start,
            };
        }
    }

    fn in_window(&self, w: TimeWindow, t: i64) -> bool {
        w.contains(t) && t <= self.now()
    }

    // ---------------------------------------------------------- positions

    pub fn positions(&self, m: &Machine, w: TimeWindow) -> Vec<PositionRow> {
        let mut rows = Vec::new();
        self.for_each_position(m, w, |r| rows.push(r));
        rows
    }

    /// Positions in time order, handed to `emit` as they are made.
    pub fn for_each_position(&self, m: &Machine, w: TimeWindow, mut emit: impl FnMut(PositionRow)) {
        let now = self.now();
        let first = w.since.div_euclid(SECS_PER_DAY).max(m.commissioned_day);
        let last = w.until.min(now).div_euclid(SECS_PER_DAY);
        // Positions need only the plans, not the running sums.
        for day in first..=last {
            let plan = m.plan(day, now);
            let ctx = DayCtx {
                m,
                plan,
                before: Cumulative::default(),
                refuel: None,
                fuel_at_start: 0.0,
            };
            let mut track = ctx.plan.track();
            for t in position_instants(&ctx) {
                if self.in_window(w, t) {
                    emit(position_row(m, track.at(t), t));
                }
            }
        }
    }

    pub fn activities(&self, m: &Machine, w: TimeWindow) -> Vec<ActivityRow> {
        let mut rows = Vec::new();
        let now = self.now();
        let first = w.since.div_euclid(SECS_PER_DAY).max(m.commissioned_day);
        let last = w.until.min(now).div_euclid(SECS_PER_DAY);
        for day in first..=last {
            let plan = m.plan(day, now);
            let ctx = DayCtx {
                m,
                plan,
                before: Cumulative::default(),
                refuel: None,
                fuel_at_start: 0.0,
            };
            let instants = position_instants(&ctx);
            for g in ctx.plan.segments() {
                if !matches!(g.kind, SegKind::Move { .. }) || !self.in_window(w, g.start) {
                    continue;
                }
                // The activity is measured on the positions reported inside it.
                let points: Vec<_> = instants
                    .iter()
                    .filter(|t| g.start <= **t && **t <= g.stop)
                    .map(|t| rounded(ctx.plan.position_at(*t).0))
                    .collect();
                let distance_m: f64 = points.windows(2).map(|p| haversine_m(p[0], p[1])).sum();
                let secs = (g.stop - g.start).max(1) as f64;
                let (Some(first), Some(last)) = (points.first(), points.last()) else {
                    continue;
                };
                rows.push(ActivityRow {
                    date_start: Timestamp(g.start),
                    date_stop: Timestamp(g.stop),
                    distance_meters: r1(distance_m),
                    average_speed_km_h: r1(distance_m / secs * 3.6),
                    first_position_address: address(*first),
                    last_position_address: address(*last),
                });
            }
        }
        rows
    }

    pub fn faults(&self, m: &Machine, w: TimeWindow) -> Vec<FaultRow> {
        let now = self.now();
        let first = w.since.div_euclid(SECS_PER_DAY).max(m.commissioned_day);
        let last = w.until.min(now).div_euclid(SECS_PER_DAY);
        // A few machines have a recurring problem; the rest fault rarely.
        let rate = if unit(hash3(m.seed, 0xFA, 0)) < 0.2 {
            0.9
        } else {
            0.12
        };
        let table = if m.is_electric() {
            ELECTRIC_FAULTS
        } else {
            DIESEL_FAULTS
        };
        let mut rows = Vec::new();
        for day in first..=last {
            if !m.is_working_day(day) {
                continue;
            }
            // Fault times come from the full plan so they do not move as
            // the clock advances; those after now are not there yet.
            let plan = m.full_plan(day);
            let u = unit(hash3(m.seed, day as u64, 0xFA1));
            let count = if u < rate * 0.2 {
                2
            } else if u < rate {
                1
            } else {
                0
            };
            let mut day_rows: Vec<FaultRow> = (0..count)
                .filter_map(|i| {
                    let h = hash3(m.seed, day as u64, 0xFA2 + i);
                    let s = &plan.sessions[(h % plan.sessions.len() as u64) as usize];
                    let t = s.start + ((s.stop - s.start) as f64 * unit(h >> 7)) as i64;
                    let code = &table[((h >> 29) % table.len() as u64) as usize];
                    self.in_window(w, t).then(|| FaultRow {
                        date: Timestamp(t),
                        description: code.description.to_owned(),
                        identifier: code.identifier.to_owned(),
                        severity: Some(code.severity),
                        level_label: Some(level_label(code.severity).to_owned()),
                    })
                })
                .collect();
            day_rows.sort_by_key(|r| r.date);
            rows.extend(day_rows);
        }
        rows
    }

    pub fn daily_usages(&self, m: &Machine, w: TimeWindow) -> Vec<DailyUsageRow> {
        let mut rows = Vec::new();
        if !has_day_start(w) {
            return rows;
        }
        self.walk_days(m, w, true, |ctx| {
            if self.in_window(w, ctx.day_start()) {
                rows.push(daily_usage_row(ctx));
            }
        });
        rows
    }

    /// Rows of any data kind; kinds the machine cannot report have none.
    pub fn kind_rows(&self, m: &Machine, kind: DataKind, w: TimeWindow) -> Rows {
        match kind {
            DataKind::Positions => return Rows::Positions(self.positions(m, w)),
            DataKind::Activities => return Rows::Activities(self.activities(m, w)),
            DataKind::DailyUsages => return Rows::DailyUsages(self.daily_usages(m, w)),
            _ => {}
        }
        let mut rows = Vec::new();
        if !supports(m, kind) || (kind.is_daily() && !has_day_start(w)) {
            return Rows::Values(rows);
        }
        self.walk_days(m, w, needs_sums(kind), |ctx| {
            if kind.is_daily() {
                if self.in_window(w, ctx.day_start()) {
                    rows.extend(daily_value_row(ctx, kind));
                }
                return;
            }
            if kind == DataKind::EngineCondition {
                for s in &ctx.plan.sessions {
                    let events = [(s.start, false), (s.stop, true)];
                    for (t, running) in events.into_iter().take(if s.stopped { 2 } else { 1 }) {
                        if self.in_window(w, t) {
                            rows.push(KindRow::new(t).with("running", Val::B(running)));
                        }
                    }
                }
                return;
            }
            let mut instants = Vec::new();
            if !matches!(kind, DataKind::EvChargingRate) {
                instants.extend(session_instants(ctx));
            }
            if charges_matter(kind) {
                instants.extend(charge_instants(ctx));
            }
            for t in instants {
                if self.in_window(w, t) {
                    rows.extend(instant_value_row(ctx, kind, t));
                }
            }
        });
        Rows::Values(rows)
    }

    pub fn history(&self, m: &Machine, w: TimeWindow) -> EquipmentHistory {
        let positions = self
            .positions(m, w)
            .into_iter()
            .map(|p| HistoryPositionRow {
                latitude: p.latitude,
                longitude: p.longitude,
                date: p.date,
            })
            .collect();
        let faults = self
            .faults(m, w)
            .into_iter()
            .map(|f| HistoryFaultRow {
                level_label: f.level_label,
                severity: f.severity,
                identifier: f.identifier,
                description: f.description,
                date: f.date,
            })
            .collect();
        EquipmentHistory {
            id: m.id,
            name: m.name.clone(),
            make: m.model.make.to_owned(),
            model: m.model.model.to_owned(),
            serial_number: m.serial_number.clone(),
            pin: m.pin.clone(),
            vin: m.vin.clone(),
            positions: Page::of(positions),
            fault_codes: Page::of(faults),
            fuel_remainings: Page::of(self.fuel_remainings(m, w)),
            engine_conditions: Page::of(self.engine_conditions(m, w)),
            daily_usages: Page::of(self.daily_usages(m, w)),
        }
    }

    /// One equipment of the deprecated fleet history: the same data as
    /// `/history`, less `levelLabel`, `fuelUsed.estimated`, `co2`, PIN and VIN.
    pub fn fleet_equipment(&self, m: &Machine, w: TimeWindow) -> FleetEquipment {
        let h = self.history(m, w);
        FleetEquipment {
            id: h.id,
            name: h.name,
            make: h.make,
            model: h.model,
            serial_number: h.serial_number,
            positions: h.positions,
            fault_codes: Page::of(
                h.fault_codes
                    .rows
                    .into_iter()
                    .map(|f| FleetFaultRow {
                        severity: f.severity,
                        identifier: f.identifier,
                        description: f.description,
                        date: f.date,
                    })
                    .collect(),
            ),
            fuel_remainings: h.fuel_remainings,
            engine_conditions: h.engine_conditions,
            daily_usages: Page::of(h.daily_usages.rows.into_iter().map(Into::into).collect()),
        }
    }

    fn fuel_remainings(&self, m: &Machine, w: TimeWindow) -> Vec<FuelRemainingRow> {
        match self.kind_rows(m, DataKind::FuelRemaining, w) {
            Rows::Values(rows) => rows
                .into_iter()
                .filter_map(|r| match r.get("percent") {
                    Some(Val::F(percent)) => Some(FuelRemainingRow {
                        percent,
                        date: Timestamp(r.date),
                    }),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    fn engine_conditions(&self, m: &Machine, w: TimeWindow) -> Vec<EngineConditionRow> {
        match self.kind_rows(m, DataKind::EngineCondition, w) {
            Rows::Values(rows) => rows
                .into_iter()
                .filter_map(|r| match r.get("running") {
                    Some(Val::B(running)) => Some(EngineConditionRow {
                        running,
                        date: Timestamp(r.date),
                    }),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Whether a window holds a 00:00:00Z, the date of daily rows.
fn has_day_start(w: TimeWindow) -> bool {
    w.since.div_euclid(SECS_PER_DAY) != w.until.div_euclid(SECS_PER_DAY)
        || w.since.rem_euclid(SECS_PER_DAY) == 0
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

fn position_row(m: &Machine, (p, speed, heading): (LatLon, f64, f64), t: i64) -> PositionRow {
    let p = rounded(p);
    let tracker = matches!(m.feed, Feed::Tracker { .. });
    // Generic AEMP feeds carry no altitude; OEM feeds no speed or heading.
    let altitude = (m.model.source != "AEMP_GENERIC").then(|| m.altitude_m(p));
    PositionRow {
        date: Timestamp(t),
        latitude: p.lat,
        longitude: p.lon,
        altitude,
        speed: tracker.then(|| r1(speed)),
        heading: tracker.then(|| r1(heading)),
    }
}

// ---------------------------------------------------------------- values

/// Counters as reported: what the machine had at commissioning plus sums.
struct Counters {
    op_h: f64,
    idle_h: f64,
    fuel_l: f64,
    idle_fuel_l: f64,
    distance_km: f64,
    loads: i64,
    payload_t: f64,
    regen_h: f64,
    pto_h: f64,
    cycles: i64,
}

fn counters(m: &Machine, c: &Cumulative) -> Counters {
    let loads = (c.work_secs as f64 * m.model.loads_per_hour / 3600.0).floor() as i64;
    let base_idle_h = m.base_hours * 0.3;
    let cap = m.model.battery_kwh.max(1.0);
    Counters {
        op_h: r2(m.base_hours + c.op_secs as f64 / 3600.0),
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

fn noise(m: &Machine, t: i64, salt: u64) -> f64 {
    unit(hash3(m.seed, t as u64, salt))
}

fn instant_value_row(ctx: &DayCtx, kind: DataKind, t: i64) -> Option<KindRow> {
    use DataKind::*;
    let m = ctx.m;
    let row = KindRow::new(t);
    let seg = ctx.plan.segment_at(t).map(|g| g.kind);
    let charging = ctx.plan.charge.is_some_and(|c| c.start <= t && t <= c.stop);
    let c = || counters(m, &ctx.cumulative_at(t));
    let session_start = ctx
        .plan
        .sessions
        .iter()
        .find(|s| s.start <= t && t <= s.stop)
        .map(|s| s.start);
    Some(match kind {
        CumulativeOperatingHours => row.with("hour", Val::F(c().op_h)),
        CumulativeIdleHours => row.with("hour", Val::F(c().idle_h)),
        CumulativeActiveRegenerationHours => row.with("hour", Val::F(c().regen_h)),
        CumulativePowerTakeOffHours => row.with("hour", Val::F(c().pto_h)),
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
        FuelRemaining => row.with("percent", Val::F(r1(ctx.fuel_percent(t)))),
        DefRemainingRatio => row
            .with("percent", Val::F(r1(ctx.def_percent(t))))
            .with("tankCapacity", Val::F(m.model.def_tank_l))
            .with("tankCapacityUnit", Val::S("L")),
        EngineLoadPercentage => {
            let n = noise(m, t, 1);
            let load = match seg {
                Some(SegKind::Work) => 55.0 + 30.0 * n,
                Some(SegKind::Move { .. }) => 40.0 + 20.0 * n,
                Some(SegKind::Idle) => 12.0 + 8.0 * n,
                None => 0.0,
            };
            row.with("percent", Val::F(r1(load)))
        }
        EngineCoolantTemperature => {
            let amb = m.ambient_c(t);
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
        SensorBoolean => row.with("value", Val::B(matches!(seg, Some(SegKind::Work)))),
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
        EvBatteryChargeCyclesCount => row.with("count", Val::I(c().cycles)),
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

fn daily_value_row(ctx: &DayCtx, kind: DataKind) -> Option<KindRow> {
    use DataKind::*;
    let m = ctx.m;
    let day = ctx.day_start();
    let tot = ctx.day_totals();
    let row = KindRow::new(day);
    let (before, after) = (
        counters(m, &ctx.before),
        counters(m, &ctx.before.plus(&tot)),
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

fn co2_kg(tot: &Totals) -> f64 {
    r2(tot.fuel_l * 2.68)
}

/// Fuel burnt over the fuel the engine would burn at continuous rated output
/// for the hours it ran, percent (energy for electric machines).
fn load_factor(m: &Machine, tot: &Totals) -> f64 {
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

fn daily_usage_row(ctx: &DayCtx) -> DailyUsageRow {
    let m = ctx.m;
    let tot = ctx.day_totals();
    let end = ctx.before.plus(&tot);
    let c = counters(m, &end);
    let ran = tot.ran();
    let ev = m.is_electric();
    let when_ran = |v: f64| Hours {
        hour: ran.then_some(v),
    };
    DailyUsageRow {
        date: Timestamp(ctx.day_start()),
        operating_hours: Some(Hours {
            hour: Some(hours(tot.op_secs)),
        }),
        idle_hours: Some(Hours {
            hour: Some(hours(tot.idle_secs)),
        }),
        working_hours: Some(Hours {
            hour: Some(hours(tot.working_secs())),
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
