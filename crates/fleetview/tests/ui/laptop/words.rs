//! Plain words, once (item 5), no file dialog (item 8) and stale errors
//! (item 14): what a failure says, where it says it, and when it goes.

use crate::common;

use common::ui::{equipment_name, pick, type_into, wait_until};

use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::{Level, Loadable};
use fleetview::shell::{AppOptions, FleetApp, FolderOpener, ServiceOptions, WallClock};
use fleetview_api::model::SecretValue;
use fleetview_core::worker::{SaveAnswer, SaveDialog, SaveRequest};
use fleetview_sandbox::simulate::FIRST_ID;

fn harness(options: AppOptions) -> Harness<'static, FleetApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

/// The app on a service, signed in with its token.
fn on_service(base: &str, token: &str) -> AppOptions {
    AppOptions {
        service: Some(ServiceOptions {
            base_url: base.to_owned(),
            token: Some(SecretValue::new(token.to_owned())),
            api_key: None,
            allow_insecure_http: false,
        }),
        clock: Some(common::now()),
        ..AppOptions::default()
    }
}

/// Every text on screen: labels, values, buttons (a label's lines, its
/// text runs, are not counted again).
fn texts(h: &Harness<'static, FleetApp>) -> Vec<String> {
    h.query_all_by(|n| n.role() != Role::TextRun)
        .map(|n| common::ui::node_text(&n))
        .filter(|t| !t.is_empty())
        .collect()
}

fn fleet_of(n: usize) -> impl Fn(&FleetApp) -> bool {
    move |app| !app.state().fleet().loading && app.state().fleet().equipments.len() == n
}

/// Item 5: a machine never opened, opened while the service is down. Its
/// five plots and its tables fail for one reason: one notice says it, with
/// the service's address; each panel says only what it lacks; the raw
/// text waits under Details.
#[test]
fn laptop_a_machine_never_opened_offline_says_the_cause_once() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let sb = rt.block_on(common::start_with(common::fixed_config()));
    let addr = sb.running.addr().to_string();
    let options = || AppOptions {
        cache_path: Some(dir.path().join("cache.sqlite")),
        ..on_service(&sb.base, &sb.token)
    };
    // Once online: the fleet is discovered (and cached); no machine opened.
    let mut h = harness(options());
    wait_until(&mut h, "the fleet", fleet_of(60));
    drop(h);
    rt.block_on(sb.running.shutdown());

    // The service is down: nothing listens at its address any more.
    let mut h = harness(options());
    wait_until(&mut h, "the cached fleet", |app| {
        app.state().fleet().cached_at.is_some()
    });
    let name = equipment_name(h.state(), FIRST_ID + 2);
    pick(&h, &name);
    h.step();
    h.get_by_label("Machine history").click();
    wait_until(&mut h, "every panel failed", |app| {
        let s = app.state();
        let t = s.timeline();
        t.plot_kinds.len() >= 2
            && t.plot_kinds
                .iter()
                .all(|k| t.plots.get(k).is_some_and(|p| p.error().is_some()))
            && s.faults().error().is_some()
            && t.track.error().is_some()
    });
    let plotted = h.state().state().timeline().plot_kinds.len();
    let shown = texts(&h);
    for raw in ["tcp connect error", "GET /v2", "network error", "os error"] {
        let found: Vec<_> = shown.iter().filter(|t| t.contains(raw)).collect();
        assert!(found.is_empty(), "'{raw}' is a headline: {found:#?}");
    }
    let cause = format!("Can't reach {addr}: nothing is listening there");
    let naming: Vec<_> = shown.iter().filter(|t| t.contains(&cause)).collect();
    assert_eq!(naming.len(), 1, "one notice names the cause: {shown:#?}");
    assert!(
        naming[0].contains("Showing what the cache holds"),
        "{}",
        naming[0]
    );
    let lacking = shown.iter().filter(|t| *t == "Not in the cache").count();
    assert!(
        lacking >= plotted,
        "each of the {plotted} plots says what it lacks: {shown:#?}"
    );
    assert!(
        h.state().state().notifications().is_empty(),
        "no toast per panel: {:?}",
        h.state().state().notifications()
    );

    // The technical text is there for who asks.
    h.get_by_label("Details").click();
    h.run_steps(3);
    assert!(
        texts(&h).iter().any(|t| t.contains("tcp connect error")),
        "the raw text under Details"
    );
}

