//! What the egui_kittest tests share: stepping the real app until the
//! worker has answered, and typing into a field as a person would.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::FleetApp;

/// Steps the app until `cond` holds (the worker answers asynchronously),
/// then a few frames more so the UI shows what the state now holds.
pub fn wait_until(
    h: &mut Harness<'static, FleetApp>,
    what: &str,
    cond: impl Fn(&FleetApp) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !cond(h.state()) {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; connection {:?}, notifications {:?}",
            h.state().state().connection.status,
            h.state().state().notifications
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.run_steps(3);
}

/// Focuses a text field (found by role and name) and types into it.
pub fn type_into(
    h: &mut Harness<'static, FleetApp>,
    role: egui::accesskit::Role,
    name: &str,
    text: &str,
) {
    h.get_by_role_and_label(role, name).focus();
    h.step();
    h.get_by_role_and_label(role, name).type_text(text);
    h.run_steps(2);
}
