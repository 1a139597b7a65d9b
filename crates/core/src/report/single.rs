//! One machine's report: JSON for scripts, CSV for spreadsheets, Markdown
//! for e-mails, HTML to print or send. Each carries every figure
//! (`Figure::ALL`) for the window and for each of its UTC days, rounded to
//! what it means in the units chosen; a figure the data do not give is
//! `null`, an empty cell or a dash, never 0. The window's events and
//! findings (D16) follow (`events`).

use std::io::Write;

use serde_json::{Map, Value, json};

use super::events::{counts_json, event_json, rules_json};
use super::numbers::{header, number_cell, number_json, shown, value_in};
use super::words::{day_of, window_words};
use crate::analysis::events::counts;
use crate::analysis::{Expected, Figure, Figures, Report, UnitSystem};
use crate::export::ExportError;
use fleetview_api::time::{TimeWindow, format_wire};

/// What a document says: the report and what it was asked for.
#[derive(Debug, Clone, Copy)]
pub struct ReportDoc<'a> {
    pub equipment: i64,
    /// The name the machine is listed under, where the service gives one.
    pub name: Option<&'a str>,
    pub window: TimeWindow,
    pub expected: Expected,
    pub report: &'a Report,
    /// Said in the document too (JSON, Markdown, HTML), besides stderr.
    pub notes: &'a [String],
    /// The units figures are written in (the keys and headers say which).
    pub units: UnitSystem,
}

impl ReportDoc<'_> {
    /// The machine as a title names it: `RT-003 (equipment 1003)`.
    pub fn who(&self) -> String {
        match self.name.map(str::trim).filter(|n| !n.is_empty()) {
            Some(name) => format!("{name} (equipment {})", self.equipment),
            None => format!("equipment {}", self.equipment),
        }
    }
}

/// Every figure of `f` into `into`, keyed in the units chosen.
pub(crate) fn figures_json(f: &Figures, units: UnitSystem, into: &mut Map<String, Value>) {
    for figure in Figure::ALL {
        into.insert(
            figure.key_in(units).into_owned(),
            number_json(figure, value_in(f, figure, units)),
        );
    }
}

fn estimated_json(f: &Figures, units: UnitSystem) -> Value {
    Value::Object(
        Figure::ALL
            .iter()
            .map(|&figure| {
                (
                    figure.key_in(units).into_owned(),
                    json!(f.is_estimated(figure)),
                )
            })
            .collect(),
    )
}

pub fn to_json(doc: &ReportDoc<'_>) -> Value {
    let r = doc.report;
    let mut totals = Map::new();
    let units = doc.units;
    figures_json(&r.totals, units, &mut totals);
    let days: Vec<Value> = r
        .days
        .iter()
        .map(|(day, f)| {
            let mut o = Map::new();
            o.insert("date".to_owned(), json!(day_of(*day)));
            figures_json(f, units, &mut o);
            o.insert("estimated".to_owned(), estimated_json(f, units));
            Value::Object(o)
        })
        .collect();
    json!({
        "equipment": doc.equipment,
        "name": doc.name,
        "window": {
            "since": format_wire(doc.window.since),
            "until": format_wire(doc.window.until),
        },
        "expected_hours_per_working_day": doc.expected.hours_per_working_day,
        "totals": totals,
        "estimated": estimated_json(&r.totals, units),
        "days": days,
        "stops_from": r.stops_from.map(|s| s.describe()),
        "events": r.events.iter().map(|e| event_json(e, units)).collect::<Vec<_>>(),
        "counts": counts_json(&r.events),
        "rules": rules_json(),
        "notes": doc.notes,
    })
}

/// `date,<keys>`, a row per day, then `total`.
pub(crate) fn write_csv(
    report: &Report,
    units: UnitSystem,
    out: impl Write,
) -> Result<(), ExportError> {
    let mut w = csv::Writer::from_writer(out);
    let header = std::iter::once("date".to_owned())
        .chain(Figure::ALL.iter().map(|f| f.key_in(units).into_owned()));
    w.write_record(header)?;
    let rows = report
        .days
        .iter()
        .map(|(day, f)| (day_of(*day), f))
        .chain(std::iter::once(("total".to_owned(), &report.totals)));
    for (label, f) in rows {
        let cells = Figure::ALL
            .iter()
            .map(|&fig| number_cell(fig, value_in(f, fig, units)));
        w.write_record(std::iter::once(label).chain(cells))?;
    }
    w.flush()?;
    Ok(())
}

