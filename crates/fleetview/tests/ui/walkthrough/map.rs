//! The map, as a user found it under a real display: the wheel, zoom
//! buttons, picking along the line, the Start and End labels, an activity
//! fitted above the legend, the attribution beside the legend, what the
//! offline basemap cannot show and why online tiles fail, and a short note
//! when the positions cannot be loaded.

use std::time::{Duration, Instant};

use egui::{Pos2, Rect, vec2};
use fleetview::ui::map::MapFrame;
use fleetview_core::series::Track;

use super::*;

/// The map's rectangle on screen.
fn map_rect(h: &Harness<'static, FleetApp>) -> Rect {
    h.get_by_label("Map").rect()
}

/// Screen <-> Web Mercator of the last frame drawn.
fn frame(h: &Harness<'static, FleetApp>) -> MapFrame {
    h.state().view().map.frame().expect("the map is drawn")
}

fn zoom(h: &Harness<'static, FleetApp>) -> f64 {
    h.state().view().map.zoom()
}

fn track(h: &Harness<'static, FleetApp>) -> std::sync::Arc<Track> {
    h.state()
        .state()
        .timeline()
        .track
        .value()
        .expect("a track")
        .clone()
}

/// Picks the first machine whose name starts with `prefix`, a window, and
/// waits until its track and activities are in and the map has settled.
fn open(h: &mut Harness<'static, FleetApp>, prefix: &str, window: &str) {
    let name = h
        .state()
        .state()
        .fleet()
        .equipments
        .iter()
        .find(|e| e.name.starts_with(prefix))
        .map(|e| e.name.clone())
        .unwrap_or_else(|| panic!("a machine named {prefix}…"));
    common::ui::pick(h, &name);
    h.step();
    h.get_by_label(window).click();
    // The figures too: their strip's height, once filled, sizes the map
    // (and a map resized is fitted again).
    wait_until(h, "the track and the figures", |app| {
        let s = app.state();
        let report = &s.figures().report;
        s.timeline().track.value().is_some_and(|t| !t.is_empty())
            && !s.timeline().track.is_pending()
            && s.activities().value().is_some()
            && !report.is_pending()
            && (report.value().is_some() || report.error().is_some())
    });
    h.run_steps(4);
}

/// Steps until a label containing `text` shows, or fails after a while.
fn wait_for_label(h: &mut Harness<'static, FleetApp>, text: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while h.query_by_label_contains(text).is_none() {
        assert!(Instant::now() < deadline, "no label with {text:?} shown");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn click_at(h: &mut Harness<'static, FleetApp>, at: Pos2) {
    h.hover_at(at);
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    h.run_steps(3);
}

/// Item 6: the wheel zooms the map about the pointer (it panned it up and
/// down, while the hint said "scroll to zoom").
#[test]
fn the_wheel_zooms_the_map_about_the_pointer() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    open(&mut h, "EX-", "Last 7 days");
    let at = map_rect(&h).center() + vec2(60.0, 40.0);
    let under = frame(&h).to_merc(at);
    let before = zoom(&h);
    for (lines, zoomed_in) in [(3.0, true), (-3.0, false)] {
        let from = zoom(&h);
        h.hover_at(at);
        h.step();
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: vec2(0.0, lines),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
            modifiers: egui::Modifiers::NONE,
        });
        h.run_steps(40);
        let to = zoom(&h);
        assert_eq!(
            to > from + 0.2,
            zoomed_in,
            "the wheel zooms {}: {from} -> {to}",
            if zoomed_in { "in" } else { "out" }
        );
        assert!(zoomed_in || to < from - 0.2, "{from} -> {to}");
        // The place under the pointer stays under it.
        let now_at = frame(&h).to_screen(under);
        assert!(
            now_at.distance(at) < 3.0,
            "the point under the pointer moved to {now_at:?} from {at:?}"
        );
    }
    assert!((zoom(&h) - before).abs() < 0.5);
}

/// The screen box of samples `range` of the track.
fn extent(t: &Track, f: &MapFrame, range: std::ops::Range<usize>) -> Rect {
    let mut b = Rect::NOTHING;
    for p in &t.xy[range] {
        b.extend_with(f.to_screen(*p));
    }
    b
}

