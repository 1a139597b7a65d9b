//! The JSON of the series and history operations, written a row at a time
//! into a [`JsonOut`] as the simulator makes the rows (D13), so no answer
//! is ever whole in memory. Rows are written as serde (or, for positions,
//! [`super::encode`]) writes them; a list's `total` follows its rows, since
//! it is only known at the end (JSON members are unordered).

use serde::Serialize;

use super::encode::{PositionEncoder, series_head, series_tail};
use super::simulate::series::Flow;
use super::simulate::{FIRST_ID, Machine, Simulator};
use super::stream::JsonOut;
use fleetview_api::DataKind;
use fleetview_api::model::*;
use fleetview_api::time::TimeWindow;

/// What `/v2/fleet/equipments/{id}/{kind}` can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Faults,
    History,
    Kind(DataKind),
}

/// The answer of `/v2/fleet/equipments/{id}/{kind}` for `op`.
pub fn equipment(
    sim: &Simulator,
    m: &Machine,
    op: Operation,
    w: TimeWindow,
    out: &mut impl JsonOut,
) -> Flow {
    if op == Operation::History {
        out.out().extend_from_slice(b"{\"data\":");
        history(sim, m, w, Variant::Equipment, out)?;
        out.out().push(b'}');
        return Flow::Continue(());
    }
    series_head(out.out());
    let mut n = 0;
    match op {
        Operation::Kind(DataKind::Positions) => {
            let mut encoder = PositionEncoder::new();
            sim.try_for_each_position(m, w, |r| {
                let buf = out.out();
                if n > 0 {
                    buf.push(b',');
                }
                n += 1;
                encoder.row(buf, &r);
                out.flow()
            })?;
        }
        Operation::Kind(DataKind::Activities) => {
            sim.try_for_each_activity(m, w, |r| list_row(out, &mut n, &r))?;
        }
        Operation::Kind(DataKind::DailyUsages) => {
            sim.try_for_each_daily_usage(m, w, |r| list_row(out, &mut n, &r))?;
        }
        Operation::Kind(kind) => {
            sim.try_for_each_value_row(m, kind, w, |r| list_row(out, &mut n, &r))?;
        }
        Operation::Faults => {
            sim.try_for_each_fault(m, w, |r| list_row(out, &mut n, &r))?;
        }
        Operation::History => {}
    }
    series_tail(out.out(), n, m.id, &m.serial_number, w);
    Flow::Continue(())
}

/// A page of the deprecated fleet history: machines `offset..offset+limit`.
pub(crate) fn fleet_history(
    sim: &Simulator,
    w: TimeWindow,
    offset: i64,
    limit: i64,
    out: &mut impl JsonOut,
) -> Flow {
    #[derive(Serialize)]
    struct Head {
        total: i32,
        since: Timestamp,
        until: Timestamp,
    }
    let size = sim.fleet_size() as i64;
    out.out().extend_from_slice(b"{\"data\":");
    object_head(
        out,
        &Head {
            total: size.min(i64::from(i32::MAX)) as i32,
            since: Timestamp::from_secs(w.since),
            until: Timestamp::from_secs(w.until),
        },
    )?;
    out.out().extend_from_slice(b",\"rows\":[");
    let machines = (offset..(offset + limit).min(size)).filter_map(|i| sim.machine(FIRST_ID + i));
    for (k, m) in machines.enumerate() {
        if k > 0 {
            out.out().push(b',');
        }
        history(sim, &m, w, Variant::Fleet, out)?;
    }
    out.out().extend_from_slice(b"]}}");
    Flow::Continue(())
}

/// `/history` of one machine, or one machine of the deprecated fleet
/// history: the same data, less `levelLabel`, `fuelUsed.estimated`, `co2`,
/// PIN and VIN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    Equipment,
    Fleet,
}

