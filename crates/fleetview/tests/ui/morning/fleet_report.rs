//! The *Report...* buttons, clicked through the app (egui_kittest) on the
//! embedded sandbox: the save dialog answers a path (as a user would), the
//! worker reads and writes, a notice says where; the file is read back.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::common;

use common::ui::{equipment_name, pick, wait_until};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::Loadable;
use fleetview::shell::{AppOptions, FleetApp};
use fleetview_api::time::format_wire;
use fleetview_core::worker::{SaveAnswer, SaveDialog, SaveRequest};
use fleetview_sandbox::simulate::FIRST_ID;
use serde_json::Value;

/// A small fleet: the fleet report reads every machine.
const FLEET: usize = 5;

/// A save dialog that answers `path`, and keeps what it was asked.
#[derive(Debug)]
struct Answers {
    path: PathBuf,
    asked: Mutex<Vec<SaveRequest>>,
}

impl SaveDialog for Answers {
    fn choose(&self, request: SaveRequest) -> futures_util::future::BoxFuture<'static, SaveAnswer> {
        self.asked.lock().expect("asked").push(request);
        let path = self.path.clone();
        Box::pin(async move { SaveAnswer::Chosen(path) })
    }
}

fn app(dialog: Arc<Answers>) -> Harness<'static, FleetApp> {
    let options = AppOptions {
        clock: Some(common::now()),
        sandbox_fleet_size: Some(FLEET as u64),
        save_dialog: Some(dialog),
        ..AppOptions::default()
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .build_eframe(move |cc| FleetApp::new(cc, options));
    wait_until(&mut h, "the fleet", |app| {
        !app.state().fleet().loading && app.state().fleet().equipments.len() == FLEET
    });
    h
}

/// Opens the page's *Report...* menu, picks `item`, and waits for the
/// notice `title`; the notice's text.
fn report_via_ui(h: &mut Harness<'static, FleetApp>, item: &str, title: &str) -> String {
    let newest = |app: &FleetApp| app.state().notifications().iter().map(|n| n.id).max();
    let before = newest(h.state()).unwrap_or(0);
    h.get_by_role_and_label(Role::Button, "Report…").click();
    h.run_steps(2);
    h.get_by_label(item).click();
    wait_until(h, title, |app| {
        app.state()
            .notifications()
            .iter()
            .any(|n| n.id > before && n.title == title)
    });
    assert!(h.query_all_by_label(title).count() >= 1, "{title} is shown");
    let note = h.state().state().notifications();
    note.iter()
        .rev()
        .find(|n| n.title == title)
        .map(|n| n.detail.clone())
        .unwrap_or_default()
}

#[test]
fn fleet_report_button_on_the_fleet_page_writes_the_fleets_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("chosen.html");
    let dialog = Arc::new(Answers {
        path: path.clone(),
        asked: Mutex::default(),
    });
    let mut h = app(dialog.clone());
    wait_until(&mut h, "the snapshots", |app| {
        app.state().overview().snapshots.len() == FLEET
    });
    let detail = report_via_ui(
        &mut h,
        "HTML (to read, print or send)…",
        "The fleet report (HTML) saved",
    );
    assert!(detail.contains(&path.display().to_string()), "{detail}");
    let asked = dialog.asked.lock().expect("asked").clone();
    assert_eq!(asked.len(), 1, "the dialog asked once");
    assert_eq!(asked[0].extension, "html");
    let window = h
        .state()
        .state()
        .overview()
        .window
        .expect("the Fleet page's window");
    assert_eq!(
        asked[0].file_name,
        format!(
            "fleet-report-{}_{}.html",
            &format_wire(window.since)[..10],
            &format_wire(window.until)[..10]
        )
    );
    let html = std::fs::read_to_string(&path).expect("the report was written");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<h1>Fleet report</h1>"));
    assert!(html.contains("<svg"), "daily charts inline");
    assert!(!html.to_lowercase().contains("<script"));
    for e in &h.state().state().fleet().equipments {
        assert!(html.contains(&e.name), "{} in the report", e.name);
    }
    assert!(
        h.state().state().exports().report_under_way.is_none(),
        "the menu is free again"
    );
    let fetches = h.state().state().fetches();
    assert!(
        fetches.iter().all(|(what, _)| !what.contains("report")),
        "no fetch left under way in the status bar: {fetches:?}"
    );
}

