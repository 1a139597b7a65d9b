//! The fleet's report over a window: every machine of the fleet (those
//! with no data in the window with null figures), its figures, its events
//! counted by kind and what needs attention, then the fleet's totals. The
//! JSON's keys are fixed (scripts rely on them): `window`, `generated_at`,
//! `machines`, `totals`, `counts`, `notes`; each machine `equipment`,
//! `name`, `category`, `make`, `model`, `totals` (the one-machine report's
//! keys), `counts` and `attention`. CSV has a row per machine then a
//! `total` row; Markdown and HTML say the same for people.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::events::counts_json;
use super::numbers::{figure_in, header, number_cell, number_json, shown, value_in};
use super::single::figures_json;
use super::words::{time_words, window_words};
use crate::analysis::attention::AttentionRank;
use crate::analysis::events::{EventKind, counts};
use crate::analysis::{Attention, Expected, Figure, Report, UnitSystem};
use crate::export::{ExportError, text_cell};
use fleetview_api::time::{TimeWindow, format_wire};

/// The figures summed over the fleet (their ratios are taken from the sums).
pub const ADDITIVE: [Figure; 6] = [
    Figure::EngineHours,
    Figure::WorkingHours,
    Figure::IdleHours,
    Figure::FuelUsed,
    Figure::Co2,
    Figure::Distance,
];

/// The figures the people's tables show per machine.
pub(crate) const SHOWN: [Figure; 8] = [
    Figure::EngineHours,
    Figure::WorkingHours,
    Figure::IdleHours,
    Figure::IdlePercent,
    Figure::FuelUsed,
    Figure::FuelPerEngineHour,
    Figure::Co2,
    Figure::Distance,
];

/// One machine of the fleet in the report.
#[derive(Debug, Clone, Default)]
pub struct FleetMachine {
    pub equipment: i64,
    pub name: Option<String>,
    pub category: Option<String>,
    pub make: Option<String>,
    pub model: Option<String>,
    /// Its figures and events; `None` where nothing could be read.
    pub report: Option<Arc<Report>>,
    pub attention: Vec<Attention>,
}

impl FleetMachine {
    /// How people know it: its name, else its id.
    pub fn title(&self) -> String {
        match self
            .name
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
        {
            Some(name) => name.to_owned(),
            None => format!("equipment {}", self.equipment),
        }
    }

    /// Whether the service gave any daily usage in the window.
    pub fn reporting(&self) -> bool {
        self.report.as_ref().is_some_and(|r| {
            let t = &r.totals;
            t.engine_hours_h.is_some() || t.fuel_used_l.is_some() || t.distance_km.is_some()
        })
    }

    fn figure(&self, figure: Figure, units: UnitSystem) -> Option<f64> {
        self.report
            .as_ref()
            .and_then(|r| value_in(&r.totals, figure, units))
    }

    fn counts(&self) -> Vec<(EventKind, usize)> {
        self.report
            .as_ref()
            .map(|r| counts(&r.events))
            .unwrap_or_default()
    }
}

/// What the fleet's report says.
#[derive(Debug, Clone, Copy)]
pub struct FleetDoc<'a> {
    pub window: TimeWindow,
    pub generated_at: i64,
    pub machines: &'a [FleetMachine],
    pub notes: &'a [String],
    pub units: UnitSystem,
    pub expected: Expected,
}

/// The fleet's totals: the additive figures summed (metric, unrounded),
/// the machines and those reporting.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FleetTotals {
    sums: Vec<(Figure, Option<f64>)>,
    pub(crate) machines: usize,
    pub(crate) reporting: usize,
}

impl FleetTotals {
    pub(crate) fn of(machines: &[FleetMachine]) -> Self {
        let sums = ADDITIVE
            .iter()
            .map(|&figure| {
                let values = machines
                    .iter()
                    .filter_map(|m| m.report.as_ref()?.totals.value(figure));
                (figure, values.reduce(|a, b| a + b))
            })
            .collect();
        Self {
            sums,
            machines: machines.len(),
            reporting: machines.iter().filter(|m| m.reporting()).count(),
        }
    }

    fn sum(&self, figure: Figure) -> Option<f64> {
        self.sums.iter().find(|(f, _)| *f == figure)?.1
    }

