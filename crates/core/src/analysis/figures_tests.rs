//! Tests of the window and daily figures.

use proptest::prelude::*;

use super::*;
use fleetview_api::Timestamp;
use fleetview_api::model::{Co2, Distance, FuelUsed, Hours};

const DAY: i64 = SECS_PER_DAY;
/// 2025-11-17, a Monday.
const MONDAY: i64 = 20_409;

fn row(day: i64, op: f64, idle: f64, fuel: Option<(f64, bool)>, km: f64) -> DailyUsageRow {
    DailyUsageRow {
        date: Timestamp::from_secs(day * DAY),
        operating_hours: Some(Hours { hour: Some(op) }),
        idle_hours: Some(Hours { hour: Some(idle) }),
        working_hours: Some(Hours {
            hour: Some(op - idle),
        }),
        fuel_used: fuel.map(|(l, est)| FuelUsed {
            fuel_used: Some(l),
            unit: "L".into(),
            estimated: Some(est),
        }),
        daily_distance: Some(Distance {
            odometer: Some(km),
            unit: "km".into(),
        }),
        cumulative_idle_hours: None,
        cumulative_operating_hours: None,
        cumulative_fuel_used: None,
        cumulative_distance: None,
        cumulative_load_count: None,
        cumulative_payload_total: None,
        cumulative_active_regeneration_hours: None,
        cumulative_power_take_off_hours: None,
        peak_daily_speed: None,
        average_daily_engine_load_factor: None,
        def_remaining_ratio: None,
        co2: fuel.map(|(l, est)| Co2 {
            weight: l * 2.68,
            unit: "kg".into(),
            estimated: Some(est),
        }),
    }
}

fn inputs<'a>(w: TimeWindow, daily: &'a [DailyUsageRow]) -> ReportInputs<'a> {
    ReportInputs {
        window: w,
        now: w.until,
        daily,
        idle_fuel: None,
        activities: None,
        engine: &[],
        positions: None,
        expected: Expected::default(),
        events: Default::default(),
    }
}

fn week() -> TimeWindow {
    TimeWindow::new(MONDAY * DAY, (MONDAY + 7) * DAY - 1).expect("window")
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9)
}

#[test]
fn a_week_adds_up_and_utilisation_counts_working_days() {
    let daily = [
        row(MONDAY, 8.0, 2.0, Some((80.0, false)), 10.0),
        row(MONDAY + 1, 4.0, 1.0, Some((40.0, false)), 5.0),
        // Saturday: worked, expected nothing.
        row(MONDAY + 5, 2.0, 0.5, Some((20.0, true)), 1.0),
    ];
    let r = Report::compute(&inputs(week(), &daily));
    assert_eq!(r.days.len(), 7);
    let t = &r.totals;
    assert!(close(t.engine_hours_h, 14.0));
    assert!(close(t.idle_hours_h, 3.5));
    assert!(close(t.working_hours_h, 10.5));
    assert!(close(t.idle_percent(), 25.0));
    assert!(close(t.fuel_used_l, 140.0));
    assert!(close(t.fuel_per_engine_hour_l(), 10.0));
    assert!(close(t.fuel_estimated_percent(), 100.0 * 20.0 / 140.0));
    assert!(t.is_estimated(Figure::FuelUsed));
    assert!(close(t.distance_km, 16.0));
    assert!(close(Some(t.expected_hours_h), 40.0));
    assert!(close(t.utilisation_percent(), 35.0));
    // Days without rows have no figures, not zeros; they still expect
    // their hours.
    let (day, wednesday) = &r.days[2];
    assert_eq!(*day, MONDAY + 2);
    assert_eq!(wednesday.engine_hours_h, None);
    assert_eq!(wednesday.fuel_used_l, None);
    assert_eq!(wednesday.value(Figure::IdlePercent), None);
    assert_eq!(wednesday.value(Figure::Utilisation), None);
    assert!(close(Some(wednesday.expected_hours_h), 8.0));
    // Nothing read: no activities, no stops (not 0).
    assert_eq!(t.value(Figure::Activities), None);
    assert_eq!(t.value(Figure::Stops), None);
}

