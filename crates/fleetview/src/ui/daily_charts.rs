//! The daily charts over the Daily history's table: working and idle hours
//! stacked per day with the expected hours as a step line, fuel per day
//! (estimated days hollow) and distance per day, side by side on one day
//! axis (UTC days, as the table's). A click on a day moves the time cursor
//! to its start; the day under the pointer is named in a tooltip and
//! marked, with its row in the table; the cursor's day is marked too.
//!
//! The bars come from the window's report (one entry a day), built once per
//! report: a frame hands egui_plot the bars in view, nothing more. A day
//! without a figure has no bar (never a 0 bar).

use std::ops::RangeInclusive;
use std::sync::Arc;

use egui_plot::{
    Bar, BarChart, Corner, GridInput, GridMark, Legend, Plot, PlotPoint, PlotPoints, Span, VLine,
};

use crate::app::{Action, AppState, TimelineAction};
use crate::ui::format;
use crate::ui::plots::time_grid;
use crate::ui::theme;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_core::analysis::{Figure, Figures, Quantity, Report, UnitSystem};

const DAY: f64 = SECS_PER_DAY as f64;
/// A bar's width, in days.
const BAR_WIDTH: f64 = 0.8;
/// Below this many pixels a day, bars lose their outline (it would cover
/// them).
const THIN_DAY_PX: f64 = 4.0;
/// Each chart is at least this wide (a narrower pane clips them).
const MIN_CHART_WIDTH: f32 = 80.0;

/// The three charts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DailyChart {
    Hours,
    Fuel,
    Distance,
}

impl DailyChart {
    pub const ALL: [DailyChart; 3] = [DailyChart::Hours, DailyChart::Fuel, DailyChart::Distance];

    /// The chart's accessible name.
    pub fn name(self) -> &'static str {
        match self {
            DailyChart::Hours => "Daily hours chart",
            DailyChart::Fuel => "Daily fuel chart",
            DailyChart::Distance => "Daily distance chart",
        }
    }

    /// The y axis's title, and its unit alone where the title does not fit.
    fn axis_title(self, units: UnitSystem) -> (String, &'static str) {
        let (title, unit) = match self {
            DailyChart::Hours => ("Hours", "h"),
            DailyChart::Fuel => ("Fuel", units.unit(Quantity::Volume)),
            DailyChart::Distance => ("Distance", units.unit(Quantity::Distance)),
        };
        (format!("{title} ({unit})"), unit)
    }

    /// What a chart with no bar at all says.
    fn empty(self) -> &'static str {
        match self {
            DailyChart::Hours => "No hours in this window",
            DailyChart::Fuel => "No fuel in this window",
            DailyChart::Distance => "No distance in this window",
        }
    }
}

/// The id of a daily chart for a window: its zoom and pan live under it.
pub fn chart_id(chart: DailyChart, window: TimeWindow) -> egui::Id {
    egui::Id::unique(("daily_chart", chart, window.since, window.until))
}

/// What the daily charts remember between frames.
#[derive(Debug, Default)]
pub struct DailyChartsView {
    /// The day under the pointer on a chart, this frame.
    hovered_day: Option<i64>,
    /// The bars of the last report drawn.
    bars: Option<DailyBars>,
    /// The last seek the table was scrolled to.
    seen_seek: u64,
}

impl DailyChartsView {
    /// The day (days since 1970-01-01, UTC) under the pointer on a chart.
    pub fn hovered_day(&self) -> Option<i64> {
        self.hovered_day
    }

    /// The cursor's day once after each seek (the table scrolls to it).
    pub fn day_to_scroll_to(&mut self, state: &AppState) -> Option<i64> {
        let seek = state.timeline().seek;
        if seek == self.seen_seek {
            return None;
        }
        self.seen_seek = seek;
        state.timeline().cursor.map(|t| t.div_euclid(SECS_PER_DAY))
    }
}

/// What the charts draw, built once per report. Every vector is sorted by
/// day.
#[derive(Debug)]
struct DailyBars {
    report: Arc<Report>,
    /// Built for the dark theme (colours are kept readable on each).
    dark: bool,
    /// Built in these units.
    units: UnitSystem,
    working: Vec<Bar>,
    /// Stacked on the day's working hours.
    idle: Vec<Bar>,
    /// A step: each day's level from its start to its end.
    expected: Vec<PlotPoint>,
    fuel: Vec<Bar>,
    fuel_estimated: Vec<Bar>,
    distance: Vec<Bar>,
}

