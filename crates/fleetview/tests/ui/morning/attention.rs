//! The "needs attention" strip at the top of the Fleet page (issue 37 item
//! 1), on the embedded sandbox: its counts against what the sandbox
//! planted and serves, a count filtering the table, the look-back apart
//! from the figures' window, and a flag opening the machine at its event.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use common::ui::{embedded_app, service_body, service_get, wait_until};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fleetview::app::Tab;
use fleetview::shell::FleetApp;
use fleetview_api::equipment::EquipmentSnapshot;
use fleetview_api::model::FaultRow;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_sandbox::Clock;
use fleetview_sandbox::simulate::{Planted, PlantedKind, Simulator};

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

/// The app on the Fleet page with every machine's look-back read.
fn looked_back() -> Harness<'static, FleetApp> {
    let mut h = embedded_app();
    wait_until(&mut h, "every machine's look-back", |app| {
        let s = app.state();
        let n = s.fleet().equipments.len();
        n > 0
            && !s.fleet().loading
            && !s.overview().status.loading
            && !s.overview().snapshots.is_empty()
            && s.overview().look_back.window.is_some()
            && s.overview().look_back.loading(n) == 0
    });
    h
}

fn look_back_window(h: &Harness<'static, FleetApp>) -> TimeWindow {
    h.state()
        .state()
        .overview()
        .look_back
        .window
        .expect("a look-back")
}

/// What the simulator planted of `kind` in `w`, machine by machine (only
/// machines with some).
fn planted(
    h: &Harness<'static, FleetApp>,
    kind: PlantedKind,
    w: TimeWindow,
) -> BTreeMap<i64, Vec<Planted>> {
    let fleet = h.state().state().fleet().equipments.clone();
    let sim = Simulator::new(fleet.len() as u64, Clock::Fixed(common::now()));
    fleet
        .iter()
        .filter_map(|e| {
            let got: Vec<Planted> = sim
                .planted(e.id, w)
                .into_iter()
                .filter(|p| p.kind == kind)
                .collect();
            (!got.is_empty()).then_some((e.id, got))
        })
        .collect()
}

/// The text of the strip's button that starts with `prefix`.
fn count_button(h: &Harness<'static, FleetApp>, prefix: &str) -> String {
    let node = h
        .get_all_by_role(Role::Button)
        .find(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with(prefix))
        })
        .unwrap_or_else(|| panic!("a button {prefix}…"));
    node.accesskit_node().label().unwrap_or_default()
}

fn table_ids(h: &Harness<'static, FleetApp>) -> BTreeSet<i64> {
    h.state()
        .state()
        .overview()
        .rows()
        .iter()
        .map(|r| r.id)
        .collect()
}

#[test]
fn the_attention_strip_counts_what_the_sandbox_planted_and_serves() {
    let h = looked_back();
    let w = look_back_window(&h);
    assert_eq!(
        w.until - w.since + 1,
        30 * SECS_PER_DAY,
        "30 days by default"
    );
    let drains = planted(&h, PlantedKind::Drain, w);
    let resets = planted(&h, PlantedKind::CounterReset, w);
    assert!(
        !drains.is_empty() && !resets.is_empty(),
        "planted in 30 days"
    );
    assert_eq!(
        count_button(&h, "Suspected drains: "),
        format!("Suspected drains: {}", drains.len())
    );
    assert_eq!(
        count_button(&h, "Meter resets: "),
        format!("Meter resets: {}", resets.len())
    );

    // Silent: by the service's own snapshots, more than 24 h or never.
    let base = base(&h);
    let now = common::now();
    let fleet = h.state().state().fleet().equipments.clone();
    let mut snapshots: BTreeMap<i64, EquipmentSnapshot> = BTreeMap::new();
    loop {
        let page = service_get(
            &base,
            &format!(
                "v2/fleet/equipments/snapshot?limit=50&offset={}",
                snapshots.len()
            ),
        );
        let rows = page["data"]["rows"].as_array().cloned().unwrap_or_default();
        if rows.is_empty() {
            break;
        }
        for r in rows {
            let s: EquipmentSnapshot = serde_json::from_value(r).expect("a snapshot");
            snapshots.insert(s.id, s);
        }
    }
    let silent = fleet
        .iter()
        .filter(|e| {
            snapshots
                .get(&e.id)
                .and_then(fleetview_core::analysis::last_report)
                .is_none_or(|t| now - t > SECS_PER_DAY)
        })
        .count();
    assert_eq!(
        count_button(&h, "Silent > 24 h: "),
        format!("Silent > 24 h: {silent}")
    );

    // Faults: each machine once, by the worst level of the service's rows.
    let mut levels: BTreeMap<String, usize> = BTreeMap::new();
    for e in &fleet {
        let rows = service_body(&base, e.id, "faults", w)["data"]["rows"].clone();
        let rows: Vec<FaultRow> = serde_json::from_value(rows).expect("fault rows");
        if let Some(worst) = rows.iter().max_by_key(|r| r.severity.unwrap_or(-1)) {
            *levels.entry(worst.level().to_owned()).or_default() += 1;
        }
    }
    assert!(!levels.is_empty(), "faults in 30 days");
    for (level, n) in &levels {
        // The level as a button's text starts: `error` reads `Error`.
        let mut c = level.chars();
        let level: String = c
            .next()
            .into_iter()
            .flat_map(char::to_uppercase)
            .chain(c)
            .collect();
        assert_eq!(
            count_button(&h, &format!("{level} faults: ")),
            format!("{level} faults: {n}")
        );
    }
    let shown = h
        .get_all_by_role(Role::Button)
        .filter(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.contains(" faults: "))
        })
        .count();
    assert_eq!(shown, levels.len(), "one count per level present");
}

