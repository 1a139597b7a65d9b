//! The time axis every plot shares: grid marks on round times of the zone
//! shown, short tick labels that never run into each other, the y-axis
//! width that lines the plots' x axes up, the cursor, and the time under
//! the pointer.

use std::ops::RangeInclusive;

use egui_plot::{AxisHints, GridInput, GridMark, VLine};

use crate::ui::format::{self, Zone};
use crate::ui::theme;

use jiff::civil::Date;

/// Every plot's y axis takes this width, so their x axes line up.
pub(super) const Y_AXIS_WIDTH: f32 = 84.0;

const DAY: f64 = 86_400.0;
/// Steps within a day, each a multiple of the one before and a divisor of
/// a day, so their marks nest.
const DAY_STEPS: [f64; 11] = [
    1.0, 5.0, 15.0, 60.0, 300.0, 900.0, 1800.0, 3600.0, 10_800.0, 21_600.0, 43_200.0,
];
/// The calendar's steps, at their shortest: odd days of a month (but the
/// last one when the next month starts a day later) are at least two days
/// apart, days 1, 9, 15 and 23 at least six, months 28 days, quarters 90,
/// years 365. Each set holds the next, and a mark's step is the one it
/// stands for, so two labelled marks are always at least their step apart
/// and egui_plot's spacing holds.
const TWO_DAYS: f64 = 2.0 * DAY;
const WEEK: f64 = 6.0 * DAY;
const MONTH: f64 = 28.0 * DAY;
const QUARTER: f64 = 90.0 * DAY;
const YEAR: f64 = 365.0 * DAY;
/// Marks in one call, at most.
const MAX_MARKS: usize = 4000;
/// Tick labels are drawn from this far apart (egui_plot's default, 60,
/// leaves a week on a narrow plot with a single date).
pub(super) const LABEL_SPACING: f32 = 40.0;

/// Midnight of `date` in the zone shown, in Unix seconds.
fn midnight(date: Date, zone: &Zone) -> Option<i64> {
    // A day that starts with a clock change starts at its first hour
    // (jiff's start of day).
    let start = date.to_zoned(zone.tz().clone()).ok()?.start_of_day().ok()?;
    Some(start.timestamp().as_second())
}

fn date_of(secs: f64, zone: &Zone) -> Option<Date> {
    let at = jiff::Timestamp::from_second(secs.floor() as i64).ok()?;
    Some(at.to_zoned(zone.tz().clone()).date())
}

/// The same day of the next month (days past its end are its last), `None`
/// past jiff's last year.
fn next_month(date: Date) -> Option<Date> {
    date.checked_add(jiff::Span::new().months(1)).ok()
}

/// What a day's midnight stands for: a year, a quarter, a month, about a
/// week (days 9, 15, 23), two days (odd days) or a day.
fn calendar_step(date: Date) -> f64 {
    let last_day = date.days_in_month();
    match (date.month(), date.day()) {
        (1, 1) => YEAR,
        (4 | 7 | 10, 1) => QUARTER,
        (_, 1) => MONTH,
        (_, 9 | 15 | 23) => WEEK,
        // Two days on to the next odd day, or to the next month's first.
        (_, d) if d % 2 == 1 && d + 2 <= last_day + 1 => TWO_DAYS,
        _ => DAY,
    }
}

/// The time axis: round times of the zone shown, labelled by
/// [`time_axis_label`] from [`LABEL_SPACING`] apart.
pub(super) fn time_axis_hints<'a>(zone: Zone) -> AxisHints<'a> {
    AxisHints::new_x()
        .formatter(move |m, r| time_axis_label(m, r, &zone))
        .label_spacing(LABEL_SPACING..=LABEL_SPACING * 1.5)
}

