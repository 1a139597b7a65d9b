//! The real app, driven through its accessibility tree (egui_kittest) as a
//! person would, against real sandboxes on loopback. Over 700 lines: the
//! app-wide flows (connections, settings, odd data) share one harness set-up.

use crate::common;

use common::ui::{service_body, type_into, wait_until};

use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::{Action, AppState, ConnStatus, Connection, Loadable, Preset, Tab};
use fleetview::shell::{AppOptions, FleetApp, ServiceOptions};
use fleetview::ui::{ViewState, app_ui, format};
use fleetview_api::DataKind;
use fleetview_api::model::*;
use fleetview_sandbox::simulate::FIRST_ID;

fn embedded() -> AppOptions {
    AppOptions {
        clock: Some(common::now()),
        ..AppOptions::default()
    }
}

fn harness(options: AppOptions) -> Harness<'static, FleetApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

fn fleet_loaded(app: &FleetApp) -> bool {
    !app.state().fleet().loading && app.state().fleet().equipments.len() == 60
}

#[test]
fn pick_a_machine_choose_a_window_and_see_what_the_service_has() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_loaded);
    assert!(
        h.state()
            .state()
            .title()
            .starts_with("Fleetview: Embedded sandbox")
    );
    let base = h.state().state().connection().base_url.clone();

    // A machine among the first rows that has both faults and activities.
    let w = Preset::Last30Days.window(common::now(), (0, 0));
    let (id, name, faults, activities) = (0..20)
        .find_map(|i| {
            let id = FIRST_ID + i;
            let f = service_body(&base, id, "faults", w)["data"]["total"].as_u64()?;
            let a = service_body(&base, id, "activities", w)["data"]["total"].as_u64()?;
            let name = h
                .state()
                .state()
                .fleet()
                .equipments
                .iter()
                .find(|e| e.id == id)?
                .name
                .clone();
            (f > 0 && a > 0).then_some((id, name, f, a))
        })
        .expect("a machine with faults and activities in 30 days");

    common::ui::pick(&h, &name);
    h.step();
    h.get_by_label("Last 30 days").click();
    wait_until(&mut h, "faults and activities", |app| {
        matches!(app.state().faults(), Loadable::Ready(_))
            && matches!(app.state().activities(), Loadable::Ready(_))
    });
    assert_eq!(h.state().state().selected(), Some(id));
    h.get_by_label_contains(&format!(
        "{} shown of {faults} in the window",
        format::count(faults as usize, "fault", "faults")
    ));
    h.get_by_label_contains(&format!(
        "since {} until {}",
        w.since_wire(),
        w.until_wire()
    ));

    h.get_by_label("Activities").click();
    h.run_steps(2);
    h.get_by_label_contains(&format!("{activities} activities, "));

    // Filtering by text narrows the fault rows. (The pointer moves onto the
    // tab before clicking, as a mouse does.)
    h.get_by_label("Faults").hover();
    h.run_steps(2);
    h.get_by_label("Faults").click();
    h.run_steps(2);
    type_into(
        &mut h,
        egui::accesskit::Role::TextInput,
        "Filter",
        "zzz-no-such-code",
    );
    h.get_by_label_contains(&format!("0 faults shown of {faults}"));
}

#[test]
fn search_narrows_the_list() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_loaded);
    let volvos = h
        .state()
        .state()
        .fleet()
        .equipments
        .iter()
        .filter(|e| e.matches("volvo"))
        .count();
    assert!(volvos > 0 && volvos < 60);
    h.get_by_label_contains("60 of 60 shown");
    assert!(
        h.query_all_by_label("WL-002 Liebherr L 550 XPower (Manchester)")
            .count()
            >= 1
    );
    type_into(&mut h, egui::accesskit::Role::TextInput, "Search", "Volvo");
    h.get_by_label_contains(&format!("{volvos} of 60 shown"));
    // Neither in the list nor in the overview's table.
    assert_eq!(
        h.query_all_by_label("WL-002 Liebherr L 550 XPower (Manchester)")
            .count(),
        0
    );
    assert!(
        h.query_all_by_label("EX-001 Volvo EC220E (Rotterdam)")
            .count()
            >= 1
    );
}

