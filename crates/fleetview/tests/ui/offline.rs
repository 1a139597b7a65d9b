//! Offline work, as a person meets it: the app used once against a service,
//! then started again while the service is down, opens on the cached data
//! of the last equipment and window, marked offline with its age; when the
//! service answers again it refreshes without losing the view.

use crate::common;

use common::ui::{all_loaded, app_with, equipment_name, on_sandbox, wait_for_fleet, wait_until};

use egui_kittest::kittest::Queryable;
use fleetview::app::Preset;
use fleetview::shell::{AppOptions, FleetApp};
use fleetview_sandbox::simulate::FIRST_ID;

#[test]
fn started_with_the_service_down_it_shows_the_cache_then_recovers() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let sandbox_dir = dir.path().join("service");
    let sb = rt.block_on(common::start_with(
        common::fixed_config().data_dir(&sandbox_dir),
    ));
    let addr = sb.running.addr();
    let options = {
        let on = on_sandbox(&sb, Some(dir.path().join("cache.sqlite")));
        move || on.clone()
    };

    // First run, online: a machine and a window, everything fetched.
    let mut h = app_with(options());
    wait_for_fleet(&mut h, Some(60));
    let id = FIRST_ID + 1;
    let name = equipment_name(h.state(), id);
    common::ui::pick(&h, &name);
    h.step();
    h.get_by_label("Last 30 days").click();
    wait_until(&mut h, "the machine's data", all_loaded);
    let shown = |app: &FleetApp| {
        let s = app.state();
        (
            s.faults().value().map(Vec::len),
            s.activities().value().map(|a| a.len()),
            s.timeline().track.value().map(|t| t.len()),
            s.history().value().map(|h| h.daily_usages.rows.len()),
        )
    };
    let online = shown(h.state());
    assert!(
        online.0.is_some_and(|n| n > 0),
        "faults to show: {online:?}"
    );
    assert!(h.state().state().offline().is_none());
    let settings = h.state().state().settings();
    drop(h);

    // The service goes away; the app starts again.
    rt.block_on(sb.running.shutdown());
    let mut h = app_with(AppOptions {
        settings: Some(settings),
        ..options()
    });
    wait_until(&mut h, "the offline start", |app| {
        all_loaded(app)
            && app.state().offline().is_some()
            && app.state().fleet().cached_at.is_some()
    });
    let s = h.state().state();
    assert_eq!(s.selected(), Some(id), "the last equipment");
    assert_eq!(s.machine().preset, Preset::Last30Days, "the last window");
    assert_eq!(shown(h.state()), online, "the same data, from the cache");
    assert_eq!(
        s.fleet().equipments.len(),
        60,
        "the fleet as last discovered"
    );
    assert!(s.title().ends_with("(offline)"), "{}", s.title());
    // The app reopens the page left: the machine's.
    assert_eq!(s.tab(), fleetview::app::Tab::Faults);
    h.run_steps(3);
    let faults = online.0.unwrap_or_default();
    h.get_by_label_contains(&format!(
        "{} shown of {faults} in the window",
        fleetview::ui::format::count(faults as usize, "fault", "faults")
    ));
    h.get_by_label_contains("Showing what the cache holds (data fetched ");
    h.get_by_label("offline");
    h.get_by_label_contains("the fleet as last discovered");
    assert!(h.query_all_by_label(&name).count() >= 2, "listed and shown");

    // The service is back at the same address: the app notices (here, at
    // a click on "Retry now"; by itself within a minute) and refreshes.
    let _back = rt.block_on(common::start_with(
        common::fixed_config().listen(addr).data_dir(&sandbox_dir),
    ));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    while h.state().state().offline().is_some() {
        assert!(
            std::time::Instant::now() < deadline,
            "never came back online"
        );
        if let Some(retry) = h.query_by_label("Retry now") {
            retry.click();
        }
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    wait_until(&mut h, "the refresh", |app| {
        all_loaded(app) && !app.state().fleet().loading
    });
    let s = h.state().state();
    assert_eq!(
        (s.selected(), s.machine().preset),
        (Some(id), Preset::Last30Days)
    );
    assert_eq!(shown(h.state()), online, "the view is kept");
    assert!(s.fleet().cached_at.is_none() && s.fleet().equipments.len() == 60);
    assert!(!s.title().contains("offline"));
    h.get_by_label("Back online");
    assert!(
        h.query_by_label_contains("Showing what the cache holds")
            .is_none()
    );
    h.get_by_label("online");
}
