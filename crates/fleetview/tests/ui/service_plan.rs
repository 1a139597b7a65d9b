//! Service planning as a fleet manager uses it (the Service tab, *Mark
//! done*, the plan form, the Fleet page's Service column and count),
//! against a real sandbox, with the service book a real SQLite file.

use crate::common;

use std::path::{Path, PathBuf};

use common::ui::{
    app_with, equipment_name, export_via_ui, on_sandbox, pick, type_into, wait_for_fleet,
    wait_until,
};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fleetview::app::{Loadable, Tab};
use fleetview::shell::{AppOptions, FleetApp};
use fleetview_api::ClientConfig;
use fleetview_core::service::due::DueStatus;
use fleetview_core::service::plan::{Day, LastDone, Plan, PlanScope, PlanUnit};
use fleetview_core::service::store::ServiceStore;
use fleetview_core::service::usage::MetersNow;

struct World {
    _rt: tokio::runtime::Runtime,
    sb: common::Sandbox,
    dir: tempfile::TempDir,
}

impl World {
    fn new() -> Self {
        let rt = tokio::runtime::Runtime::new().expect("runtime");
        let sb = rt.block_on(common::start());
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("exports")).expect("the exports folder");
        Self { _rt: rt, sb, dir }
    }

    fn book_path(&self) -> PathBuf {
        self.dir.path().join("data").join("service.sqlite")
    }

    /// The book's key for this sandbox (as the app's worker keys it).
    fn scope(&self) -> String {
        ClientConfig::new(self.sb.base.clone())
            .cache_scope()
            .to_owned()
    }

    fn options(&self) -> AppOptions {
        AppOptions {
            service_book_path: Some(self.book_path()),
            export_dir: Some(self.dir.path().join("exports")),
            ..on_sandbox(&self.sb, Some(self.dir.path().join("cache.sqlite")))
        }
    }

    fn store(&self) -> ServiceStore {
        ServiceStore::open(&self.book_path()).expect("the service book opens")
    }

    fn seed(&self, plan: Plan) {
        self.store()
            .save_plan(&self.scope(), None, &plan)
            .expect("seeded");
    }
}

fn today() -> Day {
    Day::of_secs(common::now())
}

/// The app on the Fleet page with the fleet and its snapshots read.
fn started(w: &World) -> Harness<'static, FleetApp> {
    let mut h = app_with(w.options());
    wait_for_fleet(&mut h, None);
    wait_until(&mut h, "the snapshots and the service book", |app| {
        let s = app.state();
        !s.overview().snapshots.is_empty() && matches!(s.service().book, Loadable::Ready(_))
    });
    h
}

/// A machine with a category and an hour meter: its id, category and
/// meter now (as the app read its snapshot).
fn machine_with_meter(h: &Harness<'static, FleetApp>) -> (i64, String, f64) {
    let s = h.state().state();
    s.fleet()
        .equipments
        .iter()
        .find_map(|e| {
            let meter = s
                .overview()
                .snapshots
                .get(&e.id)
                .map(MetersNow::of)?
                .hours_h?;
            Some((e.id, e.category.clone()?, meter))
        })
        .expect("a machine with a category and an hour meter")
}

fn oil(id: i64, every: f64, done_at: f64) -> Plan {
    Plan {
        scope: PlanScope::Machine(id),
        task: "Engine oil and filter".into(),
        every,
        unit: PlanUnit::Hours,
        last_done: Some(LastDone {
            day: today().plus_days(-20),
            meter: Some(done_at),
        }),
    }
}

/// Opens the machine's Service tab (found by a search in the equipment
/// list, as a person finds one far down it).
fn open_service_tab(h: &mut Harness<'static, FleetApp>, id: i64) {
    let name = equipment_name(h.state(), id);
    let serial = h
        .state()
        .state()
        .fleet()
        .equipments
        .iter()
        .find(|e| e.id == id)
        .map(|e| e.serial_number.clone())
        .unwrap_or_default();
    h.get_by_role_and_label(Role::TextInput, "Search").focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    type_into(h, Role::TextInput, "Search", &serial);
    pick(h, &name);
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Service").click();
    h.run_steps(2);
    assert_eq!(h.state().state().tab(), Tab::Service);
}

fn usage_read(h: &mut Harness<'static, FleetApp>, id: i64) {
    wait_until(h, "the machine's daily usage", move |app| {
        app.state().service().of(id).is_some_and(|m| {
            m.items
                .iter()
                .all(|i| i.forecast.why_none() != Some("daily usage not read"))
        })
    });
}

