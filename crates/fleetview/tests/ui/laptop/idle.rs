//! Item 1: an app left alone offline, with the online tiles failing and a
//! notice showing, asks for no frames (and so uses no CPU) until something
//! is due: the next try of the service or of the tiles.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::{MapSettings, Settings, Tab};
use fleetview::shell::{AppOptions, FleetApp, ServiceOptions, WallClock};
use fleetview_api::model::SecretValue;
use fleetview_sandbox::simulate::FIRST_ID;

use super::closed_address;
use crate::common;

/// The delay before the frame the app asked for after its last frame.
fn repaint_delay(h: &Harness<'static, FleetApp>) -> Duration {
    h.output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map_or(Duration::MAX, |v| v.repaint_delay)
}

#[test]
fn left_alone_offline_with_tiles_failing_it_asks_for_no_frames() {
    let dir = tempfile::tempdir().expect("tempdir");
    let service = closed_address();
    let tiles = closed_address();
    // The computer's clock, moved on by the test once the app is left
    // alone (as its frames' clock is).
    let ahead_secs = Arc::new(AtomicI64::new(0));
    let options = AppOptions {
        service: Some(ServiceOptions {
            base_url: format!("http://{service}/"),
            token: Some(SecretValue::new("a token".to_owned())),
            api_key: None,
            allow_insecure_http: true,
        }),
        cache_path: Some(dir.path().join("cache.sqlite")),
        clock: Some(common::now()),
        wall_clock: WallClock::new({
            let ahead_secs = ahead_secs.clone();
            move || fleetview_api::time::now_secs() + ahead_secs.load(Ordering::SeqCst)
        }),
        online_tiles: true,
        ..AppOptions::default()
    };
    // The settings of a first start, with the tiles from a server that
    // is not there.
    let settings = {
        let first = options.clone();
        let h = Harness::builder().build_eframe(move |cc| FleetApp::new(cc, first));
        h.state().state().settings()
    };
    let options = AppOptions {
        // The machine page, whose map, plots and tables all fail.
        settings: Some(Settings {
            selected: Some(FIRST_ID),
            page: Some(Tab::Faults),
            map: MapSettings {
                online_tiles: true,
                tile_url: format!("http://{tiles}/{{z}}/{{x}}/{{y}}.png"),
            },
            ..settings
        }),
        ..options
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1366.0, 768.0))
        // A second between frames, as a compositor might give them when
        // asked (the tiles' stall and back-off count this time).
        .with_step_dt(1.0)
        .build_eframe(move |cc| FleetApp::new(cc, options));

    // Frames as the system gives them: one when asked for (at once, or
    // when the delay asked for is over), until the app stops asking for
    // a frame within the next 10 s (the service and the tiles have
    // failed, and said so).
    let quiet = Duration::from_secs(10);
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut delays = Vec::new();
    loop {
        h.step();
        let delay = repaint_delay(&h);
        delays.push(delay);
        if delay >= quiet && h.state().state().offline().is_some() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "still asking for frames after 60 s offline: the last delays asked for {:?}",
            &delays[delays.len().saturating_sub(8)..]
        );
        std::thread::sleep(delay.min(Duration::from_millis(20)));
    }
    let s = h.state().state();
    assert_eq!(s.tab(), Tab::Faults, "the machine's page, with its map");
    assert!(
        h.query_by_label_contains("Offline. Can't reach").is_some(),
        "the offline notice shows while idle"
    );
    // Left alone for two minutes, a frame drawn only when one is asked
    // for, as eframe draws them: each when the delay it asked for is over
    // (the clocks moved on by it). The tiles' next try (30 s after they
    // failed, then a minute later) and the service's are a few wakes; a
    // repaint every 500 ms was 240. While a try is in flight its spinner
    // asks for frames at once: those are polled in real time, and must
    // stop.
    let mut t = h.ctx.input(|i| i.time);
    let end = t + 120.0;
    let mut wakes = Vec::new();
    let mut in_flight_since = Instant::now();
    let mut frames = 0;
    loop {
        let delay = repaint_delay(&h).as_secs_f64();
        if delay == 0.0 {
            assert!(
                in_flight_since.elapsed() < Duration::from_secs(10),
                "frames asked for at once for 10 s after the wakes {wakes:?}"
            );
            std::thread::sleep(Duration::from_millis(10));
            h.step();
            frames += 1;
            // A try of the service or the tiles is a frame to start it and
            // one for its answer, not an animation while it waits (a
            // spinner drew a second of frames at every try).
            assert!(
                frames <= 3 * wakes.len() + 3,
                "{frames} frames drawn for {} wakes left alone",
                wakes.len()
            );
            continue;
        }
        if t + delay > end {
            break;
        }
        t += delay;
        ahead_secs.fetch_add(delay.ceil() as i64, Ordering::SeqCst);
        wakes.push(delay);
        assert!(
            wakes.len() <= 8,
            "woken in two minutes left alone, after these delays: {wakes:?}"
        );
        h.input_mut().time = Some(t);
        h.step();
        frames += 1;
        in_flight_since = Instant::now();
    }
}
