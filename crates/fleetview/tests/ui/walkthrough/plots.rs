//! The plots as a user found them under a real display (issue [T2 2/9],
//! items 13, 6, 5 and 14), checked on what the app paints and on the plots'
//! own memory: lines, bands and bars, names, axis labels, the mouse wheel,
//! replay and small windows.

use super::*;

use egui::epaint::{Shape, TextShape};
use egui::{Pos2, Rect, Vec2, pos2, vec2};
use fleetview_api::DataKind;

const EXCAVATOR: &str = "EX-001 Volvo EC220E (Rotterdam)";

fn harness_sized(size: Vec2) -> Harness<'static, FleetApp> {
    let options = embedded();
    Harness::builder()
        .with_size(size)
        .with_step_dt(1.0 / 60.0)
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

/// Opens a machine over a preset window with `kinds` plotted besides the
/// defaults, and waits until every plotted kind is drawn.
fn open(h: &mut Harness<'static, FleetApp>, machine: &str, window: &str, kinds: &[DataKind]) {
    wait_until(h, "the fleet", fleet_of(60));
    common::ui::pick(h, machine);
    h.step();
    h.get_by_label(window).click();
    h.run_steps(2);
    common::ui::pick_kinds(h, kinds);
    wait_until(h, "every plot", |app| {
        let t = app.state().timeline();
        t.plot_kinds
            .iter()
            .all(|k| t.plots.get(k).is_some_and(|p| p.value().is_some()))
    });
    h.run_steps(4);
}

/// The memory of a kind's `group`-th plot (its frame, bounds, transform).
fn plot_memory(
    h: &Harness<'static, FleetApp>,
    kind: DataKind,
    group: usize,
) -> Option<egui_plot::PlotMemory> {
    let s = h.state().state();
    let id = fleetview::ui::plots::plot_id(kind, group, s.window()?, s.timeline().view_generation);
    egui_plot::PlotMemory::load(&h.ctx, id)
}

fn frame_of(h: &Harness<'static, FleetApp>, kind: DataKind, group: usize) -> Rect {
    *plot_memory(h, kind, group)
        .unwrap_or_else(|| panic!("{kind:?} is plotted"))
        .transform()
        .frame()
}

fn x_range(h: &Harness<'static, FleetApp>, kind: DataKind, group: usize) -> (f64, f64) {
    let m = plot_memory(h, kind, group).expect("a plot");
    (m.bounds().min()[0], m.bounds().max()[0])
}

fn y_range(h: &Harness<'static, FleetApp>, kind: DataKind, group: usize) -> (f64, f64) {
    let m = plot_memory(h, kind, group).expect("a plot");
    (m.bounds().min()[1], m.bounds().max()[1])
}

