//! What reports say in words: the window and days as people read dates,
//! and each event in a sentence, the one the app's Events tab shows in its
//! Value column (the app reads it from here, so both say the same).

use crate::analysis::events::{CheckSide, difference_percent};
use crate::analysis::{Conversion, Event, EventDetail, Quantity, UnitSystem};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow, format_wire};

/// What a missing value reads as.
const NULL: &str = "—";

/// `YYYY-MM-DD` of a UTC day number.
pub(crate) fn day_of(day: i64) -> String {
    format_wire(day * SECS_PER_DAY)[..10].to_owned()
}

fn utc(secs: i64, format: &str) -> String {
    jiff::Timestamp::from_second(secs)
        .map(|t| {
            t.to_zoned(jiff::tz::TimeZone::UTC)
                .strftime(format)
                .to_string()
        })
        .unwrap_or_else(|_| format_wire(secs))
}

/// The window as people read it: `Monday 16 June 2025 to Sunday 22 June
/// 2025` for whole UTC days, with the times (UTC) otherwise.
pub fn window_words(w: TimeWindow) -> String {
    let whole =
        w.since.rem_euclid(SECS_PER_DAY) == 0 && (w.until + 1).rem_euclid(SECS_PER_DAY) == 0;
    if whole {
        let (first, last) = (utc(w.since, "%A %-d %B %Y"), utc(w.until, "%A %-d %B %Y"));
        if first == last {
            first
        } else {
            format!("{first} to {last}")
        }
    } else {
        format!(
            "{} to {} UTC",
            utc(w.since, "%A %-d %B %Y %H:%M"),
            utc(w.until, "%A %-d %B %Y %H:%M")
        )
    }
}

/// An instant as people read it: `Monday 16 June 2025 06:29 UTC`.
pub fn time_words(secs: i64) -> String {
    utc(secs, "%A %-d %B %Y %H:%M UTC")
}

/// A number with a fixed number of decimals, or the null dash.
fn number(v: Option<f64>, decimals: usize) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:.decimals$}"),
        _ => NULL.to_owned(),
    }
}

/// A duration: `3 h 05 min`, `12 min`, `45 s`.
pub fn duration_words(secs: i64) -> String {
    let secs = secs.max(0);
    if secs >= 3600 {
        format!("{} h {:02} min", secs / 3600, secs / 60 % 60)
    } else if secs >= 60 {
        format!("{} min", secs / 60)
    } else {
        format!("{secs} s")
    }
}

/// A signed number with a real minus sign: `+42`, `−18`.
pub fn signed(v: f64, decimals: usize) -> String {
    let n = format!("{:.decimals$}", v.abs());
    if v < 0.0 && n.chars().any(|c| c.is_ascii_digit() && c != '0') {
        format!("−{n}")
    } else {
        format!("+{n}")
    }
}

fn with_unit(v: f64, unit: &str) -> String {
    let n = number(Some(v), 1);
    if unit.is_empty() {
        n
    } else {
        format!("{n} {unit}")
    }
}

fn side(s: &CheckSide, unit: &str, units: UnitSystem) -> String {
    let (v, unit) = units.from_service(s.value, unit);
    format!("{} {}", s.series, with_unit(v, &unit))
}