/// Item 5: a wrong API key, tested from the Connections window, is said
/// as a sentence, not as the request that failed.
#[test]
fn laptop_a_wrong_api_key_reads_as_a_sentence() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let service = rt.block_on(common::start_with(common::fixed_config().fleet_size(5)));
    let mut h = harness(AppOptions {
        clock: Some(common::now()),
        ..AppOptions::default()
    });
    wait_until(&mut h, "the embedded fleet", fleet_of(60));
    h.get_by_label("Connections").click();
    h.run_steps(4);
    h.get_by_label("New profile").click();
    h.run_steps(2);
    type_into(&mut h, Role::TextInput, "Name", "Wrong key");
    type_into(&mut h, Role::TextInput, "Service URL", &service.base);
    type_into(
        &mut h,
        Role::TextInput,
        "API key name",
        fleetview_sandbox::auth::DEMO_API_KEY_NAME,
    );
    type_into(&mut h, Role::PasswordInput, "API key", "not-the-key-123");
    h.get_by_label("Test connection").click();
    wait_until(&mut h, "the test", |app| {
        app.state().test_result().is_some()
    });
    assert!(
        matches!(h.state().state().test_result(), Some(Err(_))),
        "refused"
    );
    let shown = texts(&h);
    assert!(
        shown.iter().all(|t| !t.contains("POST /login")),
        "the request is no headline: {shown:#?}"
    );
    assert!(
        shown
            .iter()
            .any(|t| t.starts_with("The service refused the API key")),
        "a sentence: {shown:#?}"
    );
}

/// A system where no file dialog can open (no desktop portal, no zenity).
#[derive(Debug)]
struct NoDialog;

impl SaveDialog for NoDialog {
    fn choose(
        &self,
        _request: SaveRequest,
    ) -> futures_util::future::BoxFuture<'static, SaveAnswer> {
        Box::pin(async {
            SaveAnswer::Unavailable("no desktop portal is installed and zenity is not".into())
        })
    }
}

/// Item 8: with no file dialog and no export folder given, an export is
/// written to the fallback folder, and a notice that stays says where,
/// with a button that opens the folder.
#[test]
fn laptop_with_no_file_dialog_an_export_lands_in_the_fallback_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    let downloads = dir.path().join("Downloads");
    let wall = Arc::new(AtomicI64::new(common::now()));
    let opened: Arc<Mutex<Vec<PathBuf>>> = Arc::default();
    let options = AppOptions {
        clock: Some(common::now()),
        wall_clock: WallClock::new({
            let wall = wall.clone();
            move || wall.load(Ordering::SeqCst)
        }),
        save_dialog: Some(Arc::new(NoDialog)),
        fallback_export_dir: Some(downloads.clone()),
        folder_opener: FolderOpener::new({
            let opened = opened.clone();
            move |path| {
                opened.lock().expect("opened").push(path.to_path_buf());
                Ok(())
            }
        }),
        ..AppOptions::default()
    };
    let mut h = harness(options);
    wait_until(&mut h, "the fleet", fleet_of(60));
    pick(&h, &equipment_name(h.state(), FIRST_ID + 1));
    h.step();
    h.get_by_label("Machine history").click();
    h.run_steps(2);
    h.get_by_label("Daily history").click();
    wait_until(&mut h, "the daily history", |app| {
        matches!(*app.state().history(), Loadable::Ready(_))
    });
    h.get_by_label("Export daily history (CSV)…").click();
    wait_until(&mut h, "the export's notice", |app| {
        !app.state().notifications().is_empty() && app.state().exports().under_way.is_empty()
    });

    let written: Vec<PathBuf> = std::fs::read_dir(&downloads)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    assert_eq!(
        written.len(),
        1,
        "one file in the fallback folder; notices {:?}",
        h.state().state().notifications()
    );
    let file = &written[0];
    let csv = std::fs::read_to_string(file).expect("the file");
    assert!(csv.lines().count() > 1, "rows written: {csv}");
    let path = file.display().to_string();
    let says_where = |h: &Harness<'static, FleetApp>| texts(h).iter().any(|t| t.contains(&path));
    assert!(says_where(&h), "the notice names {path}: {:#?}", texts(&h));
    h.get_by_label("Open folder");

    // It stays: past the time news goes, it is still there.
    wall.fetch_add(fleetview::app::NEWS_SECS * 3, Ordering::SeqCst);
    h.run_steps(5);
    assert!(says_where(&h), "the notice stayed");
    h.get_by_label("Open folder").click();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while opened.lock().expect("opened").is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the folder was never opened"
        );
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert_eq!(*opened.lock().expect("opened"), [downloads]);
}

