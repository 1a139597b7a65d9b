//! Faults: a table of date, severity, level, identifier and description,
//! coloured by level, sortable by any column, filtered by level and text.
//! Any severity number and any label are shown as they come (D9); a missing
//! label shows as `unknown`.

use std::collections::{BTreeMap, BTreeSet};

use egui_extras::{Column, TableRow};

use super::format;
use super::theme;
use super::widgets;
use crate::app::TimelineAction;
use crate::app::{Action, AppState};
use fleetview_api::model::FaultRow;
use fleetview_core::export::shown::ExportContent;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortColumn {
    #[default]
    Date,
    Severity,
    Level,
    Identifier,
    Description,
}

#[derive(Debug)]
pub struct FaultsView {
    pub text: String,
    pub hidden_levels: BTreeSet<String>,
    pub sort: SortColumn,
    pub ascending: bool,
}

impl Default for FaultsView {
    fn default() -> Self {
        Self {
            text: String::new(),
            hidden_levels: BTreeSet::new(),
            sort: SortColumn::Date,
            ascending: true,
        }
    }
}

fn level_of(f: &FaultRow) -> &str {
    f.level()
}

/// Rows to show, in order: filtered by level and text, then sorted.
pub fn visible_rows<'a>(rows: &'a [FaultRow], view: &FaultsView) -> Vec<&'a FaultRow> {
    let text = view.text.to_lowercase();
    let mut out: Vec<&FaultRow> = rows
        .iter()
        .filter(|f| !view.hidden_levels.contains(level_of(f)))
        .filter(|f| {
            text.is_empty()
                || f.identifier.to_lowercase().contains(&text)
                || f.description.to_lowercase().contains(&text)
                || level_of(f).to_lowercase().contains(&text)
        })
        .collect();
    out.sort_by(|a, b| {
        let o = match view.sort {
            SortColumn::Date => a.date.cmp(&b.date),
            SortColumn::Severity => a.severity.cmp(&b.severity),
            SortColumn::Level => level_of(a).cmp(level_of(b)),
            SortColumn::Identifier => a.identifier.cmp(&b.identifier),
            SortColumn::Description => a.description.cmp(&b.description),
        };
        // Ties keep time order.
        let o = o.then(a.date.cmp(&b.date));
        if view.ascending { o } else { o.reverse() }
    });
    out
}

/// The row of `visible` nearest in time to `cursor`.
fn nearest_row(visible: &[&FaultRow], cursor: Option<i64>) -> Option<usize> {
    let c = cursor?;
    (0..visible.len()).min_by_key(|i| (visible[*i].date.0 - c).unsigned_abs())
}

pub fn faults_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut FaultsView,
    actions: &mut Vec<Action>,
) {
    if let Some(e) = state.faults().error() {
        widgets::panel_failed_ui(ui, "Faults", e, actions);
    }
    let empty = Vec::new();
    let rows = state.faults().value().unwrap_or(&empty);
    if state.faults().is_pending() && rows.is_empty() {
        ui.horizontal(|ui| {
            crate::ui::widgets::spinner_ui(ui);
            ui.label("Loading faults");
        });
        return;
    }
    view.filter_bar_ui(ui, rows);
    let visible = visible_rows(rows, view);
    summary_ui(ui, &visible, rows.len(), actions);
    if rows.is_empty() {
        ui.label("No faults in this window.");
        return;
    }
    view.table_ui(ui, state, &visible, actions);
}

/// How many faults are shown, and their export.
fn summary_ui(ui: &mut egui::Ui, visible: &[&FaultRow], total: usize, actions: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        ui.label(format!(
            "{} shown of {} in the window",
            format::count(visible.len(), "fault", "faults"),
            total
        ));
        if ui
            .add_enabled(
                !visible.is_empty(),
                egui::Button::new("Export faults (CSV)…"),
            )
            .on_hover_text("Save the faults shown, filtered and sorted as here")
            .clicked()
        {
            let shown = visible.iter().map(|f| (*f).clone()).collect();
            actions.push(Action::Export(ExportContent::Faults(shown)));
        }
    });
}