/// Grid marks for a time axis, on round times of the zone shown: every
/// time once, with the largest step it stands for (midnights for days,
/// weeks, months, quarters and years; round hours and minutes within a
/// day). Steps nest, so labelled marks never run into each other.
pub fn time_grid(input: GridInput, zone: &Zone) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return Vec::new();
    }
    let finest = input.base_step_size.max(1.0);
    let mut marks = Vec::new();
    let push = |value: f64, step_size: f64, marks: &mut Vec<GridMark>| {
        if (lo..=hi).contains(&value) && step_size >= finest && marks.len() < MAX_MARKS {
            marks.push(GridMark { value, step_size });
        }
    };
    let Some(mut date) = date_of(lo, zone) else {
        return marks;
    };
    if finest > DAY || hi - lo > 3.0 * YEAR {
        // No day of its own is marked: only the days that start a week of
        // the month (or longer), a few a month however long the view.
        date = date.first_of_month();
        const ODD: [i8; 16] = [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31];
        let days: &[i8] = if finest > WEEK {
            &[1]
        } else if finest > TWO_DAYS {
            &[1, 9, 15, 23]
        } else {
            &ODD
        };
        'months: loop {
            for &day in days {
                let Ok(d) = date.with().day(day).build() else {
                    continue;
                };
                let Some(t) = midnight(d, zone) else {
                    break 'months;
                };
                if t as f64 > hi || marks.len() >= MAX_MARKS {
                    break 'months;
                }
                push(t as f64, calendar_step(d), &mut marks);
            }
            let Some(next) = next_month(date) else {
                break;
            };
            date = next;
        }
        return marks;
    }
    let sub_day = DAY_STEPS.iter().copied().find(|s| *s >= finest);
    while let Some(start) = midnight(date, zone) {
        if start as f64 > hi || marks.len() >= MAX_MARKS {
            break;
        }
        let Ok(next_date) = date.tomorrow() else {
            break;
        };
        let end = midnight(next_date, zone).unwrap_or(start + DAY as i64) as f64;
        let start = start as f64;
        push(start, calendar_step(date), &mut marks);
        if let Some(s0) = sub_day.filter(|_| end > lo) {
            // Round times within the day, from its midnight (a day of a
            // clock change keeps a step's length away from the next one).
            let first = ((lo - start) / s0).ceil().max(1.0);
            let mut k = first;
            while start + k * s0 <= hi && start + k * s0 < end - s0 / 2.0 {
                let offset = k * s0;
                let step = DAY_STEPS
                    .iter()
                    .rev()
                    .copied()
                    .find(|s| *s >= s0 && offset % s == 0.0)
                    .unwrap_or(s0);
                push(start + offset, step, &mut marks);
                if marks.len() >= MAX_MARKS {
                    break;
                }
                k += 1.0;
            }
        }
        date = next_date;
    }
    marks
}

/// Short tick labels by what a mark stands for: years, months, days, then
/// times within a day; over long spans (months and more) only years and
/// months, all as wide as each other. A space on each side: egui_plot
/// draws labels as close as their width, and the spaces keep neighbours
/// from touching.
pub(super) fn time_axis_label(mark: GridMark, range: &RangeInclusive<f64>, zone: &Zone) -> String {
    let t = mark.value as i64;
    let long = range.end() - range.start() > 120.0 * DAY;
    let format = if mark.step_size >= YEAR {
        "%Y"
    } else if long && mark.step_size >= MONTH {
        "%Y-%m"
    } else if long {
        return String::new();
    } else if mark.step_size >= DAY {
        "%m-%d"
    } else if mark.step_size < 60.0 {
        "%H:%M:%S"
    } else {
        "%H:%M"
    };
    format!(" {} ", format::format_in_zone(t, zone, format))
}

/// Draws the span selected, if any, as a band across the plot.
pub(super) fn span_ui(pui: &mut egui_plot::PlotUi<'_>, span: Option<(i64, i64)>) {
    if let Some((a, b)) = span {
        pui.add(
            egui_plot::Span::new("", a as f64..=b as f64)
                .fill(theme::SPAN_FILL)
                .border(egui::Stroke::new(1.0, theme::SPAN_BORDER)),
        );
    }
}

