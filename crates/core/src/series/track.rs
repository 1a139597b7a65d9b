//! A machine's track, ready for a map at any zoom.
//!
//! Positions are projected once to Web Mercator (`x`, `y` in 0..1, `y` down,
//! as map tiles are). Douglas-Peucker is run once over each piece of the
//! track (a [`TrackPiece`] is built as soon as its positions are decoded,
//! while the next ones download) to give each point an *importance*: the
//! tolerance up to which it is still needed. The points of a zoom level
//! are those more important than half a pixel there; they are listed once
//! per zoom, when first asked for, in blocks with bounding boxes so a frame
//! only walks the blocks in view.

use std::sync::OnceLock;

use fleetview_api::geo::{LatLon, MercRect, haversine_m, mercator};

/// Deepest zoom level with its own simplification (walkers goes to ~20).
pub(crate) const MAX_ZOOM: usize = 24;
/// Tile size the zoom levels are counted in.
const TILE_PX: f64 = 256.0;
/// How far a simplified line may stray, in screen points.
const TOLERANCE_PX: f64 = 0.5;
/// Points per culling block.
const CULL_BLOCK: usize = 256;
/// Douglas-Peucker runs on pieces this long, which bounds its worst case.
const DP_PIECE: usize = 4096;

/// One sample of the track, as given. 40 bytes: a year of 1 Hz positions
/// is held on the page, so speed, heading and altitude are kept as `f32`
/// (seven significant digits, more than any sensor gives) with NaN for a
/// value not given, and read back as the shortest decimal that the `f32`
/// stands for (12.3, not 12.300000190734863). See docs/decisions.md.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrackSample {
    pub time: i64,
    pub lat: f64,
    pub lon: f64,
    /// Given, or (in a track, with `speed_derived`) from the leg to the
    /// next sample.
    speed_kmh: f32,
    heading_deg: f32,
    altitude_m: f32,
    speed_derived: bool,
    /// The milliseconds into `time`'s second the service gave (exports
    /// write them).
    pub(crate) subsec_ms: u16,
}

/// A value given, stored as `f32` (NaN: not given).
fn stored(v: Option<f64>) -> f32 {
    v.map_or(f32::NAN, |v| if v.is_nan() { f32::NAN } else { v as f32 })
}

/// The value stored, as the shortest decimal the `f32` stands for.
fn given(v: f32) -> Option<f64> {
    if v.is_nan() {
        None
    } else if v.is_finite() {
        // The shortest decimal that reads back as this f32 (Display's),
        // as an f64: what was sent, to seven significant digits.
        v.to_string().parse().ok()
    } else {
        Some(f64::from(v))
    }
}

impl TrackSample {
    /// A position at a time, with nothing else known.
    pub fn at(time: i64, lat: f64, lon: f64) -> Self {
        Self {
            time,
            lat,
            lon,
            speed_kmh: f32::NAN,
            heading_deg: f32::NAN,
            altitude_m: f32::NAN,
            speed_derived: false,
            subsec_ms: 0,
        }
    }

    #[must_use]
    pub fn with_speed_kmh(self, v: Option<f64>) -> Self {
        Self {
            speed_kmh: stored(v),
            speed_derived: false,
            ..self
        }
    }

    #[must_use]
    pub fn with_heading_deg(self, v: Option<f64>) -> Self {
        Self {
            heading_deg: stored(v),
            ..self
        }
    }

    #[must_use]
    pub fn with_altitude_m(self, v: Option<f64>) -> Self {
        Self {
            altitude_m: stored(v),
            ..self
        }
    }

    /// The speed given, km/h.
    pub fn speed_kmh(&self) -> Option<f64> {
        if self.speed_derived {
            None
        } else {
            given(self.speed_kmh)
        }
    }

    /// The heading given, degrees.
    pub fn heading_deg(&self) -> Option<f64> {
        given(self.heading_deg)
    }

    /// The altitude given, metres.
    pub fn altitude_m(&self) -> Option<f64> {
        given(self.altitude_m)
    }
}

impl From<&fleetview_api::model::PositionRow> for TrackSample {
    fn from(r: &fleetview_api::model::PositionRow) -> Self {
        Self {
            subsec_ms: r.date.subsec_millis(),
            ..Self::at(r.date.0, r.latitude, r.longitude)
        }
        .with_speed_kmh(r.speed)
        .with_heading_deg(r.heading)
        .with_altitude_m(r.altitude)
    }
}

