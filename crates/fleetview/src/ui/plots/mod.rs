//! Stacked plots of the data kinds picked, on one linked time axis.
//!
//! Each kind gets one plot per unit of its numeric channels, plus a lane
//! plot for its boolean and label channels (states: engine started/stopped
//! per D10, charging state, ...), under a header naming the kind. Lines are
//! handed to egui_plot already aggregated (M4 through each channel's
//! min/max index, a few points per pixel column) and broken at the series'
//! gaps, cached until the view, the data or the gaps change.
//!
//! Where to look: `kinds.rs` the data-kind picker, `values.rs` the plots of
//! values, `lanes.rs` the state lanes, `export.rs` the export menu,
//! `time_axis.rs` the time axis and cursor, `steer.rs` the wheel, seeks and
//! replay moving the time axis, `shared.rs` what the plots share.

mod events_lane;
mod export;
mod kinds;
mod lanes;
mod memories;
mod shared;
mod span;
mod steer;
mod time_axis;
mod values;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::app::TimelineAction;
use crate::app::{Action, AppState, Loadable};
use crate::ui::events::seek_action;
use crate::ui::events::text::lane_label;
use crate::ui::theme;
use events_lane::events_lane_ui;
use export::export_menu_ui;
use fleetview_api::DataKind;
use fleetview_api::time::TimeWindow;
use fleetview_core::analysis::Report;
use fleetview_core::series::gaps::{engine_off_periods, gaps};
use fleetview_core::series::names::implied_unit;
use fleetview_core::series::{CachedLine, ChannelKind, PlotSeries};
use kinds::kind_picker_ui;
pub use lanes::lanes_plot_ui;
use memories::PlotMemories;
pub use shared::{Shared, Shown};
use steer::WheelGesture;
pub use steer::{Steer, Wheel};
pub use time_axis::time_grid;
pub use values::{Gaps, PLOT_HEIGHT, values_plot_ui};

/// The plots' column never gets narrower than this (the map gives way).
pub const MIN_WIDTH: f32 = 360.0;

/// What the plots remember between frames.
#[derive(Debug, Default)]
pub struct PlotsView {
    /// Filter of the data kind picker.
    pub search: String,
    lines: HashMap<(DataKind, usize), CachedLine>,
    /// Each kind's gaps, for the data and engine events they came from.
    gaps: HashMap<DataKind, KindGaps>,
    /// The engine-off periods of the history shown, with what they came
    /// from.
    engine_off: (EngineSource, Vec<(i64, i64)>),
    /// Numbers the gaps computed so far, so lines know when theirs change.
    gaps_made: usize,
    last_seek: u64,
    wheel: WheelGesture,
    /// Where the plots were last frame (the visible part): where a wheel
    /// turn zooms them rather than scrolls the column.
    plot_rects: Vec<egui::Rect>,
    /// The Measure tool: a drag on a plot selects a span.
    pub measure: bool,
    /// A span is being dragged out (its pane waits for the release: a
    /// pane opening under a drag took the drag away).
    measuring_drag: bool,
    span: span::SpanView,
    /// The event lane's name, for the report (by address) it names.
    events_label: (usize, String),
    /// The height the plots had last frame (the Measure pane's and the
    /// toolbar's taken).
    area_height: f32,
    memories: PlotMemories,
}

/// A history's address and the window it was read over.
type EngineSource = (usize, i64, i64);

