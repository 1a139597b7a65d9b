//! The window's events (D16) on the machine page, against the embedded
//! sandbox: the Events tab's rows move the cursor and the map, filter and
//! sort; the plots' event lane names the kinds present.

use crate::common;

use std::collections::BTreeSet;

use common::ui::{drag, embedded_app, pick, wait_until};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fleetview::shell::FleetApp;
use fleetview::ui::events::kinds::event_style;
use fleetview::ui::format;
use fleetview_core::analysis::{Event, EventKind};

const EXCAVATOR: &str = "EX-001 Volvo EC220E (Rotterdam)";

/// Opens the excavator's last 7 days on the Events tab and waits for its
/// events.
fn open_events() -> Harness<'static, FleetApp> {
    let mut h = embedded_app();
    wait_until(&mut h, "the fleet", |app| {
        !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
    });
    pick(&h, EXCAVATOR);
    h.step();
    h.get_by_label("Last 7 days").click();
    h.run_steps(2);
    h.get_by_label("Events").click();
    wait_until(&mut h, "the window's events", |app| {
        let r = &app.state().figures().report;
        !r.is_pending() && r.value().is_some_and(|r| !r.events.is_empty())
    });
    h
}

fn events(h: &Harness<'static, FleetApp>) -> Vec<Event> {
    let report = h
        .state()
        .state()
        .figures()
        .report
        .value()
        .expect("a report");
    report.events.clone()
}

/// The events the tab lists, in its order.
fn listed(h: &Harness<'static, FleetApp>) -> Vec<Event> {
    let all = events(h);
    h.state()
        .view()
        .events
        .shown()
        .iter()
        .map(|i| all[*i].clone())
        .collect()
}

#[test]
fn clicking_an_event_moves_the_cursor_and_the_map_there() {
    let mut h = open_events();
    let rows = listed(&h);
    let local = h.state().state().local_time();
    let time = |e: &Event| format::format_time(e.start, local);
    // A row near the top (on screen), with a place, alone at its time.
    let e = rows
        .iter()
        .take(5)
        .find(|e| e.position.is_some() && rows.iter().filter(|o| time(o) == time(e)).count() == 1)
        .expect("an event with a place among the first rows")
        .clone();
    let before = h.state().view().map.frame().expect("the map is drawn").view;
    h.get_by_label(&time(&e)).click();
    h.run_steps(4);
    assert_eq!(h.state().state().timeline().cursor, Some(e.start));
    let view = h.state().view().map.frame().expect("the map is drawn").view;
    let p = e.position.expect("a place");
    let want = fleetview_api::geo::mercator(p.lat, p.lon).expect("finite");
    let c = view.center();
    let tolerance = (view.max[0] - view.min[0]) / 100.0;
    assert!(
        (c[0] - want[0]).abs() < tolerance && (c[1] - want[1]).abs() < tolerance,
        "the map centres on {p:?}: {c:?} vs {want:?} (was {:?})",
        before.center()
    );
}

#[test]
fn the_event_lane_names_the_kinds_present_and_no_others() {
    let h = open_events();
    let present: BTreeSet<&str> = events(&h)
        .iter()
        .map(|e| event_style(e.kind).many)
        .collect();
    assert!(
        present.len() >= 2,
        "the sandbox's week has several kinds: {present:?}"
    );
    let node = h.get_by_label_contains("Events: ");
    let node = node.accesskit_node();
    let label = node.label().or_else(|| node.value()).expect("a label");
    let named: BTreeSet<&str> = label
        .strip_prefix("Events: ")
        .expect("the lane's name")
        .split(", ")
        .collect();
    assert_eq!(named, present, "{label}");
}

#[test]
fn filtering_by_kind_hides_the_others() {
    let mut h = open_events();
    let all = events(&h);
    let stops = all.iter().filter(|e| e.kind == EventKind::Stop).count();
    assert!(stops > 0 && stops < all.len(), "stops and others");
    h.get_by_label(&format!("Stop ({stops})")).click();
    h.run_steps(2);
    let rows = listed(&h);
    assert_eq!(rows.len(), all.len() - stops);
    assert!(rows.iter().all(|e| e.kind != EventKind::Stop));
    h.get_by_label_contains(&format!("shown of {} in the window", all.len()));
    // Back on: all of them again.
    h.get_by_label(&format!("Stop ({stops})")).click();
    h.run_steps(2);
    assert_eq!(listed(&h).len(), all.len());
}

#[test]
fn sorting_by_duration_orders_the_rows_both_ways() {
    let mut h = open_events();
    let duration = |e: &Event| e.duration_secs().unwrap_or(0);
    h.get_by_label("Duration").click();
    h.run_steps(2);
    let rows = listed(&h);
    assert!(
        rows.windows(2).all(|w| duration(&w[0]) <= duration(&w[1])),
        "shortest first"
    );
    h.get_by_label_contains("Duration").click();
    h.run_steps(2);
    let rows = listed(&h);
    assert!(
        rows.windows(2).all(|w| duration(&w[0]) >= duration(&w[1])),
        "longest first"
    );
    // The longest is on screen, at the top.
    let longest = rows
        .first()
        .and_then(|e| e.duration_secs())
        .expect("a span");
    assert!(
        h.query_all_by_label(&format::format_duration(longest))
            .count()
            >= 1,
        "the longest's duration is shown"
    );
}

