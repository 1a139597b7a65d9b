//! The M4 column cache: one channel's line as a plot draws it, aggregated
//! through its min/max index for the view in sight and kept between frames.
//!
//! Its columns sit on a [`Lattice`] anchored at time 0, so while the view
//! pans at one zoom the columns still in view are kept and only those coming
//! into view are computed; a zoom, another pixel width or other data start
//! over. Points are plain `[time, value]` pairs, for any plotting library.

use std::ops::Range;

use super::minmax::{Lattice, m4_lattice, neighbours};
use super::plot::PlotSeries;

/// Values beyond this are held at it. A plot pads a flat line by the time
/// span in view; past ~1e15 that padding is lost to f64 precision and the
/// bounds degenerate. No telemetry comes near it.
pub const PLOT_VALUE_LIMIT: f64 = 1e12;

/// What one line was made for: its data (any number that changes with it,
/// such as the address of its `Arc`), the time span in view and the pixel
/// columns across it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineKey {
    pub data: usize,
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
    columns: Vec<Vec<usize>>,
    /// Runs of finite points: a missing value ends a run (a gap). A plot
    /// must never see a NaN: it compares screen positions.
    runs: Vec<Vec<[f64; 2]>>,
    /// Samples alone between gaps, drawn as dots so they are not lost.
    dots: Vec<[f64; 2]>,
    estimated: Vec<[f64; 2]>,
    /// Lattice columns the last update aggregated (the others were kept).
    computed: usize,
}

impl CachedLine {
    /// Brings the line of channel `ch` up to date for a view of `t0..t1`
    /// over `columns` pixel columns.
    pub fn update(&mut self, series: &PlotSeries, ch: usize, key: LineKey) {
        if self.key == Some(key) {
            self.computed = 0;
            return;
        }
        self.key = Some(key);
        self.computed = 0;
        self.runs.clear();
        self.dots.clear();
        self.estimated.clear();
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
        let held = self.first..self.first + self.columns.len() as i64;
        let (keep_lo, keep_hi) = (k0.max(held.start), (k1 + 1).min(held.end));
        let mut cols = if keep_lo < keep_hi {
            let kept = self.columns
                [(keep_lo - self.first) as usize..(keep_hi - self.first) as usize]
                .to_vec();
            let mut cols = if k0 < keep_lo {
                m4_lattice(times, &c.values, index, lattice, k0..=keep_lo - 1)
            } else {
                Vec::new()
            };
            self.computed = cols.len();
            cols.extend(kept);
            if keep_hi <= k1 {
                let after = m4_lattice(times, &c.values, index, lattice, keep_hi..=k1);
                self.computed += after.len();
                cols.extend(after);
            }
            cols
        } else {
            let cols = m4_lattice(times, &c.values, index, lattice, ks);
            self.computed = cols.len();
            cols
        };
        std::mem::swap(&mut self.columns, &mut cols);
        self.first = k0;
        let (before, after) = neighbours(
            times,
            k0 as f64 * lattice.width,
            (k1 + 1) as f64 * lattice.width,
        );
        let positions = before
            .into_iter()
            .chain(self.columns.iter().flatten().copied())
            .chain(after);
        let (mut runs, mut dots) = (
            std::mem::take(&mut self.runs),
            std::mem::take(&mut self.dots),
        );
        let mut run = Vec::new();
        for i in positions {
            let v = c.values[i];
            if !v.is_finite() {
                end_run(&mut run, &mut runs, &mut dots);
                continue;
            }
            let p = [
                times[i] as f64,
                v.clamp(-PLOT_VALUE_LIMIT, PLOT_VALUE_LIMIT),
            ];
            run.push(p);
            if c.estimated_at(i) == Some(true) {
                self.estimated.push(p);
            }
        }
        end_run(&mut run, &mut runs, &mut dots);
        (self.runs, self.dots) = (runs, dots);
    }

    /// Runs of two or more points, each drawn as a line.
    pub fn runs(&self) -> &[Vec<[f64; 2]>] {
        &self.runs
    }

    /// Points alone between gaps, each drawn as a dot.
    pub fn dots(&self) -> &[[f64; 2]] {
        &self.dots
    }

