use super::*;
use fleetview_api::equipment::{SnapHours, SnapPosition};
use fleetview_api::time::Timestamp;

const NOW: i64 = 100 * SECS_PER_DAY + 10 * 3600;

fn snapshot_at(last: i64) -> EquipmentSnapshot {
    EquipmentSnapshot {
        id: 1,
        cumulative_idle_hours: Some(SnapHours {
            date: Some(Timestamp::from_secs(last)),
            hours: Some(3.0),
        }),
        last_position: Some(SnapPosition {
            date: Some(Timestamp::from_secs(last - 60)),
            latitude: Some(51.0),
            longitude: Some(4.0),
        }),
        ..EquipmentSnapshot::default()
    }
}

fn fault(at: i64, severity: Option<i64>, level: &str) -> Event {
    Event {
        kind: EventKind::Fault,
        start: at,
        end: None,
        position: None,
        detail: EventDetail::Fault {
            identifier: "SPN 100 FMI 1".into(),
            description: "d".into(),
            severity,
            level: level.into(),
        },
    }
}

fn drain(at: i64) -> Event {
    Event {
        kind: EventKind::FuelDrop,
        start: at,
        end: Some(at + 3600),
        position: Some(LatLon { lat: 1.0, lon: 2.0 }),
        detail: EventDetail::Fuel {
            from_percent: 62.0,
            to_percent: 44.0,
            litres: None,
        },
    }
}

fn reset(at: i64) -> Event {
    Event {
        kind: EventKind::CounterReset,
        start: at,
        end: None,
        position: None,
        detail: EventDetail::CounterReset {
            counter: "cumulative operating hours".into(),
            before: 1234.5,
            after: 2.0,
        },
    }
}

fn gap(at: i64, secs: i64) -> Event {
    Event {
        kind: EventKind::Gap,
        start: at,
        end: Some(at + secs),
        position: None,
        detail: EventDetail::Gap {
            series: "positions".into(),
            median_interval_secs: 60,
        },
    }
}

fn stop(at: i64) -> Event {
    Event {
        kind: EventKind::Stop,
        start: at,
        end: Some(at + 600),
        position: None,
        detail: EventDetail::Stop,
    }
}

fn inputs<'a>(
    snapshot: Option<&'a EquipmentSnapshot>,
    events: &'a [Event],
    idle: Option<f64>,
) -> AttentionInputs<'a> {
    AttentionInputs {
        last_report: LastReport::of(snapshot),
        events,
        idle_percent: idle,
        idle_threshold_percent: 40.0,
        now: NOW,
    }
}

fn kinds(items: &[Attention]) -> Vec<&'static str> {
    items.iter().map(|a| a.kind.key()).collect()
}

#[test]
fn a_machine_that_reported_an_hour_ago_with_nothing_wrong_needs_nothing() {
    let s = snapshot_at(NOW - 3600);
    let events = [stop(NOW - 5000)];
    let got = attention(&inputs(Some(&s), &events, Some(25.0)));
    assert!(got.is_empty(), "{got:?}");
    assert!(AttentionRank::of(&got).is_none());
}

#[test]
fn every_kind_is_found_worst_first_with_its_text_and_time() {
    let s = snapshot_at(NOW - 3 * SECS_PER_DAY);
    let events = [
        gap(NOW - 9 * SECS_PER_DAY, 5 * 3600 + 20 * 60),
        drain(NOW - 20 * SECS_PER_DAY),
        fault(NOW - 8 * SECS_PER_DAY, Some(1), "Warning"),
        fault(NOW - 7 * SECS_PER_DAY, Some(2), "Critical"),
        fault(NOW - 6 * SECS_PER_DAY, Some(1), "Warning"),
        reset(NOW - 4 * SECS_PER_DAY),
        gap(NOW - 5 * SECS_PER_DAY, 3 * 3600),
        stop(NOW - 5 * SECS_PER_DAY),
    ];
    let got = attention(&inputs(Some(&s), &events, Some(52.4)));
    assert_eq!(
        kinds(&got),
        vec![
            "fault",
            "fuel_drop",
            "counter_reset",
            "silent",
            "high_idle",
            "gap"
        ]
    );
    let text: Vec<&str> = got.iter().map(|a| a.text.as_str()).collect();
    assert_eq!(
        text[0],
        "3 faults, the worst Critical, the latest of them 1970-04-04 10:00 UTC"
    );
    assert_eq!(
        got[0].level,
        Some(FaultLevel {
            severity: Some(2),
            label: "Critical".into()
        })
    );
    assert_eq!(got[0].at, Some(NOW - 7 * SECS_PER_DAY), "the worst fault");
    assert_eq!(
        text[1],
        "Suspected fuel drain, 62 % to 44 % with the engine off, 1970-03-22 10:00 UTC"
    );
    assert_eq!(got[1].at, Some(NOW - 20 * SECS_PER_DAY));
    assert_eq!(got[1].position, Some(LatLon { lat: 1.0, lon: 2.0 }));
    assert_eq!(
        text[2],
        "Meter reset, cumulative operating hours from 1234.5 to 2.0, 1970-04-07 10:00 UTC"
    );
    assert_eq!(
        text[3],
        "Silent for 3 days, last report 1970-04-08 10:00 UTC"
    );
    assert_eq!(got[3].at, Some(NOW - 3 * SECS_PER_DAY));
    assert_eq!(text[4], "Idle 52.4 % of engine hours (above 40 %)");
    assert_eq!(
        text[5],
        "2 data gaps, the longest 5 h 20 min, the latest 1970-04-06 10:00 UTC"
    );
    assert_eq!(got[5].at, Some(NOW - 5 * SECS_PER_DAY), "the latest gap");
}

