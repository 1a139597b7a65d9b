//! The app's menu (first in the top bar): the theme, the units, the
//! keyboard shortcuts and About (its windows in `about.rs`).

use super::keys::{self, KeyCommand};
use crate::app::{Action, AppState, ThemeChoice};
use fleetview_core::analysis::UnitSystem;

/// Which of the menu's windows are open.
#[derive(Debug, Default)]
pub struct MenuView {
    /// The keyboard shortcuts' overlay.
    pub help_open: bool,
    pub about_open: bool,
    /// The third-party licences, opened from About.
    pub notices_open: bool,
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
        if ui.button("About Fleetview").clicked() {
            view.about_open = true;
            ui.close();
        }
    })
    .response
    .on_hover_text("Theme, units, keyboard shortcuts, About");
}
