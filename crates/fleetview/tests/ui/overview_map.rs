//! The fleet map through egui_kittest. On the embedded sandbox: every
//! machine shown with a position is on it, a click on a cluster zooms in on
//! it, and a click on a machine's marker opens that machine's history, as a
//! click in the table does. On a fleet of three: what the tooltips say, and
//! the list of machines at one spot.

use crate::common;

use common::ui::wait_until;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::{Action, AppState, Connection, MachineAction};
use fleetview::shell::FleetApp;
use fleetview::ui::overview::{FleetMapView, ShownMarker, fleet_map_ui};
use fleetview_api::Timestamp;
use fleetview_api::equipment::{EquipmentSnapshot, SnapPercent, SnapPosition};
use fleetview_api::model::EquipmentSummary;
use fleetview_core::worker::FleetSource;

fn harness() -> Harness<'static, FleetApp> {
    common::ui::embedded_app()
}

/// How many rows shown have a position.
fn with_position(app: &FleetApp) -> usize {
    app.state()
        .overview()
        .rows()
        .iter()
        .filter(|r| r.position.is_some())
        .count()
}

fn markers(h: &Harness<'static, FleetApp>) -> Vec<ShownMarker> {
    h.state().view().overview.map.markers().to_vec()
}

/// Whether `pos` is well inside the map, clear of what sits on its edges
/// (legend, buttons, attribution).
fn well_inside(h: &Harness<'static, FleetApp>, pos: egui::Pos2) -> bool {
    let Some(frame) = h.state().view().overview.map.frame() else {
        return false;
    };
    let map = egui::Rect::from_min_max(
        frame.to_screen(frame.view.min),
        frame.to_screen(frame.view.max),
    );
    map.shrink2(egui::vec2(70.0, 80.0)).contains(pos)
}

#[test]
fn the_fleet_map_shows_every_machine_with_a_position_and_a_click_opens_its_history() {
    let mut h = harness();
    wait_until(&mut h, "the fleet's snapshots", |app| {
        let s = app.state();
        !s.fleet().loading && !s.overview().status.loading && with_position(app) > 0
    });
    let n = with_position(h.state());
    assert_eq!(
        n,
        h.state().state().fleet().equipments.len(),
        "the sandbox places every machine"
    );
    // The clusters hold every machine with a position, once; fitted, all
    // are in view.
    wait_until(&mut h, "the map's clusters", |app| {
        app.view().overview.map.machines_clustered() == with_position(app)
    });
    let in_view: u32 = markers(&h).iter().map(|m| m.count).sum();
    assert_eq!(
        in_view as usize,
        with_position(h.state()),
        "fitted: every machine in view"
    );
    assert!(
        markers(&h).len() < in_view as usize,
        "at the whole fleet's zoom, sites are clusters"
    );
    h.get_by_label(&format!("Fleet map: {} machines", with_position(h.state())));
    h.get_by_label("Fleet map legend");
    h.get_by_label("Fit fleet");

    // Clusters clicked until a machine alone shows; each click zooms in.
    let mut alone = None;
    for _ in 0..10 {
        let shown = markers(&h);
        if let Some(m) = shown
            .iter()
            .find(|m| m.count == 1 && well_inside(&h, m.pos))
        {
            alone = Some(*m);
            break;
        }
        let biggest = shown
            .iter()
            .filter(|m| well_inside(&h, m.pos))
            .max_by_key(|m| m.count)
            .copied()
            .expect("a cluster in view");
        let before = h.state().view().overview.map.zoom();
        common::ui::click_at(&mut h, biggest.pos);
        let after = h.state().view().overview.map.zoom();
        assert!(
            after > before,
            "a click on a cluster zooms in: {before} -> {after}"
        );
    }
    let alone = alone.expect("a machine alone on the map after zooming in");
    let id = alone.first_id;
    assert_eq!(h.state().view().overview.map.members(&alone), vec![id]);
    assert!(h.state().state().selected() != Some(id));

    common::ui::click_at(&mut h, alone.pos);
    wait_until(&mut h, "the machine's history", |app| {
        app.state().selected() == Some(id) && app.state().tab().is_machine_tab()
    });
    assert_eq!(
        h.state().state().machine_tab(),
        h.state().state().tab(),
        "the machine page opens on its last table"
    );
}