/// Every shape painted in the last frame, groups flattened.
fn painted(h: &Harness<'static, FleetApp>) -> Vec<Shape> {
    fn flatten(shape: &Shape, out: &mut Vec<Shape>) {
        match shape {
            Shape::Vec(v) => v.iter().for_each(|s| flatten(s, out)),
            other => out.push(other.clone()),
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        flatten(&clipped.shape, &mut out);
    }
    out
}

/// Where a text shape is drawn (its rotation taken into account).
fn text_rect(t: &TextShape) -> Rect {
    let size = t.galley.size();
    if t.angle.abs() > 0.1 {
        // Rotated a quarter turn anticlockwise, from its bottom left.
        Rect::from_min_max(
            pos2(t.pos.x, t.pos.y - size.x),
            pos2(t.pos.x + size.y, t.pos.y),
        )
    } else {
        Rect::from_min_size(t.pos, size)
    }
}

/// Every text painted in the last frame: what it says, the part of it
/// that shows (inside its clip), its angle.
fn texts(h: &Harness<'static, FleetApp>) -> Vec<(String, Rect, f32)> {
    fn walk(shape: &Shape, clip: Rect, out: &mut Vec<(String, Rect, f32)>) {
        match shape {
            Shape::Vec(v) => v.iter().for_each(|s| walk(s, clip, out)),
            Shape::Text(t) => {
                let shown = text_rect(t).intersect(clip);
                if shown.is_positive() {
                    out.push((t.galley.text().to_owned(), shown, t.angle));
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, clipped.clip_rect, &mut out);
    }
    out
}

fn inside(frame: Rect, points: impl IntoIterator<Item = Pos2>) -> bool {
    let frame = frame.expand(1.0);
    let mut any = false;
    for p in points {
        if !frame.contains(p) {
            return false;
        }
        any = true;
    }
    any
}

/// A wheel turn over `at` (positive `dy`: away from the user).
fn wheel(h: &mut Harness<'static, FleetApp>, at: Pos2, dy: f32, modifiers: egui::Modifiers) {
    h.hover_at(at);
    h.step();
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: vec2(0.0, dy),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers,
    });
    // egui spreads a wheel turn over a few frames.
    h.run_steps(20);
}

/// Item 13: sparse series (fuel, coolant, voltage of a machine reporting
/// every 15 minutes while it works) were drawn as filled wedges, their
/// lines running across the nights. Now no line crosses a gap, nothing is
/// a wedge, and where samples crowd a pixel a light band shows their range.
#[test]
fn sparse_lines_break_at_gaps_and_dense_ones_are_a_band_under_a_line() {
    // Tall enough for every plot to be drawn.
    let mut h = harness_sized(vec2(1400.0, 1600.0));
    let kinds = [DataKind::EngineCoolantTemperature, DataKind::BatteryVoltage];
    open(&mut h, EXCAVATOR, "Last 30 days", &kinds);
    let shapes = painted(&h);
    for kind in [DataKind::FuelRemaining, kinds[0], kinds[1]] {
        let m = plot_memory(&h, kind, 0).expect("a plot");
        let frame = *m.transform().frame();
        let time = |p: Pos2| m.transform().value_from_position(p).x;
        let mut lines = 0;
        let mut bands = 0;
        for s in &shapes {
            match s {
                Shape::Band(b) => assert!(
                    !inside(frame, b.points.iter().map(|p| pos2(p.x, p.y.min))),
                    "{kind:?}: a line drawn as a wedge"
                ),
                Shape::Path(p) if !p.closed && inside(frame, p.points.iter().copied()) => {
                    lines += 1;
                    for w in p.points.windows(2) {
                        let hours = (time(w[1]) - time(w[0])) / 3600.0;
                        assert!(
                            hours < 6.0,
                            "{kind:?}: a line runs across {hours:.1} h without data"
                        );
                    }
                }
                Shape::Mesh(mesh)
                    if inside(frame, mesh.vertices.iter().map(|v| v.pos))
                        && mesh.vertices.iter().all(|v| v.color.a() < 200) =>
                {
                    bands += 1;
                }
                _ => {}
            }
        }
        assert!(lines > 20, "{kind:?}: the days are lines ({lines})");
        assert!(bands > 0, "{kind:?}: crowded samples show as a band");
    }
}

/// Item 13: a daily kind is one bar a day, not a line.
#[test]
fn daily_kinds_are_bars() {
    let mut h = harness(embedded());
    open(&mut h, EXCAVATOR, "Last 30 days", &[DataKind::DailyCo2]);
    let frame = frame_of(&h, DataKind::DailyCo2, 0);
    let bars = painted(&h)
        .iter()
        .filter(|s| match s {
            Shape::Rect(r) => {
                r.rect.width() >= 3.0
                    && r.rect.width() < frame.width() / 4.0
                    && r.fill.a() > 0
                    && frame.expand(1.0).contains_rect(r.rect)
            }
            _ => false,
        })
        .count();
    assert!(bars >= 28, "one bar a day: {bars}");
}

/// Item 13: legends and axes read as names with units, never as the
/// fields' paths; y-axis titles stay beside their own plot.
#[test]
fn legends_and_axes_read_as_names() {
    let mut h = harness(embedded());
    // Two plots at least in view under the tables' pane.
    h.set_size(egui::vec2(1600.0, 1000.0));
    let kinds = [
        DataKind::DailyCo2,
        DataKind::CumulativeDistance,
        DataKind::EngineCoolantTemperature,
        DataKind::BatteryVoltage,
    ];
    open(&mut h, EXCAVATOR, "Last 7 days", &kinds);
    for name in ["Fuel remaining", "CO2", "Distance", "Coolant temperature"] {
        h.get_by_role_and_label(Role::CheckBox, name);
    }
    for raw in [
        "percent",
        "weight",
        "odometer",
        "co2.",
        "temperature (",
        "voltage (",
    ] {
        assert!(
            h.query_by_label_contains(raw).is_none(),
            "a raw field name shows: {raw}"
        );
    }
    // Titles of the y axes: each within its own plot's height.
    let frames: Vec<Rect> = [DataKind::FuelRemaining]
        .iter()
        .chain(&kinds)
        .map(|k| frame_of(&h, *k, 0))
        .collect();
    let titles: Vec<(String, Rect)> = texts(&h)
        .into_iter()
        .filter(|(_, _, angle)| angle.abs() > 0.1)
        .map(|(t, r, _)| (t, r))
        .collect();
    // (Those of the plots scrolled out of sight are not drawn.)
    assert!(titles.len() >= 2, "{titles:?}");
    for (text, r) in &titles {
        assert!(
            frames
                .iter()
                .any(|f| r.min.y >= f.min.y - 1.0 && r.max.y <= f.max.y + 1.0),
            "{text:?} at {r:?} runs past its plot ({frames:?})"
        );
    }
    // The export menu names channels the same way.
    h.get_by_label("Export channel").click();
    h.run_steps(3);
    h.get_by_label_contains("Fuel remaining (%)");
    assert!(h.query_by_label_contains("percent").is_none());
}

/// Item 13: hovering a lane of states says which state it is.
#[test]
fn hovering_a_state_lane_says_the_state() {
    let mut h = harness(embedded());
    open(&mut h, EXCAVATOR, "Last 7 days", &[]);
    let lane = frame_of(&h, DataKind::EngineCondition, 0);
    let mut said = false;
    for k in 1..20 {
        h.hover_at(pos2(
            lane.left() + lane.width() * k as f32 / 20.0,
            lane.center().y,
        ));
        h.run_steps(3);
        said |= texts(&h)
            .iter()
            .any(|(t, ..)| t.contains("Engine: stopped") || t.contains("Engine: started"));
    }
    assert!(said, "the lane's state is said on hover");
}

/// Item 13: tick labels of the time axis never run into each other
/// ("11-0311-05"), whatever the window.
#[test]
fn time_labels_never_collide() {
    for width in [1400.0, 1000.0, 1800.0] {
        let mut h = harness_sized(vec2(width, 900.0));
        open(&mut h, EXCAVATOR, "Last 7 days", &[]);
        for window in ["Yesterday", "Last 7 days", "Last 30 days", "This month"] {
            h.get_by_label(window).click();
            wait_until(&mut h, "the fuel plot", |app| {
                app.state()
                    .timeline()
                    .plots
                    .get(&DataKind::FuelRemaining)
                    .is_some_and(|p| p.value().is_some())
            });
            h.run_steps(4);
            let frame = frame_of(&h, DataKind::FuelRemaining, 0);
            let ticks: Vec<(String, Rect)> = texts(&h)
                .into_iter()
                .filter(|(_, r, angle)| {
                    *angle == 0.0
                        && r.min.y >= frame.max.y - 1.0
                        && r.min.y < frame.max.y + 20.0
                        && r.center().x > frame.min.x - 40.0
                        && r.center().x < frame.max.x + 40.0
                })
                .map(|(t, r, _)| (t, r))
                .collect();
            assert!(ticks.len() >= 2, "{window} at {width}: {ticks:?}");
            // Labels carry a space on each side: touching is apart.
            for (i, (a, ra)) in ticks.iter().enumerate() {
                for (b, rb) in &ticks[i + 1..] {
                    assert!(
                        ra.max.x <= rb.min.x + 0.5 || rb.max.x <= ra.min.x + 0.5,
                        "{window} at {width}: {a:?} and {b:?} collide"
                    );
                }
            }
        }
    }
}

/// Item 6: the wheel zooms the time axis about the pointer, on every plot
/// at once, and the values stay fitted to the data in view (it panned the
/// y axis away from the data); Ctrl and the wheel zoom time only (it
/// zoomed both axes, fuel down to -1,000,000). A double-click shows the
/// whole window again, values fitted.
#[test]
fn the_wheel_zooms_time_about_the_pointer_and_values_stay_fitted() {
    let mut h = harness(embedded());
    open(
        &mut h,
        EXCAVATOR,
        "Last 7 days",
        &[DataKind::EngineCoolantTemperature],
    );
    let fuel = DataKind::FuelRemaining;
    let frame = frame_of(&h, fuel, 0);
    let (t0, t1) = x_range(&h, fuel, 0);
    let at = pos2(frame.left() + frame.width() * 0.3, frame.center().y);
    let under = |h: &Harness<'static, FleetApp>| {
        plot_memory(h, fuel, 0)
            .expect("a plot")
            .transform()
            .value_from_position(at)
            .x
    };
    let before = under(&h);
    let fitted = |h: &Harness<'static, FleetApp>, what: &str| {
        let (lo, hi) = y_range(h, fuel, 0);
        assert!(
            lo >= -10.0 && hi <= 110.0 && hi > lo,
            "{what}: fuel shown from {lo} to {hi} %"
        );
    };

    wheel(&mut h, at, 120.0, egui::Modifiers::NONE);
    let (z0, z1) = x_range(&h, fuel, 0);
    assert!(
        z1 - z0 < (t1 - t0) * 0.8,
        "the wheel zooms in: {} s of {} s",
        z1 - z0,
        t1 - t0
    );
    let moved = (under(&h) - before).abs();
    assert!(
        moved < (z1 - z0) * 0.02,
        "the time under the pointer stays: moved {moved} s"
    );
    assert_eq!(frame_of(&h, fuel, 0), frame, "the column did not scroll");
    fitted(&h, "after the wheel");
    h.run_steps(2);
    for (kind, group) in [
        (DataKind::EngineCoolantTemperature, 0),
        (DataKind::EngineCondition, 0),
    ] {
        let (a, b) = x_range(&h, kind, group);
        assert!(
            (a - z0).abs() < 1.0 && (b - z1).abs() < 1.0,
            "{kind:?} shows the same time"
        );
    }

    // Ctrl and the wheel: time only.
    wheel(&mut h, at, 120.0, egui::Modifiers::COMMAND);
    let (c0, c1) = x_range(&h, fuel, 0);
    assert!(c1 - c0 < (z1 - z0) * 0.9, "Ctrl and the wheel zoom time");
    fitted(&h, "after Ctrl and the wheel");

    // Away from the user: out again, never past the window.
    for _ in 0..6 {
        wheel(&mut h, at, -240.0, egui::Modifiers::NONE);
    }
    let (o0, o1) = x_range(&h, fuel, 0);
    assert!(o1 - o0 <= (t1 - t0) + 1.0 && o1 - o0 > (t1 - t0) * 0.9);
    fitted(&h, "zoomed out");

    // A double-click: the whole window, values fitted.
    wheel(&mut h, at, 240.0, egui::Modifiers::NONE);
    for _ in 0..2 {
        for pressed in [true, false] {
            h.event(egui::Event::PointerButton {
                pos: at,
                button: egui::PointerButton::Primary,
                pressed,
                modifiers: egui::Modifiers::NONE,
            });
        }
        h.step();
    }
    h.run_steps(4);
    let (r0, r1) = x_range(&h, fuel, 0);
    assert!(
        (r0 - t0).abs() < 1.0 && (r1 - t1).abs() < 1.0,
        "the whole window"
    );
    fitted(&h, "after a double-click");
}

