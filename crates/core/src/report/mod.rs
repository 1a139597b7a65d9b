//! Reports to send: one machine's, or the fleet's, over a window, as JSON
//! for scripts, CSV for spreadsheets, Markdown for e-mails and one
//! self-contained HTML file that prints to PDF. Pure writers over figures
//! the worker computed (`analysis`); the command line and the desktop app
//! both write them through the worker. What needs attention is the Fleet
//! page's definition (`analysis::attention`), over the report's window.
//!
//! - `numbers`: every number rounded to what it means (`export::round`).
//! - `events`: the events and findings (D16) as written.
//! - `words`: each event in a sentence.
//! - `single`: one machine's report.
//! - `fleet`: the fleet's report.
//! - `html`, `svg`, `markup`: the HTML file, its inline bar charts, escaping.
//! - `write`: the formats, and which writer writes each.

pub mod events;
pub mod fleet;
mod html;
mod markup;
pub(crate) mod numbers;
pub mod single;
mod svg;
pub mod words;
pub mod write;

pub use fleet::{FleetDoc, FleetMachine};
pub use single::ReportDoc;
pub use write::{ReportFormat, write_fleet_report, write_report};
