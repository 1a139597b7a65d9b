//! A min/max index over one channel, and M4 aggregation through it.
//!
//! A plot never needs more than a few points per pixel column: the first and
//! last sample of the column, its minimum and its maximum (M4), plus a break
//! where a value is missing. The index is a pyramid of blocks, each holding
//! the positions of its minimum, its maximum and its first missing value, so
//! the extremes of any index range cost a few hundred comparisons whatever
//! its length. It stores positions, not values, so ties resolve exactly as a
//! full scan does (the first occurrence wins) and the output is identical to
//! scanning every sample.

/// Samples (or lower-level blocks) per block.
pub const BLOCK: usize = 64;

const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Block {
    min: u32,
    max: u32,
    nan: u32,
}

const EMPTY: Block = Block {
    min: NONE,
    max: NONE,
    nan: NONE,
};

/// Why an index cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    #[error("{0} samples do not fit a min/max index (at most 4,294,967,294)")]
    TooLong(usize),
}

/// The extremes of an index range: positions of the minimum, the maximum and
/// the first missing (NaN) value, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Extremes {
    pub min: Option<usize>,
    pub max: Option<usize>,
    pub first_nan: Option<usize>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct MinMaxIndex {
    /// `levels[0]` summarises [`BLOCK`] samples per entry, `levels[k]`
    /// [`BLOCK`] entries of `levels[k - 1]`.
    levels: Vec<Vec<Block>>,
    len: usize,
}

/// Picks the better of two positions: the smaller (or larger) value, the
/// earlier position on ties.
#[inline]
fn better(values: &[f64], a: u32, b: u32, want_min: bool) -> u32 {
    if a == NONE {
        return b;
    }
    if b == NONE {
        return a;
    }
    let (va, vb) = (values[a as usize], values[b as usize]);
    let b_wins = if want_min { vb < va } else { vb > va };
    if b_wins || (vb == va && b < a) { b } else { a }
}

#[inline]
fn merge(values: &[f64], acc: Block, other: Block) -> Block {
    Block {
        min: better(values, acc.min, other.min, true),
        max: better(values, acc.max, other.max, false),
        nan: acc.nan.min(other.nan),
    }
}

