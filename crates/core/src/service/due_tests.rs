//! The due and forecast rules on made-up machines.

use super::due::*;
use super::plan::*;
use super::usage::{MachineUsage, MetersNow, UsageDay};

const TODAY: Day = Day(20_000);

fn plan(
    scope: PlanScope,
    task: &str,
    every: f64,
    unit: PlanUnit,
    last: Option<(i64, Option<f64>)>,
) -> StoredPlan {
    StoredPlan {
        id: PlanId(1),
        plan: Plan {
            scope,
            task: task.into(),
            every,
            unit,
            last_done: last.map(|(d, m)| LastDone {
                day: Day(d),
                meter: m,
            }),
        },
    }
}

/// A machine working `per_day` hours every day from `first` to yesterday,
/// its meter starting at `start`; `reset_on`: the meter restarts at 0 on
/// that day.
fn worked(first: i64, start: f64, per_day: f64, reset_on: Option<i64>) -> MachineUsage {
    let mut meter = start;
    let mut days = Vec::new();
    for day in first..TODAY.0 {
        if Some(day) == reset_on {
            meter = 0.0;
        }
        meter += per_day;
        days.push(UsageDay {
            day,
            hours_h: Some(per_day),
            hour_meter_h: Some(meter),
            ..Default::default()
        });
    }
    MachineUsage {
        meters: MetersNow {
            hours_h: Some(meter),
            odometer_km: None,
        },
        days,
        days_read: true,
    }
}

#[test]
fn with_no_reset_next_due_is_last_done_plus_the_interval() {
    // 8 h a day for 40 days from 1000 h: 1320 h now.
    let usage = worked(TODAY.0 - 40, 1000.0, 8.0, None);
    let p = plan(
        PlanScope::Machine(7),
        "Oil",
        500.0,
        PlanUnit::Hours,
        Some((TODAY.0 - 40, Some(1000.0))),
    );
    let item = due(
        &p.plan,
        p.plan.last_done,
        &usage,
        TODAY,
        DEFAULT_SOON_FRACTION,
    );
    assert_eq!(item.meter_now, Some(1320.0));
    assert_eq!(item.next_due_meter, Some(1500.0));
    assert_eq!(item.remaining, Some(180.0));
    assert_eq!(item.status, DueStatus::Ok);
    // 180 h at 8 h a day: 22.5 days, so on the 23rd day from today.
    assert_eq!(item.forecast, Forecast::On(TODAY.plus_days(23)));
    assert_eq!(item.resets, 0);
}

#[test]
fn hours_worked_across_a_reset_keep_counting() {
    // From 4800 h, 10 h a day; the meter is replaced 20 days ago.
    let usage = worked(TODAY.0 - 30, 4800.0, 10.0, Some(TODAY.0 - 20));
    assert_eq!(usage.meters.hours_h, Some(200.0));
    let p = plan(
        PlanScope::Machine(7),
        "Oil",
        500.0,
        PlanUnit::Hours,
        Some((TODAY.0 - 30, Some(4800.0))),
    );
    let item = due(
        &p.plan,
        p.plan.last_done,
        &usage,
        TODAY,
        DEFAULT_SOON_FRACTION,
    );
    // 300 h worked since (100 before the reset, 200 after): 200 left.
    assert_eq!(item.resets, 1);
    assert_eq!(item.remaining, Some(200.0));
    assert_eq!(item.next_due_meter, Some(400.0));
    assert_eq!(item.status, DueStatus::Ok);
    assert!(reset_since(PlanUnit::Hours, Day(TODAY.0 - 30), &usage.days));
}

