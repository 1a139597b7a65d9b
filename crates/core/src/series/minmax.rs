//! A min/max index over one channel, and M4 aggregation through it.
//!
//! A plot never needs more than a few points per pixel column: the first and
//! last sample of the column, its minimum and its maximum (M4), plus a break
//! where a value is missing. The index is a pyramid of blocks, each holding
//! the positions of its minimum, its maximum and its first missing value,
//! and the sum and count of its finite values (for a column's mean), so the
//! extremes of any index range cost a few hundred comparisons whatever its
//! length. Blocks keep positions with their values, so ties resolve
//! exactly as a full scan does (the first occurrence wins) and the output is
//! identical to scanning every sample; merging blocks never touches the
//! samples themselves, which for a year of 1 Hz data are far apart in memory.

/// Samples (or lower-level blocks) per block. Large blocks keep the work
/// of a range sequential in memory, which matters more than its count.
pub(crate) const BLOCK: usize = 64;

use std::ops::{Range, RangeInclusive};

const NONE: u32 = u32::MAX;

/// The extremes of a block. Their values are kept beside their positions
/// so merging blocks never reads the (large, far away) samples.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Block {
    min_v: f64,
    max_v: f64,
    /// Sum of the finite values.
    sum: f64,
    min: u32,
    max: u32,
    nan: u32,
    /// How many values are finite.
    finite: u32,
}

const EMPTY: Block = Block {
    min_v: f64::INFINITY,
    max_v: f64::NEG_INFINITY,
    sum: 0.0,
    min: NONE,
    max: NONE,
    nan: NONE,
    finite: 0,
};

/// Why an index cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    #[error("{0} samples do not fit a min/max index (at most 4,294,967,294)")]
    TooLong(usize),
}

/// The extremes of an index range: positions of the minimum, the maximum and
/// the first missing (NaN) value, if any; and the sum and count of its
/// finite values.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Extremes {
    pub(crate) min: Option<usize>,
    pub(crate) max: Option<usize>,
    pub(crate) first_nan: Option<usize>,
    pub(crate) sum: f64,
    pub(crate) finite: usize,
}