#[derive(Debug)]
struct KindGaps {
    /// The series' address, and where the engine events came from.
    source: (usize, EngineSource),
    /// Numbers these gaps (see `PlotsView::gaps_made`).
    key: usize,
    positions: Vec<usize>,
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
            // A channel without a unit may have one by its name (`hour`,
            // `hours`: hours), so that its axis says so.
            ChannelKind::Numeric => by_unit
                .entry(
                    c.unit
                        .clone()
                        .filter(|u| !u.is_empty())
                        .or_else(|| implied_unit(&c.name).map(str::to_owned))
                        .unwrap_or_default(),
                )
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
    let Some(window) = state.window() else {
        return;
    };
    toolbar_ui(ui, state, view, actions);
    if state.timeline().span.is_some() && !view.measuring_drag {
        span_pane_ui(ui, state, view, actions);
    }
    let column = view.column(ui, state, window);
    update_engine_off(view, state, window);
    let report = state.figures().report.value();
    let area = egui::ScrollArea::vertical()
        .id_salt("plots_scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let mut did = Gathered::new(ui.clip_rect());
            if state.timeline().plot_kinds.is_empty() {
                ui.label("Pick data kinds to plot with the button above.");
            }
            for &kind in &state.timeline().plot_kinds {
                if let Some(loadable) = state.timeline().plots.get(&kind) {
                    view.kind_plots_ui(ui, &column, kind, loadable, &mut did);
                }
            }
            // The events' lane under the kinds' plots: above, it moved
            // them whenever the report came.
            if let Some(report) = report {
                view.events_lane_ui(ui, &column, report, &mut did);
            }
            did
        });
    let did = area.inner;
    view.area_height = area.inner_rect.height();
    // Lines and gaps of kinds no longer plotted are forgotten.
    let plotted = &state.timeline().plot_kinds;
    view.lines.retain(|(k, _), _| plotted.contains(k));
    view.gaps.retain(|k, _| plotted.contains(k));
    pointer_actions(ui, view, did, area.inner_rect, report, actions);
}

/// The row over the plots: the kind picker, the export menu, the Measure
/// tool and how to steer the plots. Wrapped: in a narrow column every
/// control stays on screen.
fn toolbar_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut PlotsView,
    actions: &mut Vec<Action>,
) {
    ui.horizontal_wrapped(|ui| {
        kind_picker_ui(ui, state, &mut view.search, actions);
        export_menu_ui(ui, state, actions);
        ui.toggle_value(&mut view.measure, "Measure").on_hover_text(
            "Drag across a plot to select a span and read its statistics \
             (or hold Shift while dragging). Esc clears it.",
        );
        ui.label(
            egui::RichText::new(
                "Drag to pan, Shift+drag to measure, wheel to zoom, double-click for the whole window",
            )
            .small()
            .weak(),
        );
    });
}

/// The span's statistics, in a pane under the plots (opening it moves
/// none of them); Esc clears the span.
fn span_pane_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut PlotsView,
    actions: &mut Vec<Action>,
) {
    if ui.input(|i| i.key_pressed(egui::Key::Escape)) {
        actions.push(TimelineAction::SetSpan(None).into());
    }
    // A third of the column at first: the plots keep most of it, and
    // never less than their floor.
    let room = ui.available_height();
    let pane_max = room - theme::PLOTS_MIN_HEIGHT;
    if pane_max < theme::SPAN_PANE_MIN_HEIGHT {
        // No room for both (a laptop): the statistics float over the
        // plots' bottom right, whole, rather than squeeze both.
        span_window_ui(ui, state, view, actions);
        return;
    }
    let pane_height = (room * 0.35).clamp(theme::SPAN_PANE_MIN_HEIGHT, 220.0);
    egui::Panel::bottom("span_stats")
        .resizable(true)
        .default_size(pane_height.min(pane_max))
        .min_size(theme::SPAN_PANE_MIN_HEIGHT)
        .max_size(pane_max)
        .show(ui, |ui| {
            span::span_stats_ui(ui, state, &mut view.span, actions);
        });
}

/// The span's statistics in a window of their own over the plots, closed
/// with the span.
fn span_window_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut PlotsView,
    actions: &mut Vec<Action>,
) {
    let mut open = true;
    let column = ui.max_rect();
    egui::Window::new("Measured span")
        .open(&mut open)
        .collapsible(false)
        .resizable(true)
        .default_width((column.width() - 2.0 * theme::GAP).max(200.0))
        .pivot(egui::Align2::RIGHT_BOTTOM)
        .default_pos(column.right_bottom() - egui::vec2(theme::GAP, theme::GAP))
        .show(ui.ctx(), |ui| {
            span::span_stats_ui(ui, state, &mut view.span, actions);
        });
    if !open {
        actions.push(TimelineAction::SetSpan(None).into());
    }
}

