//! The events and findings of a report (D16) as written: one JSON object per
//! event (`kind`, `start`, `end` where it has one, then its values), counts
//! and rule texts as maps keyed by kind, and one CSV table with a column per
//! value any kind has, every number rounded to what it means. A report
//! writes them after the figures;
//! `fleetview export --kind events` writes them alone.

use std::io::Write;

use serde_json::{Map, Value, json};

use super::numbers::event_number;
use crate::analysis::events::{Event, EventKind, EventValue, counts};
use crate::analysis::{Quantity, UnitSystem};
use crate::export::{ExportError, text_cell};
use fleetview_api::time::format_wire;

/// The CSV's columns after `kind,start,end`: every value key of every kind
/// (`Event::values`), in a fixed order so files of any window line up.
pub const EVENT_COLUMNS: [&str; 25] = [
    "duration_s",
    "from_percent",
    "to_percent",
    "change_percent",
    "change_l",
    "series",
    "median_interval_s",
    "counter",
    "before",
    "after",
    "identifier",
    "description",
    "severity",
    "level",
    "check",
    "unit",
    "first_series",
    "first_value",
    "second_series",
    "second_value",
    "difference",
    "difference_percent",
    "latitude",
    "longitude",
    // Last, so the columns before keep their places in older scripts.
    "reason",
];

/// The CSV's columns in a unit system (`change_l` -> `change_gal`).
pub fn event_columns(units: UnitSystem) -> impl Iterator<Item = &'static str> {
    EVENT_COLUMNS.into_iter().map(move |c| match (c, units) {
        ("change_l", UnitSystem::Imperial) => "change_gal",
        _ => c,
    })
}

/// An event's values in a unit system: a refuel's or drain's litres, and a
/// cross-check's values in its unit, converted (with their keys and unit).
pub(crate) fn values_in(e: &Event, units: UnitSystem) -> Vec<(&'static str, EventValue)> {
    let mut values = e.values();
    if units == UnitSystem::Metric {
        return values;
    }
    let check_unit = values.iter().find_map(|(k, v)| match (k, v) {
        (&"unit", EventValue::Text(t)) => Some(t.clone()),
        _ => None,
    });
    let quantity = check_unit.as_deref().and_then(Quantity::of_unit);
    for (key, value) in &mut values {
        match (*key, &mut *value, quantity, check_unit.as_deref()) {
            ("change_l", EventValue::Number(n), _, _) => {
                *key = "change_gal";
                *n = units.from_metric(Quantity::Volume, *n);
            }
            ("first_value" | "second_value", EventValue::Number(n), Some(_), Some(unit)) => {
                *n = units.from_service(*n, unit).0;
            }
            ("difference", EventValue::Number(n), Some(_), Some(unit)) => {
                if let Some((c, _)) = units.conversion(unit) {
                    *n = c.apply_to_change(*n);
                }
            }
            ("unit", EventValue::Text(t), Some(_), Some(unit)) => {
                *t = units.from_service(1.0, unit).1;
            }
            _ => {}
        }
    }
    values
}

fn value_json(key: &str, v: &EventValue) -> Value {
    match v {
        EventValue::Number(n) => event_number(key, *n).map_or(Value::Null, |n| json!(n)),
        EventValue::Text(t) => json!(t),
    }
}

/// One event as a JSON object.
pub fn event_json(e: &Event, units: UnitSystem) -> Value {
    let mut o = Map::new();
    o.insert("kind".to_owned(), json!(e.kind.key()));
    o.insert("start".to_owned(), json!(format_wire(e.start)));
    if let Some(end) = e.end {
        o.insert("end".to_owned(), json!(format_wire(end)));
    }
    for (key, v) in values_in(e, units) {
        o.insert(key.to_owned(), value_json(key, &v));
    }
    Value::Object(o)
}

/// `counts`: how many of each kind found (kinds with none left out).
pub fn counts_json(events: &[Event]) -> Value {
    Value::Object(
        counts(events)
            .into_iter()
            .map(|(k, n)| (k.key().to_owned(), json!(n)))
            .collect(),
    )
}

/// `rules`: each kind's rule in words, keyed by kind.
pub fn rules_json() -> Value {
    Value::Object(
        EventKind::ALL
            .iter()
            .map(|k| (k.key().to_owned(), json!(k.rule())))
            .collect(),
    )
}

/// The events alone, as `fleetview export --kind events --format json`
/// writes them.
pub fn events_json(events: &[Event], units: UnitSystem) -> Value {
    json!({
        "events": events.iter().map(|e| event_json(e, units)).collect::<Vec<_>>(),
        "counts": counts_json(events),
        "rules": rules_json(),
    })
}

/// The events as one CSV table: `kind,start,end`, then [`EVENT_COLUMNS`].
/// Text that comes from the service (fault codes and descriptions) is
/// written so no spreadsheet evaluates it (D14).
pub fn write_events_csv(
    events: &[Event],
    units: UnitSystem,
    out: impl Write,
) -> Result<(), ExportError> {
    let mut w = csv::Writer::from_writer(out);
    write_events_into(events, units, &mut w)?;
    w.flush()?;
    Ok(())
}

