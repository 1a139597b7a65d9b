//! The catalog editor as a person uses it, against a real sandbox, and an
//! audit of everything the app wrote for the secrets it was given.

use crate::common;

use common::ui::{export_via_ui, on_sandbox, type_into, wait_for_fleet, wait_until};

use std::io::Write;
use std::sync::{Arc, Mutex};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::Loadable;
use fleetview::shell::{AppOptions, FleetApp};

/// Everything logged, by any thread, at any level.
#[derive(Clone, Default)]
struct LogFile(Arc<Mutex<Vec<u8>>>);

impl Write for LogFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One capture of all logging for this test binary (the logger is global).
fn log_capture() -> LogFile {
    static LOG: std::sync::OnceLock<LogFile> = std::sync::OnceLock::new();
    LOG.get_or_init(|| {
        let log = LogFile::default();
        let writer = log.clone();
        tracing_subscriber::fmt()
            .with_env_filter("trace")
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .try_init()
            .expect("the test's logger");
        log
    })
    .clone()
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

#[test]
fn create_rename_deactivate_activate_delete_and_no_secret_anywhere() {
    let log = log_capture();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let sb = rt.block_on(common::start());
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let options = AppOptions {
        export_dir: Some(dir.path().join("exports")),
        ..on_sandbox(&sb, Some(cache.clone()))
    };
    std::fs::create_dir_all(dir.path().join("exports")).expect("exports dir");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(move |cc| FleetApp::new(cc, options));
    wait_for_fleet(&mut h, None);
    // Some history goes through the cache too, so the audit covers it.
    common::ui::pick(&h, "EX-001 Volvo EC220E (Rotterdam)");
    wait_until(&mut h, "the faults", |app| {
        matches!(app.state().faults(), Loadable::Ready(_))
    });

    h.get_by_label("Integrations").click();
    wait_until(&mut h, "the catalog", |app| {
        matches!(app.state().catalog().integrations, Loadable::Ready(_))
    });
    h.get_by_label_contains("3 integrations");
    // The data sources table, and the seeded integration of that source.
    assert_eq!(h.query_all_by_label("Geotab MyGeotab").count(), 2);
    h.get_by_label("server, database, username, password");

    // Create, first with a field missing: the error shows and nothing is sent.
    h.get_by_role_and_label(Role::ComboBox, "Data source")
        .click();
    h.run_steps(3);
    // The open list's entry is the one that is a button.
    h.get_by_role_and_label(Role::Button, "Geotab MyGeotab")
        .click();
    h.run_steps(3);
    type_into(&mut h, Role::TextInput, "Integration name", "Trucks EU");
    type_into(
        &mut h,
        Role::TextInput,
        "Server",
        "srv-271828.geotab.example",
    );
    type_into(&mut h, Role::TextInput, "Database", "fleet-db-7");
    type_into(&mut h, Role::TextInput, "Username", "ops-user-3141");
    let before = sb.running.request_count();
    h.get_by_label("Create integration").click();
    h.run_steps(3);
    h.get_by_label_contains("Required: password. Nothing was sent.");
    assert_eq!(sb.running.request_count(), before, "nothing was sent");

    // Then complete: what was typed is still there; the new row is running.
    type_into(&mut h, Role::PasswordInput, "Password", "Pa55-w0rd-XYZZY");
    h.get_by_label("Create integration").click();
    wait_until(&mut h, "the new integration", |app| {
        integration_status(app, "Trucks EU").is_some()
    });
    assert_eq!(
        integration_status(h.state(), "Trucks EU").as_deref(),
        Some("running")
    );
    h.get_by_label_contains("4 integrations");
    let id = h
        .state()
        .state()
        .catalog()
        .selected
        .expect("the new integration is selected");

    // Rename.
    h.get_by_role_and_label(Role::TextInput, "New name").focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_role_and_label(Role::TextInput, "New name")
        .type_text("Trucks Europe");
    h.run_steps(2);
    h.get_by_label("Save changes").click();
    wait_until(&mut h, "the rename", |app| {
        integration_status(app, "Trucks Europe").is_some()
    });
    h.get_by_label("Trucks Europe");

    // Deactivate shows stopped; activate shows running.
    h.get_all_by_label("Deactivate")
        .last()
        .expect("the new row's button")
        .click();
    wait_until(&mut h, "stopped", |app| {
        integration_status(app, "Trucks Europe").as_deref() == Some("stopped")
    });
    assert!(h.query_all_by_label("stopped").count() >= 1);
    h.get_all_by_label("Activate")
        .last()
        .expect("the new row's button")
        .click();
    wait_until(&mut h, "running", |app| {
        integration_status(app, "Trucks Europe").as_deref() == Some("running")
    });

    // Delete, cancel: it stays. Delete, confirm: it is gone.
    h.get_all_by_label("Delete")
        .last()
        .expect("the new row's button")
        .click();
    h.run_steps(3);
    h.get_by_label_contains(&format!(
        "Delete 'Trucks Europe' (id {id})? This cannot be undone."
    ));
    h.get_by_label("Cancel").click();
    h.run_steps(3);
    assert!(h.query_by_label_contains("This cannot be undone").is_none());
    assert!(integration_status(h.state(), "Trucks Europe").is_some());
    h.get_all_by_label("Delete")
        .last()
        .expect("the new row's button")
        .click();
    h.run_steps(3);
    h.get_by_label("Delete permanently").click();
    wait_until(&mut h, "the deletion", |app| {
        integration_status(app, "Trucks Europe").is_none()
    });
    h.get_by_label_contains("3 integrations");

    // Exports of the machine's data are files the app writes too.
    h.get_by_label("Machine history").click();
    wait_until(&mut h, "the machine's panels", |app| {
        let s = app.state();
        matches!(s.timeline().track, Loadable::Ready(_))
            && matches!(*s.history(), Loadable::Ready(_))
    });
    export_via_ui(&mut h, Some("Export positions"), "GPX…", "positions (GPX)");
    h.get_by_label("Daily history").click();
    h.run_steps(3);
    export_via_ui(
        &mut h,
        None,
        "Export daily history (CSV)…",
        "daily history (CSV)",
    );

    // The audit: settings, cache, exports and every log line hold no secret.
    let settings = serde_json::to_vec(&h.state().state().settings()).expect("settings");
    drop(h);
    let mut files: Vec<(String, Vec<u8>)> = vec![("settings".into(), settings)];
    let mut dirs = vec![dir.path().to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).expect("dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push((
                    path.display().to_string(),
                    std::fs::read(&path).expect("read"),
                ));
            }
        }
    }
    assert!(
        files.iter().filter(|(n, _)| n.contains("exports")).count() == 2,
        "the exports were written"
    );
    files.push(("log".into(), log.0.lock().expect("log").clone()));
    assert!(
        files
            .iter()
            .any(|(n, b)| n.ends_with("cache.sqlite") && !b.is_empty()),
        "the cache was written"
    );
    assert!(
        files.iter().any(|(n, b)| n == "log" && b.len() > 1000),
        "the log was written"
    );
    for secret in [
        "srv-271828.geotab.example",
        "fleet-db-7",
        "ops-user-3141",
        "Pa55-w0rd-XYZZY",
        sb.token.as_str(),
    ] {
        for (name, bytes) in &files {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "'{secret}' found in {name}"
            );
        }
    }
}

