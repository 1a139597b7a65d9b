//! D2 on a service without the equipment list: the stub answers 404 there,
//! so the app, logged in with an API key, discovers the fleet through the
//! deprecated fleet history and the panel says so.

use super::*;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::shell::{AppOptions, FleetApp, ServiceOptions};
use fleetview_api::ApiKey;
use fleetview_core::worker::FleetSource;

use crate::common::ui::wait_until;

#[test]
fn without_an_equipment_list_the_deprecated_history_finds_the_fleet_and_says_so() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    // Only the login and the deprecated history: the list is a 404.
    let stub = rt.block_on(Stub::start(
        Routes::new().fixture("/v2/fleet/equipments/history", "fleetHistory.json"),
    ));
    let options = AppOptions {
        service: Some(ServiceOptions {
            base_url: stub.base.clone(),
            token: None,
            api_key: Some(ApiKey::new("ci", "key")),
            allow_insecure_http: false,
        }),
        clock: Some(now()),
        ..AppOptions::default()
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| FleetApp::new(cc, options));
    wait_until(&mut h, "the fleet from the deprecated history", |app| {
        let fleet = app.state().fleet();
        !fleet.loading && !fleet.equipments.is_empty()
    });
    let fleet = h.state().state().fleet().clone();
    assert_eq!(fleet.source, FleetSource::DeprecatedHistory);
    assert_eq!(
        fleet.equipments.iter().map(|e| e.id).collect::<Vec<_>>(),
        vec![ID]
    );
    h.get_by_label_contains("This service has no equipment list: found through the deprecated");
    assert_eq!(stub.hits("/login"), 1, "logged in with the key once");
    assert_eq!(
        stub.hits("/v2/fleet/equipments"),
        1,
        "the list was asked first"
    );
    assert!(stub.hits("/v2/fleet/equipments/history") >= 1);
    drop(stub);
}
