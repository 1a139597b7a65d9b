//! Stacked plots of the data kinds picked, on one linked time axis.
//!
//! Each kind gets one plot per unit of its numeric channels, plus a lane
//! plot for its boolean and label channels (states: engine started/stopped
//! per D10, charging state, ...). Lines are handed to egui_plot already
//! aggregated (M4 through each channel's min/max index, a few points per
//! pixel column), cached until the view or the data change.

use std::collections::{BTreeMap, HashMap};
use std::ops::RangeInclusive;
use std::sync::Arc;

use egui_plot::{
    GridInput, GridMark, HoverPosition, Legend, Line, MarkerShape, Plot, PlotPoint, PlotPoints,
    Points, Polygon, Text, VLine,
};

use egui::containers::menu::{MenuButton, MenuConfig};

use super::theme;
use crate::api::DataKind;
use crate::api::model::EngineEvent;
use crate::app::{Action, AppState};
use crate::series::{CachedLine, ChannelKind, LineKey, PlotSeries};
use crate::worker::ExportContent;

/// Height of a plot of values, and of one lane of states.
const PLOT_HEIGHT: f32 = 150.0;
const LANE_HEIGHT: f32 = 26.0;
/// Every plot's y axis takes this width, so their x axes line up.
const Y_AXIS_WIDTH: f32 = 110.0;
/// Lane names longer than this are shortened, so they fit that width.
const LANE_NAME_CHARS: usize = 16;

fn short_name(name: &str) -> String {
    if name.chars().count() <= LANE_NAME_CHARS {
        return name.to_owned();
    }
    let mut s: String = name.chars().take(LANE_NAME_CHARS - 1).collect();
    s.push('…');
    s
}

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

/// Time grid steps, in seconds: lines fall on round times.
const TIME_STEPS: [f64; 16] = [
    1.0,
    5.0,
    15.0,
    60.0,
    300.0,
    900.0,
    1800.0,
    3600.0,
    10800.0,
    21600.0,
    43200.0,
    86400.0,
    604800.0,
    2_592_000.0,
    7_776_000.0,
    31_536_000.0,
];

/// Grid marks for a time axis: every round step from the finest that fits
/// up (egui_plot labels the levels whose marks are far enough apart).
pub fn time_grid(input: GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return Vec::new();
    }
    let first = TIME_STEPS
        .iter()
        .position(|s| *s >= input.base_step_size)
        .unwrap_or(TIME_STEPS.len() - 1);
    let mut marks = Vec::new();
    for step in TIME_STEPS.iter().skip(first) {
        let mut t = (lo / step).ceil() * step;
        // Bounded: at most a few hundred marks per level.
        let mut n = 0;
        while t <= hi && n < 400 {
            marks.push(GridMark {
                value: t,
                step_size: *step,
            });
            t += step;
            n += 1;
        }
    }
    marks
}

/// Short tick labels, so neighbours do not collide: months over long
/// spans, days over days, hours within a day (with the day at midnight).
fn time_axis_label(mark: GridMark, range: &RangeInclusive<f64>, local: bool) -> String {
    let t = mark.value as i64;
    let span = range.end() - range.start();
    let format = if span > 120.0 * 86400.0 {
        "%Y-%m"
    } else if mark.step_size >= 86400.0 || span > 3.0 * 86400.0 || theme::is_midnight(t, local) {
        "%m-%d"
    } else if mark.step_size < 60.0 {
        "%H:%M:%S"
    } else {
        "%H:%M"
    };
    theme::format_in_zone(t, local, format)
}

/// The state label of sample `i` of a lane channel.
fn lane_label(kind: DataKind, series: &PlotSeries, channel: usize, i: usize) -> Option<String> {
    let c = &series.series.channels[channel];
    let v = *c.values.get(i)?;
    if v.is_nan() {
        return None;
    }
    match c.kind {
        ChannelKind::Label => c.label_at(i).map(str::to_owned),
        _ if kind == DataKind::EngineCondition && c.name == "running" => {
            Some(EngineEvent::from_running_flag(v != 0.0).label().to_owned())
        }
        _ => Some(if v != 0.0 { "true" } else { "false" }.to_owned()),
    }
}