#[test]
fn overdue_and_due_soon_follow_the_threshold() {
    let usage = worked(TODAY.0 - 10, 0.0, 10.0, None);
    let at = |every: f64| {
        let p = plan(
            PlanScope::Machine(1),
            "Grease",
            every,
            PlanUnit::Hours,
            Some((TODAY.0 - 10, Some(0.0))),
        );
        due(
            &p.plan,
            p.plan.last_done,
            &usage,
            TODAY,
            DEFAULT_SOON_FRACTION,
        )
    };
    // 100 h worked.
    assert_eq!(at(90.0).status, DueStatus::Overdue);
    assert_eq!(at(90.0).remaining, Some(-10.0));
    // Overdue: the forecast is the day it was passed, before today.
    assert!(at(90.0).forecast.day().is_some_and(|d| d < TODAY));
    assert_eq!(at(105.0).status, DueStatus::DueSoon);
    assert_eq!(at(111.2).status, DueStatus::Ok);
    assert_eq!(
        at(100.0).status,
        DueStatus::DueSoon,
        "due now is not yet overdue"
    );
}

#[test]
fn a_machine_idle_for_30_days_has_no_forecast() {
    let mut usage = worked(TODAY.0 - 60, 100.0, 5.0, None);
    for d in usage.days.iter_mut().filter(|d| d.day >= TODAY.0 - 30) {
        d.hours_h = Some(0.0);
        d.hour_meter_h = Some(250.0);
    }
    usage.meters.hours_h = Some(250.0);
    let p = plan(
        PlanScope::Machine(1),
        "Oil",
        250.0,
        PlanUnit::Hours,
        Some((TODAY.0 - 60, Some(100.0))),
    );
    let item = due(
        &p.plan,
        p.plan.last_done,
        &usage,
        TODAY,
        DEFAULT_SOON_FRACTION,
    );
    assert_eq!(item.remaining, Some(100.0));
    assert_eq!(item.forecast, Forecast::NotWorked);
    assert_eq!(item.forecast.why_none(), Some("no use in the last 30 days"));
    assert_eq!(item.status, DueStatus::Ok);
    // With no daily usage read, no forecast either, for another reason.
    let bare = MachineUsage {
        days: Vec::new(),
        days_read: false,
        ..usage
    };
    assert_eq!(
        due(&p.plan, p.plan.last_done, &bare, TODAY, 0.1).forecast,
        Forecast::NoUsage
    );
}

#[test]
fn a_machines_own_plan_overrides_its_categorys() {
    let plans = vec![
        plan(
            PlanScope::Category("Excavator".into()),
            "Engine oil",
            250.0,
            PlanUnit::Hours,
            None,
        ),
        plan(
            PlanScope::Category("Excavator".into()),
            "Annual inspection",
            365.0,
            PlanUnit::Days,
            None,
        ),
        plan(
            PlanScope::Machine(7),
            "engine OIL ",
            500.0,
            PlanUnit::Hours,
            Some((TODAY.0 - 1, Some(0.0))),
        ),
        plan(
            PlanScope::Category("Dump truck".into()),
            "Tyres",
            20000.0,
            PlanUnit::Km,
            None,
        ),
    ];
    let got = plans_for(7, Some("Excavator"), &plans);
    let tasks: Vec<(&str, f64, bool)> = got
        .iter()
        .map(|(p, c)| (p.plan.task.as_str(), p.plan.every, *c))
        .collect();
    assert_eq!(
        tasks,
        vec![
            ("engine OIL ", 500.0, false),
            ("Annual inspection", 365.0, true)
        ]
    );
    // Another excavator has the category's oil plan, never done: unknown.
    let usage = worked(TODAY.0 - 5, 0.0, 8.0, None);
    let items = machine_due(8, Some("Excavator"), &plans, &[], &usage, TODAY, 0.1);
    assert_eq!(items.len(), 2);
    assert!(
        items
            .iter()
            .all(|i| i.status == DueStatus::Unknown && i.from_category)
    );
}