fn history(
    sim: &Simulator,
    m: &Machine,
    w: TimeWindow,
    variant: Variant,
    out: &mut impl JsonOut,
) -> Flow {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Head<'a> {
        id: i64,
        name: &'a str,
        make: &'a str,
        model: &'a str,
        serial_number: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        pin: Option<Option<&'a str>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        vin: Option<Option<&'a str>>,
    }
    let equipment = variant == Variant::Equipment;
    object_head(
        out,
        &Head {
            id: m.id,
            name: &m.name,
            make: m.model.make,
            model: m.model.model,
            serial_number: &m.serial_number,
            pin: equipment.then_some(m.pin.as_deref()),
            vin: equipment.then_some(m.vin.as_deref()),
        },
    )?;
    page(out, "positions", |emit| {
        sim.try_for_each_position(m, w, |p| {
            emit(&HistoryPositionRow {
                latitude: p.latitude,
                longitude: p.longitude,
                date: p.date,
            })
        })
    })?;
    page(out, "faultCodes", |emit| {
        sim.try_for_each_fault(m, w, |f| match variant {
            Variant::Equipment => emit(&HistoryFaultRow {
                level_label: f.level_label,
                severity: f.severity,
                identifier: f.identifier,
                description: f.description,
                date: f.date,
            }),
            Variant::Fleet => emit(&FleetFaultRow {
                severity: f.severity,
                identifier: f.identifier,
                description: f.description,
                date: f.date,
            }),
        })
    })?;
    page(out, "fuelRemainings", |emit| {
        sim.try_for_each_fuel_remaining(m, w, |r| emit(&r))
    })?;
    page(out, "engineConditions", |emit| {
        sim.try_for_each_engine_condition(m, w, |r| emit(&r))
    })?;
    page(out, "dailyUsages", |emit| {
        sim.try_for_each_daily_usage(m, w, |r| match variant {
            Variant::Equipment => emit(&r),
            Variant::Fleet => emit(&FleetDailyUsageRow::from(r)),
        })
    })?;
    out.out().push(b'}');
    Flow::Continue(())
}

/// A row handed to a page: any of the row types.
type Emit<'e> = dyn FnMut(&dyn erased::Row) -> Flow + 'e;

