//! Offline pages keep what the cache holds and say what it lacks: the map
//! of a machine with no positions cached is not left on the last one's
//! place, a machine opened again offline keeps its figures, and a restart
//! with nothing to sign in with shows the fleet the cache holds.

use crate::common;

use common::ui::{equipment_name, wait_until};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::Loadable;
use fleetview::shell::{AppOptions, FleetApp, ServiceOptions};
use fleetview_api::geo::{LatLon, mercator};
use fleetview_api::model::SecretValue;
use fleetview_core::analysis::Figure;
use fleetview_sandbox::Clock;
use fleetview_sandbox::simulate::FIRST_ID;

fn harness(options: AppOptions) -> Harness<'static, FleetApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

/// A sandbox on loopback whose clock stands at `now`, with its data in
/// `dir`.
struct Service {
    rt: tokio::runtime::Runtime,
    sb: common::Sandbox,
}

impl Service {
    fn start(dir: &std::path::Path, now: i64) -> Self {
        let rt = tokio::runtime::Runtime::new().expect("runtime");
        let sb = rt.block_on(common::start_with(
            fleetview_sandbox::SandboxConfig::default()
                .clock(Clock::Fixed(now))
                .data_dir(dir.join("service")),
        ));
        Self { rt, sb }
    }

    fn options(&self, cache: &std::path::Path, now: i64) -> AppOptions {
        AppOptions {
            service: Some(ServiceOptions {
                base_url: self.sb.base.clone(),
                token: Some(SecretValue::new(self.sb.token.clone())),
                api_key: None,
                allow_insecure_http: false,
            }),
            cache_path: Some(cache.to_owned()),
            clock: Some(now),
            ..AppOptions::default()
        }
    }

    fn stop(self) {
        self.rt.block_on(self.sb.running.shutdown());
    }
}

/// Everything of the machine page read (or given up on), for `id`.
fn page_settled(app: &FleetApp, id: i64) -> bool {
    let s = app.state();
    s.selected() == Some(id)
        && !s.faults().is_pending()
        && !s.activities().is_pending()
        && !s.history().is_pending()
        && !s.timeline().track.is_pending()
        && !s.figures().report.is_pending()
}

fn all_loaded(app: &FleetApp, id: i64) -> bool {
    let s = app.state();
    page_settled(app, id)
        && matches!(*s.history(), Loadable::Ready(_))
        && matches!(s.timeline().track, Loadable::Ready(_))
        && matches!(s.figures().report, Loadable::Ready(_))
}

/// The machine's last known place, as the fleet's snapshots say.
fn snapshot_place(app: &FleetApp, id: i64) -> Option<LatLon> {
    let snapshot = app.state().overview().snapshots.get(&id)?;
    let p = snapshot.last_position.as_ref()?;
    let (lat, lon) = (p.latitude?, p.longitude?);
    (lat.abs() <= 85.0 && lon.abs() <= 180.0 && (lat, lon) != (0.0, 0.0))
        .then_some(LatLon { lat, lon })
}

/// The map's centre as last drawn, in Web Mercator.
fn map_centre(app: &FleetApp) -> [f64; 2] {
    app.view()
        .map
        .frame()
        .expect("the map is drawn")
        .view
        .center()
}

fn merc(p: LatLon) -> [f64; 2] {
    mercator(p.lat, p.lon).expect("a finite place")
}

/// Apart on the map by more than 0.3 % of the world's width (about 80 km
/// at 50° N).
fn far_apart(a: [f64; 2], b: [f64; 2]) -> bool {
    (a[0] - b[0]).hypot(a[1] - b[1]) > 0.003
}

/// The machine's L/h working and idle, as the figures shown give them.
fn fuel_rates(app: &FleetApp) -> (Option<f64>, Option<f64>) {
    let report = app.state().figures().report.value();
    let rate = |f: Figure| report.and_then(|r| r.totals.value(f));
    (
        rate(Figure::WorkingFuelPerHour),
        rate(Figure::IdleFuelPerHour),
    )
}

/// The computer's clock, to the minute: the cache keeps rows by it.
fn now_minute() -> i64 {
    let now = fleetview_api::time::now_secs();
    now - now.rem_euclid(60)
}