#[test]
fn engine_events_read_started_and_stopped_per_d10() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_loaded);
    let base = h.state().state().connection().base_url.clone();
    common::ui::pick(&h, "EX-001 Volvo EC220E (Rotterdam)");
    h.step();
    h.get_by_label("Yesterday").click();
    h.step();
    h.get_by_label("Daily history").click();
    wait_until(&mut h, "the history", |app| {
        matches!(app.state().history(), Loadable::Ready(_))
    });
    let w = Preset::Yesterday.window(common::now(), (0, 0));
    let kind = DataKind::EngineCondition.wire();
    let events = service_body(&base, FIRST_ID, kind, w);
    let rows = events["data"]["rows"].as_array().expect("rows").clone();
    let starts = rows.iter().filter(|r| r["running"] == false).count();
    let stops = rows.iter().filter(|r| r["running"] == true).count();
    assert!(starts > 0 && stops > 0, "a working day has engine events");
    // running: false is a start, running: true a stop (D10).
    h.get_by_label(&format!("Engine events: {starts} started, {stops} stopped"));
    h.get_all_by_label("started")
        .next()
        .expect("a start listed");
    h.get_all_by_label("stopped").next().expect("a stop listed");
    h.get_by_label_contains("Daily usage (1 day, UTC days)");
    h.get_by_label("VCE0EX52047");
}

#[test]
fn a_refused_token_shows_the_service_message_and_a_new_token_fixes_it() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let sb = rt.block_on(common::start());
    let options = AppOptions {
        service: Some(ServiceOptions {
            base_url: sb.base.clone(),
            token: Some(SecretValue::new("expired-or-wrong")),
            api_key: None,
            allow_insecure_http: false,
        }),
        clock: Some(common::now()),
        ..AppOptions::default()
    };
    let mut h = harness(options);
    wait_until(&mut h, "the refusal", |app| {
        matches!(app.state().connection().status, ConnStatus::Unauthorized(_))
    });
    h.get_by_label_contains("The service refused the access token: the access token is malformed");
    assert!(h.state().state().title().contains("token refused"));
    type_into(
        &mut h,
        egui::accesskit::Role::PasswordInput,
        "New access token",
        &sb.token,
    );
    h.get_by_label("Use token").click();
    wait_until(&mut h, "the fleet with the new token", fleet_loaded);
    assert!(matches!(
        h.state().state().connection().status,
        ConnStatus::Connected
    ));
    // The notice goes once connected with the new token.
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("refused the access token")
            .is_none()
    );
    drop(sb);
}