impl Extremes {
    /// The mean of the finite values, if any.
    pub(crate) fn mean(&self) -> Option<f64> {
        (self.finite > 0).then(|| self.sum / self.finite as f64)
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct MinMaxIndex {
    /// `levels[0]` summarises [`BLOCK`] samples per entry, `levels[k]`
    /// [`BLOCK`] entries of `levels[k - 1]`.
    levels: Vec<Vec<Block>>,
    len: usize,
}

/// Merges two blocks: the smaller (larger) value wins, the earlier
/// position on ties, as a scan keeping the first occurrence would.
#[inline]
fn merge(a: Block, b: Block) -> Block {
    let (min, min_v) = if b.min != NONE
        && (a.min == NONE || b.min_v < a.min_v || (b.min_v == a.min_v && b.min < a.min))
    {
        (b.min, b.min_v)
    } else {
        (a.min, a.min_v)
    };
    let (max, max_v) = if b.max != NONE
        && (a.max == NONE || b.max_v > a.max_v || (b.max_v == a.max_v && b.max < a.max))
    {
        (b.max, b.max_v)
    } else {
        (a.max, a.max_v)
    };
    Block {
        min_v,
        max_v,
        sum: a.sum + b.sum,
        min,
        max,
        nan: a.nan.min(b.nan),
        finite: a.finite + b.finite,
    }
}

/// The block of raw samples `lo..hi`.
#[inline]
fn scan_raw(values: &[f64], lo: usize, hi: usize) -> Block {
    let mut b = EMPTY;
    for (i, &v) in values[lo..hi].iter().enumerate() {
        let i = (lo + i) as u32;
        if v.is_nan() {
            if b.nan == NONE {
                b.nan = i;
            }
            continue;
        }
        if v.is_finite() {
            b.sum += v;
            b.finite += 1;
        }
        // Strict comparisons keep the first occurrence; the NONE checks
        // take infinities too.
        if v < b.min_v || b.min == NONE {
            b.min_v = v;
            b.min = i;
        }
        if v > b.max_v || b.max == NONE {
            b.max_v = v;
            b.max = i;
        }
    }
    b
}

impl MinMaxIndex {
    /// Builds the index in one pass over `values` (and a small one per level).
    pub fn build(values: &[f64]) -> Result<Self, IndexError> {
        if values.len() >= NONE as usize {
            return Err(IndexError::TooLong(values.len()));
        }
        let mut levels = Vec::new();
        let mut current: Vec<Block> = values
            .chunks(BLOCK)
            .enumerate()
            .map(|(k, chunk)| scan_raw(values, k * BLOCK, k * BLOCK + chunk.len()))
            .collect();
        while current.len() > 1 {
            let next: Vec<Block> = current
                .chunks(BLOCK)
                .map(|c| c.iter().fold(EMPTY, |acc, b| merge(acc, *b)))
                .collect();
            levels.push(current);
            current = next;
        }
        levels.push(current);
        Ok(Self {
            levels,
            len: values.len(),
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the index takes (beyond the values themselves).
    pub fn size_bytes(&self) -> usize {
        self.levels
            .iter()
            .map(|l| l.len() * std::mem::size_of::<Block>())
            .sum()
    }

    /// Extremes of `values[lo..hi]`; `values` must be what the index was
    /// built from (only the ragged ends of the range are read from it).
    pub(crate) fn extremes(&self, values: &[f64], lo: usize, hi: usize) -> Extremes {
        let hi = hi.min(self.len).min(values.len());
        if lo >= hi {
            return Extremes::default();
        }
        let mut acc = EMPTY;
        // Raw samples up to the first whole block, and after the last one.
        let (mut blo, mut bhi) = (lo.div_ceil(BLOCK), hi / BLOCK);
        if blo >= bhi {
            acc = scan_raw(values, lo, hi);
        } else {
            acc = merge(acc, scan_raw(values, lo, blo * BLOCK));
            acc = merge(acc, scan_raw(values, bhi * BLOCK, hi));
            // Whole blocks, level by level: the ragged ends of each level
            // are read there, the middle one level up.
            for level in 0..self.levels.len() {
                let entries = &self.levels[level];
                let (ulo, uhi) = (blo.div_ceil(BLOCK), bhi / BLOCK);
                let last = level + 1 == self.levels.len();
                if ulo >= uhi || last {
                    for b in &entries[blo..bhi] {
                        acc = merge(acc, *b);
                    }
                    break;
                }
                for b in entries[blo..ulo * BLOCK]
                    .iter()
                    .chain(&entries[uhi * BLOCK..bhi])
                {
                    acc = merge(acc, *b);
                }
                (blo, bhi) = (ulo, uhi);
            }
        }
        let some = |i: u32| (i != NONE).then_some(i as usize);
        Extremes {
            min: some(acc.min),
            max: some(acc.max),
            first_nan: some(acc.nan),
            sum: acc.sum,
            finite: acc.finite as usize,
        }
    }
}

/// The positions M4 keeps for one column `lo..hi` (sorted, distinct): its
/// first and last samples, its minimum and maximum, and its first missing
/// value (drawn as a break).
#[inline]
fn column_points(e: Extremes, lo: usize, hi: usize, out: &mut Vec<usize>) {
    // Absent extremes fall back to `lo` and vanish in the dedup.
    let mut p = [
        lo,
        e.min.unwrap_or(lo),
        e.max.unwrap_or(lo),
        e.first_nan.unwrap_or(lo),
        hi - 1,
    ];
    p.sort_unstable();
    let start = out.len();
    for i in p {
        if out.len() == start || out[out.len() - 1] != i {
            out.push(i);
        }
    }
}

/// The first position at or after `from` whose time is not before `edge`.
/// Starts from where the times, if evenly spaced, would put it (exact for
/// regular sampling), then gallops outwards: a few probes per column, not
/// a search of a whole year of samples, each probe a likely cache miss.
fn gallop(times: &[i64], from: usize, edge: f64) -> usize {
    let n = times.len();
    let before = |i: usize| (times[i] as f64) < edge;
    if from >= n || !before(from) {
        return from;
    }
    if before(n - 1) {
        return n;
    }
    // times[from] < edge <= times[n - 1]: the answer is in from+1..n.
    let (t0, t1) = (times[from] as f64, times[n - 1] as f64);
    let frac = ((edge - t0) / (t1 - t0)).clamp(0.0, 1.0);
    let guess = (from + 1 + (frac * (n - 1 - from) as f64) as usize).min(n - 1);
    // Bracket [lo, hi): times[lo - 1] < edge <= times[hi - 1]...
    let (mut lo, mut hi);
    if before(guess) {
        // ... rightwards.
        let mut step = 1;
        lo = guess + 1;
        hi = guess + 1;
        while hi < n && before(hi) {
            lo = hi + 1;
            hi = (hi + step).min(n - 1);
            step *= 2;
        }
        hi += 1;
    } else {
        // ... leftwards.
        let mut step = 1;
        hi = guess + 1;
        lo = guess;
        while lo > from + 1 && !before(lo - 1) {
            hi = lo;
            lo = lo.saturating_sub(step).max(from + 1);
            step *= 2;
        }
    }
    lo + times[lo..hi].partition_point(|t| (*t as f64) < edge)
}

/// Columns of a fixed lattice: column `k` covers times `k * width ..
/// (k + 1) * width`. Anchored at time 0 rather than at the view's edge, so
/// a view that pans at the same zoom keeps its columns and only the newly
/// exposed ones need computing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lattice {
    pub(crate) width: f64,
}

impl Lattice {
    /// A lattice for about `columns` columns over `t0..t1`, its width
    /// rounded to an eighth of an octave so that panning (which moves both
    /// edges, with rounding) keeps the same lattice.
    pub fn for_view(t0: f64, t1: f64, columns: usize) -> Option<Self> {
        let raw = (t1 - t0) / columns.max(1) as f64;
        if !(raw.is_finite() && raw > 0.0) {
            return None;
        }
        let width = (raw.log2() * 8.0).floor() / 8.0;
        Some(Self {
            width: width.exp2(),
        })
    }

    /// The columns covering `t0..=t1`.
    pub fn columns(&self, t0: f64, t1: f64) -> RangeInclusive<i64> {
        ((t0 / self.width).floor() as i64)..=((t1 / self.width).floor() as i64)
    }
}

/// One lattice column as M4 sees it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct M4Column {
    /// The positions to draw, sorted: the column's first and last samples,
    /// its minimum and maximum, and its first missing value (a break).
    pub(crate) points: Vec<usize>,
    /// Every sample in the column.
    pub(crate) samples: Range<usize>,
    /// How many of them are finite, and their mean (if any).
    pub(crate) finite: usize,
    pub(crate) mean: Option<f64>,
}

/// M4 of lattice columns `ks`: for each, the positions to draw, sorted:
/// its first and last samples, its minimum and maximum, and its first
/// missing value (a break in the line). `times` must be sorted.
pub fn m4_lattice(
    times: &[i64],
    values: &[f64],
    index: &MinMaxIndex,
    lattice: Lattice,
    ks: RangeInclusive<i64>,
) -> Vec<Vec<usize>> {
    m4_columns(times, values, index, lattice, ks)
        .into_iter()
        .map(|c| c.points)
        .collect()
}

/// M4 of lattice columns `ks`, with each column's samples and mean.
/// `times` must be sorted.
pub fn m4_columns(
    times: &[i64],
    values: &[f64],
    index: &MinMaxIndex,
    lattice: Lattice,
    ks: RangeInclusive<i64>,
) -> Vec<M4Column> {
    let n = times.len().min(values.len()).min(index.len());
    let times = &times[..n];
    let mut out = Vec::new();
    let mut from = 0;
    let mut first = true;
    for k in ks {
        let (a, b) = (k as f64 * lattice.width, (k + 1) as f64 * lattice.width);
        // The first edge is searched from the start, the others onwards.
        let lo = if first {
            first = false;
            gallop(times, 0, a)
        } else {
            from
        };
        let hi = gallop(times, lo, b);
        from = hi;
        let mut col = M4Column {
            samples: lo..hi,
            ..M4Column::default()
        };
        if lo < hi {
            let e = index.extremes(values, lo, hi);
            column_points(e, lo, hi, &mut col.points);
            col.finite = e.finite;
            col.mean = e.mean();
        }
        out.push(col);
    }
    out
}

/// The last sample before `t0` and the first at or after `t1`, if any: the
/// points that carry a line on to the edges of the columns `t0..t1`.
pub(crate) fn neighbours(times: &[i64], t0: f64, t1: f64) -> (Option<usize>, Option<usize>) {
    let before = times.partition_point(|t| (*t as f64) < t0).checked_sub(1);
    let after = times.partition_point(|t| (*t as f64) < t1);
    (before, (after < times.len()).then_some(after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The reference: every sample looked at, put in its column by the
    /// column's bounds, `k * width <= t < (k + 1) * width`.
    fn reference(
        times: &[i64],
        values: &[f64],
        width: f64,
        ks: RangeInclusive<i64>,
    ) -> Vec<Vec<usize>> {
        let (k0, k1) = (*ks.start(), *ks.end());
        let mut inside: Vec<Vec<usize>> = vec![Vec::new(); (k1 - k0 + 1).max(0) as usize];
        for (i, &t) in times.iter().enumerate().take(values.len()) {
            let t = t as f64;
            let mut k = (t / width).floor() as i64;
            while t < k as f64 * width {
                k -= 1;
            }
            while t >= (k + 1) as f64 * width {
                k += 1;
            }
            if (k0..=k1).contains(&k) {
                inside[(k - k0) as usize].push(i);
            }
        }
        inside
            .into_iter()
            .map(|col| {
                let (Some(&lo), Some(&hi)) = (col.first(), col.last()) else {
                    return Vec::new();
                };
                let (mut min, mut max, mut nan) = (None::<usize>, None::<usize>, None::<usize>);
                for &k in &col {
                    let v = values[k];
                    if v.is_nan() {
                        nan = nan.or(Some(k));
                        continue;
                    }
                    if min.is_none_or(|m| v < values[m]) {
                        min = Some(k);
                    }
                    if max.is_none_or(|m| v > values[m]) {
                        max = Some(k);
                    }
                }
                let mut p: Vec<usize> = [Some(lo), min, max, nan, Some(hi)]
                    .into_iter()
                    .flatten()
                    .collect();
                p.sort_unstable();
                p.dedup();
                p
            })
            .collect()
    }

    fn ramp(n: usize) -> (Vec<i64>, Vec<f64>) {
        let times = (0..n as i64).collect();
        let values = (0..n).map(|i| ((i * 7919) % 1000) as f64).collect();
        (times, values)
    }

    #[test]
    fn extremes_match_a_scan_on_every_range_of_a_small_channel() {
        let (_, mut values) = ramp(300);
        values[17] = f64::NAN;
        values[200] = f64::NAN;
        let index = MinMaxIndex::build(&values).expect("index");
        for lo in 0..300 {
            for hi in (lo + 1..=300).step_by(7) {
                let e = index.extremes(&values, lo, hi);
                let b = scan_raw(&values, lo, hi);
                let some = |i: u32| (i != NONE).then_some(i as usize);
                assert_eq!(
                    (e.min, e.max, e.first_nan),
                    (some(b.min), some(b.max), some(b.nan)),
                    "range {lo}..{hi}"
                );
            }
        }
    }

    #[test]
    fn means_count_only_finite_values_over_any_range() {
        let (_, mut values) = ramp(5000);
        values[17] = f64::NAN;
        values[300] = f64::INFINITY;
        values[4000] = f64::NEG_INFINITY;
        let index = MinMaxIndex::build(&values).expect("index");
        for (lo, hi) in [(0, 5000), (3, 4), (10, 700), (64, 4096), (250, 4999)] {
            let e = index.extremes(&values, lo, hi);
            let finite: Vec<f64> = values[lo..hi]
                .iter()
                .copied()
                .filter(|v| v.is_finite())
                .collect();
            assert_eq!(e.finite, finite.len(), "{lo}..{hi}");
            let mean = finite.iter().sum::<f64>() / finite.len() as f64;
            let got = e.mean().expect("a mean");
            assert!((got - mean).abs() < 1e-9, "{lo}..{hi}: {got} != {mean}");
        }
        let nothing = MinMaxIndex::build(&[f64::NAN, f64::NAN]).expect("index");
        assert_eq!(nothing.extremes(&[f64::NAN, f64::NAN], 0, 2).mean(), None);
    }

    #[test]
    fn columns_know_their_samples_and_mean() {
        let times: Vec<i64> = (0..100).collect();
        let mut values: Vec<f64> = (0..100).map(f64::from).collect();
        values[25] = f64::NAN;
        let index = MinMaxIndex::build(&values).expect("index");
        let lattice = Lattice { width: 10.0 };
        let cols = m4_columns(&times, &values, &index, lattice, 1..=2);
        assert_eq!(cols[0].samples, 10..20);
        assert_eq!((cols[0].finite, cols[0].mean), (10, Some(14.5)));
        assert_eq!(cols[1].samples, 20..30);
        assert_eq!(cols[1].finite, 9, "the missing one is not counted");
        assert_eq!(cols[1].points, vec![20, 25, 29]);
        let empty = m4_columns(&times, &values, &index, lattice, 20..=20);
        assert!(empty[0].samples.is_empty() && empty[0].points.is_empty());
    }

    #[test]
    fn a_whole_view_is_identical_to_a_full_scan() {
        // Several levels deep: 300k samples; whole, part, and a few samples.
        let (times, values) = ramp(300_000);
        let index = MinMaxIndex::build(&values).expect("index");
        for (t0, t1, columns) in [
            (0.0, 299_999.0, 1920),
            (12_345.5, 250_000.0, 777),
            (1000.0, 1010.0, 1920),
        ] {
            let lattice = Lattice::for_view(t0, t1, columns).expect("a lattice");
            let ks = lattice.columns(t0, t1);
            let got = m4_lattice(&times, &values, &index, lattice, ks.clone());
            assert_eq!(
                got,
                reference(&times, &values, lattice.width, ks),
                "{t0}..{t1}"
            );
            assert!(got.iter().all(|c| c.len() <= 5));
        }
    }

    #[test]
    fn first_and_last_points_are_kept_and_nan_gaps_stay() {
        let times: Vec<i64> = (0..1000).collect();
        let mut values: Vec<f64> = (0..1000).map(|i| (i as f64).sin()).collect();
        for v in &mut values[400..450] {
            *v = f64::NAN;
        }
        let index = MinMaxIndex::build(&values).expect("index");
        let lattice = Lattice::for_view(0.0, 999.0, 10).expect("a lattice");
        let cols = m4_lattice(
            &times,
            &values,
            &index,
            lattice,
            lattice.columns(0.0, 999.0),
        );
        let all: Vec<usize> = cols.iter().flatten().copied().collect();
        assert_eq!(all.first(), Some(&0));
        assert_eq!(all.last(), Some(&999));
        // The gap shows as a NaN at its first sample.
        assert!(all.contains(&400) && values[400].is_nan());
        assert!(all.len() <= cols.len() * 5);
    }

    #[test]
    fn neighbours_outside_the_view_are_kept_so_lines_reach_the_edges() {
        let times: Vec<i64> = (0..100).map(|i| i * 10).collect();
        assert_eq!(neighbours(&times, 105.0, 195.0), (Some(10), Some(20)));
        // A view between two samples still joins them.
        assert_eq!(neighbours(&times, 101.0, 109.0), (Some(10), Some(11)));
        assert_eq!(neighbours(&times, -5.0, 5000.0), (None, None));
        assert_eq!(neighbours(&[], 0.0, 1.0), (None, None));
    }

    #[test]
    fn empty_and_odd_inputs_do_not_panic() {
        let index = MinMaxIndex::build(&[]).expect("index");
        let lattice = Lattice { width: 1.0 };
        assert_eq!(
            m4_lattice(&[], &[], &index, lattice, 0..=3),
            vec![Vec::<usize>::new(); 4]
        );
        let values = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1.0];
        let index = MinMaxIndex::build(&values).expect("index");
        let e = index.extremes(&values, 0, 4);
        assert_eq!((e.min, e.max, e.first_nan), (Some(2), Some(1), Some(0)));
        assert_eq!(Lattice::for_view(f64::NAN, 1.0, 10), None);
        assert_eq!(Lattice::for_view(0.0, f64::INFINITY, 10), None);
        assert_eq!(Lattice::for_view(5.0, 1.0, 10), None);
    }

    #[test]
    fn gallop_finds_what_a_binary_search_finds() {
        // Regular, with duplicates, and lumpy (a burst then a long gap).
        let regular: Vec<i64> = (0..1000).map(|i| i / 3).collect();
        let lumpy: Vec<i64> = (0..1000)
            .map(|i| if i < 900 { i } else { 100_000 + i * 1000 })
            .collect();
        for times in [regular, lumpy] {
            let last = *times.last().unwrap_or(&0) as f64;
            for from in [0, 1, 5, 500, 899, 900, 998, 999, 1000] {
                for edge in [
                    -1.0,
                    0.0,
                    0.5,
                    1.0,
                    100.0,
                    332.0,
                    333.0,
                    899.5,
                    5000.0,
                    last,
                    last + 1.0,
                ] {
                    let expected = from + times[from..].partition_point(|t| (*t as f64) < edge);
                    assert_eq!(gallop(&times, from, edge), expected, "{from} {edge}");
                }
            }
        }
    }

    #[test]
    fn a_pan_keeps_the_lattice_and_its_columns() {
        // Sorted, irregular steps, some gaps.
        let times: Vec<i64> = (0..50_000).map(|i| i * 3 + (i % 7) / 3).collect();
        let values: Vec<f64> = (0..50_000)
            .map(|i| {
                if i % 997 == 0 {
                    f64::NAN
                } else {
                    ((i * 31) % 113) as f64
                }
            })
            .collect();
        let index = MinMaxIndex::build(&values).expect("index");
        let lattice = Lattice::for_view(10_000.0, 110_000.0, 700).expect("a lattice");
        // Rounded down to an eighth of an octave: about as many columns.
        let w = 100_000.0 / 700.0;
        assert!(lattice.width <= w && lattice.width > w * 0.9);
        let ks = lattice.columns(10_000.0, 110_000.0);
        let cols = m4_lattice(&times, &values, &index, lattice, ks.clone());
        assert_eq!(cols, reference(&times, &values, lattice.width, ks.clone()));
        // Panned by a fraction of a view at the same zoom: same lattice,
        // and the columns still in view are the same.
        let panned = Lattice::for_view(10_003.7, 110_003.7, 700).expect("a lattice");
        assert_eq!(panned, lattice);
        let (a, b) = (*ks.start(), *ks.end());
        let again = m4_lattice(&times, &values, &index, lattice, a + 5..=b);
        assert_eq!(again[..], cols[5..]);
    }

    #[test]
    fn the_index_is_small() {
        let values = vec![1.0; 1_000_000];
        let index = MinMaxIndex::build(&values).expect("index");
        // Under 10 % of the 8 MB of values (8 % with the sums).
        assert!(index.size_bytes() * 100 < 8_000_000 * 10);
    }

    proptest! {
        #[test]
        fn m4_equals_a_full_scan_at_any_zoom(
            raw in proptest::collection::vec(
                prop_oneof![
                    8 => -1e6f64..1e6,
                    1 => Just(f64::NAN),
                    1 => Just(0.0f64),
                ],
                0..3000,
            ),
            steps in proptest::collection::vec(0i64..5, 0..3000),
            a in -50.0f64..4000.0,
            span in 0.001f64..5000.0,
            columns in 1usize..400,
        ) {
            let n = raw.len().min(steps.len());
            let values = &raw[..n];
            // Sorted times with duplicates (steps of 0).
            let mut t = 0;
            let times: Vec<i64> = steps[..n].iter().map(|s| { t += s; t }).collect();
            let index = MinMaxIndex::build(values).expect("index");
            let lattice = Lattice::for_view(a, a + span, columns).expect("a lattice");
            let ks = lattice.columns(a, a + span);
            prop_assert_eq!(
                m4_lattice(&times, values, &index, lattice, ks.clone()),
                reference(&times, values, lattice.width, ks)
            );
        }
    }
}
