//! Map, plots and the time cursor, driven through the accessibility tree
//! (egui_kittest) against the app's embedded sandbox.

mod common;

use common::ui::wait_until;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::api::DataKind;
use fleetview::app::{AppOptions, FleetApp, Loadable};
use fleetview::ui::theme;

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
        !app.state().fleet.loading && !app.state().fleet.equipments.is_empty()
    });
    h.get_by_label(name).click();
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
        h.query_by_role_and_label(Role::CheckBox, DataKind::FuelRemaining.display_name())
            .is_none(),
        "the search narrows the kinds"
    );
    h.get_by_role_and_label(Role::CheckBox, kind.display_name())
        .click();
    h.run_steps(2);
    assert!(h.state().state().timeline.plot_kinds.contains(&kind));
    wait_until(&mut h, "the plotted kind", |app| {
        matches!(
            app.state().timeline.plots.get(&kind),
            Some(Loadable::Ready(_))
        )
    });
    let titles: Vec<String> = {
        let state = h.state().state();
        let Some(Loadable::Ready(series)) = state.timeline.plots.get(&kind) else {
            unreachable!("waited for it");
        };
        assert!(!series.series.is_empty(), "the sandbox has coolant data");
        series
            .series
            .channels
            .iter()
            .filter(|c| c.kind == fleetview::series::ChannelKind::Numeric)
            .map(|c| c.title())
            .collect()
    };
    assert!(!titles.is_empty());
    for t in titles {
        // Legend entries are checkboxes named after their series.
        h.get_by_role_and_label(Role::CheckBox, &t);
    }
}

#[test]
fn clicking_a_fault_row_moves_the_cursor_there() {
    let mut h = harness();
    open_machine(&mut h, "TH-004 Manitou MT 1840 (Rotterdam)", "Last 30 days");
    wait_until(&mut h, "the faults", |app| {
        matches!(app.state().faults, Loadable::Ready(_))
    });
    let date = {
        let state = h.state().state();
        let Loadable::Ready(faults) = &state.faults else {
            unreachable!("waited for it");
        };
        faults
            .first()
            .expect("TH-004 has a fault in 30 days")
            .date
            .0
    };
    let seek_before = h.state().state().timeline.seek;
    let text = theme::format_time(date, false);
    h.get_by_label(&text).click();
    h.run_steps(3);
    let state = h.state().state();
    assert_eq!(state.timeline.cursor, Some(date));
    assert!(state.timeline.seek > seek_before);
    h.get_by_label_contains(&format!("Cursor: {text}"));
}
