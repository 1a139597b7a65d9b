//! The Fleet table's Columns menu: each column shown or hidden, moved up
//! or down (Name stays first and shown), or all back to the default.

use egui::containers::menu::{MenuButton, MenuConfig};

use crate::app::overview::{Column, ColumnLayout};
use crate::app::{Action, OverviewAction};
use crate::ui::theme;

pub(super) fn columns_menu_ui(ui: &mut egui::Ui, layout: &ColumnLayout, actions: &mut Vec<Action>) {
    // Stays open while several columns are changed.
    let config = MenuConfig::new().close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    let mut set = |l: ColumnLayout| actions.push(OverviewAction::SetColumns(l).into());
    MenuButton::new("Columns").config(config).ui(ui, |ui| {
        ui.weak("Name stays first, in place while the rest scrolls.");
        egui::Grid::new("fleet_columns").show(ui, |ui| {
            for (c, shown) in layout.all() {
                let mut on = shown;
                let check =
                    ui.add_enabled(c != Column::Name, egui::Checkbox::new(&mut on, c.label()));
                if check.changed() {
                    set(layout.with_shown(c, on));
                }
                for (up, glyph, word) in [
                    (true, theme::SORT_ASCENDING, "up"),
                    (false, theme::SORT_DESCENDING, "down"),
                ] {
                    let can = layout.can_move(c, up);
                    let b = ui.add_enabled(can, egui::Button::new(glyph.trim()).small());
                    let name = format!("Move {} {word}", c.label());
                    b.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, can, &name));
                    if b.on_hover_text(&name).clicked() {
                        set(layout.moved(c, up));
                    }
                }
                ui.end_row();
            }
        });
        if ui.button("Default columns").clicked() {
            set(ColumnLayout::default());
        }
    });
}
