//! The reports as one self-contained HTML file: the styles inline, the
//! charts inline SVG (`svg`), nothing loaded by URL, so it opens anywhere
//! and prints to PDF from a browser (print styles: each machine on its own
//! page, no row split). Every text from the service (names, fault
//! descriptions) is escaped: names are typed by whoever runs the fleet.

use std::fmt::Write as _;

use super::fleet::{
    FleetDoc, FleetMachine, SHOWN, counts_line, kind_line, needing_attention, totals_lines,
};
use super::markup::esc;
use super::numbers::{decimals, header, shown, value_in};
use super::single::{ReportDoc, figure_text};
use super::svg::{Bar, bar_chart};
use super::words::{day_of, summary, time_words, window_words};
use crate::analysis::events::EventKind;
use crate::analysis::{Event, Figure, Figures, Report, UnitSystem};

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;\
color:#111;margin:2em auto;max-width:60em;padding:0 1em;line-height:1.4}\
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ccc}\
h3{font-size:1.05em}.window{font-size:1.1em;margin-top:0}.muted{color:#555}\
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}\
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}\
td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f2f2f2}\
.chart{width:100%;max-width:40em;height:auto;display:block}\
.attention li{margin:.2em 0}.kind{font-weight:600}\
@page{size:A4;margin:14mm}\
@media print{body{margin:0;max-width:none;font-size:10pt}\
section.machine{break-before:page}h2,h3{break-after:avoid}\
tr,li,svg{break-inside:avoid}a{color:inherit;text-decoration:none}}";

/// `<!DOCTYPE html>` to `<body>`, titled.
fn open(s: &mut String, title: &str) {
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(title)
    );
}

fn close(s: &mut String, notes: &[String]) {
    if !notes.is_empty() {
        s.push_str("<h2>Notes</h2>\n<ul>\n");
        for n in notes {
            let _ = writeln!(s, "<li>{}</li>", esc(n));
        }
        s.push_str("</ul>\n");
    }
    s.push_str("</body>\n</html>\n");
}

/// A two-column table of labels and values.
fn pairs_table(s: &mut String, rows: &[(String, String)]) {
    s.push_str("<table>\n<tr><th>Figure</th><th>Value</th></tr>\n");
    for (label, value) in rows {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td class=\"n\">{}</td></tr>",
            esc(label),
            esc(value)
        );
    }
    s.push_str("</table>\n");
}

/// The daily charts of a machine (or the fleet's sums): engine hours, fuel
/// and distance per day, the charts of figures with no data left out.
fn daily_charts(s: &mut String, days: &[(i64, Figures)], units: UnitSystem) {
    for figure in [Figure::EngineHours, Figure::FuelUsed, Figure::Distance] {
        let bars: Vec<Bar> = days
            .iter()
            .map(|(day, f)| Bar {
                label: day_of(*day)[5..].to_owned(),
                value: value_in(f, figure, units),
            })
            .collect();
        if bars.iter().all(|b| b.value.is_none()) {
            continue;
        }
        let what = format!("{} per day ({})", figure.label(), figure.unit_in(units));
        let _ = writeln!(s, "<h3>{}</h3>", esc(&what));
        s.push_str(&bar_chart(
            &what,
            figure.unit_in(units),
            decimals(figure),
            &bars,
        ));
        s.push('\n');
    }
}

/// The events in sentences; stops only counted (a week has many).
fn events_list(s: &mut String, events: &[Event], units: UnitSystem) {
    let stops = events.iter().filter(|e| e.kind == EventKind::Stop).count();
    let listed: Vec<&Event> = events
        .iter()
        .filter(|e| e.kind != EventKind::Stop)
        .collect();
    if listed.is_empty() && stops == 0 {
        s.push_str("<p>No events in this window.</p>\n");
        return;
    }
    if stops > 0 {
        let _ = writeln!(
            s,
            "<p>{stops} {} (engine off 5 min or more), not listed.</p>",
            if stops == 1 { "stop" } else { "stops" }
        );
    }
    if listed.is_empty() {
        return;
    }
    s.push_str("<ul class=\"events\">\n");
    for e in listed {
        let _ = writeln!(
            s,
            "<li><span class=\"kind\">{}</span>, {}: {}.</li>",
            esc(e.kind.label()),
            esc(&time_words(e.start)),
            esc(&summary(e, units))
        );
    }
    s.push_str("</ul>\n");
}

/// One machine's report as one HTML file.
pub(crate) fn single_html(doc: &ReportDoc<'_>) -> String {
    let r = doc.report;
    let mut s = String::new();
    let title = format!("Report of {}", doc.who());
    open(&mut s, &format!("{title}, {}", window_words(doc.window)));
    let _ = writeln!(s, "<h1>{}</h1>", esc(&title));
    let _ = writeln!(
        s,
        "<p class=\"window\">{}</p>",
        esc(&window_words(doc.window))
    );
    let _ = writeln!(
        s,
        "<p class=\"muted\">Days are UTC days, as the service's daily figures are. \
         Utilisation is measured against {} h per working day (Monday to Friday).</p>",
        doc.expected.hours_per_working_day
    );
    s.push_str("<h2>Totals</h2>\n");
    let rows: Vec<(String, String)> = Figure::ALL
        .iter()
        .map(|&f| {
            (
                f.label().to_owned(),
                figure_text(&r.totals, f, true, doc.units),
            )
        })
        .collect();
    pairs_table(&mut s, &rows);
    s.push_str("<h2>Daily charts</h2>\n");
    daily_charts(&mut s, &r.days, doc.units);
    days_table(&mut s, r, doc.units);
    s.push_str("<h2>Events</h2>\n");
    events_list(&mut s, &r.events, doc.units);
    close(&mut s, doc.notes);
    s
}