/// A segment to draw: two sample positions, and the mean speed of the
/// samples it stands for (km/h, NaN when none is known).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub a: u32,
    pub b: u32,
    pub speed_kmh: f32,
}

/// A point of the track's line: on the leg from sample `leg` to the next,
/// `fraction` of the way along it (0 at sample `leg`, 1 at the next).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrackPoint {
    pub leg: usize,
    pub fraction: f64,
    /// Where it is, in Mercator units.
    pub xy: [f64; 2],
    /// How far it is from the point it was picked for, in Mercator units.
    pub distance: f64,
}

impl TrackPoint {
    /// The sample it is at, if it is at one of its leg's ends.
    pub fn sample(&self) -> Option<usize> {
        match self.fraction {
            f if f <= 0.0 => Some(self.leg),
            f if f >= 1.0 => Some(self.leg + 1),
            _ => None,
        }
    }

    /// The same point moved onto sample `i` (one of its leg's ends).
    pub fn at_sample(self, i: usize, xy: [f64; 2]) -> Self {
        Self {
            fraction: if i == self.leg { 0.0 } else { 1.0 },
            xy,
            ..self
        }
    }
}

/// The points of one zoom level, in time order, in culling blocks.
#[derive(Debug, Default)]
struct Level {
    points: Vec<u32>,
    /// Per segment `points[k]..points[k + 1]`: its samples' mean speed.
    speeds: Vec<f32>,
    /// Bounding box of `points[k * CULL_BLOCK ..= (k + 1) * CULL_BLOCK]`
    /// (each block shares its last point with the next one).
    boxes: Vec<MercRect>,
}

#[derive(Debug, Default)]
pub struct Track {
    pub samples: Vec<TrackSample>,
    /// Projected positions, one per sample.
    pub xy: Vec<[f64; 2]>,
    pub bounds: MercRect,
    /// The speed most of the track stays under, for the colour scale.
    pub speed_scale_kmh: f32,
    /// Each point's importance (see [`importance`]), as `f32`: half the
    /// memory, and a rounding far below a pixel at any zoom.
    importance: Vec<f32>,
    levels: Vec<OnceLock<Level>>,
}

/// A stretch of a track with its projection and simplification done: the
/// costly part of building a track, done piece by piece as the positions
/// arrive, so only [`Track::join`] waits for the last piece.
#[derive(Debug, Default)]
pub struct TrackPiece {
    samples: Vec<TrackSample>,
    xy: Vec<[f64; 2]>,
    importance: Vec<f32>,
}