/// A state with odd data, drawn by the real panels.
fn odd_state() -> AppState {
    let mut connection = Connection::service(
        "http://127.0.0.1:1",
        false,
        fleetview_api::AuthMethod::Token,
    );
    connection.status = ConnStatus::Connected;
    let mut s = AppState::new(connection, Some(common::now()));
    s.machine_mut().selected = Some(42);
    let t = common::now();
    s.machine_mut().faults = Loadable::Ready(vec![
        FaultRow {
            date: Timestamp::from_secs(t),
            description: "".into(),
            identifier: "X".into(),
            severity: Some(99),
            level_label: Some("catastrophic".into()),
        },
        FaultRow {
            date: Timestamp::from_secs(t - 10),
            description: "no label".into(),
            identifier: "Y".into(),
            severity: None,
            level_label: None,
        },
        FaultRow {
            date: Timestamp::from_secs(t - 10),
            description: "dup".into(),
            identifier: "Y".into(),
            severity: Some(-1),
            level_label: Some("".into()),
        },
    ]);
    s.machine_mut().activities = Loadable::Ready(Arc::new(vec![ActivityRow {
        date_start: Timestamp::from_secs(t),
        date_stop: Timestamp::from_secs(t - 100),
        distance_meters: f64::NAN,
        average_speed_km_h: f64::INFINITY,
        first_position_address: "".into(),
        last_position_address: "somewhere".into(),
    }]));
    let day = serde_json::from_value::<DailyUsageRow>(serde_json::json!({"date": "2025-06-18T00:00:00Z",
        "operatingHours": {"hour": null}, "fuelUsed": {"fuelUsed": 3.5, "unit": "L", "estimated": true}})).expect("row");
    s.machine_mut().history = Loadable::Ready(Arc::new(EquipmentHistory {
        id: 42,
        name: "Odd".into(),
        make: "".into(),
        model: "?".into(),
        serial_number: "S".into(),
        pin: None,
        vin: None,
        positions: Page::of(vec![]),
        fault_codes: Page::of(vec![]),
        fuel_remainings: Page::of(vec![]),
        engine_conditions: Page::of(vec![
            EngineConditionRow::stopped_at(t),
            EngineConditionRow::stopped_at(t),
        ]),
        daily_usages: Page::of(vec![day]),
    }));
    s.catalog_mut().integrations = Loadable::Ready(vec![Integration {
        id: 9,
        name: "odd".into(),
        data_source_code: "NOT_A_SOURCE".into(),
        status: "pending-approval".into(),
    }]);
    // A fleet with blanks, a position off the globe, a fuel level below 0,
    // a placeholder date, and figures that failed.
    s.fleet_mut().on_page(
        vec![
            EquipmentSummary {
                id: 42,
                name: "".into(),
                ..Default::default()
            },
            EquipmentSummary {
                id: 43,
                name: "=odd".into(),
                category: Some("".into()),
                ..Default::default()
            },
        ],
        (2, 2),
        true,
        fleetview_core::worker::FleetSource::List,
    );
    let odd: fleetview_api::equipment::EquipmentSnapshot = serde_json::from_value(serde_json::json!({
        "id": 43,
        "lastPosition": {"date": "0001-01-01T00:00:00Z", "latitude": 999.0, "longitude": -500.0},
        "fuelRemaining": {"date": "2025-06-18T00:00:00Z", "percent": -5.0},
        "cumulativeOperatingHours": {"date": "2999-01-01T00:00:00Z", "hour": "lots"}
    }))
    .expect("an odd snapshot");
    s.overview_mut().on_snapshot_page(vec![odd], (1, 1), true);
    let window = s.selected_window();
    let _ = s.overview_mut().set_window(window);
    s.overview_mut()
        .figures_failed(42, "the service said no".into());
    s.refresh_overview_rows(t);
    s
}

/// Events with odd values: NaN litres and counters, empty fault codes,
/// a check of two zeros, no place.
fn odd_report() -> std::sync::Arc<fleetview_core::analysis::Report> {
    use fleetview_core::analysis::events::{CheckKind, CheckSide};
    use fleetview_core::analysis::{Event, EventDetail, EventKind};
    let event = |kind, detail| Event {
        kind,
        start: common::now() - 3600,
        end: None,
        position: None,
        detail,
    };
    let side = |series: &str| CheckSide {
        series: series.into(),
        value: 0.0,
    };
    std::sync::Arc::new(fleetview_core::analysis::Report {
        events: vec![
            event(
                EventKind::Refuel,
                EventDetail::Fuel {
                    from_percent: 10.0,
                    to_percent: 90.0,
                    litres: Some(f64::NAN),
                },
            ),
            event(
                EventKind::Fault,
                EventDetail::Fault {
                    identifier: String::new(),
                    description: "no code".into(),
                    severity: None,
                    level: String::new(),
                },
            ),
            event(
                EventKind::Check,
                EventDetail::Check {
                    check: CheckKind::Distance,
                    unit: "",
                    first: side("a"),
                    second: side("b"),
                },
            ),
            event(
                EventKind::CounterReset,
                EventDetail::CounterReset {
                    counter: "counter".into(),
                    before: f64::NAN,
                    after: 0.0,
                },
            ),
        ],
        ..Default::default()
    })
}

