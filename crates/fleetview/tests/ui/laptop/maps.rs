//! Issue 35, items 10, 12 and 13: the replay skips the parked hours at
//! the window's ends, the light theme's map is light, and a crowded mark
//! says what matters most with its own count.

use crate::common;

use common::ui::{embedded_app, pick, type_into, wait_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::shell::FleetApp;
use fleetview_api::time::TimeWindow;
use fleetview_core::analysis::EventKind;
use fleetview_core::basemap::relative_luminance;

fn fleet_loaded(app: &FleetApp) -> bool {
    !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
}

/// Opens machine `name` (found by searching for it) over `preset` and
/// waits for its track, history and events.
fn open(h: &mut Harness<'static, FleetApp>, name: &str, preset: &str) {
    type_into(h, egui::accesskit::Role::TextInput, "Search", name);
    pick(h, name);
    h.step();
    h.get_by_label(preset).click();
    h.step();
    wait_until(h, "the track, history and events", |app| {
        let s = app.state();
        s.timeline().track.value().is_some()
            && s.history().value().is_some()
            && s.figures().report.value().is_some()
            && !s.timeline().track.is_pending()
            && !s.history().is_pending()
            && !s.figures().report.is_pending()
    });
}

/// Item 10: a truck parked overnight. Played from the window's start with
/// *Skip engine-off* on, the cursor jumps to the first engine start at
/// once (it crawled through the night at 600x: 6 h 50 min in 41 s).
#[test]
fn laptop_replay_skips_the_parked_night_before_the_first_start() {
    let mut h = embedded_app();
    wait_until(&mut h, "the fleet", fleet_loaded);
    let truck = h
        .state()
        .state()
        .fleet()
        .equipments
        .iter()
        .find(|e| e.name.starts_with("RT-"))
        .map(|e| e.name.clone())
        .expect("a road truck");
    open(&mut h, &truck, "Yesterday");
    let (window, first) = {
        let s = h.state().state();
        let window: TimeWindow = s.window().expect("a window");
        let rows = &s.history().value().expect("history").engine_conditions.rows;
        let inside: Vec<_> = rows
            .iter()
            .filter(|r| (window.since..=window.until).contains(&r.date.0))
            .collect();
        let first = inside.first().expect("engine events yesterday");
        assert!(
            first.is_start(),
            "{truck} was parked at the window's start: {first:?}"
        );
        (window, first.date.0)
    };
    assert!(
        first - window.since > 3 * 3600,
        "parked for hours before the first start"
    );
    let replay = h.state().state().timeline().replay;
    assert!(replay.skip_engine_off, "skipping is on by default");
    assert_eq!(replay.speed, 600.0);
    assert_eq!(h.state().state().timeline().cursor, None);

    h.get_by_label("Play").click();
    // A few frames of 1/60 s: 10 s of machine time each at 600x.
    h.run_steps(4);
    let cursor = h.state().state().timeline().cursor.expect("a cursor");
    assert!(
        (first..first + 600).contains(&cursor),
        "the cursor jumped to the first start ({first}, {} h after the window's start), \
         not {cursor} ({} s after the start)",
        (first - window.since) / 3600,
        cursor - window.since
    );
}

/// The offline basemap's water and land, as the machine's map last asked
/// for them.
fn basemap_colours(h: &Harness<'static, FleetApp>) -> ([u8; 4], [u8; 4]) {
    let palette = h
        .state()
        .view()
        .map
        .basemap_palette()
        .expect("the map has drawn its basemap");
    (palette.water(), palette.land())
}

/// Item 12: in the light theme the map's basemap is drawn light (it
/// stayed dark); back in the dark theme, dark again.
#[test]
fn laptop_the_light_theme_draws_a_light_basemap() {
    use fleetview::app::ThemeChoice;
    let mut h = embedded_app();
    wait_until(&mut h, "the fleet", fleet_loaded);
    let name = common::ui::equipment_name(h.state(), h.state().state().fleet().equipments[0].id);
    open(&mut h, &name, "Yesterday");
    for (choice, light) in [
        (ThemeChoice::Dark, false),
        (ThemeChoice::Light, true),
        (ThemeChoice::Dark, false),
    ] {
        h.get_by_label("fleetview ⏷").click();
        h.run_steps(3);
        h.get_by_label(choice.label()).click();
        h.run_steps(3);
        h.key_press(egui::Key::Escape);
        h.run_steps(3);
        let (water, land) = basemap_colours(&h);
        assert_ne!(water, land, "land and water differ");
        for (what, c) in [("water", water), ("land", land)] {
            assert_eq!(
                relative_luminance(c) > 0.5,
                light,
                "{choice:?}: the basemap's {what} {c:?} (luminance {:.2})",
                relative_luminance(c)
            );
        }
    }
}

/// Item 13: a machine at one site, its month's events on a map zoomed
/// out to a country: one mark holds them all. Its badge says the drains
/// with their own count (it said the count of everything, drains, stops
/// and refuels together); its hover lists the rest.
#[test]
fn laptop_a_crowded_marks_badge_counts_the_drains_and_its_hover_the_rest() {
    use fleetview::ui::events::kinds::{counted, event_style};
    use fleetview_sandbox::Clock;
    use fleetview_sandbox::simulate::{PlantedKind, Simulator};
    let mut h = embedded_app();
    wait_until(&mut h, "the fleet", fleet_loaded);
    // A machine at a site (not a road truck) with a drain in the last 30
    // days, as the simulator planted them.
    let fleet = h.state().state().fleet().equipments.clone();
    let sim = Simulator::new(fleet.len() as u64, Clock::Fixed(common::now()));
    let month = TimeWindow::new(common::now() - 30 * 86_400, common::now()).expect("window");
    let machine = fleet
        .iter()
        .filter(|e| !e.name.starts_with("RT-"))
        .find(|e| {
            sim.planted(e.id, month)
                .iter()
                .any(|p| p.kind == PlantedKind::Drain)
        })
        .expect("a site machine with a drain in 30 days");
    open(&mut h, &machine.name, "Last 30 days");

    // What the map marks, kind by kind.
    let report = h.state().state().figures().report.value().cloned();
    let events = report.expect("events").events.clone();
    let count = |kind: EventKind| {
        events
            .iter()
            .filter(|e| e.kind == kind && e.position.is_some())
            .count()
    };
    let drains = count(EventKind::FuelDrop);
    assert!(drains > 0, "{}: the drain is found", machine.name);
    let rest: Vec<(EventKind, usize)> = EventKind::ALL
        .into_iter()
        .filter(|k| *k != EventKind::FuelDrop && event_style(*k).map.is_some())
        .map(|k| (k, count(k)))
        .filter(|(_, n)| *n > 0)
        .collect();
    assert!(
        rest.iter().map(|(_, n)| n).sum::<usize>() > drains,
        "more stops and refuels than drains: {rest:?}"
    );

    // Zoomed out to a country: the site is one mark.
    while h.state().view().map.zoom() > 5.0 {
        h.get_by_label("Zoom out").click();
        h.run_steps(2);
    }
    h.run_steps(3);
    let badge = format!("Map mark: {}", counted(EventKind::FuelDrop, drains));
    let node = h.query_by_label(&badge);
    let labels: Vec<String> = h
        .get_all_by_role(egui::accesskit::Role::Label)
        .map(|n| common::ui::node_text(&n))
        .filter(|t| t.starts_with("Map mark"))
        .collect();
    let node = node.unwrap_or_else(|| panic!("a badge saying {badge:?}; the marks say {labels:?}"));
    node.hover();
    h.run_steps(3);
    let said = common::ui::node_text(
        &h.get_by_label_contains(&format!("{} here", counted(EventKind::FuelDrop, drains))),
    );
    for (kind, n) in rest {
        let also = counted(kind, n);
        assert!(said.contains(&also), "the hover says {also:?}: {said}");
    }
    assert!(said.contains("Also here: "), "{said}");
}
