//! Stacked plots of the data kinds picked, on one linked time axis.
//!
//! Each kind gets one plot per unit of its numeric channels, plus a lane
//! plot for its boolean and label channels (states: engine started/stopped
//! per D10, charging state, ...). Lines are handed to egui_plot already
//! aggregated (M4 through each channel's min/max index, a few points per
//! pixel column), cached until the view or the data change.
//!
//! Where to look: `kinds.rs` the data-kind picker, `values.rs` the plots of
//! values, `lanes.rs` the state lanes, `export.rs` the export menu,
//! `time_axis.rs` the time axis, cursor and pointer they share.

mod export;
mod kinds;
mod lanes;
mod time_axis;
mod values;

use std::collections::{BTreeMap, HashMap};

use crate::api::DataKind;
use crate::api::time::TimeWindow;
use crate::app::TimelineAction;
use crate::app::{Action, AppState};
use crate::series::{CachedLine, ChannelKind, PlotSeries};
use crate::ui::theme;
use export::export_menu_ui;
use kinds::kind_picker_ui;
pub use lanes::lanes_plot_ui;
pub use time_axis::time_grid;
pub use values::values_plot_ui;

/// What the plots remember between frames.
#[derive(Debug, Default)]
pub struct PlotsView {
    /// Filter of the data kind picker.
    pub search: String,
    lines: HashMap<(DataKind, usize), CachedLine>,
    last_seek: u64,
}

/// One plot to draw for a kind.
enum Group {
    /// Numeric channels sharing a unit.
    Values { unit: String, channels: Vec<usize> },
    /// Boolean and label channels, one lane each.
    Lanes { channels: Vec<usize> },
}

fn groups(series: &PlotSeries) -> Vec<Group> {
    let mut by_unit: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut lanes = Vec::new();
    for (i, c) in series.series.channels.iter().enumerate() {
        match c.kind {
            ChannelKind::Numeric => by_unit
                .entry(c.unit.clone().unwrap_or_default())
                .or_default()
                .push(i),
            ChannelKind::Boolean | ChannelKind::Label => lanes.push(i),
            ChannelKind::Time => {}
        }
    }
    let mut out: Vec<Group> = by_unit
        .into_iter()
        .map(|(unit, channels)| Group::Values { unit, channels })
        .collect();
    if !lanes.is_empty() {
        out.push(Group::Lanes { channels: lanes });
    }
    out
}

/// The id of a kind's plot (its `group`-th), for one window and view
/// generation: its zoom and pan live under it.
pub fn plot_id(kind: DataKind, group: usize, window: TimeWindow, generation: u64) -> egui::Id {
    egui::Id::unique((
        "plot",
        kind.wire(),
        group,
        window.since,
        window.until,
        generation,
    ))
}

/// The plot area: the kind picker, then one stack of plots per kind.
pub fn plots_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut PlotsView,
    actions: &mut Vec<Action>,
) {
    let Some(window) = state.machine.window else {
        return;
    };
    ui.horizontal(|ui| {
        kind_picker_ui(ui, state, &mut view.search, actions);
        export_menu_ui(ui, state, actions);
        ui.label(
            egui::RichText::new("Drag to pan, scroll to zoom, double-click to reset")
                .small()
                .weak(),
        );
    });
    let seek = (state.timeline.seek != view.last_seek)
        .then_some(state.timeline.cursor)
        .flatten();
    view.last_seek = state.timeline.seek;
    // Zoom and pan are kept per machine view: another window or machine,
    // Refresh or a double-click start from the whole window.
    let generation = state.timeline.view_generation;
    let link = egui::Id::unique(("timeline", window.since, window.until, generation));
    let w = (window.since, window.until);
    let cursor = state.timeline.cursor;
    let local = state.local_time;
    let mut hover = None;
    let mut clicked = false;
    let area = egui::ScrollArea::vertical()
        .id_salt("plots_scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if state.timeline.plot_kinds.is_empty() {
                ui.label("Pick data kinds to plot with the button above.");
            }
            for &kind in &state.timeline.plot_kinds {
                let Some(loadable) = state.timeline.plots.get(&kind) else {
                    continue;
                };
                if let Some(e) = loadable.error() {
                    ui.colored_label(theme::ERROR, format!("{}: {e}", kind.display_name()));
                }
                let Some(series) = loadable.value() else {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(format!("Loading {}", kind.display_name()));
                    });
                    continue;
                };
                if series.series.is_empty() {
                    ui.label(format!("{}: no data in this window.", kind.display_name()));
                    continue;
                }
                for (g, group) in groups(series).iter().enumerate() {
                    let id = plot_id(kind, g, window, generation);
                    let (h, c) = match group {
                        Group::Values { unit, channels } => values_plot_ui(
                            ui,
                            id,
                            link,
                            kind,
                            series,
                            channels,
                            unit,
                            w,
                            cursor,
                            seek,
                            local,
                            &mut view.lines,
                        ),
                        Group::Lanes { channels } => {
                            lanes_plot_ui(ui, id, link, kind, series, channels, w, cursor, local)
                        }
                    };
                    hover = hover.or(h);
                    clicked |= c && h.is_some();
                }
            }
        });
    // Lines of kinds no longer plotted are forgotten.
    view.lines
        .retain(|(k, _), _| state.timeline.plot_kinds.contains(k));
    let double_clicked = ui.input(|i| {
        i.pointer
            .button_double_clicked(egui::PointerButton::Primary)
            && i.pointer
                .interact_pos()
                .is_some_and(|p| area.inner_rect.contains(p))
    });
    if double_clicked {
        actions.push(TimelineAction::ResetView.into());
    }
    if let Some(t) = hover.filter(|_| !double_clicked) {
        actions.push(
            if clicked {
                TimelineAction::SeekTo(t)
            } else {
                TimelineAction::HoverTime(Some(t))
            }
            .into(),
        );
    }
}