/// Draws the cursor; returns the time under the pointer.
pub(super) fn cursor_ui(pui: &mut egui_plot::PlotUi<'_>, cursor: Option<i64>) -> Option<i64> {
    if let Some(t) = cursor {
        pui.vline(VLine::new("", t as f64).color(theme::CURSOR).width(1.5));
    }
    pui.pointer_coordinate().map(|p| p.x as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The labels egui_plot draws for a view of `span_secs` from `lo` over
    /// `width_px`, with where they are (centre, width): marks whose step is
    /// over [`LABEL_SPACING`] and at least their label's width apart.
    fn labelled(lo: f64, span_secs: f64, width_px: f64) -> Vec<(f64, f64, String)> {
        let px_per_sec = width_px / span_secs;
        let marks = time_grid(
            GridInput {
                bounds: (lo, lo + span_secs),
                // egui_plot's finest grid: 8 points.
                base_step_size: 8.0 / px_per_sec,
            },
            &Zone::utc(),
        );
        marks
            .into_iter()
            .filter_map(|m| {
                let label = time_axis_label(m, &(lo..=lo + span_secs), &Zone::utc());
                if label.is_empty() {
                    return None;
                }
                // About 7 points a character, at the body size.
                let w = label.len() as f64 * 7.0;
                let spacing = m.step_size * px_per_sec;
                (spacing > f64::from(LABEL_SPACING) && spacing >= w).then_some((
                    (m.value - lo) * px_per_sec,
                    w,
                    label,
                ))
            })
            .collect()
    }

    #[test]
    fn labelled_marks_never_run_into_each_other() {
        // 2025-06-18 15:30 UTC, and a long way back.
        let now = 1_750_260_600.0;
        for span in [
            600.0,
            3.0 * 3600.0,
            DAY,
            2.0 * DAY,
            7.0 * DAY,
            30.0 * DAY,
            45.0 * DAY,
            180.0 * DAY,
            366.0 * DAY,
            4.0 * YEAR,
            10.0 * YEAR,
        ] {
            for width in [150.0, 280.0, 490.0, 800.0, 1500.0] {
                let mut marks = labelled(now - span, span, width);
                marks.sort_by(|a, b| a.0.total_cmp(&b.0));
                for w in marks.windows(2) {
                    let ((x0, w0, a), (x1, w1, b)) = (&w[0], &w[1]);
                    assert!(
                        x1 - x0 >= (w0 + w1) / 2.0,
                        "{span} s over {width} px: {a:?} at {x0:.0} and {b:?} at {x1:.0}"
                    );
                }
                // A week or a month over a narrow plot still has dates.
                if (7.0 * DAY..=30.0 * DAY).contains(&span) && width >= 280.0 {
                    assert!(marks.len() >= 3, "{span} s over {width} px: {marks:?}");
                }
            }
        }
    }

    #[test]
    fn the_calendar_steps_nest() {
        let d = |y, m, d| Date::new(y, m, d).expect("a date");
        assert_eq!(calendar_step(d(2025, 6, 1)), MONTH);
        assert_eq!(calendar_step(d(2025, 7, 1)), QUARTER);
        assert_eq!(calendar_step(d(2026, 1, 1)), YEAR);
        assert_eq!(calendar_step(d(2025, 6, 15)), WEEK);
        assert_eq!(calendar_step(d(2025, 6, 17)), TWO_DAYS);
        assert_eq!(calendar_step(d(2025, 6, 16)), DAY);
        // The last odd day two days or more before the next month only.
        assert_eq!(calendar_step(d(2025, 6, 29)), TWO_DAYS);
        assert_eq!(calendar_step(d(2025, 5, 31)), DAY);
        assert_eq!(calendar_step(d(2025, 2, 27)), TWO_DAYS);
        assert_eq!(calendar_step(d(2024, 2, 29)), DAY);
        // Every day of two years: a mark is at least its step from the
        // next one of that step or longer.
        let mut day = d(2024, 1, 1);
        let mut last: Vec<(f64, Date)> = Vec::new();
        while day < d(2026, 1, 1) {
            let step = calendar_step(day);
            for (s, at) in &last {
                if *s <= step {
                    let apart = f64::from((day - *at).get_days()) * DAY;
                    assert!(apart >= *s, "{at} ({s}) then {day} ({step})");
                }
            }
            last.retain(|(s, _)| *s > step);
            last.push((step, day));
            day = day.tomorrow().expect("a day");
        }
    }

    #[test]
    fn marks_fall_on_round_times_once_each() {
        let lo = 1_750_000_123.0;
        let marks = time_grid(
            GridInput {
                bounds: (lo, lo + 3.0 * DAY),
                base_step_size: 2000.0,
            },
            &Zone::utc(),
        );
        assert!(!marks.is_empty());
        let mut values: Vec<f64> = marks.iter().map(|m| m.value).collect();
        values.dedup();
        assert_eq!(values.len(), marks.len(), "each time once");
        for m in &marks {
            assert!(m.step_size >= 2000.0);
            let within_day = m.value % DAY;
            if m.step_size >= DAY {
                assert_eq!(within_day, 0.0, "days at midnight");
            } else {
                assert_eq!(within_day % m.step_size, 0.0);
            }
        }
        // Midnights stand for what they start; 2025-06-01 00:00 UTC.
        let label = |value: f64, step_size: f64| {
            time_axis_label(
                GridMark { value, step_size },
                &(0.0..=30.0 * DAY),
                &Zone::utc(),
            )
        };
        assert_eq!(label(1_748_736_000.0, MONTH), " 06-01 ");
        assert_eq!(label(1_748_736_000.0 + 3600.0, 3600.0), " 01:00 ");
        assert!(
            time_grid(
                GridInput {
                    bounds: (f64::NAN, 1.0),
                    base_step_size: 1.0
                },
                &Zone::utc()
            )
            .is_empty()
        );
    }
}