#[test]
fn fleet_report_button_on_a_machine_page_writes_that_machines_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("machine.json");
    let dialog = Arc::new(Answers {
        path: path.clone(),
        asked: Mutex::default(),
    });
    let mut h = app(dialog.clone());
    let id = FIRST_ID + 2;
    let name = equipment_name(h.state(), id);
    pick(&h, &name);
    wait_until(&mut h, "the machine's history", |app| {
        matches!(*app.state().history(), Loadable::Ready(_))
    });
    let title = format!("The report of {name} (JSON) saved");
    report_via_ui(&mut h, "JSON (for scripts)…", &title);
    let asked = dialog.asked.lock().expect("asked").clone();
    assert_eq!(asked.len(), 1);
    assert!(
        asked[0].file_name.starts_with(&format!("{id}-")),
        "{}",
        asked[0].file_name
    );
    assert!(asked[0].file_name.ends_with(".json"));
    let doc: Value =
        serde_json::from_slice(&std::fs::read(&path).expect("written")).expect("one JSON document");
    assert_eq!(doc["equipment"].as_i64(), Some(id));
    assert_eq!(doc["name"].as_str(), Some(name.as_str()));
    let window = h.state().state().shown_or_selected_window();
    assert_eq!(
        doc["window"]["since"].as_str(),
        Some(&*format_wire(window.since))
    );
    assert_eq!(
        doc["window"]["until"].as_str(),
        Some(&*format_wire(window.until))
    );
    assert!(doc["totals"]["engine_hours_h"].is_number(), "{doc}");
}

#[test]
fn fleet_report_from_the_app_judges_idle_by_the_attention_strips_threshold() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("fleet.json");
    let dialog = Arc::new(Answers {
        path: path.clone(),
        asked: Mutex::default(),
    });
    let mut h = app(dialog);
    wait_until(&mut h, "the snapshots", |app| {
        app.state().overview().snapshots.len() == FLEET
    });
    // The strip's threshold, typed as a user would: 40 % becomes 1 %.
    h.get_by_label("threshold").focus();
    h.run_steps(2);
    h.get_by_label("threshold").type_text("1");
    h.key_press(egui::Key::Enter);
    wait_until(&mut h, "the threshold set", |app| {
        app.state()
            .overview()
            .settings
            .attention
            .idle_threshold_percent
            == 1
    });
    report_via_ui(
        &mut h,
        "JSON (for scripts)…",
        "The fleet report (JSON) saved",
    );
    let doc: Value =
        serde_json::from_slice(&std::fs::read(&path).expect("written")).expect("one JSON document");
    let machines = doc["machines"].as_array().expect("machines");
    let idling = machines
        .iter()
        .filter(|m| {
            m["totals"]["idle_percent"]
                .as_f64()
                .is_some_and(|p| p > 1.0)
        })
        .count();
    let flagged: Vec<&str> = machines
        .iter()
        .flat_map(|m| m["attention"].as_array().expect("attention"))
        .filter(|a| a["kind"] == "high_idle")
        .filter_map(|a| a["text"].as_str())
        .collect();
    assert!(idling > 0, "the sandbox's machines idle: {doc}");
    assert_eq!(
        flagged.len(),
        idling,
        "every machine idling above 1 %: {flagged:?}"
    );
    assert!(
        flagged.iter().all(|t| t.ends_with("(above 1 %)")),
        "{flagged:?}"
    );
}
