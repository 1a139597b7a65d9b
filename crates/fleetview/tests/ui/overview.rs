//! The fleet overview, the page the app opens on (issue [T2 5/9]): the real
//! app on the embedded sandbox, driven through the accessibility tree; each
//! expectation is read from the sandbox's own endpoints.

use crate::common;

use std::collections::HashMap;

use common::ui::{service_get, wait_until};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::Tab;
use fleetview::shell::{AppOptions, FleetApp};
use fleetview_api::equipment::EquipmentSnapshot;
use fleetview_api::time::SECS_PER_DAY;
use fleetview_core::analysis::MachineState;
use serde_json::Value;

fn harness() -> Harness<'static, FleetApp> {
    common::ui::embedded_app()
}

/// The embedded sandbox's address.
fn base(h: &Harness<'static, FleetApp>) -> String {
    h.state()
        .state()
        .conn()
        .embedded
        .as_ref()
        .expect("the embedded sandbox runs")
        .base_url
        .clone()
}

/// Steps until the fleet and its snapshots are read.
fn loaded(h: &mut Harness<'static, FleetApp>) {
    wait_until(h, "the fleet and its snapshots", |app| {
        let s = app.state();
        !s.fleet().loading
            && !s.fleet().equipments.is_empty()
            && !s.overview().status.loading
            && !s.overview().snapshots.is_empty()
            // The rows move as the strip's look-back arrives (worst first).
            && s.overview().look_back.loading(s.fleet().equipments.len()) == 0
    });
}

/// Every row of a list endpoint, page by page.
fn every_row(base: &str, path: &str) -> Vec<Value> {
    let mut rows = Vec::new();
    loop {
        let page = service_get(base, &format!("{path}?limit=50&offset={}", rows.len()));
        let data = &page["data"];
        let got = data["rows"].as_array().cloned().unwrap_or_default();
        let total = data["total"].as_u64().unwrap_or(0) as usize;
        let empty = got.is_empty();
        rows.extend(got);
        if empty || rows.len() >= total {
            return rows;
        }
    }
}

/// When each machine last reported, by the sandbox's snapshots: the
/// latest date of any member.
fn last_reports(base: &str) -> HashMap<i64, i64> {
    every_row(base, "v2/fleet/equipments/snapshot")
        .into_iter()
        .filter_map(|v| serde_json::from_value::<EquipmentSnapshot>(v).ok())
        .filter_map(|s| Some((s.id, fleetview_core::analysis::last_report(&s)?)))
        .collect()
}

/// The table's node for a machine's name: the one right of the list.
fn table_cell<'a>(h: &'a Harness<'static, FleetApp>, name: &'a str) -> egui_kittest::Node<'a> {
    h.get_all_by_label(name)
        .max_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .unwrap_or_else(|| panic!("{name} is shown"))
}

#[test]
fn the_app_starts_on_the_overview_with_a_row_per_machine_of_the_list() {
    let mut h = harness();
    h.run_steps(2);
    assert_eq!(h.state().state().tab(), Tab::Fleet, "the first page");
    loaded(&mut h);
    let list = service_get(&base(&h), "v2/fleet/equipments?limit=1&offset=0");
    let total = list["data"]["total"].as_u64().expect("a total") as usize;
    assert!(total > 0);
    assert_eq!(h.state().state().overview().rows().len(), total);
    h.get_by_label(&format!("{total} of {total} machines shown"));
    h.get_by_role_and_label(Role::Button, "Fleet");
}

#[test]
fn sorting_by_last_report_puts_the_most_recent_first() {
    let mut h = harness();
    loaded(&mut h);
    let reports = last_reports(&base(&h));
    let newest = reports.values().copied().max().expect("reports");
    h.get_by_role_and_label(Role::Button, "Last report").click();
    h.run_steps(3);
    let rows = h.state().state().overview().rows().to_vec();
    assert_eq!(rows[0].last_report, Some(newest));
    assert!(reports.get(&rows[0].id) == Some(&newest));
    // Newest first all the way down, as the table shows them.
    let times: Vec<i64> = rows.iter().filter_map(|r| r.last_report).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");
    let fleet = &h.state().state().fleet().equipments;
    let (first, second) = (&fleet[rows[0].index].name, &fleet[rows[1].index].name);
    assert!(
        table_cell(&h, first).rect().top() < table_cell(&h, second).rect().top(),
        "{first} is above {second} in the table"
    );
}

