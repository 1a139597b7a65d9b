//! A plot of values: the numeric channels of one kind that share a unit,
//! each an aggregated line (M4 through the series' column cache, turned
//! into egui_plot points here), estimated samples as hollow diamonds, and
//! the cursor.

use std::collections::HashMap;
use std::sync::Arc;

use egui_plot::{HoverPosition, Legend, Line, MarkerShape, Plot, PlotPoints, Points};

use super::time_axis::{Y_AXIS_WIDTH, cursor_ui, hover_and_click, time_axis_label, time_grid};
use crate::api::DataKind;
use crate::series::{CachedLine, LineKey, PlotSeries};
use crate::ui::theme;

/// Height of a plot of values.
const PLOT_HEIGHT: f32 = 150.0;

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
        // A double-click shows the whole window again (handled by the view,
        // which starts the plots afresh): not egui_plot's own reset.
        .allow_double_click_reset(false)
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
                    let (lo, hi) = centred_within(t as f64, half, window);
                    pui.set_plot_bounds_x(lo..=hi);
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

/// `t ± half`, moved to stay inside the window when the span fits in it
/// (a seek near an edge never shows time outside the window).
fn centred_within(t: f64, half: f64, window: (i64, i64)) -> (f64, f64) {
    let (since, until) = (window.0 as f64, window.1 as f64);
    let (mut lo, mut hi) = (t - half, t + half);
    if hi - lo <= until - since {
        if lo < since {
            (lo, hi) = (since, since + 2.0 * half);
        } else if hi > until {
            (lo, hi) = (until - 2.0 * half, until);
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seek_near_an_edge_stays_in_the_window() {
        assert_eq!(centred_within(50.0, 10.0, (0, 100)), (40.0, 60.0));
        assert_eq!(centred_within(2.0, 10.0, (0, 100)), (0.0, 20.0));
        assert_eq!(centred_within(99.0, 10.0, (0, 100)), (80.0, 100.0));
        // Zoomed out beyond the window: centred as asked.
        assert_eq!(centred_within(50.0, 80.0, (0, 100)), (-30.0, 130.0));
    }
}
