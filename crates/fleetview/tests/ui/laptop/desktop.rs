//! Items 4 and 11: what the desktop gives. A key pasted from a browser
//! (spaces and a line break around it) signs in; a machine's name in any
//! script is drawn in the system's fonts, not as boxes. The clipboard
//! itself (eframe's `clipboard` feature, with winit) is checked by hand
//! under Xvfb with xclip: a headless test has no system clipboard.

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::{Settings, Tab};
use fleetview::shell::{AppOptions, FleetApp};
use fleetview_sandbox::auth::{DEMO_API_KEY, DEMO_API_KEY_NAME};
use fleetview_sandbox::simulate::FIRST_ID;

use super::closed_service;
use crate::common;
use common::ui::{type_into, wait_until};

#[test]
fn a_machine_named_in_chinese_and_arabic_is_drawn_in_the_systems_fonts() {
    let options = AppOptions {
        service: Some(closed_service()),
        clock: Some(common::now()),
        ..AppOptions::default()
    };
    // The settings of a first start, with a machine open whose name the
    // bundled fonts cannot draw.
    let settings = {
        let first = options.clone();
        let h = Harness::builder().build_eframe(move |cc| FleetApp::new(cc, first));
        h.state().state().settings()
    };
    let name = "東京 挖掘机 03 حفار";
    let options = AppOptions {
        settings: Some(Settings {
            selected: Some(FIRST_ID),
            names: vec![(FIRST_ID, name.to_owned())],
            page: Some(Tab::Faults),
            ..settings
        }),
        ..options
    };
    // kittest fails a frame that draws a character no font has.
    let mut h = Harness::builder()
        .with_size(egui::vec2(1366.0, 768.0))
        .build_eframe(move |cc| FleetApp::new(cc, options));
    h.run_steps(4);
    assert!(
        h.query_all_by_label_contains("東京 挖掘机")
            .next()
            .is_some(),
        "the name shows"
    );
}

#[test]
fn an_api_key_pasted_from_a_browser_signs_in() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let sb = rt.block_on(common::start_with(common::fixed_config()));
    let options = AppOptions {
        service: Some(closed_service()),
        clock: Some(common::now()),
        ..AppOptions::default()
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1366.0, 768.0))
        .build_eframe(move |cc| FleetApp::new(cc, options));
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Connections").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "New profile").click();
    h.run_steps(2);
    type_into(&mut h, Role::TextInput, "Name", "Depot");
    type_into(&mut h, Role::TextInput, "Service URL", &sb.base);
    h.get_by_role_and_label(Role::RadioButton, "API key")
        .click();
    h.run_steps(2);
    type_into(&mut h, Role::TextInput, "API key name", DEMO_API_KEY_NAME);
    // Pasted as a browser copies it: with a line break.
    h.get_by_role_and_label(Role::PasswordInput, "API key")
        .focus();
    h.step();
    h.event(egui::Event::Paste(format!(" {DEMO_API_KEY}\n")));
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Save and connect")
        .click();
    wait_until(&mut h, "signed in on the pasted key", |app| {
        app.state().conn().user.is_some()
    });
}