/// A figure for people, `(est.)` where it rests on estimates.
pub(crate) fn figure_text(
    f: &Figures,
    figure: Figure,
    with_unit: bool,
    units: UnitSystem,
) -> String {
    let v = value_in(f, figure, units);
    let mut s = shown(figure, v, with_unit, units);
    if v.is_some() && f.is_estimated(figure) {
        s.push_str(" (est.)");
    }
    s
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|")
}

pub fn to_markdown(doc: &ReportDoc<'_>) -> String {
    use std::fmt::Write as _;
    let r = doc.report;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Report of {}, {}\n",
        md_escape(&doc.who()),
        window_words(doc.window)
    );
    let _ = writeln!(
        s,
        "Days are UTC days, as the service's daily figures are. Utilisation is \
         measured against {} h per working day (Monday to Friday).{}\n",
        doc.expected.hours_per_working_day,
        r.stops_from
            .map(|src| format!(" Stops from {}.", src.describe()))
            .unwrap_or_default()
    );
    s.push_str("## Totals\n\n| Figure | Value | How it is computed |\n|---|---:|---|\n");
    for figure in Figure::ALL {
        let _ = writeln!(
            s,
            "| {} | {} | {} |",
            figure.label(),
            figure_text(&r.totals, figure, true, doc.units),
            md_escape(figure.how())
        );
    }
    s.push_str("\n## Days\n\n| Date |");
    for figure in Figure::ALL {
        let _ = write!(s, " {} |", header(figure, doc.units));
    }
    s.push_str("\n|---|");
    s.push_str(&"---:|".repeat(Figure::ALL.len()));
    s.push('\n');
    for (day, f) in &r.days {
        let _ = write!(s, "| {} |", day_of(*day));
        for figure in Figure::ALL {
            let _ = write!(s, " {} |", figure_text(f, figure, false, doc.units));
        }
        s.push('\n');
    }
    events_markdown(doc, &mut s);
    if !doc.notes.is_empty() {
        s.push_str("\n## Notes\n\n");
        for n in doc.notes {
            let _ = writeln!(s, "- {}", md_escape(n));
        }
    }
    s
}

