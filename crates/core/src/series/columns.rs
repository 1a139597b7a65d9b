//! The M4 column cache: one channel's line as a plot draws it, aggregated
//! through its min/max index for the view in sight and kept between frames.
//!
//! Its columns sit on a [`Lattice`] anchored at time 0, so while the view
//! pans at one zoom the columns still in view are kept and only those coming
//! into view are computed; a zoom, another pixel width or other data start
//! over. What the columns draw (lines, bands, dots) is made in `drawn.rs`.
//! Points are plain `[time, value]` pairs, for any plotting library.

use std::ops::Range;

use super::drawn::{Drawn, draw};
use super::minmax::{Lattice, M4Column, m4_columns};
use super::plot::PlotSeries;

/// What one line was made for: its data (any number that changes with it,
/// such as the address of its `Arc`), its gaps (likewise), the time span in
/// view and the pixel columns across it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineKey {
    pub data: usize,
    pub gaps: usize,
    pub t0: f64,
    pub t1: f64,
    pub columns: usize,
}

/// One channel's aggregated line, ready to draw.
#[derive(Debug, Default)]
pub struct CachedLine {
    key: Option<LineKey>,
    /// The data and lattice the columns belong to.
    source: Option<(usize, Lattice)>,
    /// Lattice column of `columns[0]`.
    first: i64,
    columns: Vec<M4Column>,
    drawn: Drawn,
    /// Lattice columns the last update aggregated (the others were kept).
    computed: usize,
}

impl CachedLine {
    /// Brings the line of channel `ch` up to date for a view of `t0..t1`
    /// over `columns` pixel columns; `gaps` are where it breaks (sorted
    /// sample positions, see [`super::gaps`]).
    pub fn update(&mut self, series: &PlotSeries, ch: usize, key: LineKey, gaps: &[usize]) {
        if self.key == Some(key) {
            self.computed = 0;
            return;
        }
        self.key = Some(key);
        self.computed = 0;
        self.drawn = Drawn::default();
        let c = &series.series.channels[ch];
        let times = &series.series.times;
        let (Some(index), Some(lattice)) = (
            series.indexes.get(ch).and_then(Option::as_ref),
            Lattice::for_view(key.t0, key.t1, key.columns),
        ) else {
            return;
        };
        let ks = lattice.columns(key.t0, key.t1);
        let (k0, k1) = (*ks.start(), *ks.end());
        if self.source != Some((key.data, lattice)) {
            self.source = Some((key.data, lattice));
            self.columns.clear();
        }
        // Keep the overlap with what is held, compute the rest.
        let held = self.held();
        let (keep_lo, keep_hi) = (k0.max(held.start), (k1 + 1).min(held.end));
        let mut cols = if keep_lo < keep_hi {
            let kept = self.columns
                [(keep_lo - self.first) as usize..(keep_hi - self.first) as usize]
                .to_vec();
            let mut cols = if k0 < keep_lo {
                m4_columns(times, &c.values, index, lattice, k0..=keep_lo - 1)
            } else {
                Vec::new()
            };
            self.computed = cols.len();
            cols.extend(kept);
            if keep_hi <= k1 {
                let after = m4_columns(times, &c.values, index, lattice, keep_hi..=k1);
                self.computed += after.len();
                cols.extend(after);
            }
            cols
        } else {
            let cols = m4_columns(times, &c.values, index, lattice, ks);
            self.computed = cols.len();
            cols
        };
        std::mem::swap(&mut self.columns, &mut cols);
        self.first = k0;

        let edges = (k0 as f64 * lattice.width, (k1 + 1) as f64 * lattice.width);
        self.drawn = draw(series, ch, &self.columns, k0, lattice.width, edges, gaps);
    }

    /// Runs of two or more points, each drawn as a line.
    pub fn runs(&self) -> &[Vec<[f64; 2]>] {
        &self.drawn.runs
    }

    /// Runs of `[time, min, max]`: the range of crowded columns, drawn as
    /// a light band under the line.
    pub fn bands(&self) -> &[Vec<[f64; 3]>] {
        &self.drawn.bands
    }

    /// Points alone between gaps, each drawn as a dot.
    pub fn dots(&self) -> &[[f64; 2]] {
        &self.drawn.dots
    }

    /// The points whose value is flagged as estimated.
    pub fn estimated(&self) -> &[[f64; 2]] {
        &self.drawn.estimated
    }

    /// The lattice columns held: those of the last view.
    pub(crate) fn held(&self) -> Range<i64> {
        self.first..self.first + self.columns.len() as i64
    }