fn has_text(h: &Harness<'static, FleetApp>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

#[test]
fn the_service_tab_shows_a_plans_meter_next_due_remaining_and_status() {
    let w = World::new();
    let h0 = started(&w);
    let (id, _, meter) = machine_with_meter(&h0);
    drop(h0);
    w.seed(oil(id, 250.0, meter - 100.0));
    let mut h = started(&w);
    open_service_tab(&mut h, id);
    usage_read(&mut h, id);
    h.run_steps(2);
    let item = h
        .state()
        .state()
        .service()
        .of(id)
        .expect("its services")
        .items[0]
        .clone();
    assert_eq!(item.meter_now, Some(meter));
    assert!((item.remaining.unwrap() - 150.0).abs() < 1e-6, "{item:?}");
    assert!((item.next_due_meter.unwrap() - (meter - 100.0 + 250.0)).abs() < 1e-6);
    assert_eq!(item.status, DueStatus::Ok);
    assert!(has_text(&h, "Engine oil and filter"));
    assert!(has_text(&h, "150 h"), "the remaining hours are shown");
    assert!(h.query_by_label("OK").is_some(), "its status is shown");
    // The forecast: a date at the machine's own pace, or why none.
    let forecast = item.forecast.day().map(|d| format!("about {d}"));
    match forecast {
        Some(f) => assert!(has_text(&h, &f), "{f}"),
        None => assert!(has_text(&h, item.forecast.why_none().unwrap())),
    }
}

#[test]
fn mark_done_records_the_service_with_the_meter_now_and_it_is_on_disk() {
    let w = World::new();
    let h0 = started(&w);
    let (id, _, meter) = machine_with_meter(&h0);
    drop(h0);
    w.seed(oil(id, 250.0, meter - 240.0));
    let mut h = started(&w);
    open_service_tab(&mut h, id);
    usage_read(&mut h, id);
    assert_eq!(
        h.state().state().service().of(id).unwrap().items[0].status,
        DueStatus::DueSoon
    );
    h.get_by_role_and_label(Role::Button, "Mark done: Engine oil and filter")
        .click();
    h.run_steps(2);
    // Filled in from the latest data: today, and the meter now.
    let date = h.get_by_role_and_label(Role::TextInput, "Done on");
    assert_eq!(
        date.accesskit_node().value().as_deref(),
        Some(today().to_string().as_str())
    );
    h.get_by_role_and_label(Role::Button, "Record").click();
    wait_until(&mut h, "the service recorded", |app| {
        app.state()
            .service()
            .book
            .value()
            .is_some_and(|b| b.done.len() == 1)
    });
    h.run_steps(2);
    assert!(has_text(&h, "Service recorded"));
    // Committed before it was said: another reader sees it now.
    let book = w.store().book(&w.scope()).unwrap();
    assert_eq!(book.done.len(), 1);
    assert_eq!(book.done[0].done.day, today());
    assert!((book.done[0].done.meter.unwrap() - (meter * 10.0).round() / 10.0).abs() < 1e-6);
    wait_until(&mut h, "the plan counted from the service", move |app| {
        app.state()
            .service()
            .of(id)
            .is_some_and(|m| m.items[0].status == DueStatus::Ok)
    });
    assert!(
        h.query_all_by_label_contains("Services done")
            .next()
            .is_some()
    );
}

/// Types into the plan form's field, replacing what it held.
fn set_field(h: &mut Harness<'static, FleetApp>, label: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.key_press(egui::Key::Backspace);
    h.step();
    if !text.is_empty() {
        type_into(h, Role::TextInput, label, text);
    }
}

fn save_and_expect(h: &mut Harness<'static, FleetApp>, why: &str) {
    h.get_by_role_and_label(Role::Button, "Save plan").click();
    h.run_steps(2);
    assert!(has_text(h, why), "the form says {why:?}");
}

#[test]
fn the_plan_form_refuses_bad_input_with_the_reason_then_saves() {
    let w = World::new();
    let mut h = started(&w);
    let (id, _, meter) = machine_with_meter(&h);
    open_service_tab(&mut h, id);
    h.get_by_role_and_label(Role::Button, "Add plan…").click();
    h.run_steps(2);
    save_and_expect(&mut h, "Name the task");
    set_field(&mut h, "Task", "Hydraulic oil");
    set_field(&mut h, "Every", "0");
    save_and_expect(&mut h, "must be a number above 0");
    set_field(&mut h, "Every", "-3");
    save_and_expect(&mut h, "must be a number above 0");
    set_field(&mut h, "Every", "1000");
    set_field(
        &mut h,
        "Meter then (h)",
        &format!("{}", (meter + 50.0).round()),
    );
    save_and_expect(&mut h, "above the meter now");
    set_field(
        &mut h,
        "Last done (YYYY-MM-DD)",
        &today().plus_days(3).to_string(),
    );
    set_field(&mut h, "Meter then (h)", "10");
    save_and_expect(&mut h, "after today");
    set_field(&mut h, "Last done (YYYY-MM-DD)", "2025-02-30");
    save_and_expect(&mut h, "is not a date");
    assert!(
        w.store().book(&w.scope()).unwrap().plans.is_empty(),
        "nothing written yet"
    );
    set_field(
        &mut h,
        "Last done (YYYY-MM-DD)",
        &today().plus_days(-10).to_string(),
    );
    h.get_by_role_and_label(Role::Button, "Save plan").click();
    wait_until(&mut h, "the plan saved", |app| {
        app.state()
            .service()
            .book
            .value()
            .is_some_and(|b| b.plans.len() == 1)
    });
    let plans = w.store().book(&w.scope()).unwrap().plans;
    assert_eq!(plans[0].plan.task, "Hydraulic oil");
    assert_eq!(plans[0].plan.every, 1000.0);
    assert_eq!(plans[0].plan.scope, PlanScope::Machine(id));
    h.run_steps(2);
    assert!(
        h.query_by_role_and_label(Role::Button, "Save plan")
            .is_none(),
        "the form closed once saved"
    );
}

#[test]
fn a_category_plan_shows_on_its_machines_and_a_machines_own_plan_overrides_it() {
    let w = World::new();
    let h0 = started(&w);
    let (id, category, meter) = machine_with_meter(&h0);
    let others: Vec<i64> = h0
        .state()
        .state()
        .fleet()
        .equipments
        .iter()
        .filter(|e| e.id != id && e.category.as_deref() == Some(category.as_str()))
        .map(|e| e.id)
        .collect();
    drop(h0);
    w.seed(Plan {
        scope: PlanScope::Category(category.clone()),
        task: "Engine oil and filter".into(),
        every: 500.0,
        unit: PlanUnit::Hours,
        last_done: None,
    });
    w.seed(oil(id, 250.0, meter - 10.0));
    let mut h = started(&w);
    open_service_tab(&mut h, id);
    let s = h.state().state().service();
    let mine = &s.of(id).unwrap().items;
    assert_eq!(mine.len(), 1, "its own plan, not the category's too");
    assert_eq!(mine[0].plan.plan.every, 250.0);
    for other in others {
        let items = &s.of(other).expect("the category's plan applies").items;
        assert_eq!(items.len(), 1);
        assert!(items[0].from_category);
        assert_eq!(items[0].status, DueStatus::Unknown, "never done");
    }
    if let Some(other) = s.machines.keys().copied().find(|k| *k != id) {
        open_service_tab(&mut h, other);
        assert!(has_text(&h, "never"));
        assert!(h.query_by_label("Unknown").is_some());
    }
}

#[test]
fn the_fleet_page_counts_machines_with_a_service_due_and_shows_it_in_the_service_column() {
    let w = World::new();
    let h0 = started(&w);
    let s = h0.state().state();
    let metered: Vec<(i64, f64)> = s
        .fleet()
        .equipments
        .iter()
        .filter_map(|e| {
            Some((
                e.id,
                s.overview()
                    .snapshots
                    .get(&e.id)
                    .map(MetersNow::of)?
                    .hours_h?,
            ))
        })
        .take(3)
        .collect();
    drop(h0);
    // Two overdue (by 50 h), one fine.
    w.seed(oil(metered[0].0, 250.0, metered[0].1 - 300.0));
    w.seed(oil(metered[1].0, 250.0, metered[1].1 - 300.0));
    w.seed(oil(metered[2].0, 250.0, metered[2].1 - 10.0));
    let mut h = started(&w);
    wait_until(&mut h, "the services assessed", |app| {
        app.state().overview().service.len() == 3
    });
    h.run_steps(3);
    let count = h
        .get_all_by_role(Role::Button)
        .find_map(|n| {
            n.accesskit_node()
                .label()
                .filter(|l| l.starts_with("Service due: "))
        })
        .expect("a Service due count");
    assert_eq!(count, "Service due: 2");
    // The Service column says it.
    let overdue = h
        .state()
        .state()
        .overview()
        .service
        .get(&metered[0].0)
        .cloned()
        .unwrap();
    assert_eq!(overdue.0, DueStatus::Overdue);
    assert!(
        overdue
            .1
            .starts_with("Engine oil and filter overdue by 50 h"),
        "{}",
        overdue.1
    );
    assert!(
        h.query_all_by_label_contains("Engine oil and filter overdue by")
            .next()
            .is_some()
    );
    // The count filters the table to those two.
    h.get_by_role_and_label(Role::Button, "Service due: 2")
        .click();
    h.run_steps(2);
    let shown: Vec<i64> = h
        .state()
        .state()
        .overview()
        .rows()
        .iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert!(shown.contains(&metered[0].0) && shown.contains(&metered[1].0));
}

#[test]
fn a_damaged_service_book_is_shown_read_only_and_never_overwritten() {
    let w = World::new();
    let path = w.book_path();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let junk = b"not a service book at all\n".repeat(200);
    std::fs::write(&path, &junk).unwrap();
    let mut h = app_with(w.options());
    wait_for_fleet(&mut h, None);
    wait_until(&mut h, "the service book read", |app| {
        app.state().service().read_only.is_some()
    });
    let id = h.state().state().fleet().equipments[0].id;
    open_service_tab(&mut h, id);
    assert!(has_text(&h, "read-only"), "it says so");
    let add = h.get_by_role_and_label(Role::Button, "Add plan…");
    assert!(add.accesskit_node().is_disabled(), "nothing can be added");
    drop(h);
    assert_eq!(
        std::fs::read(Path::new(&path)).unwrap(),
        junk,
        "the file is untouched"
    );
}

#[test]
fn the_plans_and_the_upcoming_services_export_from_the_tab_and_read_back() {
    let w = World::new();
    let h0 = started(&w);
    let (id, _, meter) = machine_with_meter(&h0);
    drop(h0);
    w.seed(oil(id, 250.0, meter - 100.0));
    let mut h = started(&w);
    open_service_tab(&mut h, id);
    usage_read(&mut h, id);
    let (path, rows) = export_via_ui(
        &mut h,
        Some("Export…"),
        "Plans (CSV)",
        "service plans (CSV)",
    );
    assert_eq!(rows, 1);
    let bytes = std::fs::read(&path).unwrap();
    let read =
        fleetview_core::service::import::read_csv(&bytes, 0).expect("the import reads it back");
    let fleetview_core::service::import::Imported::Plans(plans) = read else {
        panic!("plans")
    };
    let (read, seeded) = (&plans[0].1, oil(id, 250.0, meter - 100.0));
    assert_eq!(
        (&read.scope, &read.task, read.every, read.unit),
        (&seeded.scope, &seeded.task, 250.0, PlanUnit::Hours)
    );
    let (a, b) = (read.last_done.unwrap(), seeded.last_done.unwrap());
    assert_eq!(a.day, b.day);
    assert!((a.meter.unwrap() - b.meter.unwrap()).abs() < 1e-3);
    let (path, events) = export_via_ui(
        &mut h,
        Some("Export…"),
        "Upcoming services (iCalendar)",
        "upcoming services (iCalendar)",
    );
    assert_eq!(events, 1, "the machine's one dated service");
    let ics = std::fs::read_to_string(&path).unwrap();
    assert!(ics.starts_with("BEGIN:VCALENDAR\r\n"));
    assert!(ics.contains("SUMMARY:Engine oil and filter: "), "{ics}");
}

#[test]
fn on_the_embedded_sandbox_the_service_book_opens_writable() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("service.sqlite");
    let options = AppOptions {
        clock: Some(common::now()),
        service_book_path: Some(path.clone()),
        ..AppOptions::default()
    };
    let mut h = app_with(options);
    wait_for_fleet(&mut h, None);
    wait_until(&mut h, "the service book open", |app| {
        matches!(app.state().service().book, Loadable::Ready(_))
    });
    assert_eq!(h.state().state().service().read_only, None);
    let id = h.state().state().fleet().equipments[0].id;
    open_service_tab(&mut h, id);
    let add = h.get_by_role_and_label(Role::Button, "Add plan…");
    assert!(!add.accesskit_node().is_disabled());
    assert!(path.exists(), "the file is made");
}

