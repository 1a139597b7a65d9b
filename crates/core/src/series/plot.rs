//! A series ready to plot: sorted, with a min/max index per channel.

use super::channel::{Channel, ChannelKind, Series};
use super::gaps::{GAP_FACTOR, step_gaps, usual_step_secs};
use super::minmax::MinMaxIndex;
use super::names::implied_unit;

/// A series ready to plot: in time order, with a min/max index over each
/// numeric and boolean channel and its long steps (built once, off the UI
/// thread).
#[derive(Debug, Default)]
pub struct PlotSeries {
    pub series: Series,
    /// One per channel of `series`, `None` for labels and times.
    pub indexes: Vec<Option<MinMaxIndex>>,
    /// Positions after a step over [`GAP_FACTOR`] times the usual one: a
    /// line breaks there (see [`super::gaps`]).
    pub long_steps: Vec<usize>,
}

impl PlotSeries {
    pub fn new(mut series: Series) -> Self {
        series.sort_by_time();
        let indexes = series
            .channels
            .iter()
            .map(|c| match c.kind {
                ChannelKind::Numeric | ChannelKind::Boolean => MinMaxIndex::build(&c.values).ok(),
                ChannelKind::Label | ChannelKind::Time => None,
            })
            .collect();
        let long_steps = usual_step_secs(&series.times).map_or_else(Vec::new, |usual| {
            step_gaps(&series.times, usual.saturating_mul(GAP_FACTOR))
        });
        Self {
            series,
            indexes,
            long_steps,
        }
    }

    /// The unit a channel is shown with: its own; else the one its name
    /// implies (`hour`, `hours`, `usageHours` are hours); else, for the one
    /// numeric channel without a unit, the kind's (`percent` of
    /// `fuelRemaining` is %).
    pub fn shown_unit<'a>(&'a self, channel: usize, kind_unit: &'a str) -> &'a str {
        let unitless = |c: &Channel| c.unit.as_deref().is_none_or(str::is_empty);
        let Some(c) = self.series.channels.get(channel) else {
            return "";
        };
        if !unitless(c) {
            return c.unit.as_deref().unwrap_or_default();
        }
        if c.kind == ChannelKind::Numeric
            && let Some(unit) = implied_unit(&c.name)
        {
            return unit;
        }
        let lone = c.kind == ChannelKind::Numeric
            && self
                .series
                .channels
                .iter()
                .filter(|o| o.kind == ChannelKind::Numeric && unitless(o))
                .count()
                == 1;
        if lone { kind_unit } else { "" }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::series::channel::tests::series;
    use crate::series::channel::{ESTIMATED_NO, ESTIMATED_YES};

    #[test]
    fn plot_series_are_sorted_and_indexed() {
        let mut s = series(&[3, 1, 2, 1], "x", &[30.0, 10.0, 20.0, 11.0]);
        s.channels[0].estimated = Some(vec![ESTIMATED_YES, ESTIMATED_NO, 2, ESTIMATED_YES]);
        let p = PlotSeries::new(s);
        assert_eq!(p.series.times, vec![1, 1, 2, 3]);
        assert_eq!(p.series.channels[0].values, vec![10.0, 11.0, 20.0, 30.0]);
        assert_eq!(p.series.channels[0].estimated_at(1), Some(true));
        let index = p.indexes[0].as_ref().expect("numeric channels are indexed");
        let e = index.extremes(&p.series.channels[0].values, 0, 4);
        assert_eq!((e.min, e.max), (Some(0), Some(3)));
        assert!(p.long_steps.is_empty());
    }

    #[test]
    fn plot_series_know_their_long_steps() {
        let times = [0, 900, 1800, 2700, 50_000, 50_900];
        let p = PlotSeries::new(series(&times, "x", &[1.0; 6]));
        assert_eq!(p.long_steps, vec![4]);
    }

    #[test]
    fn a_lone_unitless_channel_takes_the_kinds_unit() {
        let mut s = series(&[1, 2], "percent", &[1.0, 2.0]);
        let p = PlotSeries::new(s.clone());
        assert_eq!(p.shown_unit(0, "%"), "%");
        assert_eq!(p.shown_unit(9, "%"), "");
        s.channels[0].unit = Some("L".into());
        let mut other = Channel::new("other".into(), ChannelKind::Numeric);
        other.values = vec![3.0, 4.0];
        s.channels.push(other.clone());
        s.channels.push(Channel {
            name: "third".into(),
            ..other
        });
        let p = PlotSeries::new(s);
        assert_eq!(p.shown_unit(0, "%"), "L", "its own unit first");
        assert_eq!(p.shown_unit(1, "%"), "", "two without a unit: neither");
    }

    #[test]
    fn hours_fields_are_in_hours_whether_named_hour_or_hours() {
        // cumulativeOperatingHours rows name their value `hour`, beside
        // `usageHours`; idle hours name theirs `hours`; no unit is given.
        let mut s = series(&[1, 2], "hour", &[1.0, 2.0]);
        let mut usage = Channel::new("usageHours".into(), ChannelKind::Numeric);
        usage.values = vec![0.5, 1.0];
        s.channels.push(usage);
        let p = PlotSeries::new(s);
        assert_eq!((p.shown_unit(0, "h"), p.shown_unit(1, "h")), ("h", "h"));
        let idle = PlotSeries::new(series(&[1, 2], "hours", &[1.0, 2.0]));
        assert_eq!(idle.shown_unit(0, ""), "h");
    }
}