/// Draws the cursor; returns the time under the pointer.
fn cursor_ui(pui: &mut egui_plot::PlotUi<'_>, cursor: Option<i64>) -> Option<i64> {
    if let Some(t) = cursor {
        pui.vline(VLine::new("", t as f64).color(theme::CURSOR).width(1.5));
    }
    pui.pointer_coordinate().map(|p| p.x as i64)
}

/// The time under the pointer while the plot is hovered, and whether it
/// was clicked.
fn hover_and_click(response: &egui_plot::PlotResponse<Option<i64>>) -> (Option<i64>, bool) {
    let hovered = response.response.hovered();
    (
        response.inner.filter(|_| hovered),
        response.response.clicked(),
    )
}

/// One plot of values: aggregated lines, estimated samples as hollow
/// diamonds named in the legend, and the cursor. Returns the time under the
/// pointer, and whether the plot was clicked.
#[allow(clippy::too_many_arguments)]
pub fn values_plot_ui(
    ui: &mut egui::Ui,
    id: egui::Id,
    link: egui::Id,
    kind: DataKind,
    series: &Arc<PlotSeries>,
    channels: &[usize],
    unit: &str,
    window: (i64, i64),
    cursor: Option<i64>,
    seek: Option<i64>,
    local: bool,
    lines: &mut HashMap<(DataKind, usize), CachedLine>,
) -> (Option<i64>, bool) {
    let pixels_per_point = ui.ctx().pixels_per_point();
    let data = Arc::as_ptr(series) as usize;
    let unit = match channels {
        [only] if unit.is_empty() => series.shown_unit(*only, kind.unit()),
        _ => unit,
    };
    let axis_label = if unit.is_empty() {
        kind.display_name().to_owned()
    } else {
        format!("{} ({unit})", kind.display_name())
    };
    let response = Plot::new("plot")
        .id(id)
        .height(PLOT_HEIGHT)
        .link_axis(link, [true, false])
        .link_cursor(link, [true, false])
        .default_x_bounds(window.0 as f64, window.1 as f64)
        .y_axis_min_width(Y_AXIS_WIDTH)
        .y_axis_label(axis_label)
        .x_grid_spacer(time_grid)
        .x_axis_formatter(move |m, r| time_axis_label(m, r, local))
        .label_formatter(move |h| {
            let (name, p) = match h {
                HoverPosition::NearDataPoint {
                    plot_name,
                    position,
                    ..
                } => (*plot_name, *position),
                HoverPosition::Elsewhere { position } => ("", *position),
            };
            let time = theme::format_time(p.x as i64, local);
            Some(if name.is_empty() {
                time
            } else {
                format!("{name}\n{time}\n{:.3}", p.y)
            })
        })
        .legend(Legend::default().position(egui_plot::Corner::LeftTop))
        .show(ui, |pui| {
            if let Some(t) = seek {
                // Same zoom, centred on the cursor (a view without data has
                // no width yet: left alone).
                let b = pui.plot_bounds();
                let half = (b.max()[0] - b.min()[0]) / 2.0;
                if half.is_finite() && half > 0.0 {
                    pui.set_plot_bounds_x(t as f64 - half..=t as f64 + half);
                }
            }
            let b = pui.plot_bounds();
            let columns = (pui.response().rect.width() * pixels_per_point).max(1.0) as usize;
            let key = LineKey {
                data,
                t0: b.min()[0],
                t1: b.max()[0],
                columns,
            };
            for (k, &ch) in channels.iter().enumerate() {
                let c = &series.series.channels[ch];
                let cached = lines.entry((kind, ch)).or_default();
                cached.update(series, ch, key);
                let color = theme::series_color(k);
                let name = c.title();
                // Runs and dots share the name: one legend entry.
                for run in cached.runs() {
                    pui.line(
                        Line::new(name.clone(), plot_points(run))
                            .color(color)
                            .width(1.5),
                    );
                }
                if !cached.dots().is_empty() {
                    pui.points(
                        Points::new(name.clone(), plot_points(cached.dots()))
                            .color(color)
                            .radius(2.0),
                    );
                }
                if !cached.estimated().is_empty() {
                    pui.points(
                        Points::new(
                            format!("{name} (estimated)"),
                            plot_points(cached.estimated()),
                        )
                        .shape(MarkerShape::Diamond)
                        .filled(false)
                        .radius(4.0)
                        .color(theme::ESTIMATED),
                    );
                }
            }
            cursor_ui(pui, cursor)
        });
    hover_and_click(&response)
}

