//! The map's toolbar: fit to track, online tiles on or off, the tile
//! server, exporting positions (GPX, GeoJSON), and how the positions load.

use crate::app::{Action, AppState, MapSettings};
use crate::basemap::OSM_TEMPLATE;
use crate::export::shown::{ExportContent, GeoFormat};
use crate::ui::theme;

/// The toolbar above the map. `fit` is set when the user asks to fit the
/// track into view; `tile_url` is the tile server URL being edited.
pub(super) fn toolbar_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    fit: &mut bool,
    tile_url: &mut String,
    actions: &mut Vec<Action>,
) {
    ui.horizontal(|ui| {
        if ui
            .button("Fit to track")
            .on_hover_text("Zoom the map to the whole track of the window")
            .clicked()
        {
            *fit = true;
        }
        let mut online = state.map.online_tiles;
        if ui
            .checkbox(&mut online, "Online tiles")
            .on_hover_text("Draw OpenStreetMap tiles (or your tile server's) over the offline map")
            .changed()
        {
            actions.push(Action::SetMapSettings(MapSettings {
                online_tiles: online,
                ..state.map.clone()
            }));
        }
        let config = egui::containers::menu::MenuConfig::new()
            .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
        egui::containers::menu::MenuButton::new("Tile server")
            .config(config)
            .ui(ui, |ui| {
                if tile_url.is_empty() {
                    *tile_url = state.map.tile_url.clone();
                }
                let label = ui.label("Tile URL ({z}/{x}/{y})");
                ui.add(egui::TextEdit::singleline(tile_url).desired_width(360.0))
                    .labelled_by(label.id);
                let valid = ["{z}", "{x}", "{y}"].iter().all(|k| tile_url.contains(k));
                if !valid {
                    ui.colored_label(theme::ERROR, "The URL needs {z}, {x} and {y}.");
                }
                ui.horizontal(|ui| {
                    if ui.add_enabled(valid, egui::Button::new("Apply")).clicked() {
                        actions.push(Action::SetMapSettings(MapSettings {
                            tile_url: tile_url.trim().to_owned(),
                            ..state.map.clone()
                        }));
                        ui.close();
                    }
                    if ui.button("OpenStreetMap").clicked() {
                        *tile_url = OSM_TEMPLATE.to_owned();
                    }
                });
            });
        let track = state.timeline.track.value().filter(|t| !t.is_empty());
        ui.add_enabled_ui(track.is_some(), |ui| {
            ui.menu_button("Export positions", |ui| {
                for (label, format) in [("GPX…", GeoFormat::Gpx), ("GeoJSON…", GeoFormat::GeoJson)]
                {
                    if let (true, Some(track)) = (ui.button(label).clicked(), track) {
                        actions.push(Action::Export(ExportContent::Positions {
                            track: track.clone(),
                            format,
                        }));
                    }
                }
            });
        });
        match &state.timeline.track {
            t if t.is_pending() => {
                ui.spinner();
                ui.label("Loading positions");
            }
            t => {
                if let Some(e) = t.error() {
                    ui.colored_label(theme::ERROR, e);
                } else if let Some(track) = t.value() {
                    ui.label(theme::count(track.len(), "position", "positions"));
                }
            }
        }
    });
}