impl TrackPiece {
    /// Samples in any order; those without a finite position are left out.
    /// The piece's ends are kept at every zoom, as a whole track's are.
    pub(crate) fn new(mut samples: Vec<TrackSample>) -> Self {
        samples.retain(|s| mercator(s.lat, s.lon).is_some());
        if !samples.is_sorted_by_key(|s| s.time) {
            samples.sort_by_key(|s| s.time);
        }
        let xy: Vec<[f64; 2]> = samples
            .iter()
            .filter_map(|s| mercator(s.lat, s.lon))
            .collect();
        let importance = importance(&xy).into_iter().map(|v| v as f32).collect();
        Self {
            samples,
            xy,
            importance,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.samples.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    fn first_time(&self) -> Option<i64> {
        self.samples.first().map(|s| s.time)
    }

    fn last_time(&self) -> Option<i64> {
        self.samples.last().map(|s| s.time)
    }
}

impl Track {
    /// Builds a track from samples in any order; samples without a finite
    /// position are left out.
    pub fn new(samples: Vec<TrackSample>) -> Self {
        Self::join(vec![TrackPiece::new(samples)])
    }

    /// Joins pieces into one track. Pieces that follow one another in time
    /// (a window's chunks) are only put end to end; pieces that overlap are
    /// built again as one.
    pub(crate) fn join(mut pieces: Vec<TrackPiece>) -> Self {
        pieces.retain(|p| !p.is_empty());
        pieces.sort_by_key(TrackPiece::first_time);
        let in_order = pieces
            .windows(2)
            .all(|w| w[0].last_time() <= w[1].first_time());
        if !in_order {
            let samples = pieces.into_iter().flat_map(|p| p.samples).collect();
            pieces = vec![TrackPiece::new(samples)];
        }
        // Joined at their exact size: held as long as the page is.
        let n = pieces.iter().map(TrackPiece::len).sum();
        let mut samples = Vec::with_capacity(n);
        let mut xy = Vec::with_capacity(n);
        let mut importance = Vec::with_capacity(n);
        for p in pieces {
            samples.extend(p.samples);
            xy.extend(p.xy);
            importance.extend(p.importance);
        }
        let mut bounds = MercRect::EMPTY;
        for p in &xy {
            bounds.extend(*p);
        }
        // Kept in the samples (a flag says which were derived): a column
        // of its own cost 4 bytes a position.
        let speed_kmh = derive_speeds(&samples);
        for (s, v) in samples.iter_mut().zip(&speed_kmh) {
            if !s.speed_kmh.is_finite() {
                s.speed_kmh = *v;
                s.speed_derived = true;
            }
        }
        let speed_scale_kmh = speed_scale(&speed_kmh);
        Self {
            samples,
            xy,
            bounds,
            speed_scale_kmh,
            importance,
            levels: (0..=MAX_ZOOM).map(|_| OnceLock::new()).collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Sample `i`'s speed (reported, else derived from the next leg),
    /// km/h; NaN when none is known.
    pub fn speed_kmh(&self, i: usize) -> f32 {
        self.samples.get(i).map_or(f32::NAN, |s| s.speed_kmh)
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The tolerance of zoom level `z`, in Mercator units.
    fn tolerance(z: usize) -> f64 {
        TOLERANCE_PX / (TILE_PX * 2f64.powi(z as i32))
    }

    fn level(&self, z: usize) -> &Level {
        let z = z.min(MAX_ZOOM);
        self.levels[z].get_or_init(|| {
            let tol = Self::tolerance(z);
            let points: Vec<u32> = (0..self.xy.len() as u32)
                .filter(|i| f64::from(self.importance[*i as usize]) > tol)
                .collect();
            let boxes = points
                .chunks(CULL_BLOCK)
                .enumerate()
                .map(|(k, _)| {
                    let end = ((k + 1) * CULL_BLOCK).min(points.len() - 1);
                    let mut r = MercRect::EMPTY;
                    for i in &points[k * CULL_BLOCK..=end] {
                        r.extend(self.xy[*i as usize]);
                    }
                    r
                })
                .collect();
            let speeds = points
                .windows(2)
                .map(|w| mean_speed(&self.samples[w[0] as usize..w[1] as usize]))
                .collect();
            Level {
                points,
                speeds,
                boxes,
            }
        })
    }

    /// How many points zoom level `z` keeps.
    pub fn level_len(&self, z: usize) -> usize {
        self.level(z).points.len()
    }

    /// The segments to draw for a view, as pairs of sample positions in time
    /// order: those of the finest level at or below `zoom` whose segments in
    /// `view` number at most `max_segments` (a dense view falls back to a
    /// coarser level, so a frame stays bounded at any zoom).
    pub fn visible_segments(
        &self,
        view: &MercRect,
        zoom: f64,
        max_segments: usize,
        out: &mut Vec<Segment>,
    ) {
        out.clear();
        if self.xy.len() < 2 {
            return;
        }
        // One level finer than the zoom, so fractional zooms stay within
        // tolerance.
        let mut z = (zoom.max(0.0).ceil() as usize).min(MAX_ZOOM);
        loop {
            out.clear();
            let level = self.level(z);
            for (k, b) in level.boxes.iter().enumerate() {
                if !b.intersects(view) {
                    continue;
                }
                let end = ((k + 1) * CULL_BLOCK).min(level.points.len() - 1);
                out.extend((k * CULL_BLOCK..end).map(|j| Segment {
                    a: level.points[j],
                    b: level.points[j + 1],
                    speed_kmh: level.speeds[j],
                }));
                if out.len() > max_segments {
                    break;
                }
            }
            if out.len() <= max_segments || z == 0 {
                out.truncate(max_segments);
                return;
            }
            z -= 1;
        }
    }

    /// The point of the line nearest to `p` (Mercator) among the segments
    /// given, looking at the legs between the original samples each segment
    /// stands for: a pointer between two sparse positions finds the line
    /// there, not only the positions.
    pub fn pick(&self, p: [f64; 2], segments: &[Segment]) -> Option<TrackPoint> {
        if self.xy.len() == 1 {
            return Some(TrackPoint {
                leg: 0,
                fraction: 0.0,
                xy: self.xy[0],
                distance: dist2(p, self.xy[0]).sqrt(),
            });
        }
        // The nearest segment first, then its legs.
        let s = segments.iter().min_by(|x, y| {
            let dx = seg_dist2(p, self.xy[x.a as usize], self.xy[x.b as usize]);
            let dy = seg_dist2(p, self.xy[y.a as usize], self.xy[y.b as usize]);
            dx.total_cmp(&dy)
        })?;
        let last = self.xy.len() - 1;
        let (a, b) = ((s.a as usize).min(last), (s.b as usize).min(last));
        (a.min(b)..a.max(b).max(a + 1).min(last))
            .map(|k| {
                let (fraction, xy) = project(p, self.xy[k], self.xy[k + 1]);
                TrackPoint {
                    leg: k,
                    fraction,
                    xy,
                    distance: dist2(p, xy).sqrt(),
                }
            })
            .min_by(|x, y| x.distance.total_cmp(&y.distance))
    }

    /// When the machine was at a point of the line: interpolated along its
    /// leg.
    pub fn time_at(&self, point: &TrackPoint) -> i64 {
        let t0 = self.samples[point.leg].time;
        let Some(next) = self.samples.get(point.leg + 1) else {
            return t0;
        };
        t0 + ((next.time - t0) as f64 * point.fraction.clamp(0.0, 1.0)).round() as i64
    }

    /// Where the machine was at `time`: interpolated between the samples
    /// around it, the first or last one outside the track's time span.
    pub fn position_at(&self, time: i64) -> Option<[f64; 2]> {
        let n = self.samples.len();
        if n == 0 {
            return None;
        }
        let k = self.samples.partition_point(|s| s.time <= time);
        if k == 0 {
            return Some(self.xy[0]);
        }
        if k == n {
            return Some(self.xy[n - 1]);
        }
        let (s0, s1) = (&self.samples[k - 1], &self.samples[k]);
        let span = (s1.time - s0.time) as f64;
        let f = if span > 0.0 {
            (time - s0.time) as f64 / span
        } else {
            0.0
        };
        let (a, b) = (self.xy[k - 1], self.xy[k]);
        Some([a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f])
    }

    /// The index range of samples with `since <= time <= until`.
    pub fn range_of(&self, since: i64, until: i64) -> std::ops::Range<usize> {
        let lo = self.samples.partition_point(|s| s.time < since);
        let hi = self.samples.partition_point(|s| s.time <= until);
        lo..hi.max(lo)
    }
}

/// The highest speed most of a track stays under (95th percentile): the
/// top of its colour scale, so one outlier does not wash the rest out.
fn speed_scale(speeds: &[f32]) -> f32 {
    let mut v: Vec<f32> = speeds.iter().copied().filter(|s| s.is_finite()).collect();
    if v.is_empty() {
        return 0.0;
    }
    let k = (v.len() - 1) * 95 / 100;
    let (_, p95, _) = v.select_nth_unstable_by(k, f32::total_cmp);
    *p95
}

/// The mean of the samples' known speeds, NaN when there is none.
fn mean_speed(samples: &[TrackSample]) -> f32 {
    let (sum, n) = samples
        .iter()
        .map(|s| s.speed_kmh)
        .filter(|v| v.is_finite())
        .fold((0.0f64, 0u32), |(s, n), v| (s + f64::from(v), n + 1));
    if n == 0 {
        f32::NAN
    } else {
        (sum / f64::from(n)) as f32
    }
}

/// Reported speeds, or the speed of the leg to the next sample.
fn derive_speeds(samples: &[TrackSample]) -> Vec<f32> {
    (0..samples.len())
        .map(|i| {
            let s = &samples[i];
            if s.speed_kmh.is_finite() {
                return s.speed_kmh;
            }
            let Some(next) = samples.get(i + 1) else {
                return i
                    .checked_sub(1)
                    .map_or(f32::NAN, |p| leg_speed(&samples[p], s));
            };
            leg_speed(s, next)
        })
        .collect()
}

fn leg_speed(a: &TrackSample, b: &TrackSample) -> f32 {
    let dt = (b.time - a.time) as f64;
    if dt <= 0.0 {
        return f32::NAN;
    }
    (haversine_m(LatLon::new(a.lat, a.lon), LatLon::new(b.lat, b.lon)) / dt * 3.6) as f32
}

fn dist2(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    dx * dx + dy * dy
}

/// The point of the segment `a`-`b` nearest to `p`: how far along it
/// (0..=1) and where.
fn project(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> (f64, [f64; 2]) {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    if len2 <= 0.0 {
        return (0.0, a);
    }
    let t = (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0);
    (t, [a[0] + t * dx, a[1] + t * dy])
}

/// Squared distance from `p` to the segment `a`-`b`.
fn seg_dist2(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    dist2(p, project(p, a, b).1)
}

/// Douglas-Peucker importance of every point: the largest tolerance at which
/// it is still kept. A child is never more important than its parent, so the
/// levels nest. Piece ends are always kept.
fn importance(xy: &[[f64; 2]]) -> Vec<f64> {
    let n = xy.len();
    let mut imp = vec![0.0; n];
    if n == 0 {
        return imp;
    }
    let mut stack: Vec<(usize, usize, f64)> = Vec::new();
    let mut start = 0;
    while start < n - 1 {
        let end = (start + DP_PIECE).min(n - 1);
        imp[start] = f64::INFINITY;
        imp[end] = f64::INFINITY;
        stack.push((start, end, f64::INFINITY));
        while let Some((a, b, parent)) = stack.pop() {
            if b <= a + 1 {
                continue;
            }
            let (mut best, mut best_d2) = (a + 1, -1.0);
            for (k, p) in xy.iter().enumerate().take(b).skip(a + 1) {
                let d2 = seg_dist2(*p, xy[a], xy[b]);
                if d2 > best_d2 {
                    best_d2 = d2;
                    best = k;
                }
            }
            let d = best_d2.sqrt().min(parent);
            if d <= 0.0 {
                // Every point left here is worth 0 (a child is never worth
                // more than its parent), as they already are: a machine
                // standing still reports the same place thousands of times,
                // which otherwise costs a pass per point.
                continue;
            }
            imp[best] = d;
            stack.push((a, best, d));
            stack.push((best, b, d));
        }
        start = end;
    }
    if n == 1 {
        imp[0] = f64::INFINITY;
    }
    imp
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::geo::unmercator;

    fn sample(time: i64, lat: f64, lon: f64) -> TrackSample {
        TrackSample::at(time, lat, lon)
    }

    /// A wiggly drive of `n` samples around Lyon.
    fn drive_samples(n: usize) -> Vec<TrackSample> {
        (0..n)
            .map(|i| {
                let t = i as f64;
                sample(
                    i as i64 * 10,
                    45.75 + 0.0001 * t.sqrt() * (t / 50.0).sin(),
                    4.85 + 0.00002 * t + 0.0003 * (t / 7.0).cos(),
                )
            })
            .collect()
    }

    fn drive(n: usize) -> Track {
        Track::new(drive_samples(n))
    }

    /// The same drive in pieces of `cuts` (as a window's chunks arrive),
    /// each built on its own, then joined.
    fn drive_in_pieces(n: usize, cuts: &[usize]) -> Track {
        let mut samples = drive_samples(n);
        let mut pieces = Vec::new();
        for cut in cuts.iter().rev() {
            pieces.push(TrackPiece::new(samples.split_off(*cut)));
        }
        pieces.push(TrackPiece::new(samples));
        // In any order, as the decodings end.
        pieces.reverse();
        pieces.swap(0, 1);
        Track::join(pieces)
    }

    /// The samples bit for bit (a value not given is NaN, never equal).
    fn same_samples(a: &Track, b: &Track) -> bool {
        let bits = |t: &Track| -> Vec<_> {
            t.samples
                .iter()
                .map(|s| {
                    (
                        s.time,
                        s.lat.to_bits(),
                        s.lon.to_bits(),
                        s.speed_kmh.to_bits(),
                    )
                })
                .collect()
        };
        bits(a) == bits(b)
    }

    /// Every point a level of `t` leaves out is within its tolerance of
    /// the line drawn in its place.
    fn assert_within_half_a_pixel(t: &Track, z: usize) {
        let tol = Track::tolerance(z);
        for w in t.level(z).points.windows(2) {
            let (a, b) = (w[0] as usize, w[1] as usize);
            for i in a..=b {
                let d = seg_dist2(t.xy[i], t.xy[a], t.xy[b]).sqrt();
                assert!(d <= tol * 1.000_001, "zoom {z}: point {i} strays {d}");
            }
        }
    }

    #[test]
    fn pieces_joined_make_the_track_built_whole() {
        let whole = drive(12_000);
        let joined = drive_in_pieces(12_000, &[3_000, 7_500]);
        assert!(same_samples(&joined, &whole));
        assert_eq!(joined.xy, whole.xy);
        assert_eq!(joined.bounds, whole.bounds);
        assert_eq!(joined.speed_scale_kmh, whole.speed_scale_kmh);
        // Each piece's ends are kept at every zoom, as the track's are; the
        // simplification stays within half a pixel across the joins.
        for z in 0..=MAX_ZOOM {
            let level = joined.level(z);
            for end in [0, 2_999, 3_000, 7_499, 7_500, 11_999] {
                assert!(level.points.contains(&end), "zoom {z} drops {end}");
            }
            assert_within_half_a_pixel(&joined, z);
        }
        // Only the joins' points are added to what the whole track keeps.
        assert!(joined.level_len(5) <= whole.level_len(5) + 4);
    }

    #[test]
    fn a_speed_left_out_is_derived_across_a_join() {
        let (a, b) = (sample(0, 45.0, 4.0), sample(60, 45.01, 4.0));
        let joined = Track::join(vec![
            TrackPiece::new(vec![b]),
            TrackPiece::new(Vec::new()),
            TrackPiece::new(vec![a]),
        ]);
        assert_eq!(joined.len(), 2);
        // The first piece's last sample takes the leg to the next piece's
        // first: 1.11 km in a minute.
        assert!(
            (joined.speed_kmh(0) - 66.7).abs() < 0.1,
            "{}",
            joined.speed_kmh(0)
        );
    }

    #[test]
    fn pieces_that_overlap_are_built_again_as_one() {
        let all = drive_samples(2_000);
        let (odd, even): (Vec<_>, Vec<_>) = all.iter().partition(|s| s.time % 20 == 10);
        let joined = Track::join(vec![TrackPiece::new(odd), TrackPiece::new(even)]);
        let whole = Track::new(all);
        assert!(same_samples(&joined, &whole));
        assert_eq!(joined.importance, whole.importance);
    }

    /// The simplification's weights as first written: every split followed
    /// down, whatever its worth.
    fn importance_followed_down(xy: &[[f64; 2]]) -> Vec<f64> {
        let n = xy.len();
        let mut imp = vec![0.0; n];
        let mut start = 0;
        while n > 1 && start < n - 1 {
            let end = (start + DP_PIECE).min(n - 1);
            imp[start] = f64::INFINITY;
            imp[end] = f64::INFINITY;
            let mut stack = vec![(start, end, f64::INFINITY)];
            while let Some((a, b, parent)) = stack.pop() {
                if b <= a + 1 {
                    continue;
                }
                let (mut best, mut best_d2) = (a + 1, -1.0);
                for k in a + 1..b {
                    let d2 = seg_dist2(xy[k], xy[a], xy[b]);
                    if d2 > best_d2 {
                        (best, best_d2) = (k, d2);
                    }
                }
                let d = best_d2.sqrt().min(parent);
                imp[best] = d;
                stack.push((a, best, d));
                stack.push((best, b, d));
            }
            start = end;
        }
        if n == 1 {
            imp[0] = f64::INFINITY;
        }
        imp
    }

    proptest::proptest! {
        #[test]
        fn standing_still_costs_nothing_and_changes_no_weight(
            moves in proptest::collection::vec((0u8..4, -50i32..50, -50i32..50, 1usize..400), 1..30)
        ) {
            // Drives and stops (one place reported again and again, or
            // back and forth along one line), up to thousands of points.
            let mut xy = Vec::new();
            let mut at = [0.5f64, 0.5f64];
            for (how, dx, dy, n) in moves {
                for i in 0..n {
                    match how {
                        0 => {}
                        1 => at = [at[0] + f64::from(dx) * 1e-7, at[1] + f64::from(dy) * 1e-7],
                        2 => {
                            let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
                            at = [at[0] + sign * f64::from(dx) * 1e-7, at[1]];
                        }
                        _ => at = [at[0] + (i as f64).sin() * 1e-7, at[1] + f64::from(dy) * 1e-8],
                    }
                    xy.push(at);
                }
            }
            proptest::prop_assert_eq!(importance(&xy), importance_followed_down(&xy));
        }
    }

    #[test]
    fn levels_nest_and_keep_the_ends() {
        let t = drive(20_000);
        let mut last = 0;
        for z in 0..=MAX_ZOOM {
            let n = t.level_len(z);
            assert!(n >= last, "zoom {z} keeps fewer points than {}", z - 1);
            last = n;
            let level = t.level(z);
            assert_eq!(level.points.first(), Some(&0));
            assert_eq!(level.points.last(), Some(&19_999));
        }
        assert!(t.level_len(5) < 100);
        // The finest level keeps nearly everything (only points within
        // millimetres of their neighbours' line go).
        assert!(t.level_len(MAX_ZOOM) > 19_000);
    }

    #[test]
    fn a_simplified_level_stays_within_half_a_pixel() {
        let t = drive(5_000);
        for z in [8usize, 12, 16] {
            assert_within_half_a_pixel(&t, z);
        }
    }

    #[test]
    fn culling_and_the_segment_budget() {
        let t = drive(100_000);
        let mut segs = Vec::new();
        let all = MercRect {
            min: [0.0, 0.0],
            max: [1.0, 1.0],
        };
        t.visible_segments(&all, 22.0, 1_000_000, &mut segs);
        assert_eq!(segs.len(), t.level_len(22) - 1);
        // A budget makes a coarser level serve.
        t.visible_segments(&all, 22.0, 500, &mut segs);
        assert!(segs.len() <= 500 && !segs.is_empty());
        // A view away from the track shows nothing.
        let away = MercRect {
            min: [0.1, 0.1],
            max: [0.2, 0.2],
        };
        t.visible_segments(&away, 18.0, 1_000_000, &mut segs);
        assert!(segs.is_empty());
    }

    #[test]
    fn nearest_and_position_at() {
        let t = Track::new(vec![
            sample(100, 45.0, 4.0),
            sample(0, 45.0, 3.0), // out of order: sorted
            sample(200, f64::NAN, 4.0),
            sample(300, 46.0, 4.0),
        ]);
        assert_eq!(t.len(), 3);
        assert_eq!(t.samples[0].time, 0);
        let mid = t.position_at(50).expect("inside");
        let (lat, lon) = unmercator(mid);
        assert!((lat - 45.0).abs() < 0.01 && (lon - 3.5).abs() < 1e-9);
        assert_eq!(t.position_at(-10), Some(t.xy[0]));
        assert_eq!(t.position_at(1000), Some(t.xy[2]));
        let seg = |a, b| Segment {
            a,
            b,
            speed_kmh: f32::NAN,
        };
        let segs = vec![seg(0, 1), seg(1, 2)];
        let p = mercator(45.9, 4.01).expect("finite");
        let near = t.pick(p, &segs).expect("a point");
        assert_eq!(near.leg, 1);
        assert!(near.fraction > 0.85 && near.fraction < 1.0, "{near:?}");
        assert_eq!(t.range_of(50, 300), 1..3);
        assert!(Track::new(Vec::new()).position_at(0).is_none());
    }

    #[test]
    fn picking_between_sparse_positions_finds_the_line_and_its_time() {
        // Two positions an hour apart, 11 km apart: the middle of the line
        // is half an hour in.
        let t = Track::new(vec![
            sample(0, 45.0, 4.0),
            sample(3600, 45.1, 4.0),
            sample(3660, 45.1, 4.001),
        ]);
        let seg = |a, b| Segment {
            a,
            b,
            speed_kmh: f32::NAN,
        };
        // Simplified into one segment standing for both legs.
        let segs = vec![seg(0, 2)];
        let mid = mercator(45.05, 4.0).expect("finite");
        let p = t.pick(mid, &segs).expect("a point");
        assert_eq!((p.leg, p.sample()), (0, None));
        assert!(p.distance < 1e-9, "{p:?}");
        assert!((t.time_at(&p) - 1800).abs() <= 2, "{}", t.time_at(&p));
        // Beyond the end: the last position itself.
        let past = mercator(45.1, 4.01).expect("finite");
        let p = t.pick(past, &segs).expect("a point");
        assert_eq!((p.leg, p.sample()), (1, Some(2)));
        assert_eq!(t.time_at(&p), 3660);
        assert_eq!(p.at_sample(1, t.xy[1]).sample(), Some(1));
        // One position: that one.
        let one = Track::new(vec![sample(5, 45.0, 4.0)]);
        let p = one.pick(mid, &[]).expect("the only position");
        assert_eq!((p.sample(), one.time_at(&p)), (Some(0), 5));
    }

    #[test]
    fn speeds_are_reported_or_derived() {
        let a = sample(0, 45.0, 4.0).with_speed_kmh(Some(50.0));
        // About 1.11 km in 60 s: ~66.7 km/h.
        let t = Track::new(vec![a, sample(60, 45.01, 4.0), sample(120, 45.01, 4.0)]);
        assert_eq!(t.speed_kmh(0), 50.0);
        assert!((t.speed_kmh(1) - 0.0).abs() < 1e-3);
        let t = Track::new(vec![sample(0, 45.0, 4.0), sample(60, 45.01, 4.0)]);
        assert!((t.speed_kmh(0) - 66.7).abs() < 0.5, "{}", t.speed_kmh(0));
        assert!(t.speed_scale_kmh > 60.0);
        // A derived speed is not passed off as given (exports, the hover).
        assert_eq!(t.samples[0].speed_kmh(), None);
        assert!(t.speed_kmh(9).is_nan(), "no such sample");
    }

    #[test]
    fn a_sample_keeps_what_was_given_in_40_bytes() {
        assert_eq!(std::mem::size_of::<TrackSample>(), 40);
        let s = sample(0, 45.0, 4.0)
            .with_speed_kmh(Some(12.3))
            .with_heading_deg(Some(359.9))
            .with_altitude_m(Some(-4.25));
        // Read back as sent, not as the f32's binary value.
        assert_eq!(s.speed_kmh(), Some(12.3));
        assert_eq!(s.heading_deg(), Some(359.9));
        assert_eq!(s.altitude_m(), Some(-4.25));
        let none = sample(0, 45.0, 4.0)
            .with_speed_kmh(None)
            .with_heading_deg(Some(f64::NAN));
        assert_eq!(
            (none.speed_kmh(), none.heading_deg(), none.altitude_m()),
            (None, None, None)
        );
        // Beyond f32's range: infinite, which the map and exports skip.
        let huge = sample(0, 45.0, 4.0).with_speed_kmh(Some(1e300));
        assert_eq!(huge.speed_kmh(), Some(f64::INFINITY));
        // Finer than an f32 holds: within its precision (about 1e-4 here).
        let fine = sample(0, 45.0, 4.0).with_altitude_m(Some(1234.5678));
        let back = fine.altitude_m().expect("given");
        assert!((back - 1234.5678).abs() < 2e-4, "{back}");
    }

    #[test]
    fn a_simplified_segment_carries_the_mean_speed_of_its_samples() {
        // A straight drive: only its ends survive simplification.
        let samples = (0..5)
            .map(|i| {
                sample(i as i64 * 60, 45.0 + 0.01 * i as f64, 4.0)
                    .with_speed_kmh(Some([0.0, 80.0, 90.0, 70.0, 0.0][i]))
            })
            .collect();
        let t = Track::new(samples);
        let mut segs = Vec::new();
        let all = MercRect {
            min: [0.0, 0.0],
            max: [1.0, 1.0],
        };
        t.visible_segments(&all, 10.0, 100, &mut segs);
        assert_eq!(segs.len(), 1);
        assert_eq!((segs[0].a, segs[0].b), (0, 4));
        assert_eq!(segs[0].speed_kmh, 60.0); // (0 + 80 + 90 + 70) / 4
        assert!(mean_speed(&[sample(0, 45.0, 4.0)]).is_nan());
    }
}
