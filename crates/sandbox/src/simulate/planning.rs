//! Drawing a machine's day from hashes of (machine, day): its moves between
//! stops, the engine hours they leave room for, the idle and work blocks
//! around them, and the sessions those are cut into ([`DayPlan`]).
//!
//! Everything the sandbox serves is derived from these plans, which is what
//! keeps the series consistent with each other: positions only move inside
//! move segments (inside sessions, bounded by engine events), hours and fuel
//! accrue only inside sessions, counters are sums of daily totals.

use super::calendar::weekday;
use super::catalogue::models::Class;
use super::day_plan::{Charge, DayPlan, SegKind, Segment, Session};
use super::local;
use super::machine::{Machine, Rng, hash2, hash3, unit};
use super::path::Path;
use super::planted::Shift;
use super::totals::totals_until;
use super::trips::Stop;
use fleetview_api::time::SECS_PER_DAY;

/// The longest break between two sessions of a day.
const MAX_BREAK_SECS: i64 = 3600;

impl Machine {
    fn moves(&self) -> bool {
        self.class().moves_per_day().1 > 0
    }

    /// Where the machine is at the start of `day`: where it ended its last
    /// working day.
    fn start_stop(&self, day: i64) -> Stop {
        match self.previous_working_day(day) {
            Some(d) if self.moves() => self.end_anchor(d),
            _ => self.home_stop(),
        }
    }

    /// The day as planned, whatever the clock says.
    pub(crate) fn full_plan(&self, day: i64) -> DayPlan {
        let start = self.start_stop(day);
        let start_heading = self
            .previous_working_day(day)
            .and_then(|d| self.sessions_of(d, self.start_stop(d)).1)
            .unwrap_or_else(|| unit(hash2(self.seed, 0x4EAD)) * 360.0);
        let mut plan = DayPlan {
            day,
            start_pos: self.stop_pos(start),
            start_heading: (start_heading * 10.0).round() / 10.0,
            sessions: Vec::new(),
            fuel_factor: 0.85 + 0.3 * unit(hash3(self.seed, day as u64, 0xF0E)),
            charge: None,
            silent: None,
        };
        if !self.is_working_day(day) {
            return plan;
        }
        plan.sessions = self.sessions_of(day, start).0;
        plan.silent = self.silent_span(day, &plan.sessions);
        if self.is_electric() {
            plan.charge = self.charge_after(&plan);
        }
        plan
    }

    /// The day as it has happened by `now`: nothing after `now` exists yet.
    pub(crate) fn plan(&self, day: i64, now: i64) -> DayPlan {
        let mut plan = self.full_plan(day);
        if now < plan.day_end() {
            clip(&mut plan, now);
        }
        plan
    }

    /// Sessions of a working day, and the heading after its last move.
    fn sessions_of(&self, day: i64, start: Stop) -> (Vec<Session>, Option<f64>) {
        // One generator for the whole day, drawn from in this order: moves,
        // engine time, stationary blocks, breaks, shift start.
        let mut rng = Rng::new(hash3(self.seed, day as u64, 0x5E5));
        let weekend = weekday(day) >= 5;
        let gap_day = self.is_gap_day(day);
        // Moves first: they fix how long the machine must run.
        let (moves, heading) = self.day_moves(&mut rng, day, start);
        let move_secs: i64 = moves.iter().map(|m| m.0).sum();
        // The shift, breaks included, must fit in the working hours.
        let working_span = local::working_span_secs(self.site, day);
        let (idle_secs, work_secs) =
            self.engine_secs(&mut rng, weekend, gap_day, move_secs, working_span);
        let pieces = stationary_blocks(&mut rng, &moves, idle_secs, work_secs, gap_day);
        let breaks = session_breaks(&mut rng, weekend || gap_day, pieces.len());
        let total: i64 = pieces.iter().map(|p| p.0).sum();
        let span_secs = total + breaks.iter().sum::<i64>();
        let start_secs = self.first_start_secs(&mut rng, day, span_secs, working_span);
        let sessions = cut_into_sessions(&pieces, &breaks, day * SECS_PER_DAY + start_secs);
        (sessions, heading)
    }

