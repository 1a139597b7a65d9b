//! A machine's snapshot (D2): for each kind it shows, the last row at or
//! before now of that kind's single-kind endpoint, with that row's date. A
//! kind the machine cannot report, or did not report within a year, is
//! absent.

use super::rows::{Flow, KindRow, Val};
use super::values::supports;
use crate::simulate::machine::Machine;
use crate::simulate::simulator::Simulator;
use fleetview_api::DataKind;
use fleetview_api::equipment::{
    EquipmentSnapshot, SnapCount, SnapFuelUsed, SnapHours, SnapOdometer, SnapOperatingHours,
    SnapPayload, SnapPercent, SnapPosition, SnapSpeed,
};
use fleetview_api::limits::MAX_EQUIPMENT_WINDOW_DAYS;
use fleetview_api::model::{PositionRow, Timestamp};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};

/// How far back the last row is looked for, in days, in turn: a machine
/// that ran today is found in the first step, one idle for weeks in a
/// later one, at the cost of reading only as far back as needed. The last
/// step is the most one request for a machine covers (D13).
const LOOK_BACK_DAYS: [i64; 4] = [1, 7, 31, MAX_EQUIPMENT_WINDOW_DAYS];

impl Simulator {
    pub(crate) fn snapshot(&self, m: &Machine) -> EquipmentSnapshot {
        use DataKind::*;
        let last = |kind| self.last_value_row(m, kind);
        let percent = |kind| {
            last(kind).map(|r| SnapPercent {
                date: Some(Timestamp::from_secs(r.date)),
                percent: number(&r, "percent"),
            })
        };
        let hours = |kind| {
            last(kind).map(|r| SnapHours {
                date: Some(Timestamp::from_secs(r.date)),
                hours: number(&r, "hours"),
            })
        };
        EquipmentSnapshot {
            id: m.id,
            name: Some(m.name.clone()),
            last_position: self.last_position(m).map(|p| SnapPosition {
                date: Some(p.date),
                latitude: Some(p.latitude),
                longitude: Some(p.longitude),
            }),
            fuel_remaining: percent(FuelRemaining),
            cumulative_operating_hours: last(CumulativeOperatingHours).map(|r| {
                SnapOperatingHours {
                    date: Some(Timestamp::from_secs(r.date)),
                    hour: number(&r, "hour"),
                    usage_hours: number(&r, "usageHours"),
                }
            }),
            cumulative_idle_hours: hours(CumulativeIdleHours),
            cumulative_distance: last(CumulativeDistance).map(|r| SnapOdometer {
                date: Some(Timestamp::from_secs(r.date)),
                odometer: number(&r, "odometer"),
                unit: text(&r, "unit"),
            }),
            cumulative_fuel_used: last(CumulativeFuel).map(|r| SnapFuelUsed {
                date: Some(Timestamp::from_secs(r.date)),
                fuel_used: number(&r, "fuelUsed"),
                unit: text(&r, "unit"),
            }),
            cumulative_load_count: last(CumulativeLoadCount).map(|r| SnapCount {
                date: Some(Timestamp::from_secs(r.date)),
                count: number(&r, "count"),
            }),
            cumulative_payload_total: last(CumulativePayloadTotal).map(|r| SnapPayload {
                date: Some(Timestamp::from_secs(r.date)),
                payload: number(&r, "payload"),
                payload_unit: text(&r, "payloadUnit"),
            }),
            peak_daily_speed: last(PeakDailySpeed).map(|r| SnapSpeed {
                date: Some(Timestamp::from_secs(r.date)),
                speed: number(&r, "speed"),
                speed_unit: text(&r, "speedUnit"),
            }),
            average_daily_engine_load_factor: percent(AverageDailyEngineLoadFactor),
            def_remaining_ratio: percent(DefRemainingRatio),
            cumulative_active_regeneration_hours: hours(CumulativeActiveRegenerationHours),
            cumulative_power_take_off_hours: hours(CumulativePowerTakeOffHours),
        }
    }

    fn last_value_row(&self, m: &Machine, kind: DataKind) -> Option<KindRow> {
        if !supports(m, kind) {
            return None;
        }
        last_looking_back(self.now(), |w, keep| {
            self.try_for_each_value_row(m, kind, w, keep)
        })
    }

    fn last_position(&self, m: &Machine) -> Option<PositionRow> {
        last_looking_back(self.now(), |w, keep| self.try_for_each_position(m, w, keep))
    }
}

/// The last row `rows` hands over in a window ending at `now`, reaching
/// back [`LOOK_BACK_DAYS`] in turn; each step reads only the days before
/// those the last step read, and only the last row is kept (D13).
fn last_looking_back<R>(
    now: i64,
    mut rows: impl FnMut(TimeWindow, &mut dyn FnMut(R) -> Flow) -> Flow,
) -> Option<R> {
    let mut until = now;
    for days in LOOK_BACK_DAYS {
        let since = now - days * SECS_PER_DAY;
        let mut last = None;
        let _ = rows(TimeWindow { since, until }, &mut |r| {
            last = Some(r);
            Flow::Continue(())
        });
        if last.is_some() {
            return last;
        }
        until = since - 1;
    }
    None
}

fn number(row: &KindRow, name: &str) -> Option<f64> {
    match row.get(name)? {
        Val::F(x) => Some(x),
        Val::OptF(x) => x,
        Val::I(n) => Some(n as f64),
        Val::B(_) | Val::S(_) => None,
    }
}

fn text(row: &KindRow, name: &str) -> Option<String> {
    match row.get(name)? {
        Val::S(s) => Some(s.to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows at the given instants, the windows asked for recorded.
    fn look(now: i64, at: &[i64]) -> (Option<i64>, Vec<TimeWindow>) {
        let mut asked = Vec::new();
        let found = last_looking_back(now, |w: TimeWindow, keep: &mut dyn FnMut(i64) -> Flow| {
            asked.push(w);
            for t in at.iter().copied().filter(|t| w.contains(*t)) {
                keep(t)?;
            }
            Flow::Continue(())
        });
        (found, asked)
    }

    #[test]
    fn the_last_row_is_found_reading_back_only_as_far_as_needed() {
        let now = 1_750_000_000;
        let day = SECS_PER_DAY;
        // Today: one step, the last of the rows in it.
        let (found, asked) = look(now, &[now - 9 * day, now - 3600, now - 60]);
        assert_eq!((found, asked.len()), (Some(now - 60), 1));
        // Idle for three weeks: found in the third step.
        let (found, asked) = look(now, &[now - 40 * day, now - 21 * day]);
        assert_eq!((found, asked.len()), (Some(now - 21 * day), 3));
        // Steps read adjacent, disjoint windows, a year back at most.
        let (found, asked) = look(now, &[now - 400 * day]);
        assert_eq!(found, None);
        assert_eq!(asked.len(), LOOK_BACK_DAYS.len());
        assert_eq!(asked[0].until, now);
        for pair in asked.windows(2) {
            assert_eq!(pair[1].until, pair[0].since - 1);
        }
        let oldest = asked.last().map_or(now, |w| w.since);
        assert_eq!(now - oldest, MAX_EQUIPMENT_WINDOW_DAYS * day);
        // A row exactly at now, or exactly at a step's start, is found.
        assert_eq!(look(now, &[now]).0, Some(now));
        assert_eq!(look(now, &[now - 7 * day]).0, Some(now - 7 * day));
    }
}