fn days_table(s: &mut String, r: &Report, units: UnitSystem) {
    s.push_str("<h2>Days</h2>\n<table>\n<tr><th>Date</th>");
    for f in SHOWN {
        let _ = write!(s, "<th>{}</th>", esc(&header(f, units)));
    }
    s.push_str("</tr>\n");
    for (day, f) in &r.days {
        let _ = write!(s, "<tr><td>{}</td>", day_of(*day));
        for fig in SHOWN {
            let _ = write!(
                s,
                "<td class=\"n\">{}</td>",
                esc(&figure_text(f, fig, false, units))
            );
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</table>\n");
}

/// The fleet's days: each day's figures summed over the machines.
fn fleet_days(machines: &[FleetMachine]) -> Vec<(i64, Figures)> {
    let mut days: Vec<(i64, Figures)> = Vec::new();
    for r in machines.iter().filter_map(|m| m.report.as_ref()) {
        for (day, f) in &r.days {
            let k = match days.iter().position(|(d, _)| d == day) {
                Some(k) => k,
                None => {
                    days.push((*day, Figures::default()));
                    days.len() - 1
                }
            };
            days[k].1.add_sums(f);
        }
    }
    days.sort_by_key(|(d, _)| *d);
    days
}

/// The fleet's report as one HTML file.
pub(crate) fn fleet_html(doc: &FleetDoc<'_>) -> String {
    let mut s = String::new();
    let window = window_words(doc.window);
    open(&mut s, &format!("Fleet report, {window}"));
    s.push_str("<h1>Fleet report</h1>\n");
    let _ = writeln!(s, "<p class=\"window\">{}</p>", esc(&window));
    let _ = writeln!(
        s,
        "<p class=\"muted\">Made {}. Days are UTC days, as the service's daily figures are.</p>",
        esc(&time_words(doc.generated_at))
    );
    s.push_str("<h2>Totals</h2>\n");
    pairs_table(&mut s, &totals_lines(doc));
    s.push_str("<h2>Needs attention</h2>\n");
    if needing_attention(doc.machines).is_empty() {
        s.push_str("<p>Nothing in this window.</p>\n");
    } else {
        s.push_str("<ul class=\"attention\">\n");
        for m in needing_attention(doc.machines) {
            let _ = writeln!(
                s,
                "<li><a href=\"#m{}\">{}</a>\n<ul>",
                m.equipment,
                esc(&m.title())
            );
            for a in &m.attention {
                let _ = writeln!(s, "<li>{}</li>", esc(&a.text));
            }
            s.push_str("</ul></li>\n");
        }
        s.push_str("</ul>\n");
    }
    s.push_str("<h2>Daily charts (the fleet)</h2>\n");
    daily_charts(&mut s, &fleet_days(doc.machines), doc.units);
    machines_table(&mut s, doc);
    for m in doc.machines {
        machine_section(&mut s, m, doc.units);
    }
    close(&mut s, doc.notes);
    s
}

fn machines_table(s: &mut String, doc: &FleetDoc<'_>) {
    s.push_str("<h2>Machines</h2>\n<table>\n<tr><th>Machine</th><th>Kind</th>");
    for f in SHOWN {
        let _ = write!(s, "<th>{}</th>", esc(&header(f, doc.units)));
    }
    s.push_str("<th>Events</th></tr>\n");
    for m in doc.machines {
        let _ = write!(
            s,
            "<tr><td><a href=\"#m{}\">{}</a></td><td>{}</td>",
            m.equipment,
            esc(&m.title()),
            esc(&kind_line(m))
        );
        for f in SHOWN {
            let v = m
                .report
                .as_ref()
                .and_then(|r| value_in(&r.totals, f, doc.units));
            let _ = write!(
                s,
                "<td class=\"n\">{}</td>",
                esc(&shown(f, v, false, doc.units))
            );
        }
        let _ = writeln!(s, "<td>{}</td></tr>", esc(&counts_line(m)));
    }
    s.push_str("</table>\n");
}

fn machine_section(s: &mut String, m: &FleetMachine, units: UnitSystem) {
    let _ = writeln!(
        s,
        "<section class=\"machine\" id=\"m{}\">\n<h2>{} (equipment {})</h2>\n<p class=\"muted\">{}</p>",
        m.equipment,
        esc(&m.title()),
        m.equipment,
        esc(&kind_line(m))
    );
    if !m.attention.is_empty() {
        s.push_str("<ul class=\"attention\">\n");
        for a in &m.attention {
            let _ = writeln!(s, "<li>{}</li>", esc(&a.text));
        }
        s.push_str("</ul>\n");
    }
    match &m.report {
        None => s.push_str("<p>No data for this window.</p>\n"),
        Some(r) => {
            let rows: Vec<(String, String)> = SHOWN
                .iter()
                .map(|&f| (f.label().to_owned(), figure_text(&r.totals, f, true, units)))
                .collect();
            pairs_table(s, &rows);
            daily_charts(s, &r.days, units);
            s.push_str("<h3>Events</h3>\n");
            events_list(s, &r.events, units);
        }
    }
    s.push_str("</section>\n");
}

#[cfg(test)]
#[path = "html_tests.rs"]
mod tests;