#[test]
fn missing_inputs_give_no_figure() {
    let r = Report::compute(&inputs(week(), &[]));
    for f in Figure::ALL {
        if f == Figure::ExpectedHours {
            continue;
        }
        assert_eq!(r.totals.value(f), None, "{f:?} without data");
    }
    // A unit the app cannot read is no number either.
    let mut odd = row(MONDAY, 8.0, 2.0, Some((80.0, false)), 10.0);
    if let Some(f) = odd.fuel_used.as_mut() {
        f.unit = "bushel".into();
    }
    let r = Report::compute(&inputs(week(), std::slice::from_ref(&odd)));
    assert_eq!(r.totals.fuel_used_l, None);
    assert!(close(r.totals.engine_hours_h, 8.0));
}

#[test]
fn the_fuel_split_uses_daily_idle_fuel_on_measured_days_only() {
    let daily = [
        row(MONDAY, 8.0, 2.0, Some((80.0, false)), 0.0),
        row(MONDAY + 1, 4.0, 1.0, Some((40.0, true)), 0.0),
    ];
    let idle = [(MONDAY * DAY, 6.0), ((MONDAY + 1) * DAY, 3.0)];
    let mut input = inputs(week(), &daily);
    input.idle_fuel = Some(&idle);
    let t = Report::compute(&input).totals;
    // Monday only: (80 - 6) L over 6 working hours, 6 L over 2 idle hours.
    assert!(close(t.working_fuel_per_hour_l(), 74.0 / 6.0));
    assert!(close(t.idle_fuel_per_hour_l(), 3.0));
    assert!(close(t.idle_fuel_l, 9.0));
    // Without idle fuel: no split.
    let t = Report::compute(&inputs(week(), &daily)).totals;
    assert_eq!(t.working_fuel_per_hour_l(), None);
}

#[test]
fn working_hours_missing_are_engine_minus_idle() {
    let mut r = row(MONDAY, 8.0, 2.5, None, 0.0);
    r.working_hours = None;
    let f = Figures::over(&[DayInput::from_row(&r)], Expected::default());
    assert!(close(f.working_hours_h, 5.5));
    assert!(f.working_derived);
}

#[test]
fn stops_and_activities_are_counted_per_day() {
    use fleetview_api::model::{ActivityRow, EngineConditionRow};
    let m = MONDAY * DAY;
    let engine = [
        EngineConditionRow::started_at(m + 3600),
        EngineConditionRow::stopped_at(m + 7200), // stop 1 h on Monday
        EngineConditionRow::started_at(m + 10_800),
        EngineConditionRow::stopped_at(m + DAY + 100), // stop on Tuesday, off to the end
    ];
    let activity = |t: i64| ActivityRow {
        date_start: Timestamp::from_secs(t),
        date_stop: Timestamp::from_secs(t + 60),
        distance_meters: 10.0,
        average_speed_km_h: 1.0,
        first_position_address: String::new(),
        last_position_address: String::new(),
    };
    let activities = [
        activity(m + 3700),
        activity(m + 11_000),
        activity(m + DAY + 50),
    ];
    let mut input = inputs(week(), &[]);
    input.engine = &engine;
    input.activities = Some(&activities);
    let r = Report::compute(&input);
    assert_eq!(r.totals.stops, Some(2));
    assert_eq!(r.totals.activities, Some(3));
    assert_eq!(r.days[0].1.stops, Some(1));
    assert_eq!(r.days[1].1.stops, Some(1));
    assert_eq!(r.days[0].1.activities, Some(2));
    assert_eq!(r.days[2].1.activities, Some(0));
    assert_eq!(r.stops_from, Some(StopSource::EngineEvents));
}