/// What every plot of the column is drawn with this frame.
struct Column {
    shared: Shared,
    window: TimeWindow,
    /// Zoom and pan are kept per machine view: another window or machine,
    /// Refresh or a double-click start from the whole window.
    generation: u64,
}

/// What the plots of the column did this frame.
struct Gathered {
    /// The column's visible part.
    visible: egui::Rect,
    /// Where each plot is (its visible part).
    rects: Vec<egui::Rect>,
    hover: Option<i64>,
    clicked: bool,
    /// An event's mark clicked on the lane.
    clicked_event: Option<usize>,
    drag: Option<(i64, i64)>,
    /// *Retry* clicked under a kind that could not be read.
    retry: Vec<Action>,
}

impl Gathered {
    fn new(visible: egui::Rect) -> Self {
        Self {
            visible,
            rects: Vec::new(),
            hover: None,
            clicked: false,
            clicked_event: None,
            drag: None,
            retry: Vec::new(),
        }
    }

    /// What one plot did: the first hover and drag count, and a click
    /// where the plot is hovered.
    fn add(&mut self, shown: Shown) {
        self.rects.push(shown.rect.intersect(self.visible));
        self.hover = self.hover.or(shown.hover);
        self.drag = self.drag.or(shown.drag);
        self.clicked |= shown.clicked && shown.hover.is_some();
    }
}

impl PlotsView {
    /// The height the plots had last frame, below the toolbar and above
    /// the Measure pane.
    pub fn area_height(&self) -> f32 {
        self.area_height
    }

    /// How this frame's plots share the time axis, the cursor and the
    /// span; a seek since the last frame moves them.
    fn column(&mut self, ui: &egui::Ui, state: &AppState, window: TimeWindow) -> Column {
        let measuring = self.measure || ui.input(|i| i.modifiers.shift);
        let seek = (state.timeline().seek != self.last_seek)
            .then_some(state.timeline().cursor)
            .flatten();
        self.last_seek = state.timeline().seek;
        let generation = state.timeline().view_generation;
        self.memories.view(ui.ctx(), window, generation);
        let cursor = state.timeline().cursor;
        let shared = Shared {
            link: egui::Id::unique(("timeline", window.since, window.until, generation)),
            steer: Steer {
                window: (window.since, window.until),
                seek,
                follow: cursor.filter(|_| state.timeline().replay.playing),
                wheel: self.wheel.take(ui, &self.plot_rects),
            },
            cursor,
            zone: crate::ui::format::machine_zone(state),
            units: state.units(),
            span: state.timeline().span,
            measuring,
            known_until: window.until.min(state.now()),
        };
        Column {
            shared,
            window,
            generation,
        }
    }

    /// A kind's plots under its name: one per unit of its values, one of
    /// its state lanes; or why there are none.
    fn kind_plots_ui(
        &mut self,
        ui: &mut egui::Ui,
        column: &Column,
        kind: DataKind,
        loadable: &Loadable<Arc<PlotSeries>>,
        did: &mut Gathered,
    ) {
        // The kind's name over its plots; between plots, room for the
        // wheel to scroll the column.
        ui.add_space(theme::GAP);
        ui.label(egui::RichText::new(kind.display_name()).strong());
        if let Some(e) = loadable.error() {
            // The kind's name stands just above: the short line alone.
            crate::ui::widgets::machine_failed_ui(ui, &e.short, e, &mut did.retry);
        }
        let Some(series) = loadable.value() else {
            // A failed fetch shows its error alone: nothing is coming (it
            // spun "Loading…" under the error forever).
            if loadable.is_pending() {
                ui.horizontal(|ui| {
                    crate::ui::widgets::spinner_ui(ui);
                    ui.label("Loading…");
                });
            }
            return;
        };
        if series.series.is_empty() {
            ui.weak("No data in this window.");
            return;
        }
        let kind_gaps = gaps_of(
            &mut self.gaps,
            &mut self.gaps_made,
            &self.engine_off,
            kind,
            series,
        );
        let shared = &column.shared;
        for (g, group) in groups(series).iter().enumerate() {
            let id = plot_id(kind, g, column.window, column.generation);
            self.memories.drawn(id);
            let shown = match group {
                Group::Values { unit, channels } => values_plot_ui(
                    ui,
                    id,
                    shared,
                    kind,
                    series,
                    channels,
                    unit,
                    Gaps {
                        positions: &kind_gaps.positions,
                        key: kind_gaps.key,
                    },
                    &mut self.lines,
                ),
                Group::Lanes { channels } => lanes_plot_ui(ui, id, shared, kind, series, channels),
            };
            did.add(shown);
        }
    }