#[test]
fn delete_asks_first_so_a_double_click_deletes_nothing() {
    let w = World::new();
    let h0 = started(&w);
    let (id, _, meter) = machine_with_meter(&h0);
    drop(h0);
    w.seed(oil(id, 250.0, meter - 10.0));
    w.seed(Plan {
        task: "Air filter".into(),
        ..oil(id, 500.0, meter - 10.0)
    });
    let mut h = started(&w);
    open_service_tab(&mut h, id);
    let delete = "Delete plan: Air filter";
    h.get_by_role_and_label(Role::Button, delete).click();
    h.step();
    h.get_by_role_and_label(Role::Button, delete).click();
    h.run_steps(3);
    assert_eq!(
        w.store().book(&w.scope()).unwrap().plans.len(),
        2,
        "nothing deleted yet"
    );
    // While it asks, the keys are the question's: no shortcut fires.
    let preset = h.state().state().settings().preset;
    h.key_press(egui::Key::Num5);
    h.run_steps(2);
    assert_eq!(h.state().state().settings().preset, preset);
    h.get_by_role_and_label(Role::Button, "Delete the plan")
        .click();
    wait_until(&mut h, "one plan deleted", |app| {
        app.state()
            .service()
            .book
            .value()
            .is_some_and(|b| b.plans.len() == 1)
    });
    let left = w.store().book(&w.scope()).unwrap().plans;
    assert_eq!(
        left[0].plan.task, "Engine oil and filter",
        "the other one stays"
    );
}