    /// The day's moves, from `start` through a few waypoints to where the
    /// day ends, and the heading after the last one that goes anywhere.
    fn day_moves(&self, rng: &mut Rng, day: i64, start: Stop) -> (Vec<Piece>, Option<f64>) {
        let class = self.class();
        let (lo, hi) = class.moves_per_day();
        let n_moves = if hi == 0 { 0 } else { rng.int(lo, hi) as usize };
        let mut stops = vec![start];
        for _ in 1..n_moves {
            let prev = stops[stops.len() - 1];
            stops.push(self.waypoint(rng, prev));
        }
        if n_moves > 0 {
            stops.push(self.end_anchor(day));
        }
        // A truck whose last stop is where the day ends goes there once.
        stops.dedup();
        let (slo, shi) = class.move_speed_kmh();
        let mut moves: Vec<Piece> = Vec::new();
        let mut heading = None;
        for pair in stops.windows(2) {
            let mut path = self.path_between(pair[0], pair[1]);
            let dist_m = path.length_m();
            let nominal_kmh = rng.range(slo, shi);
            let secs = ((dist_m / (nominal_kmh / 3.6)).round() as i64).max(60);
            let speed_kmh = dist_m / secs as f64 * 3.6;
            if dist_m > 0.0 {
                heading = Some(path.end().1);
            } else if let Path::Line { heading_deg, .. } = &mut path {
                // Not moving keeps the heading it had.
                *heading_deg = heading.unwrap_or_default();
            }
            moves.push((
                secs,
                SegKind::Move {
                    path,
                    speed_kmh,
                    planned_secs: secs,
                },
            ));
        }
        (moves, heading)
    }

    /// How long the engine idles and works besides the moves, `(idle_secs,
    /// work_secs)`: the class's engine hours, less on a weekend, one long
    /// stretch on a gap day, within the working span `(earliest,
    /// latest_end)` less the longest breaks.
    fn engine_secs(
        &self,
        rng: &mut Rng,
        weekend: bool,
        gap_day: bool,
        move_secs: i64,
        (earliest, latest_end): (i64, i64),
    ) -> (i64, i64) {
        let (hlo, hhi) = self.class().engine_hours();
        let mut target_secs = (rng.range(hlo, hhi) * 3600.0) as i64;
        if weekend {
            target_secs = (target_secs as f64 * rng.range(0.2, 0.5)) as i64;
        }
        if gap_day {
            // One long session, for the feed to fall silent in.
            target_secs = target_secs.max((hhi * 0.9 * 3600.0) as i64);
        }
        let room = latest_end - earliest - 2 * MAX_BREAK_SECS;
        let target_secs = target_secs.min(room).max(move_secs + 1800);
        let idle_frac = if self.class() == Class::Generator {
            rng.range(0.1, 0.25)
        } else {
            rng.range(0.2, 0.4)
        };
        let idle_secs =
            ((target_secs - move_secs) as f64).min(target_secs as f64 * idle_frac) as i64;
        (idle_secs, target_secs - move_secs - idle_secs)
    }

    /// When the day's first session starts, in seconds after 00:00 UTC: a
    /// local morning inside the working span on an ordinary day, a planted
    /// night shift's start (or late end) otherwise, the whole `span_secs`
    /// kept inside the UTC day.
    fn first_start_secs(
        &self,
        rng: &mut Rng,
        day: i64,
        span_secs: i64,
        (earliest, latest_end): (i64, i64),
    ) -> i64 {
        let (shift_lo, shift_hi) = match self.class() {
            Class::RoadTruck => (6.2, 7.0),
            _ => (6.2, 8.0),
        };
        let local_start = (rng.range(shift_lo, shift_hi) * 3600.0) as i64;
        let offset = local::offset_secs(self.site, day * SECS_PER_DAY + SECS_PER_DAY / 2);
        // Keep the whole day inside its UTC day.
        let latest = SECS_PER_DAY - 600 - span_secs;
        match self.shift(day) {
            Shift::Day => (local_start - offset)
                .min(latest_end - span_secs)
                .max(earliest),
            Shift::Night {
                start_secs,
                end_secs,
                late,
            } => {
                let late_start = end_secs - offset - span_secs;
                if late && (600..=latest).contains(&late_start) {
                    late_start
                } else {
                    (start_secs - offset).min(latest).max(600)
                }
            }
        }
    }