impl FaultsView {
    /// The text filter and a check box per level (with its count).
    fn filter_bar_ui(&mut self, ui: &mut egui::Ui, rows: &[FaultRow]) {
        let mut per_level: BTreeMap<&str, usize> = BTreeMap::new();
        for f in rows {
            *per_level.entry(level_of(f)).or_default() += 1;
        }
        ui.horizontal_wrapped(|ui| {
            widgets::labelled_ui(
                ui,
                "Filter",
                egui::TextEdit::singleline(&mut self.text)
                    .hint_text("code or description")
                    .desired_width(200.0),
            );
            ui.separator();
            ui.label("Levels:");
            for (level, count) in &per_level {
                let mut shown = !self.hidden_levels.contains(*level);
                let text = egui::RichText::new(format!("{level} ({count})"))
                    .color(theme::ink(ui, theme::level_color(level)));
                if ui.checkbox(&mut shown, text).changed() {
                    if shown {
                        self.hidden_levels.remove(*level);
                    } else {
                        self.hidden_levels.insert((*level).to_owned());
                    }
                }
            }
        });
    }

    fn table_ui(
        &mut self,
        ui: &mut egui::Ui,
        state: &AppState,
        visible: &[&FaultRow],
        actions: &mut Vec<Action>,
    ) {
        let local = format::machine_zone(state);
        let nearest = nearest_row(visible, state.timeline().cursor);
        let columns = [
            Column::auto().at_least(theme::time_column_width(local.is_machine())),
            Column::auto().at_least(60.0),
            Column::auto().at_least(90.0),
            Column::auto().at_least(120.0),
            Column::remainder(),
        ];
        widgets::pane_table(ui, "faults_table", columns)
            .resizable(true)
            .header(theme::ROW_HEIGHT, |header| self.header_ui(header))
            .body(|body| {
                body.rows(theme::ROW_HEIGHT, visible.len(), |row| {
                    let f = visible[row.index()];
                    let marked = nearest == Some(row.index());
                    if fault_row_ui(row, f, marked, &local) {
                        actions.push(TimelineAction::SeekTo(f.date.0).into());
                    }
                });
            });
    }

    /// The titles, each a button sorting by its column (again: the other
    /// way).
    fn header_ui(&mut self, mut header: TableRow<'_, '_>) {
        for (column, title) in [
            (SortColumn::Date, "Date"),
            (SortColumn::Severity, "Severity"),
            (SortColumn::Level, "Level"),
            (SortColumn::Identifier, "Identifier"),
            (SortColumn::Description, "Description"),
        ] {
            header.col(|ui| {
                let sorted = (self.sort == column).then_some(self.ascending);
                if widgets::sort_button_ui(ui, title, sorted, "Sort by this column") {
                    if self.sort == column {
                        self.ascending = !self.ascending;
                    } else {
                        self.sort = column;
                        self.ascending = true;
                    }
                }
            });
        }
    }
}

/// One fault's row, coloured by its level; true when clicked (to move the
/// time cursor to it).
fn fault_row_ui(
    mut row: TableRow<'_, '_>,
    f: &FaultRow,
    marked: bool,
    local: &format::Zone,
) -> bool {
    row.set_selected(marked);
    let color = theme::level_color(level_of(f));
    let mut seek = false;
    row.col(|ui| {
        seek = ui
            .selectable_label(marked, format::format_time(f.date.0, local))
            .on_hover_text("Move the time cursor here")
            .clicked();
    });
    row.col(|ui| {
        ui.label(
            f.severity
                .map_or_else(|| format::NULL.to_owned(), |s| s.to_string()),
        );
    });
    row.col(|ui| {
        ui.colored_label(theme::ink(ui, color), level_of(f));
    });
    row.col(|ui| {
        ui.label(&f.identifier);
    });
    row.col(|ui| {
        ui.label(&f.description).on_hover_text(&f.description);
    });
    seek || row.response().clicked()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::model::Timestamp;

    fn fault(t: i64, sev: Option<i64>, label: Option<&str>, id: &str) -> FaultRow {
        FaultRow {
            date: Timestamp::from_secs(t),
            description: format!("d {id}"),
            identifier: id.into(),
            severity: sev,
            level_label: label.map(str::to_owned),
        }
    }

    #[test]
    fn filters_and_sorts() {
        let rows = vec![
            fault(3, Some(2), Some("error"), "B"),
            fault(1, Some(1), Some("warning"), "A"),
            fault(2, None, None, "C"),
            fault(4, Some(7), Some("critical"), "D"),
        ];
        let mut view = FaultsView::default();
        let ids = |v: &FaultsView| {
            visible_rows(&rows, v)
                .iter()
                .map(|f| f.identifier.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(&view), ["A", "C", "B", "D"]);
        view.sort = SortColumn::Severity;
        view.ascending = false;
        assert_eq!(ids(&view), ["D", "B", "A", "C"]);
        view.hidden_levels.insert("unknown".into());
        assert_eq!(ids(&view), ["D", "B", "A"]);
        view.text = "d b".into();
        assert_eq!(ids(&view), ["B"]);
    }
}
