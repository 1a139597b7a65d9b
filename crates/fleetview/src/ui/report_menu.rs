//! The *Report...* menu of the Fleet page and of a machine's page: one
//! item per format; the worker asks where to save, reads and writes, and a
//! notice says when it is done.

use crate::app::exports::ReportAsk;
use crate::app::{Action, AppState};
use fleetview_core::report::ReportFormat;

/// The formats offered, with what each is for.
const FORMATS: [(ReportFormat, &str, &str); 4] = [
    (
        ReportFormat::Html,
        "HTML (to read, print or send)…",
        "One file with the charts inside: opens in any browser, prints to PDF",
    ),
    (
        ReportFormat::Markdown,
        "Markdown (for e-mail)…",
        "Tables as text, to paste into a message",
    ),
    (
        ReportFormat::Csv,
        "CSV (for a spreadsheet)…",
        "A row per machine or day, then the total",
    ),
    (
        ReportFormat::Json,
        "JSON (for scripts)…",
        "Every figure under fixed keys",
    ),
];

/// `fleet`: the fleet over the Fleet page's window; otherwise the machine
/// open over its window. Greyed while a report is being written.
pub fn report_menu_ui(ui: &mut egui::Ui, state: &AppState, fleet: bool, actions: &mut Vec<Action>) {
    let busy = state.exports().report_under_way.is_some();
    let hint = if fleet {
        "A report of every machine over the Fleet page's window, to send"
    } else {
        "A report of this machine over its window, to send"
    };
    ui.add_enabled_ui(!busy, |ui| {
        ui.menu_button("Report…", |ui| {
            for (format, label, what) in FORMATS {
                if ui.button(label).on_hover_text(what).clicked() {
                    actions.push(Action::Report(ReportAsk { fleet, format }));
                    ui.close();
                }
            }
        })
        .response
        .on_hover_text(hint);
    });
}