    fn charge_after(&self, plan: &DayPlan) -> Option<Charge> {
        let last = plan.sessions.last()?;
        let used: f64 = totals_until(self, plan, last.stop).energy_used_kwh;
        if used <= 0.0 {
            return None;
        }
        let start = (last.stop + 900).min(plan.day_end() - 1200);
        let power = (used / ((plan.day_end() - 60 - start) as f64 / 3600.0)).max(6.0);
        let stop = start + ((used / power) * 3600.0).ceil() as i64;
        Some(Charge {
            start,
            stop,
            power_kw: used / ((stop - start) as f64 / 3600.0),
        })
    }
}

/// A stretch of a day's engine time: how long it lasts, in seconds, and
/// what the machine does in it.
type Piece = (i64, SegKind);

/// The day's engine time in order: around each move (and after the last) a
/// stationary block of idle warm-up, work and idle, the blocks weighted at
/// random; on a gap day most of it after the last move, in one stretch.
/// Pieces under 30 s are dropped.
fn stationary_blocks(
    rng: &mut Rng,
    moves: &[Piece],
    idle_secs: i64,
    work_secs: i64,
    gap_day: bool,
) -> Vec<Piece> {
    let blocks = moves.len() + 1;
    let mut weights: Vec<f64> = (0..blocks).map(|_| rng.range(0.5, 1.5)).collect();
    if gap_day && let Some((last, rest)) = weights.split_last_mut() {
        *last = 3.0 * rest.iter().sum::<f64>().max(1.0);
    }
    let total_w: f64 = weights.iter().sum();
    let mut pieces: Vec<Piece> = Vec::new();
    for (i, w) in weights.iter().enumerate() {
        let share = w / total_w;
        let idle = (idle_secs as f64 * share) as i64;
        let work = (work_secs as f64 * share) as i64;
        let warm = idle * rng.int(3, 6) as i64 / 10;
        pieces.push((warm, SegKind::Idle));
        pieces.push((work, SegKind::Work));
        pieces.push((idle - warm, SegKind::Idle));
        if i < moves.len() {
            pieces.push(moves[i]);
        }
    }
    pieces.retain(|p| p.0 >= 30);
    pieces
}

/// The breaks between the day's sessions, in seconds: none when the day is
/// `one_session` (a weekend or a gap day) or has few pieces, otherwise one
/// or (three times in ten) two.
fn session_breaks(rng: &mut Rng, one_session: bool, n_pieces: usize) -> Vec<i64> {
    let n_sessions = if one_session || n_pieces < 4 {
        1
    } else if rng.chance(0.3) {
        3
    } else {
        2
    };
    (1..n_sessions)
        .map(|_| rng.int(20, MAX_BREAK_SECS as u64 / 60) as i64 * 60)
        .collect()
}

/// Lays the pieces end to end from `start` and cuts them into one session
/// more than there are breaks: after the first piece that reaches each even
/// share of the engine time, with a break between each two sessions.
fn cut_into_sessions(pieces: &[Piece], breaks: &[i64], start: i64) -> Vec<Session> {
    let n_sessions = breaks.len() + 1;
    let total: i64 = pieces.iter().map(|p| p.0).sum();
    let mut t = start;
    let mut sessions = Vec::with_capacity(n_sessions);
    let mut current = Session {
        start: t,
        stop: t,
        stopped: true,
        segments: Vec::new(),
    };
    let mut acc = 0i64;
    let mut next_cut = 1usize;
    for (i, (secs, kind)) in pieces.iter().enumerate() {
        current.segments.push(Segment {
            start: t,
            stop: t + secs,
            kind: *kind,
        });
        t += secs;
        acc += secs;
        let cut_at = total * next_cut as i64 / n_sessions as i64;
        if next_cut < n_sessions && acc >= cut_at && i + 1 < pieces.len() {
            current.stop = t;
            sessions.push(std::mem::replace(
                &mut current,
                Session {
                    start: 0,
                    stop: 0,
                    stopped: true,
                    segments: Vec::new(),
                },
            ));
            t += breaks[next_cut - 1];
            current.start = t;
            next_cut += 1;
        }
    }
    current.stop = t;
    sessions.push(current);
    sessions
}

