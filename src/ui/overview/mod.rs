//! The fleet overview, the first page: what the snapshots say of every
//! machine (where, when it last reported, hours, fuel) and what each
//! machine's window adds (hours and idle, faults), as a map above a table.
//! Filters and sort are the model's (kept across restarts); picking a
//! machine on the map or in the table opens its history.
//!
//! Where to look: `table.rs` the table and its keyboard, `map.rs` the
//! fleet map (`cluster.rs` its clustering, `marks.rs` what it draws,
//! `tips.rs` what it says).

mod cluster;
mod map;
mod marks;
mod table;
mod tips;

use crate::analysis::MachineState;
use crate::app::overview::{Filters, choices};
use crate::app::{Action, AppState, OverviewAction};
use crate::export::shown::ExportContent;
use crate::ui::theme;

pub use map::{FleetMapView, MAX_CLUSTER_ZOOM, ShownMarker, fleet_map_ui};

/// What the overview remembers between frames.
#[derive(Debug, Default)]
pub struct OverviewView {
    pub table: table::TableView,
    pub map: FleetMapView,
    /// The filters' choices (categories, companies, makes) and the rows'
    /// generation they were made for: made again only when the fleet is.
    choices: Option<(u64, [Vec<String>; 3])>,
}

pub fn overview_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut OverviewView,
    actions: &mut Vec<Action>,
) {
    let o = &state.overview;
    let fleet = &state.fleet.equipments;
    header_ui(ui, state, actions);
    let generation = o.generation;
    if view.choices.as_ref().is_none_or(|(g, _)| *g != generation) {
        view.choices = Some((
            generation,
            [
                choices(fleet, |e| e.category.as_deref()),
                choices(fleet, |e| e.entreprise.as_deref()),
                choices(fleet, |e| Some(e.make.as_str())),
            ],
        ));
    }
    if let Some((_, lists)) = &view.choices {
        filters_ui(ui, &o.settings.filters, lists, actions);
    }
    ui.separator();
    // The map above, the table below; the map gives up height first.
    let map_height = (ui.available_height() * 0.45).clamp(160.0, 420.0);
    egui::Panel::top("fleet_map")
        .resizable(true)
        .default_size(map_height)
        .min_size(120.0)
        .show(ui, |ui| {
            ui.set_min_height(ui.available_height());
            map::fleet_map_ui(ui, state, &mut view.map, actions);
        });
    egui::CentralPanel::default().show(ui, |ui| {
        if fleet.is_empty() {
            ui.label(if state.fleet.loading {
                "Discovering the fleet…"
            } else {
                "No machines in this fleet."
            });
            return;
        }
        table::table_ui(ui, state, &mut view.table, actions);
    });
}

/// Counts, the snapshot's progress, refresh and exports: on one line.
fn header_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    let o = &state.overview;
    let fleet = &state.fleet.equipments;
    // Wrapped: a row wider than the page widened the map and the table
    // past the window's edge.
    ui.horizontal_wrapped(|ui| {
        ui.heading("Fleet");
        ui.label(format!(
            "{} of {} shown",
            o.rows().len(),
            theme::count(fleet.len(), "machine", "machines")
        ));
        ui.separator();
        let s = &o.status;
        // The progress keeps its width whether loading or not: nothing
        // to its right moves when a reading starts or ends.
        let width = 230.0;
        let height = ui.spacing().interact_size.y;
        if s.loading {
            let (fraction, text) = if s.total > 0 {
                (
                    s.done as f32 / s.total as f32,
                    format!("Snapshots: {} of {}", s.done, s.total.max(s.done)),
                )
            } else {
                (0.0, "Reading snapshots…".to_owned())
            };
            ui.add_sized([width, height], egui::ProgressBar::new(fraction).text(text));
        } else {
            let text = if s.unsupported {
                "This service has no snapshots".to_owned()
            } else if let Some(at) = s.cached_at {
                format!(
                    "Offline: snapshots of {}",
                    theme::format_time(at, state.local_time)
                )
            } else if let Some(e) = &s.error {
                format!("Snapshots failed: {e}")
            } else {
                "Snapshots up to date".to_owned()
            };
            let color = if s.error.is_some() {
                theme::ERROR
            } else if s.cached_at.is_some() {
                theme::OFFLINE
            } else {
                ui.visuals().weak_text_color()
            };
            ui.add_sized(
                [width, height],
                egui::Label::new(egui::RichText::new(text).color(color)).truncate(),
            )
            .on_hover_text(
                "The latest value of each data kind, per machine; read again every \
                 10 minutes (the platform updates at most that often).",
            );
        }
        if ui
            .add_enabled(!s.loading, egui::Button::new("Refresh"))
            .on_hover_text("Read the snapshots and the window's figures again")
            .clicked()
        {
            actions.push(OverviewAction::Refresh.into());
        }
        let any = !o.rows().is_empty();
        if ui
            .add_enabled(any, egui::Button::new("Export table (CSV)…"))
            .on_hover_text("Save the table as shown: its filters, its order")
            .clicked()
        {
            let table = o.table_file(fleet);
            actions.push(Action::Export(ExportContent::FleetTable(table.into())));
        }
        if ui
            .add_enabled(any, egui::Button::new("Export markers (GeoJSON)…"))
            .on_hover_text("Save the machines shown that have a position, as points")
            .clicked()
        {
            let markers = o.markers_file(fleet);
            actions.push(Action::Export(ExportContent::FleetMarkers(markers.into())));
        }
    });
}

/// One combo box per filter, and a way to clear them.
fn filters_ui(
    ui: &mut egui::Ui,
    filters: &Filters,
    [categories, companies, makes]: &[Vec<String>; 3],
    actions: &mut Vec<Action>,
) {
    let mut next = filters.clone();
    ui.horizontal_wrapped(|ui| {
        ui.label("Filter:");
        combo_ui(ui, "Category", &mut next.category, categories);
        combo_ui(ui, "Company", &mut next.company, companies);
        combo_ui(ui, "Make", &mut next.make, makes);
        let label = next.state.map_or("any", MachineState::label);
        egui::ComboBox::from_label("State")
            .selected_text(label)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut next.state, None, "any");
                for s in MachineState::ALL {
                    let text = egui::RichText::new(s.label()).color(theme::machine_state_color(s));
                    ui.selectable_value(&mut next.state, Some(s), text);
                }
            });
        if !filters.text.is_empty() {
            ui.label(format!("Search: “{}”", filters.text));
        }
        if ui
            .add_enabled(!filters.is_empty(), egui::Button::new("Clear filters"))
            .clicked()
        {
            next = Filters::default();
        }
    });
    if next != *filters {
        actions.push(OverviewAction::SetFilters(next).into());
    }
}

fn combo_ui(ui: &mut egui::Ui, label: &str, value: &mut Option<String>, choices: &[String]) {
    egui::ComboBox::from_label(label)
        .selected_text(value.as_deref().unwrap_or("any"))
        .width(130.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(value, None, "any");
            for c in choices {
                ui.selectable_value(value, Some(c.clone()), c);
            }
        });
}
