//! The data-kind picker: every kind the service lists, grouped in the
//! platform's packs, searchable (by kind or pack), ticked on and off as
//! plots.

use egui::containers::menu::{MenuButton, MenuConfig};

use crate::app::TimelineAction;
use crate::app::{Action, AppState};
use fleetview_api::{DataKind, KindPack};

/// The picker of data kinds: every kind the service lists, searchable.
pub(super) fn kind_picker_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    search: &mut String,
    actions: &mut Vec<Action>,
) {
    let picked = state.timeline().plot_kinds.len();
    // Stays open while several kinds are ticked.
    let config = MenuConfig::new().close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    MenuButton::new(format!("Data kinds ({picked})"))
        .config(config)
        .ui(ui, |ui| {
            crate::ui::widgets::labelled_ui(
                ui,
                "Find",
                egui::TextEdit::singleline(search)
                    .hint_text("e.g. fuel, battery")
                    .desired_width(200.0),
            );
            let query = search.to_lowercase();
            // A dozen rows at least, wherever the menu opens (it shrank to
            // two or three near the window's bottom).
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .min_scrolled_height(240.0)
                .show(ui, |ui| {
                    // As tall whatever a search leaves (the menu kept the
                    // short height of a narrow search once it was cleared).
                    ui.set_min_height(360.0);
                    let mut shown = 0;
                    for pack in KindPack::ALL {
                        shown += pack_ui(ui, state, pack, &query, actions);
                    }
                    if shown == 0 {
                        ui.weak(format!("No data kind matches \"{search}\""));
                    }
                });
        });
}

/// One pack's heading and the kinds in it that match `query` (all of them
/// when the pack's name starts with it: "fuel" is the fuel kinds, not every
/// kind of "Energy and fuel"); how many rows it showed.
fn pack_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    pack: KindPack,
    query: &str,
    actions: &mut Vec<Action>,
) -> usize {
    let whole = query.is_empty() || pack.name().to_lowercase().starts_with(query);
    let kinds: Vec<DataKind> = pack
        .kinds()
        .filter(|k| whole || kind_matches(*k, query))
        .collect();
    let faults = pack == KindPack::FaultCodes && whole;
    if kinds.is_empty() && !faults {
        return 0;
    }
    ui.add_space(4.0);
    ui.label(egui::RichText::new(pack.name()).strong());
    if faults {
        ui.weak("Shown in the Faults table below the plots");
    }
    for kind in &kinds {
        let mut on = state.timeline().plot_kinds.contains(kind);
        if ui
            .checkbox(&mut on, kind.display_name())
            .on_hover_text(kind.wire())
            .changed()
        {
            actions.push(TimelineAction::SetPlotKind { kind: *kind, on }.into());
        }
    }
    kinds.len() + usize::from(faults)
}

fn kind_matches(kind: DataKind, query: &str) -> bool {
    kind.display_name().to_lowercase().contains(query) || kind.wire().to_lowercase().contains(query)
}
