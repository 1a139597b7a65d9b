//! Draws a road truck's positions over some days on its site's road network,
//! to see what a new user sees on the map: roads in grey, places (depot,
//! customers, junctions) in blue, the truck's track in red.
//!
//! ```sh
//! cargo run --release --example road_map -- --equipment 1003 --days 30 --out /tmp/road.png
//! ```
#![allow(clippy::print_stdout)] // Its summary is its output.

use anyhow::{Context as _, bail};
use clap::Parser;
use fleetview_api::geo::LatLon;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow, parse_wire};
use fleetview_sandbox::Clock;
use fleetview_sandbox::simulate::catalogue::models::Class;
use fleetview_sandbox::simulate::roads::polyline::Frame;
use fleetview_sandbox::simulate::{FIRST_ID, Simulator};
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

#[derive(Debug, Parser)]
struct Args {
    /// A road truck's id (of the default 60-machine fleet).
    #[arg(long, default_value_t = FIRST_ID + 2)]
    equipment: i64,
    #[arg(long, default_value_t = 30)]
    days: i64,
    /// The simulation's clock.
    #[arg(long, default_value = "2025-06-18T15:30:00Z")]
    now: String,
    #[arg(long, default_value = "/tmp/road.png")]
    out: String,
}

const SIZE_PX: f64 = 900.0;
/// Metres shown across the picture.
const SPAN_M: f64 = 110_000.0;

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let now = parse_wire(&args.now).context("--now")?;
    let sim = Simulator::new(60, Clock::Fixed(now));
    let Some(m) = sim.machine(args.equipment) else {
        bail!("no machine {}", args.equipment);
    };
    if m.class() != Class::RoadTruck {
        bail!("{} is not a road truck", m.name);
    }
    let w = TimeWindow {
        since: now - args.days * SECS_PER_DAY,
        until: now,
    };
    let rows = sim.positions(&m, w);
    let frame = Frame::new(m.centre());
    let px = |p: LatLon| {
        let xy = frame.to_xy(p);
        let scale = SIZE_PX / SPAN_M;
        (
            (SIZE_PX / 2.0 + xy[0] * scale) as f32,
            (SIZE_PX / 2.0 - xy[1] * scale) as f32,
        )
    };
    let line = |points: &mut dyn Iterator<Item = LatLon>| {
        let mut pb = PathBuilder::new();
        for (i, p) in points.enumerate() {
            let (x, y) = px(p);
            if i == 0 {
                pb.move_to(x, y);
            } else {
                pb.line_to(x, y);
            }
        }
        pb.finish()
    };
    let mut pixmap =
        Pixmap::new(SIZE_PX as u32, SIZE_PX as u32).context("a picture of that size")?;
    pixmap.fill(Color::WHITE);
    let mut paint = Paint {
        anti_alias: true,
        ..Paint::default()
    };
    let stroke = |width| Stroke {
        width,
        ..Stroke::default()
    };
    let network = m.network();
    paint.set_color_rgba8(200, 200, 200, 255);
    for road in &network.roads {
        if let Some(path) = line(&mut road.points.iter().copied()) {
            pixmap.stroke_path(&path, &paint, &stroke(3.0), Transform::identity(), None);
        }
    }
    paint.set_color_rgba8(200, 30, 30, 200);
    let track = &mut rows.iter().map(|r| LatLon::new(r.latitude, r.longitude));
    if let Some(path) = line(track) {
        pixmap.stroke_path(&path, &paint, &stroke(1.0), Transform::identity(), None);
    }
    paint.set_color_rgba8(0, 0, 200, 255);
    for node in &network.nodes {
        let (x, y) = px(node.pos);
        if let Some(dot) = PathBuilder::from_circle(x, y, 4.0) {
            pixmap.fill_path(&dot, &paint, FillRule::Winding, Transform::identity(), None);
        }
    }
    pixmap.save_png(&args.out).context("writing the picture")?;
    println!(
        "{}: {} positions over {} days on {} roads, drawn in {}",
        m.name,
        rows.len(),
        args.days,
        network.roads.len(),
        args.out
    );
    Ok(())
}