/// Found on the way: the first machine's track was fitted to the map as
/// it was while the view was still being laid out (a third of its final
/// height), so it showed small. A track fitted, then left alone, is fitted
/// again when the map's size changes; once the user moves the map, the
/// view is theirs.
#[test]
fn a_fitted_track_is_fitted_again_to_a_new_size_until_moved() {
    let mut h = harness(embedded());
    h.set_size(vec2(1100.0, 760.0));
    wait_until(&mut h, "the fleet", fleet_of(60));
    open(&mut h, "RT-", "Last 7 days");
    let t = track(&h);
    // Fills the map, above the legend.
    let fills = |h: &Harness<'static, FleetApp>| {
        let shown = extent(&t, &frame(h), 0..t.len());
        let map = map_rect(h);
        // A short map (a small window) shows no legend.
        let above_legend = h
            .query_by_label_contains("Speed legend")
            .map_or(map.bottom(), |l| l.rect().top())
            - map.top();
        map.contains_rect(shown)
            && (shown.width() > map.width() * 0.5 || shown.height() > above_legend * 0.5)
    };
    assert!(fills(&h), "the track fills the map");
    h.set_size(vec2(1600.0, 1000.0));
    h.run_steps(4);
    assert!(fills(&h), "the track fills the larger map");
    h.get_by_label("Zoom out").click();
    h.run_steps(2);
    let zoomed = zoom(&h);
    h.set_size(vec2(1200.0, 800.0));
    h.run_steps(4);
    assert_eq!(zoom(&h), zoomed, "the user's zoom is kept");
}

/// Item 15: zoom buttons on the map, and "Fit to track" back.
#[test]
fn zoom_buttons_zoom_in_out_and_fit_the_track() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    open(&mut h, "RT-", "Last 7 days");
    let fitted = zoom(&h);
    h.get_by_label("Zoom in").click();
    h.run_steps(3);
    assert!((zoom(&h) - (fitted + 1.0)).abs() < 1e-6, "{}", zoom(&h));
    for _ in 0..2 {
        h.get_by_label("Zoom out").click();
        h.run_steps(3);
    }
    assert!((zoom(&h) - (fitted - 1.0)).abs() < 1e-6, "{}", zoom(&h));
    h.get_by_label("Fit to track").click();
    h.run_steps(3);
    assert!((zoom(&h) - fitted).abs() < 1e-6, "{}", zoom(&h));
}

/// A leg of the track (samples `k`, `k + 1`) long on screen, with nothing
/// else of the track near its middle, inside the map's free area.
fn lonely_leg(track: &Track, f: &MapFrame, area: Rect) -> Option<usize> {
    let screen: Vec<Pos2> = track.xy.iter().map(|p| f.to_screen(*p)).collect();
    let dist_to_leg = |p: Pos2, a: Pos2, b: Pos2| {
        let d = b - a;
        let t = ((p - a).dot(d) / d.length_sq().max(1e-6)).clamp(0.0, 1.0);
        p.distance(a + d * t)
    };
    (0..screen.len().saturating_sub(1)).find(|&k| {
        let (a, b) = (screen[k], screen[k + 1]);
        let mid = a + (b - a) / 2.0;
        a.distance(b) > 80.0
            && area.contains(mid)
            && track.samples[k + 1].time - track.samples[k].time >= 60
            && (0..screen.len() - 1)
                .filter(|j| *j != k)
                .all(|j| dist_to_leg(mid, screen[j], screen[j + 1]) > 20.0)
    })
}