pub(crate) fn write_events_into<W: Write>(
    events: &[Event],
    units: UnitSystem,
    w: &mut csv::Writer<W>,
) -> Result<(), ExportError> {
    let header = ["kind", "start", "end"]
        .into_iter()
        .chain(event_columns(units));
    w.write_record(header)?;
    for e in events {
        let values = values_in(e, units);
        let mut row = vec![
            e.kind.key().to_owned(),
            format_wire(e.start),
            e.end.map(format_wire).unwrap_or_default(),
        ];
        for col in event_columns(units) {
            let cell = match values.iter().find(|(k, _)| *k == col).map(|(_, v)| v) {
                Some(EventValue::Number(n)) => event_number(col, *n)
                    .map(|n| n.to_string())
                    .unwrap_or_default(),
                Some(EventValue::Text(t)) => text_cell(t).into_owned(),
                None => String::new(),
            };
            row.push(cell);
        }
        w.write_record(&row)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::events::{CheckKind, CheckSide, EventDetail};
    use fleetview_api::geo::LatLon;

    fn events() -> Vec<Event> {
        vec![
            Event {
                kind: EventKind::Refuel,
                start: 1_750_000_000,
                end: Some(1_750_003_600),
                position: Some(LatLon {
                    lat: 45.7,
                    lon: 4.85,
                }),
                detail: EventDetail::Fuel {
                    from_percent: 20.0,
                    to_percent: 100.0,
                    litres: Some(328.0),
                },
            },
            Event {
                kind: EventKind::Fault,
                start: 1_750_010_000,
                end: None,
                position: None,
                detail: EventDetail::Fault {
                    identifier: "=SPN 100".into(),
                    description: "low oil pressure, stop".into(),
                    severity: Some(2),
                    level: "critical".into(),
                },
            },
            Event {
                kind: EventKind::Check,
                start: 1_749_945_600,
                end: Some(1_750_031_999),
                position: None,
                detail: EventDetail::Check {
                    check: CheckKind::Distance,
                    unit: "km",
                    first: CheckSide {
                        series: "distance along the positions".into(),
                        value: 40.0,
                    },
                    second: CheckSide {
                        series: "daily distance".into(),
                        value: 50.0,
                    },
                },
            },
        ]
    }

    #[test]
    fn every_value_key_of_every_kind_has_a_column() {
        for e in events() {
            for (key, _) in e.values() {
                assert!(EVENT_COLUMNS.contains(&key), "{key} has no column");
            }
        }
    }

    #[test]
    fn json_lists_each_event_once_with_counts_and_rules_keyed_by_kind() {
        let v = events_json(&events(), UnitSystem::Metric);
        let list = v["events"].as_array().expect("events");
        assert_eq!(list.len(), 3);
        assert_eq!(list[0]["kind"], "refuel");
        assert_eq!(list[0]["start"], "2025-06-15T15:06:40Z");
        assert_eq!(list[0]["change_l"], json!(328.0));
        assert_eq!(list[0]["change_percent"], json!(80.0));
        assert_eq!(list[1]["kind"], "fault");
        assert!(list[1].get("end").is_none(), "an instant has no end");
        assert_eq!(list[2]["difference_percent"], json!(20.0));
        assert_eq!(v["counts"], json!({"refuel": 1, "fault": 1, "check": 1}));
        let rules = v["rules"].as_object().expect("rules");
        assert_eq!(rules.len(), EventKind::ALL.len());
        assert!(rules.values().all(|r| r.is_string()), "texts, not objects");
    }

    #[test]
    fn csv_has_one_row_per_event_and_no_formula() {
        let mut out = Vec::new();
        write_events_csv(&events(), UnitSystem::Metric, &mut out).expect("written");
        let text = String::from_utf8(out).expect("utf-8");
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let header = r.headers().expect("header").clone();
        assert_eq!(&header[0], "kind");
        assert_eq!(header.len(), 3 + EVENT_COLUMNS.len());
        let rows: Vec<csv::StringRecord> = r.records().map(|r| r.expect("row")).collect();
        assert_eq!(rows.len(), 3);
        let col = |name: &str| header.iter().position(|h| h == name).expect(name);
        assert_eq!(&rows[0][col("change_l")], "328");
        assert_eq!(&rows[1][col("identifier")], "'=SPN 100");
        assert_eq!(&rows[1][col("end")], "");
        assert_eq!(&rows[2][col("difference")], "-10", "first less second");
    }

    #[test]
    fn an_out_of_hours_event_says_why_in_json_and_csv() {
        let reason = "Saturday 06:29 local time (CST), outside Mon–Fri 06:00–20:00";
        let e = vec![Event {
            kind: EventKind::OutOfHours,
            start: 1_794_659_372,
            end: Some(1_794_662_972),
            position: None,
            detail: EventDetail::OutOfHours {
                reason: reason.into(),
            },
        }];
        let v = events_json(&e, UnitSystem::Metric);
        assert_eq!(v["events"][0]["reason"], json!(reason));
        let mut out = Vec::new();
        write_events_csv(&e, UnitSystem::Metric, &mut out).expect("written");
        let mut r = csv::Reader::from_reader(out.as_slice());
        let header = r.headers().expect("header").clone();
        let row = r.records().next().expect("a row").expect("row");
        let col = header.iter().position(|h| h == "reason").expect("reason");
        assert_eq!(&row[col], reason);
    }
}
