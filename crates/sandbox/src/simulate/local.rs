//! Local time at a site: its time zone (daylight saving included) and the
//! working hours the app assumes by default (D16: Monday to Friday
//! 06:00-20:00 local), so that ordinary shifts fall inside them and only
//! what the simulator plants falls outside.

use std::sync::LazyLock;

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;

use super::catalogue::sites::{SITES, Site};
use fleetview_api::time::SECS_PER_DAY;

/// Working hours, local: from this hour on a weekday...
pub(crate) const WORK_START_H: i8 = 6;
/// ... to this one.
pub(crate) const WORK_END_H: i8 = 20;

/// The sites' zones, built once from their POSIX rules (never fails: the
/// rules are constants; UTC stands in if one were malformed).
static ZONES: LazyLock<Vec<TimeZone>> = LazyLock::new(|| {
    SITES
        .iter()
        .map(|s| TimeZone::posix(s.posix_tz).unwrap_or(TimeZone::UTC))
        .collect()
});

pub(crate) fn zone(site: &Site) -> &'static TimeZone {
    let i = SITES
        .iter()
        .position(|s| std::ptr::eq(s, site))
        .unwrap_or_default();
    &ZONES[i]
}

fn timestamp(t: i64) -> Timestamp {
    Timestamp::from_second(t).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// Offset of local time from UTC at `t`, seconds.
pub(crate) fn offset_secs(site: &Site, t: i64) -> i64 {
    i64::from(zone(site).to_offset(timestamp(t)).seconds())
}

fn local(site: &Site, t: i64) -> DateTime {
    zone(site).to_datetime(timestamp(t))
}

/// Whether `t` is inside the working hours at the site.
pub(crate) fn is_working_time(site: &Site, t: i64) -> bool {
    let dt = local(site, t);
    dt.weekday().to_monday_zero_offset() < 5 && (WORK_START_H..WORK_END_H).contains(&dt.hour())
}

/// The parts of `[start, stop]` outside the working hours, each a maximal
/// stretch (of positive length), in time order.
pub(crate) fn out_of_hours(site: &Site, start: i64, stop: i64) -> Vec<(i64, i64)> {
    if stop <= start {
        return Vec::new();
    }
    let tz = zone(site);
    let (first, last) = (local(site, start).date(), local(site, stop).date());
    // Working time starts or ends only at the hours' bounds on some day.
    let mut cuts = vec![start];
    let mut date = first.yesterday().unwrap_or(first);
    while date <= last {
        for h in [WORK_START_H, WORK_END_H] {
            if let Ok(ts) = tz.to_ambiguous_timestamp(date.at(h, 0, 0, 0)).compatible() {
                let t = ts.as_second();
                if start < t && t < stop {
                    cuts.push(t);
                }
            }
        }
        date = match date.tomorrow() {
            Ok(d) => d,
            Err(_) => break,
        };
    }
    cuts.push(stop);
    cuts.sort_unstable();
    cuts.dedup();
    let mut out: Vec<(i64, i64)> = Vec::new();
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        if is_working_time(site, a + (b - a) / 2) {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.1 == a => last.1 = b,
            _ => out.push((a, b)),
        }
    }
    out
}

/// Where a shift may lie inside the UTC day `day` so that it falls within
/// the site's working hours, as seconds after the day's 00:00Z: from
/// `WORK_START_H` to `WORK_END_H` local, a few minutes in from each, and
/// inside the UTC day (a day's plan never crosses midnight UTC).
pub(crate) fn working_span_secs(site: &Site, day: i64) -> (i64, i64) {
    const MARGIN_SECS: i64 = 300;
    let offset = offset_secs(site, day * SECS_PER_DAY + SECS_PER_DAY / 2);
    let earliest = i64::from(WORK_START_H) * 3600 - offset + MARGIN_SECS;
    let latest = i64::from(WORK_END_H) * 3600 - offset - MARGIN_SECS;
    (earliest.max(600), latest.min(SECS_PER_DAY - 600))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::time::days_from_civil;

    fn site(city: &str) -> &'static Site {
        SITES.iter().find(|s| s.city == city).expect("a site")
    }

    fn at(y: i64, m: u32, d: u32, h: i64) -> i64 {
        days_from_civil(y, m, d) * SECS_PER_DAY + h * 3600
    }

    #[test]
    fn zones_follow_daylight_saving() {
        let lyon = site("Lyon");
        assert_eq!(offset_secs(lyon, at(2025, 1, 15, 12)), 3600);
        assert_eq!(offset_secs(lyon, at(2025, 7, 15, 12)), 7200);
        let chicago = site("Chicago");
        assert_eq!(offset_secs(chicago, at(2025, 1, 15, 12)), -6 * 3600);
        assert_eq!(offset_secs(chicago, at(2025, 7, 15, 12)), -5 * 3600);
        assert_eq!(offset_secs(site("Manchester"), at(2025, 1, 15, 12)), 0);
    }

    #[test]
    fn out_of_hours_is_what_runs_outside_weekday_working_hours() {
        let lyon = site("Lyon");
        // Wednesday 2025-06-18: 06:00-20:00 CEST is 04:00-18:00Z.
        assert!(out_of_hours(lyon, at(2025, 6, 18, 5), at(2025, 6, 18, 17)).is_empty());
        assert_eq!(
            out_of_hours(lyon, at(2025, 6, 18, 2), at(2025, 6, 18, 19)),
            vec![
                (at(2025, 6, 18, 2), at(2025, 6, 18, 4)),
                (at(2025, 6, 18, 18), at(2025, 6, 18, 19))
            ]
        );
        // Saturday: all of it, as one stretch.
        let sat = (at(2025, 6, 21, 3), at(2025, 6, 21, 23));
        assert_eq!(out_of_hours(lyon, sat.0, sat.1), vec![sat]);
        // Friday evening into Saturday morning: one stretch.
        let chicago = site("Chicago");
        let fri = (at(2025, 6, 20, 23), at(2025, 6, 21, 16));
        assert_eq!(
            out_of_hours(chicago, fri.0, fri.1),
            vec![(at(2025, 6, 21, 1), fri.1)]
        );
    }

    #[test]
    fn the_working_span_is_inside_the_utc_day_and_working_hours() {
        for s in SITES {
            for day in days_from_civil(2025, 1, 6)..days_from_civil(2025, 12, 27) {
                let (a, b) = working_span_secs(s, day);
                assert!(b - a >= 11 * 3600, "{} {day}: {a}..{b}", s.city);
                let d0 = day * SECS_PER_DAY;
                if crate::simulate::calendar::weekday(day) < 5 {
                    assert!(out_of_hours(s, d0 + a, d0 + b).is_empty(), "{}", s.city);
                }
            }
        }
    }
}