fn finite(v: Option<f64>) -> Option<f64> {
    v.filter(|v| v.is_finite())
}

fn day_bar(day: i64, value: f64, color: egui::Color32) -> Bar {
    Bar::new(day as f64 + 0.5, value)
        .width(BAR_WIDTH)
        .fill(theme::bar_fill(color))
        .stroke(egui::Stroke::new(1.0, color))
}

impl DailyBars {
    fn build(report: &Arc<Report>, visuals: &egui::Visuals, units: UnitSystem) -> Self {
        let ink = |c| theme::line_ink(visuals, c);
        let mut b = DailyBars {
            report: report.clone(),
            dark: visuals.dark_mode,
            units,
            working: Vec::new(),
            idle: Vec::new(),
            expected: Vec::with_capacity(2 * report.days.len()),
            fuel: Vec::new(),
            fuel_estimated: Vec::new(),
            distance: Vec::new(),
        };
        for (day, f) in &report.days {
            let day = *day;
            let working = finite(f.working_hours_h);
            if let Some(w) = working {
                b.working.push(day_bar(day, w, ink(theme::WORKING)));
            }
            if let Some(i) = finite(f.idle_hours_h) {
                b.idle
                    .push(day_bar(day, i, ink(theme::IDLE)).base_offset(working.unwrap_or(0.0)));
            }
            if f.expected_hours_h.is_finite() {
                b.expected
                    .push(PlotPoint::new(day as f64, f.expected_hours_h));
                b.expected
                    .push(PlotPoint::new(day as f64 + 1.0, f.expected_hours_h));
            }
            if let Some(v) = finite(f.fuel_used_l).map(|l| units.from_metric(Quantity::Volume, l)) {
                if f.is_estimated(Figure::FuelUsed) {
                    b.fuel_estimated.push(
                        day_bar(day, v, ink(theme::FUEL))
                            .fill(theme::estimated_fill(ink(theme::FUEL)))
                            .stroke(egui::Stroke::new(1.0, ink(theme::ESTIMATED))),
                    );
                } else {
                    b.fuel.push(day_bar(day, v, ink(theme::FUEL)));
                }
            }
            if let Some(v) =
                finite(f.distance_km).map(|km| units.from_metric(Quantity::Distance, km))
            {
                b.distance.push(day_bar(day, v, ink(theme::DISTANCE)));
            }
        }
        b
    }

    /// Whether a chart has any bar.
    fn has_bars(&self, chart: DailyChart) -> bool {
        match chart {
            DailyChart::Hours => !(self.working.is_empty() && self.idle.is_empty()),
            DailyChart::Fuel => !(self.fuel.is_empty() && self.fuel_estimated.is_empty()),
            DailyChart::Distance => !self.distance.is_empty(),
        }
    }

    /// A day's figures, if the report has the day.
    fn figures_of(&self, day: i64) -> Option<&Figures> {
        let days = &self.report.days;
        let k = days.binary_search_by_key(&day, |(d, _)| *d).ok()?;
        Some(&days[k].1)
    }
}

/// The items (sorted by `x`) whose `x` is within a day of `lo..=hi`.
fn in_view<T>(items: &[T], x: impl Fn(&T) -> f64, (lo, hi): (f64, f64)) -> &[T] {
    let start = items.partition_point(|i| x(i) < lo - 1.0);
    let end = items.partition_point(|i| x(i) <= hi + 1.0).max(start);
    &items[start..end]
}

/// The day holding `x` (in days) if the report has it.
fn day_at(x: f64, first: i64, last: i64) -> Option<i64> {
    if !x.is_finite() {
        return None;
    }
    let day = x.floor() as i64;
    (first..=last).contains(&day).then_some(day)
}

/// The charts' height in a pane with `available` points left: their own
/// unless the table would lose its first days, never below the least;
/// `None` if even that leaves the table too little.
pub fn chart_height(available: f32) -> Option<f32> {
    let room = available - theme::DAILY_TABLE_ROOM;
    (room >= theme::DAILY_CHART_MIN_HEIGHT).then(|| room.min(theme::DAILY_CHART_HEIGHT))
}

