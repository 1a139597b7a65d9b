//! The answers of the machine page: the window figures strip and the
//! statistics over a span selected on the plots, read off the screen and
//! checked against what the embedded sandbox serves.

use crate::common;

use common::ui::{drag, embedded_app, service_body, wait_until};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fleetview::shell::FleetApp;
use fleetview_api::DataKind;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_core::series::names::channel_name;

const EXCAVATOR: &str = "EX-001 Volvo EC220E (Rotterdam)";

/// Opens a machine over a preset with `kind` plotted too, and waits for
/// every plot and the window figures.
fn open(h: &mut Harness<'static, FleetApp>, preset: &str, kind: DataKind) {
    wait_until(h, "the fleet", |app| {
        !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
    });
    common::ui::pick(h, EXCAVATOR);
    h.step();
    h.get_by_label(preset).click();
    h.run_steps(2);
    common::ui::pick_kinds(h, &[kind]);
    wait_until(h, "every plot and the figures", |app| {
        let s = app.state();
        let t = s.timeline();
        t.plot_kinds
            .iter()
            .all(|k| t.plots.get(k).is_some_and(|p| p.value().is_some()))
            && s.figures().report.value().is_some()
            && !s.figures().report.is_pending()
    });
}

/// The selected machine's id and window.
fn shown(h: &Harness<'static, FleetApp>) -> (i64, TimeWindow) {
    let s = h.state().state();
    (
        s.selected().expect("a machine"),
        s.window().expect("a window"),
    )
}

/// The service's daily usage rows of a window.
fn daily_rows(h: &Harness<'static, FleetApp>, id: i64, w: TimeWindow) -> Vec<serde_json::Value> {
    let base = h.state().state().connection().base_url.clone();
    let body = service_body(&base, id, "history", w);
    body["data"]["dailyUsages"]["rows"]
        .as_array()
        .expect("daily rows")
        .clone()
}

fn hours(row: &serde_json::Value, member: &str) -> f64 {
    row[member]["hour"].as_f64().unwrap_or(0.0)
}

#[test]
fn the_figures_strip_gives_the_windows_sums_of_the_services_days() {
    let mut h = embedded_app();
    open(&mut h, "Last 7 days", DataKind::CumulativeOperatingHours);
    let (id, w) = shown(&h);
    let rows = daily_rows(&h, id, w);
    assert!(!rows.is_empty(), "the sandbox has daily usage");
    let engine: f64 = rows.iter().map(|r| hours(r, "operatingHours")).sum();
    let idle: f64 = rows.iter().map(|r| hours(r, "idleHours")).sum();
    let km: f64 = rows
        .iter()
        .map(|r| r["dailyDistance"]["odometer"].as_f64().unwrap_or(0.0))
        .sum();
    h.get_by_label(&format!("Engine hours\n{engine:.2} h"));
    h.get_by_label_contains(&format!(
        "Idle\n{idle:.2} h · {:.1} %",
        100.0 * idle / engine
    ));
    h.get_by_label(&format!("Distance\n{km:.1} km"));
    // A figure the data cannot give is a dash: the excavator has no
    // estimated fuel, so no share is named.
    assert!(h.query_by_label_contains("Fuel used · est.").is_none());
}

/// Pixel x of time `t` on the first plot.
fn x_of(h: &Harness<'static, FleetApp>, t: i64) -> (f32, f32) {
    let s = h.state().state();
    let kind = s.timeline().plot_kinds[0];
    let id = fleetview::ui::plots::plot_id(
        kind,
        0,
        s.window().expect("window"),
        s.timeline().view_generation,
    );
    let memory = egui_plot::PlotMemory::load(&h.ctx, id).expect("the first plot is shown");
    let transform = memory.transform();
    let frame = transform.frame();
    (transform.position_from_point_x(t as f64), frame.center().y)
}

/// The text a label shows.
fn text_of(n: &egui_kittest::Node<'_>) -> Option<String> {
    let node = n.accesskit_node();
    node.label().or_else(|| node.value())
}

