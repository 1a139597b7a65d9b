//! Exports from the app, clicked through its menus (egui_kittest) against
//! the real embedded sandbox: each file is read back by a parser (CSV,
//! GeoJSON, GPX) and holds exactly what the panel shows, which is what the
//! service's `total` says for the window, or the filtered rows.

use crate::common;

use common::ui::{equipment_name, export_via_ui, service_body, wait_until};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::{Loadable, Preset};
use fleetview::shell::{AppOptions, FleetApp};
use fleetview_sandbox::simulate::FIRST_ID;
use serde_json::Value;

fn csv_rows(path: &std::path::Path) -> Vec<csv::StringRecord> {
    csv::Reader::from_path(path)
        .expect("CSV opens")
        .records()
        .map(|r| r.expect("a CSV record"))
        .collect()
}

/// A GeoJSON FeatureCollection whose features have valid geometries.
fn geojson_features(path: &std::path::Path) -> Vec<Value> {
    let doc: Value = serde_json::from_slice(&std::fs::read(path).expect("read")).expect("JSON");
    assert_eq!(doc["type"], "FeatureCollection");
    let features = doc["features"].as_array().expect("features").clone();
    for f in &features {
        assert_eq!(f["type"], "Feature");
        let g = &f["geometry"];
        match g["type"].as_str() {
            None => assert!(g.is_null(), "a geometry or null: {g}"),
            Some("Point") => {
                let c = g["coordinates"].as_array().expect("coordinates");
                assert!(c.len() >= 2 && c.iter().all(Value::is_f64));
                let (lon, lat) = (
                    c[0].as_f64().unwrap_or(999.0),
                    c[1].as_f64().unwrap_or(999.0),
                );
                assert!((-180.0..=180.0).contains(&lon) && (-90.0..=90.0).contains(&lat));
            }
            Some("LineString") => {
                let c = g["coordinates"].as_array().expect("coordinates");
                assert!(c.len() >= 2, "a line has two positions at least");
            }
            Some(other) => panic!("unexpected geometry {other}"),
        }
    }
    features
}

