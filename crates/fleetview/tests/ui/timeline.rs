//! Map, plots and the time cursor, driven through the accessibility tree
//! (egui_kittest) against the app's embedded sandbox.

use crate::common;

use common::ui::wait_until;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fleetview::app::Loadable;
use fleetview::shell::{AppOptions, FleetApp};
use fleetview::ui::format;
use fleetview_api::DataKind;
use fleetview_core::series::names::channel_name;

fn harness() -> Harness<'static, FleetApp> {
    let options = AppOptions {
        clock: Some(common::now()),
        ..AppOptions::default()
    };
    Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

fn open_machine(h: &mut Harness<'static, FleetApp>, name: &str, preset: &str) {
    wait_until(h, "the fleet", |app| {
        !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
    });
    common::ui::pick(h, name);
    h.step();
    h.get_by_label(preset).click();
    h.step();
}

#[test]
fn a_chosen_data_kind_shows_its_series_in_the_legend() {
    let mut h = harness();
    open_machine(&mut h, "EX-001 Volvo EC220E (Rotterdam)", "Yesterday");
    let kind = DataKind::EngineCoolantTemperature;
    // Open the picker, find the kind by typing, tick it.
    h.get_by_label_contains("Data kinds (").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::TextInput, "Find").focus();
    h.step();
    h.get_by_role_and_label(Role::TextInput, "Find")
        .type_text("coolant");
    h.run_steps(2);
    assert!(
        h.query_by_role_and_label(Role::CheckBox, DataKind::BatteryVoltage.display_name())
            .is_none(),
        "the search narrows the kinds"
    );
    h.get_by_role_and_label(Role::CheckBox, kind.display_name())
        .click();
    h.run_steps(2);
    assert!(h.state().state().timeline().plot_kinds.contains(&kind));
    wait_until(&mut h, "the plotted kind", |app| {
        matches!(
            app.state().timeline().plots.get(&kind),
            Some(Loadable::Ready(_))
        )
    });
    let titles: Vec<String> = {
        let state = h.state().state();
        let Some(Loadable::Ready(series)) = state.timeline().plots.get(&kind) else {
            unreachable!("waited for it");
        };
        assert!(!series.series.is_empty(), "the sandbox has coolant data");
        series
            .series
            .channels
            .iter()
            .filter(|c| c.kind == fleetview_core::series::ChannelKind::Numeric)
            .map(|c| channel_name(kind, &c.name))
            .collect()
    };
    assert!(!titles.is_empty());
    for t in titles {
        // Legend entries are checkboxes named after their series, as
        // people call them (`Coolant temperature`, not `temperature`).
        h.get_by_role_and_label(Role::CheckBox, &t);
    }
}

#[test]
fn clicking_a_fault_row_moves_the_cursor_there() {
    let mut h = harness();
    open_machine(&mut h, "TH-004 Manitou MT 1840 (Rotterdam)", "Last 30 days");
    wait_until(&mut h, "the faults", |app| {
        matches!(app.state().faults(), Loadable::Ready(_))
    });
    let date = {
        let state = h.state().state();
        let Loadable::Ready(faults) = state.faults() else {
            unreachable!("waited for it");
        };
        faults
            .first()
            .expect("TH-004 has a fault in 30 days")
            .date
            .0
    };
    let seek_before = h.state().state().timeline().seek;
    let text = format::format_time(date, false);
    h.get_by_label(&text).click();
    h.run_steps(3);
    let state = h.state().state();
    assert_eq!(state.timeline().cursor, Some(date));
    assert!(state.timeline().seek > seek_before);
    h.get_by_label_contains(&format!("Cursor: {text}"));
}