/// A fleet of three: two at one spot (no zoom parts them), one far off.
fn three_machines() -> AppState {
    let now = common::now();
    let mut state = AppState::new(
        Connection::embedded("http://127.0.0.1:0", "demo"),
        Some(now),
    );
    let machine = |id: i64, name: &str| EquipmentSummary {
        id,
        name: name.into(),
        make: "Volvo".into(),
        model: "FH 500".into(),
        category: Some("Road truck".into()),
        ..Default::default()
    };
    let snapshot = |id: i64, lat: f64, lon: f64, fuel: f64| EquipmentSnapshot {
        id,
        last_position: Some(SnapPosition {
            date: Some(Timestamp::from_secs(now - 600)),
            latitude: Some(lat),
            longitude: Some(lon),
        }),
        fuel_remaining: Some(SnapPercent {
            date: Some(Timestamp::from_secs(now - 600)),
            percent: Some(fuel),
        }),
        ..Default::default()
    };
    state.fleet_mut().on_page(
        vec![
            machine(1, "RT-1 at the depot (Lyon)"),
            machine(2, "RT-2 at the depot (Lyon)"),
            machine(3, "RT-3 on the road"),
        ],
        (3, 3),
        true,
        FleetSource::List,
    );
    state.overview_mut().on_snapshot_page(
        vec![
            snapshot(1, 45.73, 4.83, 40.0),
            snapshot(2, 45.73, 4.83, 55.0),
            snapshot(3, 48.86, 2.35, 63.0),
        ],
        (3, 3),
        true,
    );
    state.refresh_overview_rows(now);
    state
}

type MapHarness = Harness<'static, (AppState, FleetMapView, Vec<Action>)>;

fn map_harness(state: AppState) -> MapHarness {
    Harness::builder()
        .with_size(egui::vec2(900.0, 500.0))
        .build_ui_state(
            |ui, (state, view, actions): &mut (AppState, FleetMapView, Vec<Action>)| {
                fleet_map_ui(ui, state, view, actions);
            },
            (state, FleetMapView::default(), Vec::new()),
        )
}

/// Hovering says what a marker is; machines no zoom parts are listed on a
/// click, and picking one from the list selects it.
#[test]
fn markers_say_what_they_are_and_machines_at_one_spot_are_listed() {
    let mut h = map_harness(three_machines());
    h.run_steps(4);
    let shown = h.state().1.markers().to_vec();
    assert_eq!(shown.len(), 2, "the two at the depot are one cluster");
    let alone = *shown
        .iter()
        .find(|m| m.count == 1)
        .expect("the one on the road");
    let pair = *shown
        .iter()
        .find(|m| m.count == 2)
        .expect("the depot's pair");

    h.hover_at(alone.pos);
    h.run_steps(3);
    h.get_by_label("RT-3 on the road");
    h.get_by_label("Volvo FH 500 · Road truck");
    h.get_by_label("Fuel: 63 %");
    h.get_by_label_contains("(10 min ago)");

    h.hover_at(pair.pos);
    h.run_steps(3);
    h.get_by_label("2 machines");
    h.get_by_label("Lyon");
    h.get_by_label("RT-1 at the depot (Lyon)");

    let zoom = h.state().1.zoom();
    common::ui::click_at(&mut h, pair.pos);
    assert_eq!(h.state().1.zoom(), zoom, "no zoom parts them: not zoomed");
    h.get_by_label("2 machines at this spot");
    assert!(h.state().2.is_empty());
    h.get_by_role_and_label(Role::Button, "RT-2 at the depot (Lyon)")
        .click();
    h.run_steps(2);
    assert_eq!(h.state().2, vec![Action::Machine(MachineAction::Select(2))]);
}