#[test]
fn silence_is_more_than_a_day_by_the_readings_not_the_daily_members() {
    let at = |last| attention(&inputs(Some(&snapshot_at(last)), &[], None));
    assert!(
        at(NOW - SECS_PER_DAY).is_empty(),
        "exactly 24 h is not silent"
    );
    let silent = at(NOW - SECS_PER_DAY - 1);
    assert_eq!(kinds(&silent), vec!["silent"]);
    assert_eq!(
        silent[0].text,
        "Silent for 24 hours, last report 1970-04-10 09:59 UTC"
    );
    // A peak speed dated today at 00:00 is a day's figure, not a report.
    let s: EquipmentSnapshot = serde_json::from_value(serde_json::json!({
        "id": 1,
        "cumulativeIdleHours": {"date": "1970-04-08T10:00:00Z", "hours": 3.0},
        "peakDailySpeed": {"date": "1970-04-11T00:00:00Z", "speed": 0.0, "speedUnit": "km/h"},
    }))
    .expect("a snapshot");
    assert_eq!(
        kinds(&attention(&inputs(Some(&s), &[], None))),
        vec!["silent"]
    );
    let never = attention(&inputs(None, &[], None));
    assert_eq!(
        (kinds(&never), never[0].text.as_str(), never[0].at),
        (vec!["silent"], "Never reported", None)
    );
    let no_dates = EquipmentSnapshot::default();
    assert_eq!(
        kinds(&attention(&inputs(Some(&no_dates), &[], None))),
        vec!["silent"]
    );
}

#[test]
fn silence_not_known_is_no_silence_and_no_data_is_nothing_else() {
    // The report's case: the snapshots could not be read (offline), and
    // nothing was read for the window.
    let got = attention(&AttentionInputs {
        last_report: LastReport::Unknown,
        ..inputs(None, &[], None)
    });
    assert!(got.is_empty(), "{got:?}");
    let known = |at: Option<i64>| {
        kinds(&attention(&AttentionInputs {
            last_report: LastReport::from(at),
            ..inputs(None, &[], None)
        }))
    };
    assert_eq!(known(None), vec!["silent"], "known never to have reported");
    assert_eq!(known(Some(NOW - 2 * SECS_PER_DAY)), vec!["silent"]);
    assert!(known(Some(NOW - 3600)).is_empty());
}

#[test]
fn idle_counts_only_above_the_threshold() {
    let s = snapshot_at(NOW - 60);
    let idle = |p: Option<f64>, threshold: f64| {
        kinds(&attention(&AttentionInputs {
            idle_threshold_percent: threshold,
            ..inputs(Some(&s), &[], p)
        }))
    };
    assert!(
        idle(Some(40.0), 40.0).is_empty(),
        "at the threshold: not above"
    );
    assert_eq!(idle(Some(40.1), 40.0), vec!["high_idle"]);
    assert!(idle(Some(55.0), 60.0).is_empty());
    assert!(idle(None, 40.0).is_empty(), "no engine hours, no share");
    assert!(
        idle(Some(f64::INFINITY), 40.0).is_empty(),
        "no share either"
    );
    assert!(idle(Some(f64::NAN), 40.0).is_empty());
}

#[test]
fn a_fault_of_unknown_level_ranks_below_a_known_one_and_above_none() {
    let s = snapshot_at(NOW - 60);
    let rank = |events: &[Event]| AttentionRank::of(&attention(&inputs(Some(&s), events, None)));
    let critical = rank(&[fault(NOW - 100, Some(2), "Critical")]);
    let unknown = rank(&[fault(NOW - 100, None, "unknown")]);
    let drains = rank(&[drain(NOW - 100), drain(NOW - 50)]);
    let one_drain = rank(&[drain(NOW - 100)]);
    let silent = AttentionRank::of(&attention(&inputs(None, &[], None)));
    let idle = AttentionRank::of(&attention(&inputs(Some(&s), &[], Some(90.0))));
    let gaps = rank(&[gap(NOW - 9000, 3 * 3600)]);
    let ordered = [
        critical,
        unknown,
        drains,
        one_drain,
        silent,
        idle,
        gaps,
        AttentionRank::default(),
    ];
    for w in ordered.windows(2) {
        assert!(w[0] > w[1], "{:?} ranks above {:?}", w[0], w[1]);
    }
    let with = attention(&inputs(
        Some(&s),
        &[fault(NOW - 100, None, "unknown")],
        None,
    ));
    assert_eq!(
        with[0].text,
        "1 fault, the worst unknown, the latest of them 1970-04-11 09:58 UTC"
    );
}

#[test]
fn the_kinds_keys_are_the_reports() {
    let keys: Vec<&str> = AttentionKind::ALL.iter().map(|k| k.key()).collect();
    assert_eq!(
        keys,
        vec![
            "fault",
            "fuel_drop",
            "counter_reset",
            "service_due",
            "silent",
            "high_idle",
            "gap"
        ]
    );
}
