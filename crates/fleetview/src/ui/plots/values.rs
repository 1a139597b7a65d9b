//! A plot of values: the numeric channels of one kind that share a unit.
//! Each is an aggregated line (M4 through the series' column cache, broken
//! at gaps), a light band where samples crowd a pixel column, dots for
//! samples alone between gaps, hollow diamonds for estimated samples; a
//! daily kind's values are bars, one a day. Channels go by their readable
//! names ([`fleetview_core::series::names`]).

use std::collections::HashMap;
use std::sync::Arc;

use egui_plot::{
    Bar, BarChart, ColorConflictHandling, FilledArea, GridInput, GridMark, HoverPosition, Legend,
    Line, MarkerShape, PlotPoints, Points,
};

use super::shared::{Shared, Shown, time_plot};
use super::steer::steer_plot;
use super::time_axis::{cursor_ui, span_ui};
use crate::ui::format;
use crate::ui::theme;
use fleetview_api::DataKind;
use fleetview_core::analysis::{Conversion, UnitSystem};
use fleetview_core::series::names::{channel_name, value_name, with_unit};
use fleetview_core::series::{CachedLine, LineKey, PlotSeries};

/// Height of a plot of values.
pub const PLOT_HEIGHT: f32 = 150.0;
/// Room the x axis takes under a plot, so the y title fits beside the rest.
const X_AXIS_ROOM: f32 = 28.0;
const DAY_SECS: f64 = 86_400.0;
/// Bars are drawn while a day takes at least this many pixel columns;
/// beyond, the days show as a line like any series.
const MIN_BAR_COLUMNS: f64 = 3.0;

/// A series' gaps (sorted sample positions, see [`fleetview_core::series::gaps`])
/// and a number that changes with them.
#[derive(Debug, Clone, Copy)]
pub struct Gaps<'a> {
    pub positions: &'a [usize],
    pub key: usize,
}

/// One plot of values. Returns the time under the pointer, whether the
/// plot was clicked, and where it is.
#[allow(clippy::too_many_arguments)]
pub fn values_plot_ui(
    ui: &mut egui::Ui,
    id: egui::Id,
    shared: &Shared,
    kind: DataKind,
    series: &Arc<PlotSeries>,
    channels: &[usize],
    unit: &str,
    gaps: Gaps<'_>,
    lines: &mut HashMap<(DataKind, usize), CachedLine>,
) -> Shown {
    let unit = match channels {
        [only] if unit.is_empty() => series.shown_unit(*only, kind.unit()),
        _ => unit,
    };
    // In the units chosen: the values drawn (a pixel column's worth, not
    // the series) go through the service's unit to the one shown.
    let (scale, shown_unit) = conversion(unit, shared.units);
    let unit = shown_unit.as_str();
    let drawn = Drawn {
        kind,
        series,
        channels,
        names: channels
            .iter()
            .map(|c| channel_name(kind, &series.series.channels[*c].name))
            .collect(),
        scale,
        gaps,
        pixels_per_point: ui.ctx().pixels_per_point(),
    };
    let title = axis_title(ui, &drawn.names, kind, unit);
    let (steer, cursor, span) = (shared.steer, shared.cursor, shared.span);
    let response = time_plot("plot", id, shared)
        .height(PLOT_HEIGHT)
        // A drag pans time only, so values stay fitted to the data in
        // view unless their axis is dragged.
        .allow_axis_zoom_drag([false, true])
        .y_axis_label(title)
        .y_grid_spacer(value_grid)
        .label_formatter(hover_label(shared.zone.clone(), unit))
        .legend(
            Legend::default()
                .position(egui_plot::Corner::LeftTop)
                // A line's band comes first (it is drawn under the line):
                // the legend takes the line's colour, the last.
                .color_conflict_handling(ColorConflictHandling::PickLast),
        )
        .show(ui, |pui| {
            steer_plot(pui, &steer);
            drawn.channels_ui(pui, lines);
            span_ui(pui, span);
            cursor_ui(pui, cursor)
        });
    Shown::of(&response, response.inner, shared.measuring)
}