    /// A figure of the fleet, metric: a sum, or a ratio of the sums.
    fn metric(&self, figure: Figure) -> Option<f64> {
        let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) if b > 0.0 => Some(a / b),
            _ => None,
        };
        let engine = self.sum(Figure::EngineHours);
        match figure {
            Figure::IdlePercent => ratio(self.sum(Figure::IdleHours), engine).map(|r| 100.0 * r),
            Figure::FuelPerEngineHour => ratio(self.sum(Figure::FuelUsed), engine),
            f => self.sum(f),
        }
    }

    /// The figures the fleet's totals carry, in the order written.
    pub(crate) fn figures() -> impl Iterator<Item = Figure> {
        ADDITIVE
            .into_iter()
            .chain([Figure::IdlePercent, Figure::FuelPerEngineHour])
    }

    /// A figure of the fleet in `units`, rounded (`None` for a figure the
    /// totals do not carry).
    pub(crate) fn value(&self, figure: Figure, units: UnitSystem) -> Option<f64> {
        figure_in(figure, self.metric(figure), units)
    }
}

/// The events of every machine counted by kind.
fn fleet_counts(machines: &[FleetMachine]) -> BTreeMap<EventKind, usize> {
    let mut all = BTreeMap::new();
    for m in machines {
        for (kind, n) in m.counts() {
            *all.entry(kind).or_default() += n;
        }
    }
    all
}

fn machine_json(m: &FleetMachine, units: UnitSystem) -> Value {
    let mut totals = Map::new();
    match &m.report {
        Some(r) => figures_json(&r.totals, units, &mut totals),
        None => {
            for figure in Figure::ALL {
                totals.insert(figure.key_in(units).into_owned(), Value::Null);
            }
        }
    }
    let counts = m
        .report
        .as_ref()
        .map_or_else(|| json!({}), |r| counts_json(&r.events));
    json!({
        "equipment": m.equipment,
        "name": m.name,
        "category": m.category,
        "make": m.make,
        "model": m.model,
        "totals": totals,
        "counts": counts,
        "attention": m.attention.iter().map(|a| json!({"kind": a.kind.key(), "text": a.text})).collect::<Vec<_>>(),
    })
}

pub fn fleet_json(doc: &FleetDoc<'_>) -> Value {
    let t = FleetTotals::of(doc.machines);
    let mut totals = Map::new();
    for figure in FleetTotals::figures() {
        totals.insert(
            figure.key_in(doc.units).into_owned(),
            number_json(figure, t.value(figure, doc.units)),
        );
    }
    totals.insert("machines".to_owned(), json!(t.machines));
    totals.insert("machines_reporting".to_owned(), json!(t.reporting));
    let counts: Map<String, Value> = fleet_counts(doc.machines)
        .into_iter()
        .map(|(k, n)| (k.key().to_owned(), json!(n)))
        .collect();
    json!({
        "window": {
            "since": format_wire(doc.window.since),
            "until": format_wire(doc.window.until),
        },
        "generated_at": format_wire(doc.generated_at),
        "machines": doc.machines.iter().map(|m| machine_json(m, doc.units)).collect::<Vec<_>>(),
        "totals": totals,
        "counts": counts,
        "notes": doc.notes,
    })
}

/// The machines that need attention, in the fleet's order.
pub(crate) fn needing_attention(machines: &[FleetMachine]) -> Vec<&FleetMachine> {
    let mut needing: Vec<&FleetMachine> = machines
        .iter()
        .filter(|m| !m.attention.is_empty())
        .collect();
    // The worst first, as the Fleet page's table lists them (ties in the
    // fleet's order).
    needing.sort_by_key(|m| std::cmp::Reverse(AttentionRank::of(&m.attention)));
    needing
}

/// The attention of a machine in one cell (CSV).
pub(crate) fn attention_line(m: &FleetMachine) -> String {
    m.attention
        .iter()
        .map(|a| a.text.as_str())
        .collect::<Vec<_>>()
        .join("; ")
}

