//! Item 1: an app left alone offline, with the online tiles failing and a
//! notice showing, asks for no frames (and so uses no CPU) until something
//! is due: the next try of the service or of the tiles.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::{MapSettings, Settings, Tab};
use fleetview::shell::{AppOptions, FleetApp, ServiceOptions};
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
    let options = AppOptions {
        service: Some(ServiceOptions {
            base_url: format!("http://{service}/"),
            token: Some(SecretValue::new("a token".to_owned())),
            api_key: None,
            allow_insecure_http: true,
        }),
        cache_path: Some(dir.path().join("cache.sqlite")),
        clock: Some(common::now()),
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
    // Left alone: 20 s of frames (the tiles' next try is 30 s after they
    // failed) asks for none.
    let asked: Vec<Duration> = (0..20)
        .map(|_| {
            h.step();
            repaint_delay(&h)
        })
        .filter(|d| *d < quiet)
        .collect();
    assert!(asked.is_empty(), "frames asked for while idle: {asked:?}");
}
