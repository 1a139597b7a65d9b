//! Where a line must break: between two samples further apart than a few
//! times the series' usual step, or with the engine off between them
//! (D10). A line drawn across such a gap invents data: fuel seems to
//! refill overnight with the engine off.
//!
//! Gaps are kept as sorted sample positions `i`, each meaning "no line from
//! sample `i - 1` to sample `i`".

use fleetview_api::model::{EngineConditionRow, EngineEvent};

/// A step longer than this many times the usual step is a gap.
pub(crate) const GAP_FACTOR: i64 = 5;

/// The usual step between samples: the median of the steps between
/// distinct times. `None` with fewer than two distinct times.
pub(crate) fn usual_step_secs(times: &[i64]) -> Option<i64> {
    let mut steps: Vec<i64> = times
        .windows(2)
        .map(|w| w[1] - w[0])
        .filter(|d| *d > 0)
        .collect();
    if steps.is_empty() {
        return None;
    }
    let mid = steps.len() / 2;
    Some(*steps.select_nth_unstable(mid).1)
}

/// Positions after a step longer than `max_step_secs` (`times` sorted).
pub(crate) fn step_gaps(times: &[i64], max_step_secs: i64) -> Vec<usize> {
    times
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[1] - w[0] > max_step_secs)
        .map(|(i, _)| i + 1)
        .collect()
}

/// The periods `(from, to)` with the engine off, from D10 events sorted by
/// date. Off before a first start (from `since`) and after a last stop (to
/// `until`).
pub fn engine_off_periods(
    events: &[EngineConditionRow],
    since: i64,
    until: i64,
) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    // When the engine went off, while it is off.
    let mut off_since = match events.first() {
        Some(first) if first.is_start() => Some(since),
        _ => None,
    };
    for e in events {
        let t = e.date.0;
        match (e.event(), off_since) {
            // Off from here, unless already off.
            (EngineEvent::Stopped, None) => off_since = Some(t),
            // An off period ends.
            (EngineEvent::Started, Some(from)) => {
                if t > from {
                    out.push((from, t));
                }
                off_since = None;
            }
            _ => {}
        }
    }
    if let Some(from) = off_since.filter(|f| *f < until) {
        out.push((from, until));
    }
    out
}

