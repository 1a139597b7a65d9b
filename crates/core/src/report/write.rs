//! Which format a report is written in, and the writing: JSON, CSV and
//! Markdown from `single` and `fleet`, HTML from `html`.

use std::io::Write;

use super::events::{events_json, write_events_csv, write_events_into};
use super::fleet::{FleetDoc, fleet_json, fleet_markdown, write_fleet_csv};
use super::html::{fleet_html, single_html};
use super::single::{ReportDoc, to_json, to_markdown, write_csv};
use crate::export::ExportError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    Json,
    Csv,
    Markdown,
    /// One self-contained HTML file (inline styles and SVG charts).
    Html,
    /// The events alone (`fleetview export --kind events`).
    EventsCsv,
    EventsJson,
}

impl ReportFormat {
    /// The file name's extension.
    pub fn extension(self) -> &'static str {
        match self {
            ReportFormat::Json | ReportFormat::EventsJson => "json",
            ReportFormat::Csv | ReportFormat::EventsCsv => "csv",
            ReportFormat::Markdown => "md",
            ReportFormat::Html => "html",
        }
    }

    /// What people call it.
    pub fn label(self) -> &'static str {
        match self {
            ReportFormat::Json | ReportFormat::EventsJson => "JSON",
            ReportFormat::Csv | ReportFormat::EventsCsv => "CSV",
            ReportFormat::Markdown => "Markdown",
            ReportFormat::Html => "HTML",
        }
    }
}

/// One machine's report in `format`.
pub fn write_report(
    doc: &ReportDoc<'_>,
    format: ReportFormat,
    mut out: impl Write,
) -> Result<(), ExportError> {
    match format {
        ReportFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &to_json(doc))?;
            out.write_all(b"\n")?;
        }
        ReportFormat::Csv => {
            write_csv(doc.report, doc.units, &mut out)?;
            // The events' table after a blank line: a second table with its
            // own header, as spreadsheets read a sheet with two tables.
            out.write_all(b"\n")?;
            let mut w = csv::Writer::from_writer(&mut out);
            write_events_into(&doc.report.events, doc.units, &mut w)?;
            w.flush()?;
        }
        ReportFormat::Markdown => out.write_all(to_markdown(doc).as_bytes())?,
        ReportFormat::Html => out.write_all(single_html(doc).as_bytes())?,
        ReportFormat::EventsCsv => write_events_csv(&doc.report.events, doc.units, out)?,
        ReportFormat::EventsJson => {
            serde_json::to_writer_pretty(&mut out, &events_json(&doc.report.events, doc.units))?;
            out.write_all(b"\n")?;
        }
    }
    Ok(())
}

/// The fleet's report in `format` (the events alone are not a fleet
/// format: they write the report as JSON or CSV).
pub fn write_fleet_report(
    doc: &FleetDoc<'_>,
    format: ReportFormat,
    mut out: impl Write,
) -> Result<(), ExportError> {
    match format {
        ReportFormat::Json | ReportFormat::EventsJson => {
            serde_json::to_writer_pretty(&mut out, &fleet_json(doc))?;
            out.write_all(b"\n")?;
        }
        ReportFormat::Csv | ReportFormat::EventsCsv => write_fleet_csv(doc, out)?,
        ReportFormat::Markdown => out.write_all(fleet_markdown(doc).as_bytes())?,
        ReportFormat::Html => out.write_all(fleet_html(doc).as_bytes())?,
    }
    Ok(())
}
