//! What a line draws from its M4 columns: runs of points, bands, dots and
//! estimated samples.
//!
//! A column crowded with samples is drawn as a band of their range with
//! their mean on the line; other columns give their M4 samples. The line
//! breaks at missing values and at gaps (see [`super::gaps`]) wide enough
//! to see: a gap within a pixel column or two (an engine stopped for lunch,
//! a month in view) would only scatter a day's samples.

use std::ops::Range;

use super::gaps::crosses_gap;
use super::minmax::{M4Column, neighbours};
use super::plot::PlotSeries;

/// Values beyond this are held at it. A plot pads a flat line by the time
/// span in view; past ~1e15 that padding is lost to f64 precision and the
/// bounds degenerate. No telemetry comes near it.
pub(crate) const PLOT_VALUE_LIMIT: f64 = 1e12;

/// A pixel column with at least this many values (no gap among them)
/// shows their range as a band and their mean on the line: drawn sample
/// by sample, they would fill the column as a solid block.
pub(crate) const DENSE_SAMPLES: usize = 2;
/// A gap shorter than this many pixel columns does not break the line.
const VISIBLE_GAP_COLUMNS: f64 = 2.0;

/// What a line draws.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Drawn {
    /// Runs of finite points: a missing value or a gap ends a run. A plot
    /// must never see a NaN: it compares screen positions.
    pub(super) runs: Vec<Vec<[f64; 2]>>,
    /// Runs of `[time, min, max]` over crowded columns.
    pub(super) bands: Vec<Vec<[f64; 3]>>,
    /// Samples alone between gaps, drawn as dots so they are not lost.
    pub(super) dots: Vec<[f64; 2]>,
    pub(super) estimated: Vec<[f64; 2]>,
}

/// What channel `ch` draws from `columns`, lattice columns `k0..` of
/// `width` seconds spanning `edges`, breaking at `gaps` (sorted sample
/// positions) wide enough to see.
pub(super) fn draw(
    series: &PlotSeries,
    ch: usize,
    columns: &[M4Column],
    k0: i64,
    width: f64,
    edges: (f64, f64),
    gaps: &[usize],
) -> Drawn {
    let times = &series.series.times;
    // Columns aggregated over another series of the plot (an older answer
    // than the one now shown): nothing rather than an index past its end.
    if columns
        .iter()
        .any(|c| c.samples.end > times.len() || c.points.iter().any(|&i| i >= times.len()))
    {
        return Drawn::default();
    }
    let (before, after) = neighbours(times, edges.0, edges.1);
    let gaps = visible_gaps(
        times,
        gaps,
        before.unwrap_or(0)..after.map_or(times.len(), |a| a + 1),
        VISIBLE_GAP_COLUMNS * width,
    );
    let mut out = Builder {
        series,
        ch,
        gaps: &gaps,
        width,
        last: None,
        run: Vec::new(),
        band: Vec::new(),
        pending: None,
        drawn: Drawn::default(),
    };
    out.samples(before);
    for (j, col) in columns.iter().enumerate() {
        if col.samples.is_empty() {
            continue;
        }
        // A few missing values inside a crowded column are no gap one
        // can see; a column with none present breaks the line.
        let crowded = col.finite >= DENSE_SAMPLES
            && !crosses_gap(&gaps, col.samples.start, col.samples.end - 1);
        if crowded {
            out.column(k0 + j as i64, col);
        } else {
            out.end_band();
            out.samples(col.points.iter().copied());
        }
    }
    out.samples(after);
    out.finish(edges)
}

/// The gaps among samples `within` at least `min_secs` long: those a plot
/// shows.
fn visible_gaps(times: &[i64], gaps: &[usize], within: Range<usize>, min_secs: f64) -> Vec<usize> {
    let lo = gaps.partition_point(|g| *g <= within.start);
    let hi = gaps.partition_point(|g| *g < within.end);
    gaps[lo..hi]
        .iter()
        .copied()
        .filter(|&g| (times[g] - times[g - 1]) as f64 >= min_secs)
        .collect()
}

/// Builds what a line draws, column by column, in time order.
struct Builder<'a> {
    series: &'a PlotSeries,
    ch: usize,
    gaps: &'a [usize],
    width: f64,
    /// The last sample on the current run.
    last: Option<usize>,
    run: Vec<[f64; 2]>,
    band: Vec<[f64; 3]>,
    /// A crowded column's mean (and its weight) waiting for the next
    /// column's: over a band the line takes a point per two columns (the
    /// band has them all), half the jitter and half the vertices.
    pending: Option<([f64; 2], f64)>,
    drawn: Drawn,
}

