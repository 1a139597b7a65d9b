//! The export menu of the plots: any channel plotted, by its readable
//! name, as CSV over the window (time, value, unit, estimated).

use std::sync::Arc;

use egui::containers::menu::MenuButton;

use crate::app::{Action, AppState};
use fleetview_api::DataKind;
use fleetview_core::export::shown::{ExportContent, channel_label};
use fleetview_core::series::{ChannelKind, PlotSeries};

/// Every channel plotted, each to export as CSV (time, value, unit,
/// estimated) over the window.
pub(super) fn export_menu_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    let ready: Vec<(DataKind, &Arc<PlotSeries>)> = state
        .timeline()
        .plot_kinds
        .iter()
        .filter_map(|k| Some((*k, state.timeline().plots.get(k)?.value()?)))
        .filter(|(_, s)| !s.series.is_empty())
        .collect();
    ui.add_enabled_ui(!ready.is_empty(), |ui| {
        MenuButton::new("Export channel").ui(ui, |ui| {
            for (kind, series) in ready {
                for (channel, c) in series.series.channels.iter().enumerate() {
                    if c.kind == ChannelKind::Time {
                        continue;
                    }
                    let unit = series.shown_unit(channel, kind.unit());
                    let label = channel_label(kind, series, channel, state.units());
                    if ui.button(label).clicked() {
                        actions.push(Action::Export(ExportContent::Channel {
                            kind,
                            series: series.clone(),
                            channel,
                            unit: unit.to_owned(),
                        }));
                    }
                }
            }
        });
    });
}