#[test]
fn a_recorded_service_counts_from_its_day() {
    let usage = worked(TODAY.0 - 100, 0.0, 1.0, None);
    let p = plan(
        PlanScope::Category("Crane".into()),
        "Inspection",
        30.0,
        PlanUnit::Days,
        Some((TODAY.0 - 100, None)),
    );
    let done = vec![DoneRecord {
        equipment: 3,
        task: "inspection".into(),
        unit: PlanUnit::Days,
        done: LastDone {
            day: Day(TODAY.0 - 25),
            meter: None,
        },
        recorded_at: 0,
    }];
    let items = machine_due(
        3,
        Some("Crane"),
        std::slice::from_ref(&p),
        &done,
        &usage,
        TODAY,
        0.1,
    );
    assert_eq!(items[0].due_day, Some(TODAY.plus_days(5)));
    assert_eq!(items[0].remaining, Some(5.0));
    assert_eq!(items[0].status, DueStatus::Ok);
    // Another crane never recorded: the category's own last done, overdue.
    let other = machine_due(
        4,
        Some("Crane"),
        std::slice::from_ref(&p),
        &done,
        &usage,
        TODAY,
        0.1,
    );
    assert_eq!(other[0].status, DueStatus::Overdue);
    assert!(other[0].within(TODAY, 0));
}

#[test]
fn a_meter_below_the_last_reading_with_no_usage_is_unknown() {
    let usage = MachineUsage {
        meters: MetersNow {
            hours_h: Some(10.0),
            odometer_km: None,
        },
        days: Vec::new(),
        days_read: false,
    };
    let p = plan(
        PlanScope::Machine(1),
        "Oil",
        250.0,
        PlanUnit::Hours,
        Some((TODAY.0 - 3, Some(900.0))),
    );
    let item = due(&p.plan, p.plan.last_done, &usage, TODAY, 0.1);
    assert_eq!(item.status, DueStatus::Unknown);
    assert_eq!(item.remaining, None);
}

#[test]
fn a_reading_written_above_the_days_end_is_no_reset() {
    let mut usage = worked(TODAY.0 - 3, 1000.0, 8.0, None);
    // Written down as 1010 at the service; the day ended at 1008 (rounding).
    let p = plan(
        PlanScope::Machine(1),
        "Oil",
        250.0,
        PlanUnit::Hours,
        Some((TODAY.0 - 3, Some(1010.0))),
    );
    usage.meters.hours_h = Some(1024.0);
    let item = due(&p.plan, p.plan.last_done, &usage, TODAY, 0.1);
    assert_eq!(item.resets, 0);
    // Counted from the day's own end, 1008, not as a reset.
    assert_eq!(item.remaining, Some(250.0 - 16.0));
}

/// The usage read for a machine (the app's and the command line's reads):
/// from its meter plans' earliest last done, or the forecast's 30 days.
#[test]
fn usage_is_read_from_the_earliest_last_done_of_the_meter_plans_or_the_forecasts_days() {
    let days_only = [plan(
        PlanScope::Machine(1),
        "inspection",
        90.0,
        PlanUnit::Days,
        Some((TODAY.0 - 200, None)),
    )];
    assert_eq!(usage_from(1, None, &days_only, &[], TODAY), None);
    let recent = [plan(
        PlanScope::Category("Excavator".into()),
        "oil",
        500.0,
        PlanUnit::Hours,
        Some((TODAY.0 - 5, Some(100.0))),
    )];
    assert_eq!(
        usage_from(1, Some("Excavator"), &recent, &[], TODAY),
        Some(Day(TODAY.0 - FORECAST_DAYS)),
        "the forecast's days when done since"
    );
    assert_eq!(usage_from(1, Some("Truck"), &recent, &[], TODAY), None);
    let long_ago = [
        recent[0].clone(),
        plan(
            PlanScope::Machine(1),
            "filters",
            1000.0,
            PlanUnit::Km,
            Some((TODAY.0 - 120, Some(5.0))),
        ),
    ];
    assert_eq!(
        usage_from(1, Some("Excavator"), &long_ago, &[], TODAY),
        Some(Day(TODAY.0 - 120))
    );
    // A service recorded later than the plan's last done is the last done.
    let done = [DoneRecord {
        equipment: 1,
        task: "filters".into(),
        unit: PlanUnit::Km,
        done: LastDone {
            day: Day(TODAY.0 - 40),
            meter: Some(900.0),
        },
        recorded_at: 0,
    }];
    assert_eq!(
        usage_from(1, Some("Excavator"), &long_ago, &done, TODAY),
        Some(Day(TODAY.0 - 40))
    );
}
