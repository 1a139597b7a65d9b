//! A wrong access token though the machine's window is cached: the app
//! says the token was refused, rather than look fine on what the cache
//! holds.

use crate::common;

use common::ui::{equipment_name, wait_until};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::{ConnStatus, Loadable};
use fleetview::shell::{AppOptions, FleetApp, ServiceOptions};
use fleetview_api::model::SecretValue;
use fleetview_sandbox::simulate::FIRST_ID;

fn harness(options: AppOptions) -> Harness<'static, FleetApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

#[test]
fn a_wrong_token_is_said_though_the_window_is_cached() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let sb = rt.block_on(common::start());
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let options = |token: &str| AppOptions {
        service: Some(ServiceOptions {
            base_url: sb.base.clone(),
            token: Some(SecretValue::new(token)),
            api_key: None,
            allow_insecure_http: false,
        }),
        cache_path: Some(cache.clone()),
        clock: Some(common::now()),
        ..AppOptions::default()
    };
    let mut h = harness(options(&sb.token));
    wait_until(&mut h, "the fleet", |app| {
        !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
    });
    let name = equipment_name(h.state(), FIRST_ID);
    common::ui::pick(&h, &name);
    wait_until(&mut h, "the machine's history", |app| {
        matches!(app.state().history(), Loadable::Ready(_))
    });
    let settings = h.state().state().settings();
    drop(h);

    let mut h = harness(AppOptions {
        settings: Some(settings),
        ..options("wrong")
    });
    wait_until(&mut h, "the refusal", |app| {
        matches!(app.state().connection().status, ConnStatus::Unauthorized(_))
    });
    h.run_steps(2);
    h.get_by_label_contains("The service refused the access token");
    assert!(h.state().state().title().contains("token refused"));
}