/// Grid marks on UTC midnights (days, weeks, months, years: the plots'
/// calendar), for an axis in days.
fn day_grid(input: GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    time_grid(
        GridInput {
            bounds: (lo * DAY, hi * DAY),
            base_step_size: input.base_step_size.max(1.0) * DAY,
        },
        &format::Zone::utc(),
    )
    .into_iter()
    .map(|m| GridMark {
        value: m.value / DAY,
        step_size: m.step_size / DAY,
    })
    .collect()
}

/// A day mark's label: `06-18` over weeks, `2025-06` over months, `2025`
/// for years; a space each side keeps neighbours apart.
fn day_label(mark: GridMark, range: &RangeInclusive<f64>) -> String {
    let long = range.end() - range.start() > 120.0;
    let format = if mark.step_size >= 365.0 {
        "%Y"
    } else if long && mark.step_size >= 28.0 {
        "%Y-%m"
    } else if long || mark.step_size < 1.0 {
        return String::new();
    } else {
        "%m-%d"
    };
    let t = (mark.value * DAY).round() as i64;
    format!(" {} ", format::format_in_zone(t, false, format))
}

/// What the three charts share this frame.
#[derive(Debug, Clone, Copy)]
struct Frame {
    window: TimeWindow,
    link: egui::Id,
    size: egui::Vec2,
    first: i64,
    last: i64,
    cursor: Option<i64>,
    /// The day under the pointer last frame (marked on every chart).
    hovered: Option<i64>,
}

/// What a pane too short for the charts says in their stead (on a line
/// the table has anyway).
pub const NO_ROOM: &str = "Drag the pane's top edge up for the daily charts";

/// The charts above the daily table, in a band of fixed height (a spinner
/// line until the figures come: nothing moves when they do). Returns
/// whether there was room for them: a short pane keeps its rows for the
/// days, and shows nothing here.
pub fn daily_charts_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut DailyChartsView,
    actions: &mut Vec<Action>,
) -> bool {
    let hovered_before = view.hovered_day.take();
    let Some(height) = chart_height(ui.available_height()) else {
        return false;
    };
    let width = ui.available_width();
    let figures = &state.figures().report;
    // Only the figures of the window shown: a new window's table must not
    // stand under the last one's days.
    let window = state.window();
    let report = figures
        .value()
        .filter(|r| r.window.is_some() && r.window == window);
    let (Some(report), Some(window)) = (report, window) else {
        ui.allocate_ui(egui::vec2(width, height), |ui| {
            ui.set_min_size(egui::vec2(width, height));
            if let Some(e) = figures.error() {
                super::widgets::panel_failed_ui(ui, "Daily figures", e, actions);
            } else {
                ui.horizontal(|ui| {
                    crate::ui::widgets::spinner_ui(ui);
                    ui.label("Computing figures…");
                });
            }
        });
        return true;
    };
    if view.bars.as_ref().is_none_or(|b| {
        !Arc::ptr_eq(&b.report, report)
            || b.dark != ui.visuals().dark_mode
            || b.units != state.units()
    }) {
        view.bars = Some(DailyBars::build(report, ui.visuals(), state.units()));
    }
    let Some(bars) = view.bars.as_ref() else {
        return true;
    };
    let (Some(first), Some(last)) = (report.days.first(), report.days.last()) else {
        ui.allocate_ui(egui::vec2(width, height), |ui| {
            ui.set_min_size(egui::vec2(width, height));
            ui.label("No whole day in this window.");
        });
        return true;
    };
    let spacing = ui.spacing().item_spacing.x;
    let chart_width = ((width - 2.0 * spacing) / 3.0).floor().max(MIN_CHART_WIDTH);
    let frame = Frame {
        window,
        link: egui::Id::unique(("daily_charts", window.since, window.until)),
        size: egui::vec2(chart_width, height),
        first: first.0,
        last: last.0,
        cursor: state.timeline().cursor,
        hovered: hovered_before,
    };
    let mut hovered = None;
    let mut clicked = None;
    ui.horizontal_top(|ui| {
        for chart in DailyChart::ALL {
            let (day, click) = chart_ui(ui, chart, &frame, bars);
            hovered = hovered.or(day);
            if click {
                clicked = day;
            }
        }
    });
    if hovered != hovered_before {
        // The marks follow at once, even with the pointer gone still.
        ui.ctx().request_repaint();
    }
    view.hovered_day = hovered;
    if let Some(day) = clicked {
        actions.push(TimelineAction::SeekTo(day * SECS_PER_DAY).into());
    }
    true
}