#[test]
fn laptop_offline_map_of_a_machine_without_cached_positions_leaves_the_last_place() {
    let dir = tempfile::tempdir().expect("tempdir");
    let now = common::now();
    let service = Service::start(dir.path(), now);
    let cache = dir.path().join("cache.sqlite");
    let mut h = harness(service.options(&cache, now));
    wait_until(&mut h, "the fleet and its snapshots", |app| {
        let s = app.state();
        s.fleet().equipments.len() == 60 && !s.overview().status.loading
    });
    let a = FIRST_ID + 1;
    common::ui::pick(&h, &equipment_name(h.state(), a));
    wait_until(&mut h, "machine A's page", |app| all_loaded(app, a));
    let track_a = h.state().state().timeline().track.value().cloned();
    let track_a = track_a.filter(|t| !t.is_empty()).expect("A has positions");
    let a_place = track_a.bounds.center();
    assert!(
        !far_apart(map_centre(h.state()), a_place),
        "the map shows A's track"
    );
    // B: a machine far from A, never opened.
    let s = h.state().state();
    let b = s
        .fleet()
        .equipments
        .iter()
        .map(|e| e.id)
        .find(|id| {
            *id != a && snapshot_place(h.state(), *id).is_some_and(|p| far_apart(merc(p), a_place))
        })
        .expect("a machine far from A");
    let b_name = equipment_name(h.state(), b);
    let b_place = merc(snapshot_place(h.state(), b).expect("B's last place"));

    service.stop();
    common::ui::pick(&h, &b_name);
    wait_until(&mut h, "machine B's page, offline", |app| {
        page_settled(app, b) && app.state().offline().is_some()
    });
    h.run_steps(3);
    assert!(
        h.state()
            .state()
            .timeline()
            .track
            .value()
            .is_none_or(|t| t.is_empty()),
        "no positions of B are cached"
    );
    let centre = map_centre(h.state());
    assert!(
        far_apart(centre, a_place),
        "the map still shows A's place: {centre:?} (A at {a_place:?})"
    );
    assert!(
        !far_apart(centre, b_place),
        "the map shows B's last known place: {centre:?} (B at {b_place:?})"
    );
    h.get_by_label_contains(&format!("No positions of {b_name} in the cache"));
}

#[test]
fn laptop_offline_a_machine_opened_again_keeps_its_figures() {
    // A clock that stands at about now, as on a laptop: the last minutes
    // of today are never in the cache (rows still settling).
    let dir = tempfile::tempdir().expect("tempdir");
    let now = now_minute();
    let service = Service::start(dir.path(), now);
    let cache = dir.path().join("cache.sqlite");
    let mut h = harness(service.options(&cache, now));
    wait_until(&mut h, "the fleet", |app| {
        app.state().fleet().equipments.len() == 60
    });
    // A: the first machine whose fuel splits into working and idle.
    let ids: Vec<i64> = h
        .state()
        .state()
        .fleet()
        .equipments
        .iter()
        .map(|e| e.id)
        .collect();
    let mut a = None;
    for id in ids.iter().copied().take(12) {
        common::ui::pick(&h, &equipment_name(h.state(), id));
        wait_until(&mut h, "a machine's page", |app| all_loaded(app, id));
        if let (Some(_), Some(_)) = fuel_rates(h.state()) {
            a = Some(id);
            break;
        }
    }
    let a = a.expect("a machine with working and idle fuel rates");
    let online = fuel_rates(h.state());
    let a_name = equipment_name(h.state(), a);
    let b = *ids.iter().find(|id| **id != a).expect("another machine");
    let b_name = equipment_name(h.state(), b);

    service.stop();
    for round in 0..2 {
        common::ui::pick(&h, &b_name);
        wait_until(&mut h, "machine B, offline", |app| {
            page_settled(app, b) && app.state().offline().is_some()
        });
        common::ui::pick(&h, &a_name);
        wait_until(&mut h, "machine A again, offline", |app| {
            page_settled(app, a)
        });
        h.run_steps(3);
        let rates = fuel_rates(h.state());
        assert!(
            rates.0.is_some() && rates.1.is_some(),
            "round {round}: A's L/h working and idle are kept offline: {rates:?} (online {online:?})"
        );
        let shown = fleetview::ui::format::number(rates.0, 2);
        assert!(
            h.query_all_by_label_contains(&shown).count() > 0,
            "round {round}: {shown} L/h working is shown"
        );
    }
}