/// Item 15: between sparse positions, hovering the line shows where the
/// machine was along it, and a click moves the cursor to that time (only
/// the positions themselves answered).
#[test]
fn hovering_and_clicking_between_sparse_positions_picks_the_line() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    open(&mut h, "EX-", "Last 7 days");
    let t = track(&h);
    let area = map_rect(&h).shrink(80.0);
    let mut found = lonely_leg(&t, &frame(&h), area);
    // Closer in until a leg stands alone on screen.
    for _ in 0..4 {
        if found.is_some() {
            break;
        }
        h.get_by_label("Zoom in").click();
        h.run_steps(3);
        found = lonely_leg(&t, &frame(&h), area);
    }
    let k = found.expect("a leg standing alone on screen");
    let f = frame(&h);
    let (a, b) = (f.to_screen(t.xy[k]), f.to_screen(t.xy[k + 1]));
    let mid = a + (b - a) / 2.0;
    h.hover_at(mid);
    h.run_steps(3);
    assert!(
        h.query_by_label_contains("heading").is_some(),
        "hovering the line between two positions shows where the machine was"
    );
    click_at(&mut h, mid);
    let (t0, t1) = (t.samples[k].time, t.samples[k + 1].time);
    let cursor = h.state().state().timeline().cursor.expect("a cursor");
    assert!(
        t0 < cursor && cursor < t1,
        "the click between {t0} and {t1} moved the cursor to {cursor}"
    );
    let half = t0 + (t1 - t0) / 2;
    assert!(
        (cursor - half).abs() <= (t1 - t0) / 5 + 1,
        "the middle of the leg is about half way in time: {cursor} vs {half}"
    );
}

/// Item 15: a track that ends where it started has its labels apart (or
/// one "Start and end" label), never one over the other.
#[test]
fn start_and_end_labels_never_overlap() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    // A generator: its track starts and ends at one place.
    open(&mut h, "GE-", "Yesterday");
    let t = track(&h);
    let f = frame(&h);
    let ends = (f.to_screen(t.xy[0]), f.to_screen(t.xy[t.len() - 1]));
    assert!(
        ends.0.distance(ends.1) < 40.0,
        "this test needs a track ending near its start: {ends:?}"
    );
    if let Some(both) = h.query_by_label("Start and end") {
        assert!(map_rect(&h).contains_rect(both.rect()));
        return;
    }
    let (start, end) = (h.get_by_label("Start").rect(), h.get_by_label("End").rect());
    assert!(
        !start.intersects(end),
        "Start {start:?} and End {end:?} overlap"
    );
}

/// The speed legend's rectangle on screen.
fn legend(h: &Harness<'static, FleetApp>) -> Rect {
    h.get_by_label_contains("Speed legend").rect()
}

/// Item 15: clicking an activity frames its part of the track, above the
/// legend (it only moved the cursor to its start).
#[test]
fn clicking_an_activity_fits_it_above_the_legend() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    open(&mut h, "RT-", "Last 7 days");
    let t = track(&h);
    let f = frame(&h);
    let map = map_rect(&h);
    h.get_by_label("Activities").click();
    h.run_steps(3);
    let row = |a: &fleetview_api::model::ActivityRow| {
        fleetview::ui::format::format_time(a.date_start.0, false)
    };
    let activities = h
        .state()
        .state()
        .activities()
        .value()
        .expect("activities")
        .clone();
    // A short trip: small on the whole track's map.
    let extent = |f: &MapFrame, r| extent(&t, f, r);
    let (i, a) = activities
        .iter()
        .enumerate()
        .filter(|(_, a)| {
            let e = extent(&f, t.range_of(a.date_start.0, a.date_stop.0));
            e.width().max(e.height()) > 5.0 && h.query_by_label(&row(a)).is_some()
        })
        .min_by(|x, y| {
            let size = |a: &fleetview_api::model::ActivityRow| {
                let e = extent(&f, t.range_of(a.date_start.0, a.date_stop.0));
                e.width().max(e.height())
            };
            size(x.1).total_cmp(&size(y.1))
        })
        .expect("an activity with positions in view");
    let range = t.range_of(a.date_start.0, a.date_stop.0);
    assert!(
        extent(&f, range.clone()).width() < map.width() / 3.0,
        "this test needs an activity small on the whole track's map"
    );
    h.get_by_label(&row(a)).click();
    h.run_steps(6);
    assert_eq!(h.state().state().timeline().selected_activity, Some(i));
    let f = frame(&h);
    let shown = extent(&f, range);
    let legend = legend(&h);
    let map = map_rect(&h);
    assert!(
        map.contains_rect(shown),
        "the activity {shown:?} lies inside the map {map:?}"
    );
    assert!(
        shown.bottom() < legend.top(),
        "the activity {shown:?} lies above the legend {legend:?}"
    );
    assert!(
        shown.width() > map.width() * 0.4 || shown.height() > (legend.top() - map.top()) * 0.4,
        "the activity fills the map: {shown:?} in {map:?}"
    );
}