#[test]
fn estimated_samples_are_named_in_the_legend() {
    let mut h = harness();
    // A telehandler: no fuel telemetry, so its daily fuel is estimated.
    open_machine(&mut h, "TH-004 Manitou MT 1840 (Rotterdam)", "Last 7 days");
    let kind = DataKind::DailyFuel;
    h.get_by_label_contains("Data kinds (").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::TextInput, "Find").focus();
    h.step();
    h.get_by_role_and_label(Role::TextInput, "Find")
        .type_text("daily fuel");
    h.run_steps(2);
    h.get_by_role_and_label(Role::CheckBox, kind.display_name())
        .click();
    wait_until(&mut h, "the daily fuel", |app| {
        matches!(
            app.state().timeline().plots.get(&kind),
            Some(Loadable::Ready(_))
        )
    });
    let estimated: Vec<String> = {
        let state = h.state().state();
        let Some(Loadable::Ready(series)) = state.timeline().plots.get(&kind) else {
            unreachable!("waited for it");
        };
        series
            .series
            .channels
            .iter()
            .filter(|c| (0..c.values.len()).any(|i| c.estimated_at(i) == Some(true)))
            .map(|c| format!("{} (estimated)", channel_name(kind, &c.name)))
            .collect()
    };
    assert!(!estimated.is_empty(), "the sandbox estimates TH-004's fuel");
    for name in estimated {
        h.get_by_role_and_label(Role::CheckBox, &name);
    }
}

#[test]
fn replay_moves_the_cursor_and_pause_stops_it() {
    let mut h = harness();
    open_machine(&mut h, "EX-001 Volvo EC220E (Rotterdam)", "Yesterday");
    wait_until(&mut h, "the positions", |app| {
        matches!(app.state().timeline().track, Loadable::Ready(_))
    });
    h.get_by_label("Play").click();
    h.run_steps(10);
    let first = h
        .state()
        .state()
        .timeline()
        .cursor
        .expect("replay places the cursor");
    let window = h.state().state().window().expect("a window");
    assert!(first >= window.since && first <= window.until);
    h.run_steps(10);
    let later = h.state().state().timeline().cursor.expect("still placed");
    assert!(later > first, "the cursor moves on: {first} -> {later}");
    h.get_by_label("Pause").click();
    h.run_steps(2);
    let paused = h.state().state().timeline().cursor;
    h.run_steps(10);
    assert_eq!(h.state().state().timeline().cursor, paused);
    h.get_by_label_contains("Cursor: ");
}

/// The picker groups kinds as the platform does, and finds them by kind or
/// by pack.
#[test]
fn the_kind_picker_groups_kinds_in_the_platforms_packs() {
    use fleetview_api::KindPack;
    let mut h = harness();
    open_machine(&mut h, "EX-001 Volvo EC220E (Rotterdam)", "Yesterday");
    h.get_by_label_contains("Data kinds (").click();
    h.run_steps(2);
    for pack in [
        "Essential",
        "Vehicle conditions",
        "Energy and fuel",
        "Usage hours",
    ] {
        h.get_by_label(pack);
    }
    let find = |h: &mut Harness<'static, FleetApp>, text: &str| {
        h.get_by_role_and_label(Role::TextInput, "Find").focus();
        h.step();
        h.get_by_role_and_label(Role::TextInput, "Find")
            .type_text(text);
        h.run_steps(2);
    };
    // A pack's name finds its kinds.
    find(&mut h, "usage");
    for kind in KindPack::UsageHours.kinds() {
        h.get_by_role_and_label(Role::CheckBox, kind.display_name());
    }
    assert!(h.query_by_label("Energy and fuel").is_none());
    // A kind's word finds the kinds, not every kind of a pack that says it.
    h.get_by_role_and_label(Role::TextInput, "Find").focus();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.key_press(egui::Key::Backspace);
    h.run_steps(1);
    find(&mut h, "fuel");
    h.get_by_label("Energy and fuel");
    h.get_by_role_and_label(Role::CheckBox, DataKind::CumulativeIdleFuel.display_name());
    assert!(
        h.query_by_role_and_label(Role::CheckBox, DataKind::EvBatteryHealth.display_name())
            .is_none()
    );
}