    /// How many of them the last update aggregated rather than kept.
    pub fn computed(&self) -> usize {
        self.computed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::series::channel::{Channel, ChannelKind, ESTIMATED_NO, ESTIMATED_YES, Series};
    use crate::series::drawn::PLOT_VALUE_LIMIT;

    #[test]
    fn lines_break_at_gaps_keep_lone_samples_and_never_hold_a_nan() {
        let mut c = Channel {
            name: "v".into(),
            unit: None,
            kind: ChannelKind::Numeric,
            values: vec![
                1.0,
                2.0,
                f64::NAN,
                3.0,
                f64::NAN,
                1e308,
                -1e308,
                f64::INFINITY,
            ],
            labels: Vec::new(),
            estimated: None,
        };
        c.values.truncate(8);
        let series = PlotSeries::new(Series {
            times: (0..8).collect(),
            channels: vec![c],
            ..Default::default()
        });
        let mut line = CachedLine::default();
        line.update(
            &series,
            0,
            LineKey {
                data: 1,
                gaps: 0,
                t0: 0.0,
                t1: 8.0,
                columns: 1000,
            },
            &[],
        );
        assert_eq!(line.drawn.runs.len(), 2, "{:?}", line.drawn.runs);
        assert_eq!(line.drawn.runs[0].len(), 2);
        assert_eq!(line.drawn.dots.len(), 1, "the lone 3.0");
        assert_eq!(line.drawn.dots[0][1], 3.0);
        let last = &line.drawn.runs[1];
        assert_eq!(
            (last[0][1], last[1][1]),
            (PLOT_VALUE_LIMIT, -PLOT_VALUE_LIMIT)
        );
        assert!(
            line.drawn
                .runs
                .iter()
                .flatten()
                .chain(&line.drawn.dots)
                .all(|p| p[0].is_finite() && p[1].is_finite())
        );
    }

    /// One numeric channel, ready to plot.
    fn plot(times: Vec<i64>, values: Vec<f64>) -> PlotSeries {
        PlotSeries::new(Series {
            times,
            channels: vec![Channel {
                name: "v".into(),
                unit: None,
                kind: ChannelKind::Numeric,
                values,
                labels: Vec::new(),
                estimated: None,
            }],
            ..Default::default()
        })
    }

    fn view(t0: f64, t1: f64, columns: usize) -> LineKey {
        LineKey {
            data: 1,
            gaps: 0,
            t0,
            t1,
            columns,
        }
    }

    #[test]
    fn no_line_crosses_a_gap() {
        // Every 900 s for two working days, a night between them.
        let mut times: Vec<i64> = (0..20).map(|i| i * 900).collect();
        times.extend((0..20).map(|i| 86_400 + i * 900));
        let values: Vec<f64> = (0..40).map(|i| 100.0 - f64::from(i)).collect();
        let series = plot(times.clone(), values);
        assert_eq!(series.long_steps, vec![20]);
        // Zoomed so that every sample has pixels of its own.
        let key = view(0.0, 110_000.0, 4000);
        let mut line = CachedLine::default();
        line.update(&series, 0, key, &series.long_steps);
        assert_eq!(line.runs().len(), 2, "one line a day");
        for run in line.runs() {
            assert!(run.windows(2).all(|w| w[1][0] - w[0][0] <= 900.0));
        }
        // Without the gaps, one line across the night.
        let mut joined = CachedLine::default();
        joined.update(&series, 0, key, &[]);
        assert_eq!(joined.runs().len(), 1);
        // An engine-off gap inside the first day splits it too.
        let mut off = CachedLine::default();
        off.update(&series, 0, LineKey { gaps: 2, ..key }, &[10, 20]);
        assert_eq!(off.runs().len(), 3);
    }

    #[test]
    fn gaps_too_short_to_see_do_not_break_the_line() {
        // Every 60 s, with a 600 s step: a gap (more than 5 steps).
        let mut times: Vec<i64> = (0..100).map(|i| i * 60).collect();
        times.extend((0..100).map(|i| 6540 + i * 60));
        let series = plot(times, vec![1.0; 200]);
        assert_eq!(series.long_steps, vec![100]);
        // Zoomed in: the 600 s gap spans many columns, the line breaks.
        let mut line = CachedLine::default();
        line.update(&series, 0, view(0.0, 12_500.0, 2000), &series.long_steps);
        assert_eq!(line.runs().len(), 2);
        // A year in view: a pixel column is hours wide, the gap is not seen.
        let mut line = CachedLine::default();
        line.update(&series, 0, view(0.0, 3.0e7, 1000), &series.long_steps);
        assert_eq!(
            line.runs().len() + line.dots().len(),
            1,
            "{:?}",
            line.runs()
        );
        assert_eq!(line.bands().len(), 1);
    }

    #[test]
    fn missing_values_break_the_line_only_where_they_show() {
        // 1 Hz for 10_000 s: one value missing every 1000, and all of
        // 4000..6000 missing.
        let times: Vec<i64> = (0..10_000).collect();
        let values: Vec<f64> = (0..10_000)
            .map(|i| {
                if i % 1000 == 500 || (4000..6000).contains(&i) {
                    f64::NAN
                } else {
                    1.0
                }
            })
            .collect();
        let series = plot(times, values);
        let mut line = CachedLine::default();
        line.update(&series, 0, view(0.0, 9999.0, 100), &[]);
        // The lone missing values are lost in their columns; the long
        // stretch splits the line (and its band) in two.
        assert_eq!(line.runs().len(), 2, "{:?}", line.runs().len());
        assert_eq!(line.bands().len(), 2);
        let (first, second) = (&line.runs()[0], &line.runs()[1]);
        // (Means sit at their column's centre, 99 s wide here.)
        assert!(first.last().is_some_and(|p| p[0] < 4100.0));
        assert!(second[0][0] > 5900.0);
        assert!(line.runs().iter().flatten().all(|p| p[1] == 1.0));
    }

    #[test]
    fn crowded_columns_are_a_band_with_their_mean_on_the_line() {
        // 1 Hz over 1000 s in 10 columns: 100 samples each, a sawtooth.
        let times: Vec<i64> = (0..1000).collect();
        let values: Vec<f64> = (0..1000).map(|i| f64::from(i % 10)).collect();
        let series = plot(times, values);
        let mut line = CachedLine::default();
        line.update(&series, 0, view(0.0, 999.0, 10), &[]);
        assert_eq!(line.bands().len(), 1);
        let band = &line.bands()[0];
        assert!(band.len() >= 10);
        assert!(band.iter().all(|b| b[1] == 0.0 && b[2] == 9.0), "{band:?}");
        // The line: a mean per two columns, not the samples' zig-zag.
        let run = &line.runs()[0];
        assert_eq!(run.len(), band.len().div_ceil(2));
        assert!(run.iter().all(|p| (p[1] - 4.5).abs() < 1.0), "{run:?}");

        // Sparse columns (fewer than DENSE_SAMPLES) keep their samples.
        let sparse = plot(vec![0, 400, 800], vec![1.0, 5.0, 2.0]);
        let mut line = CachedLine::default();
        line.update(&sparse, 0, view(0.0, 800.0, 10), &[]);
        assert!(line.bands().is_empty());
        assert_eq!(line.runs(), &[vec![[0.0, 1.0], [400.0, 5.0], [800.0, 2.0]]]);
    }

    #[test]
    fn a_band_stops_at_a_gap_and_a_lone_crowded_column_keeps_its_width() {
        // A burst of 50 samples in one second-wide column, a gap, a burst.
        let mut times: Vec<i64> = (0..50).map(|i| 1000 + i).collect();
        times.extend((0..50).map(|i| 9000 + i));
        let values: Vec<f64> = (0..100).map(|i| f64::from(i % 7)).collect();
        let series = plot(times, values);
        let mut line = CachedLine::default();
        line.update(&series, 0, view(0.0, 10_000.0, 100), &series.long_steps);
        assert_eq!(line.bands().len(), 2, "{:?}", line.bands());
        for band in line.bands() {
            assert_eq!(band.len(), 2);
            assert!(band[1][0] > band[0][0], "as wide as its column");
        }
        assert!(line.runs().is_empty(), "no line across the gap");
        assert_eq!(line.dots().len(), 2, "each burst's mean");
    }

    #[test]
    fn lines_reach_the_edges_of_the_view_with_the_values_there() {
        // A ramp, a sample every 100 s; a view inside it.
        let times: Vec<i64> = (0..100).map(|i| i * 100).collect();
        let values: Vec<f64> = (0..100).map(|i| f64::from(i) * 10.0).collect();
        let series = plot(times, values);
        let mut line = CachedLine::default();
        line.update(&series, 0, view(2050.0, 2950.0, 2000), &[]);
        let run = &line.runs()[0];
        let (first, last) = (run[0], run[run.len() - 1]);
        assert!(first[0] <= 2050.0 && first[0] > 2000.0, "{first:?}");
        assert!(last[0] >= 2950.0 && last[0] < 3000.0, "{last:?}");
        // On the ramp, not the samples beyond the view.
        assert!((first[1] - first[0] / 10.0).abs() < 1e-6);
        assert!((last[1] - last[0] / 10.0).abs() < 1e-6);
        // Across a gap, the sample beyond the edge is not drawn at all.
        let mut line = CachedLine::default();
        line.update(&series, 0, view(2050.0, 2950.0, 2000), &[21]);
        let xs: Vec<f64> = line.runs().iter().flatten().map(|p| p[0]).collect();
        assert!(xs.iter().all(|x| *x >= 2100.0), "{xs:?}");
        assert!(line.dots().is_empty());
    }

    /// A day at 1 Hz: a wave with gaps, every 7th sample estimated.
    fn day() -> PlotSeries {
        let n = 86_400;
        let values = (0..n)
            .map(|t| {
                if t % 5000 < 30 {
                    f64::NAN
                } else {
                    (t as f64 / 900.0).sin() * 40.0 + (t * 7919 % 100) as f64 / 10.0
                }
            })
            .collect();
        let estimated = (0..n)
            .map(|t| {
                if t % 7 == 0 {
                    ESTIMATED_YES
                } else {
                    ESTIMATED_NO
                }
            })
            .collect();
        PlotSeries::new(Series {
            times: (0..n).collect(),
            channels: vec![Channel {
                name: "v".into(),
                unit: None,
                kind: ChannelKind::Numeric,
                values,
                labels: Vec::new(),
                estimated: Some(estimated),
            }],
            ..Default::default()
        })
    }

    fn key(data: usize, t0: f64, t1: f64) -> LineKey {
        LineKey {
            data,
            gaps: 0,
            t0,
            t1,
            columns: 800,
        }
    }

    /// What a line made from nothing holds for `key`.
    fn fresh(series: &PlotSeries, key: LineKey) -> CachedLine {
        let mut line = CachedLine::default();
        line.update(series, 0, key, &[]);
        line
    }

    fn same(a: &CachedLine, b: &CachedLine) {
        assert_eq!(a.held(), b.held());
        assert_eq!(a.columns, b.columns);
        assert_eq!(a.drawn, b.drawn);
    }

    #[test]
    fn a_pan_keeps_the_columns_in_view_and_computes_only_the_new_ones() {
        let series = day();
        let mut line = CachedLine::default();
        let first = key(1, 20_000.0, 40_000.0);
        line.update(&series, 0, first, &[]);
        let all = line.held();
        assert_eq!(line.computed(), all.clone().count(), "the first view");
        assert!(all.clone().count() >= 800);

        // The same view again: nothing to compute.
        line.update(&series, 0, first, &[]);
        assert_eq!(line.computed(), 0);

        // Pan right by a tenth of the view, then left past the start.
        for (t0, t1) in [(22_000.0, 42_000.0), (19_000.0, 39_000.0)] {
            let before = line.held();
            let k = key(1, t0, t1);
            line.update(&series, 0, k, &[]);
            let after = line.held();
            let kept = after.start.max(before.start)..after.end.min(before.end);
            let new = after.clone().count() - kept.clone().count();
            assert!(kept.clone().count() > after.clone().count() / 2);
            assert_eq!(line.computed(), new, "{t0}..{t1}: only the new columns");
            assert!(line.computed() < after.count() / 5);
            // What was kept and what was computed make the same line.
            same(&line, &fresh(&series, k));
        }
    }

    #[test]
    fn a_zoom_or_other_data_computes_every_column_again() {
        let series = day();
        let other = day();
        let mut line = CachedLine::default();
        line.update(&series, 0, key(1, 20_000.0, 40_000.0), &[]);

        // Zoom in around the middle: another lattice, all columns new.
        let zoomed = key(1, 25_000.0, 35_000.0);
        line.update(&series, 0, zoomed, &[]);
        assert_eq!(line.computed(), line.held().count());
        same(&line, &fresh(&series, zoomed));

        // Another series in the same view: nothing of the old is kept.
        let swapped = key(2, 25_000.0, 35_000.0);
        line.update(&other, 0, swapped, &[]);
        assert_eq!(line.computed(), line.held().count());
        same(&line, &fresh(&other, swapped));

        // Another plot width at the same span: another lattice too.
        let wider = LineKey {
            columns: 1600,
            ..swapped
        };
        line.update(&other, 0, wider, &[]);
        assert_eq!(line.computed(), line.held().count());
        same(&line, &fresh(&other, wider));
    }
}
