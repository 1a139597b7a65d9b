use super::*;
use crate::analysis::{Attention, AttentionKind};
use crate::analysis::{DayInput, EventDetail, Expected};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use std::sync::Arc;

const MONDAY: i64 = 20_255;

fn report() -> Report {
    let days: Vec<DayInput> = (0..3)
        .map(|k| DayInput {
            day: MONDAY + k,
            engine_hours_h: (k != 1).then_some(5.0 + k as f64),
            fuel_used_l: (k != 1).then_some(40.0),
            ..DayInput::default()
        })
        .collect();
    let fault = Event {
        kind: EventKind::Fault,
        start: MONDAY * SECS_PER_DAY + 6 * 3600 + 29 * 60,
        end: None,
        position: None,
        detail: EventDetail::Fault {
            identifier: "SPN <100>".into(),
            description: "low oil & pressure".into(),
            severity: Some(2),
            level: "error".into(),
        },
    };
    Report {
        totals: Figures::over(&days, Expected::default()),
        days: days
            .iter()
            .map(|d| {
                (
                    d.day,
                    Figures::over(std::slice::from_ref(d), Expected::default()),
                )
            })
            .collect(),
        events: vec![fault],
        ..Report::default()
    }
}

fn window() -> TimeWindow {
    TimeWindow {
        since: MONDAY * SECS_PER_DAY,
        until: (MONDAY + 3) * SECS_PER_DAY - 1,
    }
}

/// What a self-contained file must not have: anything fetched by URL.
fn assert_self_contained(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(html.matches("<html").count(), 1);
    assert!(html.trim_end().ends_with("</html>"));
    assert!(!html.contains("<script"), "no script");
    assert!(!html.contains("<link"), "no linked style");
    assert!(!html.contains("src="), "nothing loaded");
    assert!(!html.contains("url("), "no style loads by URL");
    assert!(!html.contains("href=\"http"), "links stay inside");
    assert!(html.contains("@media print"));
}

#[test]
fn one_machine_is_one_file_with_its_name_charts_and_sentences() {
    let r = report();
    let notes = vec!["read from the cache".to_owned()];
    let doc = ReportDoc {
        equipment: 7,
        name: Some("<script>alert(1)</script> RT-007"),
        window: window(),
        expected: Expected::default(),
        report: &r,
        notes: &notes,
        units: UnitSystem::Metric,
    };
    let html = single_html(&doc);
    assert_self_contained(&html);
    assert!(
        html.contains(
            "<h1>Report of &lt;script&gt;alert(1)&lt;/script&gt; RT-007 (equipment 7)</h1>"
        ),
        "{html}"
    );
    assert!(html.contains("Monday 16 June 2025 to Wednesday 18 June 2025"));
    assert!(html.contains("<svg"), "charts inline");
    assert!(html.contains("Engine hours per day (h)"));
    assert!(
        html.contains("<td>Engine hours</td><td class=\"n\">12.00 h</td>"),
        "{html}"
    );
    assert!(
        html.contains("Fault</span>, Monday 16 June 2025 06:29 UTC: SPN &lt;100&gt; · low oil &amp; pressure · error."),
        "{html}"
    );
    assert!(html.contains("<li>read from the cache</li>"));
}

#[test]
fn the_fleet_is_one_file_with_every_machine_and_its_attention() {
    let machines = vec![
        FleetMachine {
            equipment: 1,
            name: Some("Digger \"A\"".into()),
            category: Some("Excavator".into()),
            report: Some(Arc::new(report())),
            attention: [
                (AttentionKind::Fault, "1 fault, the worst error"),
                (
                    AttentionKind::FuelDrop,
                    "Suspected fuel drain, 62 % to 44 %",
                ),
            ]
            .map(|(kind, text)| Attention {
                kind,
                text: text.into(),
                at: None,
                position: None,
                level: None,
            })
            .to_vec(),
            ..FleetMachine::default()
        },
        FleetMachine {
            equipment: 2,
            name: Some("Laid up".into()),
            ..FleetMachine::default()
        },
    ];
    let doc = FleetDoc {
        window: window(),
        generated_at: (MONDAY + 3) * SECS_PER_DAY,
        machines: &machines,
        notes: &[],
        units: UnitSystem::Imperial,
        expected: Expected::default(),
    };
    let html = fleet_html(&doc);
    assert_self_contained(&html);
    assert!(html.contains("<h1>Fleet report</h1>"));
    assert!(html.contains("Digger &quot;A&quot;"));
    assert!(html.contains("Laid up"));
    assert!(
        html.contains(
            "<li><a href=\"#m1\">Digger &quot;A&quot;</a>\n<ul>\n<li>1 fault, the worst \
             error</li>\n<li>Suspected fuel drain, 62 % to 44 %</li>\n</ul></li>"
        ),
        "{html}"
    );
    assert!(html.contains("<section class=\"machine\" id=\"m2\">"));
    assert!(html.contains("No data for this window."));
    // Imperial: the headers say gallons.
    assert!(html.contains("<th>Fuel used (gal)</th>"), "{html}");
    assert!(html.contains("Fuel used per day (gal)"));
    assert!(html.contains("<td>Machines reporting</td><td class=\"n\">1</td>"));
}