/// `,"name":{"rows":[...],"total":N}`, rows from `rows`.
fn page(out: &mut impl JsonOut, name: &str, rows: impl FnOnce(&mut Emit<'_>) -> Flow) -> Flow {
    let buf = out.out();
    buf.extend_from_slice(b",\"");
    buf.extend_from_slice(name.as_bytes());
    buf.extend_from_slice(b"\":{\"rows\":[");
    let mut n = 0;
    rows(&mut |r: &dyn erased::Row| {
        let buf = out.out();
        if n > 0 {
            buf.push(b',');
        }
        n += 1;
        r.write(buf)?;
        out.flow()
    })?;
    let buf = out.out();
    buf.extend_from_slice(b"],\"total\":");
    buf.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    buf.push(b'}');
    Flow::Continue(())
}

/// One more row of a list: a comma after the first, the row as serde
/// writes it, then a chance to hand the bytes on.
fn list_row<R: Serialize>(out: &mut impl JsonOut, n: &mut usize, r: &R) -> Flow {
    let buf = out.out();
    if *n > 0 {
        buf.push(b',');
    }
    *n += 1;
    write_json(buf, r)?;
    out.flow()
}

/// An object's members but its closing brace, to be followed by more.
fn object_head<T: Serialize>(out: &mut impl JsonOut, head: &T) -> Flow {
    let buf = out.out();
    write_json(buf, head)?;
    // serde wrote `{...}`: reopen it.
    buf.pop();
    Flow::Continue(())
}

/// Writes `v` as serde does. Writing into a Vec cannot fail and our types
/// always serialise; should one not, the answer is broken off rather than
/// sent malformed.
fn write_json<T: Serialize + ?Sized>(buf: &mut Vec<u8>, v: &T) -> Flow {
    match serde_json::to_writer(buf, v) {
        Ok(()) => Flow::Continue(()),
        Err(e) => {
            tracing::error!("serialising a row: {e}");
            Flow::Break(())
        }
    }
}

/// Rows of different types through one callback.
mod erased {
    use super::{Flow, Serialize, write_json};

    pub(crate) trait Row {
        fn write(&self, buf: &mut Vec<u8>) -> Flow;
    }

    impl<T: Serialize> Row for T {
        fn write(&self, buf: &mut Vec<u8>) -> Flow {
            write_json(buf, self)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::clock::Clock;
    use fleetview_api::time::{SECS_PER_DAY, days_from_civil};

    fn now() -> i64 {
        days_from_civil(2025, 6, 18) * SECS_PER_DAY + 15 * 3600 + 1800
    }

    fn written(f: impl FnOnce(&mut Vec<u8>) -> Flow) -> Value {
        let mut out = Vec::new();
        assert!(f(&mut out).is_continue());
        serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{e}"))
    }

    fn as_value<T: Serialize>(v: &T) -> Value {
        serde_json::to_value(v).unwrap_or_else(|e| panic!("{e}"))
    }

    fn series<R: Serialize>(m: &Machine, w: TimeWindow, rows: Vec<R>) -> Value {
        as_value(&Envelope {
            data: SeriesData {
                total: rows.len() as i64,
                rows,
                id: m.id,
                serial_number: m.serial_number.clone(),
                since: Timestamp::from_secs(w.since),
                until: Timestamp::from_secs(w.until),
            },
        })
    }

    /// Written a row at a time, every operation is the same JSON value as
    /// the whole answer serde writes from the simulator's lists.
    #[test]
    fn streamed_answers_are_the_same_json_as_whole_ones() {
        let sim = Simulator::new(60, Clock::Fixed(now()));
        // Off day boundaries, over a few days.
        let w = TimeWindow {
            since: now() - 3 * SECS_PER_DAY - 7_777,
            until: now() - 3_600,
        };
        for i in [0, 2, 6, 7, 42] {
            let m = Machine::at_index(i);
            let op = |op| written(|out| equipment(&sim, &m, op, w, out));
            assert_eq!(
                op(Operation::Kind(DataKind::Positions)),
                series(&m, w, sim.positions(&m, w)),
                "{}",
                m.name
            );
            assert_eq!(op(Operation::Faults), series(&m, w, sim.faults(&m, w)));
            assert_eq!(
                op(Operation::Kind(DataKind::Activities)),
                series(&m, w, sim.activities(&m, w))
            );
            assert_eq!(
                op(Operation::Kind(DataKind::DailyUsages)),
                series(&m, w, sim.daily_usages(&m, w))
            );
            for kind in [
                DataKind::FuelRemaining,
                DataKind::EngineCondition,
                DataKind::CumulativeOperatingHours,
                DataKind::DailyFuel,
                DataKind::EvBatteryLevel,
            ] {
                let crate::simulate::series::Rows::Values(rows) = sim.kind_rows(&m, kind, w) else {
                    panic!("{kind:?} has values");
                };
                assert_eq!(op(Operation::Kind(kind)), series(&m, w, rows), "{kind:?}");
            }
            assert_eq!(
                op(Operation::History),
                as_value(&Envelope {
                    data: sim.history(&m, w)
                }),
                "{}",
                m.name
            );
        }
        let page = written(|out| fleet_history(&sim, w, 55, 10, out));
        let whole = FleetHistory {
            total: 60,
            since: Timestamp::from_secs(w.since),
            until: Timestamp::from_secs(w.until),
            rows: (55..60)
                .filter_map(|i| sim.machine(FIRST_ID + i))
                .map(|m| sim.fleet_equipment(&m, w))
                .collect(),
        };
        assert_eq!(page, as_value(&Envelope { data: whole }));
    }

    /// A writer stops at the row after its reader says stop.
    #[test]
    fn a_writer_stops_when_told() {
        struct StopAfter(Vec<u8>, usize);
        impl JsonOut for StopAfter {
            fn out(&mut self) -> &mut Vec<u8> {
                &mut self.0
            }
            fn flow(&mut self) -> Flow {
                self.1 = self.1.saturating_sub(1);
                if self.1 == 0 {
                    Flow::Break(())
                } else {
                    Flow::Continue(())
                }
            }
        }
        let sim = Simulator::new(60, Clock::Fixed(now()));
        let m = Machine::at_index(2);
        let w = TimeWindow {
            since: now() - 30 * SECS_PER_DAY,
            until: now(),
        };
        for op in [
            Operation::Kind(DataKind::Positions),
            Operation::Kind(DataKind::FuelRemaining),
            Operation::History,
        ] {
            let mut out = StopAfter(Vec::new(), 10);
            assert!(equipment(&sim, &m, op, w, &mut out).is_break(), "{op:?}");
            assert!(out.0.len() < 10_000, "{op:?}: {} bytes", out.0.len());
        }
    }
}
