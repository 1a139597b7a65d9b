//! Bounded work as the user meets it ([T2 3/9]): a window longer than
//! fleetview fetches at once is refused where it is picked.

use super::*;

/// Moves the pointer onto a button, then clicks it, as a hand does (the
/// date picker's popup takes no click before its first hover).
fn press(h: &mut Harness<'static, FleetApp>, label: &str) {
    h.get_by_label(label).hover();
    h.run_steps(1);
    h.get_by_label(label).click();
    h.run_steps(1);
}

fn picker_label(day: i64, years_back: i64) -> String {
    let (y, m, d) = fleetview_api::time::civil_from_days(day);
    format!("{:04}-{m:02}-{d:02} 📆", y - years_back)
}

/// A custom window over ten years is refused in the date pickers with a
/// note saying why; the window sent to the service stays (1900-2100 made
/// ten thousand requests).
#[test]
fn a_custom_window_over_ten_years_is_refused_in_the_pickers() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    h.get_by_label("Custom").click();
    h.run_steps(3);
    let days = h.state().state().machine().custom_days;
    let sent = h.state().state().selected_window();
    let page = h.get_by_label("Machine history").rect();
    press(&mut h, &picker_label(days.0, 0));
    h.run_steps(2);
    // Eleven years back, a year at a time, as a user would.
    for _ in 0..11 {
        press(&mut h, "<<<");
    }
    press(&mut h, "Save");
    h.run_steps(2);
    // The pickers show what was picked, and why it is not used.
    h.get_by_label(&picker_label(days.0, 11));
    h.get_by_label_contains("longer than fleetview fetches at once");
    assert_eq!(
        h.state().state().machine().custom_days,
        days,
        "the window stays"
    );
    assert_eq!(h.state().state().selected_window(), sent);
    assert_eq!(
        h.get_by_label("Machine history").rect(),
        page,
        "the note moves nothing below it"
    );
    // Two years forward again: nine years, accepted, and the note goes.
    press(&mut h, &picker_label(days.0, 11));
    h.run_steps(2);
    for _ in 0..2 {
        press(&mut h, ">>>");
    }
    press(&mut h, "Save");
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("longer than fleetview fetches at once")
            .is_none(),
        "the note is gone"
    );
    let now = h.state().state().machine().custom_days;
    assert_eq!(now.1, days.1);
    assert!(
        (9 * 365..9 * 366 + 1).contains(&(days.0 - now.0)),
        "nine years back: {now:?}"
    );
    assert_ne!(h.state().state().selected_window(), sent, "the new window");
}
