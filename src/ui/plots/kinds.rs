//! The data-kind picker: every kind the service lists, searchable, ticked
//! on and off as plots.

use egui::containers::menu::{MenuButton, MenuConfig};

use crate::api::DataKind;
use crate::app::TimelineAction;
use crate::app::{Action, AppState};

/// The picker of data kinds: every kind the service lists, searchable.
pub(super) fn kind_picker_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    search: &mut String,
    actions: &mut Vec<Action>,
) {
    let picked = state.timeline.plot_kinds.len();
    // Stays open while several kinds are ticked.
    let config = MenuConfig::new().close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    MenuButton::new(format!("Data kinds ({picked})"))
        .config(config)
        .ui(ui, |ui| {
            let label = ui.label("Find");
            ui.add(
                egui::TextEdit::singleline(search)
                    .hint_text("e.g. fuel, battery")
                    .desired_width(200.0),
            )
            .labelled_by(label.id);
            let query = search.to_lowercase();
            // A dozen rows at least, wherever the menu opens (it shrank to
            // two or three near the window's bottom).
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .min_scrolled_height(240.0)
                .show(ui, |ui| {
                    for kind in DataKind::ALL {
                        let name = kind.display_name();
                        if !query.is_empty()
                            && !name.to_lowercase().contains(&query)
                            && !kind.wire().to_lowercase().contains(&query)
                        {
                            continue;
                        }
                        let mut on = state.timeline.plot_kinds.contains(kind);
                        if ui
                            .checkbox(&mut on, name)
                            .on_hover_text(kind.wire())
                            .changed()
                        {
                            actions.push(TimelineAction::SetPlotKind { kind: *kind, on }.into());
                        }
                    }
                });
        });
}
