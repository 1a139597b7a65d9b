//! Bounded work as the user meets it ([T2 3/9]): a window longer than
//! fleetview fetches at once is refused where it is picked.

use super::*;

/// A custom window over ten years is refused in the date pickers with a
/// note saying why; the window sent to the service stays (1900-2100 made
/// ten thousand requests).
#[test]
fn a_custom_window_over_ten_years_is_refused_in_the_pickers() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    h.get_by_label("Custom").click();
    h.run_steps(3);
    let days = h.state().state().machine.custom_days;
    let sent = h.state().state().selected_window();
    let (y, m, d) = fleetview::api::time::civil_from_days(days.0);
    h.get_by_label(&format!("{y:04}-{m:02}-{d:02} 📆")).click();
    h.run_steps(3);
    // Eleven years back, a year at a time, as a user would.
    for _ in 0..11 {
        h.get_by_label("<<<").click();
        h.run_steps(1);
    }
    h.get_by_label("Save").click();
    h.run_steps(3);
    h.get_by_label_contains("longer than fleetview fetches at once");
    assert_eq!(
        h.state().state().machine.custom_days,
        days,
        "the window stays"
    );
    assert_eq!(h.state().state().selected_window(), sent);
    // Back within ten years: accepted, and the note goes.
    let (y, m, d) = fleetview::api::time::civil_from_days(days.0);
    h.get_by_label(&format!("{:04}-{m:02}-{d:02} 📆", y - 11))
        .click();
    h.run_steps(3);
    for _ in 0..2 {
        h.get_by_label(">>>").click();
        h.run_steps(1);
    }
    h.get_by_label("Save").click();
    h.run_steps(3);
    assert!(
        h.query_by_label_contains("longer than fleetview fetches at once")
            .is_none(),
        "the note is gone"
    );
    let now = h.state().state().machine.custom_days;
    assert_eq!(now.1, days.1);
    assert!(days.0 - now.0 > 8 * 365, "nine years back: {now:?}");
}
