//! Frame costs of plots and the map track, headless (`Context::run_ui` then
//! `tessellate`, 1920x1080), as ratios measured in one run
//! (`cargo bench --bench frames`):
//! - a plot frame over a year of 1 Hz samples (31.5M) <= 20x the empty plot
//!   (axes and grid, no sample in view) and <= 2.5x a 100k-sample plot, the
//!   view panning every frame (the columns coming into view are aggregated;
//!   a whole view's aggregation is the "whole-year query" below);
//! - vertices per series <= 8x the plot width in pixels, whatever the count;
//! - a hover frame <= 1.3x an idle frame;
//! - the min/max index: build <= 150 ms per 31.5M-sample channel, <= 15 %
//!   extra memory, a whole-year query <= 2 ms;
//! - a 1M-position track frame >= 100x faster than projecting and
//!   tessellating every point, and <= 100k vertices at any zoom;
//! - a fleet map frame with 10,000 machines (clustered, the view panning)
//!   <= 2x the same with 100, and a frame that clusters them afresh (a new
//!   zoom step) <= 16 ms; a fleet table frame with 10,000 rows (the wheel
//!   scrolling it) <= 1.5x the same with 100 (`fleet/mod.rs` builds the
//!   fleets and the page's frames).
//!
//! Ends with `N passed, M failed`. Arguments pick groups by name:
//! `cargo bench --bench frames -- fleet`.
#![allow(clippy::print_stdout)] // The report is the output.

use fleetview_testkit::goals as common;
mod fleet;

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Goals, best_of};
use egui::{Event, Pos2, RawInput, Rect, pos2, vec2};

use fleetview::ui::map::{MapFrame, track_mesh};
use fleetview::ui::plots::{Gaps, Shared, Steer, values_plot_ui};
use fleetview_api::DataKind;
use fleetview_api::geo::mercator;
use fleetview_core::series::{
    CachedLine, Channel, ChannelKind, Lattice, MinMaxIndex, PlotSeries, Series, m4_lattice,
};
use fleetview_core::series::{Track, TrackSample};

const SIZE: (f32, f32) = (1920.0, 1080.0);
const YEAR_SECS: i64 = 365 * 86_400;

fn raw_input(events: Vec<Event>) -> RawInput {
    RawInput {
        screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(SIZE.0, SIZE.1))),
        events,
        ..RawInput::default()
    }
}

/// A 1 Hz channel over `secs` seconds: a slow wave with noise and gaps.
fn plot_series(secs: i64) -> Arc<PlotSeries> {
    let times: Vec<i64> = (0..secs).collect();
    let values: Vec<f64> = (0..secs)
        .map(|t| {
            if t % 86_400 < 60 {
                f64::NAN
            } else {
                let x = t as f64;
                50.0 + 30.0 * (x / 5000.0).sin() + ((t * 7919) % 1000) as f64 / 100.0
            }
        })
        .collect();
    let channel = Channel {
        name: "percent".into(),
        unit: Some("%".into()),
        kind: ChannelKind::Numeric,
        values,
        labels: Vec::new(),
        estimated: None,
    };
    Arc::new(PlotSeries::new(Series {
        times,
        channels: vec![channel],
        ..Default::default()
    }))
}

/// Frames of one plot filling the screen; `pan` moves the view each frame.
struct PlotBench {
    ctx: egui::Context,
    series: Arc<PlotSeries>,
    lines: HashMap<(DataKind, usize), CachedLine>,
    frame: i64,
}

impl PlotBench {
    fn new(series: Arc<PlotSeries>) -> Self {
        Self {
            ctx: egui::Context::default(),
            series,
            lines: HashMap::new(),
            frame: 0,
        }
    }

    /// One frame; returns the vertices tessellated.
    fn frame(&mut self, pan: bool, pointer: Option<Pos2>) -> usize {
        self.frame += 1;
        let span = self.series.series.times.last().copied().unwrap_or(0).max(1);
        let seek = pan.then(|| span / 2 + (self.frame % 50) * (span / 5000));
        let events = pointer.map_or_else(Vec::new, |p| vec![Event::PointerMoved(p)]);
        let series = self.series.clone();
        let lines = &mut self.lines;
        let shared = Shared {
            link: egui::Id::unique("bench link"),
            steer: Steer {
                window: (0, span),
                seek,
                ..Steer::default()
            },
            cursor: None,
            zone: fleetview::ui::format::Zone::utc(),
            units: fleetview_core::analysis::UnitSystem::Metric,
            span: None,
            measuring: false,
            known_until: span,
        };
        let output = self.ctx.run_ui(raw_input(events), |ui| {
            values_plot_ui(
                ui,
                egui::Id::unique("bench plot"),
                &shared,
                DataKind::FuelRemaining,
                &series,
                &[0],
                "%",
                Gaps {
                    positions: &series.long_steps,
                    key: 0,
                },
                lines,
            );
        });
        let prims = self.ctx.tessellate(output.shapes, output.pixels_per_point);
        prims
            .iter()
            .map(|p| match &p.primitive {
                egui::epaint::Primitive::Mesh(m) => m.vertices.len(),
                egui::epaint::Primitive::Callback(_) => 0,
            })
            .sum()
    }

