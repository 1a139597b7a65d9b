//! The fleet map on the embedded sandbox, through egui_kittest: every
//! machine shown with a position is on it, a click on a cluster zooms in on
//! it, and a click on a machine's marker opens that machine's history, as a
//! click in the table does.

mod common;

use common::ui::wait_until;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::shell::{AppOptions, FleetApp};
use fleetview::ui::overview::ShownMarker;

fn harness() -> Harness<'static, FleetApp> {
    let options = AppOptions {
        clock: Some(common::now()),
        ..AppOptions::default()
    };
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .with_step_dt(1.0 / 60.0)
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

/// How many rows shown have a position.
fn with_position(app: &FleetApp) -> usize {
    app.state()
        .overview
        .rows()
        .iter()
        .filter(|r| r.position.is_some())
        .count()
}

fn markers(h: &Harness<'static, FleetApp>) -> Vec<ShownMarker> {
    h.state().view().overview.map.markers().to_vec()
}

/// A press and a release of the primary button at `pos`, the pointer
/// moved there first, as a person clicks.
fn click_at(h: &mut Harness<'static, FleetApp>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.run_steps(2);
    h.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.run_steps(1);
    h.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run_steps(3);
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
        !s.fleet().loading && !s.overview.status.loading && with_position(app) > 0
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
        click_at(&mut h, biggest.pos);
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

    click_at(&mut h, alone.pos);
    wait_until(&mut h, "the machine's history", |app| {
        app.state().selected() == Some(id) && app.state().tab.is_machine_tab()
    });
    assert_eq!(
        h.state().state().machine_tab,
        h.state().state().tab,
        "the machine page opens on its last table"
    );
}
