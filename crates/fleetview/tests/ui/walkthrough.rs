//! What a fleet manager hits in the first ten minutes, each found by using
//! the app and replayed here through the accessibility tree (egui_kittest)
//! against real sandboxes.

use crate::common;

use common::ui::{type_into, wait_until};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fleetview::app::Level;
use fleetview::shell::{AppOptions, FleetApp};

fn embedded() -> AppOptions {
    AppOptions {
        clock: Some(common::now()),
        ..AppOptions::default()
    }
}

/// The app on a separate sandbox instead of the embedded one.
fn on_service(base: &str, token: &str) -> AppOptions {
    AppOptions {
        service: Some(fleetview::shell::ServiceOptions {
            base_url: base.to_owned(),
            token: Some(fleetview_api::model::SecretValue::new(token)),
            api_key: None,
            allow_insecure_http: false,
        }),
        ..embedded()
    }
}

fn harness(options: AppOptions) -> Harness<'static, FleetApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .with_step_dt(1.0 / 60.0)
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

fn fleet_of(n: usize) -> impl Fn(&FleetApp) -> bool {
    move |app| !app.state().fleet().loading && app.state().fleet().equipments.len() == n
}

/// Opens the Connections window and a new profile signing in with a token,
/// with these fields.
fn new_profile(h: &mut Harness<'static, FleetApp>, name: &str, url: &str, token: Option<&str>) {
    h.get_by_label("Connections").click();
    h.run_steps(4);
    h.get_by_label("New profile").click();
    h.run_steps(2);
    h.get_by_role_and_label(Role::RadioButton, "Access token")
        .click();
    h.run_steps(2);
    type_into(h, Role::TextInput, "Name", name);
    type_into(h, Role::TextInput, "Service URL", url);
    if let Some(token) = token {
        type_into(h, Role::PasswordInput, "Access token", token);
    }
}

/// Item 9: a new profile tested with a token and saved connects from the
/// list (the token typed was kept), and "Save and connect" is offered for
/// it at once, without going through Edit.
#[test]
fn a_saved_profile_connects_with_the_token_typed_for_it() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let service = rt.block_on(common::start_with(common::fixed_config().fleet_size(25)));
    let mut h = harness(embedded());
    wait_until(&mut h, "the embedded fleet", fleet_of(60));

    new_profile(&mut h, "Test service", &service.base, Some(&service.token));
    h.get_by_label("Test connection").click();
    wait_until(&mut h, "the test", |app| {
        app.state().test_result().is_some()
    });
    h.get_by_label_contains("The service answered: 3 integrations.");
    h.get_by_label("Save").click();
    h.run_steps(2);
    assert!(
        !h.get_by_label("Save and connect")
            .accesskit_node()
            .is_disabled(),
        "a saved profile can be connected to at once"
    );
    h.get_by_label("Connect").click();
    wait_until(&mut h, "the service's fleet", fleet_of(25));
    assert_eq!(h.state().state().connection().label, "Test service");
    assert!(
        h.state()
            .state()
            .notifications()
            .iter()
            .all(|n| n.level != Level::Error),
        "no error: {:?}",
        h.state().state().notifications()
    );
    drop(service);
}

/// Item 9: the notice of a failed connection goes once it works; with no
/// token kept, the token is asked for under the top bar and kept.
#[test]
fn a_failed_connection_notice_goes_once_connected() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let service = rt.block_on(common::start_with(common::fixed_config().fleet_size(25)));
    let mut h = harness(embedded());
    wait_until(&mut h, "the embedded fleet", fleet_of(60));

    // No token anywhere: connecting asks for one under the top bar, and
    // the window steps aside so the field can be reached.
    new_profile(&mut h, "No token yet", &service.base, None);
    h.get_by_label("Save and connect").click();
    wait_until(&mut h, "the failure", |app| {
        app.state()
            .notifications()
            .iter()
            .any(|n| n.title == "No access token is kept for this service on this computer")
    });
    h.run_steps(2);
    h.get_by_label("no access token");
    assert!(
        h.query_by_label("New profile").is_none(),
        "the window stepped aside"
    );
    // The token, typed now: connected, the notice is gone, and the profile
    // keeps the token.
    type_into(
        &mut h,
        Role::PasswordInput,
        "New access token",
        &service.token,
    );
    h.get_by_label("Use token").click();
    wait_until(&mut h, "the service's fleet", fleet_of(25));
    h.run_steps(2);
    assert!(
        h.state().state().notifications().is_empty(),
        "{:?}",
        h.state().state().notifications()
    );
    wait_until(&mut h, "the token kept for the profile", |app| {
        app.state().conn().token_note.is_some()
    });
    drop(service);
}