/// Whether the engine runs at any time in `t ± margin`; `events` are the
/// D10 events as (time, whether the engine started).
fn runs_near(events: &[(i64, bool)], t: i64, margin: i64) -> bool {
    let state_at = |x: i64| {
        events
            .iter()
            .rev()
            .find(|(at, _)| *at <= x)
            .is_some_and(|(_, started)| *started)
    };
    state_at(t - margin)
        || events
            .iter()
            .any(|(at, _)| (t - margin..=t + margin).contains(at))
}

#[test]
fn a_span_over_two_whole_days_gives_their_operating_hours_as_the_counters_change() {
    let kind = DataKind::CumulativeOperatingHours;
    let mut h = embedded_app();
    open(&mut h, "Last 7 days", kind);
    let (id, w) = shown(&h);
    let events: Vec<(i64, bool)> = {
        let s = h.state().state();
        let history = s.history().value().expect("the history");
        history
            .engine_conditions
            .rows
            .iter()
            .map(|e| (e.date.0, e.is_start()))
            .collect()
    };
    let rows = daily_rows(&h, id, w);
    let day_hours = |day: i64| {
        rows.iter()
            .find(|r| {
                fleetview_api::time::parse_lenient(r["date"].as_str().unwrap_or_default())
                    .is_ok_and(|t| t == day * SECS_PER_DAY)
            })
            .map_or(0.0, |r| hours(r, "operatingHours"))
    };
    // Two whole days whose edges the engine is off around (the drag's
    // ends land within a pixel's time of midnight).
    let first = w.since / SECS_PER_DAY;
    let last = w.until / SECS_PER_DAY;
    let day = (first + 1..last - 1)
        .find(|d| {
            !runs_near(&events, d * SECS_PER_DAY, 3 * 3600)
                && !runs_near(&events, (d + 2) * SECS_PER_DAY, 3 * 3600)
                && day_hours(*d) + day_hours(d + 1) > 0.0
        })
        .expect("two worked days with quiet midnights");
    let expected = day_hours(day) + day_hours(day + 1);

    h.get_by_label("Measure").click();
    h.run_steps(2);
    let (x0, y) = x_of(&h, day * SECS_PER_DAY);
    let (x1, _) = x_of(&h, (day + 2) * SECS_PER_DAY);
    let before = x_of(&h, w.since);
    drag(&mut h, egui::pos2(x0, y), egui::pos2(x1, y));
    let span = h.state().state().timeline().span.expect("a span selected");
    assert!(
        (span.0 - day * SECS_PER_DAY).abs() < 3 * 3600
            && (span.1 - (day + 2) * SECS_PER_DAY).abs() < 3 * 3600,
        "the span is what was dragged: {span:?}"
    );
    assert_eq!(x_of(&h, w.since), before, "measuring does not pan");

    // The statistics pane: the counter's row, its Change column.
    let name = format!("{} (h)", channel_name(kind, "hour"));
    let row = h.get_by_label(&name);
    let y_row = row.rect().center().y;
    let change_x = h.get_by_label("Change").rect().center().x;
    let cell = h
        .get_all_by_role(Role::Label)
        .filter(|n| {
            (n.rect().center().y - y_row).abs() < 2.0 && text_of(n).is_some_and(|l| !l.is_empty())
        })
        .min_by(|a, b| {
            (a.rect().center().x - change_x)
                .abs()
                .total_cmp(&(b.rect().center().x - change_x).abs())
        })
        .expect("a change cell");
    let text = text_of(&cell).unwrap_or_default();
    let shown: f64 = text
        .parse()
        .unwrap_or_else(|e| panic!("the change cell {text:?}: {e}"));
    assert!(
        (shown - expected).abs() < 0.02,
        "the change over the span ({shown} h) is the days' operating hours ({expected} h)"
    );
    // Escape clears it, and its pane goes.
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert_eq!(h.state().state().timeline().span, None);
    assert!(h.query_by_label(&name).is_none(), "the pane closes");
}