/// One chart; returns the day under the pointer and whether it was
/// clicked.
fn chart_ui(
    ui: &mut egui::Ui,
    chart: DailyChart,
    frame: &Frame,
    bars: &DailyBars,
) -> (Option<i64>, bool) {
    let units = bars.units;
    let visuals = ui.visuals().clone();
    let shown = chart_plot(ui, chart, frame, units).show(ui, |pui| {
        let b = pui.plot_bounds();
        let view = if b.min()[0].is_finite() && b.max()[0].is_finite() {
            (b.min()[0], b.max()[0])
        } else {
            (f64::NEG_INFINITY, f64::INFINITY)
        };
        let thin = pui.transform().dpos_dvalue_x().abs() < THIN_DAY_PX;
        days_marked_ui(pui, frame);
        ChartBars {
            view,
            thin,
            visuals: &visuals,
        }
        .chart_ui(pui, chart, bars);
        if let Some(c) = frame.cursor {
            pui.vline(
                VLine::new("", c as f64 / DAY)
                    .color(theme::CURSOR)
                    .width(1.5)
                    .allow_hover(false),
            );
        }
        pui.response()
            .hovered()
            .then(|| pui.pointer_coordinate())
            .flatten()
            .and_then(|p| day_at(p.x, frame.first, frame.last))
    });
    let mut response = shown.response;
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, chart.name()));
    if !bars.has_bars(chart) {
        ui.painter().with_clip_rect(response.rect).text(
            response.rect.center(),
            egui::Align2::CENTER_CENTER,
            chart.empty(),
            egui::TextStyle::Small.resolve(ui.style()),
            ui.visuals().weak_text_color(),
        );
    }
    let day = shown.inner;
    if let Some(f) = day.and_then(|d| bars.figures_of(d).map(|f| (d, f))) {
        response = response.on_hover_ui_at_pointer(|ui| day_tooltip_ui(ui, f.0, f.1, units));
    }
    (day, response.clicked() && day.is_some())
}

/// A chart's plot on the days' axis, titled with its name and unit (the
/// unit alone where the name does not fit its height).
fn chart_plot<'a>(ui: &egui::Ui, chart: DailyChart, frame: &Frame, units: UnitSystem) -> Plot<'a> {
    let (full, unit) = chart.axis_title(units);
    let font = egui::TextStyle::Body.resolve(ui.style());
    let title_width = ui
        .painter()
        .layout_no_wrap(full.clone(), font, egui::Color32::WHITE)
        .size()
        .x;
    // The x axis takes about a row under the frame.
    let title = if title_width <= frame.size.y - theme::ROW_HEIGHT {
        full
    } else {
        unit.to_owned()
    };
    let plot = Plot::new(chart.name())
        .id(chart_id(chart, frame.window))
        .width(frame.size.x)
        .height(frame.size.y)
        .link_axis(frame.link, [true, false])
        // Days move sideways only: a drag pans, ctrl + wheel zooms, a
        // double-click shows the whole window again. The wheel alone
        // scrolls the pane.
        .allow_drag([true, false])
        .allow_zoom([true, false])
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_axis_zoom_drag(false)
        // The tooltip names the day's figures: no coordinates, no ruler.
        .show_x(false)
        .show_y(false)
        .show_crosshair(false)
        .include_x(frame.first as f64)
        .include_x(frame.last as f64 + 1.0)
        .include_y(0.0)
        .y_axis_label(title)
        .x_grid_spacer(day_grid)
        .custom_x_axes(vec![
            egui_plot::AxisHints::new_x()
                .formatter(day_label)
                .label_spacing(40.0..=60.0),
        ]);
    // Shorter, the legend would hide the bars: the tooltip names them.
    if matches!(chart, DailyChart::Hours | DailyChart::Fuel)
        && frame.size.y >= theme::DAILY_CHART_LEGEND_HEIGHT
    {
        plot.legend(
            Legend::default()
                .position(Corner::LeftTop)
                .text_style(egui::TextStyle::Small),
        )
    } else {
        plot
    }
}