    fn time(&mut self, pan: bool, pointer: impl Fn(i64) -> Option<Pos2>) -> Duration {
        // Warm up: layout, fonts, the first aggregation.
        for _ in 0..5 {
            self.frame(pan, None);
        }
        let mut k = 0;
        let mut vertices = 0;
        let best = best_of(Duration::from_millis(1500), || {
            k += 1;
            vertices = black_box(self.frame(pan, pointer(k)));
        });
        println!(
            "  {} samples{}: {:.3} ms a frame, {vertices} vertices",
            self.series.series.len(),
            if pan { ", panning" } else { "" },
            ms(best)
        );
        best
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The empty plot: axes and grid, no sample in view (two samples a year
/// apart, the view panning between them). A plot with no samples at all has
/// no value range, so egui_plot draws no axes: not a plot to compare with.
fn empty_series() -> Arc<PlotSeries> {
    let channel = Channel {
        name: "percent".into(),
        unit: Some("%".into()),
        kind: ChannelKind::Numeric,
        values: vec![50.0, 60.0],
        labels: Vec::new(),
        estimated: None,
    };
    Arc::new(PlotSeries::new(Series {
        times: vec![0, YEAR_SECS],
        channels: vec![channel],
        ..Default::default()
    }))
}

fn plots(goals: &mut Goals) {
    let empty = empty_series();
    let small = plot_series(100_000);
    let t = Instant::now();
    let year = plot_series(YEAR_SECS);
    println!(
        "generated {} samples and their index in {:.0} ms",
        year.series.len(),
        ms(t.elapsed())
    );

    let t_empty = PlotBench::new(empty.clone()).time(true, |_| None);
    let t_small = PlotBench::new(small).time(true, |_| None);
    let mut year_bench = PlotBench::new(year.clone());
    let t_year = year_bench.time(true, |_| None);
    goals.check(
        t_year.as_secs_f64() <= 20.0 * t_empty.as_secs_f64(),
        format!(
            "year plot frame {:.2} ms <= 20x empty plot {:.2} ms ({:.1}x)",
            ms(t_year),
            ms(t_empty),
            t_year.as_secs_f64() / t_empty.as_secs_f64()
        ),
    );
    goals.check(
        t_year.as_secs_f64() <= 2.5 * t_small.as_secs_f64(),
        format!(
            "year plot frame {:.2} ms <= 2.5x 100k-sample plot {:.2} ms ({:.2}x)",
            ms(t_year),
            ms(t_small),
            t_year.as_secs_f64() / t_small.as_secs_f64()
        ),
    );

    // Vertices of the series: the plot's minus the empty plot's.
    let base = PlotBench::new(empty).frame(false, None);
    let width_px = SIZE.0;
    for (what, series) in [("100k", plot_series(100_000)), ("year", year.clone())] {
        let n = series.series.len();
        let v = PlotBench::new(series)
            .frame(false, None)
            .saturating_sub(base);
        goals.check(
            v as f32 <= 8.0 * width_px,
            format!(
                "{what} ({n} samples): {v} series vertices <= 8x plot width {width_px} px ({:.2}x)",
                v as f32 / width_px
            ),
        );
    }

    // Hover against idle, on the year plot (its lines cached).
    let idle = year_bench.time(false, |_| None);
    let hover = year_bench.time(false, |k| {
        Some(pos2(200.0 + (k % 1500) as f32, 80.0 + (k % 60) as f32))
    });
    goals.check(
        hover.as_secs_f64() <= 1.3 * idle.as_secs_f64(),
        format!(
            "hover frame {:.2} ms <= 1.3x idle frame {:.2} ms ({:.2}x)",
            ms(hover),
            ms(idle),
            hover.as_secs_f64() / idle.as_secs_f64()
        ),
    );

    // The index alone.
    let values = &year.series.channels[0].values;
    let build = best_of(Duration::from_millis(1500), || {
        black_box(MinMaxIndex::build(values).map(|i| i.len()).unwrap_or(0));
    });
    goals.check(
        build <= Duration::from_millis(150),
        format!(
            "index build {:.0} ms <= 150 ms for {} samples",
            ms(build),
            values.len()
        ),
    );
    let Some(index) = year.indexes[0].as_ref() else {
        goals.check(false, "the year channel has an index".into());
        return;
    };
    let extra = index.size_bytes() as f64 / (values.len() * std::mem::size_of::<f64>()) as f64;
    goals.check(
        extra <= 0.15,
        format!("index memory {:.1} % of the values <= 15 %", extra * 100.0),
    );
    // The whole year at once, as after a zoom: every column aggregated.
    let Some(lattice) = Lattice::for_view(0.0, YEAR_SECS as f64, SIZE.0 as usize) else {
        goals.check(false, "a lattice for the year".into());
        return;
    };
    let ks = lattice.columns(0.0, YEAR_SECS as f64);
    let query = best_of(Duration::from_millis(1500), || {
        black_box(m4_lattice(&year.series.times, values, index, lattice, ks.clone()).len());
    });
    goals.check(
        query <= Duration::from_millis(2),
        format!("whole-year M4 query {:.3} ms <= 2 ms", ms(query)),
    );
}

/// A million positions: a truck criss-crossing a region at 1 Hz.
fn million_positions() -> Track {
    let n = 1_000_000;
    Track::new(
        (0..n)
            .map(|i| {
                let t = i as f64;
                TrackSample::at(
                    i as i64,
                    45.0 + 0.6 * (t / 90_000.0).sin() + 0.01 * (t / 700.0).cos(),
                    4.0 + 0.9 * (t / 130_000.0).cos() + 0.01 * (t / 500.0).sin(),
                )
                .with_speed_kmh(Some(40.0 + 40.0 * (t / 3000.0).sin()))
            })
            .collect(),
    )
}

fn tracks(goals: &mut Goals) {
    let t = Instant::now();
    let track = million_positions();
    println!(
        "projected and indexed {} positions in {:.0} ms",
        track.len(),
        ms(t.elapsed())
    );
    let ctx = egui::Context::default();
    // One frame first: it loads the fonts tessellation needs.
    let _ = ctx.run_ui(raw_input(Vec::new()), |_| {});
    let rect = Rect::from_min_size(Pos2::ZERO, vec2(SIZE.0, SIZE.1));
    let center = track.bounds.center();
    let (lat, lon) = fleetview_api::geo::unmercator(center);
    let frame_at = |zoom: f64| {
        let mut memory = walkers::MapMemory::default();
        let _ = memory.set_zoom(zoom);
        memory.center_at(walkers::lat_lon(lat, lon));
        let projector = walkers::Projector::new(
            rect,
            &walkers::MercatorProjection,
            &memory,
            walkers::lat_lon(lat, lon),
        );
        MapFrame::new(&projector)
    };
    let Some(frame) = frame_at(8.0) else {
        goals.check(false, "the map frame projects".into());
        return;
    };
    let mut segments = Vec::new();
    let tessellate = |shape: egui::Shape| -> usize {
        let clipped = vec![egui::epaint::ClippedShape::new(rect, shape)];
        ctx.tessellate(clipped, 1.0)
            .iter()
            .map(|p| match &p.primitive {
                egui::epaint::Primitive::Mesh(m) => m.vertices.len(),
                egui::epaint::Primitive::Callback(_) => 0,
            })
            .sum()
    };
    // Warm the level the frame uses.
    black_box(track_mesh(&track, &frame, 8.0, None, &mut segments));
    let ours = best_of(Duration::from_millis(1500), || {
        let mesh = track_mesh(&track, &frame, 8.0, None, &mut segments);
        black_box(tessellate(egui::Shape::mesh(mesh)));
    });
    // The naive way: every position projected and tessellated as one path.
    let naive = best_of(Duration::from_millis(1500), || {
        let points: Vec<Pos2> = track
            .samples
            .iter()
            .filter_map(|s| mercator(s.lat, s.lon))
            .map(|p| frame.to_screen(p))
            .collect();
        black_box(tessellate(egui::Shape::line(
            points,
            egui::Stroke::new(3.0, egui::Color32::RED),
        )));
    });
    let speedup = naive.as_secs_f64() / ours.as_secs_f64();
    goals.check(
        speedup >= 100.0,
        format!(
            "1M-position track frame {:.3} ms vs every point {:.1} ms: {speedup:.0}x >= 100x",
            ms(ours),
            ms(naive)
        ),
    );
    let mut worst = (0, 0.0);
    for zoom in [2.0, 5.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0] {
        let Some(frame) = frame_at(zoom) else {
            continue;
        };
        let mesh = track_mesh(&track, &frame, zoom, None, &mut segments);
        let v = tessellate(egui::Shape::mesh(mesh));
        if v > worst.0 {
            worst = (v, zoom);
        }
    }
    goals.check(
        worst.0 <= 100_000,
        format!(
            "track vertices at any zoom: at most {} (zoom {}) <= 100k",
            worst.0, worst.1
        ),
    );
}

fn main() -> std::process::ExitCode {
    // `cargo bench --bench frames -- fleet` runs the groups named so.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    type Group = fn(&mut Goals);
    let groups: [(&str, Group); 3] = [
        ("plots", plots),
        ("tracks", tracks),
        ("fleet", fleet::goals),
    ];
    let mut goals = Goals::default();
    for (name, group) in groups {
        if only.is_empty() || only.iter().any(|o| name.contains(o.as_str())) {
            group(&mut goals);
        }
    }
    goals.finish()
}