#[test]
fn the_services_refusal_shows_beside_the_form_and_nothing_typed_is_lost() {
    let _log = log_capture();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let chaos =
        fleetview_sandbox::chaos::ChaosConfig::parse("500=1,writes=1,reads=0").expect("spec");
    let sb = rt.block_on(common::start_with(common::fixed_config().chaos(chaos)));
    let options = on_sandbox(&sb, None);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(move |cc| FleetApp::new(cc, options));
    h.run_steps(2);
    h.get_by_label("Integrations").click();
    wait_until(&mut h, "the catalog", |app| {
        matches!(app.state().catalog().integrations, Loadable::Ready(_))
    });
    h.get_by_role_and_label(Role::ComboBox, "Data source")
        .click();
    h.run_steps(3);
    // The last entry of the list: scroll it into view first, as a person would.
    h.get_by_role_and_label(Role::Button, "Samsara")
        .scroll_to_me();
    h.run_steps(3);
    h.get_by_role_and_label(Role::Button, "Samsara").click();
    h.run_steps(3);
    type_into(&mut h, Role::TextInput, "Integration name", "Kept name");
    type_into(&mut h, Role::PasswordInput, "API token", "tok-kept-123");
    h.get_by_label("Create integration").click();
    wait_until(&mut h, "the refusal", |app| {
        app.state().catalog().create_error.is_some()
    });
    h.get_by_label_contains("The service said: chaos: injected 500");
    let name = h
        .get_by_role_and_label(Role::TextInput, "Integration name")
        .value();
    assert_eq!(name.as_deref(), Some("Kept name"), "what was typed is kept");
    assert!(
        h.state().state().notifications().is_empty(),
        "shown beside the form, not as a notification"
    );
}