/// What the pointer's label says over a plot of values: the time, and
/// over a line its name and value in `unit`.
fn hover_label(
    zone: format::Zone,
    unit: &str,
) -> impl Fn(&HoverPosition<'_>) -> Option<String> + '_ {
    move |h| {
        let (name, p) = match h {
            HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } => (*plot_name, *position),
            HoverPosition::Elsewhere { position } => ("", *position),
        };
        let time = format::format_time(p.x as i64, &zone);
        Some(if name.is_empty() {
            time
        } else {
            format!("{name}\n{time}\n{} {unit}", format::number(Some(p.y), 3))
        })
    }
}

/// The channels one plot of values draws, and how.
struct Drawn<'a> {
    kind: DataKind,
    series: &'a Arc<PlotSeries>,
    channels: &'a [usize],
    /// The channels' readable names.
    names: Vec<String>,
    /// From the service's unit to the one shown.
    scale: Conversion,
    gaps: Gaps<'a>,
    pixels_per_point: f32,
}

impl Drawn<'_> {
    /// Each channel over the time in view: a line (cached in `lines`, made
    /// again for another view, size or data), or a daily kind's bars while
    /// each day has pixels of its own.
    fn channels_ui(
        &self,
        pui: &mut egui_plot::PlotUi<'_>,
        lines: &mut HashMap<(DataKind, usize), CachedLine>,
    ) {
        let (series, channels) = (self.series, self.channels);
        let visuals = pui.ctx().global_style().visuals.clone();
        let b = pui.plot_bounds();
        let (t0, t1) = (b.min()[0], b.max()[0]);
        let columns = (pui.response().rect.width() * self.pixels_per_point).max(1.0) as usize;
        let key = LineKey {
            data: Arc::as_ptr(series) as usize,
            gaps: self.gaps.key,
            t0,
            t1,
            columns,
        };
        let days_as_bars =
            self.kind.is_daily() && (t1 - t0) / DAY_SECS * MIN_BAR_COLUMNS <= columns as f64;
        let bars: Vec<usize> = (0..channels.len())
            .filter(|k| days_as_bars && !is_running_total(series, channels[*k]))
            .collect();
        for (k, (&ch, name)) in channels.iter().zip(&self.names).enumerate() {
            let color = theme::line_ink(&visuals, theme::series_color(k));
            if bars.contains(&k) {
                let slot = bars.iter().position(|b| *b == k).unwrap_or(0);
                bars_ui(
                    pui,
                    series,
                    ch,
                    name,
                    (color, self.scale),
                    (t0, t1),
                    (slot, bars.len()),
                );
                continue;
            }
            let cached = lines.entry((self.kind, ch)).or_default();
            cached.update(series, ch, key, self.gaps.positions);
            line_ui(pui, cached, name, color, self.scale);
        }
    }
}

/// A cumulative member of a daily kind (`cumulativeFuelUsed.fuelUsed`): a
/// running total, drawn as a line rather than bars.
fn is_running_total(series: &PlotSeries, ch: usize) -> bool {
    series.series.channels[ch].name.starts_with("cumulative")
}

/// The y axis's title: the channel's name (or the kind's, for several)
/// with the unit, if it fits the plot's height; else the unit alone (the
/// legend and the header name the plot), or the name cut short.
fn axis_title(ui: &egui::Ui, names: &[String], kind: DataKind, unit: &str) -> String {
    let name = match names {
        [only] => only.clone(),
        _ => value_name(kind),
    };
    let full = with_unit(&name, unit);
    let font = egui::TextStyle::Body.resolve(ui.style());
    let width = ui
        .painter()
        .layout_no_wrap(full.clone(), font, egui::Color32::WHITE)
        .size()
        .x;
    let room = PLOT_HEIGHT - X_AXIS_ROOM;
    if width <= room {
        full
    } else if !unit.is_empty() {
        unit.to_owned()
    } else {
        let keep = (name.chars().count() as f32 * room / width) as usize;
        let mut short: String = name.chars().take(keep.saturating_sub(1)).collect();
        short.push('…');
        short
    }
}

