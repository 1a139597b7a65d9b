//! Memory bounded over a day: what the app keeps per machine, window or
//! view does not pile up as a person goes from one to the next.

use crate::common;

use common::ui::{embedded_app, wait_until};

use egui_kittest::kittest::Queryable;
use fleetview::app::Loadable;
use fleetview::shell::FleetApp;

/// Every plotted kind of the page loaded, and the events lane's report.
fn plots_loaded(app: &FleetApp) -> bool {
    let t = app.state().timeline();
    !t.plot_kinds.is_empty()
        && t.plot_kinds
            .iter()
            .all(|k| matches!(t.plots.get(k), Some(Loadable::Ready(_))))
        && matches!(app.state().figures().report, Loadable::Ready(_))
}

/// The plots' zoom and pan memories egui holds.
fn plot_memories(h: &egui_kittest::Harness<'static, FleetApp>) -> usize {
    h.ctx.data(|d| d.count::<egui_plot::PlotMemory>())
}

/// Each window (and each Refresh) starts the plots afresh under ids of its
/// own; egui keeps what a plot stores until told otherwise, so without a
/// bound every window ever shown left its plots' memories behind.
#[test]
fn the_plots_memories_stay_those_of_the_view_shown() {
    let mut h = embedded_app();
    wait_until(&mut h, "the fleet", |app| {
        !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
    });
    common::ui::pick(&h, "EX-001 Volvo EC220E (Rotterdam)");
    h.step();
    h.get_by_label("Yesterday").click();
    wait_until(&mut h, "the plots", plots_loaded);
    h.run_steps(3);
    let one_view = plot_memories(&h);
    assert!(one_view > 0, "the plots are drawn");
    for (i, preset) in ["Last 7 days", "Yesterday", "Today", "Refresh"]
        .iter()
        .cycle()
        .take(12)
        .enumerate()
    {
        h.get_by_label(preset).click();
        h.run_steps(2);
        wait_until(&mut h, "the plots again", plots_loaded);
        h.run_steps(3);
        assert!(
            plot_memories(&h) <= one_view,
            "after {} views, {} plot memories held, {one_view} for the view shown",
            i + 2,
            plot_memories(&h)
        );
    }
}