#[test]
fn odd_data_renders_without_a_panic() {
    for tab in [
        Tab::Fleet,
        Tab::Faults,
        Tab::Activities,
        Tab::History,
        Tab::Events,
        Tab::Service,
        Tab::Catalog,
    ] {
        let mut state = odd_state();
        let _ = state.on_action(Action::SetTab(tab));
        if tab == Tab::Events {
            state.figures_mut().report = fleetview::app::Loadable::Ready(odd_report());
        }
        let mut h = Harness::builder()
            .with_size(egui::vec2(1400.0, 900.0))
            .build_ui_state(
                |ui, (state, view): &mut (AppState, ViewState)| {
                    let _ = app_ui(ui, state, view, common::now());
                },
                (state, ViewState::default()),
            );
        h.run_steps(3);
        match tab {
            Tab::Fleet => {
                h.get_by_label_contains("2 of 2 machines shown");
                assert_eq!(h.get_all_by_label("=odd").count(), 2, "list and table");
                h.get_by_label("-5 %");
                let from_figures = fleetview::app::overview::Column::ALL
                    .iter()
                    .filter(|c| c.from_figures())
                    .count();
                assert_eq!(
                    h.get_all_by_label("failed").count(),
                    from_figures,
                    "each figure"
                );
            }
            Tab::Faults => {
                h.get_by_label("catastrophic");
                assert_eq!(
                    h.get_all_by_label("unknown").count(),
                    2,
                    "a missing or empty label shows as unknown"
                );
                h.get_by_label("99");
                h.get_by_label_contains("3 faults shown of 3");
            }
            Tab::Activities => {
                h.get_by_label_contains("1 activity,");
                h.get_by_label("somewhere");
            }
            Tab::Catalog => {
                // Any status string shows as it comes (D4); an unknown source by its code.
                h.get_by_label("pending-approval");
                h.get_by_label("NOT_A_SOURCE");
            }
            Tab::Events => {
                h.get_by_label_contains("4 events shown of 4");
                // An empty identifier and level leave the description.
                h.get_by_label("no code");
                // Nothing to divide: no percent, and no NaN.
                h.get_by_label("a 0.0 vs b 0.0: +0.0");
                h.get_by_label("counter — to 0.0");
                assert!(h.query_by_label_contains("NaN").is_none());
            }
            Tab::Service => {
                // No service book here: it says so, and nothing panics.
                h.get_by_label_contains("service plans cannot be kept");
            }
            Tab::History => {
                assert_eq!(h.get_all_by_label("stopped").count(), 2);
                h.get_by_label("3.50 (est.)");
                assert!(h.get_all_by_label("—").count() > 5, "nulls show as a dash");
            }
        }
    }
}

#[test]
fn a_large_fleet_stays_fluid() {
    let mut h = harness(AppOptions {
        sandbox_fleet_size: Some(10_000),
        ..embedded()
    });
    wait_until(&mut h, "10,000 machines", |app| {
        !app.state().fleet().loading && app.state().fleet().equipments.len() == 10_000
    });
    h.get_by_label_contains("10000 of 10000 shown");
    // Virtualised: only the rows on screen exist, not 10,000.
    let rows = h.query_all_by_label_contains(" (").count();
    assert!((10..100).contains(&rows), "{rows} list rows laid out");
    let last = h
        .state()
        .state()
        .fleet()
        .equipments
        .last()
        .map(|e| e.name.clone())
        .expect("a last machine");
    let code = last
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned();
    type_into(&mut h, egui::accesskit::Role::TextInput, "Search", &code);
    h.get_by_label_contains("1 of 10000 shown");
    // In the list (and in the overview's table, which the search filters too).
    h.get_all_by_label(&last).next().expect("listed").click();
    h.step();
    assert_eq!(h.state().state().selected(), Some(FIRST_ID + 9_999));
}