#[test]
fn a_category_filter_leaves_exactly_that_categorys_machines() {
    let mut h = harness();
    loaded(&mut h);
    let list = every_row(&base(&h), "v2/fleet/equipments");
    let category = "Excavator";
    let mut expected: Vec<i64> = list
        .iter()
        .filter(|e| e["category"].as_str() == Some(category))
        .filter_map(|e| e["id"].as_i64())
        .collect();
    expected.sort_unstable();
    assert!(!expected.is_empty() && expected.len() < list.len());
    h.get_by_role_and_label(Role::ComboBox, "Category").click();
    h.run_steps(3);
    h.get_by_role_and_label(Role::Button, category).click();
    h.run_steps(3);
    let mut shown = table_ids(&h);
    shown.sort_unstable();
    assert_eq!(shown, expected);
    h.get_by_label(&format!(
        "{} of {} machines shown",
        expected.len(),
        list.len()
    ));
}

#[test]
fn clicking_a_table_row_opens_that_machines_history() {
    let mut h = harness();
    loaded(&mut h);
    let state = h.state().state();
    let row = state.overview().rows()[2];
    let name = state.fleet().equipments[row.index].name.clone();
    table_cell(&h, &name).click();
    h.run_steps(3);
    let state = h.state().state();
    assert_eq!(state.selected(), Some(row.id));
    assert!(state.tab().is_machine_tab(), "on {:?}", state.tab());
    // The machine's page: its name above its tables.
    h.get_by_label("Daily history");
    assert!(h.query_all_by_label(&name).count() >= 1, "its heading");
    // Back to the overview: the machine's loaded data stays.
    wait_until(&mut h, "the machine's faults", |app| {
        app.state().faults().value().is_some()
    });
    h.get_by_role_and_label(Role::Button, "Fleet").click();
    h.run_steps(3);
    assert_eq!(h.state().state().tab(), Tab::Fleet);
    assert!(h.state().state().faults().value().is_some(), "kept");
}

#[test]
fn the_arrow_keys_move_through_the_table_and_enter_opens() {
    let mut h = harness();
    loaded(&mut h);
    press(&mut h, egui::Key::ArrowDown);
    press(&mut h, egui::Key::ArrowDown);
    // The machine marked (rows may move meanwhile: the attention sort
    // follows the look-back as it is read).
    let marked = marked(&h).expect("a row marked");
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    let state = h.state().state();
    assert_eq!(state.selected(), Some(marked));
    assert!(state.tab().is_machine_tab());
}

#[test]
fn a_machine_silent_for_more_than_a_day_is_marked_so() {
    let mut h = harness();
    loaded(&mut h);
    let now = common::now();
    let reports = last_reports(&base(&h));
    let silent: Vec<i64> = reports
        .iter()
        .filter(|(_, t)| now - **t > SECS_PER_DAY)
        .map(|(id, _)| *id)
        .collect();
    assert!(
        !silent.is_empty(),
        "the sandbox has a machine silent for a day at {now}: ages {:?}",
        {
            let mut ages: Vec<i64> = reports.values().map(|t| (now - t) / 3600).collect();
            ages.sort_unstable();
            ages
        }
    );
    let state = h.state().state();
    for r in state.overview().rows() {
        assert_eq!(
            r.state == MachineState::Silent,
            silent.contains(&r.id),
            "machine {} ({:?})",
            r.id,
            r.state
        );
    }
    // Shown in its row: filter on the state to bring them to the top.
    h.get_by_role_and_label(Role::ComboBox, "State").click();
    h.run_steps(3);
    h.get_by_role_and_label(Role::Button, "Silent > 24 h")
        .click();
    h.run_steps(3);
    assert_eq!(h.state().state().overview().rows().len(), silent.len());
    assert!(h.query_all_by_label("Silent > 24 h").count() >= silent.len().min(5));
}

#[test]
fn started_with_the_service_down_the_overview_shows_the_snapshots_as_last_read() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let sb = rt.block_on(common::start_with(common::fixed_config().fleet_size(30)));
    let options = {
        let (base, token) = (sb.base.clone(), sb.token.clone());
        let cache = dir.path().join("cache.sqlite");
        move || AppOptions {
            service: Some(fleetview::shell::ServiceOptions {
                base_url: base.clone(),
                token: Some(fleetview_api::model::SecretValue::new(token.clone())),
                api_key: None,
                allow_insecure_http: false,
            }),
            cache_path: Some(cache.clone()),
            clock: Some(common::now()),
            ..AppOptions::default()
        }
    };
    let build = |options: AppOptions| {
        Harness::builder()
            .with_size(egui::vec2(1400.0, 900.0))
            .build_eframe(move |cc| FleetApp::new(cc, options))
    };
    let mut h = build(options());
    loaded(&mut h);
    let online: Vec<(i64, Option<i64>)> = h
        .state()
        .state()
        .overview()
        .rows()
        .iter()
        .map(|r| (r.id, r.last_report))
        .collect();
    assert_eq!(online.len(), 30);
    drop(h);
    rt.block_on(sb.running.shutdown());

    let mut h = build(options());
    wait_until(&mut h, "the snapshots as last read", |app| {
        let s = app.state();
        s.overview().status.cached_at.is_some() && s.fleet().cached_at.is_some()
    });
    h.run_steps(3);
    let offline: Vec<(i64, Option<i64>)> = h
        .state()
        .state()
        .overview()
        .rows()
        .iter()
        .map(|r| (r.id, r.last_report))
        .collect();
    // In any order: the attention sort follows what is read meanwhile.
    let (mut offline, mut online) = (offline, online);
    offline.sort();
    online.sort();
    assert_eq!(offline, online, "the same machines, reported as then");
    h.get_by_label_contains("Offline: snapshots of");
}

