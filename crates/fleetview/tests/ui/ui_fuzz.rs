//! Property test: random rows (nulls, NaN, huge values, unknown labels,
//! unsorted and duplicate dates, windows from a second to centuries) through
//! every panel of the machine view (plots, state lanes, map, faults,
//! activities, daily history), hovered and clicked, without a panic; the
//! counts shown are those of the rows given.

use crate::common;

use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::{Action, AppState, ConnStatus, Connection, Loadable, Tab};
use fleetview::ui::{ViewState, app_ui};
use fleetview_api::model::{ActivityRow, FaultRow};
use fleetview_api::time::TimeWindow;
use fleetview_api::{DataKind, Timestamp};
use fleetview_core::series::{PlotSeries, Track, TrackSample, decode_rows};
use proptest::prelude::*;
use serde_json::{Value, json};

/// A time that is sometimes ordinary, sometimes far away, often repeated.
fn time() -> impl Strategy<Value = i64> {
    prop_oneof![
        6 => 1_750_000_000i64..1_750_200_000,
        1 => Just(1_750_100_000i64),
        1 => -100_000_000_000i64..100_000_000_000,
    ]
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => (-1e4f64..1e4).prop_map(Value::from),
        1 => Just(Value::Null),
        1 => Just(json!(1e308)),
        1 => Just(json!(-1e308)),
        1 => Just(json!("n/a")),
    ]
}