/// The cursor's day and the day under the pointer, shaded.
fn days_marked_ui(pui: &mut egui_plot::PlotUi<'_>, frame: &Frame) {
    let mut day_span = |day: i64, fill: egui::Color32| {
        pui.span(
            Span::new("", day as f64..=day as f64 + 1.0)
                .fill(fill)
                .border_width(0.0),
        );
    };
    if let Some(c) = frame.cursor {
        day_span(c.div_euclid(SECS_PER_DAY), theme::cursor_day_fill());
    }
    if let Some(d) = frame.hovered {
        day_span(d, theme::hovered_day_fill());
    }
}

/// How a chart's bars are drawn this frame.
struct ChartBars<'v> {
    /// The days in view (from and to).
    view: (f64, f64),
    /// Days are a few pixels wide: bars lose their outline.
    thin: bool,
    visuals: &'v egui::Visuals,
}

impl ChartBars<'_> {
    /// The chart's bars in view, and for hours the expected hours' step.
    fn chart_ui<'b>(
        &self,
        pui: &mut egui_plot::PlotUi<'b>,
        chart: DailyChart,
        bars: &'b DailyBars,
    ) {
        match chart {
            DailyChart::Hours => {
                self.bars_ui(pui, "Working", &bars.working, theme::WORKING);
                self.bars_ui(pui, "Idle", &bars.idle, theme::IDLE);
            }
            DailyChart::Fuel => {
                self.bars_ui(pui, "Fuel used", &bars.fuel, theme::FUEL);
                self.bars_ui(
                    pui,
                    "Fuel used (estimated)",
                    &bars.fuel_estimated,
                    theme::ESTIMATED,
                );
            }
            DailyChart::Distance => self.bars_ui(pui, "Distance", &bars.distance, theme::DISTANCE),
        }
        // With days a few pixels wide, the weekday/weekend steps of the
        // expected hours become a fence over the bars: left out then (the
        // tooltip still gives each day's).
        if chart == DailyChart::Hours && !bars.expected.is_empty() && !self.thin {
            let points = in_view(&bars.expected, |p| p.x, self.view);
            pui.line(
                egui_plot::Line::new("Expected", PlotPoints::Borrowed(points))
                    .color(theme::EXPECTED)
                    .width(1.0)
                    .allow_band(false)
                    .allow_hover(false),
            );
        }
    }

    /// One series of bars, those in view; named in the legend if the
    /// window has any, in view or not.
    fn bars_ui(
        &self,
        pui: &mut egui_plot::PlotUi<'_>,
        name: &str,
        all: &[Bar],
        color: egui::Color32,
    ) {
        let color = theme::line_ink(self.visuals, color);
        if all.is_empty() {
            return;
        }
        let shown: Vec<Bar> = in_view(all, |b| b.argument, self.view)
            .iter()
            .map(|b| {
                if self.thin {
                    b.clone().stroke(egui::Stroke::NONE)
                } else {
                    b.clone()
                }
            })
            .collect();
        pui.bar_chart(BarChart::new(name, shown).color(color).allow_hover(false));
    }
}

/// A day's figures, under its date.
fn day_tooltip_ui(ui: &mut egui::Ui, day: i64, f: &Figures, units: UnitSystem) {
    ui.strong(format::format_in_zone(
        day * SECS_PER_DAY,
        false,
        "%a %Y-%m-%d (UTC)",
    ));
    egui::Grid::new("daily_chart_tip").show(ui, |ui| {
        for figure in [
            Figure::WorkingHours,
            Figure::IdleHours,
            Figure::ExpectedHours,
            Figure::FuelUsed,
            Figure::Distance,
        ] {
            ui.label(figure.label());
            let mut value = format::figure_value(figure, f.value(figure), units);
            if f.is_estimated(figure) {
                value.push_str(" (est.)");
            }
            ui.label(value);
            ui.end_row();
        }
    });
    ui.weak("Click: move the cursor to this day");
}

#[cfg(test)]
#[path = "daily_charts_tests.rs"]
mod tests;