/// Found by using the app: sorting by a window column while its figures
/// load put a note above the table, which moved down and back under the
/// mouse.
#[test]
fn sorting_by_a_window_column_while_it_loads_moves_nothing() {
    let mut h = harness();
    // As soon as the table lists the fleet, while most figures are still
    // to come (after the snapshots, they could all be in already).
    wait_until(&mut h, "the fleet, its figures under way", |app| {
        let s = app.state();
        let n = s.fleet().equipments.len();
        !s.fleet().loading && n > 0 && s.overview().figures_loading(n) > n / 2
    });
    let header =
        |h: &Harness<'static, FleetApp>| h.get_by_label_contains("Hours in window").rect().top();
    let before = header(&h);
    h.get_by_label_contains("Hours in window").click();
    h.run_steps(2);
    let loading = {
        let s = h.state().state();
        s.overview().figures_loading(s.fleet().equipments.len())
    };
    assert!(loading > 0, "the figures are still loading");
    assert_eq!(header(&h), before);
    let probe = |h: &Harness<'static, FleetApp>| {
        ["Needs attention", "Worst first", "Clear filters", "Refresh"]
            .map(|l| h.query_by_label_contains(l).map(|n| n.rect().top()))
    };
    let p0 = probe(&h);
    wait_until(&mut h, "every machine's figures", |app| {
        let s = app.state();
        s.overview().figures_loading(s.fleet().equipments.len()) == 0
    });
    assert_eq!(header(&h), before, "{p0:?} {:?}", probe(&h));
}

#[test]
fn the_table_marks_one_row_the_machine_opened_elsewhere_and_the_keys_go_on_from_it() {
    let mut h = harness();
    loaded(&mut h);
    // Marked with the keys, then another machine opened from the list.
    press(&mut h, egui::Key::ArrowDown);
    let rows = table_ids(&h);
    let third = rows[2];
    open_in_list(&mut h, third);
    to_tab(&mut h, "Fleet");
    assert_eq!(
        marked(&h),
        Some(third),
        "the row marked is the machine open, not the one marked before"
    );
    press(&mut h, egui::Key::ArrowDown);
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    assert_eq!(h.state().state().selected(), Some(rows[3]), "the next one");
}

#[test]
fn back_on_the_fleet_tab_the_open_machine_is_marked_whatever_the_keys_did() {
    let mut h = harness();
    loaded(&mut h);
    // Two machines at the top of the list on the left.
    let listed: Vec<i64> = h
        .state()
        .state()
        .fleet()
        .equipments
        .iter()
        .map(|e| e.id)
        .collect();
    let (first, other) = (listed[0], listed[3]);
    open_in_list(&mut h, first);
    to_tab(&mut h, "Fleet");
    for _ in 0..2 {
        press(&mut h, egui::Key::ArrowDown);
    }
    assert_ne!(
        h.state().view().overview.table.cursor,
        Some(first),
        "the keys moved on"
    );
    // Away: another machine, then the first again.
    to_tab(&mut h, "Machine history");
    open_in_list(&mut h, other);
    open_in_list(&mut h, first);
    to_tab(&mut h, "Fleet");
    assert_eq!(
        marked(&h),
        Some(first),
        "back on the table, the machine open is the one marked"
    );
}

/// Opens machine `id` from the list on the left.
fn open_in_list(h: &mut Harness<'static, FleetApp>, id: i64) {
    let name = common::ui::equipment_name(h.state(), id);
    common::ui::pick(h, &name);
    h.run_steps(3);
}

fn to_tab(h: &mut Harness<'static, FleetApp>, tab: &str) {
    h.get_by_role_and_label(Role::Button, tab).click();
    h.run_steps(3);
}

/// The Fleet table's marked row.
fn marked(h: &Harness<'static, FleetApp>) -> Option<i64> {
    h.state().view().overview.table.cursor
}

fn press(h: &mut Harness<'static, FleetApp>, key: egui::Key) {
    h.key_press(key);
    h.run_steps(2);
}

/// The machines of the Fleet table's rows, in order.
fn table_ids(h: &Harness<'static, FleetApp>) -> Vec<i64> {
    h.state()
        .state()
        .overview()
        .rows()
        .iter()
        .map(|r| r.id)
        .collect()
}