/// Item 15: the attribution sits beside the legend, never over it, at any
/// width of the map.
#[test]
fn the_attribution_never_covers_the_legend() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    open(&mut h, "RT-", "Last 7 days");
    for width in [1400.0, 1100.0, 900.0] {
        h.set_size(vec2(width, 900.0));
        h.run_steps(4);
        let legend = legend(&h);
        let credit = h.get_by_label_contains("Map attribution").rect();
        assert!(
            !legend.intersects(credit),
            "at {width} px the attribution {credit:?} covers the legend {legend:?}"
        );
        assert!(map_rect(&h).contains_rect(credit));
    }
}

/// A tile URL on a port nothing listens on: tiles that never come, and no
/// request leaves this machine.
fn closed_tile_server() -> String {
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    format!("http://{closed}/{{z}}/{{x}}/{{y}}.png")
}

/// Types a tile server's URL in the map's toolbar and applies it.
fn set_tile_server(h: &mut Harness<'static, FleetApp>, url: &str) {
    h.get_by_label("Tile server").click();
    h.run_steps(2);
    let field = "Tile URL ({z}/{x}/{y})";
    h.get_by_role_and_label(Role::TextInput, field).focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.get_by_role_and_label(Role::TextInput, field)
        .type_text(url);
    h.run_steps(2);
    h.get_by_label("Apply").click();
    h.run_steps(2);
    assert_eq!(h.state().state().map().tile_url, url);
}