/// A row per machine, then `total`: identity, every figure, the events
/// counted by kind (`<kind>_events`), the attention.
pub(crate) fn write_fleet_csv(doc: &FleetDoc<'_>, out: impl Write) -> Result<(), ExportError> {
    let units = doc.units;
    let mut w = csv::Writer::from_writer(out);
    let mut header: Vec<String> = ["equipment", "name", "category", "make", "model"]
        .map(str::to_owned)
        .to_vec();
    header.extend(Figure::ALL.iter().map(|f| f.key_in(units).into_owned()));
    header.extend(EventKind::ALL.iter().map(|k| format!("{}_events", k.key())));
    header.push("attention".to_owned());
    w.write_record(&header)?;
    let text = |s: &Option<String>| text_cell(s.as_deref().unwrap_or_default()).into_owned();
    for m in doc.machines {
        let mut row = vec![
            m.equipment.to_string(),
            text(&m.name),
            text(&m.category),
            text(&m.make),
            text(&m.model),
        ];
        row.extend(
            Figure::ALL
                .iter()
                .map(|&f| number_cell(f, m.figure(f, units))),
        );
        let counts = m.counts();
        row.extend(EventKind::ALL.iter().map(|k| {
            let n = counts.iter().find(|(c, _)| c == k).map_or(0, |(_, n)| *n);
            if m.report.is_some() {
                n.to_string()
            } else {
                String::new()
            }
        }));
        row.push(text_cell(&attention_line(m)).into_owned());
        w.write_record(&row)?;
    }
    let t = FleetTotals::of(doc.machines);
    let mut row = vec![
        "total".to_owned(),
        format!("{} machines, {} reporting", t.machines, t.reporting),
        String::new(),
        String::new(),
        String::new(),
    ];
    row.extend(
        Figure::ALL
            .iter()
            .map(|&f| number_cell(f, t.value(f, units))),
    );
    let counts = fleet_counts(doc.machines);
    row.extend(
        EventKind::ALL
            .iter()
            .map(|k| counts.get(k).copied().unwrap_or(0).to_string()),
    );
    let needing = needing_attention(doc.machines).len();
    row.push(format!("{needing} machines need attention"));
    w.write_record(&row)?;
    w.flush()?;
    Ok(())
}

fn md(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The fleet's totals as (label, value) lines for people.
pub(crate) fn totals_lines(doc: &FleetDoc<'_>) -> Vec<(String, String)> {
    let t = FleetTotals::of(doc.machines);
    let mut lines: Vec<(String, String)> = FleetTotals::figures()
        .map(|f| {
            (
                f.label().to_owned(),
                shown(f, t.value(f, doc.units), true, doc.units),
            )
        })
        .collect();
    lines.push(("Machines".to_owned(), t.machines.to_string()));
    lines.push(("Machines reporting".to_owned(), t.reporting.to_string()));
    lines
}

/// A machine's events counted, in words: `Fault 2, Stop 14`.
pub(crate) fn counts_line(m: &FleetMachine) -> String {
    if m.report.is_none() {
        return "—".to_owned();
    }
    let c: Vec<String> = m
        .counts()
        .iter()
        .map(|(k, n)| format!("{} {n}", k.label()))
        .collect();
    if c.is_empty() {
        "none".to_owned()
    } else {
        c.join(", ")
    }
}

/// `Excavator · CAT 320`, or a dash.
pub(crate) fn kind_line(m: &FleetMachine) -> String {
    let parts: Vec<&str> = [&m.category, &m.make, &m.model]
        .into_iter()
        .filter_map(|s| s.as_deref().map(str::trim).filter(|s| !s.is_empty()))
        .collect();
    if parts.is_empty() {
        "—".to_owned()
    } else {
        parts.join(" · ")
    }
}

pub fn fleet_markdown(doc: &FleetDoc<'_>) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(s, "# Fleet report, {}\n", window_words(doc.window));
    let _ = writeln!(
        s,
        "Made {}. Days are UTC days, as the service's daily figures are.\n",
        time_words(doc.generated_at)
    );
    s.push_str("## Totals\n\n| Figure | Value |\n|---|---:|\n");
    for (label, value) in totals_lines(doc) {
        let _ = writeln!(s, "| {label} | {value} |");
    }
    s.push_str("\n## Needs attention\n\n");
    if needing_attention(doc.machines).is_empty() {
        s.push_str("Nothing in this window.\n");
    }
    // A line per machine, then one per item under it: a drain or a reset
    // is an item of its own, with its time (as on the Fleet page).
    for m in needing_attention(doc.machines) {
        let _ = writeln!(s, "- **{}** (equipment {})", md(&m.title()), m.equipment);
        for a in &m.attention {
            let _ = writeln!(s, "  - {}", md(&a.text));
        }
    }
    s.push_str("\n## Machines\n\n| Machine | Kind |");
    for f in SHOWN {
        let _ = write!(s, " {} |", header(f, doc.units));
    }
    s.push_str(" Events |\n|---|---|");
    s.push_str(&"---:|".repeat(SHOWN.len()));
    s.push_str("---|\n");
    for m in doc.machines {
        let _ = write!(
            s,
            "| {} ({}) | {} |",
            md(&m.title()),
            m.equipment,
            md(&kind_line(m))
        );
        for f in SHOWN {
            let _ = write!(
                s,
                " {} |",
                shown(f, m.figure(f, doc.units), false, doc.units)
            );
        }
        let _ = writeln!(s, " {} |", counts_line(m));
    }
    if !doc.notes.is_empty() {
        s.push_str("\n## Notes\n\n");
        for n in doc.notes {
            let _ = writeln!(s, "- {}", md(n));
        }
    }
    s
}

#[cfg(test)]
#[path = "fleet_tests.rs"]
mod tests;
