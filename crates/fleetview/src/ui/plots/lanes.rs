//! The state lanes of a kind: its boolean and label channels (engine
//! started/stopped per D10, charging state, ...), one row each, coloured
//! runs per state, sampled once per pixel column so any number of changes
//! stays bounded. Hovering a lane says its state there.

use egui_plot::{GridMark, HoverPosition, PlotPoint, PlotPoints, Polygon, Text};

use super::shared::{Shared, Shown, time_plot};
use super::steer::steer_plot;
use super::time_axis::{cursor_ui, span_ui};
use crate::ui::format;
use crate::ui::theme;
use fleetview_api::DataKind;
use fleetview_api::model::EngineEvent;
use fleetview_core::series::names::{channel_name, value_name};
use fleetview_core::series::{ChannelKind, PlotSeries};

/// Height of one lane of states.
const LANE_HEIGHT: f32 = 26.0;
/// Lane names longer than this are shortened, so they fit the y axis.
const LANE_NAME_CHARS: usize = 16;

fn short_name(name: &str) -> String {
    if name.chars().count() <= LANE_NAME_CHARS {
        return name.to_owned();
    }
    let mut s: String = name.chars().take(LANE_NAME_CHARS - 1).collect();
    s.push('…');
    s
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

/// The state of lane `row` at time `t`: its name and the label of the last
/// sample at or before `t`, e.g. `Engine: stopped`.
fn state_at(
    kind: DataKind,
    series: &PlotSeries,
    channels: &[usize],
    names: &[String],
    row: f64,
    t: f64,
) -> Option<String> {
    if row.is_nan() || row < 0.0 {
        return None;
    }
    let row = row.floor() as usize;
    let ch = *channels.get(row)?;
    let k = series.series.times.partition_point(|x| (*x as f64) <= t);
    let label = lane_label(kind, series, ch, k.checked_sub(1)?)?;
    Some(format!("{}: {label}", names.get(row)?))
}

/// Runs of the same label, sampled at the start of each of `columns`
/// columns from `t0`, none past `known_until` (a state is not known after
/// the data: "now" in a window still running).
fn state_runs(
    t0: f64,
    column_secs: f64,
    columns: usize,
    known_until: f64,
    label_at: impl Fn(f64) -> Option<String>,
) -> Vec<(f64, f64, String)> {
    let mut runs: Vec<(f64, f64, String)> = Vec::new();
    for col in 0..columns {
        let t = t0 + column_secs * col as f64;
        if t >= known_until {
            break;
        }
        let Some(label) = label_at(t) else {
            continue;
        };
        let end = (t + column_secs).min(known_until);
        match runs.last_mut() {
            Some(r) if r.2 == label && (r.1 - t).abs() < column_secs * 0.5 => r.1 = end,
            _ => runs.push((t, end, label)),
        }
    }
    runs
}

/// A grid mark at the middle of each of `rows` lanes, where its name goes.
fn lane_marks(rows: usize) -> Vec<GridMark> {
    (0..rows)
        .map(|r| GridMark {
            value: r as f64 + 0.5,
            step_size: 1.0,
        })
        .collect()
}

/// The name of the lane at grid mark `m`.
fn lane_name_at(names: &[String], m: GridMark) -> String {
    let r = (m.value - 0.5).round();
    if r >= 0.0 {
        names.get(r as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

/// Lanes of states for `channels`: one row each, coloured runs per label,
/// sampled once per pixel column so any number of changes stays bounded.
pub fn lanes_plot_ui(
    ui: &mut egui::Ui,
    id: egui::Id,
    shared: &Shared,
    kind: DataKind,
    series: &PlotSeries,
    channels: &[usize],
) -> Shown {
    let pixels_per_point = ui.ctx().pixels_per_point();
    // One lane: named after the kind; several: after their channels.
    let full: Vec<String> = if channels.len() == 1 {
        vec![value_name(kind)]
    } else {
        channels
            .iter()
            .map(|c| channel_name(kind, &series.series.channels[*c].name))
            .collect()
    };
    let names: Vec<String> = full.iter().map(|n| short_name(n)).collect();
    let rows = channels.len() as f64;
    let (zone, steer, cursor, span) = (
        shared.zone.clone(),
        shared.steer,
        shared.cursor,
        shared.span,
    );
    let known_until = shared.known_until as f64;
    let response = time_plot("plot", id, shared)
        .height(LANE_HEIGHT * channels.len() as f32 + 24.0)
        .default_y_bounds(0.0, rows)
        .allow_axis_zoom_drag(false)
        .show_grid([true, false])
        .y_grid_spacer(move |_| lane_marks(channels.len()))
        .y_axis_formatter(move |m, _| lane_name_at(&names, m))
        .label_formatter(move |h| {
            let p = match h {
                HoverPosition::NearDataPoint { position, .. }
                | HoverPosition::Elsewhere { position } => *position,
            };
            let time = format::format_time(p.x as i64, &zone);
            Some(match state_at(kind, series, channels, &full, p.y, p.x) {
                Some(state) => format!("{state}\n{time}"),
                None => time,
            })
        })
        .show(ui, |pui| {
            steer_plot(pui, &steer);
            let b = pui.plot_bounds();
            let (t0, t1) = (b.min()[0], b.max()[0]);
            let columns = (pui.response().rect.width() * pixels_per_point).max(1.0) as usize;
            let column_secs = (t1 - t0) / columns as f64;
            let times = &series.series.times;
            for (row, &ch) in channels.iter().enumerate() {
                let runs = state_runs(t0, column_secs, columns, known_until, |t| {
                    let k = times.partition_point(|x| (*x as f64) <= t);
                    k.checked_sub(1)
                        .and_then(|i| lane_label(kind, series, ch, i))
                });
                lane_ui(pui, row, runs, (column_secs, pixels_per_point));
            }
            span_ui(pui, span);
            cursor_ui(pui, cursor)
        });
    Shown::of(&response, response.inner, shared.measuring)
}

/// Lane `row`'s runs of states, each in its state's colour, named where
/// it is wide enough (a pixel column is `column_secs` seconds).
fn lane_ui(
    pui: &mut egui_plot::PlotUi<'_>,
    row: usize,
    runs: Vec<(f64, f64, String)>,
    (column_secs, pixels_per_point): (f64, f32),
) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_not_drawn_past_what_is_known() {
        // Started at 0, stopped at 400; known until 700 of 0..1000.
        let label = |t: f64| Some(if t < 400.0 { "started" } else { "stopped" }.to_owned());
        let runs = state_runs(0.0, 10.0, 100, 700.0, label);
        assert_eq!(
            runs,
            [
                (0.0, 400.0, "started".to_owned()),
                (400.0, 700.0, "stopped".to_owned())
            ]
        );
        // Known to the end: the last run reaches it; a gap without a label
        // ends a run.
        let runs = state_runs(0.0, 10.0, 100, 1000.0, |t| {
            (!(500.0..600.0).contains(&t)).then(|| "started".to_owned())
        });
        assert_eq!(
            runs,
            [
                (0.0, 500.0, "started".to_owned()),
                (600.0, 1000.0, "started".to_owned())
            ]
        );
        assert!(state_runs(0.0, 10.0, 100, 0.0, label).is_empty());
    }

    #[test]
    fn a_lane_says_its_state_at_a_time_per_d10() {
        use fleetview_core::series::Channel;
        // Started at 100 (running: false), stopped at 200 (running: true).
        let running = Channel {
            name: "running".into(),
            unit: None,
            kind: ChannelKind::Boolean,
            values: vec![0.0, 1.0],
            labels: Vec::new(),
            estimated: None,
        };
        let series = PlotSeries::new(fleetview_core::series::Series {
            times: vec![100, 200],
            channels: vec![running],
            ..Default::default()
        });
        let names = vec!["Engine".to_owned()];
        let at =
            |row: f64, t: f64| state_at(DataKind::EngineCondition, &series, &[0], &names, row, t);
        assert_eq!(at(0.5, 150.0).as_deref(), Some("Engine: started"));
        assert_eq!(at(0.5, 250.0).as_deref(), Some("Engine: stopped"));
        assert_eq!(at(0.5, 50.0), None, "before the first event");
        assert_eq!(at(1.5, 150.0), None, "no such lane");
        assert_eq!(at(-0.5, 150.0), None);
        assert_eq!(at(f64::NAN, 150.0), None);
    }

    #[test]
    fn lane_names_are_shortened_to_fit_the_axis() {
        assert_eq!(short_name("running"), "running");
        let s = short_name("EV battery charge cycles");
        assert_eq!(s.chars().count(), LANE_NAME_CHARS);
        assert!(s.ends_with('…'));
    }
}
