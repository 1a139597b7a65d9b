//! Issue 35, item 10: the replay skips the parked hours at the window's
//! ends.

use crate::common;

use common::ui::{embedded_app, pick, type_into, wait_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::shell::FleetApp;
use fleetview_api::time::TimeWindow;

fn fleet_loaded(app: &FleetApp) -> bool {
    !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
}

/// Opens machine `name` (found by searching for it) over `preset` and
/// waits for its track, history and events.
fn open(h: &mut Harness<'static, FleetApp>, name: &str, preset: &str) {
    type_into(h, egui::accesskit::Role::TextInput, "Search", name);
    pick(h, name);
    h.step();
    h.get_by_label(preset).click();
    h.step();
    wait_until(h, "the track, history and events", |app| {
        let s = app.state();
        s.timeline().track.value().is_some()
            && s.history().value().is_some()
            && s.figures().report.value().is_some()
            && !s.timeline().track.is_pending()
            && !s.history().is_pending()
            && !s.figures().report.is_pending()
    });
}

/// Item 10: a truck parked overnight. Played from the window's start with
/// *Skip engine-off* on, the cursor jumps to the first engine start at
/// once (it crawled through the night at 600x: 6 h 50 min in 41 s).
#[test]
fn laptop_replay_skips_the_parked_night_before_the_first_start() {
    let mut h = embedded_app();
    wait_until(&mut h, "the fleet", fleet_loaded);
    let truck = h
        .state()
        .state()
        .fleet()
        .equipments
        .iter()
        .find(|e| e.name.starts_with("RT-"))
        .map(|e| e.name.clone())
        .expect("a road truck");
    open(&mut h, &truck, "Yesterday");
    let (window, first) = {
        let s = h.state().state();
        let window: TimeWindow = s.window().expect("a window");
        let rows = &s.history().value().expect("history").engine_conditions.rows;
        let inside: Vec<_> = rows
            .iter()
            .filter(|r| (window.since..=window.until).contains(&r.date.0))
            .collect();
        let first = inside.first().expect("engine events yesterday");
        assert!(
            first.is_start(),
            "{truck} was parked at the window's start: {first:?}"
        );
        (window, first.date.0)
    };
    assert!(
        first - window.since > 3 * 3600,
        "parked for hours before the first start"
    );
    let replay = h.state().state().timeline().replay;
    assert!(replay.skip_engine_off, "skipping is on by default");
    assert_eq!(replay.speed, 600.0);
    assert_eq!(h.state().state().timeline().cursor, None);

    h.get_by_label("Play").click();
    // A few frames of 1/60 s: 10 s of machine time each at 600x.
    h.run_steps(4);
    let cursor = h.state().state().timeline().cursor.expect("a cursor");
    assert!(
        (first..first + 600).contains(&cursor),
        "the cursor jumped to the first start ({first}, {} h after the window's start), \
         not {cursor} ({} s after the start)",
        (first - window.since) / 3600,
        cursor - window.since
    );
}