/// Item 5: at 1x, a second of frames moves the cursor by a second (it ran
/// at about 13 s a second at 1x and 10x).
#[test]
fn replay_at_1x_moves_one_second_per_second() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    let truck = h
        .state()
        .state()
        .fleet()
        .equipments
        .iter()
        .find(|e| e.name.starts_with("RT-"))
        .map(|e| e.name.clone())
        .expect("a road truck");
    common::ui::pick(&h, &truck);
    h.step();
    h.get_by_label("Yesterday").click();
    wait_until(&mut h, "the track", |app| {
        app.state().timeline().track.value().is_some()
    });
    h.get_by_label("Speed").click();
    h.run_steps(2);
    h.get_by_label("1x").click();
    h.run_steps(2);
    assert_eq!(h.state().state().timeline().replay.speed, 1.0);
    // Machine time as it runs, parked hours included (skipped, the parked
    // night before the first start is jumped over).
    h.get_by_label("Skip engine-off").click();
    h.run_steps(2);
    assert!(!h.state().state().timeline().replay.skip_engine_off);
    h.get_by_label("Play").click();
    h.step();
    let start = h.state().state().timeline().cursor.expect("a cursor");
    // Two seconds of frames at 60 frames a second.
    h.run_steps(120);
    let moved = h.state().state().timeline().cursor.expect("a cursor") - start;
    assert!(
        (1..=3).contains(&moved),
        "moved {moved} s of machine time in 2 s at 1x"
    );
}

/// Item 4: the embedded sandbox's data is cached under one stable name, not
/// its port (new at each start), so a restart reuses it and the cache does
/// not grow.
#[test]
fn the_embedded_sandbox_is_cached_under_one_name_across_restarts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let windows = || {
        let db = rusqlite::Connection::open(&cache).expect("the cache file");
        let count: i64 = db
            .query_row("SELECT COUNT(*) FROM windows", [], |r| r.get(0))
            .expect("count");
        let names: Vec<String> = db
            .prepare("SELECT DISTINCT base_url FROM windows")
            .and_then(|mut q| {
                q.query_map([], |r| r.get(0))?
                    .collect::<Result<Vec<String>, _>>()
            })
            .expect("names");
        (count, names)
    };
    let mut runs = Vec::new();
    for _ in 0..2 {
        let options = AppOptions {
            cache_path: Some(cache.clone()),
            ..embedded()
        };
        let mut h = harness(options);
        wait_until(&mut h, "the fleet", fleet_of(60));
        // The overview's figures and the attention strip's look-back are
        // read while it shows: all of them, so both runs store the same
        // windows.
        wait_until(&mut h, "the overview's figures", |app| {
            let s = app.state();
            let n = s.fleet().equipments.len();
            s.overview().figures_loading(n) == 0 && s.overview().look_back.loading(n) == 0
        });
        let url = h.state().state().connection().base_url.clone();
        common::ui::pick(&h, "EX-001 Volvo EC220E (Rotterdam)");
        h.step();
        h.get_by_label("Last 7 days").click();
        // Everything of the week answered (not the day before, kept on
        // screen while the week loads): its windows are stored.
        wait_until(&mut h, "the machine's data", |app| {
            use fleetview::app::Loadable::Ready;
            let s = app.state();
            matches!(s.faults(), Ready(_))
                && matches!(s.activities(), Ready(_))
                && matches!(s.history(), Ready(_))
                && matches!(s.timeline().track, Ready(_))
                && s.timeline().plots.values().all(|p| matches!(p, Ready(_)))
                // The window figures read the daily idle fuel too.
                && matches!(s.figures().report, Ready(_))
        });
        drop(h);
        runs.push((url, windows()));
    }
    assert_ne!(runs[0].0, runs[1].0, "each start has its own port");
    let ((_, (first, names)), (_, (second, _))) = (&runs[0], &runs[1]);
    assert_eq!(
        names.len(),
        1,
        "one name for the embedded sandbox: {names:?}"
    );
    assert!(
        !names[0].contains("127.0.0.1"),
        "not keyed by the address: {names:?}"
    );
    assert_eq!(
        first, second,
        "the restart stored no window again: {runs:?}"
    );
}

