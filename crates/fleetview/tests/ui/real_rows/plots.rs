//! The app on the stub (egui_kittest): the fixtures' kinds plotted with
//! the channels their rows hold, placeholders left out.

use super::*;

use egui::accesskit::Role;
use egui::epaint::Shape;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::Loadable;
use fleetview::shell::{AppOptions, FleetApp, ServiceOptions};
use fleetview_api::DataKind;
use fleetview_api::model::SecretValue;

use crate::common::ui::wait_until;

fn harness(stub: &Stub) -> Harness<'static, FleetApp> {
    let options = AppOptions {
        service: Some(ServiceOptions {
            base_url: stub.base.clone(),
            token: Some(SecretValue::new("any token")),
            api_key: None,
            allow_insecure_http: false,
        }),
        clock: Some(now()),
        ..AppOptions::default()
    };
    Harness::builder()
        // Tall enough for every plot to be drawn.
        .with_size(egui::vec2(1400.0, 1600.0))
        .with_step_dt(1.0 / 60.0)
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

/// Every text painted in the last frame.
fn texts(h: &Harness<'static, FleetApp>) -> Vec<String> {
    fn walk(shape: &Shape, out: &mut Vec<String>) {
        match shape {
            Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            Shape::Text(t) => out.push(t.galley.text().to_owned()),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

/// The value range a kind's `group`-th plot shows.
fn y_range(h: &Harness<'static, FleetApp>, kind: DataKind, group: usize) -> (f64, f64) {
    let s = h.state().state();
    let window = s.window().expect("a window");
    let id = fleetview::ui::plots::plot_id(kind, group, window, s.timeline().view_generation);
    let m = egui_plot::PlotMemory::load(&h.ctx, id).unwrap_or_else(|| panic!("{kind:?} plotted"));
    (m.bounds().min()[1], m.bounds().max()[1])
}

#[test]
fn the_real_shapes_are_plotted_with_their_own_channels() {
    let rt = tokio::runtime::Runtime::new().expect("a runtime");
    let stub = rt.block_on(super::stub());
    let mut h = harness(&stub);
    wait_until(&mut h, "the fleet", |app| {
        let fleet = app.state().fleet();
        !fleet.loading && fleet.equipments.iter().any(|e| e.id == ID)
    });
    crate::common::ui::pick(&h, "EX-7");
    h.step();
    h.get_by_label("Today").click();
    h.run_steps(2);
    let kind = DataKind::CumulativeOperatingHours;
    h.get_by_label_contains("Data kinds (").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::TextInput, "Find").focus();
    h.step();
    h.get_by_role_and_label(Role::TextInput, "Find")
        .type_text("operating");
    h.run_steps(2);
    h.get_by_role_and_label(Role::CheckBox, kind.display_name())
        .click();
    h.run_steps(2);
    h.key_press(egui::Key::Escape);
    wait_until(&mut h, "every plot", |app| {
        let t = app.state().timeline();
        t.plot_kinds
            .iter()
            .all(|k| t.plots.get(k).is_some_and(|p| p.value().is_some()))
    });
    h.run_steps(4);

    // `hour` and `usageHours`, by their names, on an axis in hours.
    for name in ["Operating hours", "Usage hours"] {
        h.get_by_role_and_label(Role::CheckBox, name);
    }
    let painted = texts(&h);
    assert!(
        painted.iter().any(|t| t == "Operating hours (h)"),
        "the axis says hours: {painted:?}"
    );
    {
        let state = h.state().state();
        let Some(Loadable::Ready(hours)) = state.timeline().plots.get(&kind) else {
            panic!("operating hours are plotted");
        };
        assert_eq!(hours.series.len(), 3);
        assert_eq!(hours.series.skipped_rows, 1, "the placeholder-dated row");
    }
    // Fuel remaining (plotted by default): the tank's capacity is 410 L
    // where known; its 0 is no point, so the plot is about 410 alone (a 0
    // would put its middle near 205).
    h.get_by_role_and_label(Role::CheckBox, "Tank capacity");
    let (low, high) = y_range(&h, DataKind::FuelRemaining, 1);
    assert!(
        ((low + high) / 2.0 - 410.0).abs() < 1.0,
        "the capacity plot spans {low}..{high}"
    );
    drop(h);
    drop(stub);
}