proptest! {
    /// Over random days: working + idle = engine hours, and the window's
    /// figures are the sums of its days'.
    #[test]
    fn the_window_is_the_sum_of_its_days(
        days in proptest::collection::vec(
            (0.0f64..20.0, 0.0f64..1.0, proptest::option::of((0.0f64..400.0, any::<bool>())), 0.0f64..300.0, any::<bool>()),
            1..40,
        ),
        expected in 0.0f64..16.0,
    ) {
        let daily: Vec<DailyUsageRow> = days
            .iter()
            .enumerate()
            .filter(|(_, d)| d.4)
            .map(|(k, d)| row(MONDAY + k as i64, d.0, d.0 * d.1, d.2, d.3))
            .collect();
        let w = TimeWindow::new(MONDAY * DAY, (MONDAY + days.len() as i64) * DAY - 1).unwrap();
        let mut input = inputs(w, &daily);
        input.expected = Expected { hours_per_working_day: expected };
        let r = Report::compute(&input);
        prop_assert_eq!(r.days.len(), days.len());
        let t = &r.totals;
        if let (Some(e), Some(wk), Some(i)) = (t.engine_hours_h, t.working_hours_h, t.idle_hours_h) {
            prop_assert!((wk + i - e).abs() < 1e-6);
        } else {
            prop_assert!(daily.is_empty());
        }
        for f in [Figure::EngineHours, Figure::WorkingHours, Figure::IdleHours, Figure::FuelUsed, Figure::Co2, Figure::Distance, Figure::ExpectedHours] {
            let parts: Vec<f64> = r.days.iter().filter_map(|(_, d)| d.value(f)).collect();
            match t.value(f) {
                Some(total) => prop_assert!((total - parts.iter().sum::<f64>()).abs() < 1e-6, "{:?}", f),
                None => prop_assert!(parts.is_empty(), "{:?}", f),
            }
        }
        let est: f64 = r.days.iter().filter(|(_, d)| d.is_estimated(Figure::FuelUsed)).filter_map(|(_, d)| d.fuel_used_l).sum();
        if let Some(share) = t.fuel_estimated_percent() {
            prop_assert!((share - 100.0 * est / t.fuel_used_l.unwrap()).abs() < 1e-6);
        }
    }
}

#[test]
fn only_whole_days_count_and_today_expects_the_hours_gone_by() {
    let daily = [
        row(MONDAY, 8.0, 2.0, None, 1.0),
        row(MONDAY + 1, 6.0, 1.0, None, 1.0),
        row(MONDAY + 2, 4.0, 1.0, None, 1.0),
    ];
    // Monday 06:00 to Wednesday 12:00: Tuesday is the one whole day.
    let w = TimeWindow::new(MONDAY * DAY + 6 * 3600, (MONDAY + 2) * DAY + 12 * 3600).unwrap();
    let r = Report::compute(&inputs(w, &daily));
    assert_eq!(
        r.days.iter().map(|(d, _)| *d).collect::<Vec<_>>(),
        vec![MONDAY + 1]
    );
    assert!(close(r.totals.engine_hours_h, 6.0));
    // A week seen on Wednesday at 06:00: Monday and Tuesday expect 8 h,
    // Wednesday a quarter of it, the rest of the week nothing yet.
    let mut input = inputs(week(), &daily);
    input.now = (MONDAY + 2) * DAY + 6 * 3600;
    let r = Report::compute(&input);
    assert!(
        close(Some(r.totals.expected_hours_h), 18.0),
        "{}",
        r.totals.expected_hours_h
    );
    assert!(close(Some(r.days[2].1.expected_hours_h), 2.0));
    assert!(close(Some(r.days[3].1.expected_hours_h), 0.0));
    assert!(close(r.totals.utilisation_percent(), 100.0 * 18.0 / 18.0));
}