fn integration_status(app: &FleetApp, name: &str) -> Option<String> {
    app.state()
        .catalog()
        .integrations
        .value()?
        .iter()
        .find(|i| i.name == name)
        .map(|i| i.status.clone())
}

/// Item 14: the edit form's complaint ("Replace all of ...") goes once a
/// later change succeeds.
#[test]
fn laptop_a_forms_complaint_goes_once_a_later_change_succeeds() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let sb = rt.block_on(common::start_with(common::fixed_config().fleet_size(5)));
    let mut h = harness(on_service(&sb.base, &sb.token));
    wait_until(&mut h, "the fleet", fleet_of(5));
    h.get_by_label("Integrations").click();
    wait_until(&mut h, "the catalog", |app| {
        matches!(app.state().catalog().integrations, Loadable::Ready(_))
    });
    h.get_by_label("Road trucks").click();
    h.run_steps(3);
    type_into(&mut h, Role::TextInput, "New server", "srv.example");
    h.get_by_label("Save changes").click();
    h.run_steps(3);
    h.get_by_label_contains("Replace all of");

    // Another change to it goes through: the complaint is stale.
    h.get_all_by_label("Deactivate")
        .nth(1)
        .expect("the row's button")
        .click();
    wait_until(&mut h, "stopped", |app| {
        integration_status(app, "Road trucks").as_deref() == Some("stopped")
    });
    assert!(
        h.query_by_label_contains("Replace all of").is_none(),
        "the complaint stayed after a change that succeeded"
    );
}

/// Item 14: a panel's notice goes when the panel next loads. A machine
/// the service no longer knows fails every panel; the next machine
/// loads them, and the notice goes with the panels' errors.
#[test]
fn laptop_a_panels_notice_goes_when_the_panel_next_loads() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let sb = rt.block_on(common::start_with(common::fixed_config().fleet_size(5)));
    let mut h = harness(on_service(&sb.base, &sb.token));
    wait_until(&mut h, "the fleet", fleet_of(5));
    let mut settings = h.state().state().settings();
    drop(h);
    settings.selected = Some(999_999);
    let mut h = harness(AppOptions {
        settings: Some(settings),
        ..on_service(&sb.base, &sb.token)
    });
    wait_until(&mut h, "the faults' failure", |app| {
        app.state().faults().error().is_some()
            && app
                .state()
                .notifications()
                .iter()
                .any(|n| n.level == Level::Error)
    });
    let failures: Vec<String> = h
        .state()
        .state()
        .notifications()
        .iter()
        .map(|n| n.title.clone())
        .collect();
    assert_eq!(failures.len(), 1, "one notice for one cause: {failures:?}");

    // The panels can fail before the fleet list has arrived.
    wait_until(&mut h, "the fleet", fleet_of(5));
    pick(&h, &equipment_name(h.state(), FIRST_ID + 1));
    h.step();
    h.get_by_label("Machine history").click();
    wait_until(&mut h, "the next machine's panels", |app| {
        let s = app.state();
        matches!(*s.faults(), Loadable::Ready(_))
            && matches!(*s.activities(), Loadable::Ready(_))
            && matches!(*s.history(), Loadable::Ready(_))
            && matches!(s.timeline().track, Loadable::Ready(_))
            && s.timeline()
                .plots
                .values()
                .all(|p| matches!(p, Loadable::Ready(_)))
    });
    let left: Vec<_> = h.state().state().notifications().to_vec();
    assert!(left.is_empty(), "the failure's notice stayed: {left:?}");
    assert!(h.query_by_label_contains(&failures[0]).is_none());
}
