//! Positions and activities (moves): the day plans' tracks read at the
//! instants the machine's feed reports.

use super::rows::r1;
use crate::api::model::{ActivityRow, PositionRow, Timestamp};
use crate::api::time::{SECS_PER_DAY, TimeWindow};
use crate::sandbox::simulate::day::{Cumulative, SegKind};
use crate::sandbox::simulate::machine::{Feed, LatLon, Machine, address, haversine_m, rounded};
use crate::sandbox::simulate::{DayCtx, Simulator};

impl Simulator {
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
