//! Statistics over a span of time the user selected on the plots: per
//! channel min, max, mean, first, last and the change (last − first: what a
//! cumulative counter consumed in the span), and the engine-on time.
//! Min, max and mean come from the channel's min/max index (a few blocks
//! read, whatever the span), first and last from a search: cheap enough
//! for the UI thread, once per span.

use super::events::timeline::running_periods;
use crate::series::PlotSeries;
use fleetview_api::model::EngineConditionRow;

/// One channel's statistics over a span; `None` where it has no sample.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ChannelStats {
    pub samples: usize,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub mean: Option<f64>,
    pub first: Option<f64>,
    pub last: Option<f64>,
}

impl ChannelStats {
    /// Last − first.
    pub fn change(&self) -> Option<f64> {
        Some(self.last? - self.first?)
    }
}

/// Statistics of channel `ch` of `series` over `t0..=t1` (seconds).
pub fn channel_stats(series: &PlotSeries, ch: usize, t0: i64, t1: i64) -> ChannelStats {
    let times = &series.series.times;
    let Some(channel) = series.series.channels.get(ch) else {
        return ChannelStats::default();
    };
    let values = &channel.values;
    let lo = times.partition_point(|&t| t < t0);
    let hi = times.partition_point(|&t| t <= t1).min(values.len());
    if lo >= hi {
        return ChannelStats::default();
    }
    let finite = |i: &usize| values[*i].is_finite();
    let first = (lo..hi).find(finite).map(|i| values[i]);
    let last = (lo..hi).rev().find(finite).map(|i| values[i]);
    let (min, max, mean, samples) = match series.indexes.get(ch).and_then(Option::as_ref) {
        Some(index) => {
            let e = index.extremes(values, lo, hi);
            (
                e.min.map(|i| values[i]),
                e.max.map(|i| values[i]),
                e.mean(),
                e.finite,
            )
        }
        None => {
            let v: Vec<f64> = values[lo..hi]
                .iter()
                .copied()
                .filter(|v| v.is_finite())
                .collect();
            let n = v.len();
            (
                v.iter().copied().reduce(f64::min),
                v.iter().copied().reduce(f64::max),
                (n > 0).then(|| v.iter().sum::<f64>() / n as f64),
                n,
            )
        }
    };
    ChannelStats {
        samples,
        min: min.filter(|v| v.is_finite()),
        max: max.filter(|v| v.is_finite()),
        mean,
        first,
        last,
    }
}

/// Seconds the engine ran in `t0..=t1` by its D10 events (sorted). Before
/// the first event the engine is taken to be in the state that event leaves
/// (a stop means it ran). `None` without events.
pub fn engine_on_secs(events: &[EngineConditionRow], t0: i64, t1: i64) -> Option<i64> {
    if events.is_empty() || t1 < t0 {
        return None;
    }
    // One reading of D10 for the span pane and the events alike.
    Some(
        running_periods(events, t0, t1)
            .iter()
            .map(|(from, to)| to - from)
            .sum(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::series::{Channel, ChannelKind, Series};

    fn series(times: &[i64], values: &[f64]) -> PlotSeries {
        PlotSeries::new(Series {
            times: times.to_vec(),
            channels: vec![Channel {
                name: "hour".to_owned(),
                unit: None,
                kind: ChannelKind::Numeric,
                values: values.to_vec(),
                labels: Vec::new(),
                estimated: None,
            }],
            ..Series::default()
        })
    }

    #[test]
    fn a_span_gives_min_max_mean_first_last_and_change() {
        let s = series(&[0, 10, 20, 30, 40], &[5.0, 1.0, f64::NAN, 9.0, 7.0]);
        let st = channel_stats(&s, 0, 5, 40);
        assert_eq!(st.samples, 3);
        assert_eq!((st.min, st.max), (Some(1.0), Some(9.0)));
        assert_eq!(st.mean, Some(17.0 / 3.0));
        assert_eq!((st.first, st.last), (Some(1.0), Some(7.0)));
        assert_eq!(st.change(), Some(6.0));
        // Inclusive ends; a span with no sample gives nothing (not 0).
        assert_eq!(channel_stats(&s, 0, 0, 0).first, Some(5.0));
        let none = channel_stats(&s, 0, 41, 100);
        assert_eq!(none, ChannelStats::default());
        assert_eq!(none.change(), None);
        assert_eq!(channel_stats(&s, 7, 0, 100), ChannelStats::default());
    }

    #[test]
    fn a_span_of_a_long_series_agrees_with_a_scan() {
        let n = 100_000;
        let times: Vec<i64> = (0..n).map(|i| i * 7).collect();
        let values: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1000) as f64).collect();
        let s = series(&times, &values);
        for (t0, t1) in [(0, 700_000), (1234, 456_789), (99_999, 100_050)] {
            let st = channel_stats(&s, 0, t0, t1);
            let inside: Vec<f64> = times
                .iter()
                .zip(&values)
                .filter(|(t, _)| (t0..=t1).contains(*t))
                .map(|(_, v)| *v)
                .collect();
            assert_eq!(st.samples, inside.len());
            assert_eq!(st.min, inside.iter().copied().reduce(f64::min));
            assert_eq!(st.max, inside.iter().copied().reduce(f64::max));
            let mean = inside.iter().sum::<f64>() / inside.len() as f64;
            assert!((st.mean.unwrap() - mean).abs() < 1e-9);
            assert_eq!(st.first, inside.first().copied());
            assert_eq!(st.last, inside.last().copied());
        }
    }

    #[test]
    fn engine_on_time_follows_d10() {
        // Started at 100, stopped at 400, started 1000.
        let events = [
            EngineConditionRow::started_at(100),
            EngineConditionRow::stopped_at(400),
            EngineConditionRow::started_at(1000),
        ];
        assert_eq!(engine_on_secs(&events, 0, 2000), Some(300 + 1000));
        assert_eq!(engine_on_secs(&events, 200, 300), Some(100));
        assert_eq!(engine_on_secs(&events, 500, 900), Some(0));
        // Before the first event, a first stop means it was running.
        assert_eq!(
            engine_on_secs(&[EngineConditionRow::stopped_at(50)], 0, 100),
            Some(50)
        );
        assert_eq!(engine_on_secs(&[], 0, 100), None);
    }
}