/// The events: counted by kind, one sentence each, then the rules.
fn events_markdown(doc: &ReportDoc<'_>, s: &mut String) {
    use std::fmt::Write as _;
    let r = doc.report;
    s.push_str("\n## Events\n\n");
    if r.events.is_empty() {
        s.push_str("None in this window.\n");
    } else {
        let tally: Vec<String> = counts(&r.events)
            .iter()
            .map(|(k, n)| format!("{} {n}", k.label()))
            .collect();
        let _ = writeln!(s, "{}.\n", tally.join(", "));
        s.push_str("| Start | End | Kind | What |\n|---|---|---|---|\n");
        for e in &r.events {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} |",
                format_wire(e.start),
                e.end.map(format_wire).unwrap_or_default(),
                e.kind.label(),
                md_escape(&super::words::summary(e, doc.units))
            );
        }
    }
    s.push_str("\n### Rules\n\n");
    for k in crate::analysis::events::EventKind::ALL {
        let _ = writeln!(s, "- **{}**: {}", k.label(), k.rule());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::DayInput;
    use crate::report::write::{ReportFormat, write_report};
    use fleetview_api::time::SECS_PER_DAY;

    fn sample() -> Report {
        let expected = Expected::default();
        // 2025-06-16 (a Monday) with data, 2025-06-17 without.
        let monday = 20_255;
        let with_data = DayInput {
            day: monday,
            engine_hours_h: Some(0.1),
            working_hours_h: Some(0.0),
            idle_hours_h: Some(0.1),
            fuel_used_l: Some(0.2),
            fuel_estimated: true,
            distance_km: Some(1.5),
            ..DayInput::default()
        };
        let without = DayInput {
            day: monday + 1,
            ..DayInput::default()
        };
        let mut totals = Figures::over(&[with_data, without], expected);
        totals.activities = Some(3);
        Report {
            window: None,
            expected: Some(expected),
            totals,
            days: vec![
                (monday, Figures::over(&[with_data], expected)),
                (monday + 1, Figures::over(&[without], expected)),
            ],
            stops: Vec::new(),
            stops_from: None,
            events: Vec::new(),
            time_zone: None,
        }
    }

    fn doc<'a>(report: &'a Report, notes: &'a [String]) -> ReportDoc<'a> {
        ReportDoc {
            equipment: 7,
            name: Some("RT-007"),
            window: TimeWindow {
                since: 20_255 * SECS_PER_DAY,
                until: 20_257 * SECS_PER_DAY - 1,
            },
            expected: Expected::default(),
            report,
            notes,
            units: UnitSystem::Metric,
        }
    }

    #[test]
    fn json_keeps_missing_as_null_counts_whole_and_sums_clean() {
        let report = sample();
        let v = to_json(&doc(&report, &[]));
        assert_eq!(v["window"]["since"], "2025-06-16T00:00:00Z");
        assert_eq!(v["totals"]["engine_hours_h"], json!(0.1));
        assert_eq!(v["totals"]["co2_kg"], Value::Null);
        assert_eq!(v["totals"]["activities_count"], json!(3));
        assert_eq!(v["totals"]["stops_count"], Value::Null);
        assert_eq!(v["estimated"]["fuel_used_l"], json!(true));
        assert_eq!(v["estimated"]["co2_kg"], json!(false));
        assert_eq!(v["stops_from"], Value::Null);
        let days = v["days"].as_array().expect("days");
        assert_eq!(days[0]["date"], "2025-06-16");
        assert_eq!(days[1]["date"], "2025-06-17");
        assert_eq!(days[1]["engine_hours_h"], Value::Null, "not 0");
        assert_eq!(days[1]["expected_hours_h"], json!(8.0));
        // 0.1 / 8 h: no float noise past 9 decimals.
        assert_eq!(
            days[0]["utilisation_percent"],
            json!(1.3),
            "a percent to 0.1"
        );
        assert_eq!(v["name"], "RT-007");
    }

    #[test]
    fn csv_has_the_keys_a_row_per_day_and_the_total() {
        let report = sample();
        let mut out = Vec::new();
        write_report(&doc(&report, &[]), ReportFormat::Csv, &mut out).expect("written");
        let text = String::from_utf8(out).expect("utf-8");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("date,engine_hours_h,working_hours_h,idle_hours_h,"));
        // The days, the total, a blank line and the events' header.
        assert_eq!(lines.len(), 6);
        assert_eq!(lines[4], "");
        assert!(
            lines[5].starts_with("kind,start,end,duration_s,"),
            "{}",
            lines[5]
        );
        assert!(
            lines[1].starts_with("2025-06-16,0.1,0,0.1,100,0.2,"),
            "{}",
            lines[1]
        );
        assert!(lines[2].starts_with("2025-06-17,,,,,,"), "{}", lines[2]);
        assert!(lines[3].starts_with("total,0.1,"), "{}", lines[3]);
        let cells = lines[3].split(',').count();
        assert_eq!(cells, 1 + Figure::ALL.len());
    }

    #[test]
    fn markdown_gives_units_estimates_dashes_and_notes() {
        let report = sample();
        let notes = vec!["a | note".to_owned()];
        let md = to_markdown(&doc(&report, &notes));
        assert!(
            md.starts_with(
                "# Report of RT-007 (equipment 7), Monday 16 June 2025 to Tuesday 17 June 2025"
            ),
            "{md}"
        );
        assert!(md.contains("| Engine hours | 0.10 h | Sum of the daily operating"));
        assert!(md.contains("| Fuel used | 0.2 L (est.) |"));
        assert!(md.contains("| CO2 | — |"));
        assert!(md.contains("| Activities | 3 |"));
        assert!(md.contains("| Date | Engine hours (h) |"));
        assert!(md.contains("| 2025-06-17 | — |"));
        assert!(md.contains("- a \\| note"));
    }
}
