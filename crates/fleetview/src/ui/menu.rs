//! The app's menu (first in the top bar): the theme, the units, the
//! keyboard shortcuts and About, with the two windows it opens.

use super::keys::{self, KeyCommand};
use super::theme;
use crate::app::{Action, AppState, ThemeChoice};
use fleetview_core::analysis::UnitSystem;

/// Which of the menu's windows are open.
#[derive(Debug, Default)]
pub struct MenuView {
    /// The keyboard shortcuts' overlay.
    pub help_open: bool,
    pub about_open: bool,
}

pub fn menu_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut MenuView,
    actions: &mut Vec<Action>,
) {
    ui.menu_button(egui::RichText::new("fleetview ⏷").strong(), |ui| {
        ui.label(egui::RichText::new("Theme").small().weak());
        for choice in ThemeChoice::ALL {
            if ui.radio(state.theme() == choice, choice.label()).clicked() {
                actions.push(Action::SetTheme(choice));
            }
        }
        ui.separator();
        ui.label(egui::RichText::new("Units").small().weak());
        for units in UnitSystem::ALL {
            if ui.radio(state.units() == units, units.label()).clicked() {
                actions.push(Action::SetUnits(units));
            }
        }
        ui.separator();
        let help = ui.add(
            egui::Button::new("Keyboard shortcuts")
                .shortcut_text(keys::key_label(ui.ctx(), KeyCommand::Help).unwrap_or_default()),
        );
        if help.clicked() {
            view.help_open = true;
            ui.close();
        }
        if ui.button("About fleetview").clicked() {
            view.about_open = true;
            ui.close();
        }
    })
    .response
    .on_hover_text("Theme, units, keyboard shortcuts, About");
}

/// The About window: version, licences of what is bundled, and where the
/// app keeps its files.
pub fn about_ui(ctx: &egui::Context, state: &AppState, open: &mut bool, actions: &mut Vec<Action>) {
    keys::close_on_escape(ctx, open);
    egui::Window::new("About fleetview")
        .open(open)
        .collapsible(false)
        .resizable(false)
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(ctx.content_rect().center())
        .default_width(theme::ABOUT_WIDTH)
        .show(ctx, |ui| {
            ui.heading(format!("fleetview {}", env!("CARGO_PKG_VERSION")));
            ui.label(env!("CARGO_PKG_DESCRIPTION"));
            ui.label(format!("Licence: {}", env!("CARGO_PKG_LICENSE")));
            ui.add_space(theme::GAP);
            ui.label(egui::RichText::new("Map data").strong());
            ui.label(
                "Country and land outlines (offline map): Made with Natural Earth, public \
                 domain; as packaged by world-atlas, ISC licence, © Michael Bostock.",
            );
            ui.label(
                "Online map tiles: © OpenStreetMap contributors, data under the Open Database \
                 Licence (openstreetmap.org/copyright), when online tiles are on.",
            );
            ui.add_space(theme::GAP);
            ui.label(egui::RichText::new("Where fleetview keeps its files").strong());
            let places = &state.places();
            egui::Grid::new("about_places")
                .num_columns(2)
                .spacing([theme::GAP * 2.0, theme::GAP])
                .show(ui, |ui| {
                    for (what, path) in [
                        ("Settings", places.settings.as_ref()),
                        ("Cache", places.cache.as_ref()),
                        ("Map tiles", state.tile_cache_dir()),
                        ("Logs", places.logs.as_ref()),
                    ] {
                        ui.label(what);
                        match path {
                            Some(p) => {
                                ui.add(egui::Label::new(p.display().to_string()).selectable(true))
                            }
                            None => ui.weak("not kept"),
                        };
                        ui.end_row();
                    }
                });
            ui.add_space(theme::GAP);
            let logs = places.logs.clone();
            let button = ui
                .add_enabled(logs.is_some(), egui::Button::new("Open the log folder"))
                .on_hover_text("Show the log files in the file manager")
                .on_disabled_hover_text("This run writes no log file");
            if button.clicked()
                && let Some(dir) = logs
            {
                actions.push(Action::OpenFolder(dir));
            }
        });
}