fn wire(t: i64) -> Value {
    jiff::Timestamp::from_second(t).map_or(json!("garbage"), |d| {
        json!(d.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
    })
}

/// Rows of any shape: a value, a nested value with a unit and an estimated
/// flag, a boolean, a label; dates unsorted, repeated, missing.
fn rows() -> impl Strategy<Value = Vec<Value>> {
    proptest::collection::vec(
        (
            time(),
            number(),
            number(),
            any::<Option<bool>>(),
            any::<Option<bool>>(),
            prop_oneof![Just("charging"), Just("idle"), Just(""), Just("ünknown ☃")],
            any::<bool>(),
        ),
        0..200,
    )
    .prop_map(|rows| {
        rows.into_iter()
            .map(|(t, v, n, flag, est, label, dated)| {
                let mut row = json!({
                    "value": v,
                    "fuelUsed": {"fuelUsed": n, "unit": "L", "estimated": est},
                    "running": flag,
                    "state": label,
                });
                if dated {
                    row["date"] = wire(t);
                }
                row
            })
            .collect()
    })
}

fn sample() -> impl Strategy<Value = TrackSample> {
    (
        time(),
        prop_oneof![8 => -90.0f64..90.0, 1 => Just(f64::NAN), 1 => Just(1e300)],
        prop_oneof![8 => -180.0f64..180.0, 1 => Just(f64::INFINITY)],
        proptest::option::of(prop_oneof![0.0f64..200.0, Just(f64::NAN), Just(1e12)]),
    )
        .prop_map(|(time, lat, lon, speed)| {
            TrackSample::at(time, lat, lon)
                .with_speed_kmh(speed)
                .with_altitude_m(speed)
        })
}

fn fault() -> impl Strategy<Value = FaultRow> {
    (
        time(),
        proptest::option::of(any::<i64>()),
        proptest::option::of(prop_oneof![Just("warning"), Just("bogus"), Just("")]),
    )
        .prop_map(|(t, severity, label)| FaultRow {
            date: Timestamp::from_secs(t),
            description: "d".into(),
            identifier: "SPN 1 FMI 2".into(),
            severity,
            level_label: label.map(str::to_owned),
        })
}

fn activity() -> impl Strategy<Value = ActivityRow> {
    (time(), time(), number()).prop_map(|(a, b, d)| ActivityRow {
        date_start: Timestamp::from_secs(a),
        date_stop: Timestamp::from_secs(b),
        distance_meters: d.as_f64().unwrap_or(f64::NAN),
        average_speed_km_h: f64::NAN,
        first_position_address: "from".into(),
        last_position_address: "to".into(),
    })
}

fn state(
    rows: &[Value],
    samples: Vec<TrackSample>,
    faults: Vec<FaultRow>,
    activities: Vec<ActivityRow>,
    window: TimeWindow,
    cursor: Option<i64>,
    selected_activity: Option<usize>,
) -> AppState {
    let mut connection = Connection::service(
        "http://127.0.0.1:1",
        false,
        fleetview_api::AuthMethod::Token,
    );
    connection.status = ConnStatus::Connected;
    let mut s = AppState::new(connection, Some(common::now()));
    s.machine_mut().selected = Some(7);
    s.machine_mut().window = Some(window);
    let bytes = serde_json::to_vec(rows).expect("rows serialise");
    let series = decode_rows(&bytes).expect("rows of any shape decode");
    let series = Arc::new(PlotSeries::new(series));
    // The same rows as three kinds: values, engine lanes (D10), labels.
    s.timeline_mut().plot_kinds = vec![
        DataKind::DailyFuel,
        DataKind::EngineCondition,
        DataKind::EvChargingState,
    ];
    for k in &s.timeline().plot_kinds.clone() {
        s.timeline_mut()
            .plots
            .insert(*k, Loadable::Ready(series.clone()));
    }
    s.timeline_mut().track = Loadable::Ready(Arc::new(Track::new(samples)));
    s.timeline_mut().cursor = cursor;
    s.timeline_mut().selected_activity = selected_activity;
    s.machine_mut().faults = Loadable::Ready(faults);
    s.machine_mut().activities = Loadable::Ready(Arc::new(activities));
    s
}

proptest! {
    // Each case runs the whole UI for a dozen frames: few by default,
    // more with PROPTEST_CASES for a long run.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(24)
    ))]

    #[test]
    fn any_rows_render_in_every_panel_without_a_panic(
        rows in rows(),
        samples in proptest::collection::vec(sample(), 0..300),
        faults in proptest::collection::vec(fault(), 0..20),
        activities in proptest::collection::vec(activity(), 0..10),
        since in time(),
        span in prop_oneof![Just(1i64), 1i64..86_400, 86_400i64..3_000_000_000],
        cursor in proptest::option::of(time()),
        selected in proptest::option::of(0usize..12),
        tab in prop_oneof![Just(Tab::Faults), Just(Tab::Activities), Just(Tab::History)],
    ) {
        let window = TimeWindow { since, until: since.saturating_add(span) };
        let (n_faults, n_activities) = (faults.len(), activities.len());
        let mut state = state(&rows, samples, faults, activities, window, cursor, selected);
        let _ = state.on_action(Action::SetTab(tab));
        // Labels from the service may hold any character: the app draws
        // a box for one no font has, as here.
        let mut h = Harness::builder()
            .with_size(egui::vec2(1400.0, 900.0))
            .allow_missing_glyphs()
            .build_ui_state(
                |ui, (state, view): &mut (AppState, ViewState)| {
                    let _ = app_ui(ui, state, view, common::now());
                },
                (state, ViewState::default()),
            );
        h.run_steps(3);
        // Over the map, then over the plots, then a click on each.
        for pos in [egui::pos2(500.0, 400.0), egui::pos2(1100.0, 300.0)] {
            h.hover_at(pos);
            h.run_steps(2);
            h.drag_at(pos);
            h.step();
            h.drop_at(pos);
            h.run_steps(2);
        }
        match tab {
            Tab::Faults => {
                h.get_by_label_contains(&format!("shown of {n_faults} in the window"));
            }
            Tab::Activities => {
                let noun = if n_activities == 1 { "activity" } else { "activities" };
                h.get_by_label_contains(&format!("{n_activities} {noun}"));
            }
            _ => {}
        }
    }
}
