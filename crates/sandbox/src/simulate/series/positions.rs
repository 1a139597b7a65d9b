//! Positions and activities (moves): the day plans' tracks read at the
//! instants the machine's feed reports.

use super::rows::{Flow, r1};
use super::values::silence;
use crate::simulate::day_context::DayCtx;
use crate::simulate::day_plan::SegKind;
use crate::simulate::machine::{Feed, LatLon, Machine, address, haversine_m, rounded};
use crate::simulate::planted::Meter;
use crate::simulate::simulator::Simulator;
use crate::simulate::totals::Cumulative;
use fleetview_api::model::{ActivityRow, PositionRow, Timestamp};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};

impl Simulator {
    pub fn positions(&self, m: &Machine, w: TimeWindow) -> Vec<PositionRow> {
        let mut rows = Vec::new();
        self.for_each_position(m, w, |r| rows.push(r));
        rows
    }

    /// Positions in time order, handed to `emit` as they are made.
    pub fn for_each_position(&self, m: &Machine, w: TimeWindow, mut emit: impl FnMut(PositionRow)) {
        let _ = self.try_for_each_position(m, w, |r| {
            emit(r);
            Flow::Continue(())
        });
    }

    /// [`Self::for_each_position`] until `emit` says stop.
    pub(crate) fn try_for_each_position(
        &self,
        m: &Machine,
        w: TimeWindow,
        mut emit: impl FnMut(PositionRow) -> Flow,
    ) -> Flow {
        let now = self.now();
        let first = w.since.div_euclid(SECS_PER_DAY).max(m.commissioned_day);
        let last = w.until.min(now).div_euclid(SECS_PER_DAY);
        // Positions need only the plans, not the running sums.
        for day in first..=last {
            if m.is_laid_up(day) {
                continue;
            }
            let ctx = plan_only(m, day, now);
            let mut track = ctx.plan.track();
            for t in position_instants(&ctx) {
                if self.in_window(w, t) {
                    emit(position_row(m, track.at(t), t))?;
                }
            }
        }
        Flow::Continue(())
    }

    pub(crate) fn activities(&self, m: &Machine, w: TimeWindow) -> Vec<ActivityRow> {
        let mut rows = Vec::new();
        let _ = self.try_for_each_activity(m, w, |r| {
            rows.push(r);
            Flow::Continue(())
        });
        rows
    }

    /// Activities in time order, handed to `emit` as they are made.
    pub(crate) fn try_for_each_activity(
        &self,
        m: &Machine,
        w: TimeWindow,
        mut emit: impl FnMut(ActivityRow) -> Flow,
    ) -> Flow {
        let now = self.now();
        let first = w.since.div_euclid(SECS_PER_DAY).max(m.commissioned_day);
        let last = w.until.min(now).div_euclid(SECS_PER_DAY);
        for day in first..=last {
            let ctx = plan_only(m, day, now);
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
                emit(ActivityRow {
                    date_start: Timestamp::from_secs(g.start),
                    date_stop: Timestamp::from_secs(g.stop),
                    distance_meters: r1(distance_m),
                    average_speed_km_h: r1(distance_m / secs * 3.6),
                    first_position_address: address(*first),
                    last_position_address: address(*last),
                })?;
            }
        }
        Flow::Continue(())
    }
}

/// A day's plan without the running sums (positions and moves need none).
fn plan_only(m: &Machine, day: i64, now: i64) -> DayCtx<'_> {
    DayCtx {
        m,
        plan: m.plan(day, now),
        before: Cumulative::default(),
        refuel: None,
        fuel_at_start: 0.0,
        drained_at_start: 0.0,
        drain: None,
        meter: Meter::factory(m),
        reset: None,
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
    silence(plan, &mut out);
    out
}

