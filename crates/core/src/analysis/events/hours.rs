//! Out-of-hours use (D16): the engine running outside the working hours,
//! read in the machine's local time zone (daylight saving included).

use jiff::civil::{Date, DateTime, Time};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use super::types::{Event, EventDetail, EventKind, WorkingHours};

/// The working intervals `[start, end)` (timestamps) of the local days that
/// may overlap `a..b`, in order. `end_min` at or before `start_min` is a
/// shift over midnight (22:00-06:00 ends the next day); equal: none.
fn working_intervals(hours: &WorkingHours, tz: &TimeZone, a: i64, b: i64) -> Vec<(i64, i64)> {
    let local_date = |t: i64| -> Option<Date> {
        Some(Timestamp::from_second(t).ok()?.to_zoned(tz.clone()).date())
    };
    let at = |d: Date, min: u16| -> Option<i64> {
        let dt: DateTime = d
            .to_datetime(Time::midnight())
            .checked_add(SignedDuration::from_mins(i64::from(min)))
            .ok()?;
        // A local time skipped by a change of clocks is read as the one
        // after it; a repeated one as the first (jiff's "compatible").
        Some(tz.to_timestamp(dt).ok()?.as_second())
    };
    let mut out = Vec::new();
    let (Some(first), Some(last)) = (local_date(a), local_date(b)) else {
        return out;
    };
    if hours.start_min == hours.end_min {
        return out;
    }
    // The day before too: its shift over midnight may reach `a`.
    let mut day = first.yesterday().unwrap_or(first);
    while day <= last {
        let weekday = day.weekday().to_monday_zero_offset() as usize;
        if hours.days[weekday] {
            let end_day = if hours.end_min > hours.start_min {
                Some(day)
            } else {
                day.tomorrow().ok()
            };
            if let (Some(s), Some(e)) = (
                at(day, hours.start_min),
                end_day.and_then(|d| at(d, hours.end_min)),
            ) && e > s
            {
                out.push((s, e));
            }
        }
        let Ok(next) = day.tomorrow() else { break };
        day = next;
    }
    out
}

/// One event per stretch of a running period outside the working hours;
/// `periods` the engine's running periods `[start, end)`, in order.
pub(crate) fn out_of_hours(
    periods: &[(i64, i64)],
    hours: &WorkingHours,
    tz: &TimeZone,
) -> Vec<Event> {
    let mut out = Vec::new();
    for &(a, b) in periods {
        let mut from = a;
        for (s, e) in working_intervals(hours, tz, a, b) {
            // Intervals may touch (a shift to midnight, the next from
            // midnight): the stretch between them is empty and skipped.
            if s > from && from < b {
                push(&mut out, from, s.min(b), hours, tz);
            }
            from = from.max(e);
        }
        if from < b {
            push(&mut out, from, b, hours, tz);
        }
    }
    out
}

fn push(out: &mut Vec<Event>, start: i64, end: i64, hours: &WorkingHours, tz: &TimeZone) {
    if end > start {
        out.push(Event {
            kind: EventKind::OutOfHours,
            start,
            end: Some(end),
            position: None,
            detail: EventDetail::OutOfHours {
                reason: reason(start, hours, tz),
            },
        });
    }
}

/// Why a stretch from `start` is out of hours, in the zone the hours are
/// read in: "Saturday 06:29 local time (CST), outside Mon–Fri
/// 06:00–20:00"; "UTC" where the machine's zone is not known.
fn reason(start: i64, hours: &WorkingHours, tz: &TimeZone) -> String {
    let Ok(at) = Timestamp::from_second(start) else {
        return format!("outside {}", hours.describe());
    };
    let local = at.to_zoned(tz.clone());
    let zone = if tz == &TimeZone::UTC {
        "UTC".to_owned()
    } else {
        format!("local time ({})", local.strftime("%Z"))
    };
    format!(
        "{} {zone}, outside {}",
        local.strftime("%A %H:%M"),
        hours.describe()
    )
}
