//! Reporting gaps (D16): a kind silent for longer than 3 times its median
//! interval (and at least 2 h) while the engine was running.
//!
//! Silence counts only while the engine runs, so an OEM feed that reports
//! only while running has no gap at night, and a tracker's keep-alives while
//! parked are not needed. A silence is the time between two consecutive
//! rows of the window, and also from the window's start to its first row
//! and from its last row to the window's end (or now if sooner): a feed
//! that stops while the machine works shows, and one that never started in
//! the window too. The silence's running time is what is measured (an
//! engine-off pause inside it does not count towards the threshold); the
//! event spans from its first to its last running instant.

use super::timeline::running_within;
use super::types::{Event, EventDetail, EventKind, RowTimes};
use crate::series::gaps::usual_step_secs;

/// The threshold is at least this long.
pub(crate) const GAP_MIN_SECS: i64 = 2 * 3600;
/// ... and more than this many median intervals.
pub(crate) const GAP_MEDIANS: i64 = 3;

/// The median interval between consecutive distinct times (in order), as
/// the plots' line breaks read it; `None` with fewer than 2 intervals.
pub(crate) fn median_interval_secs(times: &[i64]) -> Option<i64> {
    let intervals = times.windows(2).filter(|w| w[1] > w[0]).count();
    if intervals < 2 {
        return None;
    }
    usual_step_secs(times)
}

/// The gaps of one kind whose rows (in time order) fall in
/// `since..=open_end`; `running` the engine's running periods.
pub(crate) fn gaps(
    rows: &RowTimes<'_>,
    running: &[(i64, i64)],
    since: i64,
    open_end: i64,
) -> Vec<Event> {
    let mut out = Vec::new();
    let lo = rows.times.partition_point(|t| *t < since);
    let hi = rows.times.partition_point(|t| *t <= open_end);
    let times = &rows.times[lo..hi.max(lo)];
    let Some(median) = median_interval_secs(times) else {
        return out;
    };
    let threshold = (GAP_MEDIANS * median).max(GAP_MIN_SECS);
    let edges = std::iter::once(since)
        .chain(times.iter().copied())
        .chain(std::iter::once(open_end));
    let mut prev: Option<i64> = None;
    for t in edges {
        if let Some(p) = prev
            && t > p
            && let Some((running_secs, first, last)) = running_within(running, p, t)
            && running_secs > threshold
        {
            out.push(Event {
                kind: EventKind::Gap,
                start: first,
                end: Some(last),
                position: None,
                detail: EventDetail::Gap {
                    series: rows.name.to_owned(),
                    median_interval_secs: median,
                },
            });
        }
        prev = Some(prev.map_or(t, |p| p.max(t)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = 3600;

    #[test]
    fn silence_counts_only_while_running() {
        // Rows every 30 min while running 6:00-18:00 on two days; the night
        // between is silent but off.
        let mut times = Vec::new();
        let running = [(6 * H, 18 * H), (30 * H, 42 * H)];
        for &(a, b) in &running {
            times.extend((a..=b).step_by(1800));
        }
        let rows = RowTimes {
            name: "fuelRemaining",
            times: &times,
        };
        assert!(gaps(&rows, &running, 0, 48 * H).is_empty());
        // Silent 9:00-12:30 on the second day: 3.5 h running > 2 h.
        let cut: Vec<i64> = times
            .iter()
            .copied()
            .filter(|t| !(33 * H < *t && *t < 36 * H + 1800))
            .collect();
        let rows = RowTimes {
            name: "fuelRemaining",
            times: &cut,
        };
        let got = gaps(&rows, &running, 0, 48 * H);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].start, got[0].end), (33 * H, Some(36 * H + 1800)));
        assert_eq!(
            got[0].detail,
            EventDetail::Gap {
                series: "fuelRemaining".to_owned(),
                median_interval_secs: 1800
            }
        );
        // The feed silent after 14:00 while the engine runs to 18:00 (now).
        let early: Vec<i64> = times.iter().copied().filter(|t| *t <= 38 * H).collect();
        let rows = RowTimes {
            name: "x",
            times: &early,
        };
        let got = gaps(&rows, &running, 0, 42 * H);
        assert_eq!(
            (got.len(), got[0].start, got[0].end),
            (1, 38 * H, Some(42 * H))
        );
        // Too few rows for a median: nothing.
        let rows = RowTimes {
            name: "x",
            times: &[6 * H, 7 * H],
        };
        assert!(gaps(&rows, &running, 0, 48 * H).is_empty());
    }

    #[test]
    fn median_skips_duplicates() {
        assert_eq!(median_interval_secs(&[0, 10, 10, 20, 50]), Some(10));
        assert_eq!(median_interval_secs(&[0, 10, 30, 60]), Some(20));
        assert_eq!(median_interval_secs(&[0, 10]), None);
    }
}
