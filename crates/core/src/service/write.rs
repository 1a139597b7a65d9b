//! The service book written out: plans and services done as CSV (read
//! back by `import`), what is due as JSON or CSV, and upcoming services
//! as an iCalendar file (RFC 5545).

use std::fmt::Write as _;

use super::due::DueItem;
use super::import::{DONE_HEADER, PLAN_HEADER};
use super::plan::PlanUnit;
use super::plan::{Day, DoneRecord, StoredPlan};
use crate::export::round::{Measure, round};

/// A value in a plan's unit rounded as every export rounds it (hours and
/// km to 0.01, days whole).
fn rounded(unit: PlanUnit, v: f64) -> Option<f64> {
    match unit {
        PlanUnit::Hours => round(Measure::Hours, v),
        PlanUnit::Km => round(Measure::Distance, v),
        PlanUnit::Days => v.is_finite().then(|| v.round()),
    }
}

/// A number as the CSV files write it: no trailing `.0`, no float noise.
fn number(v: f64) -> String {
    let r = round(Measure::Other, v).unwrap_or(0.0);
    if r.fract() == 0.0 && r.abs() < 1e15 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

fn csv_writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new().from_writer(Vec::new())
}

fn finish(w: csv::Writer<Vec<u8>>) -> Vec<u8> {
    // A Vec takes every byte.
    w.into_inner().unwrap_or_default()
}

/// The plans as CSV, in the import's header.
pub fn plans_csv(plans: &[StoredPlan]) -> Vec<u8> {
    let mut w = csv_writer();
    let _ = w.write_record(PLAN_HEADER);
    for p in plans {
        let p = &p.plan;
        let (date, meter) = match p.last_done {
            Some(l) => (l.day.to_string(), l.meter.map(number).unwrap_or_default()),
            None => (String::new(), String::new()),
        };
        let _ = w.write_record([
            p.scope.key(),
            p.task.clone(),
            number(p.every),
            p.unit.key().to_owned(),
            date,
            meter,
        ]);
    }
    finish(w)
}

/// The services done as CSV, oldest first.
pub fn done_csv(done: &[DoneRecord]) -> Vec<u8> {
    let mut w = csv_writer();
    let _ = w.write_record(DONE_HEADER);
    for r in done {
        let _ = w.write_record([
            r.equipment.to_string(),
            r.task.clone(),
            r.unit.key().to_owned(),
            r.done.day.to_string(),
            r.done.meter.map(number).unwrap_or_default(),
        ]);
    }
    finish(w)
}

/// One item of `service due`, keyed as the JSON writes it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DueRow {
    pub equipment: i64,
    pub name: String,
    pub task: String,
    pub unit: &'static str,
    pub every: f64,
    pub last_done_date: Option<String>,
    pub last_done_meter: Option<f64>,
    pub meter_now: Option<f64>,
    pub next_due_meter: Option<f64>,
    pub remaining: Option<f64>,
    pub forecast_date: Option<String>,
    pub due_date: Option<String>,
    pub status: &'static str,
}

impl DueRow {
    pub fn of(item: &DueItem, name: &str) -> Self {
        let unit = item.plan.plan.unit;
        let r = |v: Option<f64>| v.and_then(|v| rounded(unit, v));
        Self {
            equipment: item.equipment,
            name: name.to_owned(),
            task: item.plan.plan.task.clone(),
            unit: item.plan.plan.unit.key(),
            every: round(Measure::Other, item.plan.plan.every).unwrap_or(0.0),
            last_done_date: item.last_done.map(|l| l.day.to_string()),
            last_done_meter: r(item.last_done.and_then(|l| l.meter)),
            meter_now: r(item.meter_now),
            next_due_meter: r(item.next_due_meter),
            remaining: r(item.remaining),
            forecast_date: item.forecast.day().map(|d| d.to_string()),
            due_date: item.due_day.map(|d| d.to_string()),
            status: item.status.key(),
        }
    }
}

/// `{"generated_at", "items": [...]}`.
pub fn due_json(rows: &[DueRow], generated_at: &str) -> Vec<u8> {
    let doc = serde_json::json!({ "generated_at": generated_at, "items": rows });
    let mut out = serde_json::to_vec_pretty(&doc).unwrap_or_default();
    out.push(b'\n');
    out
}