/// Item 6: scrolling the plot column (over a gap between plots) scrolls
/// it, and a plot that comes under the pointer meanwhile is not zoomed nor
/// panned ("scrolling the plot column damages every plot it passes").
#[test]
fn scrolling_the_plot_column_leaves_the_plots_alone() {
    let mut h = harness(embedded());
    let kinds = [
        DataKind::EngineCoolantTemperature,
        DataKind::BatteryVoltage,
        DataKind::DailyCo2,
        DataKind::CumulativeDistance,
        DataKind::CumulativeOperatingHours,
    ];
    open(&mut h, EXCAVATOR, "Last 7 days", &kinds);
    let fuel = DataKind::FuelRemaining;
    let whole = x_range(&h, fuel, 0);
    let values: Vec<(f64, f64)> = [fuel, kinds[0], kinds[1]]
        .iter()
        .map(|k| y_range(&h, *k, 0))
        .collect();
    let lane = frame_of(&h, DataKind::EngineCondition, 0);
    let coolant = frame_of(&h, kinds[0], 0);
    // Between the lane of states and the next plot.
    let gap = pos2(
        coolant.center().x,
        (lane.bottom() + 16.0 + coolant.top()) / 2.0,
    );
    assert!(
        coolant.top() - lane.bottom() > 20.0,
        "a gap to scroll the column in"
    );
    h.hover_at(gap);
    h.step();
    // Turns in a row, the pointer still: the column moves under it, and
    // plots pass beneath.
    for _ in 0..6 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: vec2(0.0, -60.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        h.run_steps(6);
    }
    h.run_steps(20);
    assert!(
        frame_of(&h, kinds[0], 0).top() < coolant.top() - 30.0,
        "the column scrolled: {coolant:?} now {:?}",
        frame_of(&h, kinds[0], 0)
    );
    for (kind, before) in [fuel, kinds[0], kinds[1]].into_iter().zip(values) {
        let (a, b) = x_range(&h, kind, 0);
        assert!(
            (a - whole.0).abs() < 1.0 && (b - whole.1).abs() < 1.0,
            "{kind:?} was moved by the column's scroll: {a}..{b}"
        );
        let (lo, hi) = y_range(&h, kind, 0);
        assert!(
            (lo - before.0).abs() < 1e-9 && (hi - before.1).abs() < 1e-9,
            "{kind:?}'s values were moved by the column's scroll: {lo}..{hi}, not {before:?}"
        );
    }
}