    /// The window's events on a lane of their own, named after the kinds
    /// present.
    fn events_lane_ui(
        &mut self,
        ui: &mut egui::Ui,
        column: &Column,
        report: &Arc<Report>,
        did: &mut Gathered,
    ) {
        ui.add_space(theme::GAP);
        let address = Arc::as_ptr(report) as usize;
        if self.events_label.0 != address {
            let counts = fleetview_core::analysis::events::counts(&report.events);
            self.events_label = (address, lane_label(&counts));
        }
        let (window, generation) = (column.window, column.generation);
        let id = egui::Id::unique(("events_lane", window.since, window.until, generation));
        self.memories.drawn(id);
        let (shown, event) =
            events_lane_ui(ui, id, &column.shared, &report.events, &self.events_label.1);
        did.add(shown);
        if shown.clicked {
            did.clicked_event = event;
        }
    }
}

/// What the pointer did on the plots, as actions: a double-click shows
/// the whole window, a measuring drag selects a span, a click on an
/// event's mark goes to the event (and its place), a click elsewhere
/// seeks and a hover marks the time.
fn pointer_actions(
    ui: &egui::Ui,
    view: &mut PlotsView,
    did: Gathered,
    area: egui::Rect,
    report: Option<&Arc<Report>>,
    actions: &mut Vec<Action>,
) {
    view.plot_rects = did.rects;
    actions.extend(did.retry);
    let double_clicked = ui.input(|i| {
        i.pointer
            .button_double_clicked(egui::PointerButton::Primary)
            && i.pointer.interact_pos().is_some_and(|p| area.contains(p))
    });
    if double_clicked {
        actions.push(TimelineAction::ResetView.into());
    }
    view.measuring_drag = did.drag.is_some();
    if let Some((a, b)) = did.drag {
        actions.push(TimelineAction::SetSpan(Some((a, b))).into());
    }
    if let Some(e) = did
        .clicked_event
        .filter(|_| !double_clicked)
        .and_then(|i| report?.events.get(i))
    {
        actions.push(seek_action(e));
        return;
    }
    if let Some(t) = did.hover.filter(|_| !double_clicked) {
        actions.push(
            if did.clicked {
                TimelineAction::SeekTo(t)
            } else {
                TimelineAction::HoverTime(Some(t))
            }
            .into(),
        );
    }
}

/// The engine-off periods (D10) of the history shown, computed again only
/// when another history or window comes.
fn update_engine_off(view: &mut PlotsView, state: &AppState, window: TimeWindow) {
    let history = state.history().value();
    let source = (
        history.map_or(0, |h| Arc::as_ptr(h) as usize),
        window.since,
        window.until,
    );
    if view.engine_off.0 != source {
        let periods = history.map_or_else(Vec::new, |h| {
            engine_off_periods(&h.engine_conditions.rows, window.since, window.until)
        });
        view.engine_off = (source, periods);
    }
}

/// A kind's gaps, computed again only when its data or the engine events
/// change (a series' long steps are known; each engine-off period costs a
/// search). `made` numbers them.
fn gaps_of<'v>(
    cache: &'v mut HashMap<DataKind, KindGaps>,
    made: &mut usize,
    engine_off: &(EngineSource, Vec<(i64, i64)>),
    kind: DataKind,
    series: &Arc<PlotSeries>,
) -> &'v KindGaps {
    let source = (Arc::as_ptr(series) as usize, engine_off.0);
    let stale = cache.get(&kind).is_none_or(|g| g.source != source);
    if stale {
        *made += 1;
        let positions = gaps(&series.series.times, &series.long_steps, &engine_off.1);
        cache.insert(
            kind,
            KindGaps {
                source,
                key: *made,
                positions,
            },
        );
    }
    &cache[&kind]
}
