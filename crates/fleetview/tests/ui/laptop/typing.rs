//! Items 2 and 3: on a slow frame, keys typed just before a click in the
//! next field reach the field they were typed in; letters typed in a form
//! are the form's, never shortcuts, even after a click on a field's label.

use eframe::App as _;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::Tab;
use fleetview::shell::{AppOptions, FleetApp};

use super::closed_service;
use crate::common;
use common::ui::{equipment_name, on_sandbox, pick, wait_for_fleet, wait_until};

/// The app against a service where nothing listens (the forms do not
/// need one).
fn offline_app() -> Harness<'static, FleetApp> {
    let options = AppOptions {
        service: Some(closed_service()),
        clock: Some(common::now()),
        ..AppOptions::default()
    };
    Harness::builder()
        .with_size(egui::vec2(1366.0, 768.0))
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

/// One frame as eframe runs it, with `events` as the system gave them
/// for that frame: the app's input hook first, then the pass.
fn slow_frame(h: &mut Harness<'static, FleetApp>, events: Vec<egui::Event>) {
    let ctx = h.ctx.clone();
    let mut raw = std::mem::take(h.input_mut());
    raw.events.extend(events);
    h.state_mut().raw_input_hook(&ctx, &mut raw);
    *h.input_mut() = raw;
    h.step();
}

/// A click at the middle of `rect`: press and release.
fn click_events(rect: egui::Rect) -> Vec<egui::Event> {
    let pos = rect.center();
    let button = |pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    vec![egui::Event::PointerMoved(pos), button(true), button(false)]
}

fn field_value(h: &Harness<'static, FleetApp>, name: &str) -> String {
    h.get_by_role_and_label(Role::TextInput, name)
        .value()
        .unwrap_or_default()
}

fn open_new_profile(h: &mut Harness<'static, FleetApp>) {
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Connections").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "New profile").click();
    h.run_steps(2);
}

#[test]
fn keys_typed_before_a_click_in_the_next_field_reach_their_field() {
    let mut h = offline_app();
    open_new_profile(&mut h);
    h.get_by_role_and_label(Role::TextInput, "Name").click();
    h.run_steps(2);

    // One slow frame: the end of the name, a click in the next field and
    // the start of the address; then the address's end.
    let url_field = h
        .get_by_role_and_label(Role::TextInput, "Service URL")
        .rect();
    let mut events = vec![
        egui::Event::Text("de".into()),
        egui::Event::Text("mo".into()),
    ];
    events.extend(click_events(url_field));
    events.push(egui::Event::Text("http://127.0.0.1:18".into()));
    slow_frame(&mut h, events);
    slow_frame(&mut h, vec![egui::Event::Text("089".into())]);
    for _ in 0..3 {
        slow_frame(&mut h, Vec::new());
    }
    assert_eq!(field_value(&h, "Name"), "demo");
    assert_eq!(field_value(&h, "Service URL"), "http://127.0.0.1:18089");
}

#[test]
fn a_click_then_keys_in_one_frame_lose_no_first_letter() {
    let mut h = offline_app();
    open_new_profile(&mut h);
    let name_field = h.get_by_role_and_label(Role::TextInput, "Name").rect();
    let mut events = click_events(name_field);
    events.push(egui::Event::Text("battery".into()));
    slow_frame(&mut h, events);
    for _ in 0..3 {
        slow_frame(&mut h, Vec::new());
    }
    assert_eq!(field_value(&h, "Name"), "battery");
}

/// The app on a sandbox with a machine open (so E and Space would act).
fn machine_open() -> (
    Harness<'static, FleetApp>,
    common::Sandbox,
    tokio::runtime::Runtime,
) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let sb = rt.block_on(common::start_with(common::fixed_config()));
    let options = on_sandbox(&sb, None);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1366.0, 768.0))
        .build_eframe(move |cc| FleetApp::new(cc, options));
    wait_for_fleet(&mut h, None);
    let id = h.state().state().fleet().equipments[0].id;
    let name = equipment_name(h.state(), id);
    pick(&h, &name);
    wait_until(&mut h, "the machine", |app| {
        app.state().selected() == Some(id) && app.state().tab() != Tab::Events
    });
    (h, sb, rt)
}