#[test]
fn a_click_on_an_attention_count_shows_exactly_those_machines_and_a_second_click_all() {
    let mut h = looked_back();
    let w = look_back_window(&h);
    let all = table_ids(&h);
    let drained: BTreeSet<i64> = planted(&h, PlantedKind::Drain, w).into_keys().collect();
    let label = count_button(&h, "Suspected drains: ");
    h.get_by_label(&label).click();
    h.run_steps(3);
    assert_eq!(table_ids(&h), drained);
    let shown = format!("{} of {} machines shown", drained.len(), all.len());
    h.get_by_label(&shown);
    // Visible as such: the button is selected; a second click shows all.
    let node = h.get_by_label(&label);
    let n = node.accesskit_node();
    assert!(
        n.is_selected() == Some(true) || n.toggled() == Some(egui::accesskit::Toggled::True),
        "the active filter shows: {n:?}"
    );
    h.get_by_label("× Show all");
    h.get_by_label(&label).click();
    h.run_steps(3);
    assert_eq!(table_ids(&h), all);
    // And the ×.
    let resets: BTreeSet<i64> = planted(&h, PlantedKind::CounterReset, w)
        .into_keys()
        .collect();
    let worst_first_at = h.get_by_label("Worst first").rect();
    h.get_by_label(&count_button(&h, "Meter resets: ")).click();
    h.run_steps(3);
    assert_eq!(table_ids(&h), resets);
    assert_eq!(
        h.get_by_label("Worst first").rect(),
        worst_first_at,
        "nothing in the strip moves as a filter comes"
    );
    h.get_by_label("× Show all").click();
    h.run_steps(3);
    assert_eq!(table_ids(&h), all);
    assert!(
        h.get_by_label("× Show all").accesskit_node().is_disabled(),
        "nothing to remove"
    );
    // Worst first by default; a header's click sorts by its column, and
    // *Worst first* brings the attention sort back.
    let worst_first = |h: &Harness<'static, FleetApp>| {
        let o = h.state().state().overview();
        let ranks: Vec<_> = o
            .rows()
            .iter()
            .map(|r| o.look_back.machines.get(&r.id).map(|m| m.rank))
            .collect();
        ranks.windows(2).all(|w| w[0] >= w[1])
    };
    assert!(worst_first(&h));
    h.get_by_role_and_label(Role::Button, "Name").click();
    h.run_steps(3);
    assert!(!h.state().state().overview().settings.sort.attention_first);
    assert!(!worst_first(&h), "by name now");
    h.get_by_label("Worst first").click();
    h.run_steps(3);
    assert!(worst_first(&h));
}

/// A machine with a drain planted 8 to 30 days ago and none in the last
/// 7 days, and that drain.
fn drain_before_the_week(h: &Harness<'static, FleetApp>) -> (i64, Planted) {
    let w = look_back_window(h);
    let week = h.state().state().selected_window();
    let recent = planted(h, PlantedKind::Drain, week);
    planted(h, PlantedKind::Drain, w)
        .into_iter()
        .find(|(id, _)| !recent.contains_key(id))
        .map(|(id, p)| (id, p[p.len() - 1]))
        .expect("a drain older than a week")
}

