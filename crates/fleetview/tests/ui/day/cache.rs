//! The local cache gone wrong under the app: rows garbled in a sound file.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use crate::common;

use common::ui::{all_loaded, app_with, equipment_name, on_sandbox, wait_for_fleet, wait_until};

use egui_kittest::kittest::Queryable;
use fleetview::app::Loadable;
use fleetview::shell::{AppOptions, FleetApp, WallClock};
use fleetview_sandbox::simulate::FIRST_ID;

fn any_failed(app: &FleetApp) -> bool {
    let s = app.state();
    matches!(*s.faults(), Loadable::Failed { .. })
        || matches!(*s.activities(), Loadable::Failed { .. })
        || matches!(*s.history(), Loadable::Failed { .. })
        || matches!(s.timeline().track, Loadable::Failed { .. })
}

/// The app with machine `id` open over the last 30 days, all read (and
/// so cached).
fn machine_month_read(options: AppOptions, id: i64) -> egui_kittest::Harness<'static, FleetApp> {
    let mut h = app_with(options);
    wait_for_fleet(&mut h, None);
    common::ui::pick(&h, &equipment_name(h.state(), id));
    h.step();
    h.get_by_label("Last 30 days").click();
    wait_until(&mut h, "the machine's data", all_loaded);
    h
}

/// A machine's page read once, its cache file garbled (every stored
/// window's rows, the file itself sound), the app started again: the page
/// opens with the same data, read again, and the notice blames the cache.
#[test]
fn garbled_cached_rows_are_read_again_and_the_cache_is_blamed() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let sb = rt.block_on(common::start());
    let cache = dir.path().join("cache.sqlite");
    let options = || on_sandbox(&sb, Some(cache.clone()));
    let id = FIRST_ID + 1;
    let h = machine_month_read(options(), id);
    let shown = |app: &FleetApp| {
        let s = app.state();
        (
            s.faults().value().cloned(),
            s.activities().value().map(|a| a.len()),
            s.timeline().track.value().map(|t| t.len()),
            s.history().value().map(|h| h.daily_usages.rows.len()),
        )
    };
    let first = shown(h.state());
    let settings = h.state().state().settings();
    drop(h);

    let conn = rusqlite::Connection::open(&cache).expect("the cache file");
    let garbled = conn
        .execute(
            &format!("UPDATE windows SET rows = CAST('xx{{' AS BLOB) WHERE equipment = {id}"),
            [],
        )
        .expect("garble");
    assert!(garbled >= 4, "the machine's windows were cached: {garbled}");
    drop(conn);

    let mut h = app_with(AppOptions {
        settings: Some(settings),
        ..options()
    });
    wait_until(&mut h, "the machine's page again", |app| {
        all_loaded(app) || any_failed(app)
    });
    assert!(all_loaded(h.state()), "a panel failed");
    assert_eq!(shown(h.state()), first, "the same data, read again");
    h.run_steps(3);
    h.get_by_label_contains("The local cache held data it could not read");
    let told = h
        .state()
        .state()
        .notifications()
        .iter()
        .filter(|n| n.title.starts_with("The local cache held data"))
        .count();
    assert_eq!(told, 1, "one notice for every window dropped");
    assert!(
        h.query_by_label_contains("The service's answer could not be read")
            .is_none(),
        "the service is not blamed"
    );
}

/// A cache file that cannot be written: machines still open (from the
/// service), and the app says once, in words, that nothing new is kept.
#[test]
fn a_read_only_cache_is_said_once_and_machines_still_open() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let sb = rt.block_on(common::start());
    let cache = dir.path().join("cache.sqlite");
    drop(fleetview_core::cache::Cache::open(&cache, 1 << 20).expect("a cache file"));
    let Some(_read_only) = common::files::ReadOnly::make(&cache) else {
        eprintln!("skipped: nothing here stops this user writing a file");
        return;
    };
    // The computer's clock, moved on by the test (as the frames' clock is).
    let ahead_secs = Arc::new(AtomicI64::new(0));
    let mut h = app_with(AppOptions {
        wall_clock: WallClock::new({
            let ahead_secs = ahead_secs.clone();
            move || fleetview_api::time::now_secs() + ahead_secs.load(Ordering::SeqCst)
        }),
        ..on_sandbox(&sb, Some(cache.clone()))
    });
    wait_for_fleet(&mut h, None);
    for id in [FIRST_ID, FIRST_ID + 1] {
        common::ui::pick(&h, &equipment_name(h.state(), id));
        h.step();
        wait_until(&mut h, "the machine's data", |app| {
            app.state().selected() == Some(id) && all_loaded(app)
        });
    }
    h.run_steps(3);
    let title = "The local cache is read-only: new data is not kept";
    h.get_by_label_contains(title);
    let told = h
        .state()
        .state()
        .notifications()
        .iter()
        .filter(|n| n.title == title)
        .count();
    assert_eq!(told, 1);
    // The cache is still read-only a minute on: said until dismissed, not
    // gone with the news.
    ahead_secs.store(60, Ordering::SeqCst);
    h.run_steps(3);
    assert!(
        h.query_by_label_contains(title).is_some(),
        "the read-only cache still said a minute on"
    );
}

/// A cache file damaged inside (half its pages overwritten, its first
/// pages sound): the app opens it without reading it whole, checks it once
/// its window shows, and then starts a new one; machines still open, and
/// the notice says what happened.
#[test]
fn a_cache_file_damaged_inside_is_found_after_the_first_frame_and_started_again() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let sb = rt.block_on(common::start());
    let cache = dir.path().join("cache.sqlite");
    let options = || on_sandbox(&sb, Some(cache.clone()));
    let id = FIRST_ID + 1;
    let h = machine_month_read(options(), id);
    let settings = h.state().state().settings();
    drop(h);
    let mut bytes = std::fs::read(&cache).expect("the cache file");
    let half = bytes.len() / 2;
    bytes[half..].fill(0xA5);
    std::fs::write(&cache, bytes).expect("damage");

    let mut h = app_with(AppOptions {
        settings: Some(settings),
        ..options()
    });
    let title = "The local cache file was damaged";
    wait_until(&mut h, "the check's notice", |app| {
        app.state()
            .notifications()
            .iter()
            .any(|n| n.title.starts_with(title))
    });
    h.get_by_label_contains(title);
    let moved = std::fs::read_dir(dir.path())
        .expect("dir")
        .filter_map(Result::ok)
        .any(|e| e.file_name().to_string_lossy().contains(".corrupt-"));
    assert!(moved, "the damaged file moved aside");
    let failed: Vec<_> = h
        .state()
        .state()
        .notifications()
        .iter()
        .filter(|n| n.title.contains("rebuilt") || n.title.contains("without a local cache"))
        .map(|n| n.title.clone())
        .collect();
    assert!(failed.is_empty(), "not found at the opening: {failed:?}");
    h.get_by_label("Refresh").click();
    wait_until(&mut h, "the machine's page read again", |app| {
        app.state().selected() == Some(id) && (all_loaded(app) || any_failed(app))
    });
    assert!(all_loaded(h.state()), "a panel failed");
}
