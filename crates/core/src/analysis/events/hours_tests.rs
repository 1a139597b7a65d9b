//! Out-of-hours use across changes of clocks, midnight and weekends.

use jiff::civil::DateTime;
use jiff::tz::TimeZone;

use super::*;
use fleetview_api::model::EngineConditionRow;
use fleetview_api::time::TimeWindow;

fn tz(name: &str) -> TimeZone {
    jiff::tz::db().get(name).expect("bundled zone")
}

/// Seconds of a local civil time ("2025-03-28T19:00") in `tz`.
fn local(tz: &TimeZone, civil: &str) -> i64 {
    let dt: DateTime = civil.parse().expect("civil time");
    tz.to_timestamp(dt).expect("exists").as_second()
}

fn utc(civil: &str) -> i64 {
    local(&TimeZone::UTC, civil)
}

/// Out-of-hours stretches (start, end) detected for running periods given
/// as (start, end) seconds, in `zone` (`None`: UTC), default hours.
fn stretches(periods: &[(i64, i64)], zone: Option<&TimeZone>) -> Vec<(i64, i64)> {
    let mut engine = Vec::new();
    for &(a, b) in periods {
        // D10: `false` is a start, `true` a stop.
        engine.push(EngineConditionRow::started_at(a));
        engine.push(EngineConditionRow::stopped_at(b));
    }
    let window = TimeWindow {
        since: utc("2025-01-01T00:00"),
        until: utc("2025-12-31T23:59:59"),
    };
    let input = EventInputs {
        engine: &engine,
        time_zone: zone,
        ..EventInputs::nothing_in(window)
    };
    detect(&input)
        .into_iter()
        .filter(|e| e.kind == EventKind::OutOfHours)
        .map(|e| (e.start, e.end.expect("a span")))
        .collect()
}

#[test]
fn paris_spring_forward_weekend_and_midnight() {
    let paris = tz("Europe/Paris");
    let at = |s: &str| local(&paris, s);
    // Friday 28 March 19:00 to Saturday 02:00: one stretch from 20:00.
    let fri = (at("2025-03-28T19:00"), at("2025-03-29T02:00"));
    // Sunday 30 March, over the change of clocks (02:00 -> 03:00): all
    // weekend, two real hours.
    let sun = (utc("2025-03-30T00:00"), utc("2025-03-30T02:00"));
    // Monday 31 March (summer time) 05:00-07:00: out until 06:00 local,
    // which is 04:00 UTC (winter time would say 05:00).
    let mon = (at("2025-03-31T05:00"), at("2025-03-31T07:00"));
    // Tuesday 10:00-12:00: inside the hours, nothing.
    let tue = (at("2025-04-01T10:00"), at("2025-04-01T12:00"));
    assert_eq!(
        stretches(&[fri, sun, mon, tue], Some(&paris)),
        vec![
            (at("2025-03-28T20:00"), at("2025-03-29T02:00")),
            sun,
            (at("2025-03-31T05:00"), utc("2025-03-31T04:00")),
        ]
    );
    assert_eq!(sun.1 - sun.0, 2 * 3600);
    assert_eq!(at("2025-03-31T06:00"), utc("2025-03-31T04:00"));
}

#[test]
fn paris_fall_back() {
    let paris = tz("Europe/Paris");
    let at = |s: &str| local(&paris, s);
    // Friday 24 October (summer time) 05:30-06:30; Monday 27 October
    // (winter time) 19:00-21:00; Sunday 26 October over the repeated hour.
    let fri = (at("2025-10-24T05:30"), at("2025-10-24T06:30"));
    let sun = (utc("2025-10-26T00:00"), utc("2025-10-26T02:00"));
    let mon = (at("2025-10-27T19:00"), at("2025-10-27T21:00"));
    assert_eq!(
        stretches(&[fri, sun, mon], Some(&paris)),
        vec![
            (fri.0, utc("2025-10-24T04:00")),
            sun,
            (utc("2025-10-27T19:00"), mon.1),
        ]
    );
}

#[test]
fn chicago_spring_forward() {
    let chicago = tz("America/Chicago");
    let at = |s: &str| local(&chicago, s);
    // Friday 7 March (CST, UTC-6) 19:00-21:00; Monday 10 March (CDT,
    // UTC-5) 05:00-07:00; Wednesday 12:00-13:00 inside.
    let fri = (at("2025-03-07T19:00"), at("2025-03-07T21:00"));
    let mon = (at("2025-03-10T05:00"), at("2025-03-10T07:00"));
    let wed = (at("2025-03-12T12:00"), at("2025-03-12T13:00"));
    assert_eq!(
        stretches(&[fri, mon, wed], Some(&chicago)),
        vec![
            (utc("2025-03-08T02:00"), fri.1),
            (mon.0, utc("2025-03-10T11:00")),
        ]
    );
}