#[test]
fn the_attention_look_back_flags_a_drain_older_than_the_figures_week() {
    let mut h = looked_back();
    let week = h.state().state().selected_window();
    assert_eq!(
        week.until - week.since + 1,
        7 * SECS_PER_DAY,
        "figures on 7 days"
    );
    let (id, drain) = drain_before_the_week(&h);
    assert!(drain.start < week.since);
    wait_until(&mut h, "the machine's figures for the week", |app| {
        app.state()
            .overview()
            .figures_of(id)
            .is_some_and(|f| f.value().is_some())
    });
    let figures = h
        .state()
        .state()
        .overview()
        .figures_of(id)
        .and_then(|f| f.value())
        .cloned()
        .expect("figures");
    assert_eq!(figures.flags.fuel_drops, 0, "none in the figures' week");
    let items = h.state().state().overview().look_back.items_of(id).to_vec();
    assert!(
        items
            .iter()
            .any(|a| a.kind.key() == "fuel_drop" && a.at == Some(drain.start)),
        "the look-back flags it: {items:?}"
    );
    // Looking back 7 days instead: the counts are the week's.
    h.get_by_label("in the last").click();
    h.run_steps(2);
    h.get_by_label("7 days").click();
    wait_until(&mut h, "the week's look-back", |app| {
        let s = app.state();
        let lb = &s.overview().look_back;
        lb.window == Some(week) && lb.loading(s.fleet().equipments.len()) == 0
    });
    let in_week = planted(&h, PlantedKind::Drain, week).len();
    assert_eq!(
        count_button(&h, "Suspected drains: "),
        format!("Suspected drains: {in_week}")
    );
    assert!(
        !h.state()
            .state()
            .overview()
            .look_back
            .items_of(id)
            .iter()
            .any(|a| a.kind.key() == "fuel_drop")
    );
}

#[test]
fn a_click_on_an_attention_flag_opens_the_machine_at_its_event() {
    let mut h = looked_back();
    let (id, drain) = drain_before_the_week(&h);
    // Only the drained machines; the Flags column brought into view.
    h.get_by_label(&count_button(&h, "Suspected drains: "))
        .click();
    h.run_steps(3);
    h.get_by_role_and_label(Role::Button, "Flags")
        .scroll_to_me();
    h.run_steps(3);
    let name = common::ui::equipment_name(h.state(), id);
    let y = h
        .get_all_by_label(&name)
        .max_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .expect("its row")
        .rect()
        .center()
        .y;
    let flags = h
        .get_all_by_label_contains("⚠ ")
        .find(|n| (n.rect().center().y - y).abs() < 4.0)
        .expect("its Flags cell");
    flags.click();
    h.run_steps(2);
    let item = h
        .get_all_by_role(Role::Button)
        .find(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with("Suspected fuel drain"))
        })
        .expect("its drain in the menu")
        .accesskit_node()
        .label()
        .unwrap_or_default();
    h.get_by_label(&item).click();
    h.run_steps(2);
    let s = h.state().state();
    assert_eq!(s.selected(), Some(id));
    assert_eq!(s.tab(), Tab::Events);
    assert_eq!(
        s.timeline().cursor,
        Some(drain.start),
        "the cursor at the drain"
    );
    let window = s.window().expect("a window");
    assert!(window.since <= drain.start && drain.start <= window.until);
    wait_until(&mut h, "the machine's page and its events", |app| {
        let r = &app.state().figures().report;
        common::ui::all_loaded(app) && !r.is_pending() && r.value().is_some()
    });
    h.run_steps(3);
    assert_eq!(h.state().state().timeline().cursor, Some(drain.start));
    // The Events tab lists it, as the strip found it.
    let report = h
        .state()
        .state()
        .figures()
        .report
        .value()
        .cloned()
        .expect("a report");
    assert!(
        report
            .events
            .iter()
            .any(|e| e.kind == fleetview_core::analysis::EventKind::FuelDrop
                && e.start == drain.start),
        "the drain is among the page's events"
    );
    // ... and its row is in view, scrolled to, among the others (only the
    // rows in view are drawn; the kind's chip in the row names it).
    let screen = h.ctx.content_rect();
    let in_view = h
        .query_all_by_value(" Suspected drain ")
        .any(|n| screen.contains_rect(n.rect()));
    assert!(in_view, "the drain's row is in view");
    // The map on where the machine was at the drain, by the service's
    // positions (the last one at or before it).
    let positions = service_body(&base(&h), id, "positions", window)["data"]["rows"].clone();
    let rows: Vec<fleetview_api::model::PositionRow> =
        serde_json::from_value(positions).expect("positions");
    let at = rows
        .iter()
        .filter(|p| p.date.0 <= drain.start)
        .max_by_key(|p| p.date.0)
        .expect("a position before the drain");
    let want = fleetview_api::geo::mercator(at.latitude, at.longitude).expect("finite");
    let view = h.state().view().map.frame().expect("the map is drawn").view;
    let c = view.center();
    let tolerance = (view.max[0] - view.min[0]) / 100.0;
    assert!(
        (c[0] - want[0]).abs() < tolerance && (c[1] - want[1]).abs() < tolerance,
        "the map centres on the drain's place: {c:?} vs {want:?}"
    );
}