#[test]
fn connection_profiles_test_connect_switch_and_keep_no_token() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let service = rt.block_on(common::start_with(common::fixed_config().fleet_size(25)));
    let mut h = harness(embedded());
    wait_until(&mut h, "the embedded fleet", fleet_loaded);

    h.get_by_label("Connections").click();
    h.run_steps(4);
    h.get_by_label("New profile").click();
    h.run_steps(2);
    // New profiles sign in with an API key; this one pastes a token.
    h.get_by_role_and_label(egui::accesskit::Role::RadioButton, "Access token")
        .click();
    h.run_steps(2);
    type_into(
        &mut h,
        egui::accesskit::Role::TextInput,
        "Name",
        "Test service",
    );
    type_into(
        &mut h,
        egui::accesskit::Role::TextInput,
        "Service URL",
        &service.base,
    );
    type_into(
        &mut h,
        egui::accesskit::Role::PasswordInput,
        "Access token",
        &service.token,
    );
    h.get_by_label("Test connection").click();
    wait_until(&mut h, "the test", |app| {
        app.state().test_result().is_some()
    });
    h.get_by_label_contains("The service answered: 3 integrations.");

    h.get_by_label("Save").click();
    h.run_steps(2);
    assert_eq!(h.state().state().profiles().len(), 1);
    h.get_by_label("Edit").click();
    h.run_steps(2);
    // The token typed for the test is still there (masked): connect with it.
    h.get_by_label("Save and connect").click();
    wait_until(&mut h, "the service's fleet", |app| {
        !app.state().fleet().loading && app.state().fleet().equipments.len() == 25
    });
    assert_eq!(h.state().state().connection().label, "Test service");
    assert!(h.state().state().title().contains("Test service"));
    h.get_by_label_contains("the access token is kept");

    // Settings keep the profile, never the token.
    let settings = serde_json::to_string(&h.state().state().settings()).expect("settings");
    assert!(settings.contains(&service.base));
    assert!(
        !settings.contains(&service.token),
        "the token is not in the settings"
    );

    // And back to the embedded sandbox.
    h.get_by_label("Embedded sandbox: a simulated fleet on this computer")
        .click();
    wait_until(&mut h, "the embedded fleet again", fleet_loaded);
    assert!(h.state().state().connection().embedded);
    drop(service);
}

/// Opens Connections and fills a new profile, "Fleet account", signing in
/// to `url` with the API key named demo and `key`.
fn new_key_profile(h: &mut Harness<'static, FleetApp>, url: &str, key: &str) {
    h.get_by_label("Connections").click();
    h.run_steps(4);
    h.get_by_label("New profile").click();
    h.run_steps(2);
    for (label, text) in [
        ("Name", "Fleet account"),
        ("Service URL", url),
        ("API key name", "demo"),
    ] {
        type_into(h, egui::accesskit::Role::TextInput, label, text);
    }
    type_into(h, egui::accesskit::Role::PasswordInput, "API key", key);
}

#[test]
fn log_in_with_an_api_key_then_an_expired_token_is_renewed_without_asking() {
    use fleetview_sandbox::{Clock, ManualClock};
    const TTL_SECS: i64 = 900;
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let clock = ManualClock::new(common::now());
    let service = rt.block_on(common::start_with(
        common::fixed_config()
            .fleet_size(25)
            .clock(Clock::Manual(clock.clone()))
            .token_ttl_secs(TTL_SECS),
    ));
    let mut h = harness(embedded());
    wait_until(&mut h, "the embedded fleet", fleet_loaded);

    new_key_profile(&mut h, &service.base, "demo");
    let logins = service.running.login_count();
    h.get_by_label("Save and connect").click();
    wait_until(&mut h, "the fleet from the equipment list", |app| {
        let fleet = app.state().fleet();
        !fleet.loading
            && fleet.equipments.len() == 25
            && fleet.source == fleetview_core::worker::FleetSource::List
    });
    assert_eq!(service.running.login_count(), logins + 1);
    let user = h
        .state()
        .state()
        .conn()
        .user
        .clone()
        .expect("who is logged in");
    let email = user.email.clone().expect("an e-mail");
    h.get_by_label_contains(&format!(
        "Signed in as {}",
        user.label().unwrap_or_default()
    ));
    assert!(email.contains('@'));
    // The list's own fields came along.
    assert!(
        h.state()
            .state()
            .fleet()
            .equipments
            .iter()
            .all(|e| e.category.is_some()),
    );
    h.get_by_label_contains("the API key is kept");
    let settings = serde_json::to_string(&h.state().state().settings()).expect("settings");
    assert!(settings.contains("\"demo\""), "the key's name is kept");

    // The token runs out; the next fetch logs in again by itself, once.
    clock.advance(TTL_SECS + 1);
    let name = h.state().state().fleet().equipments[3].name.clone();
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Connections")
        .click();
    h.run_steps(2);
    assert!(
        h.query_by_label("New profile").is_none(),
        "the button closes the window it opened"
    );
    common::ui::pick(&h, &name);
    wait_until(&mut h, "the machine's faults", |app| {
        matches!(app.state().faults(), Loadable::Ready(_))
    });
    assert_eq!(h.state().state().connection().status, ConnStatus::Connected);
    assert_eq!(
        service.running.login_count(),
        logins + 2,
        "exactly one more login"
    );
    assert!(h.query_by_label_contains("refused").is_none());
    drop(service);
}