/// `trkpt` elements of a well-formed GPX file, each with a time.
fn gpx_points(path: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(path).expect("read");
    let mut reader = quick_xml::Reader::from_str(&text);
    let (mut points, mut times, mut depth) = (0, 0, 0i32);
    loop {
        match reader.read_event().expect("well-formed XML") {
            quick_xml::events::Event::Start(e) => {
                depth += 1;
                points += usize::from(e.name().as_ref() == b"trkpt");
                times += usize::from(e.name().as_ref() == b"time");
            }
            quick_xml::events::Event::End(_) => depth -= 1,
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(depth, 0);
    assert_eq!(points, times, "every trkpt has its time");
    points
}

#[test]
fn every_export_holds_what_the_panel_shows() {
    let dir = tempfile::tempdir().expect("tempdir");
    let export_dir = dir.path().to_path_buf();
    let options = AppOptions {
        clock: Some(common::now()),
        export_dir: Some(export_dir.clone()),
        ..AppOptions::default()
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .build_eframe(move |cc| FleetApp::new(cc, options));
    wait_until(&mut h, "the fleet", |app| {
        !app.state().fleet().loading && app.state().fleet().equipments.len() == 60
    });
    let base = h.state().state().connection().base_url.clone();

    // A machine that moved and had faults in the last 7 days (the default).
    let w = Preset::Last7Days.window(common::now(), (0, 0));
    let total = |id: i64, segment: &str| {
        service_body(&base, id, segment, w)["data"]["total"]
            .as_u64()
            .unwrap_or(0) as usize
    };
    let id = (0..30)
        .map(|i| FIRST_ID + i)
        .find(|id| total(*id, "faults") > 1 && total(*id, "activities") > 0)
        .expect("a machine with faults and activities in 7 days");
    let name = equipment_name(h.state(), id);
    common::ui::pick(&h, &name);
    wait_until(&mut h, "every panel", |app| {
        let s = app.state();
        matches!(*s.faults(), Loadable::Ready(_))
            && matches!(*s.activities(), Loadable::Ready(_))
            && matches!(*s.history(), Loadable::Ready(_))
            && matches!(s.timeline().track, Loadable::Ready(_))
            && s.timeline()
                .plots
                .values()
                .all(|p| matches!(p, Loadable::Ready(_)))
    });

    // Positions: GPX and GeoJSON, one point per position of the service.
    let positions = total(id, "positions");
    assert!(positions > 0);
    let (gpx, n) = export_via_ui(&mut h, Some("Export positions"), "GPX…", "positions (GPX)");
    assert!(gpx.starts_with(&export_dir));
    // The machine's id and name (its safe characters), what, the window.
    let safe: String = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    assert!(gpx.to_string_lossy().ends_with(&format!(
        "{id}-{safe}-positions-{}_{}.gpx",
        &w.since_wire()[..10],
        &w.until_wire()[..10]
    )));
    assert_eq!((n, gpx_points(&gpx)), (positions, positions));
    let (geo, n) = export_via_ui(
        &mut h,
        Some("Export positions"),
        "GeoJSON…",
        "positions (GeoJSON)",
    );
    assert_eq!((n, geojson_features(&geo).len()), (positions, positions));

    // One plotted channel (fuel remaining is plotted by default).
    let fuel = total(id, "fuelRemaining");
    let (path, n) = export_via_ui(
        &mut h,
        Some("Export channel"),
        "Fuel remaining (%) (CSV)…",
        "Fuel remaining (CSV)",
    );
    let rows = csv_rows(&path);
    assert_eq!((n, rows.len()), (fuel, fuel));
    assert!(
        rows.iter()
            .all(|r| &r[2] == "%" && r[1].parse::<f64>().is_ok())
    );

    // Faults: all of them, then only what a level filter leaves.
    let faults = total(id, "faults");
    let (path, n) = export_via_ui(&mut h, None, "Export faults (CSV)…", "faults (CSV)");
    assert_eq!((n, csv_rows(&path).len()), (faults, faults));
    let all_rows = csv_rows(&path);
    let level = all_rows[0][2].to_owned();
    let others = all_rows.iter().filter(|r| r[2] != *level).count();
    h.get_all_by_label_contains(&format!("{level} ("))
        .next()
        .expect("the level's checkbox")
        .click();
    h.run_steps(3);
    h.get_by_label_contains(&format!(
        "{} shown of {faults}",
        fleetview::ui::format::count(others, "fault", "faults")
    ));
    if others > 0 {
        let (path, n) = export_via_ui(&mut h, None, "Export faults (CSV)…", "faults (CSV)");
        let rows = csv_rows(&path);
        assert_eq!((n, rows.len()), (others, others));
        assert!(rows.iter().all(|r| r[2] != *level), "the filter applies");
    }

    // Activities: CSV, and GeoJSON lines along the track.
    let activities = total(id, "activities");
    h.get_by_label("Activities").click();
    h.run_steps(3);
    let (path, n) = export_via_ui(
        &mut h,
        Some("Export activities"),
        "CSV…",
        "activities (CSV)",
    );
    assert_eq!((n, csv_rows(&path).len()), (activities, activities));
    let (path, n) = export_via_ui(
        &mut h,
        Some("Export activities"),
        "GeoJSON…",
        "activities (GeoJSON)",
    );
    let features = geojson_features(&path);
    assert_eq!((n, features.len()), (activities, activities));
    assert!(
        features
            .iter()
            .any(|f| f["geometry"]["type"] == "LineString"),
        "a trip is a line"
    );

    // Daily history: one row per day of the service's history.
    let days = service_body(&base, id, "history", w)["data"]["dailyUsages"]["total"]
        .as_u64()
        .expect("days") as usize;
    h.get_by_label("Daily history").click();
    h.run_steps(3);
    let (path, n) = export_via_ui(
        &mut h,
        None,
        "Export daily history (CSV)…",
        "daily history (CSV)",
    );
    assert_eq!((n, csv_rows(&path).len()), (days, days));
    // Nothing half-written is left beside the files.
    for entry in std::fs::read_dir(&export_dir).expect("dir").flatten() {
        assert!(!entry.file_name().to_string_lossy().ends_with(".partial"));
    }
}

#[test]
fn a_notice_gone_can_be_read_again_from_the_status_bar() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicI64, Ordering};
    let dir = tempfile::tempdir().expect("tempdir");
    // The computer's clock, moved by the test.
    let wall = Arc::new(AtomicI64::new(fleetview_api::time::now_secs()));
    let clock = wall.clone();
    let options = AppOptions {
        clock: Some(common::now()),
        export_dir: Some(dir.path().to_path_buf()),
        wall_clock: fleetview::shell::WallClock::new(move || clock.load(Ordering::SeqCst)),
        ..AppOptions::default()
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| FleetApp::new(cc, options));
    wait_until(&mut h, "the fleet", |app| {
        !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
    });
    // A machine with faults in the last 7 days (the default window).
    let base = h.state().state().connection().base_url.clone();
    let w = Preset::Last7Days.window(common::now(), (0, 0));
    let id = (0..30)
        .map(|i| FIRST_ID + i)
        .find(|id| {
            service_body(&base, *id, "faults", w)["data"]["total"]
                .as_u64()
                .is_some_and(|n| n > 0)
        })
        .expect("a machine with faults in 7 days");
    common::ui::pick(&h, &equipment_name(h.state(), id));
    wait_until(&mut h, "the faults", |app| {
        matches!(*app.state().faults(), Loadable::Ready(_))
    });
    let title = "Exported faults (CSV)";
    let (path, _) = export_via_ui(&mut h, None, "Export faults (CSV)…", "faults (CSV)");
    // News goes by itself once seen long enough.
    wall.fetch_add(fleetview::app::NEWS_SECS + 1, Ordering::SeqCst);
    wait_until(&mut h, "the notice gone", |app| {
        !app.state().notifications().iter().any(|n| n.title == title)
    });
    h.run_steps(2);
    assert_eq!(h.query_all_by_label(title).count(), 0, "no toast left");
    h.get_by_label_contains("Notices (").click();
    h.run_steps(3);
    h.get_by_label(title);
    h.get_by_label("info");
    h.get_by_label("Details").click();
    h.run_steps(3);
    let file = path
        .file_name()
        .and_then(|f| f.to_str())
        .expect("a file name");
    h.get_by_label_contains(file);
}
