//! What the egui_kittest tests share: the app on a sandbox, stepping it
//! until the worker has answered, and typing into a field as a person
//! would.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::Loadable;
use fleetview::shell::{AppOptions, FleetApp, ServiceOptions};
use fleetview_api::model::SecretValue;
use fleetview_api::time::TimeWindow;

/// Asks a sandbox (logging in first), over HTTP, what it has for one
/// endpoint of one machine over a window: the whole JSON body. Blocks: for
/// UI tests, which run on the test's thread.
pub fn service_body(base: &str, id: i64, segment: &str, w: TimeWindow) -> serde_json::Value {
    service_get(
        base,
        &format!(
            "v2/fleet/equipments/{id}/{segment}?{}",
            super::window_query(w.since, w.until)
        ),
    )
}

/// The text a node shows: its label, or for a label widget (whose text
/// accesskit gives as its value) its value.
pub fn node_text(n: &egui_kittest::Node<'_>) -> String {
    use egui_kittest::kittest::NodeT as _;
    let node = n.accesskit_node();
    node.label()
        .filter(|l| !l.is_empty())
        .or_else(|| node.value())
        .unwrap_or_default()
}

/// The name the app lists a machine under.
pub fn equipment_name(app: &FleetApp, id: i64) -> String {
    app.state()
        .fleet()
        .equipments
        .iter()
        .find(|e| e.id == id)
        .unwrap_or_else(|| panic!("equipment {id} is listed"))
        .name
        .clone()
}

/// Steps the app until `cond` holds (the worker answers asynchronously),
/// then a few frames more so the UI shows what the state now holds.
pub fn wait_until(
    h: &mut Harness<'static, FleetApp>,
    what: &str,
    cond: impl Fn(&FleetApp) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !cond(h.state()) {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; connection {:?} ({}), fleet {} machines{}, fetches {:?}, notifications {:?}",
            h.state().state().connection().status,
            h.state().state().connection().label,
            h.state().state().fleet().equipments.len(),
            if h.state().state().fleet().loading {
                " (loading)"
            } else {
                ""
            },
            h.state().state().fetches(),
            h.state().state().notifications()
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.run_steps(3);
}

/// Focuses a text field (found by role and name) and types into it.
pub fn type_into(
    h: &mut Harness<'static, FleetApp>,
    role: egui::accesskit::Role,
    name: &str,
    text: &str,
) {
    h.get_by_role_and_label(role, name).focus();
    h.step();
    h.get_by_role_and_label(role, name).type_text(text);
    h.run_steps(2);
}

/// Exports through the UI: opens `menu` (if any), clicks `item`, waits for
/// the app to say it saved `what`; returns the file and the rows written.
pub fn export_via_ui(
    h: &mut Harness<'static, FleetApp>,
    menu: Option<&str>,
    item: &str,
    what: &str,
) -> (std::path::PathBuf, usize) {
    let title = format!("Exported {what}");
    let newest = |app: &FleetApp| app.state().notifications().iter().map(|n| n.id).max();
    let before = newest(h.state()).unwrap_or(0);
    if let Some(menu) = menu {
        h.get_by_label(menu).click();
        h.run_steps(2);
    }
    h.get_by_label(item).click();
    wait_until(h, &title, |app| newest(app).is_some_and(|n| n > before));
    let note = h
        .state()
        .state()
        .notifications()
        .iter()
        .rev()
        .find(|n| n.id > before && n.title == title)
        .unwrap_or_else(|| panic!("{title}: {:?}", h.state().state().notifications()))
        .clone();
    assert!(
        h.query_all_by_label(&title).count() >= 1,
        "{title} is shown"
    );
    // "N rows written to PATH"
    let (rows, path) = note
        .detail
        .split_once(" rows written to ")
        .expect("the note names rows and file");
    (
        std::path::PathBuf::from(path),
        rows.parse().expect("a row count"),
    )
}

/// Asks a sandbox (logging in first), over HTTP, for one path with its
/// query: the whole JSON body. Blocks, as `service_body` does.
pub fn service_get(base: &str, path_and_query: &str) -> serde_json::Value {
    let query = async {
        let http = reqwest::Client::new();
        let token = super::login(&http, base).await;
        http.get(format!("{base}/{path_and_query}"))
            .header("x-access-token", token)
            .send()
            .await
            .expect("sent")
            .json()
            .await
            .expect("json")
    };
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(query)
}

/// A machine's row in the equipment list: the leftmost of the nodes with
/// its name (the Fleet page's table lists it too).
pub fn in_list<'a>(h: &'a Harness<'static, FleetApp>, name: &'a str) -> egui_kittest::Node<'a> {
    h.get_all_by_label(name)
        .min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .unwrap_or_else(|| panic!("{name} is listed"))
}