#[test]
fn without_a_zone_hours_are_utc_and_a_long_run_splits_at_each_boundary() {
    // Monday 3 March 2025 05:00 UTC to Tuesday 07:00: out 05-06, 20-06
    // (over midnight: one stretch), in from 06:00 Tuesday.
    let run = (utc("2025-03-03T05:00"), utc("2025-03-04T07:00"));
    assert_eq!(
        stretches(&[run], None),
        vec![
            (run.0, utc("2025-03-03T06:00")),
            (utc("2025-03-03T20:00"), utc("2025-03-04T06:00")),
        ]
    );
    // Running exactly the working hours: nothing.
    let exact = (utc("2025-03-05T06:00"), utc("2025-03-05T20:00"));
    assert!(stretches(&[exact], None).is_empty());
}

#[test]
fn edited_hours_and_a_shift_over_midnight() {
    let hours = WorkingHours {
        days: [true; 7],
        start_min: 22 * 60,
        end_min: 6 * 60,
    };
    // A night shift 22:00-06:00 every day: running 21:00-07:00 is out
    // 21-22 and 06-07.
    let (a, b) = (utc("2025-03-03T21:00"), utc("2025-03-04T07:00"));
    let got = hours::out_of_hours(&[(a, b)], &hours, &TimeZone::UTC);
    let spans: Vec<(i64, Option<i64>)> = got.iter().map(|e| (e.start, e.end)).collect();
    assert_eq!(
        spans,
        vec![
            (a, Some(utc("2025-03-03T22:00"))),
            (utc("2025-03-04T06:00"), Some(b)),
        ]
    );
}

#[test]
fn a_period_still_running_ends_at_the_window_end_or_now() {
    let start = utc("2025-03-08T10:00"); // a Saturday
    let engine = [EngineConditionRow::started_at(start)];
    let window = TimeWindow {
        since: utc("2025-03-08T00:00"),
        until: utc("2025-03-08T23:59:59"),
    };
    let mut input = EventInputs {
        now: utc("2025-03-08T12:00"),
        engine: &engine,
        ..EventInputs::nothing_in(window)
    };
    let out = |input: &EventInputs<'_>| {
        detect(input)
            .into_iter()
            .filter(|e| e.kind == EventKind::OutOfHours)
            .map(|e| (e.start, e.end))
            .collect::<Vec<_>>()
    };
    assert_eq!(out(&input), vec![(start, Some(input.now))]);
    input.now = utc("2025-03-10T00:00");
    assert_eq!(out(&input), vec![(start, Some(window.until))]);
}

/// The reason an out-of-hours event gives, in the machine's zone.
fn reasons(periods: &[(i64, i64)], hours: &WorkingHours, zone: &TimeZone) -> Vec<String> {
    hours::out_of_hours(periods, hours, zone)
        .into_iter()
        .map(|e| match e.detail {
            EventDetail::OutOfHours { reason } => reason,
            other => panic!("not out of hours: {other:?}"),
        })
        .collect()
}

#[test]
fn an_out_of_hours_event_says_why_in_the_machines_zone() {
    let chicago = tz("America/Chicago");
    // Saturday 14 November 2026, 06:29:32 in Chicago (12:29:32 UTC): the
    // weekday and the clock are Chicago's, not UTC's.
    let sat = local(&chicago, "2026-11-14T06:29:32");
    let got = reasons(&[(sat, sat + 3600)], &WorkingHours::default(), &chicago);
    assert_eq!(
        got,
        vec!["Saturday 06:29 local time (CST), outside Mon–Fri 06:00–20:00".to_owned()]
    );
    // Friday evening in Paris, running past the end of the day's hours.
    let paris = tz("Europe/Paris");
    let fri = local(&paris, "2025-03-28T19:00");
    let got = reasons(&[(fri, fri + 7200)], &WorkingHours::default(), &paris);
    assert_eq!(
        got,
        vec!["Friday 20:00 local time (CET), outside Mon–Fri 06:00–20:00".to_owned()]
    );
    // Where the zone is not known, the clock is UTC's and says so.
    let night = WorkingHours {
        days: [true, false, true, false, false, true, true],
        start_min: 7 * 60 + 30,
        end_min: 24 * 60,
    };
    let tue = utc("2025-03-04T09:15");
    let got = reasons(&[(tue, tue + 60)], &night, &TimeZone::UTC);
    assert_eq!(
        got,
        vec!["Tuesday 09:15 UTC, outside Mon, Wed, Sat–Sun 07:30–24:00".to_owned()]
    );
}

#[test]
fn working_hours_read_as_words() {
    assert_eq!(WorkingHours::default().describe(), "Mon–Fri 06:00–20:00");
    let every = WorkingHours {
        days: [true; 7],
        start_min: 22 * 60,
        end_min: 6 * 60,
    };
    assert_eq!(every.describe(), "every day 22:00–06:00");
    let none = WorkingHours {
        days: [false; 7],
        ..WorkingHours::default()
    };
    assert_eq!(none.describe(), "no day 06:00–20:00");
}