/// A channel's line, its band where samples crowd, lone samples as dots
/// and estimated ones as hollow diamonds. All share the name: one legend
/// entry.
fn line_ui(
    pui: &mut egui_plot::PlotUi<'_>,
    cached: &CachedLine,
    name: &str,
    color: egui::Color32,
    scale: Conversion,
) {
    let plot_points = |points: &[[f64; 2]]| converted(points, scale);
    for band in cached.bands() {
        let xs: Vec<f64> = band.iter().map(|b| b[0]).collect();
        let lo: Vec<f64> = band.iter().map(|b| scale.apply(b[1])).collect();
        let hi: Vec<f64> = band.iter().map(|b| scale.apply(b[2])).collect();
        pui.add(
            FilledArea::new(name, &xs, &lo, &hi)
                .fill_color(theme::band_fill(color))
                .allow_hover(false),
        );
    }
    for run in cached.runs() {
        pui.line(
            Line::new(name, plot_points(run))
                .color(color)
                .width(1.5)
                // Already one point per pixel column at most: egui_plot's
                // own banding would turn steep runs into wedges.
                .allow_band(false),
        );
    }
    if !cached.dots().is_empty() {
        pui.points(
            Points::new(name, plot_points(cached.dots()))
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

/// One bar a day for the days in view (a few hundred at most: bars are
/// drawn only while each has pixels of its own); the `slot`-th of `slots`
/// channels sits beside the others. Estimated days are marked.
fn bars_ui(
    pui: &mut egui_plot::PlotUi<'_>,
    series: &PlotSeries,
    ch: usize,
    name: &str,
    (color, scale): (egui::Color32, Conversion),
    (t0, t1): (f64, f64),
    (slot, slots): (usize, usize),
) {
    let times = &series.series.times;
    let c = &series.series.channels[ch];
    let lo = times.partition_point(|t| (*t as f64) < t0 - DAY_SECS);
    let hi = times.partition_point(|t| (*t as f64) <= t1);
    let width = DAY_SECS * 0.8 / slots as f64;
    let offset = (slot as f64 - (slots as f64 - 1.0) / 2.0) * width;
    let mut bars = Vec::new();
    let mut estimated = Vec::new();
    let in_view = times[lo..hi].iter().zip(&c.values[lo..hi]);
    for (i, (&t, &v)) in (lo..).zip(in_view) {
        if !v.is_finite() {
            continue;
        }
        let v = scale.apply(v);
        // A day's row is dated at its start: its bar stands over the day.
        let x = t as f64 + DAY_SECS / 2.0 + offset;
        bars.push(Bar::new(x, v).width(width).fill(theme::bar_fill(color)));
        if c.estimated_at(i) == Some(true) {
            estimated.push([x, v]);
        }
    }
    pui.bar_chart(BarChart::new(name, bars).color(color));
    if !estimated.is_empty() {
        pui.points(
            Points::new(format!("{name} (estimated)"), plot_points(&estimated))
                .shape(MarkerShape::Diamond)
                .filled(false)
                .radius(4.0)
                .color(theme::ESTIMATED),
        );
    }
}

/// Grid marks for values: steps of 1 and 5 times a power of ten, each a
/// multiple of the one before (1, 5, 10, 50, ...), each value once with
/// the largest step it is on, so labels never crowd; more of them than
/// egui_plot's powers of ten alone (a plot of 0 to 90 °C had one label).
fn value_grid(input: GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    let base = input.base_step_size;
    if !(lo.is_finite() && hi.is_finite() && base.is_finite()) || hi <= lo || base <= 0.0 {
        return Vec::new();
    }
    // The finest step: 1 or 5 times a power of ten, at least `base`.
    let power = 10f64.powf(base.log10().floor());
    let (finest, mut five) = if power >= base {
        (power, false)
    } else if 5.0 * power >= base {
        (5.0 * power, true)
    } else {
        (10.0 * power, false)
    };
    // The multiples of `finest` each coarser step stands for.
    let mut levels = vec![1_i64];
    let mut m = 1_i64;
    while levels.len() < 12 {
        m *= if five { 2 } else { 5 };
        five = !five;
        levels.push(m);
    }
    let first = (lo / finest).ceil() as i64;
    let last = (hi / finest).floor() as i64;
    if last.saturating_sub(first) > 1000 {
        return Vec::new();
    }
    (first..=last)
        .map(|n| {
            let m = levels
                .iter()
                .rev()
                .find(|m| n % **m == 0)
                .copied()
                .unwrap_or(1);
            GridMark {
                value: n as f64 * finest,
                step_size: m as f64 * finest,
            }
        })
        .collect()
}

/// The series' `[time, value]` points as egui_plot's.
fn plot_points(points: &[[f64; 2]]) -> PlotPoints<'static> {
    points.iter().copied().collect()
}

/// A conversion to the units chosen, and the unit then shown: as given
/// for a unit the app does not know.
pub(super) fn conversion(unit: &str, units: UnitSystem) -> (Conversion, String) {
    match units.conversion(unit) {
        Some((c, shown)) => (c, shown.to_owned()),
        None => (Conversion::SAME, unit.to_owned()),
    }
}

/// Points with their values converted.
fn converted(points: &[[f64; 2]], c: Conversion) -> PlotPoints<'static> {
    if c == Conversion::SAME {
        return plot_points(points);
    }
    points.iter().map(|[x, y]| [*x, c.apply(*y)]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_the_app_does_not_know_is_drawn_as_given() {
        let (c, unit) = conversion("km/h", UnitSystem::Imperial);
        assert_eq!(unit, "mph");
        assert!((c.apply(100.0) - 62.137_119_223_733_4).abs() < 1e-9);
        assert_eq!(
            conversion("%", UnitSystem::Imperial),
            (Conversion::SAME, "%".to_owned())
        );
        assert_eq!(
            conversion("", UnitSystem::Imperial),
            (Conversion::SAME, String::new())
        );
    }

    fn grid(lo: f64, hi: f64, base: f64) -> Vec<(f64, f64)> {
        value_grid(GridInput {
            bounds: (lo, hi),
            base_step_size: base,
        })
        .into_iter()
        .map(|m| (m.value, m.step_size))
        .collect()
    }

    #[test]
    fn value_steps_are_ones_and_fives_nested() {
        // 0 to 95 over 130 points, 8 points the finest: a step of 10, and
        // 0, 50 on the coarser one (labelled from 20 points apart); zero is
        // on every step.
        let marks = grid(-5.0, 95.0, 6.2);
        assert!(marks[0].0 == 0.0 && marks[0].1 >= 1e6);
        assert!(marks.contains(&(50.0, 50.0)));
        assert!(marks.contains(&(10.0, 10.0)));
        assert_eq!(marks.len(), 10);
        // A finest step of 5: then 10, 50, 100.
        let marks = grid(80.0, 100.0, 3.0);
        assert_eq!(
            marks,
            vec![
                (80.0, 10.0),
                (85.0, 5.0),
                (90.0, 10.0),
                (95.0, 5.0),
                (100.0, 100.0)
            ]
        );
        // Small values.
        let marks = grid(27.6, 28.1, 0.03);
        assert!(
            marks
                .iter()
                .any(|(v, s)| (v - 27.7).abs() < 1e-9 && (s - 0.1).abs() < 1e-9)
        );
        // Each value once; every step a multiple of the finest.
        for (lo, hi, base) in [(0.0, 1e6, 7000.0), (-3.0, 3.0, 0.07), (1e-3, 2e-3, 1e-5)] {
            let marks = grid(lo, hi, base);
            assert!(!marks.is_empty());
            let finest = marks.iter().map(|m| m.1).fold(f64::INFINITY, f64::min);
            assert!(finest >= base);
            for w in marks.windows(2) {
                assert!(w[1].0 > w[0].0);
            }
        }
        assert!(grid(f64::NAN, 1.0, 1.0).is_empty());
        assert!(grid(0.0, 1.0, 0.0).is_empty());
        assert!(grid(0.0, 1e9, 1e-3).is_empty(), "too many: none");
    }
}