/// Found under Xvfb: a refused API key was called a refused token, the
/// Connections window covered the field asking for the key, Enter in it did
/// nothing, the notice stayed once logged in, and the key that worked was not
/// kept: the profile came back with the refused one.
#[test]
fn a_refused_api_key_is_asked_for_under_the_top_bar_and_kept_once_it_works() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let service = rt.block_on(common::start_with(common::fixed_config().fleet_size(25)));
    let mut h = harness(embedded());
    wait_until(&mut h, "the embedded fleet", fleet_loaded);
    new_key_profile(&mut h, &service.base, "not-it");
    h.get_by_label("Save and connect").click();
    wait_until(&mut h, "the key refused", |app| {
        matches!(app.state().connection().status, ConnStatus::Unauthorized(_))
    });
    h.run_steps(2);
    h.get_by_label("API key refused");
    h.get_by_label_contains("The service refused the API key");
    assert!(
        h.query_by_label("New profile").is_none(),
        "the window is out of the way of the field"
    );
    // The key, and Enter.
    let field = h.get_by_role_and_label(egui::accesskit::Role::PasswordInput, "API key");
    field.click();
    h.run_steps(1);
    h.get_by_role_and_label(egui::accesskit::Role::PasswordInput, "API key")
        .type_text("demo");
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    wait_until(&mut h, "the service's fleet", |app| {
        !app.state().fleet().loading && app.state().fleet().equipments.len() == 25
    });
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("The service refused the API key")
            .is_none(),
        "the notice goes once logged in"
    );
    // Away and back: the profile uses the key that worked.
    h.get_by_label("Connections").click();
    h.run_steps(4);
    h.get_by_label("Embedded sandbox: a simulated fleet on this computer")
        .click();
    wait_until(&mut h, "the embedded fleet again", fleet_loaded);
    h.get_by_label("Connect").click();
    wait_until(&mut h, "the profile's fleet again", |app| {
        !app.state().fleet().loading && app.state().fleet().equipments.len() == 25
    });
    assert_eq!(h.state().state().connection().status, ConnStatus::Connected);
    drop(service);
}

/// Found under Xvfb: a plot whose fetch failed showed its error and, under
/// it, "Loading…" spinning for ever. The error alone says it.
#[test]
fn a_failed_plot_shows_its_error_and_no_loading() {
    let mut state = odd_state();
    let t = common::now();
    state.machine_mut().window = Some(fleetview_api::TimeWindow {
        since: t - 86_400,
        until: t,
    });
    let _ = state.on_action(Action::SetTab(Tab::Faults));
    state.timeline_mut().plot_kinds = vec![DataKind::FuelRemaining, DataKind::BatteryVoltage];
    let mut failed = Loadable::default();
    failed.fail("the access token has expired");
    state
        .timeline_mut()
        .plots
        .insert(DataKind::FuelRemaining, failed);
    let mut pending = Loadable::default();
    pending.start();
    state
        .timeline_mut()
        .plots
        .insert(DataKind::BatteryVoltage, pending);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(
            |ui, (state, view): &mut (AppState, ViewState)| {
                let _ = app_ui(ui, state, view, common::now());
            },
            (state, ViewState::default()),
        );
    h.run_steps(3);
    h.get_by_label("the access token has expired");
    assert_eq!(
        h.get_all_by_label("Loading…").count(),
        1,
        "only the pending kind is loading"
    );
}
