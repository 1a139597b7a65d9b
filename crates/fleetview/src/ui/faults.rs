//! Faults: a table of date, severity, level, identifier and description,
//! coloured by level, sortable by any column, filtered by level and text.
//! Any severity number and any label are shown as they come (D9); a missing
//! label shows as `unknown`.

use std::collections::{BTreeMap, BTreeSet};

use egui_extras::{Column, TableBuilder};

use super::format;
use super::theme;
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
    if let Some(e) = state.machine.faults.error() {
        ui.colored_label(theme::ink(ui, theme::ERROR), e);
    }
    let empty = Vec::new();
    let rows = state.machine.faults.value().unwrap_or(&empty);
    if state.machine.faults.is_pending() && rows.is_empty() {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("Loading faults");
        });
        return;
    }
    let mut per_level: BTreeMap<&str, usize> = BTreeMap::new();
    for f in rows {
        *per_level.entry(level_of(f)).or_default() += 1;
    }
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Filter");
        ui.add(
            egui::TextEdit::singleline(&mut view.text)
                .hint_text("code or description")
                .desired_width(200.0),
        )
        .labelled_by(label.id);
        ui.separator();
        ui.label("Levels:");
        for (level, count) in &per_level {
            let mut shown = !view.hidden_levels.contains(*level);
            let text = egui::RichText::new(format!("{level} ({count})"))
                .color(theme::ink(ui, theme::level_color(level)));
            if ui.checkbox(&mut shown, text).changed() {
                if shown {
                    view.hidden_levels.remove(*level);
                } else {
                    view.hidden_levels.insert((*level).to_owned());
                }
            }
        }
    });
    let visible = visible_rows(rows, view);
    ui.horizontal(|ui| {
        ui.label(format!(
            "{} shown of {} in the window",
            format::count(visible.len(), "fault", "faults"),
            rows.len()
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
    if rows.is_empty() {
        ui.label("No faults in this window.");
        return;
    }
    let local = state.local_time;
    let nearest = nearest_row(&visible, state.timeline.cursor);
    TableBuilder::new(ui)
        .id_salt("faults_table")
        // As tall as the pane, never taller: the pane keeps its size.
        .min_scrolled_height(0.0)
        .auto_shrink([false, false])
        .striped(true)
        .sense(egui::Sense::click())
        .resizable(true)
        .column(Column::auto().at_least(150.0))
        .column(Column::auto().at_least(60.0))
        .column(Column::auto().at_least(90.0))
        .column(Column::auto().at_least(120.0))
        .column(Column::remainder())
        .header(theme::ROW_HEIGHT, |mut header| {
            for (column, title) in [
                (SortColumn::Date, "Date"),
                (SortColumn::Severity, "Severity"),
                (SortColumn::Level, "Level"),
                (SortColumn::Identifier, "Identifier"),
                (SortColumn::Description, "Description"),
            ] {
                header.col(|ui| {
                    // On one line: the column widens rather than wrap.
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                    let arrow = match (view.sort == column, view.ascending) {
                        (true, true) => theme::SORT_ASCENDING,
                        (true, false) => theme::SORT_DESCENDING,
                        _ => "",
                    };
                    if ui
                        .button(format!("{title}{arrow}"))
                        .on_hover_text("Sort by this column")
                        .clicked()
                    {
                        if view.sort == column {
                            view.ascending = !view.ascending;
                        } else {
                            view.sort = column;
                            view.ascending = true;
                        }
                    }
                });
            }
        })
        .body(|body| {
            body.rows(theme::ROW_HEIGHT, visible.len(), |mut row| {
                let f = visible[row.index()];
                let marked = nearest == Some(row.index());
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
                if seek || row.response().clicked() {
                    actions.push(TimelineAction::SeekTo(f.date.0).into());
                }
            });
        });
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
