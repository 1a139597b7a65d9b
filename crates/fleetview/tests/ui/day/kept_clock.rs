//! A machine's page kept after switching away is shown again without a
//! read only if its window was final when it was read, by the earlier of
//! this computer's clock and the service's: against a service whose clock
//! is behind, coming back to a page read while the service was still
//! living its window asks again, and the hours lived since show. (Shown
//! again under a minute after its reads by both clocks, a page is not read
//! again: `ReadAt::fresh`.)

use crate::common;

use common::ui::{app_with, equipment_name, on_sandbox, service_body, wait_for_fleet, wait_until};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::Loadable;
use fleetview::shell::{AppOptions, FleetApp};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow, parse_wire};
use fleetview_core::cache::SETTLE_SECS;
use fleetview_sandbox::simulate::FIRST_ID;
use fleetview_sandbox::{Clock, ManualClock};

const FLEET: u64 = 12;

/// The page of the machine selected whole: tables, track, plots, figures.
fn page_whole(app: &FleetApp) -> bool {
    let s = app.state();
    let t = s.timeline();
    matches!(s.faults(), Loadable::Ready(_))
        && matches!(s.activities(), Loadable::Ready(_))
        && matches!(s.history(), Loadable::Ready(_))
        && matches!(t.track, Loadable::Ready(_))
        && t.plot_kinds
            .iter()
            .all(|k| matches!(t.plots.get(k), Some(Loadable::Ready(_))))
        && matches!(s.figures().report, Loadable::Ready(_))
}

/// The newest position on the map, if any.
fn newest_position(app: &FleetApp) -> Option<i64> {
    app.state()
        .timeline()
        .track
        .value()
        .and_then(|t| t.samples.last().map(|s| s.time))
}

/// Picks a machine in the list and waits for its page.
fn open(h: &mut Harness<'static, FleetApp>, id: i64) {
    let name = equipment_name(h.state(), id);
    common::ui::pick(h, &name);
    h.run_steps(2);
    wait_until(h, &format!("machine {id}'s page"), |app| {
        app.state().selected() == Some(id) && page_whole(app)
    });
}

#[test]
fn a_page_read_while_a_late_service_lived_its_window_is_read_again_when_shown_again() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    // The service lives the afternoon of one day; this computer is a day
    // later, so "yesterday" is the service's today: over by this
    // computer's clock, still being written by the service's.
    let service_now = common::now();
    let hand = ManualClock::new(service_now);
    let sb = rt.block_on(common::start_with(
        common::fixed_config()
            .fleet_size(FLEET)
            .clock(Clock::Manual(hand.clone())),
    ));
    let mut h = app_with(AppOptions {
        clock: Some(service_now + SECS_PER_DAY),
        ..on_sandbox(&sb, Some(dir.path().join("cache.sqlite")))
    });
    wait_for_fleet(&mut h, Some(FLEET as usize));
    let (a, b) = (FIRST_ID + 2, FIRST_ID + 3);
    let name = equipment_name(h.state(), a);
    common::ui::pick(&h, &name);
    h.step();
    h.get_by_label("Yesterday").click();
    h.run_steps(2);
    wait_until(&mut h, "the page of yesterday", |app| {
        app.state().window().is_some_and(|w| w.since < service_now)
            && !app.state().faults().is_pending()
            && page_whole(app)
    });
    let window: TimeWindow = h.state().state().window().expect("a window");
    assert!(window.since < service_now && service_now < window.until);
    let before = newest_position(h.state()).expect("positions before the service's now");
    assert!(before <= service_now, "nothing after the service's now");

    open(&mut h, b);
    // The service's clock moves past the window's end and its settling.
    hand.advance(window.until - service_now + SETTLE_SECS + 60);
    let rows = service_body(&sb.base, a, "positions", window)["data"]["rows"].clone();
    let newest = rows
        .as_array()
        .and_then(|r| r.last())
        .and_then(|r| r["date"].as_str())
        .and_then(|d| parse_wire(d).ok())
        .expect("the service's positions");
    assert!(
        newest > service_now + 3600,
        "the service has positions of the hours since"
    );

    // The app hears the service's new time (reading another machine): this
    // computer's clock stands still here, and a page read under a minute
    // before by both clocks would be shown again as it was.
    open(&mut h, FIRST_ID + 4);
    let name = equipment_name(h.state(), a);
    common::ui::pick(&h, &name);
    h.run_steps(2);
    wait_until(&mut h, "the positions of the hours since", |app| {
        app.state().selected() == Some(a)
            && page_whole(app)
            && !app.state().faults().is_pending()
            && newest_position(app) == Some(newest)
    });
    assert_eq!(h.state().state().window(), Some(window));
    rt.block_on(sb.running.shutdown());
}
