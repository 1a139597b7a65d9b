//! The local cache gone wrong under the app: rows garbled in a sound file.

use crate::common;

use common::ui::{equipment_name, wait_until};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::Loadable;
use fleetview::shell::{AppOptions, FleetApp, ServiceOptions};
use fleetview_api::model::SecretValue;
use fleetview_sandbox::simulate::FIRST_ID;

fn harness(options: AppOptions) -> Harness<'static, FleetApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

fn all_loaded(app: &FleetApp) -> bool {
    let s = app.state();
    matches!(*s.faults(), Loadable::Ready(_))
        && matches!(*s.activities(), Loadable::Ready(_))
        && matches!(*s.history(), Loadable::Ready(_))
        && matches!(s.timeline().track, Loadable::Ready(_))
}

fn any_failed(app: &FleetApp) -> bool {
    let s = app.state();
    matches!(*s.faults(), Loadable::Failed { .. })
        || matches!(*s.activities(), Loadable::Failed { .. })
        || matches!(*s.history(), Loadable::Failed { .. })
        || matches!(s.timeline().track, Loadable::Failed { .. })
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
    let options = {
        let (base, token, cache) = (sb.base.clone(), sb.token.clone(), cache.clone());
        move || AppOptions {
            service: Some(ServiceOptions {
                base_url: base.clone(),
                token: Some(SecretValue::new(token.clone())),
                api_key: None,
                allow_insecure_http: false,
            }),
            cache_path: Some(cache.clone()),
            clock: Some(common::now()),
            ..AppOptions::default()
        }
    };
    let mut h = harness(options());
    wait_until(&mut h, "the fleet", |app| {
        !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
    });
    let id = FIRST_ID + 1;
    common::ui::pick(&h, &equipment_name(h.state(), id));
    h.step();
    h.get_by_label("Last 30 days").click();
    wait_until(&mut h, "the machine's data", all_loaded);
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

    let mut h = harness(AppOptions {
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
    assert!(
        h.query_by_label_contains("The service's answer could not be read")
            .is_none(),
        "the service is not blamed"
    );
}
