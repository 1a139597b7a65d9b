//! Fault codes: a few a day on machines with a recurring problem, rarely on
//! the rest, at times that do not move as the clock advances.

use super::rows::Flow;
use crate::simulate::catalogue::fault_codes::{DIESEL_FAULTS, ELECTRIC_FAULTS, level_label};
use crate::simulate::machine::{Machine, hash3, unit};
use crate::simulate::simulator::Simulator;
use fleetview_api::model::{FaultRow, Timestamp};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};

impl Simulator {
    // Only the tests build whole answers this way; the server streams them.
    #[cfg(test)]
    pub(crate) fn faults(&self, m: &Machine, w: TimeWindow) -> Vec<FaultRow> {
        let mut rows = Vec::new();
        let _ = self.try_for_each_fault(m, w, |r| {
            rows.push(r);
            Flow::Continue(())
        });
        rows
    }

    /// Faults in time order, handed to `emit` as each day's are made.
    pub(crate) fn try_for_each_fault(
        &self,
        m: &Machine,
        w: TimeWindow,
        mut emit: impl FnMut(FaultRow) -> Flow,
    ) -> Flow {
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
                    // A silent feed reports no fault either.
                    (self.in_window(w, t) && !plan.is_silent(t)).then(|| FaultRow {
                        date: Timestamp::from_secs(t),
                        description: code.description.to_owned(),
                        identifier: code.identifier.to_owned(),
                        severity: Some(code.severity),
                        level_label: Some(level_label(code.severity).to_owned()),
                    })
                })
                .collect();
            day_rows.sort_by_key(|r| r.date);
            for r in day_rows {
                emit(r)?;
            }
        }
        Flow::Continue(())
    }
}