/// The series' `[time, value]` points as egui_plot's.
fn plot_points(points: &[[f64; 2]]) -> PlotPoints<'static> {
    points.iter().copied().collect()
}

/// Lanes of states for `channels`: one row each, coloured runs per label,
/// sampled once per pixel column so any number of changes stays bounded.
#[allow(clippy::too_many_arguments)]
pub fn lanes_plot_ui(
    ui: &mut egui::Ui,
    id: egui::Id,
    link: egui::Id,
    kind: DataKind,
    series: &PlotSeries,
    channels: &[usize],
    window: (i64, i64),
    cursor: Option<i64>,
    local: bool,
) -> (Option<i64>, bool) {
    let pixels_per_point = ui.ctx().pixels_per_point();
    // One lane: named after the kind; several: after their channels.
    let names: Vec<String> = if channels.len() == 1 {
        vec![short_name(kind.display_name())]
    } else {
        channels
            .iter()
            .map(|c| short_name(&series.series.channels[*c].name))
            .collect()
    };
    let rows = channels.len() as f64;
    let response = Plot::new("plot")
        .id(id)
        .height(LANE_HEIGHT * channels.len() as f32 + 24.0)
        .link_axis(link, [true, false])
        .link_cursor(link, [true, false])
        .default_x_bounds(window.0 as f64, window.1 as f64)
        .default_y_bounds(0.0, rows)
        .allow_zoom([true, false])
        .allow_drag([true, false])
        .allow_scroll([true, false])
        .show_grid([true, false])
        .y_axis_min_width(Y_AXIS_WIDTH)
        .y_grid_spacer(move |_| {
            (0..channels.len())
                .map(|r| GridMark {
                    value: r as f64 + 0.5,
                    step_size: 1.0,
                })
                .collect()
        })
        .y_axis_formatter(move |m, _| {
            let r = (m.value - 0.5).round();
            if r >= 0.0 {
                names.get(r as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_grid_spacer(time_grid)
        .x_axis_formatter(move |m, r| time_axis_label(m, r, local))
        .label_formatter(move |h| {
            let p = match h {
                HoverPosition::NearDataPoint { position, .. }
                | HoverPosition::Elsewhere { position } => *position,
            };
            Some(theme::format_time(p.x as i64, local))
        })
        .show(ui, |pui| {
            let b = pui.plot_bounds();
            let (t0, t1) = (b.min()[0], b.max()[0]);
            let columns = (pui.response().rect.width() * pixels_per_point).max(1.0) as usize;
            let column_secs = (t1 - t0) / columns as f64;
            let times = &series.series.times;
            for (row, &ch) in channels.iter().enumerate() {
                // Runs of the same label, sampled at each column's start.
                let mut runs: Vec<(f64, f64, String)> = Vec::new();
                for col in 0..columns {
                    let t = t0 + column_secs * col as f64;
                    let k = times.partition_point(|x| (*x as f64) <= t);
                    let Some(label) = k
                        .checked_sub(1)
                        .and_then(|i| lane_label(kind, series, ch, i))
                    else {
                        continue;
                    };
                    let end = t + column_secs;
                    match runs.last_mut() {
                        Some(r) if r.2 == label && (r.1 - t).abs() < column_secs * 0.5 => r.1 = end,
                        _ => runs.push((t, end, label)),
                    }
                }
                let (y0, y1) = (row as f64 + 0.1, row as f64 + 0.9);
                for (a, z, label) in runs {
                    let color = theme::state_color(&label);
                    pui.polygon(
                        Polygon::new(
                            "",
                            PlotPoints::new(vec![[a, y0], [z, y0], [z, y1], [a, y1]]),
                        )
                        .fill_color(color)
                        .width(0.0)
                        .allow_hover(false),
                    );
                    let px = (z - a) / column_secs / f64::from(pixels_per_point);
                    if px > 60.0 {
                        pui.text(
                            Text::new(
                                "",
                                PlotPoint::new((a + z) / 2.0, row as f64 + 0.5),
                                egui::RichText::new(label).color(egui::Color32::BLACK),
                            )
                            .allow_hover(false),
                        );
                    }
                }
            }
            cursor_ui(pui, cursor)
        });
    hover_and_click(&response)
}

/// The picker of data kinds: every kind the service lists, searchable.
fn kind_picker_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut PlotsView,
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
                egui::TextEdit::singleline(&mut view.search)
                    .hint_text("e.g. fuel, battery")
                    .desired_width(200.0),
            )
            .labelled_by(label.id);
            let query = view.search.to_lowercase();
            egui::ScrollArea::vertical()
                .max_height(360.0)
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
                            actions.push(Action::SetPlotKind { kind: *kind, on });
                        }
                    }
                });
        });
}

