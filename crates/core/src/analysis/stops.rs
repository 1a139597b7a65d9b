//! Stops as D16 defines them: an engine-off period (D10 events) of 5 min or
//! more; with no engine events, 5 min or more without moving 50 m.

use crate::series::TrackSample;
use fleetview_api::geo::{LatLon, haversine_m};
use fleetview_api::model::EngineConditionRow;

/// A stop lasts at least this long.
pub(crate) const STOP_MIN_SECS: i64 = 5 * 60;
/// Without engine events: staying within this distance is not moving.
pub(crate) const STOP_RADIUS_M: f64 = 50.0;

/// One stop: from when the machine stopped to when it went on (or the end
/// of what is known).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stop {
    pub(crate) start: i64,
    pub(crate) end: i64,
}

impl Stop {
    pub fn duration_secs(&self) -> i64 {
        self.end - self.start
    }
}

/// What the stops were found from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopSource {
    EngineEvents,
    Positions,
}

impl StopSource {
    pub fn describe(self) -> &'static str {
        match self {
            StopSource::EngineEvents => "engine events",
            StopSource::Positions => "positions",
        }
    }
}

/// Engine-off periods that begin in `since..=until` and last 5 min or more.
/// `events` sorted by time; a period still off at the end lasts to `open_end`
/// (the end of the window, or now if sooner).
pub(crate) fn engine_stops(
    events: &[EngineConditionRow],
    since: i64,
    until: i64,
    open_end: i64,
) -> Vec<Stop> {
    let mut out = Vec::new();
    let mut off_since: Option<i64> = None;
    for e in events {
        let t = e.date.0;
        if e.is_stop() {
            // Stopped (a second stop in a row keeps the first).
            if off_since.is_none() && (since..=until).contains(&t) {
                off_since = Some(t);
            }
        } else if let Some(start) = off_since.take() {
            push_long(&mut out, start, t);
        }
    }
    if let Some(start) = off_since {
        push_long(&mut out, start, open_end.max(start));
    }
    out
}

/// Periods of 5 min or more in which the machine stayed within 50 m of where
/// it was, beginning in `since..=until`; `samples` sorted by time. A stop
/// ends at the first position away from it (positions come while moving,
/// so a long pause at one place is the machine standing).
pub(crate) fn position_stops(samples: &[TrackSample], since: i64, until: i64) -> Vec<Stop> {
    stops_along(
        samples,
        |s| {
            (
                s.time,
                LatLon {
                    lat: s.lat,
                    lon: s.lon,
                },
            )
        },
        since,
        until,
    )
}

/// [`position_stops`] over (time, point) pairs.
pub(crate) fn point_stops(points: &[(i64, LatLon)], since: i64, until: i64) -> Vec<Stop> {
    stops_along(points, |p| *p, since, until)
}

fn stops_along<T>(
    samples: &[T],
    at: impl Fn(&T) -> (i64, LatLon),
    since: i64,
    until: i64,
) -> Vec<Stop> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < samples.len() {
        let (anchor_time, anchor) = at(&samples[i]);
        let mut j = i + 1;
        while j < samples.len() && haversine_m(anchor, at(&samples[j]).1) <= STOP_RADIUS_M {
            j += 1;
        }
        let end = at(samples.get(j).unwrap_or(&samples[j - 1])).0;
        if (since..=until).contains(&anchor_time) {
            push_long(&mut out, anchor_time, end);
        }
        i = j;
    }
    out
}

fn push_long(out: &mut Vec<Stop>, start: i64, end: i64) {
    if end - start >= STOP_MIN_SECS {
        out.push(Stop { start, end });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_off_periods_of_five_minutes_or_more_are_stops() {
        // Started 0, stopped 1000, started 1200 (200 s off:
        // too short), stopped 2000, started 2300 (300 s: a stop), stopped
        // 5000, nothing after: off to the end.
        let events = [
            EngineConditionRow::started_at(0),
            EngineConditionRow::stopped_at(1000),
            EngineConditionRow::started_at(1200),
            EngineConditionRow::stopped_at(2000),
            EngineConditionRow::started_at(2300),
            EngineConditionRow::stopped_at(5000),
        ];
        assert_eq!(
            engine_stops(&events, 0, 10_000, 10_000),
            vec![
                Stop {
                    start: 2000,
                    end: 2300
                },
                Stop {
                    start: 5000,
                    end: 10_000
                }
            ]
        );
        // A stop that began before the window is not the window's; one
        // still on ends now, and is too short yet.
        assert_eq!(
            engine_stops(&events, 2100, 10_000, 5100),
            Vec::<Stop>::new()
        );
        assert!(engine_stops(&[], 0, 10, 10).is_empty());
    }

    #[test]
    fn without_engine_events_standing_within_fifty_metres_is_a_stop() {
        let at = |t: i64, north_m: f64| TrackSample::at(t, 52.0 + north_m / 111_195.0, 4.0);
        let samples = [
            at(0, 0.0),
            at(60, 500.0),
            at(120, 520.0),  // 20 m on: standing
            at(400, 540.0),  // 40 m from 60's place: still
            at(460, 2000.0), // moved: the stop ran 60..460 (400 s)
            at(520, 4000.0), // moving
            at(600, 4010.0), // 80 s only
            at(700, 6000.0),
        ];
        assert_eq!(
            position_stops(&samples, 0, 1000),
            vec![Stop {
                start: 60,
                end: 460
            }]
        );
        assert!(position_stops(&samples, 100, 1000).is_empty());
        assert!(position_stops(&[], 0, 10).is_empty());
    }
}
