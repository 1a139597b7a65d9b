//! The daily charts over the Daily history's table, through egui_kittest on
//! the embedded sandbox: hovering a day's bar marks that day's row in the
//! table, a click moves the time cursor to the day's start, and estimated
//! fuel is named in the legend.

use crate::common;

use common::ui::wait_until;

use std::sync::Arc;

use egui::accesskit::{Role, Toggled};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fleetview::app::{Action, AppState, ConnStatus, Connection, Loadable, Tab};
use fleetview::shell::FleetApp;
use fleetview::ui::daily_charts::{DailyChart, DailyChartsView, chart_id, daily_charts_ui};
use fleetview::ui::{ViewState, app_ui};
use fleetview_api::time::TimeWindow;
use fleetview_core::analysis::{DayInput, Expected, Figures, Report};

const DAY_SECS: i64 = 86_400;

/// Opens a machine over a preset, then its Daily history tab, and waits
/// for the window's figures.
fn open_daily_history(h: &mut Harness<'static, FleetApp>, name: &str, preset: &str) {
    wait_until(h, "the fleet", |app| {
        !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
    });
    common::ui::pick(h, name);
    h.step();
    h.get_by_label(preset).click();
    h.step();
    h.get_by_label("Daily history").click();
    wait_until(h, "the daily figures", |app| {
        let s = app.state();
        !s.figures().report.is_pending()
            && s.figures()
                .report
                .value()
                .is_some_and(|r| r.window.is_some() && r.window == s.window())
    });
    h.run_steps(3);
}

/// Whether the table's Day cell of `day` is marked.
fn row_marked(h: &Harness<'static, FleetApp>, day: i64) -> bool {
    let text = fleetview::ui::format::format_in_zone(day * DAY_SECS, false, "%Y-%m-%d");
    h.get_by_label(&text).accesskit_node().toggled() == Some(Toggled::True)
}

#[test]
fn clicking_a_daily_bar_moves_the_cursor_to_that_day_and_hovering_marks_its_row() {
    let mut h = common::ui::embedded_app();
    open_daily_history(&mut h, "EX-001 Volvo EC220E (Rotterdam)", "Last 7 days");
    let (window, day, working_h) = {
        let s = h.state().state();
        let report = s.figures().report.value().expect("figures").clone();
        // A day the machine worked, not the first of the window.
        let (day, f) = report
            .days
            .iter()
            .skip(1)
            .find(|(_, f)| f.working_hours_h.is_some_and(|w| w > 1.0))
            .expect("EX-001 works on a weekday of the last 7");
        (
            s.window().expect("a window"),
            *day,
            f.working_hours_h.unwrap_or_default(),
        )
    };
    assert_eq!(h.state().view().daily_charts.hovered_day(), None);
    let chart = h.get_by_label("Daily hours chart").rect();
    for other in ["Daily fuel chart", "Daily distance chart"] {
        let r = h.get_by_label(other).rect();
        assert!(r.height() > 50.0 && !r.intersects(chart), "{other}: {r:?}");
    }
    let memory = egui_plot::PlotMemory::load(&h.ctx, chart_id(DailyChart::Hours, window))
        .expect("the hours chart is drawn");
    let t = memory.transform();
    // The middle of the day's working bar.
    let pos = egui::pos2(
        t.position_from_point_x(day as f64 + 0.5),
        t.position_from_point_y(working_h / 2.0),
    );
    assert!(chart.contains(pos), "{pos:?} in {chart:?}");
    assert!(!row_marked(&h, day), "no day is marked before hovering");

    h.hover_at(pos);
    h.run_steps(3);
    assert_eq!(h.state().view().daily_charts.hovered_day(), Some(day));
    assert!(row_marked(&h, day), "the hovered day's row is marked");
    assert!(!row_marked(&h, day - 1), "only that day");
    assert_eq!(
        h.state().state().timeline().cursor,
        None,
        "hover only marks"
    );

    common::ui::click_at(&mut h, pos);
    assert_eq!(h.state().state().timeline().cursor, Some(day * DAY_SECS));
    // Away from the charts, the cursor's day stays marked.
    h.hover_at(egui::pos2(5.0, 5.0));
    h.run_steps(3);
    assert_eq!(h.state().view().daily_charts.hovered_day(), None);
    assert!(row_marked(&h, day), "the cursor's day stays marked");
    assert!(!row_marked(&h, day - 1));
}

#[test]
fn estimated_fuel_is_named_in_the_fuel_charts_legend() {
    let mut h = common::ui::embedded_app();
    // Charts tall enough for their legends (a shorter pane keeps the
    // table's days first).
    h.set_size(egui::vec2(1600.0, 1100.0));
    // A telehandler: no fuel telemetry, so its daily fuel is estimated.
    open_daily_history(&mut h, "TH-004 Manitou MT 1840 (Rotterdam)", "Last 7 days");
    let estimated = {
        let s = h.state().state();
        let report = s.figures().report.value().expect("figures").clone();
        report.totals.fuel_estimated_l
    };
    assert!(estimated > 0.0, "the sandbox estimates TH-004's fuel");
    h.get_by_role_and_label(Role::CheckBox, "Fuel used (estimated)");
    h.get_by_role_and_label(Role::CheckBox, "Working");
    h.get_by_role_and_label(Role::CheckBox, "Idle");
    h.get_by_role_and_label(Role::CheckBox, "Expected");
}