#[test]
fn the_working_hours_editor_stays_open_for_several_changes() {
    let mut h = open_events();
    h.get_by_label_contains("Working hours:").click();
    h.run_steps(2);
    // Saturday, then Sunday, in one visit: a click inside keeps it open.
    h.get_by_label("Sat").click();
    h.run_steps(2);
    assert!(
        h.query_by_label("Sun").is_some(),
        "the editor stayed open after a click inside it"
    );
    h.get_by_label("Sun").click();
    h.run_steps(2);
    let days = h.state().state().figures().working_hours.days;
    assert_eq!(days, [true, true, true, true, true, true, true]);
}

#[test]
fn a_tables_pane_dragged_high_leaves_map_and_plots_their_room_in_a_small_window() {
    let mut h = open_events();
    let tabs = |h: &Harness<'static, FleetApp>| {
        h.get_all_by_label("Daily history")
            .map(|n| n.rect().top())
            .fold(f32::MAX, f32::min)
    };
    let top = tabs(&h);
    // The pane's edge, dragged most of the way up.
    drag(
        &mut h,
        egui::pos2(900.0, top - 6.0),
        egui::pos2(900.0, top - 500.0),
    );
    assert!(
        tabs(&h) < top - 100.0,
        "the pane grew: {} from {top}",
        tabs(&h)
    );
    h.set_size(egui::vec2(1000.0, 700.0));
    h.run_steps(6);
    let top = tabs(&h);
    // The strip, the map and the plots stay above the pane, none under it.
    let strip = h.get_by_label_contains("Utilisation").rect();
    assert!(
        strip.bottom() <= top,
        "the strip ({strip:?}) is above the tabs at {top}"
    );
    // The map's toolbar and the plots' buttons, with room under them.
    for name in ["Online tiles", "Data kinds"] {
        let r = h.get_by_label_contains(name).rect();
        assert!(
            r.bottom() + 100.0 < top,
            "{name} ({r:?}) has room under it above the tabs at {top}"
        );
    }
    assert!(h.state().view().map.frame().is_some(), "the map is drawn");
}

#[test]
fn a_click_on_any_cell_of_a_row_goes_to_its_event() {
    let mut h = open_events();
    let rows = listed(&h);
    // A row on screen whose value is its own, after the first (the cursor
    // may start at the window's start).
    let e = rows
        .iter()
        .skip(1)
        .take(5)
        .find(|e| {
            let v = fleetview::ui::events::kinds::summary(
                e,
                fleetview_core::analysis::UnitSystem::Metric,
            );
            rows.iter()
                .filter(|o| {
                    fleetview::ui::events::kinds::summary(
                        o,
                        fleetview_core::analysis::UnitSystem::Metric,
                    ) == v
                })
                .count()
                == 1
        })
        .expect("a row with a value of its own")
        .clone();
    h.get_by_label(&fleetview::ui::events::kinds::summary(
        &e,
        fleetview_core::analysis::UnitSystem::Metric,
    ))
    .click();
    h.run_steps(4);
    assert_eq!(h.state().state().timeline().cursor, Some(e.start));
}

#[test]
fn the_tables_columns_fit_the_pane() {
    let mut h = open_events();
    for size in [egui::vec2(1400.0, 900.0), egui::vec2(1000.0, 700.0)] {
        h.set_size(size);
        h.run_steps(4);
        let width = h.ctx.content_rect().right();
        let place = h.get_by_label("Where").rect();
        assert!(
            place.right() + 40.0 < width,
            "the Where column ({place:?}) shows whole in a window {width} wide"
        );
    }
}

#[test]
fn the_map_and_the_tables_take_their_share_again_when_the_window_grows_back() {
    let mut h = open_events();
    let plots_left =
        |h: &Harness<'static, FleetApp>| h.get_by_label_contains("Data kinds").rect().left();
    let before = plots_left(&h);
    let tabs_top = |h: &Harness<'static, FleetApp>| {
        h.get_all_by_label("Daily history")
            .map(|n| n.rect().top())
            .fold(f32::MAX, f32::min)
    };
    let tables_before = 900.0 - tabs_top(&h);
    h.set_size(egui::vec2(1000.0, 700.0));
    h.run_steps(4);
    let small = plots_left(&h);
    assert!(small < before, "the map gave way: {small} from {before}");
    h.set_size(egui::vec2(1400.0, 900.0));
    h.run_steps(4);
    let after = plots_left(&h);
    assert!(
        (after - before).abs() < 4.0,
        "the plots start where they did before the window shrank: {after}, was {before}"
    );
    let tables_after = 900.0 - tabs_top(&h);
    assert!(
        (tables_after - tables_before).abs() < 4.0,
        "the tables are as tall as before: {tables_after}, was {tables_before}"
    );
}