impl Builder<'_> {
    /// Puts a waiting mean on the line.
    fn flush(&mut self) {
        if let Some((p, _)) = self.pending.take() {
            self.run.push(p);
        }
    }

    fn value(&self, i: usize) -> f64 {
        self.series.series.channels[self.ch].values[i].clamp(-PLOT_VALUE_LIMIT, PLOT_VALUE_LIMIT)
    }

    /// Breaks the line before sample `i` if a gap lies on the way to it.
    fn break_before(&mut self, i: usize) {
        if self.last.is_some_and(|l| crosses_gap(self.gaps, l, i)) {
            self.end_run();
            self.end_band();
        }
    }

    fn samples(&mut self, positions: impl IntoIterator<Item = usize>) {
        let times = &self.series.series.times;
        let c = &self.series.series.channels[self.ch];
        for i in positions {
            if !c.values[i].is_finite() {
                self.end_run();
                self.end_band();
                self.last = None;
                continue;
            }
            self.break_before(i);
            self.flush();
            let p = [times[i] as f64, self.value(i)];
            self.run.push(p);
            self.last = Some(i);
            if c.estimated_at(i) == Some(true) {
                self.drawn.estimated.push(p);
            }
        }
    }

    /// A crowded column `k`: its range on the band, its mean on the line.
    fn column(&mut self, k: i64, col: &M4Column) {
        self.break_before(col.samples.start);
        let t = (k as f64 + 0.5) * self.width;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let c = &self.series.series.channels[self.ch];
        for &i in &col.points {
            let v = self.value(i);
            if !v.is_finite() {
                continue; // a missing value lost in the crowd
            }
            (lo, hi) = (lo.min(v), hi.max(v));
            if c.estimated_at(i) == Some(true) {
                self.drawn
                    .estimated
                    .push([self.series.series.times[i] as f64, v]);
            }
        }
        let mean = col.mean.unwrap_or((lo + hi) / 2.0);
        self.band.push([t, lo, hi]);
        let (p, w) = ([t, mean], col.finite as f64);
        match self.pending.take() {
            Some((q, wq)) => {
                let v = (q[1] * wq + p[1] * w) / (wq + w);
                self.run.push([
                    (q[0] + p[0]) / 2.0,
                    v.clamp(-PLOT_VALUE_LIMIT, PLOT_VALUE_LIMIT),
                ]);
            }
            None => self.pending = Some((p, w)),
        }
        self.last = Some(col.samples.end - 1);
    }

    /// Ends a run of points: two or more make a line, a lone one a dot.
    fn end_run(&mut self) {
        self.flush();
        match self.run.len() {
            0 => {}
            1 => self.drawn.dots.append(&mut self.run),
            _ => self.drawn.runs.push(std::mem::take(&mut self.run)),
        }
    }

    /// Ends a band; a band of one column is given that column's width.
    fn end_band(&mut self) {
        match self.band.as_slice() {
            [] => {}
            [[t, lo, hi]] => {
                let half = self.width / 2.0;
                self.drawn
                    .bands
                    .push(vec![[t - half, *lo, *hi], [t + half, *lo, *hi]]);
                self.band.clear();
            }
            _ => self.drawn.bands.push(std::mem::take(&mut self.band)),
        }
    }

    /// What to draw, cut at the edges of the columns in view: the samples
    /// just outside carry the line to the edges (interpolated there, so the
    /// values fitted to the view are those in view) and are not shown.
    fn finish(mut self, (left, right): (f64, f64)) -> Drawn {
        self.end_run();
        self.end_band();
        let mut d = self.drawn;
        let at = |a: [f64; 2], b: [f64; 2], t: f64| {
            let f = if b[0] > a[0] {
                (t - a[0]) / (b[0] - a[0])
            } else {
                0.0
            };
            [t, a[1] + (b[1] - a[1]) * f]
        };
        if let Some(run) = d.runs.first_mut()
            && run[0][0] < left
        {
            run[0] = at(run[0], run[1], left);
        }
        if let Some(run) = d.runs.last_mut()
            && let [.., a, b] = run.as_mut_slice()
            && b[0] > right
        {
            *b = at(*a, *b, right);
        }
        // A run of two cut to one point at an edge: nothing left to show.
        d.runs
            .retain(|r| r.len() >= 2 && r[0][0] < r[r.len() - 1][0]);
        let within = |p: &[f64; 2]| (left..=right).contains(&p[0]);
        d.dots.retain(within);
        d.estimated.retain(within);
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_of_another_series_draw_nothing_and_never_panic() {
        let rows = br#"[{"date":"2025-06-16T00:00:00Z","value":1},{"date":"2025-06-16T00:01:00Z","value":2}]"#;
        let series = PlotSeries::new(crate::series::decode_rows(rows).expect("rows"));
        let stale = M4Column {
            points: vec![0, 5],
            samples: 0..6,
            finite: 6,
            mean: Some(1.0),
        };
        let t0 = series.series.times[0] as f64;
        let drawn = draw(&series, 0, &[stale], 0, 60.0, (t0, t0 + 600.0), &[]);
        assert_eq!(drawn, Drawn::default());
    }

    #[test]
    fn only_gaps_wide_enough_to_see_are_kept() {
        let times = [0, 60, 660, 720, 5000];
        // Gaps before 2 (600 s) and 4 (4280 s).
        assert_eq!(visible_gaps(&times, &[2, 4], 0..5, 601.0), vec![4]);
        assert_eq!(visible_gaps(&times, &[2, 4], 0..5, 600.0), vec![2, 4]);
        // Only those among the samples drawn.
        assert_eq!(visible_gaps(&times, &[2, 4], 0..4, 1.0), vec![2]);
        assert!(visible_gaps(&times, &[2, 4], 2..3, 1.0).is_empty());
        assert!(visible_gaps(&times, &[], 0..5, 1.0).is_empty());
    }
}
