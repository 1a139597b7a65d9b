//! The fleet map (to come in this change).

use crate::app::{Action, AppState};

#[derive(Debug, Default)]
pub struct FleetMapView;

pub fn fleet_map_ui(
    ui: &mut egui::Ui,
    _state: &AppState,
    _view: &mut FleetMapView,
    _actions: &mut Vec<Action>,
) {
    ui.label("Fleet map");
}
