//! Unit tests of the daily charts' pure parts.

use super::*;
use fleetview_core::analysis::{DayInput, Expected};

/// A report of `days`.
fn report(days: &[DayInput]) -> Arc<Report> {
    let expected = Expected::default();
    Arc::new(Report {
        days: days
            .iter()
            .map(|d| (d.day, Figures::over(std::slice::from_ref(d), expected)))
            .collect(),
        ..Report::default()
    })
}

/// Monday 2025-10-20.
const MONDAY: i64 = 20_381;

#[test]
fn bars_stack_idle_on_working_and_skip_missing_days() {
    let days = [
        DayInput {
            day: MONDAY,
            working_hours_h: Some(5.0),
            idle_hours_h: Some(2.0),
            fuel_used_l: Some(80.0),
            distance_km: Some(1.5),
            ..DayInput::default()
        },
        // Nothing reported: no bar at all, not a 0 bar.
        DayInput {
            day: MONDAY + 1,
            ..DayInput::default()
        },
        // Idle alone stands on the axis; estimated fuel apart.
        DayInput {
            day: MONDAY + 2,
            idle_hours_h: Some(1.0),
            fuel_used_l: Some(12.0),
            fuel_estimated: true,
            ..DayInput::default()
        },
    ];
    let b = DailyBars::build(&report(&days), &egui::Visuals::dark(), UnitSystem::Metric);
    let x = |bars: &[Bar]| bars.iter().map(|b| b.argument).collect::<Vec<_>>();
    let monday = MONDAY as f64 + 0.5;
    assert_eq!(x(&b.working), vec![monday]);
    assert_eq!(x(&b.idle), vec![monday, monday + 2.0]);
    assert_eq!(b.idle[0].base_offset, Some(5.0));
    assert_eq!(b.idle[0].value, 2.0);
    assert_eq!(b.idle[1].base_offset, Some(0.0));
    assert_eq!(x(&b.fuel), vec![monday]);
    assert_eq!(x(&b.fuel_estimated), vec![monday + 2.0]);
    assert_eq!(b.fuel_estimated[0].stroke.color, theme::ESTIMATED);
    assert_eq!(x(&b.distance), vec![monday]);
    assert!(b.working.iter().all(|b| b.bar_width == BAR_WIDTH));
    // Expected hours step over every day, reported or not.
    let steps: Vec<(f64, f64)> = b.expected.iter().map(|p| (p.x, p.y)).collect();
    let m = MONDAY as f64;
    assert_eq!(
        steps,
        vec![
            (m, 8.0),
            (m + 1.0, 8.0),
            (m + 1.0, 8.0),
            (m + 2.0, 8.0),
            (m + 2.0, 8.0),
            (m + 3.0, 8.0)
        ]
    );
    assert!(b.has_bars(DailyChart::Hours) && b.has_bars(DailyChart::Distance));
    assert_eq!(
        b.figures_of(MONDAY + 2).and_then(|f| f.idle_hours_h),
        Some(1.0)
    );
    assert!(b.figures_of(MONDAY + 3).is_none());
}

#[test]
fn a_weekend_expects_nothing_and_an_empty_report_draws_nothing() {
    let saturday = DayInput {
        day: MONDAY + 5,
        ..DayInput::default()
    };
    let b = DailyBars::build(
        &report(&[saturday]),
        &egui::Visuals::dark(),
        UnitSystem::Metric,
    );
    assert!(b.expected.iter().all(|p| p.y == 0.0));
    assert!(!b.has_bars(DailyChart::Hours));
    assert!(!b.has_bars(DailyChart::Fuel));
    let empty = DailyBars::build(&report(&[]), &egui::Visuals::dark(), UnitSystem::Metric);
    assert!(empty.expected.is_empty() && !empty.has_bars(DailyChart::Distance));
}

#[test]
fn the_day_under_the_pointer_is_a_day_of_the_window() {
    assert_eq!(day_at(100.2, 100, 106), Some(100));
    assert_eq!(day_at(106.99, 100, 106), Some(106));
    assert_eq!(day_at(107.0, 100, 106), None);
    assert_eq!(day_at(99.9, 100, 106), None);
    assert_eq!(day_at(f64::NAN, 100, 106), None);
    assert_eq!(day_at(-0.5, -3, 3), Some(-1));
}

#[test]
fn only_the_bars_in_view_are_handed_over() {
    let xs: Vec<f64> = (0..3660).map(|d| d as f64 + 0.5).collect();
    let shown = in_view(&xs, |x| *x, (100.0, 130.0));
    assert_eq!(shown.first(), Some(&99.5));
    assert_eq!(shown.last(), Some(&130.5));
    assert_eq!(
        in_view(&xs, |x| *x, (f64::NEG_INFINITY, f64::INFINITY)).len(),
        3660
    );
    assert!(in_view(&xs, |x| *x, (5000.0, 6000.0)).is_empty());
    assert!(in_view(&xs, |x| *x, (10.0, 5.0)).is_empty());
}

#[test]
fn charts_shrink_in_a_short_pane_and_give_way_in_a_shorter_one() {
    let full = theme::DAILY_CHART_HEIGHT + theme::DAILY_TABLE_ROOM;
    assert_eq!(chart_height(full + 200.0), Some(theme::DAILY_CHART_HEIGHT));
    assert_eq!(
        chart_height(full - 10.0),
        Some(theme::DAILY_CHART_HEIGHT - 10.0)
    );
    let least = theme::DAILY_CHART_MIN_HEIGHT + theme::DAILY_TABLE_ROOM;
    assert_eq!(chart_height(least), Some(theme::DAILY_CHART_MIN_HEIGHT));
    assert_eq!(chart_height(least - 1.0), None, "the table keeps its days");
    assert_eq!(chart_height(0.0), None);
    assert_eq!(chart_height(f32::NAN), None);
    assert_eq!(chart_height(f32::INFINITY), Some(theme::DAILY_CHART_HEIGHT));
}

#[test]
fn day_marks_fall_on_midnights_and_read_as_dates() {
    // 2025-06-01 (day 20_240) over a month, 8 points a day at least.
    let marks = day_grid(GridInput {
        bounds: (20_240.0, 20_270.0),
        base_step_size: 1.0,
    });
    assert!(marks.len() >= 30);
    assert!(
        marks
            .iter()
            .all(|m| m.value.fract() == 0.0 && m.step_size >= 1.0)
    );
    let label = |value: f64, step_size: f64, span: f64| {
        day_label(GridMark { value, step_size }, &(value..=value + span))
    };
    assert_eq!(label(20_240.0, 28.0, 30.0), " 06-01 ");
    assert_eq!(label(20_240.0, 28.0, 400.0), " 2025-06 ");
    assert_eq!(label(20_241.0, 1.0, 400.0), "");
    assert!(
        day_grid(GridInput {
            bounds: (f64::NAN, 1.0),
            base_step_size: 1.0
        })
        .is_empty()
    );
}
