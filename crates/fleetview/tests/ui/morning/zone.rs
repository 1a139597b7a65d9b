//! Times in the machine's own zone (the one its working hours are read
//! in, D16), against the embedded sandbox: the Events table's times move
//! to the machine's zone and say its abbreviation, and an out-of-hours
//! event says why, in that zone. The expected texts are made here from the
//! events' instants and the site's zone by name, not by the app's code.

use crate::common;

use common::ui::{embedded_app, pick, wait_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::TimesIn;
use fleetview::shell::FleetApp;
use fleetview::ui::events::kinds::event_style;
use fleetview_core::analysis::{Event, EventKind};

/// A machine at the Rotterdam site: Europe/Amsterdam.
const EXCAVATOR: &str = "EX-001 Volvo EC220E (Rotterdam)";
const SITE_ZONE: &str = "Europe/Amsterdam";

fn site_zone() -> jiff::tz::TimeZone {
    jiff::tz::db().get(SITE_ZONE).expect("a bundled zone")
}

/// `at` in the site's zone, with `strftime`'s `format`.
fn at_site(at: i64, format: &str) -> String {
    jiff::Timestamp::from_second(at)
        .expect("an instant")
        .to_zoned(site_zone())
        .strftime(format)
        .to_string()
}

/// The excavator's last 30 days on the Events tab, its events read.
fn open_events() -> Harness<'static, FleetApp> {
    let mut h = embedded_app();
    wait_until(&mut h, "the fleet", |app| {
        !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
    });
    pick(&h, EXCAVATOR);
    h.step();
    h.get_by_label("Last 30 days").click();
    h.run_steps(2);
    h.get_by_label("Events").click();
    wait_until(&mut h, "the window's events", |app| {
        let r = &app.state().figures().report;
        !r.is_pending() && r.value().is_some_and(|r| !r.events.is_empty())
    });
    h
}

/// The events as the tab lists them, in its order.
fn listed(h: &Harness<'static, FleetApp>) -> Vec<Event> {
    let all = &h
        .state()
        .state()
        .figures()
        .report
        .value()
        .expect("a report")
        .events;
    h.state()
        .view()
        .events
        .shown()
        .iter()
        .map(|i| all[*i].clone())
        .collect()
}

fn choose_machine_zone(h: &mut Harness<'static, FleetApp>) {
    h.get_by_label("Machine's local time").click();
    h.run_steps(3);
    assert_eq!(h.state().state().times_in(), TimesIn::Machine);
}

#[test]
fn attention_machine_zone_times_in_events_table() {
    let mut h = open_events();
    let first = listed(&h).into_iter().next().expect("a listed event");
    let in_utc = jiff::Timestamp::from_second(first.start)
        .expect("an instant")
        .strftime("%Y-%m-%d %H:%M:%S")
        .to_string();
    assert!(h.query_by_label(&in_utc).is_some(), "UTC first: {in_utc}");

    choose_machine_zone(&mut h);
    // The same row, in Rotterdam's time with its abbreviation (CET in
    // winter, CEST in summer): an hour or two after UTC.
    let local = at_site(first.start, "%Y-%m-%d %H:%M:%S %Z");
    assert!(
        local.ends_with(" CET") || local.ends_with(" CEST"),
        "{local}"
    );
    h.get_by_label(&local);
    assert!(
        h.query_by_label(&in_utc).is_none(),
        "no time left in UTC: {in_utc}"
    );
    // The zone is named where the window says what times are in.
    h.get_by_label_contains(&format!("times below in the machine's time ({SITE_ZONE})"));
    // And a click on the row still lands the cursor at the event's instant.
    h.get_by_label(&local).click();
    h.run_steps(3);
    assert_eq!(h.state().state().timeline().cursor, Some(first.start));
    // The plots' cursor line reads the same time, in the same zone.
    h.get_by_label_contains(&format!(
        "Cursor: {local} (the machine's time ({SITE_ZONE}))"
    ));
}

#[test]
fn attention_out_of_hours_event_says_weekday_local_time_and_rule() {
    let mut h = open_events();
    choose_machine_zone(&mut h);
    let events = listed(&h);
    let out = events
        .iter()
        .find(|e| e.kind == EventKind::OutOfHours)
        .expect("the sandbox's month has out-of-hours use");
    // Outside Monday to Friday 06:00-20:00 in Rotterdam, by the site's
    // own clock.
    let weekday = at_site(out.start, "%A");
    let clock = at_site(out.start, "%H:%M");
    let weekend = weekday == "Saturday" || weekday == "Sunday";
    assert!(
        weekend || clock.as_str() < "06:00" || clock.as_str() >= "20:00",
        "{weekday} {clock} is out of hours"
    );
    // Only the out-of-hours rows shown (the others' kinds switched off),
    // so the row is on screen.
    for kind in EventKind::ALL
        .into_iter()
        .filter(|k| *k != EventKind::OutOfHours)
    {
        let n = events.iter().filter(|e| e.kind == kind).count();
        if n > 0 {
            h.get_by_label(&format!("{} ({n})", event_style(kind).label))
                .click();
            h.run_steps(2);
        }
    }
    assert!(listed(&h).iter().all(|e| e.kind == EventKind::OutOfHours));
    let abbreviation = at_site(out.start, "%Z");
    let sentence = format!(
        "engine running: {weekday} {clock} local time ({abbreviation}), outside Mon–Fri 06:00–20:00"
    );
    // The Value column says it, whole on hover.
    h.get_by_label(&sentence);
    // Its time in the same zone beside it.
    h.get_by_label(&at_site(out.start, "%Y-%m-%d %H:%M:%S %Z"));
}
