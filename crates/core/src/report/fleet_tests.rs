use super::*;
use crate::analysis::{AttentionInputs, LastReport, attention};
use crate::analysis::{DayInput, Event, EventDetail, Figures};
use crate::report::write::{ReportFormat, write_fleet_report};
use fleetview_api::time::SECS_PER_DAY;

const MONDAY: i64 = 20_255;

fn report(engine: f64, idle: f64, fuel: f64, faults: usize) -> Arc<Report> {
    let day = DayInput {
        day: MONDAY,
        engine_hours_h: Some(engine),
        idle_hours_h: Some(idle),
        fuel_used_l: Some(fuel),
        distance_km: Some(10.004),
        ..DayInput::default()
    };
    let fault = Event {
        kind: EventKind::Fault,
        start: MONDAY * SECS_PER_DAY,
        end: None,
        position: None,
        detail: EventDetail::Fault {
            identifier: "SPN 1".into(),
            description: String::new(),
            severity: Some(1),
            level: "warning".into(),
        },
    };
    Arc::new(Report {
        totals: Figures::over(&[day], Expected::default()),
        events: vec![fault; faults],
        ..Report::default()
    })
}

fn machines() -> Vec<FleetMachine> {
    let mut list = vec![
        FleetMachine {
            equipment: 1,
            name: Some("RT-001 <Dig>".into()),
            category: Some("Excavator".into()),
            make: Some("CAT".into()),
            model: Some("320".into()),
            report: Some(report(10.0, 6.0, 100.0, 2)),
            ..FleetMachine::default()
        },
        FleetMachine {
            equipment: 2,
            name: Some("=cmd|calc".into()),
            report: Some(report(0.1 + 0.2, 0.0, 3.0, 1)),
            ..FleetMachine::default()
        },
        FleetMachine {
            equipment: 3,
            name: Some("Laid up".into()),
            ..FleetMachine::default()
        },
    ];
    // What the worker does: the Fleet page's definition over the window.
    for m in &mut list {
        let events = m.report.as_ref().map_or(&[][..], |r| r.events.as_slice());
        m.attention = attention(&AttentionInputs {
            last_report: match m.equipment {
                3 => LastReport::Never,
                _ => LastReport::At(MONDAY * SECS_PER_DAY + 3600),
            },
            events,
            idle_percent: m
                .report
                .as_ref()
                .and_then(|r| r.totals.value(Figure::IdlePercent)),
            idle_threshold_percent: 40.0,
            now: (MONDAY + 7) * SECS_PER_DAY + 3600,
        });
    }
    list
}

fn doc<'a>(machines: &'a [FleetMachine], notes: &'a [String]) -> FleetDoc<'a> {
    FleetDoc {
        window: TimeWindow {
            since: MONDAY * SECS_PER_DAY,
            until: (MONDAY + 7) * SECS_PER_DAY - 1,
        },
        generated_at: (MONDAY + 7) * SECS_PER_DAY + 3600,
        machines,
        notes,
        units: UnitSystem::Metric,
        expected: Expected::default(),
    }
}

#[test]
fn json_has_the_fixed_keys_every_machine_and_the_fleets_sums() {
    let m = machines();
    let notes = vec!["equipment 3 is not cached".to_owned()];
    let v = fleet_json(&doc(&m, &notes));
    let keys: Vec<&str> = v
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    for k in [
        "window",
        "generated_at",
        "machines",
        "totals",
        "counts",
        "notes",
    ] {
        assert!(keys.contains(&k), "{k}");
    }
    assert_eq!(v["window"]["since"], "2025-06-16T00:00:00Z");
    assert_eq!(v["generated_at"], "2025-06-23T01:00:00Z");
    let list = v["machines"].as_array().expect("machines");
    assert_eq!(list.len(), 3, "every machine listed");
    assert_eq!(list[0]["equipment"], 1);
    assert_eq!(list[0]["name"], "RT-001 <Dig>");
    assert_eq!(list[0]["category"], "Excavator");
    assert_eq!(list[1]["category"], Value::Null);
    assert_eq!(list[0]["totals"]["engine_hours_h"], json!(10.0));
    assert_eq!(list[0]["totals"]["idle_percent"], json!(60.0));
    assert_eq!(
        list[1]["totals"]["engine_hours_h"],
        json!(0.3),
        "no float noise"
    );
    assert_eq!(list[0]["counts"], json!({"fault": 2}));
    assert_eq!(
        list[0]["attention"],
        json!([
            {"kind": "fault", "text": "2 faults, the worst warning, the latest of them 2025-06-16 00:00 UTC"},
            {"kind": "silent", "text": "Silent for 7 days, last report 2025-06-16 01:00 UTC"},
            {"kind": "high_idle", "text": "Idle 60 % of engine hours (above 40 %)"},
        ])
    );
    assert_eq!(
        list[2]["attention"],
        json!([{"kind": "silent", "text": "Never reported"}]),
        "no data in the window: null figures, nothing but its silence"
    );
    // No data: every figure null, nothing counted.
    for key in [
        "engine_hours_h",
        "fuel_used_l",
        "co2_kg",
        "expected_hours_h",
        "stops_count",
    ] {
        assert_eq!(list[2]["totals"][key], Value::Null, "{key}");
    }
    assert_eq!(list[2]["counts"], json!({}));
    let t = &v["totals"];
    assert_eq!(t["engine_hours_h"], json!(10.3));
    assert_eq!(t["idle_hours_h"], json!(6.0));
    assert_eq!(t["fuel_used_l"], json!(103.0));
    assert_eq!(t["distance_km"], json!(20.01));
    assert_eq!(t["co2_kg"], Value::Null);
    // From the sums, not an average of the machines' shares.
    assert_eq!(t["idle_percent"], json!(58.3));
    assert_eq!(t["fuel_per_engine_hour_l"], json!(10.0));
    assert_eq!(t["machines"], json!(3));
    assert_eq!(t["machines_reporting"], json!(2));
    assert_eq!(v["counts"], json!({"fault": 3}));
    assert_eq!(v["notes"], json!(notes));
}

