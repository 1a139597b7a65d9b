//! Detection (D16): every rule run over a window's rows, the events in
//! time order, and how many of each kind. Apart from `mod.rs` so the
//! figures and the fleet overview can run it without importing the module
//! that re-exports every rule.

use jiff::tz::TimeZone;

use super::types::{CounterSeries, Event, EventDetail, EventInputs, EventKind, RowTimes};
use super::{checks, counters, faults, fuel, gaps, hours, timeline};
use crate::analysis::stops::{engine_stops, point_stops};
use timeline::{in_time_order, running_periods};

/// Every event of the window, in time order (ties in [`EventKind`] order).
/// Each rule keeps the events that start in the window; each event is
/// placed where the machine was at its start.
pub fn detect(input: &EventInputs<'_>) -> Vec<Event> {
    let w = input.window;
    // A stop, a running period or a silence still open ends now, or at the
    // window's end if sooner.
    let open_end = w.until.min(input.now.max(w.since));
    let engine = in_time_order(input.engine, |e| e.date.0);
    let fuel_rows = in_time_order(input.fuel, |f| f.date.0);
    // Points that are not numbers place nothing and move nothing.
    let positions: Vec<(i64, fleetview_api::geo::LatLon)> = in_time_order(input.positions, |p| p.0)
        .iter()
        .copied()
        .filter(|(_, p)| p.lat.is_finite() && p.lon.is_finite())
        .collect();
    let running = running_periods(&engine, w.since, open_end);

    let mut events = Vec::new();
    let stops = if engine.is_empty() {
        point_stops(&positions, w.since, w.until)
    } else {
        engine_stops(&engine, w.since, w.until, open_end)
    };
    events.extend(stops.into_iter().map(|s| Event {
        kind: EventKind::Stop,
        start: s.start,
        end: Some(s.end),
        position: None,
        detail: EventDetail::Stop,
    }));
    events.extend(fuel::fuel_events(
        &fuel_rows,
        &engine,
        w.since,
        w.until,
        input.tank_l,
    ));
    let utc = TimeZone::UTC;
    let tz = input.time_zone.unwrap_or(&utc);
    events.extend(hours::out_of_hours(&running, &input.working_hours, tz));
    for rows in input.rows {
        let times = in_time_order(rows.times, |t| *t);
        let rows = RowTimes {
            name: rows.name,
            times: &times,
        };
        events.extend(gaps::gaps(&rows, &running, w.since, open_end));
    }
    for counter in input.counters {
        let samples = in_time_order(counter.samples, |s| s.0);
        let counter = CounterSeries {
            name: counter.name,
            samples: &samples,
        };
        events.extend(counters::resets(&counter, w.since, w.until));
    }
    events.extend(faults::fault_events(input.faults, w.since, w.until));
    events.extend(checks::checks(input, &engine, &fuel_rows, &positions));

    // A finding is about the whole window, not a place.
    for e in events.iter_mut().filter(|e| e.kind != EventKind::Check) {
        e.position = timeline::position_at(&positions, e.start);
    }
    events.sort_by_key(|e| (e.start, e.kind));
    events
}

/// How many events of each kind, in [`EventKind`] order, kinds with none
/// left out.
pub fn counts(events: &[Event]) -> Vec<(EventKind, usize)> {
    EventKind::ALL
        .iter()
        .map(|k| (*k, events.iter().filter(|e| e.kind == *k).count()))
        .filter(|(_, n)| *n > 0)
        .collect()
}
