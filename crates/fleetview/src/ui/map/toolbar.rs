//! The map's toolbar: online tiles on or off and their state, the tile
//! server, exporting positions (GPX, GeoJSON), and how the positions load.
//! It wraps and truncates rather than widen the map (a long error there
//! pushed the plots off-screen).

use crate::app::{Action, AppState, MapSettings};
use crate::basemap::{OSM_TEMPLATE, OnlineStatus};
use crate::ui::format;
use crate::ui::theme;
use fleetview_core::export::shown::{ExportContent, GeoFormat};

/// The toolbar above the map. `online` is the online tiles' state when
/// they are on, `retry_in_secs` when failed ones are tried again by
/// themselves; `tile_url` is the tile server URL being edited. Whether
/// *Retry* was clicked.
pub(super) fn toolbar_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    online: Option<&OnlineStatus>,
    retry_in_secs: Option<f64>,
    tile_url: &mut String,
    actions: &mut Vec<Action>,
) -> bool {
    let mut retry = false;
    ui.horizontal_wrapped(|ui| {
        // Whole buttons move to the next row rather than wrap their text.
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        tiles_ui(ui, state, online, tile_url, actions);
        ui.separator();
        let t = &state.timeline().track;
        if t.is_pending() {
            crate::ui::widgets::spinner_ui(ui);
            ui.label("Loading positions");
        } else if t.error().is_none()
            && let Some(track) = t.value()
        {
            ui.label(format::count(track.len(), "position", "positions"));
        }
        // Last in the row: a nested Ui (`add_enabled_ui`) would not wrap.
        let track = t.value().filter(|t| !t.is_empty());
        if track.is_none() {
            ui.disable();
        }
        ui.menu_button("Export positions", |ui| {
            for (label, format) in [("GPX…", GeoFormat::Gpx), ("GeoJSON…", GeoFormat::GeoJson)]
            {
                if let (true, Some(track)) = (ui.button(label).clicked(), track) {
                    actions.push(Action::Export(ExportContent::Positions {
                        track: track.clone(),
                        format,
                        name: track_name(state),
                    }));
                }
            }
        });
    });
    // Failures on a line of their own, cut to the map's width: the
    // technical detail on hover.
    if let Some(OnlineStatus::Failed { reason, detail }) = online {
        ui.horizontal(|ui| {
            retry = ui
                .small_button("Retry")
                .on_hover_text("Ask the tile server again now")
                .clicked();
            let when = retry_in_secs.map_or_else(
                || "Trying again now.".to_owned(),
                |secs| {
                    format!(
                        "Tried again by itself in {}.",
                        format::format_duration(secs.ceil() as i64)
                    )
                },
            );
            note_ui(
                ui,
                &format!("Online tiles failed: {reason}"),
                &format!("{detail}\n\n{when}"),
            );
        });
    }
    if let Some(e) = state.timeline().track.error() {
        crate::ui::widgets::panel_failed_ui(ui, "Positions not loaded", e, actions);
    }
    retry
}

/// Online tiles: the switch, their state in a word, and the tile server.
fn tiles_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    online: Option<&OnlineStatus>,
    tile_url: &mut String,
    actions: &mut Vec<Action>,
) {
    let mut on = state.map().online_tiles;
    if ui
        .checkbox(&mut on, "Online tiles")
        .on_hover_text("Draw OpenStreetMap tiles (or your tile server's) over the offline map")
        .changed()
    {
        actions.push(Action::SetMapSettings(MapSettings {
            online_tiles: on,
            ..state.map().clone()
        }));
    }
    let (word, color) = match online {
        None => ("off", ui.visuals().weak_text_color()),
        Some(OnlineStatus::Loading) => ("loading…", ui.visuals().weak_text_color()),
        Some(OnlineStatus::Ready) => ("on", ui.visuals().text_color()),
        Some(OnlineStatus::Failed { .. }) => ("failed", theme::ink(ui, theme::ERROR)),
    };
    ui.label(egui::RichText::new(word).small().color(color));
    let config = egui::containers::menu::MenuConfig::new()
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    egui::containers::menu::MenuButton::new("Tile server")
        .config(config)
        .ui(ui, |ui| {
            if tile_url.is_empty() {
                *tile_url = state.map().tile_url.clone();
            }
            let label = ui.label("Tile URL ({z}/{x}/{y})");
            ui.add(egui::TextEdit::singleline(tile_url).desired_width(360.0))
                .labelled_by(label.id);
            let valid = ["{z}", "{x}", "{y}"].iter().all(|k| tile_url.contains(k));
            if !valid {
                ui.colored_label(
                    theme::ink(ui, theme::ERROR),
                    "The URL needs {z}, {x} and {y}.",
                );
            }
            ui.horizontal(|ui| {
                if ui.add_enabled(valid, egui::Button::new("Apply")).clicked() {
                    actions.push(Action::SetMapSettings(MapSettings {
                        tile_url: tile_url.trim().to_owned(),
                        ..state.map().clone()
                    }));
                    ui.close();
                }
                if ui.button("OpenStreetMap").clicked() {
                    *tile_url = OSM_TEMPLATE.to_owned();
                }
            });
        });
}

/// A short red line, cut to the width there is, the detail on hover.
fn note_ui(ui: &mut egui::Ui, text: &str, detail: &str) {
    let label = ui.add(
        egui::Label::new(egui::RichText::new(text).color(theme::ink(ui, theme::ERROR)))
            .truncate()
            .selectable(false),
    );
    if !detail.is_empty() {
        label.on_hover_text(detail);
    }
}

/// What an exported track is called: the machine and the window's days
/// (UTC), as a GPS tool lists it.
fn track_name(state: &AppState) -> String {
    let machine = state
        .selected()
        .map_or_else(|| "Track".to_owned(), |id| state.fleet().name_of(id));
    match state.window() {
        Some(w) => format!(
            "{machine}, {} to {}",
            format::format_in_zone(w.since, false, "%Y-%m-%d"),
            format::format_in_zone(w.until, false, "%Y-%m-%d")
        ),
        None => machine,
    }
}