#[test]
fn a_click_on_a_label_focuses_its_field_and_letters_are_no_shortcuts() {
    let (mut h, _sb, _rt) = machine_open();
    let tab = h.state().state().tab();
    open_new_profile(&mut h);
    // A click on the label, beside its field.
    let label = h
        .get_by(|n| n.role() == Role::Label && n.value().as_deref() == Some("Name"))
        .rect();
    slow_frame(&mut h, click_events(label));
    h.run_steps(2);
    for key in [egui::Key::E, egui::Key::Space] {
        h.key_press(key);
        h.run_steps(2);
    }
    h.get_by_role_and_label(Role::TextInput, "Name")
        .type_text("Eve");
    h.run_steps(2);
    let s = h.state().state();
    assert_eq!(s.tab(), tab, "E opened no tab");
    assert!(!s.timeline().replay.playing, "Space started no replay");
    assert!(
        field_value(&h, "Name").ends_with("Eve"),
        "the label's click gave its field the focus: {:?}",
        field_value(&h, "Name")
    );
}

#[test]
fn letters_typed_in_an_open_form_with_no_field_focused_are_no_shortcuts() {
    let (mut h, _sb, _rt) = machine_open();
    let tab = h.state().state().tab();
    open_new_profile(&mut h);
    // A click on the form's own text: no field has the focus.
    h.get_by_label("Choose where fleetview gets its data.")
        .click();
    h.run_steps(2);
    for key in [egui::Key::E, egui::Key::Space, egui::Key::Num1] {
        h.key_press(key);
        h.run_steps(2);
    }
    let s = h.state().state();
    assert_eq!(s.tab(), tab, "E opened no tab");
    assert!(!s.timeline().replay.playing, "Space started no replay");
    // Closed, the keys are shortcuts again.
    h.get_by_role_and_label(Role::Button, "Connections").click();
    h.run_steps(2);
    h.key_press(egui::Key::E);
    h.run_steps(2);
    assert_eq!(h.state().state().tab(), Tab::Events);
}

#[test]
fn letters_typed_in_the_data_kinds_search_after_a_click_on_its_label_are_text() {
    let (mut h, _sb, _rt) = machine_open();
    let preset = h.state().state().machine().preset;
    h.get_by_label_contains("Data kinds").click();
    h.run_steps(3);
    let label = h
        .get_by(|n| n.role() == Role::Label && n.value().as_deref() == Some("Find"))
        .rect();
    slow_frame(&mut h, click_events(label));
    h.run_steps(2);
    for key in [egui::Key::Space, egui::Key::Num2] {
        h.key_press(key);
        h.run_steps(2);
    }
    h.get_by_role_and_label(Role::TextInput, "Find")
        .type_text("battery");
    h.run_steps(2);
    let s = h.state().state();
    assert!(!s.timeline().replay.playing, "Space started no replay");
    assert_eq!(s.machine().preset, preset, "2 chose no window");
    assert!(field_value(&h, "Find").ends_with("battery"));
}

/// Ctrl+F and the first letters in one slow frame (typed at once after
/// the shortcut): the letters reach the search, none lost.
#[test]
fn keys_typed_at_once_after_ctrl_f_reach_the_search() {
    let mut h = offline_app();
    h.run_steps(3);
    let key = |key, pressed| egui::Event::Key {
        key,
        physical_key: None,
        pressed,
        repeat: false,
        modifiers: egui::Modifiers::COMMAND,
    };
    slow_frame(
        &mut h,
        vec![
            key(egui::Key::F, true),
            key(egui::Key::F, false),
            egui::Event::Text("Ham".into()),
        ],
    );
    slow_frame(&mut h, vec![egui::Event::Text("burg".into())]);
    for _ in 0..3 {
        slow_frame(&mut h, Vec::new());
    }
    assert_eq!(field_value(&h, "Search"), "Hamburg");
}
