//! What a machine's day is made of: engine sessions of idle, work and move
//! segments, an electric machine's charge after work, and where the machine
//! is at any instant of it. How a day is drawn is in [`super::planning`];
//! everything the sandbox serves is read off these plans.

use super::path::Path;
use super::roads::Hint;
use fleetview_api::geo::LatLon;
use fleetview_api::time::SECS_PER_DAY;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SegKind {
    Idle,
    Work,
    /// Along `path` at a steady speed, taking `planned_secs` (a move cut
    /// short by the clock keeps its plan: where it is at a time does not
    /// depend on when it is read).
    Move {
        path: Path,
        speed_kmh: f64,
        planned_secs: i64,
    },
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Segment {
    pub(crate) start: i64,
    pub(crate) stop: i64,
    pub(crate) kind: SegKind,
}

impl Segment {
    /// Where a move is at `t` (inside it) and its heading there.
    fn move_at(
        &self,
        path: &Path,
        planned_secs: i64,
        t: i64,
        hint: Option<&mut Hint>,
    ) -> (LatLon, f64) {
        path.at((t - self.start) as f64 / planned_secs as f64, hint)
    }

    /// Where a move ends: the end of its path unless the clock cut it short.
    fn move_end(&self, path: &Path, planned_secs: i64) -> (LatLon, f64) {
        if self.stop - self.start >= planned_secs {
            path.end()
        } else {
            self.move_at(path, planned_secs, self.stop, None)
        }
    }
}

/// One engine-on period. `stopped` is false when the session is still
/// running at the simulator's "now" (no stop event yet).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Session {
    pub(crate) start: i64,
    pub(crate) stop: i64,
    pub(crate) stopped: bool,
    pub(crate) segments: Vec<Segment>,
}

/// An electric machine's charge after work: `[start, stop]` at `power_kw`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Charge {
    pub(crate) start: i64,
    pub(crate) stop: i64,
    pub(crate) power_kw: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DayPlan {
    pub(crate) day: i64,
    pub(crate) start_pos: LatLon,
    /// Heading while parked before the first move (the previous day's last).
    pub(crate) start_heading: f64,
    pub(crate) sessions: Vec<Session>,
    /// Day-to-day variation of measured fuel burn.
    pub(crate) fuel_factor: f64,
    pub(crate) charge: Option<Charge>,
    /// A telemetry gap: rows at both ends, none of any sensor kind or
    /// position between (see [`Machine::silent_span`]).
    pub(crate) silent: Option<(i64, i64)>,
}

impl DayPlan {
    pub(crate) fn day_start(&self) -> i64 {
        self.day * SECS_PER_DAY
    }

    pub(crate) fn day_end(&self) -> i64 {
        self.day_start() + SECS_PER_DAY - 1
    }

    pub(crate) fn segments(&self) -> impl Iterator<Item = &Segment> {
        self.sessions.iter().flat_map(|s| s.segments.iter())
    }

    /// Where the machine is, how fast it goes and where it heads at `t`.
    pub(crate) fn position_at(&self, t: i64) -> (LatLon, f64, f64) {
        let mut here = self.start_pos;
        let mut heading = self.start_heading;
        for seg in self.segments() {
            if let SegKind::Move {
                path,
                speed_kmh,
                planned_secs,
            } = seg.kind
            {
                if t < seg.start {
                    break;
                }
                if t < seg.stop {
                    let (p, h) = seg.move_at(&path, planned_secs, t, None);
                    return (p, speed_kmh, h);
                }
                (here, heading) = seg.move_end(&path, planned_secs);
            }
        }
        (here, 0.0, heading)
    }

    /// A cursor for reading positions at increasing times in O(1) each.
    pub(crate) fn track(&self) -> Track {
        let moves = self
            .segments()
            .filter(|g| matches!(g.kind, SegKind::Move { .. }))
            .copied()
            .collect();
        Track {
            moves,
            next: 0,
            here: self.start_pos,
            heading: self.start_heading,
            hint: Hint::default(),
        }
    }

    /// The segment in progress at `t`, if the engine runs then.
    pub(crate) fn segment_at(&self, t: i64) -> Option<&Segment> {
        self.segments().find(|s| s.start <= t && t < s.stop)
    }

    /// Whether the feed is silent at `t` (strictly inside a gap).
    pub(crate) fn is_silent(&self, t: i64) -> bool {
        self.silent.is_some_and(|(a, b)| a < t && t < b)
    }

    /// Whether the engine runs at `t` (inclusive of a session's ends).
    pub(crate) fn running_at(&self, t: i64) -> bool {
        self.sessions.iter().any(|s| s.start <= t && t <= s.stop)
    }
}

/// Positions of a day read at non-decreasing times (see [`DayPlan::track`]);
/// agrees with [`DayPlan::position_at`].
#[derive(Debug)]
pub(crate) struct Track {
    /// The plan's move segments, in time order.
    moves: Vec<Segment>,
    next: usize,
    here: LatLon,
    heading: f64,
    /// Where the last read along the current move's road was.
    hint: Hint,
}

impl Track {
    pub(crate) fn at(&mut self, t: i64) -> (LatLon, f64, f64) {
        while let Some(seg) = self.moves.get(self.next) {
            if seg.stop > t {
                break;
            }
            if let SegKind::Move {
                path, planned_secs, ..
            } = seg.kind
            {
                (self.here, self.heading) = seg.move_end(&path, planned_secs);
            }
            self.next += 1;
            self.hint = Hint::default();
        }
        match self.moves.get(self.next) {
            Some(
                seg @ Segment {
                    kind:
                        SegKind::Move {
                            path,
                            speed_kmh,
                            planned_secs,
                        },
                    ..
                },
            ) if seg.start <= t => {
                let (p, h) = seg.move_at(path, *planned_secs, t, Some(&mut self.hint));
                (p, *speed_kmh, h)
            }
            _ => (self.here, 0.0, self.heading),
        }
    }
}
