//! Activities: the trips of the window, with totals.

use egui_extras::{Column, TableRow};

use super::format;
use super::theme;
use super::widgets;
use crate::app::TimelineAction;
use crate::app::{Action, AppState};
use fleetview_api::model::ActivityRow;
use fleetview_core::analysis::Quantity;
use fleetview_core::export::shown::ExportContent;

pub fn activities_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    if let Some(e) = state.activities().error() {
        widgets::panel_failed_ui(ui, "Activities", e, actions);
    }
    let rows: &[_] = state.activities().value().map_or(&[], |a| a.as_slice());
    if state.activities().is_pending() && rows.is_empty() {
        ui.horizontal(|ui| {
            crate::ui::widgets::spinner_ui(ui);
            ui.label("Loading activities");
        });
        return;
    }
    summary_ui(ui, state, rows, actions);
    if rows.is_empty() {
        ui.label("No activities in this window.");
        return;
    }
    table_ui(ui, state, rows, actions);
}

/// How many activities, how far and how long they moved, and their export.
fn summary_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    rows: &[ActivityRow],
    actions: &mut Vec<Action>,
) {
    let total_m: f64 = rows
        .iter()
        .map(|a| a.distance_meters)
        .filter(|d| d.is_finite())
        .sum();
    let total_secs: i64 = rows
        .iter()
        .map(|a| (a.date_stop.0 - a.date_start.0).max(0))
        .sum();
    ui.horizontal(|ui| {
        // `+ 0.0`: no activity sums to -0.0, shown as "-0.00".
        ui.label(format!(
            "{}, {} in {} of movement",
            format::count(rows.len(), "activity", "activities"),
            format::measure(
                state.units(),
                Quantity::Distance,
                Some(total_m / 1000.0 + 0.0),
                2
            ),
            format::format_duration(total_secs)
        ));
        ui.add_enabled_ui(!rows.is_empty(), |ui| {
            ui.menu_button("Export activities", |ui| {
                export_menu_ui(ui, state, rows, actions);
            });
        });
    });
}

fn export_menu_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    rows: &[ActivityRow],
    actions: &mut Vec<Action>,
) {
    if ui.button("CSV…").clicked() {
        actions.push(Action::Export(ExportContent::ActivitiesCsv(rows.to_vec())));
    }
    let track = state.timeline().track.value();
    let geo = ui
        .add_enabled(track.is_some(), egui::Button::new("GeoJSON…"))
        .on_hover_text("Each activity as a line along its positions");
    if let (true, Some(track)) = (geo.clicked(), track) {
        actions.push(Action::Export(ExportContent::ActivitiesGeoJson {
            rows: rows.to_vec(),
            track: track.clone(),
        }));
    }
}

fn table_ui(ui: &mut egui::Ui, state: &AppState, rows: &[ActivityRow], actions: &mut Vec<Action>) {
    // The activity under the cursor (or the one picked) is marked.
    let marked = state.timeline().selected_activity.or_else(|| {
        let c = state.timeline().cursor?;
        rows.iter()
            .position(|a| (a.date_start.0..=a.date_stop.0).contains(&c))
    });
    let time = theme::time_column_width(format::machine_zone(state).is_machine());
    let columns = [
        Column::auto().at_least(time),
        Column::auto().at_least(time),
        Column::auto().at_least(60.0),
        Column::auto().at_least(60.0),
        Column::auto().at_least(60.0),
        // The addresses share what is left, each cut with "…" and whole on
        // hover (the last one was clipped by the pane's edge).
        Column::remainder().at_least(60.0).clip(true),
        Column::remainder().at_least(60.0).clip(true),
    ];
    let units = state.units();
    let titles = [
        "Start".to_owned(),
        "Stop".to_owned(),
        "Duration".to_owned(),
        format!("Distance ({})", units.unit(Quantity::Distance)),
        format!("Speed ({})", units.unit(Quantity::Speed)),
        "From".to_owned(),
        "To".to_owned(),
    ];
    let table = widgets::pane_table(ui, "activities_table", columns).resizable(true);
    widgets::titles_header(table, titles).body(|body| {
        body.rows(theme::ROW_HEIGHT, rows.len(), |row| {
            let i = row.index();
            if activity_row_ui(row, state, &rows[i], marked == Some(i)) {
                let again = state.timeline().selected_activity == Some(i);
                let pick = TimelineAction::SelectActivity((!again).then_some(i));
                actions.push(pick.into());
            }
        });
    });
}

/// One activity's row; true when clicked (to pick it, or drop it if
/// picked).
fn activity_row_ui(
    mut row: TableRow<'_, '_>,
    state: &AppState,
    a: &ActivityRow,
    marked: bool,
) -> bool {
    let local = format::machine_zone(state);
    row.set_selected(marked);
    let mut pick = false;
    row.col(|ui| {
        pick = ui
            .selectable_label(marked, format::format_time(a.date_start.0, &local))
            .on_hover_text(
                "Highlight this activity on the map and move the cursor \
                 to its start",
            )
            .clicked();
    });
    row.col(|ui| {
        ui.label(format::format_time(a.date_stop.0, &local));
    });
    row.col(|ui| {
        ui.label(format::format_duration(a.date_stop.0 - a.date_start.0));
    });
    row.col(|ui| {
        let km = a.distance_meters / 1000.0;
        ui.label(format::number(
            Some(state.units().from_metric(Quantity::Distance, km)),
            2,
        ));
    });
    row.col(|ui| {
        let kmh = a.average_speed_km_h;
        ui.label(format::number(
            Some(state.units().from_metric(Quantity::Speed, kmh)),
            1,
        ));
    });
    row.col(|ui| {
        ui.add(egui::Label::new(&a.first_position_address).truncate())
            .on_hover_text(&a.first_position_address);
    });
    row.col(|ui| {
        ui.add(egui::Label::new(&a.last_position_address).truncate())
            .on_hover_text(&a.last_position_address);
    });
    pick || row.response().clicked()
}