/// What an event says beyond its kind, time and place, in a sentence.
pub fn summary(e: &Event, units: UnitSystem) -> String {
    match &e.detail {
        EventDetail::Stop => match e.end {
            Some(_) => "stopped".to_owned(),
            None => "stopped, still at the window's end".to_owned(),
        },
        EventDetail::Fuel {
            from_percent,
            to_percent,
            litres,
        } => fuel_text(*from_percent, *to_percent, *litres, units),
        EventDetail::OutOfHours { reason } => format!("engine running: {reason}"),
        EventDetail::Gap {
            series,
            median_interval_secs,
        } => {
            let silent = e
                .duration_secs()
                .map_or_else(String::new, |d| format!("{} ", duration_words(d)));
            format!(
                "{silent}silent ({series}, usual {})",
                duration_words(*median_interval_secs)
            )
        }
        EventDetail::CounterReset {
            counter,
            before,
            after,
        } => {
            // The hour meters are the counters the app reads; another counter
            // goes without a unit rather than a wrong one.
            let unit = if counter.ends_with("hours") { " h" } else { "" };
            format!(
                "{counter} {}{unit} to {}{unit}",
                number(Some(*before), 1),
                number(Some(*after), 1)
            )
        }
        EventDetail::Fault {
            identifier,
            description,
            level,
            ..
        } => [identifier.as_str(), description.as_str(), level.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" · "),
        EventDetail::Check {
            unit,
            first,
            second,
            ..
        } => check_text(unit, first, second, units),
    }
}

/// To 0.1, as volumes and percents are in every export and report, with
/// no `.0` on a whole number: `42`, `171.4`.
fn tenths(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == 0.0 {
        "0".to_owned()
    } else {
        format!("{r}")
    }
}

/// A refuel's or a drain's sentence: the change in points (and litres,
/// where known), from and to.
fn fuel_text(from_percent: f64, to_percent: f64, litres: Option<f64>, units: UnitSystem) -> String {
    let change = (to_percent - from_percent) * 10.0;
    let change = change.round() / 10.0;
    let litres = litres
        .filter(|l| l.is_finite())
        .map(|l| {
            let v = units.from_metric(Quantity::Volume, l.abs());
            format!(" ({} {})", tenths(v), units.unit(Quantity::Volume))
        })
        .unwrap_or_default();
    let sign = if change < 0.0 { "−" } else { "+" };
    format!(
        "{sign}{} %{litres}, from {} to {} %",
        tenths(change.abs()),
        tenths(from_percent),
        tenths(to_percent)
    )
}

/// A check's sentence: both sides and what the first is short of the
/// second, in the units chosen.
fn check_text(unit: &str, first: &CheckSide, second: &CheckSide, units: UnitSystem) -> String {
    // First less second: "41.2 h vs 48.0 h: −6.8 h", the first
    // figure short of the second by 6.8 h.
    // In the units chosen: a difference converts as the values do
    // (their offset, for °F, cancels out).
    let (conversion, shown_unit) = match units.conversion(unit) {
        Some((c, u)) => (c, u.to_owned()),
        None => (Conversion::SAME, unit.to_string()),
    };
    let diff = conversion.apply_to_change(first.value - second.value);
    let (service_unit, unit) = (unit, shown_unit.as_str());
    let percent = difference_percent(first.value, second.value)
        .map(|p| format!(" ({p:.0} %)"))
        .unwrap_or_default();
    let diff = if unit.is_empty() {
        signed(diff, 1)
    } else {
        format!("{} {unit}", signed(diff, 1))
    };
    format!(
        "{} vs {}: {diff}{percent}",
        side(first, service_unit, units),
        side(second, service_unit, units)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_read_as_days_or_times() {
        let day = SECS_PER_DAY;
        // 2025-06-16 is a Monday.
        let monday = 20_255 * day;
        let week = TimeWindow {
            since: monday,
            until: monday + 7 * day - 1,
        };
        assert_eq!(
            window_words(week),
            "Monday 16 June 2025 to Sunday 22 June 2025"
        );
        let one = TimeWindow {
            since: monday,
            until: monday + day - 1,
        };
        assert_eq!(window_words(one), "Monday 16 June 2025");
        let part = TimeWindow {
            since: monday + 6 * 3600,
            until: monday + day + 10 * 3600,
        };
        assert_eq!(
            window_words(part),
            "Monday 16 June 2025 06:00 to Tuesday 17 June 2025 10:00 UTC"
        );
        assert_eq!(day_of(20_255), "2025-06-16");
        assert_eq!(signed(-0.04, 1), "+0.0", "no minus zero");
    }
}