/// Item 5: while replaying, the plots keep the cursor in view (same zoom).
#[test]
fn replay_keeps_the_cursor_in_view_on_the_plots() {
    let mut h = harness(embedded());
    open(&mut h, EXCAVATOR, "Last 7 days", &[]);
    let fuel = DataKind::FuelRemaining;
    let frame = frame_of(&h, fuel, 0);
    // Zoomed in near the start of the window.
    let at = pos2(frame.left() + 2.0, frame.center().y);
    for _ in 0..6 {
        wheel(&mut h, at, 240.0, egui::Modifiers::NONE);
    }
    let (a, b) = x_range(&h, fuel, 0);
    let span = b - a;
    assert!(span < 86_400.0 / 4.0, "zoomed in: {span} s");
    h.get_by_label("Speed").click();
    h.run_steps(2);
    h.get_by_label("3600x").click();
    h.run_steps(2);
    h.hover_at(pos2(1.0, 1.0));
    h.get_by_label("Play").click();
    let mut left_view = 0;
    for _ in 0..1200 {
        h.step();
        let cursor = h.state().state().timeline().cursor.expect("a cursor");
        let (a, b) = x_range(&h, fuel, 0);
        assert!(
            ((b - a) - span).abs() < span * 0.01,
            "the zoom is kept: {} s, not {span} s",
            b - a
        );
        if !(a..=b).contains(&(cursor as f64)) {
            left_view += 1;
            assert!(left_view < 3, "the cursor left the plots' view");
        } else {
            left_view = 0;
        }
        if cursor as f64 > a + span * 3.0 {
            break;
        }
    }
    let cursor = h.state().state().timeline().cursor.expect("a cursor");
    assert!(
        cursor as f64 > a + span * 2.0,
        "the replay went past the first view"
    );
}

/// Item 14: in a small window (1000x700) the plots keep a usable size,
/// the column scrolls, and the plots' controls are all on screen.
#[test]
fn a_small_window_keeps_plots_usable_and_their_controls_reachable() {
    let size = vec2(1000.0, 700.0);
    let mut h = harness_sized(size);
    open(
        &mut h,
        EXCAVATOR,
        "Last 7 days",
        &[DataKind::EngineCoolantTemperature, DataKind::BatteryVoltage],
    );
    let screen = Rect::from_min_size(Pos2::ZERO, size);
    for label in ["Export channel", "Data kinds (4)"] {
        let r = h.get_by_label_contains(label).rect();
        assert!(screen.contains_rect(r), "{label} at {r:?} is cut off");
    }
    for kind in [DataKind::FuelRemaining, DataKind::EngineCoolantTemperature] {
        let f = frame_of(&h, kind, 0);
        assert!(
            f.height() >= 120.0 && f.width() >= 200.0,
            "{kind:?} is {:?}",
            f.size()
        );
    }
}