/// Everything of the machine page loaded: tables, track, plots, figures.
fn page_loaded(app: &FleetApp, id: i64) -> bool {
    let s = app.state();
    s.selected() == Some(id)
        && matches!(s.faults(), Loadable::Ready(_))
        && matches!(s.activities(), Loadable::Ready(_))
        && matches!(s.history(), Loadable::Ready(_))
        && matches!(s.timeline().track, Loadable::Ready(_))
        && s.timeline()
            .plot_kinds
            .iter()
            .all(|k| matches!(s.timeline().plots.get(k), Some(Loadable::Ready(_))))
        && matches!(s.figures().report, Loadable::Ready(_))
}

const FIRST: &str = "RT-003 DAF XF 480 (Manchester)";
const SECOND: &str = "EX-001 Volvo EC220E (Rotterdam)";

/// The app with the first machine's page loaded over yesterday.
fn first_page_loaded() -> (Harness<'static, FleetApp>, i64) {
    let mut h = harness();
    open_machine(&mut h, FIRST, "Yesterday");
    let first_id = h.state().state().selected().expect("a machine");
    wait_until(&mut h, "the first page", |app| page_loaded(app, first_id));
    (h, first_id)
}

#[test]
fn back_to_a_machine_its_page_shows_in_the_frame_of_the_click() {
    let (mut h, first_id) = first_page_loaded();
    let track = h.state().state().timeline().track.value().cloned();

    common::ui::pick(&h, SECOND);
    h.step();
    let second_id = h.state().state().selected().expect("a machine");
    assert_ne!(second_id, first_id);
    wait_until(&mut h, "the second page", |app| page_loaded(app, second_id));

    // Back: the page is whole in the frame that took the click, the very
    // track decoded before, and nothing is read.
    common::ui::pick(&h, FIRST);
    h.step();
    assert!(page_loaded(h.state(), first_id), "shown at once");
    let machine_reads = page_reads(&h);
    assert!(machine_reads.is_empty(), "nothing read: {machine_reads:?}");
    let again = h.state().state().timeline().track.value().cloned();
    assert!(
        matches!((&track, &again), (Some(a), Some(b)) if std::sync::Arc::ptr_eq(a, b)),
        "the track kept"
    );
}

/// The machine page's reads under way (the overview's go on behind).
fn page_reads(h: &Harness<'static, FleetApp>) -> Vec<String> {
    h.state()
        .state()
        .fetches()
        .into_iter()
        .map(|(what, _)| what)
        .filter(|what| {
            [
                "faults",
                "activities",
                "daily history",
                "positions",
                "daily idle fuel",
            ]
            .contains(&what.as_str())
                || what.starts_with("plot:")
        })
        .collect()
}

#[test]
fn a_machine_picked_in_the_list_has_its_page_in_the_frame_of_the_click() {
    let (mut h, first_id) = first_page_loaded();
    let named = |h: &Harness<'static, FleetApp>| h.query_all_by_label(SECOND).count();
    let in_the_list = named(&h);

    // The list is drawn and its click applied before the page: the frame
    // that takes the click draws the new machine's page (its reads sent).
    common::ui::pick(&h, SECOND);
    h.step();
    assert_ne!(h.state().state().selected(), Some(first_id));
    assert!(
        named(&h) > in_the_list,
        "the page is headed by the machine picked in the same frame"
    );
    assert_eq!(
        common::ui::in_list(&h, SECOND).accesskit_node().toggled(),
        Some(egui::accesskit::Toggled::True),
        "and the list shows it picked in that frame too"
    );
    // Its reads went out in that frame, or its page is whole already (a
    // page read meanwhile, from the cache, can be in by the end of the
    // step): never left unasked.
    let track = &h.state().state().timeline().track;
    assert!(
        track.is_pending() || track.value().is_some(),
        "its reads are under way: {:?}",
        page_reads(&h)
    );
}