#[test]
fn laptop_signed_out_after_a_restart_shows_the_cached_fleet() {
    let dir = tempfile::tempdir().expect("tempdir");
    let now = common::now();
    let service = Service::start(dir.path(), now);
    let cache = dir.path().join("cache.sqlite");

    // Signed in once: the fleet and its snapshots are read (and cached).
    let mut h = harness(service.options(&cache, now));
    wait_until(&mut h, "the fleet and its snapshots", |app| {
        let s = app.state();
        s.fleet().equipments.len() == 60
            && !s.overview().status.loading
            && !s.overview().snapshots.is_empty()
    });
    let listed = equipment_name(h.state(), FIRST_ID);
    let mut settings = h.state().state().settings();
    drop(h);

    // Restarted on a saved profile whose API key was kept for that session
    // only: nothing to sign in with now.
    settings.profiles = vec![fleetview::app::Profile {
        name: "Depot".into(),
        base_url: service.sb.base.clone(),
        sandbox_url: String::new(),
        use_sandbox: false,
        allow_insecure_http: false,
        auth: fleetview_api::AuthMethod::ApiKey {
            name: "ops-laptop".into(),
        },
    }];
    settings.active_profile = Some(0);
    let mut h = harness(AppOptions {
        settings: Some(settings),
        cache_path: Some(cache.clone()),
        clock: Some(now),
        ..AppOptions::default()
    });
    wait_until(&mut h, "the cached fleet, signed out", |app| {
        let s = app.state();
        s.conn().needs_secret() && s.fleet().equipments.len() == 60
    });
    let s = h.state().state();
    assert!(s.fleet().cached_at.is_some(), "marked as from the cache");
    assert!(
        s.offline().is_none(),
        "the service is there: signed out, not offline"
    );
    assert!(
        h.query_by_label_contains("No machines in this fleet")
            .is_none()
    );
    h.get_by_label("60 of 60 machines shown");
    common::ui::in_list(&h, &listed);
    h.get_by_label_contains("From the cache, read ");
    assert!(
        h.query_by_label("Choose where fleetview gets its data.")
            .is_none(),
        "Connections is closed"
    );
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Sign in to refresh")
        .click();
    h.run_steps(4);
    h.get_by_label("Choose where fleetview gets its data.");
    service.stop();
}

/// A saved profile for `base` whose API key was kept for the last session
/// only: nothing to sign in with after a restart.
fn key_profile_settings(
    mut settings: fleetview::app::Settings,
    base: &str,
) -> fleetview::app::Settings {
    settings.profiles = vec![fleetview::app::Profile {
        name: "Depot".into(),
        base_url: base.to_owned(),
        sandbox_url: String::new(),
        use_sandbox: false,
        allow_insecure_http: false,
        auth: fleetview_api::AuthMethod::ApiKey {
            name: "ops-laptop".into(),
        },
    }];
    settings.active_profile = Some(0);
    settings
}

/// The machines whose Fleet page figures are shown, with their hours in
/// the window.
fn window_hours(app: &FleetApp) -> Vec<(i64, Option<f64>)> {
    let o = app.state().overview();
    let mut out: Vec<(i64, Option<f64>)> = o
        .figures
        .iter()
        .filter_map(|(id, f)| f.value().map(|v| (*id, v.engine_hours_h)))
        .collect();
    out.sort_by_key(|p| p.0);
    out
}

/// Every machine of the fleet has its window cells settled: figures, or
/// "not in the cache".
fn window_cells_settled(app: &FleetApp) -> bool {
    let s = app.state();
    let o = s.overview();
    s.fleet().equipments.len() == 60
        && s.fleet()
            .equipments
            .iter()
            .all(|e| o.not_cached(e.id) || matches!(o.figures_of(e.id), Some(Loadable::Ready(_))))
        // The Flags cells too: the attention strip's look-back, read apart.
        && o.look_back.loading(60) == 0
}