/// Drops everything after `now`; a session in progress is cut at `now`
/// without a stop event, and a move in progress ends where the machine is.
fn clip(plan: &mut DayPlan, now: i64) {
    plan.sessions.retain(|s| s.start <= now);
    for s in &mut plan.sessions {
        if s.stop > now {
            s.stop = now;
            s.stopped = false;
            s.segments.retain(|g| g.start < now);
            // A move in progress keeps its plan and ends where it is now.
            for g in &mut s.segments {
                g.stop = g.stop.min(now);
            }
        }
    }
    if let Some(c) = plan.charge {
        if c.start >= now {
            plan.charge = None;
        } else if c.stop > now {
            plan.charge = Some(Charge { stop: now, ..c });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_any_day_of_a_year_some_machine_of_the_fleet_has_been_laid_up_since_yesterday() {
        let fleet: Vec<Machine> = (0..60)
            .filter_map(|i| Machine::by_id(super::super::machine::FIRST_ID + i, 60))
            .collect();
        let first = fleetview_api::time::days_from_civil(2025, 1, 1);
        for day in first..first + 365 {
            let silent = fleet
                .iter()
                .filter(|m| m.is_laid_up(day - 1) && m.is_laid_up(day))
                .count();
            assert!(silent >= 1, "day {day}: {silent}");
            assert!(silent <= 12, "day {day}: {silent}, most of the fleet works");
        }
        for m in &fleet {
            for day in first..first + 365 {
                if weekday(day) == 1 && !m.is_laid_up(day) {
                    assert!(m.is_working_day(day));
                }
            }
        }
    }
    use fleetview_api::geo::haversine_m;
    use fleetview_api::time::days_from_civil;

    fn busy_day() -> i64 {
        days_from_civil(2025, 3, 11) // a Tuesday
    }

    #[test]
    fn sessions_are_ordered_inside_the_day_and_segments_tile_them() {
        for i in 0..40 {
            let m = Machine::at_index(i);
            if m.is_laid_up(busy_day()) {
                continue;
            }
            let plan = m.full_plan(busy_day());
            assert!(!plan.sessions.is_empty(), "{} works on Tuesdays", m.name);
            let mut last = plan.day_start();
            for s in &plan.sessions {
                assert!(s.start >= last && s.stop > s.start, "{}", m.name);
                assert_eq!(s.segments.first().map(|g| g.start), Some(s.start));
                assert_eq!(s.segments.last().map(|g| g.stop), Some(s.stop));
                for w in s.segments.windows(2) {
                    assert_eq!(w[0].stop, w[1].start);
                }
                last = s.stop;
            }
            assert!(last <= plan.day_end(), "{} ends in its day", m.name);
        }
    }

    #[test]
    fn a_day_ends_where_the_next_one_starts() {
        for i in 0..40 {
            let m = Machine::at_index(i);
            let d = busy_day();
            let (end, _, _) = m
                .full_plan(d)
                .position_at(d * SECS_PER_DAY + SECS_PER_DAY - 1);
            let (start, _, _) = m.full_plan(d + 1).position_at((d + 1) * SECS_PER_DAY);
            assert!(haversine_m(end, start) < 1e-6, "{}", m.name);
        }
    }

    #[test]
    fn the_track_cursor_agrees_with_random_access() {
        for i in 0..40 {
            let m = Machine::at_index(i);
            let plan = m.full_plan(busy_day());
            let mut track = plan.track();
            for t in (plan.day_start()..=plan.day_end()).step_by(37) {
                assert_eq!(track.at(t), plan.position_at(t), "{} at {t}", m.name);
            }
        }
    }

    #[test]
    fn clipping_keeps_the_past_unchanged() {
        let m = Machine::at_index(2);
        let d = busy_day();
        let full = m.full_plan(d);
        let s = &full.sessions[0];
        let now = (s.start + s.stop) / 2;
        let clipped = m.plan(d, now);
        for t in [s.start, s.start + 60, now - 1] {
            assert_eq!(full.position_at(t), clipped.position_at(t), "at {t}");
            assert_eq!(
                totals_until(&m, &full, t).op_secs,
                totals_until(&m, &clipped, t).op_secs
            );
        }
        // At `now` itself the machine is where it would be; it has just not
        // reported its speed yet.
        assert_eq!(full.position_at(now).0, clipped.position_at(now).0);
        assert!(!clipped.sessions.last().is_some_and(|s| s.stopped));
        assert_eq!(totals_until(&m, &clipped, i64::MAX).op_secs, now - s.start);
    }
}
