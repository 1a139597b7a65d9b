//! What several rules share: inputs put in time order (the service sends
//! them sorted, but a rule must not misread or panic on a stray row), the
//! engine's running periods (D10), and where the machine was at a time.

use std::borrow::Cow;

use fleetview_api::geo::LatLon;
use fleetview_api::model::EngineConditionRow;

/// `items` in time order: borrowed when they already are (the usual case),
/// else a stably sorted copy.
pub(crate) fn in_time_order<T: Clone>(items: &[T], time: impl Fn(&T) -> i64) -> Cow<'_, [T]> {
    if items.windows(2).all(|w| time(&w[0]) <= time(&w[1])) {
        Cow::Borrowed(items)
    } else {
        let mut v = items.to_vec();
        v.sort_by_key(|x| time(x));
        Cow::Owned(v)
    }
}

/// Where the machine was at `t`: the last position at or before it, else
/// the first after it, else `None`. `positions` in time order; a binary
/// search, so a year of events over a year of positions stays fast.
pub(crate) fn position_at(positions: &[(i64, LatLon)], t: i64) -> Option<LatLon> {
    let k = positions.partition_point(|(pt, _)| *pt <= t);
    match k.checked_sub(1) {
        Some(i) => Some(positions[i].1),
        None => positions.first().map(|(_, p)| *p),
    }
}

/// Whether the engine runs just after `t` by the events at or before it
/// (`events` in time order); `None` with no event at or before `t`.
pub(crate) fn running_after(events: &[EngineConditionRow], t: i64) -> Option<bool> {
    let k = events.partition_point(|e| e.date.0 <= t);
    k.checked_sub(1).map(|i| events[i].is_start())
}

/// The engine's running periods `[start, end)` inside `since..=open_end`,
/// from its D10 events (in time order). Before the first event the engine
/// is taken to be in the state that event leaves (a stop means it ran), as
/// the span statistics do; a period still running ends at `open_end` (the
/// window's end, or now if sooner). Empty without events.
pub(crate) fn running_periods(
    events: &[EngineConditionRow],
    since: i64,
    open_end: i64,
) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    let Some(first) = events.first() else {
        return out;
    };
    let mut on_since = match running_after(events, since) {
        Some(true) => Some(since),
        Some(false) => None,
        None => first.is_stop().then_some(since),
    };
    let k = events.partition_point(|e| e.date.0 <= since);
    for e in events[k..].iter().take_while(|e| e.date.0 <= open_end) {
        let t = e.date.0;
        if e.is_stop() {
            if let Some(s) = on_since.take()
                && t > s
            {
                out.push((s, t));
            }
        } else if on_since.is_none() {
            on_since = Some(t);
        }
    }
    if let Some(s) = on_since
        && open_end > s
    {
        out.push((s, open_end));
    }
    out
}

/// How long `a..b` overlaps the periods (sorted, disjoint), and the first
/// and last running instants inside it.
pub(crate) fn running_within(periods: &[(i64, i64)], a: i64, b: i64) -> Option<(i64, i64, i64)> {
    let k = periods.partition_point(|(_, end)| *end <= a);
    let mut total = 0;
    let mut span: Option<(i64, i64)> = None;
    for &(s, e) in periods[k..].iter().take_while(|(s, _)| *s < b) {
        let (s, e) = (s.max(a), e.min(b));
        if e > s {
            total += e - s;
            span = Some((span.map_or(s, |(f, _)| f), e));
        }
    }
    span.map(|(f, l)| (total, f, l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_periods_follow_d10_and_end_at_the_open_end() {
        // Started 100 (false), stopped 500 (true), started 900.
        let e = [
            EngineConditionRow::started_at(100),
            EngineConditionRow::stopped_at(500),
            EngineConditionRow::started_at(900),
        ];
        assert_eq!(running_periods(&e, 0, 1000), vec![(100, 500), (900, 1000)]);
        // From inside the first period: it runs from `since`.
        assert_eq!(
            running_periods(&e, 200, 1000),
            vec![(200, 500), (900, 1000)]
        );
        // The first event a stop: it ran before it.
        assert_eq!(
            running_periods(&[EngineConditionRow::stopped_at(50)], 0, 100),
            vec![(0, 50)]
        );
        assert!(running_periods(&[], 0, 100).is_empty());
        // A stop, then another stop: one period.
        let twice = [
            EngineConditionRow::started_at(10),
            EngineConditionRow::stopped_at(20),
            EngineConditionRow::stopped_at(30),
        ];
        assert_eq!(running_periods(&twice, 0, 100), vec![(10, 20)]);
    }

    #[test]
    fn overlap_with_running_time() {
        let p = [(0, 10), (20, 30), (40, 50)];
        assert_eq!(running_within(&p, 5, 45), Some((5 + 10 + 5, 5, 45)));
        assert_eq!(running_within(&p, 10, 20), None);
        assert_eq!(running_within(&p, 12, 28), Some((8, 20, 28)));
    }

    #[test]
    fn position_is_the_last_at_or_before_else_the_first_after() {
        let at = |lat| LatLon { lat, lon: 0.0 };
        let p = [(10, at(1.0)), (20, at(2.0)), (20, at(3.0))];
        assert_eq!(position_at(&p, 5), Some(at(1.0)));
        assert_eq!(position_at(&p, 10), Some(at(1.0)));
        assert_eq!(position_at(&p, 25), Some(at(3.0)));
        assert_eq!(position_at(&[], 25), None);
    }
}