fn position_row(m: &Machine, (p, speed, heading): (LatLon, f64, f64), t: i64) -> PositionRow {
    let p = rounded(p);
    let tracker = matches!(m.feed, Feed::Tracker { .. });
    // Generic AEMP feeds carry no altitude; OEM feeds no speed or heading.
    let altitude = (m.model.source != "AEMP_GENERIC").then(|| m.altitude_m(p));
    PositionRow {
        date: Timestamp::from_secs(t),
        latitude: p.lat,
        longitude: p.lon,
        altitude,
        speed: tracker.then(|| r1(speed)),
        heading: tracker.then(|| r1(heading)),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::clock::Clock;
    use crate::simulate::catalogue::models::Class;
    use crate::simulate::totals::totals_until;
    use fleetview_api::time::days_from_civil;

    const DAYS: i64 = 60;

    fn now() -> i64 {
        days_from_civil(2025, 6, 18) * SECS_PER_DAY + 15 * 3600
    }

    fn trucks() -> Vec<Machine> {
        (0..60)
            .map(Machine::at_index)
            .filter(|m| m.class() == Class::RoadTruck)
            .collect()
    }

    fn window() -> TimeWindow {
        let today = now().div_euclid(SECS_PER_DAY);
        TimeWindow {
            since: (today - DAYS) * SECS_PER_DAY,
            until: today * SECS_PER_DAY - 1,
        }
    }

    fn moving(rows: &[PositionRow]) -> impl Iterator<Item = &PositionRow> {
        rows.iter().filter(|r| r.speed.is_some_and(|s| s > 0.0))
    }

    /// Months of a truck's trips trace a few roads again and again, not a
    /// new straight line per trip: most times the track enters a cell of
    /// ~500 m, it has been there before.
    #[test]
    fn road_trucks_drive_the_same_roads_again_and_again() {
        let sim = Simulator::new(60, Clock::Fixed(now()));
        for m in trucks() {
            let rows = sim.positions(&m, window());
            let (mut seen, mut entries, mut revisits, mut last) = (HashSet::new(), 0, 0, None);
            for r in moving(&rows) {
                let cell = (
                    (r.latitude * 200.0).floor() as i64,
                    (r.longitude * 130.0).floor() as i64,
                );
                if last != Some(cell) {
                    entries += 1;
                    if !seen.insert(cell) {
                        revisits += 1;
                    }
                }
                last = Some(cell);
            }
            let reuse = revisits as f64 / entries.max(1) as f64;
            assert!(
                entries > 300 && reuse > 0.6,
                "{}: {revisits} of {entries} cell entries revisit a cell",
                m.name
            );
        }
    }

    /// Roads curve: along one trip the heading changes.
    #[test]
    fn a_trucks_heading_changes_along_a_trip() {
        let sim = Simulator::new(60, Clock::Fixed(now()));
        for m in trucks() {
            let rows = sim.positions(&m, window());
            let acts = sim.activities(&m, window());
            let mut long = 0;
            for a in acts.iter().filter(|a| a.distance_meters > 10_000.0) {
                let headings: HashSet<i64> = moving(&rows)
                    .filter(|r| a.date_start <= r.date && r.date <= a.date_stop)
                    .filter_map(|r| r.heading.map(|h| h.round() as i64))
                    .collect();
                assert!(
                    headings.len() >= 3,
                    "{}: trip at {} keeps {} heading(s)",
                    m.name,
                    a.date_start,
                    headings.len()
                );
                long += 1;
            }
            assert!(long > 10, "{}: {long} trips over 10 km", m.name);
        }
    }

    /// Curves cost a little distance between samples (positions cut
    /// corners), far less than the 10 % at which the app flags a
    /// disagreement with the daily distance.
    #[test]
    fn positions_measure_nearly_the_daily_distance() {
        let sim = Simulator::new(60, Clock::Fixed(now()));
        for m in trucks() {
            let w = window();
            let measured: f64 = sim
                .activities(&m, w)
                .iter()
                .map(|a| a.distance_meters)
                .sum();
            let daily: f64 = (w.since / SECS_PER_DAY..=w.until / SECS_PER_DAY)
                .map(|d| {
                    let plan = m.full_plan(d);
                    totals_until(&m, &plan, plan.day_end()).distance_m
                })
                .sum();
            assert!(daily > 0.0, "{} drives", m.name);
            let ratio = measured / daily;
            assert!(
                (0.99..=1.0001).contains(&ratio),
                "{}: positions measure {ratio:.4} of the daily distance",
                m.name
            );
        }
    }
}