/// Item 15: at a site's zoom the offline basemap has nothing to draw; the
/// map says so and offers online tiles (it was flat grey).
#[test]
fn site_zoom_on_the_offline_map_says_so() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    open(&mut h, "EX-", "Yesterday");
    set_tile_server(&mut h, &closed_tile_server());
    while zoom(&h) < 15.0 {
        h.get_by_label("Zoom in").click();
        h.run_steps(2);
    }
    wait_for_label(&mut h, "No offline map detail at this zoom");
    h.get_by_label_contains("turn on Online tiles");
    // The note offers them.
    h.get_by_label("Turn on online tiles").click();
    h.run_steps(3);
    assert!(h.state().state().map().online_tiles);
    assert!(h.query_by_label_contains("turn on Online tiles").is_none());
    h.get_by_label("Online tiles").click();
    h.run_steps(3);
    assert!(!h.state().state().map().online_tiles);
    // Out to a country's scale: coasts and borders, nothing to say.
    while zoom(&h) > 5.0 {
        h.get_by_label("Zoom out").click();
        h.run_steps(2);
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while h.query_by_label_contains("No offline map detail").is_some() {
        assert!(Instant::now() < deadline, "the note stays at zoom 5");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Item 15: online tiles that cannot load say why, beside the switch and
/// on the map (they failed silently, leaving the map flat grey).
#[test]
fn online_tiles_that_fail_say_why() {
    let cache = tempfile::tempdir().expect("tempdir");
    let mut h = harness(AppOptions {
        tile_cache_dir: Some(cache.path().to_owned()),
        ..embedded()
    });
    wait_until(&mut h, "the fleet", fleet_of(60));
    open(&mut h, "EX-", "Yesterday");
    set_tile_server(&mut h, &closed_tile_server());
    h.get_by_label("Online tiles").click();
    h.run_steps(2);
    while zoom(&h) < 15.0 {
        h.get_by_label("Zoom in").click();
        h.run_steps(2);
    }
    wait_for_label(&mut h, "Online tiles failed");
    h.get_by_label_contains("No offline map detail at this zoom, and online tiles failed");
    assert!(
        h.query_all_by_label_contains("cannot reach the tile server")
            .count()
            >= 1,
        "the reason is given"
    );
}

/// Item 12: with the service unreachable, a machine never fetched leaves a
/// short plain note in the map's toolbar (a long raw error there widened
/// the map and pushed the plots off-screen), gone once its track loads.
#[test]
fn unreachable_positions_leave_a_short_note_that_goes_once_loaded() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    // Its data (and signing key) kept on disk, so it comes back the same.
    let dir = tempfile::tempdir().expect("tempdir");
    let sb = rt.block_on(common::start_with(
        common::fixed_config().data_dir(dir.path()),
    ));
    let addr = sb.running.addr();
    let options = on_service(&sb.base, &sb.token);
    let mut h = harness(options);
    wait_until(&mut h, "the fleet", fleet_of(60));
    open(&mut h, "RT-", "Last 7 days");
    let before = map_rect(&h);

    rt.block_on(sb.running.shutdown());
    let other = common::ui::equipment_name(
        h.state(),
        h.state()
            .state()
            .fleet()
            .equipments
            .iter()
            .find(|e| e.name.starts_with("EX-"))
            .expect("an excavator")
            .id,
    );
    common::ui::pick(&h, &other);
    wait_until(&mut h, "the track's failure", |app| {
        app.state().timeline().track.error().is_some()
    });
    h.run_steps(4);
    let after = map_rect(&h);
    assert!(
        (after.width() - before.width()).abs() < 1.0,
        "the map keeps its width: {before:?} -> {after:?}"
    );
    let notes: Vec<(String, Rect)> = h
        .query_all_by_label_contains("Positions not loaded")
        .map(|n| (n.value().unwrap_or_default(), n.rect()))
        .collect();
    assert!(!notes.is_empty(), "the map says the positions are missing");
    for (text, rect) in &notes {
        assert!(
            text.len() < 80 && !text.contains("GET /") && !text.contains("os error"),
            "a short plain note: {text:?}"
        );
        assert!(
            rect.right() <= after.right() + 1.0,
            "{rect:?} within the map's width"
        );
    }
    // Nothing raw in the map's column (the other panels are not the map's).
    let column = Rect::from_x_y_ranges(after.x_range(), 0.0..=after.bottom());
    for raw in h.query_all_by_label_contains("tcp connect") {
        assert!(
            !column.intersects(raw.rect()),
            "a raw error over the map: {:?}",
            raw.value()
        );
    }

    // The service comes back: the track loads and the note goes.
    let _back = rt.block_on(common::start_with(
        common::fixed_config().listen(addr).data_dir(dir.path()),
    ));
    let deadline = Instant::now() + Duration::from_secs(90);
    while h.state().state().offline().is_some()
        || h.state().state().timeline().track.error().is_some()
    {
        assert!(
            Instant::now() < deadline,
            "never loaded again: offline {:?}, track failed {:?}, pending {}",
            h.state().state().offline().is_some(),
            h.state().state().timeline().track.error(),
            h.state().state().timeline().track.is_pending()
        );
        if let Some(retry) = h.query_by_label("Retry now") {
            retry.click();
        }
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    wait_until(&mut h, "the track", |app| {
        let t = &app.state().timeline().track;
        t.value().is_some() && !t.is_pending()
    });
    assert!(h.query_by_label_contains("Positions not loaded").is_none());
}

/// A machine with no position in the window says so on its map, rather
/// than leave the last machine's place in view without a word.
#[test]
fn a_window_without_positions_says_so_on_the_map() {
    use fleetview::app::Preset;
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    open(&mut h, "RT-", "Last 7 days");
    let base = h.state().state().connection().base_url.clone();
    let w = Preset::Today.window(common::now(), (0, 0));
    let silent = h
        .state()
        .state()
        .fleet()
        .equipments
        .iter()
        .map(|e| (e.id, e.name.clone()))
        .find(|(id, _)| {
            common::ui::service_body(&base, *id, "positions", w)["data"]["total"].as_u64()
                == Some(0)
        })
        .expect("a machine without positions today");
    h.get_by_label("Today").click();
    h.run_steps(2);
    common::ui::pick(&h, &silent.1);
    wait_until(&mut h, "its empty track", |app| {
        let t = &app.state().timeline().track;
        app.state().selected() == Some(silent.0)
            && !t.is_pending()
            && t.value().is_some_and(|t| t.is_empty())
    });
    h.run_steps(3);
    let note = h.get_by_label_contains("No position").rect();
    assert!(map_rect(&h).contains_rect(note), "on the map: {note:?}");
}