/// Clicks a machine in the equipment list.
pub fn pick(h: &Harness<'static, FleetApp>, name: &str) {
    in_list(h, name).click();
}

/// The app's options on a sandbox: signed in with its token, the tests'
/// fixed clock, the local cache in `cache` (none if `None`).
pub fn on_sandbox(sb: &super::Sandbox, cache: Option<PathBuf>) -> AppOptions {
    AppOptions {
        service: Some(ServiceOptions {
            base_url: sb.base.clone(),
            token: Some(SecretValue::new(sb.token.clone())),
            api_key: None,
            allow_insecure_http: false,
        }),
        cache_path: cache,
        clock: Some(super::now()),
        ..AppOptions::default()
    }
}

/// The app with `options`, 1400x900.
pub fn app_with(options: AppOptions) -> Harness<'static, FleetApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

/// Steps the app until the fleet is listed: `machines` of them, or any
/// if `None`.
pub fn wait_for_fleet(h: &mut Harness<'static, FleetApp>, machines: Option<usize>) {
    wait_until(h, "the fleet", |app| {
        let fleet = app.state().fleet();
        !fleet.loading
            && match machines {
                Some(n) => fleet.equipments.len() == n,
                None => !fleet.equipments.is_empty(),
            }
    });
}

/// The selected machine's tables, history and track all read.
pub fn all_loaded(app: &FleetApp) -> bool {
    let s = app.state();
    matches!(*s.faults(), Loadable::Ready(_))
        && matches!(*s.activities(), Loadable::Ready(_))
        && matches!(*s.history(), Loadable::Ready(_))
        && matches!(s.timeline().track, Loadable::Ready(_))
}

/// The app on its embedded sandbox with the tests' fixed clock, 1400x900.
pub fn embedded_app() -> Harness<'static, FleetApp> {
    let options = fleetview::shell::AppOptions {
        clock: Some(super::now()),
        ..fleetview::shell::AppOptions::default()
    };
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .with_step_dt(1.0 / 60.0)
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

/// Ticks `kinds` on in the data-kind picker, as a person does: each found
/// by typing its name, then the picker closed with Escape.
pub fn pick_kinds(h: &mut Harness<'static, FleetApp>, kinds: &[fleetview_api::DataKind]) {
    use egui::accesskit::Role;
    if kinds.is_empty() {
        return;
    }
    h.get_by_label_contains("Data kinds").click();
    h.run_steps(3);
    for kind in kinds {
        h.get_by_role_and_label(Role::TextInput, "Find").focus();
        h.step();
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.step();
        h.get_by_role_and_label(Role::TextInput, "Find")
            .type_text(kind.display_name());
        h.run_steps(2);
        h.get_by_role_and_label(Role::CheckBox, kind.display_name())
            .click();
        h.run_steps(2);
    }
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
}

/// A press and a release of the primary button at `pos`, the pointer
/// moved there first, as a person clicks (any harness: the whole app or
/// one view).
pub fn click_at<S>(h: &mut Harness<'_, S>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.run_steps(2);
    for pressed in [true, false] {
        button(h, pos, pressed);
        h.run_steps(1);
    }
    h.run_steps(2);
}

/// The primary button pressed or released at `pos`.
fn button<S>(h: &mut Harness<'_, S>, pos: egui::Pos2, pressed: bool) {
    h.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    });
}

/// A press at `from`, eight moves, a release at `to`, as a person drags.
pub fn drag<S>(h: &mut Harness<'_, S>, from: egui::Pos2, to: egui::Pos2) {
    h.event(egui::Event::PointerMoved(from));
    h.step();
    button(h, from, true);
    h.step();
    for k in 1..=8 {
        let p = from + (to - from) * (k as f32 / 8.0);
        h.event(egui::Event::PointerMoved(p));
        h.step();
    }
    button(h, to, false);
    h.run_steps(3);
}