/// Item 10: on the Integrations tab, fields read as words, only secrets are
/// masked, a stale "Choose a data source first." goes when one is chosen,
/// and a rename keeps the new name in its field.
#[test]
fn the_integration_forms_read_well_and_keep_what_was_saved() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    h.get_by_label("Integrations").click();
    wait_until(&mut h, "the integrations", |app| {
        app.state().catalog().integrations.value().is_some()
    });
    h.run_steps(2);
    h.get_by_label("Create integration").click();
    h.run_steps(2);
    h.get_by_label("Choose a data source first.");
    h.get_by_role_and_label(Role::ComboBox, "Data source")
        .click();
    h.run_steps(3);
    h.get_by_role_and_label(Role::Button, "Geotab MyGeotab")
        .click();
    h.run_steps(3);
    assert!(
        h.query_by_label("Choose a data source first.").is_none(),
        "the note goes once a source is chosen"
    );
    // Names are shown, secrets masked, each under a readable label.
    h.get_by_role_and_label(Role::TextInput, "Username");
    h.get_by_role_and_label(Role::TextInput, "Server");
    h.get_by_role_and_label(Role::PasswordInput, "Password");
    h.get_by_role_and_label(Role::ComboBox, "Data source")
        .click();
    h.run_steps(3);
    h.get_by_role_and_label(Role::Button, "Caterpillar VisionLink")
        .click();
    h.run_steps(3);
    h.get_by_role_and_label(Role::TextInput, "Client ID");
    h.get_by_role_and_label(Role::PasswordInput, "Client secret");
    assert!(h.query_by_label("clientSecret").is_none(), "no camelCase");

    // Rename the first integration: the field keeps the new name.
    let first = h
        .state()
        .state()
        .catalog()
        .integrations
        .value()
        .expect("a list")[0]
        .clone();
    h.get_by_label(&first.name).click();
    h.run_steps(2);
    let field = || Role::TextInput;
    h.get_by_role_and_label(field(), "New name").focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.get_by_role_and_label(field(), "New name")
        .type_text("Renamed fleet feed");
    h.run_steps(2);
    h.get_by_label("Save changes").click();
    wait_until(&mut h, "the rename", |app| {
        app.state()
            .catalog()
            .integrations
            .value()
            .is_some_and(|l| l.iter().any(|i| i.name == "Renamed fleet feed"))
            && !app.state().catalog().integrations.is_pending()
    });
    assert_eq!(
        h.get_by_role_and_label(field(), "New name")
            .value()
            .as_deref(),
        Some("Renamed fleet feed"),
        "Save again must not undo the rename"
    );
}

/// Item 12: an unknown id typed by hand gives one notice in plain words
/// (it gave six stacked raw errors, one per panel); the raw text is kept as
/// its detail.
#[test]
fn an_unknown_machine_gives_one_plain_notice() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    type_into(&mut h, Role::TextInput, "Equipment id", "999999");
    h.get_by_label("Open").click();
    wait_until(&mut h, "every panel's answer", |app| {
        let s = app.state();
        s.faults().error().is_some()
            && s.activities().error().is_some()
            && s.history().error().is_some()
            && s.timeline().track.error().is_some()
    });
    h.run_steps(3);
    let errors: Vec<_> = h
        .state()
        .state()
        .notifications()
        .iter()
        .filter(|n| n.level == Level::Error)
        .cloned()
        .collect();
    assert_eq!(errors.len(), 1, "one notice for one cause: {errors:?}");
    let title = &errors[0].title;
    assert!(
        title.contains("999999") && !title.contains("GET /"),
        "{title}"
    );
    assert!(errors[0].detail.contains("GET /v2/fleet/equipments/999999"));
    h.get_by_label(title.as_str());
}

/// The fuel plot's x range now (its zoom and pan), if drawn.
fn fuel_plot(h: &Harness<'static, FleetApp>) -> Option<(egui::Rect, f64, f64)> {
    let s = h.state().state();
    let window = s.window()?;
    let id = fleetview::ui::plots::plot_id(
        fleetview_api::DataKind::FuelRemaining,
        0,
        window,
        s.timeline().view_generation,
    );
    let mem = egui_plot::PlotMemory::load(&h.ctx, id)?;
    let b = mem.bounds();
    Some((*mem.transform().frame(), b.min()[0], b.max()[0]))
}