/// The block of raw samples `lo..hi`.
#[inline]
fn scan_raw(values: &[f64], lo: usize, hi: usize) -> Block {
    let mut b = EMPTY;
    let (mut min_v, mut max_v) = (f64::INFINITY, f64::NEG_INFINITY);
    for (i, &v) in values[lo..hi].iter().enumerate() {
        let i = (lo + i) as u32;
        if v.is_nan() {
            if b.nan == NONE {
                b.nan = i;
            }
            continue;
        }
        // Strict comparisons keep the first occurrence; the NONE checks
        // take infinities too.
        if v < min_v || b.min == NONE {
            min_v = v;
            b.min = i;
        }
        if v > max_v || b.max == NONE {
            max_v = v;
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
                .map(|c| c.iter().fold(EMPTY, |acc, b| merge(values, acc, *b)))
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
    /// built from.
    pub fn extremes(&self, values: &[f64], lo: usize, hi: usize) -> Extremes {
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
            acc = merge(values, acc, scan_raw(values, lo, blo * BLOCK));
            acc = merge(values, acc, scan_raw(values, bhi * BLOCK, hi));
            // Whole blocks, level by level: the ragged ends of each level
            // are read there, the middle one level up.
            for level in 0..self.levels.len() {
                let entries = &self.levels[level];
                let (ulo, uhi) = (blo.div_ceil(BLOCK), bhi / BLOCK);
                let last = level + 1 == self.levels.len();
                if ulo >= uhi || last {
                    for b in &entries[blo..bhi] {
                        acc = merge(values, acc, *b);
                    }
                    break;
                }
                for b in entries[blo..ulo * BLOCK]
                    .iter()
                    .chain(&entries[uhi * BLOCK..bhi])
                {
                    acc = merge(values, acc, *b);
                }
                (blo, bhi) = (ulo, uhi);
            }
        }
        let some = |i: u32| (i != NONE).then_some(i as usize);
        Extremes {
            min: some(acc.min),
            max: some(acc.max),
            first_nan: some(acc.nan),
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

/// The time range `t0..=t1` split into `columns` equal columns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColumnGrid {
    pub t0: f64,
    pub t1: f64,
    pub columns: usize,
}

impl ColumnGrid {
    /// The first sample index of each column boundary, plus the samples just
    /// outside the range (so lines run on to the plot's edges).
    fn boundaries(&self, times: &[i64]) -> Vec<usize> {
        let columns = self.columns.max(1);
        let width = (self.t1 - self.t0) / columns as f64;
        let mut b = Vec::with_capacity(columns + 1);
        let mut from = 0;
        for c in 0..=columns {
            let edge = if c == columns {
                // Inclusive end: `t < next_up(t1)` is `t <= t1`.
                self.t1.next_up()
            } else {
                self.t0 + width * c as f64
            };
            from += times[from..].partition_point(|t| (*t as f64) < edge);
            b.push(from);
        }
        b
    }
}

/// M4 of one channel over a grid: positions into `times`/`values` of the
/// points to draw, in time order. `times` must be sorted.
pub fn m4_indices(
    times: &[i64],
    values: &[f64],
    index: &MinMaxIndex,
    grid: ColumnGrid,
) -> Vec<usize> {
    let n = times.len().min(values.len()).min(index.len());
    let times = &times[..n];
    let ordered = grid.t0 <= grid.t1; // false for NaN too
    if n == 0 || !ordered {
        return Vec::new();
    }
    let bounds = grid.boundaries(times);
    let mut out = Vec::with_capacity(grid.columns * 4 + 2);
    // The sample just before the range, so the line enters from the edge.
    if bounds[0] > 0 {
        out.push(bounds[0] - 1);
    }
    for w in bounds.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        if lo < hi {
            column_points(index.extremes(values, lo, hi), lo, hi, &mut out);
        }
    }
    if let Some(&end) = bounds.last()
        && end < n
    {
        out.push(end);
    }
    out
}

/// M4 as plot points `[time, value]`; a missing value stays NaN (a break).
pub fn m4_points(
    times: &[i64],
    values: &[f64],
    index: &MinMaxIndex,
    grid: ColumnGrid,
) -> Vec<[f64; 2]> {
    m4_indices(times, values, index, grid)
        .into_iter()
        .map(|i| [times[i] as f64, values[i]])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The reference: every sample of every column looked at.
    fn full_scan(times: &[i64], values: &[f64], grid: ColumnGrid) -> Vec<usize> {
        let n = times.len().min(values.len());
        let ordered = grid.t0 <= grid.t1;
        if n == 0 || !ordered {
            return Vec::new();
        }
        let columns = grid.columns.max(1);
        let width = (grid.t1 - grid.t0) / columns as f64;
        let column_of = |t: f64| -> Option<usize> {
            if t < grid.t0 || t > grid.t1 {
                return None;
            }
            let mut c = columns - 1;
            // The same edges as the index: `t0 + width * c`.
            for k in 1..columns {
                if t < grid.t0 + width * k as f64 {
                    c = k - 1;
                    break;
                }
            }
            Some(c)
        };
        let mut out = Vec::new();
        let first_in = (0..n).find(|i| column_of(times[*i] as f64).is_some());
        let last_in = (0..n).rev().find(|i| column_of(times[*i] as f64).is_some());
        let (Some(first_in), Some(last_in)) = (first_in, last_in) else {
            // Nothing inside: the neighbours on either side.
            let before = (0..n).rev().find(|i| (times[*i] as f64) < grid.t0);
            let after = (0..n).find(|i| (times[*i] as f64) > grid.t1);
            return before.into_iter().chain(after).collect();
        };
        if first_in > 0 {
            out.push(first_in - 1);
        }
        let mut i = first_in;
        while i <= last_in {
            let c = column_of(times[i] as f64);
            let mut j = i;
            while j <= last_in && column_of(times[j] as f64) == c {
                j += 1;
            }
            let (mut min, mut max, mut nan) = (None::<usize>, None::<usize>, None::<usize>);
            for k in i..j {
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
            let mut p: Vec<usize> = [Some(i), min, max, nan, Some(j - 1)]
                .into_iter()
                .flatten()
                .collect();
            p.sort_unstable();
            p.dedup();
            out.extend(p);
            i = j;
        }
        if last_in + 1 < n {
            out.push(last_in + 1);
        }
        out
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
    fn a_whole_year_query_is_identical_to_a_full_scan() {
        // Three levels deep: 300k samples.
        let (times, values) = ramp(300_000);
        let index = MinMaxIndex::build(&values).expect("index");
        for grid in [
            ColumnGrid {
                t0: 0.0,
                t1: 299_999.0,
                columns: 1920,
            },
            ColumnGrid {
                t0: 12_345.5,
                t1: 250_000.0,
                columns: 777,
            },
            ColumnGrid {
                t0: 1000.0,
                t1: 1010.0,
                columns: 1920,
            },
        ] {
            let got = m4_indices(&times, &values, &index, grid);
            assert_eq!(got, full_scan(&times, &values, grid), "{grid:?}");
            assert!(got.len() <= grid.columns * 5 + 2);
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
        let grid = ColumnGrid {
            t0: 0.0,
            t1: 999.0,
            columns: 10,
        };
        let pts = m4_points(&times, &values, &index, grid);
        assert_eq!(pts.first().map(|p| p[0]), Some(0.0));
        assert_eq!(pts.last().map(|p| p[0]), Some(999.0));
        // The gap shows as a NaN at its first sample.
        assert!(pts.iter().any(|p| p[0] == 400.0 && p[1].is_nan()));
        assert!(pts.len() <= 10 * 5);
    }

    #[test]
    fn neighbours_outside_the_view_are_kept_so_lines_reach_the_edges() {
        let times: Vec<i64> = (0..100).map(|i| i * 10).collect();
        let values: Vec<f64> = (0..100).map(f64::from).collect();
        let index = MinMaxIndex::build(&values).expect("index");
        let grid = ColumnGrid {
            t0: 105.0,
            t1: 195.0,
            columns: 4,
        };
        let got = m4_indices(&times, &values, &index, grid);
        assert_eq!(got.first(), Some(&10)); // time 100, before the view
        assert_eq!(got.last(), Some(&20)); // time 200, after it
        // A view between two samples still joins them.
        let grid = ColumnGrid {
            t0: 101.0,
            t1: 109.0,
            columns: 4,
        };
        assert_eq!(m4_indices(&times, &values, &index, grid), vec![10, 11]);
    }

    #[test]
    fn empty_and_odd_inputs_do_not_panic() {
        let index = MinMaxIndex::build(&[]).expect("index");
        let g = ColumnGrid {
            t0: 0.0,
            t1: 1.0,
            columns: 0,
        };
        assert!(m4_indices(&[], &[], &index, g).is_empty());
        let values = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1.0];
        let index = MinMaxIndex::build(&values).expect("index");
        let e = index.extremes(&values, 0, 4);
        assert_eq!((e.min, e.max, e.first_nan), (Some(2), Some(1), Some(0)));
        let g = ColumnGrid {
            t0: f64::NAN,
            t1: 1.0,
            columns: 10,
        };
        assert!(m4_indices(&[0, 1, 2, 3], &values, &index, g).is_empty());
    }

    #[test]
    fn the_index_is_small() {
        let values = vec![1.0; 1_000_000];
        let index = MinMaxIndex::build(&values).expect("index");
        // Well under 15 % of the 8 MB of values.
        assert!(index.size_bytes() * 100 < 8_000_000 * 3);
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
            span in 0.0f64..5000.0,
            columns in 1usize..400,
        ) {
            let n = raw.len().min(steps.len());
            let values = &raw[..n];
            // Sorted times with duplicates (steps of 0).
            let mut t = 0;
            let times: Vec<i64> = steps[..n].iter().map(|s| { t += s; t }).collect();
            let index = MinMaxIndex::build(values).expect("index");
            let grid = ColumnGrid { t0: a, t1: a + span, columns };
            prop_assert_eq!(
                m4_indices(&times, values, &index, grid),
                full_scan(&times, values, grid)
            );
        }
    }
}