/// Every channel plotted, each to export as CSV (time, value, unit,
/// estimated) over the window.
fn export_menu_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    let ready: Vec<(DataKind, &Arc<PlotSeries>)> = state
        .timeline
        .plot_kinds
        .iter()
        .filter_map(|k| Some((*k, state.timeline.plots.get(k)?.value()?)))
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
                    let label = if unit.is_empty() {
                        format!("{}: {} (CSV)…", kind.display_name(), c.name)
                    } else {
                        format!("{}: {} ({unit}) (CSV)…", kind.display_name(), c.name)
                    };
                    if ui.button(label).clicked() {
                        actions.push(Action::Export(ExportContent::Channel {
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

/// The plot area: the kind picker, then one stack of plots per kind.
pub fn plots_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut PlotsView,
    actions: &mut Vec<Action>,
) {
    let Some(window) = state.window else {
        return;
    };
    ui.horizontal(|ui| {
        kind_picker_ui(ui, state, view, actions);
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
    let link = egui::Id::unique(("timeline", window.since, window.until));
    let w = (window.since, window.until);
    let cursor = state.timeline.cursor;
    let local = state.local_time;
    let mut hover = None;
    let mut clicked = false;
    egui::ScrollArea::vertical()
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
                    let id = egui::Id::unique(("plot", kind.wire(), g, window.since, window.until));
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
    if let Some(t) = hover {
        actions.push(if clicked {
            Action::SeekTo(t)
        } else {
            Action::HoverTime(Some(t))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_names_are_shortened_to_fit_the_axis() {
        assert_eq!(short_name("running"), "running");
        let s = short_name("EV battery charge cycles");
        assert_eq!(s.chars().count(), LANE_NAME_CHARS);
        assert!(s.ends_with('…'));
    }

    #[test]
    fn time_grid_marks_fall_on_round_times() {
        let marks = time_grid(GridInput {
            bounds: (1_750_000_123.0, 1_750_086_400.0),
            base_step_size: 2000.0,
        });
        assert!(!marks.is_empty());
        for m in &marks {
            assert_eq!(m.value % m.step_size, 0.0);
            assert!(m.step_size >= 2000.0);
        }
        assert!(
            time_grid(GridInput {
                bounds: (f64::NAN, 1.0),
                base_step_size: 1.0
            })
            .is_empty()
        );
    }
}