/// Drags across the middle of a plot, as a person pans it.
fn pan(h: &mut Harness<'static, FleetApp>, frame: egui::Rect, dx: f32) {
    let from = frame.center();
    common::ui::drag(h, from, from + egui::vec2(dx, 0.0));
}

/// Item 1: once panned, the plots came back to the whole window for no new
/// machine, window or Refresh (empty plots until a restart).
#[test]
fn plots_show_the_whole_window_after_a_pan_and_a_new_choice() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    common::ui::pick(&h, "EX-001 Volvo EC220E (Rotterdam)");
    h.step();
    h.get_by_label("Last 7 days").click();
    wait_until(&mut h, "the fuel plot", |app| {
        app.state()
            .timeline()
            .plots
            .get(&fleetview_api::DataKind::FuelRemaining)
            .is_some_and(|p| p.value().is_some())
    });
    h.run_steps(3);
    let whole = |h: &Harness<'static, FleetApp>| {
        let w = h.state().state().window().expect("a window");
        let (_, t0, t1) = fuel_plot(h).expect("the fuel plot is drawn");
        (t0 - w.since as f64).abs() < 1.0 && (t1 - w.until as f64).abs() < 1.0
    };
    assert!(whole(&h), "a new machine shows its whole window");

    for (again, label) in [
        ("Yesterday", "another window"),
        ("Yesterday", "the same preset again"),
        ("Refresh", "Refresh"),
    ] {
        let (frame, ..) = fuel_plot(&h).expect("the fuel plot");
        pan(&mut h, frame, -200.0);
        assert!(!whole(&h), "the pan moved the plot");
        h.get_by_label(again).click();
        h.run_steps(4);
        assert!(whole(&h), "{label} shows the whole window again");
    }

    // A double-click shows the whole window too.
    let (frame, ..) = fuel_plot(&h).expect("the fuel plot");
    pan(&mut h, frame, 150.0);
    assert!(!whole(&h));
    let at = frame.center();
    h.hover_at(at);
    h.step();
    for _ in 0..2 {
        for pressed in [true, false] {
            h.event(egui::Event::PointerButton {
                pos: at,
                button: egui::PointerButton::Primary,
                pressed,
                modifiers: egui::Modifiers::NONE,
            });
        }
        h.step();
    }
    h.run_steps(4);
    assert!(whole(&h), "double-click shows the whole window");
}

/// Item 2: answers for a machine picked a moment before another never show
/// as the other's. Every answer is slowed down, so the first machine's come
/// while the second's are on their way.
#[test]
fn a_quick_switch_shows_only_the_second_machines_data() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let chaos =
        fleetview_sandbox::chaos::ChaosConfig::parse("latency_ms=150,latency=1").expect("spec");
    let sb = rt.block_on(common::start_with(common::fixed_config().chaos(chaos)));
    let options = on_service(&sb.base, &sb.token);
    let mut h = harness(options);
    wait_until(&mut h, "the fleet", fleet_of(60));
    let (first, second) = (1001, 1003);
    let name = |h: &Harness<'static, FleetApp>, id| common::ui::equipment_name(h.state(), id);
    let (a, b) = (name(&h, first), name(&h, second));
    common::ui::pick(&h, &a);
    h.step();
    h.get_by_label("Last 7 days").click();
    h.step();
    common::ui::pick(&h, &b);
    h.step();
    wait_until(&mut h, "the second machine's data", |app| {
        let s = app.state();
        s.faults().value().is_some()
            && s.timeline().track.value().is_some()
            && s.history().value().is_some()
            && s.timeline().plots.values().all(|p| p.value().is_some())
    });
    let s = h.state().state();
    assert_eq!(s.selected(), Some(second));
    let w = s.window().expect("a window");
    let total = |segment: &str| {
        common::ui::service_body(&sb.base, second, segment, w)["data"]["total"]
            .as_u64()
            .unwrap_or(0) as usize
    };
    assert_eq!(s.faults().value().map(Vec::len), Some(total("faults")));
    assert_eq!(
        s.timeline().track.value().map(|t| t.len()),
        Some(total("positions"))
    );
    let history = s.history().value().expect("the history");
    assert_eq!(history.id, second, "the history is the second machine's");
    drop(sb);
}

mod layout;

mod map;

mod plots;

mod limits;