#[test]
fn laptop_offline_and_signed_out_the_fleet_table_shows_the_cached_window_figures() {
    let dir = tempfile::tempdir().expect("tempdir");
    let now = common::now();
    let service = Service::start(dir.path(), now);
    let cache = dir.path().join("cache.sqlite");

    // Online: some machines' window figures are read (and cached), not all.
    let mut h = harness(service.options(&cache, now));
    wait_until(&mut h, "a few machines' window figures", |app| {
        app.state().fleet().equipments.len() == 60 && window_hours(app).len() >= 8
    });
    let online = window_hours(h.state());
    let settings = h.state().state().settings();
    drop(h);
    let base = service.sb.base.clone();
    service.stop();

    for signed_out in [false, true] {
        let what = if signed_out { "signed out" } else { "offline" };
        let options = if signed_out {
            AppOptions {
                settings: Some(key_profile_settings(settings.clone(), &base)),
                cache_path: Some(cache.clone()),
                clock: Some(now),
                ..AppOptions::default()
            }
        } else {
            AppOptions {
                service: Some(ServiceOptions {
                    base_url: base.clone(),
                    token: Some(SecretValue::new("a token".to_owned())),
                    api_key: None,
                    allow_insecure_http: false,
                }),
                cache_path: Some(cache.clone()),
                clock: Some(now),
                ..AppOptions::default()
            }
        };
        let mut h = harness(options);
        wait_until(
            &mut h,
            &format!("every window cell settled, {what}"),
            window_cells_settled,
        );
        h.run_steps(3);
        let shown = window_hours(h.state());
        for (id, hours) in &online {
            let kept = shown.iter().find(|p| p.0 == *id).map(|p| p.1);
            assert_eq!(
                kept,
                Some(*hours),
                "{what}: machine {id}'s hours in the window"
            );
        }
        assert!(
            h.query_all_by_label("…").next().is_none(),
            "{what}: no cell shows a loading mark"
        );
        assert!(
            h.query_all_by_label(fleetview::ui::format::NULL).count() > 0
                && h.state()
                    .state()
                    .fleet()
                    .equipments
                    .iter()
                    .any(|e| { h.state().state().overview().not_cached(e.id) }),
            "{what}: the machines never read say the cache lacks them"
        );
    }
}

#[test]
fn laptop_signed_out_after_a_restart_a_machine_page_shows_the_cache() {
    // A clock at about now, as on a laptop: the last minutes of the window
    // are never cached.
    let dir = tempfile::tempdir().expect("tempdir");
    let now = now_minute();
    let service = Service::start(dir.path(), now);
    let cache = dir.path().join("cache.sqlite");
    let mut h = harness(service.options(&cache, now));
    wait_until(&mut h, "the fleet", |app| {
        app.state().fleet().equipments.len() == 60
    });
    let a = FIRST_ID + 1;
    common::ui::pick(&h, &equipment_name(h.state(), a));
    wait_until(&mut h, "machine A's page", |app| all_loaded(app, a));
    let online_track = h.state().state().timeline().track.value().cloned();
    let a_place = online_track
        .filter(|t| !t.is_empty())
        .expect("A has positions")
        .bounds
        .center();
    let online_days = h
        .state()
        .state()
        .history()
        .value()
        .map(|d| d.daily_usages.rows.len());
    let settings = h.state().state().settings();
    drop(h);

    // Restarted on the machine's page with nothing to sign in with.
    let mut h = harness(AppOptions {
        settings: Some(key_profile_settings(settings, &service.sb.base)),
        cache_path: Some(cache.clone()),
        clock: Some(now),
        ..AppOptions::default()
    });
    wait_until(
        &mut h,
        "machine A's page from the cache, signed out",
        |app| app.state().conn().needs_secret() && all_loaded(app, a),
    );
    h.run_steps(3);
    let s = h.state().state();
    assert!(s.offline().is_none(), "signed out, not offline");
    assert_eq!(
        s.history().value().map(|d| d.daily_usages.rows.len()),
        online_days,
        "the daily history the cache holds"
    );
    assert!(
        s.timeline().track.value().is_some_and(|t| !t.is_empty()),
        "the track the cache holds"
    );
    let centre = map_centre(h.state());
    assert!(
        !far_apart(centre, a_place),
        "the map shows A's track: {centre:?} (A at {a_place:?})"
    );
    service.stop();
}