#[test]
fn imperial_keys_say_their_units() {
    let m = machines();
    let mut d = doc(&m, &[]);
    d.units = UnitSystem::Imperial;
    let v = fleet_json(&d);
    assert!(v["totals"].get("fuel_used_gal").is_some());
    assert!(v["totals"].get("fuel_used_l").is_none());
    assert!(v["machines"][0]["totals"].get("distance_mi").is_some());
    // 103 L in US gallons, to 0.1.
    assert_eq!(v["totals"]["fuel_used_gal"], json!(27.2));
}

#[test]
fn csv_has_a_row_per_machine_then_the_total_and_no_formula() {
    let m = machines();
    let mut out = Vec::new();
    write_fleet_report(&doc(&m, &[]), ReportFormat::Csv, &mut out).expect("written");
    let text = String::from_utf8(out).expect("utf-8");
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().expect("header").clone();
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let rows: Vec<csv::StringRecord> = r.records().map(|r| r.expect("row")).collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(&rows[0][col("equipment")], "1");
    assert_eq!(&rows[1][col("name")], "'=cmd|calc", "no formula");
    assert_eq!(&rows[2][col("engine_hours_h")], "");
    assert_eq!(&rows[2][col("fault_events")], "");
    assert_eq!(&rows[0][col("fault_events")], "2");
    assert_eq!(&rows[3][col("equipment")], "total");
    assert_eq!(&rows[3][col("engine_hours_h")], "10.3");
    assert_eq!(&rows[3][col("idle_percent")], "58.3");
    assert_eq!(&rows[3][col("fault_events")], "3");
    assert_eq!(&rows[3][col("stops_count")], "", "not a fleet total");
}

#[test]
fn markdown_names_every_machine_and_what_needs_attention() {
    let m = machines();
    let notes = vec!["equipment 3 is | not cached".to_owned()];
    let text = fleet_markdown(&doc(&m, &notes));
    assert!(
        text.starts_with("# Fleet report, Monday 16 June 2025 to Sunday 22 June 2025\n"),
        "{text}"
    );
    assert!(text.contains("| Engine hours | 10.30 h |"), "{text}");
    assert!(text.contains("| Idle share | 58.3 % |"), "{text}");
    assert!(text.contains("| Machines reporting | 2 |"), "{text}");
    assert!(
        text.contains(
            "- **RT-001 <Dig>** (equipment 1)\n  - 2 faults, the worst warning, the latest of \
             them 2025-06-16 00:00 UTC\n  - Silent for 7 days"
        ),
        "{text}"
    );
    assert!(
        text.contains("  - Idle 60 % of engine hours (above 40 %)\n"),
        "{text}"
    );
    assert!(text.contains("| =cmd\\|calc (2) |"), "{text}");
    assert!(text.contains("| Laid up (3) | — | — |"), "{text}");
    assert!(text.contains("| Fuel used (L) |"), "{text}");
    assert!(text.contains("- equipment 3 is \\| not cached"), "{text}");
}

#[test]
fn the_machines_needing_attention_are_listed_worst_first() {
    // Listed in another order: a machine that only never reported after
    // one with faults, silent and idle.
    let mut m = machines();
    m.reverse();
    let notes = Vec::new();
    let text = fleet_markdown(&doc(&m, &notes));
    let at = |name: &str| text.find(&format!("**{name}**")).expect(name);
    assert!(at("RT-001 <Dig>") < at("Laid up"), "{text}");
}