/// The app's state on the Daily history tab of a machine, with figures
/// for ten years of days (some missing, some odd) and no service behind.
fn ten_years() -> (AppState, i64) {
    let mut connection = Connection::service(
        "http://127.0.0.1:1",
        false,
        fleetview_api::AuthMethod::Token,
    );
    connection.status = ConnStatus::Connected;
    let mut s = AppState::new(connection, Some(common::now()));
    let first = common::now().div_euclid(DAY_SECS) - 3659;
    let window = TimeWindow::new(first * DAY_SECS, common::now()).expect("a window");
    s.machine_mut().selected = Some(7);
    s.machine_mut().window = Some(window);
    s.machine_mut().history = Loadable::Ready(Arc::new(
        serde_json::from_str(
            r#"{"id":7,"name":"EX","make":"M","model":"X","serialNumber":"S",
            "positions":{"total":0,"rows":[]},"faultCodes":{"total":0,"rows":[]},
            "fuelRemainings":{"total":0,"rows":[]},"dailyUsages":{"total":0,"rows":[]},
            "engineConditions":{"total":0,"rows":[]}}"#,
        )
        .expect("a history"),
    ));
    let days: Vec<DayInput> = (first..first + 3660)
        .map(|day| {
            let k = day - first;
            let odd = |v: f64| match k % 11 {
                0 => None,
                1 => Some(f64::NAN),
                2 => Some(1e12),
                3 => Some(-2.0),
                _ => Some(v),
            };
            DayInput {
                day,
                working_hours_h: odd(5.0),
                idle_hours_h: odd(1.5),
                fuel_used_l: odd(60.0),
                fuel_estimated: k % 3 == 0,
                distance_km: odd(2.0),
                ..DayInput::default()
            }
        })
        .collect();
    let expected = Expected::default();
    s.figures_mut().report = Loadable::Ready(Arc::new(Report {
        window: Some(window),
        expected: Some(expected),
        totals: Figures::over(&days, expected),
        days: days
            .iter()
            .map(|d| (d.day, Figures::over(std::slice::from_ref(d), expected)))
            .collect(),
        ..Report::default()
    }));
    let _ = s.on_action(Action::SetTab(Tab::History));
    (s, first)
}

/// Hovers the middle of the hours chart and clicks there: the day under
/// the pointer and the cursor after the click.
fn hover_and_click<S>(
    h: &mut Harness<'static, S>,
    hovered: impl Fn(&S) -> Option<i64>,
    cursor: impl Fn(&S) -> Option<i64>,
) -> (Option<i64>, Option<i64>) {
    let pos = h.get_by_label("Daily hours chart").rect().center();
    h.hover_at(pos);
    h.run_steps(2);
    let day = hovered(h.state());
    h.drag_at(pos);
    h.step();
    h.drop_at(pos);
    h.run_steps(2);
    (day, cursor(h.state()))
}

fn a_day_of(first: i64, day: Option<i64>) -> bool {
    day.is_some_and(|d| (first..first + 3660).contains(&d))
}

/// Ten years of days, odd values among them (missing, NaN, huge,
/// negative), in the app and in very narrow or short panes: drawn, hovered
/// and clicked without a panic; a click moves the cursor to a day's start.
#[test]
fn ten_years_of_days_draw_in_any_pane_without_a_panic() {
    let (state, first) = ten_years();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(
            |ui, (state, view): &mut (AppState, ViewState)| {
                for a in app_ui(ui, state, view, common::now()) {
                    let _ = state.on_action(a);
                }
            },
            (state, ViewState::default()),
        );
    h.run_steps(3);
    let (day, cursor) = hover_and_click(
        &mut h,
        |(_, view)| view.daily_charts.hovered_day(),
        |(state, _)| state.timeline().cursor,
    );
    assert!(a_day_of(first, day), "{day:?}");
    assert_eq!(cursor, day.map(|d| d * DAY_SECS));

    // The charts alone, in panes from wide and short to a thumbnail; in
    // one too short, the table keeps the room.
    let least =
        fleetview::ui::theme::DAILY_TABLE_ROOM + fleetview::ui::theme::DAILY_CHART_MIN_HEIGHT;
    for size in [
        egui::vec2(1400.0, least + 30.0),
        egui::vec2(200.0, 300.0),
        egui::vec2(60.0, least + 40.0),
        egui::vec2(1400.0, 100.0),
    ] {
        let (state, first) = ten_years();
        let mut h = Harness::builder().with_size(size).build_ui_state(
            |ui, (state, view, room): &mut (AppState, DailyChartsView, bool)| {
                let mut actions = Vec::new();
                *room = daily_charts_ui(ui, state, view, &mut actions);
                for a in actions {
                    let _ = state.on_action(a);
                }
            },
            (state, DailyChartsView::default(), false),
        );
        h.run_steps(3);
        if size.y < least {
            assert!(!h.state().2, "{size:?}: no room");
            assert!(h.query_by_label("Daily hours chart").is_none());
            continue;
        }
        assert!(h.state().2, "{size:?}: room");
        let (day, cursor) = hover_and_click(
            &mut h,
            |(_, view, _)| view.hovered_day(),
            |(state, _, _)| state.timeline().cursor,
        );
        assert!(a_day_of(first, day), "{size:?}: {day:?}");
        assert_eq!(cursor, day.map(|d| d * DAY_SECS), "{size:?}");
    }
}

#[test]
fn at_1000x700_the_engine_events_show_beside_the_daily_usage() {
    let mut h = common::ui::embedded_app();
    h.set_size(egui::vec2(1000.0, 700.0));
    open_daily_history(&mut h, "RT-003 DAF XF 480 (Manchester)", "Last 7 days");
    let width = h.ctx.content_rect().right();
    let events = h.get_by_label_contains("Engine events:").rect();
    assert!(
        events.right() <= width,
        "the engine events' heading ({events:?}) is inside the window, {width} wide"
    );
    // The usage table is still there, scrolled sideways if need be.
    h.get_by_label("Day");
}