/// The same items as CSV, one column per JSON key.
pub fn due_csv(rows: &[DueRow]) -> Vec<u8> {
    let mut w = csv_writer();
    let _ = w.write_record([
        "equipment",
        "name",
        "task",
        "unit",
        "every",
        "last_done_date",
        "last_done_meter",
        "meter_now",
        "next_due_meter",
        "remaining",
        "forecast_date",
        "due_date",
        "status",
    ]);
    let n = |v: Option<f64>| v.map(number).unwrap_or_default();
    for r in rows {
        let _ = w.write_record([
            r.equipment.to_string(),
            r.name.clone(),
            r.task.clone(),
            r.unit.to_owned(),
            number(r.every),
            r.last_done_date.clone().unwrap_or_default(),
            n(r.last_done_meter),
            n(r.meter_now),
            n(r.next_due_meter),
            n(r.remaining),
            r.forecast_date.clone().unwrap_or_default(),
            r.due_date.clone().unwrap_or_default(),
            r.status.to_owned(),
        ]);
    }
    finish(w)
}

/// Text as an iCalendar value: `\`, `;`, `,` and line ends escaped.
fn ics_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// One content line, folded at 75 octets (never inside a character),
/// ended with CRLF.
fn ics_line(out: &mut String, line: &str) {
    let mut width = 0;
    for c in line.chars() {
        let n = c.len_utf8();
        if width + n > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += n;
    }
    out.push_str("\r\n");
}

fn ics_date(d: Day) -> String {
    d.to_string().replace('-', "")
}

/// An all-day event per dated item (a days plan's due day, a meter plan's
/// forecast; overdue ones on today), with a UID stable across exports so
/// a calendar updates them. `stamp`: UTC seconds of the export.
pub fn calendar(items: &[(DueItem, String)], today: Day, stamp: i64, service: &str) -> Vec<u8> {
    let mut out = String::new();
    for l in [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Fleetview//Service plans//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
    ] {
        ics_line(&mut out, l);
    }
    let dtstamp = fleetview_api::time::format_wire(stamp).replace(['-', ':'], "");
    let host = uid_host(service);
    for (item, name) in items {
        let Some(day) = item.when() else { continue };
        let day = day.max(today);
        let plan = &item.plan.plan;
        let overdue = item.status == super::due::DueStatus::Overdue;
        let summary = format!(
            "{}{}: {}",
            if overdue { "Overdue: " } else { "" },
            plan.task,
            name
        );
        let mut description = format!("Every {} {}", number(plan.every), plan.unit.label());
        if let (Some(m), Some(now)) = (item.next_due_meter, item.meter_now) {
            let _ = write!(
                description,
                "; due at {} {} (now {})",
                number(m),
                plan.unit.key(),
                number(now)
            );
        }
        if let Some(l) = item.last_done {
            let _ = write!(description, "; last done {}", l.day);
        }
        if item.forecast.day().is_some() {
            description.push_str("; date forecast from the last 30 days' use");
        }
        ics_line(&mut out, "BEGIN:VEVENT");
        ics_line(
            &mut out,
            &format!(
                "UID:service-{}-{}@{host}",
                item.equipment,
                uid_part(&item.plan.plan.task)
            ),
        );
        ics_line(&mut out, &format!("DTSTAMP:{dtstamp}"));
        ics_line(&mut out, &format!("DTSTART;VALUE=DATE:{}", ics_date(day)));
        ics_line(
            &mut out,
            &format!("DTEND;VALUE=DATE:{}", ics_date(day.plus_days(1))),
        );
        ics_line(&mut out, &format!("SUMMARY:{}", ics_text(&summary)));
        ics_line(&mut out, &format!("DESCRIPTION:{}", ics_text(&description)));
        ics_line(&mut out, "TRANSP:TRANSPARENT");
        ics_line(&mut out, "END:VEVENT");
    }
    ics_line(&mut out, "END:VCALENDAR");
    out.into_bytes()
}

/// The service in a UID: its host and port, the same whichever way its
/// address was written (`http://host:8080/` or `host:8080`).
fn uid_host(service: &str) -> String {
    let s = service.trim();
    let s = s.split_once("://").map_or(s, |(_, rest)| rest);
    let s = s.split('/').next().unwrap_or(s);
    uid_part(s)
}

/// Letters, digits and dots kept, lower case; anything else a `-`. A
/// task's UID part comes from its name, so a re-imported plan (a new id)
/// keeps its events' UIDs.
fn uid_part(s: &str) -> String {
    s.trim()
        .to_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect()
}