/// Positions whose step from the sample before had the engine off (one of
/// the sorted, disjoint `off` periods) for longer than `min_off_secs`.
/// Only the steps that meet an off period are looked at.
pub(crate) fn engine_off_gaps(times: &[i64], off: &[(i64, i64)], min_off_secs: i64) -> Vec<usize> {
    let mut out = Vec::new();
    for &(from, to) in off {
        // The first step ending after `from`...
        let mut i = times.partition_point(|t| *t <= from).max(1);
        // ... up to the last one starting before `to`.
        while i < times.len() && times[i - 1] < to {
            let overlap = times[i].min(to) - times[i - 1].max(from);
            if overlap > min_off_secs {
                out.push(i);
            }
            i += 1;
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Two sorted lists of gaps as one, sorted and distinct.
pub(crate) fn merge_gaps(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let next = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x <= y => {
                i += 1;
                if x == y {
                    j += 1;
                }
                *x
            }
            (Some(x), None) => {
                i += 1;
                *x
            }
            (_, Some(y)) => {
                j += 1;
                *y
            }
            (None, None) => break,
        };
        out.push(next);
    }
    out
}

/// Whether a line from sample `a` to sample `b` (`a < b`) crosses a gap.
pub(crate) fn crosses_gap(gaps: &[usize], a: usize, b: usize) -> bool {
    let k = gaps.partition_point(|g| *g <= a);
    gaps.get(k).is_some_and(|g| *g <= b)
}

/// Every gap of a series: its long steps and, with engine events, the
/// steps spent with the engine off for longer than the usual step.
pub fn gaps(times: &[i64], long_steps: &[usize], off: &[(i64, i64)]) -> Vec<usize> {
    match usual_step_secs(times) {
        Some(usual) if !off.is_empty() => {
            merge_gaps(long_steps, &engine_off_gaps(times, off, usual))
        }
        _ => long_steps.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usual_step_is_the_median_step() {
        assert_eq!(usual_step_secs(&[]), None);
        assert_eq!(usual_step_secs(&[5]), None);
        assert_eq!(usual_step_secs(&[5, 5, 5]), None);
        // Steps 10, 10, 10, 1000, 10 (and a duplicate): 10.
        assert_eq!(
            usual_step_secs(&[0, 10, 20, 30, 1030, 1030, 1040]),
            Some(10)
        );
        assert_eq!(usual_step_secs(&[0, 900, 1800]), Some(900));
    }

    #[test]
    fn long_steps_are_gaps() {
        let times = [0, 900, 1800, 2700, 50_000, 50_900, 51_800, 140_000];
        let usual = usual_step_secs(&times).expect("a step");
        assert_eq!(usual, 900);
        assert_eq!(step_gaps(&times, usual * GAP_FACTOR), vec![4, 7]);
        assert!(step_gaps(&times, i64::MAX).is_empty());
        assert!(step_gaps(&[], 1).is_empty());
        assert!(step_gaps(&[3], 1).is_empty());
        // Exactly at the limit is no gap.
        assert!(step_gaps(&[0, 10, 20], 10).is_empty());
    }

    #[test]
    fn engine_off_periods_follow_d10() {
        // Started at 100, stopped at 200, started at 900,
        // stopped at 1500.
        let events = [
            EngineConditionRow::started_at(100),
            EngineConditionRow::stopped_at(200),
            EngineConditionRow::started_at(900),
            EngineConditionRow::stopped_at(1500),
        ];
        assert_eq!(
            engine_off_periods(&events, 0, 2000),
            vec![(0, 100), (200, 900), (1500, 2000)]
        );
        // Starting off with a stop: not off before it.
        assert_eq!(engine_off_periods(&events[1..3], 0, 2000), vec![(200, 900)]);
        // A repeated stop keeps the first; a start at `since` is no period.
        let odd = [
            EngineConditionRow::started_at(0),
            EngineConditionRow::stopped_at(10),
            EngineConditionRow::stopped_at(20),
            EngineConditionRow::started_at(30),
        ];
        assert_eq!(engine_off_periods(&odd, 0, 40), vec![(10, 30)]);
        assert!(engine_off_periods(&[], 0, 10).is_empty());
    }

    #[test]
    fn steps_with_the_engine_off_are_gaps() {
        // Samples every 900 s while running; the engine off 3600..9000
        // with samples at the stop and at the start, and off 20_000..20_300.
        let times = [0, 900, 1800, 2700, 3600, 9000, 9900, 19_800, 20_700, 21_600];
        let off = [(3600, 9000), (20_000, 20_300)];
        // 3600 -> 9000: 5400 s off. 19_800 -> 20_700: only 300 s off.
        assert_eq!(engine_off_gaps(&times, &off, 900), vec![5]);
        // An off period inside one step, and one over several samples
        // (keep-alives while parked): every step in it.
        let parked = [0, 100, 4000, 8000, 12_000, 12_100];
        assert_eq!(
            engine_off_gaps(&parked, &[(100, 12_000)], 900),
            vec![2, 3, 4]
        );
        assert!(engine_off_gaps(&[], &off, 900).is_empty());
        assert!(engine_off_gaps(&times, &[], 900).is_empty());
        // Before the first sample, after the last: nothing to break.
        assert!(engine_off_gaps(&times, &[(-500, -100), (30_000, 40_000)], 1).is_empty());
    }

    #[test]
    fn gaps_merge_and_are_found_between_samples() {
        assert_eq!(merge_gaps(&[1, 4, 9], &[2, 4, 10]), vec![1, 2, 4, 9, 10]);
        assert_eq!(merge_gaps(&[], &[3]), vec![3]);
        assert!(merge_gaps(&[], &[]).is_empty());
        let g = [4, 7];
        assert!(crosses_gap(&g, 3, 4));
        assert!(crosses_gap(&g, 0, 9));
        assert!(
            !crosses_gap(&g, 4, 6),
            "a line from the gap's own sample on"
        );
        assert!(!crosses_gap(&g, 0, 3));
        assert!(!crosses_gap(&g, 7, 100));
        assert!(!crosses_gap(&[], 0, 100));
    }

    #[test]
    fn a_series_gaps_are_its_long_steps_and_its_engine_off_steps() {
        // A 2200 s step (not long) spent with the engine off, then a night.
        let times = [0, 900, 1800, 4000, 4900, 5800, 60_000];
        let long = step_gaps(&times, 900 * GAP_FACTOR);
        assert_eq!(long, vec![6]);
        assert_eq!(gaps(&times, &long, &[]), vec![6]);
        assert_eq!(gaps(&times, &long, &[(1800, 4000)]), vec![3, 6]);
        // Off for no longer than the usual step: no gap.
        assert_eq!(gaps(&times, &long, &[(4000, 4900)]), vec![6]);
    }
}