#[test]
fn laptop_a_key_typed_while_the_service_is_away_is_used_when_it_answers() {
    use egui::accesskit::Role;
    let dir = tempfile::tempdir().expect("tempdir");
    let now = common::now();
    let service = Service::start(dir.path(), now);
    let cache = dir.path().join("cache.sqlite");
    let mut h = harness(service.options(&cache, now));
    wait_until(&mut h, "the fleet and its snapshots", |app| {
        let s = app.state();
        s.fleet().equipments.len() == 60 && !s.overview().status.loading
    });
    let settings = h.state().state().settings();
    drop(h);
    let (base, addr) = (service.sb.base.clone(), service.sb.running.addr());
    let Service { rt, sb } = service;
    rt.block_on(sb.running.shutdown());

    // Restarted with the key kept for the last session only, the service
    // away: the key typed under the top bar, and Enter.
    let mut settings = key_profile_settings(settings, &base);
    settings.profiles[0].auth = fleetview_api::AuthMethod::ApiKey {
        name: "demo".into(),
    };
    let mut h = harness(AppOptions {
        settings: Some(settings),
        cache_path: Some(cache.clone()),
        clock: Some(now),
        ..AppOptions::default()
    });
    wait_until(&mut h, "the cached fleet, signed out", |app| {
        let s = app.state();
        s.conn().needs_secret() && s.fleet().equipments.len() == 60
    });
    let tab = h.state().state().tab();
    // A row of the Fleet page marked from the keyboard (Enter would open
    // it, but not the Enter of a field).
    h.key_press(egui::Key::ArrowDown);
    h.run_steps(2);
    h.get_by_role_and_label(Role::PasswordInput, "API key")
        .click();
    h.run_steps(1);
    h.get_by_role_and_label(Role::PasswordInput, "API key")
        .type_text("demo");
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    wait_until(&mut h, "the service found away", |app| {
        app.state().offline().is_some()
    });
    h.run_steps(3);
    let s = h.state().state();
    assert_eq!(s.tab(), tab, "the page stays");
    assert_eq!(s.fleet().equipments.len(), 60, "the cached fleet stays");
    assert!(
        h.query_by_label_contains("No API key or access token")
            .is_none(),
        "the key typed is not forgotten"
    );
    // Reload fleet, the service still away: the fleet the cache holds.
    h.get_by_role_and_label(Role::Button, "Reload fleet")
        .click();
    wait_until(&mut h, "the fleet reloaded, offline", |app| {
        !app.state().fleet().loading
    });
    assert_eq!(
        h.state().state().fleet().equipments.len(),
        60,
        "Reload fleet keeps the cached fleet: {:?}",
        h.state().state().notifications()
    );

    // The service back at the same address: Retry now signs in with the
    // key typed, and the fleet is read afresh.
    let _back = rt.block_on(common::start_with(
        fleetview_sandbox::SandboxConfig::default()
            .clock(Clock::Fixed(now))
            .data_dir(dir.path().join("service"))
            .listen(addr),
    ));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while h.state().state().offline().is_some() {
        assert!(
            std::time::Instant::now() < deadline,
            "never came back online: {:?}, {:?}",
            h.state().state().connection().status,
            h.state().state().offline()
        );
        if let Some(retry) = h.query_by_label("Retry now") {
            retry.click();
        }
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    wait_until(&mut h, "the fleet read afresh, signed in", |app| {
        let s = app.state();
        !s.fleet().loading && s.fleet().cached_at.is_none() && s.fleet().equipments.len() == 60
    });
    let s = h.state().state();
    assert_eq!(s.connection().status, fleetview::app::ConnStatus::Connected);
    assert_eq!(s.tab(), tab, "the page stays");
}