    /// The points whose value is flagged as estimated.
    pub fn estimated(&self) -> &[[f64; 2]] {
        &self.estimated
    }

    /// The lattice columns held: those of the last view.
    pub fn held(&self) -> Range<i64> {
        self.first..self.first + self.columns.len() as i64
    }

    /// How many of them the last update aggregated rather than kept.
    pub fn computed(&self) -> usize {
        self.computed
    }
}

/// Ends a run of points: two or more make a line, a lone one a dot.
fn end_run(run: &mut Vec<[f64; 2]>, runs: &mut Vec<Vec<[f64; 2]>>, dots: &mut Vec<[f64; 2]>) {
    match run.len() {
        0 => {}
        1 => dots.append(run),
        _ => runs.push(std::mem::take(run)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::series::channel::{Channel, ChannelKind, ESTIMATED_NO, ESTIMATED_YES, Series};

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
            skipped_rows: 0,
        });
        let mut line = CachedLine::default();
        line.update(
            &series,
            0,
            LineKey {
                data: 1,
                t0: 0.0,
                t1: 8.0,
                columns: 1000,
            },
        );
        assert_eq!(line.runs.len(), 2, "{:?}", line.runs);
        assert_eq!(line.runs[0].len(), 2);
        assert_eq!(line.dots.len(), 1, "the lone 3.0");
        assert_eq!(line.dots[0][1], 3.0);
        let last = &line.runs[1];
        assert_eq!(
            (last[0][1], last[1][1]),
            (PLOT_VALUE_LIMIT, -PLOT_VALUE_LIMIT)
        );
        assert!(
            line.runs
                .iter()
                .flatten()
                .chain(&line.dots)
                .all(|p| p[0].is_finite() && p[1].is_finite())
        );
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
            skipped_rows: 0,
        })
    }

    fn key(data: usize, t0: f64, t1: f64) -> LineKey {
        LineKey {
            data,
            t0,
            t1,
            columns: 800,
        }
    }

    /// What a line made from nothing holds for `key`.
    fn fresh(series: &PlotSeries, key: LineKey) -> CachedLine {
        let mut line = CachedLine::default();
        line.update(series, 0, key);
        line
    }

    fn same(a: &CachedLine, b: &CachedLine) {
        assert_eq!(a.held(), b.held());
        assert_eq!(a.columns, b.columns);
        assert_eq!(a.runs, b.runs);
        assert_eq!(a.dots, b.dots);
        assert_eq!(a.estimated, b.estimated);
    }

    #[test]
    fn a_pan_keeps_the_columns_in_view_and_computes_only_the_new_ones() {
        let series = day();
        let mut line = CachedLine::default();
        let first = key(1, 20_000.0, 40_000.0);
        line.update(&series, 0, first);
        let all = line.held();
        assert_eq!(line.computed(), all.clone().count(), "the first view");
        assert!(all.clone().count() >= 800);

        // The same view again: nothing to compute.
        line.update(&series, 0, first);
        assert_eq!(line.computed(), 0);

        // Pan right by a tenth of the view, then left past the start.
        for (t0, t1) in [(22_000.0, 42_000.0), (19_000.0, 39_000.0)] {
            let before = line.held();
            let k = key(1, t0, t1);
            line.update(&series, 0, k);
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
        line.update(&series, 0, key(1, 20_000.0, 40_000.0));

        // Zoom in around the middle: another lattice, all columns new.
        let zoomed = key(1, 25_000.0, 35_000.0);
        line.update(&series, 0, zoomed);
        assert_eq!(line.computed(), line.held().count());
        same(&line, &fresh(&series, zoomed));

        // Another series in the same view: nothing of the old is kept.
        let swapped = key(2, 25_000.0, 35_000.0);
        line.update(&other, 0, swapped);
        assert_eq!(line.computed(), line.held().count());
        same(&line, &fresh(&other, swapped));

        // Another plot width at the same span: another lattice too.
        let wider = LineKey {
            columns: 1600,
            ..swapped
        };
        line.update(&other, 0, wider);
        assert_eq!(line.computed(), line.held().count());
        same(&line, &fresh(&other, wider));
    }
}
