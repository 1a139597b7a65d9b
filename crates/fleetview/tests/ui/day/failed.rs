//! A read that fails after all its retries marks its panel failed, in
//! words, with a *Retry* that asks again: against a sandbox that fails one
//! endpoint every time, then one that is healthy at the same address.

use crate::common;

use std::time::{Duration, Instant};

use common::ui::{app_with, equipment_name, on_sandbox, wait_for_fleet, wait_until};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::Loadable;
use fleetview::shell::FleetApp;
use fleetview_sandbox::chaos::ChaosConfig;
use fleetview_sandbox::simulate::FIRST_ID;

/// Machines of the sandbox: a few, so that a read failing for each of
/// them (retried every time) is soon over.
const FLEET: u64 = 12;

/// A sandbox failing every GET whose path holds `path` (500, retried and
/// failing again), an app on it with a cache, the fleet listed.
struct Failing {
    rt: tokio::runtime::Runtime,
    _dir: tempfile::TempDir,
    sandbox_dir: std::path::PathBuf,
    addr: std::net::SocketAddr,
    sb: Option<common::Sandbox>,
    h: Harness<'static, FleetApp>,
}

fn failing(path: &str) -> Failing {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let sandbox_dir = dir.path().join("service");
    let chaos = ChaosConfig::parse(&format!("500=1,path={path}")).expect("chaos");
    let sb = rt.block_on(common::start_with(
        common::fixed_config()
            .fleet_size(FLEET)
            .data_dir(&sandbox_dir)
            .chaos(chaos),
    ));
    let mut h = app_with(on_sandbox(&sb, Some(dir.path().join("cache.sqlite"))));
    wait_for_fleet(&mut h, Some(FLEET as usize));
    Failing {
        addr: sb.running.addr(),
        rt,
        _dir: dir,
        sandbox_dir,
        sb: Some(sb),
        h,
    }
}

impl Failing {
    /// Opens a machine's page.
    fn open_machine(mut self) -> Self {
        let name = equipment_name(self.h.state(), FIRST_ID + 1);
        common::ui::pick(&self.h, &name);
        self.h.run_steps(2);
        self
    }

    /// The sandbox is healthy again, at the same address.
    fn heal(&mut self) {
        if let Some(sb) = self.sb.take() {
            self.rt.block_on(sb.running.shutdown());
        }
        self.sb = Some(
            self.rt.block_on(common::start_with(
                common::fixed_config()
                    .fleet_size(FLEET)
                    .listen(self.addr)
                    .data_dir(&self.sandbox_dir),
            )),
        );
    }
}

/// Steps the app until a label holding `text` shows (or fails the test).
fn wait_for_words(h: &mut Harness<'static, FleetApp>, text: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.query_all_by_label_contains(text).next().is_none() {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for \"{text}\"; notifications {:?}",
            h.state().state().notifications()
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Steps the app until no label holds `text` (or fails the test).
fn wait_for_words_gone(h: &mut Harness<'static, FleetApp>, text: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.query_all_by_label_contains(text).next().is_some() {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for \"{text}\" to go: the failure is still said"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn figures_ready(app: &FleetApp) -> bool {
    let s = app.state();
    matches!(s.figures().report, Loadable::Ready(_)) && !s.history().is_pending()
}

#[test]
fn figures_without_the_idle_fuel_say_so_and_retry_brings_it() {
    let mut f = failing("dailyIdleFuel").open_machine();
    let words = "The daily idle fuel could not be read (the service had a problem)";
    wait_for_words(&mut f.h, words);
    f.h.get_by_label_contains("fuel is not split into working and idle");
    assert!(figures_ready(f.h.state()), "the rest of the figures show");

    f.heal();
    f.h.get_by_role_and_label(Role::Button, "Retry").click();
    f.h.run_steps(2);
    wait_until(&mut f.h, "the figures read again", figures_ready);
    wait_for_words_gone(&mut f.h, words);
    assert!(
        f.h.query_by_role_and_label(Role::Button, "Retry").is_none(),
        "nothing left to retry"
    );
}

#[test]
fn a_table_that_could_not_be_read_says_why_and_retry_brings_its_rows() {
    let mut f = failing("/faults").open_machine();
    wait_until(&mut f.h, "the faults to fail", |app| {
        app.state().faults().error().is_some()
    });
    f.h.get_by_label("Faults: The service had a problem");

    f.heal();
    f.h.get_by_role_and_label(Role::Button, "Retry").click();
    f.h.run_steps(2);
    wait_until(&mut f.h, "the faults read again", |app| {
        matches!(*app.state().faults(), Loadable::Ready(_))
    });
    assert!(
        f.h.query_by_label_contains("Faults: The service had a problem")
            .is_none()
    );
    let s = f.h.state().state();
    let window = s.machine().window.expect("a window");
    let base = f.sb.as_ref().map(|sb| sb.base.clone()).expect("a sandbox");
    let asked = common::ui::service_body(&base, FIRST_ID + 1, "faults", window);
    let rows = asked["data"]["rows"].as_array().map(Vec::len);
    assert_eq!(
        s.faults().value().map(Vec::len),
        rows,
        "the service's faults"
    );
}

#[test]
fn the_fleet_page_says_whose_operating_hours_could_not_be_read_and_retry_reads_them() {
    let mut f = failing("cumulativeOperatingHours");
    assert_eq!(f.h.state().state().tab(), fleetview::app::Tab::Fleet);
    let words = "could not be read (the service had a problem): counter resets are not flagged";
    wait_for_words(&mut f.h, words);
    f.h.get_by_label_contains("The operating hours of ");
    let listed = |app: &FleetApp| app.state().fleet().equipments.len();
    let figures_in = |app: &FleetApp| app.state().overview().figures_loading(listed(app)) == 0;
    wait_until(&mut f.h, "the figures, without the hours", figures_in);

    f.heal();
    f.h.get_by_role_and_label(Role::Button, "Retry").click();
    f.h.run_steps(2);
    wait_for_words_gone(&mut f.h, words);
    wait_until(&mut f.h, "the figures, with the hours", figures_in);
    assert!(f.h.query_by_role_and_label(Role::Button, "Retry").is_none());
}

#[test]
fn the_events_say_the_operating_hours_could_not_be_read_and_retry_reads_them() {
    let mut f = failing("cumulativeOperatingHours").open_machine();
    f.h.get_by_label("Events").click();
    f.h.run_steps(2);
    let words = "The operating hours could not be read (the service had a problem): counter resets are not flagged.";
    wait_for_words(&mut f.h, words);
    assert_eq!(
        f.h.query_all_by_label_contains(words).count(),
        1,
        "said once, above the events"
    );
    assert!(
        figures_ready(f.h.state()),
        "the events found without them show"
    );

    f.heal();
    f.h.get_by_role_and_label(Role::Button, "Retry").click();
    f.h.run_steps(2);
    wait_until(&mut f.h, "the figures read again", figures_ready);
    wait_for_words_gone(&mut f.h, words);
}
