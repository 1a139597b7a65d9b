//! Plane geometry of the simulated roads: a flat frame in metres around a
//! site, gently curved polylines, reading a point a distance along one, and
//! the graph that joins a handful of places into a road network.

use fleetview_api::geo::{EARTH_RADIUS_M, LatLon, bearing_deg, haversine_m};

/// A point in a [`Frame`]: metres east and north of its origin.
pub(crate) type Xy = [f64; 2];

/// A flat frame in metres around an origin, the inverse of
/// [`LatLon::offset_m`] (fine within ~100 km).
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    origin: LatLon,
}

impl Frame {
    pub fn new(origin: LatLon) -> Self {
        Self { origin }
    }

    pub(crate) fn to_latlon(self, p: Xy) -> LatLon {
        self.origin.offset_m(p[0], p[1])
    }

    pub fn to_xy(self, p: LatLon) -> Xy {
        let north = (p.lat - self.origin.lat).to_radians() * EARTH_RADIUS_M;
        let east = (p.lon - self.origin.lon).to_radians()
            * EARTH_RADIUS_M
            * self.origin.lat.to_radians().cos();
        [east, north]
    }
}

fn sub(a: Xy, b: Xy) -> Xy {
    [a[0] - b[0], a[1] - b[1]]
}

fn dot(a: Xy, b: Xy) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn norm(a: Xy) -> f64 {
    dot(a, a).sqrt()
}

/// A road from `a` to `b` as a polyline with pieces of about `spacing_m`:
/// the chord displaced sideways by a sum of sines, `bends[k - 1]` times the
/// chord's length for the k-th harmonic. Every harmonic vanishes at both
/// ends, so the road starts and ends exactly at `a` and `b`; small
/// amplitudes keep it a gentle curve that never doubles back.
pub(crate) fn curved(a: Xy, b: Xy, bends: &[f64], spacing_m: f64) -> Vec<Xy> {
    let chord = sub(b, a);
    let length = norm(chord);
    if length == 0.0 {
        return vec![a, b];
    }
    // Unit vectors along the chord and to its left.
    let along = [chord[0] / length, chord[1] / length];
    let left = [-along[1], along[0]];
    let pieces = ((length / spacing_m).ceil() as usize).max(2);
    let mut out = Vec::with_capacity(pieces + 1);
    out.push(a);
    for i in 1..pieces {
        let x = i as f64 / pieces as f64;
        let side: f64 = bends
            .iter()
            .enumerate()
            .map(|(k, amp)| amp * ((k + 1) as f64 * std::f64::consts::PI * x).sin())
            .sum::<f64>()
            * length;
        out.push([
            a[0] + chord[0] * x + left[0] * side,
            a[1] + chord[1] * x + left[1] * side,
        ]);
    }
    out.push(b);
    out
}

/// Distance from the first point to each point along a polyline, metres.
pub(crate) fn cumulative_m(points: &[LatLon]) -> Vec<f64> {
    let mut total = 0.0;
    let mut out = Vec::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            total += haversine_m(points[i - 1], *p);
        }
        out.push(total);
    }
    out
}

/// The bearings of each piece of a polyline, `[forwards, backwards]`
/// (computed once: reading a heading is on the hot path of positions).
pub(crate) fn piece_bearings(points: &[LatLon]) -> Vec<[f64; 2]> {
    points
        .windows(2)
        .map(|w| [bearing_deg(w[0], w[1]), bearing_deg(w[1], w[0])])
        .collect()
}

/// The piece `p` of a polyline (from point `p` to `p + 1`) that holds the
/// distance `d`: `cum[p] < d <= cum[p + 1]`, the first or the last piece
/// beyond the ends. `from` is where to start looking: `None` searches,
/// `Some` walks from that piece, cheap when reads move along steadily. Both
/// find the same piece (there is only one).
pub(crate) fn piece_at(cum: &[f64], d: f64, from: Option<usize>) -> usize {
    let last = cum.len().saturating_sub(2);
    let Some(from) = from else {
        return cum.partition_point(|c| *c < d).clamp(1, last + 1) - 1;
    };
    let mut p = from.min(last);
    while p > 0 && cum[p] >= d {
        p -= 1;
    }
    while p < last && cum[p + 1] < d {
        p += 1;
    }
    p
}

/// The point `d` metres along a polyline (`cum` from [`cumulative_m`]),
/// and the piece it lies on ([`piece_at`], which `hint` starts from and
/// is updated to, when given); `reversed` reads the polyline from its last
/// point. `d` is clamped to the polyline; its ends come back exactly.
pub(crate) fn along(
    points: &[LatLon],
    cum: &[f64],
    d: f64,
    reversed: bool,
    hint: Option<&mut usize>,
) -> (LatLon, usize) {
    let n = points.len();
    if n < 2 {
        return (points.first().copied().unwrap_or(LatLon::new(0.0, 0.0)), 0);
    }
    let length = cum[n - 1];
    let d = if reversed { length - d } else { d }.clamp(0.0, length);
    let piece = match hint {
        Some(h) => {
            *h = piece_at(cum, d, Some(*h));
            *h
        }
        None => piece_at(cum, d, None),
    };
    let (a, b) = (points[piece], points[piece + 1]);
    let span = cum[piece + 1] - cum[piece];
    let f = if span > 0.0 {
        (d - cum[piece]) / span
    } else {
        0.0
    };
    let p = if f >= 1.0 { b } else { a.lerp(b, f) };
    (p, piece)
}

/// Distance from `p` to the segment `a`-`b`, metres (flat frame).
#[cfg(test)]
pub(crate) fn distance_to_segment_m(p: Xy, a: Xy, b: Xy) -> f64 {
    let ab = sub(b, a);
    let len2 = dot(ab, ab);
    let t = if len2 > 0.0 {
        (dot(sub(p, a), ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    norm(sub(p, [a[0] + ab[0] * t, a[1] + ab[1] * t]))
}

/// The Gabriel graph of a set of points: `i` and `j` are joined when no
/// other point lies inside the circle whose diameter is `i`-`j`. It is
/// connected and planar, joins near neighbours rather than far ones, and is
/// a common model of a road network between places.
pub(crate) fn gabriel_edges(points: &[Xy]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            let mid = [
                (points[i][0] + points[j][0]) / 2.0,
                (points[i][1] + points[j][1]) / 2.0,
            ];
            let r2 = dot(sub(points[i], mid), sub(points[i], mid));
            let blocked = points
                .iter()
                .enumerate()
                .any(|(k, p)| k != i && k != j && dot(sub(*p, mid), sub(*p, mid)) < r2);
            if !blocked {
                out.push((i, j));
            }
        }
    }
    out
}

/// Shortest paths between all pairs of `n` nodes joined by `edges`
/// `(a, b, length)` (both ways): `next[a * n + b]` is the edge to take first
/// from `a` towards `b`, `None` from a node to itself or when `b` cannot be
/// reached. Floyd-Warshall: cubic, for a handful of nodes.
pub(crate) fn next_hops(n: usize, edges: &[(usize, usize, f64)]) -> Vec<Option<usize>> {
    let mut dist = vec![f64::INFINITY; n * n];
    let mut next = vec![None; n * n];
    for i in 0..n {
        dist[i * n + i] = 0.0;
    }
    for (e, &(a, b, len)) in edges.iter().enumerate() {
        for (x, y) in [(a, b), (b, a)] {
            if len < dist[x * n + y] {
                dist[x * n + y] = len;
                next[x * n + y] = Some(e);
            }
        }
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                let via = dist[i * n + k] + dist[k * n + j];
                if via < dist[i * n + j] {
                    dist[i * n + j] = via;
                    next[i * n + j] = next[i * n + k];
                }
            }
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    const LYON: LatLon = LatLon::new(45.73, 4.83);

    fn length_xy(points: &[Xy]) -> f64 {
        points.windows(2).map(|w| norm(sub(w[1], w[0]))).sum()
    }

    #[test]
    fn the_frame_inverts_offsets() {
        let f = Frame::new(LYON);
        for p in [[0.0, 0.0], [12_345.0, -6_789.0], [-40_000.0, 30_000.0]] {
            let back = f.to_xy(f.to_latlon(p));
            assert!(norm(sub(back, p)) < 1e-6, "{p:?} -> {back:?}");
        }
        // Metres in the frame are metres on the ground.
        let (a, b) = ([1_000.0, 2_000.0], [4_000.0, 6_000.0]);
        let ground = haversine_m(f.to_latlon(a), f.to_latlon(b));
        assert!((ground - 5_000.0).abs() < 5.0, "{ground}");
    }

    #[test]
    fn a_curved_road_ends_where_asked_and_is_longer_than_its_chord() {
        let (a, b) = ([0.0, 0.0], [10_000.0, 0.0]);
        let road = curved(a, b, &[0.08, -0.02, 0.01], 200.0);
        assert_eq!(road.first(), Some(&a));
        assert_eq!(road.last(), Some(&b));
        assert_eq!(road.len(), 51, "pieces of about 200 m");
        let ratio = length_xy(&road) / 10_000.0;
        assert!((1.01..1.1).contains(&ratio), "length / chord = {ratio}");
        // Halfway, the first harmonic is at its peak and the second is zero;
        // the third is at its trough: 0.08 - 0.01 of the chord.
        assert!((road[25][1] - 700.0).abs() < 1e-6, "{:?}", road[25]);
        // It never doubles back: every piece goes forward along the chord.
        assert!(road.windows(2).all(|w| w[1][0] > w[0][0]));
        // Without bends it is the chord.
        let straight = curved(a, b, &[], 200.0);
        assert!((length_xy(&straight) - 10_000.0).abs() < 1e-6);
    }

    #[test]
    fn consecutive_bearings_of_a_curved_road_change() {
        let f = Frame::new(LYON);
        let road: Vec<LatLon> = curved([0.0, 0.0], [0.0, 20_000.0], &[0.06, 0.02], 250.0)
            .into_iter()
            .map(|p| f.to_latlon(p))
            .collect();
        let bearings: Vec<f64> = road.windows(2).map(|w| bearing_deg(w[0], w[1])).collect();
        let turns = bearings
            .windows(2)
            .filter(|w| (w[1] - w[0]).abs() > 0.1)
            .count();
        assert!(
            turns > bearings.len() * 3 / 4,
            "{turns} of {} turn",
            bearings.len()
        );
        let spread = bearings.iter().fold(0.0f64, |m, b| m.max(b.min(360.0 - b)));
        assert!(spread > 10.0, "the road swings {spread} degrees off north");
    }

    #[test]
    fn reading_along_a_polyline_both_ways() {
        let f = Frame::new(LYON);
        let points: Vec<LatLon> = [[0.0, 0.0], [1_000.0, 0.0], [1_000.0, 1_000.0]]
            .into_iter()
            .map(|p| f.to_latlon(p))
            .collect();
        let cum = cumulative_m(&points);
        assert_eq!(cum.len(), 3);
        assert!((cum[2] - 2_000.0).abs() < 1.0, "{cum:?}");
        assert_eq!(along(&points, &cum, 0.0, false, None).0, points[0]);
        assert_eq!(along(&points, &cum, cum[2], false, None).0, points[2]);
        assert_eq!(along(&points, &cum, 0.0, true, None).0, points[2]);
        assert_eq!(along(&points, &cum, cum[2], true, None).0, points[0]);
        assert_eq!(
            along(&points, &cum, 1e9, false, None).0,
            points[2],
            "clamped"
        );
        let bearings = piece_bearings(&points);
        let (p, piece) = along(&points, &cum, 500.0, false, None);
        assert!(norm(sub(f.to_xy(p), [500.0, 0.0])) < 1.0);
        assert_eq!(piece, 0);
        assert!((bearings[0][0] - 90.0).abs() < 0.1, "east: {bearings:?}");
        let (p, piece) = along(&points, &cum, 500.0, true, None);
        assert!(norm(sub(f.to_xy(p), [1_000.0, 500.0])) < 1.0);
        assert_eq!(piece, 1);
        assert!((bearings[1][1] - 180.0).abs() < 0.1, "south: {bearings:?}");
    }

    #[test]
    fn walking_to_a_piece_finds_the_one_a_search_finds() {
        let cum = [0.0, 10.0, 25.0, 25.5, 40.0];
        for d in [
            -1.0, 0.0, 0.1, 10.0, 10.01, 25.0, 25.2, 25.5, 39.9, 40.0, 41.0,
        ] {
            let found = piece_at(&cum, d, None);
            assert!(found <= 3);
            assert!(found == 0 || cum[found] < d, "{d}: {found}");
            assert!(found == 3 || cum[found + 1] >= d, "{d}: {found}");
            for from in 0..6 {
                assert_eq!(piece_at(&cum, d, Some(from)), found, "{d} from {from}");
            }
        }
    }

    #[test]
    fn distance_to_a_segment() {
        let (a, b) = ([0.0, 0.0], [10.0, 0.0]);
        assert_eq!(distance_to_segment_m([5.0, 3.0], a, b), 3.0);
        assert_eq!(distance_to_segment_m([-4.0, 3.0], a, b), 5.0);
        assert_eq!(distance_to_segment_m([13.0, 4.0], a, b), 5.0);
        assert_eq!(distance_to_segment_m([1.0, 1.0], a, a), 2f64.sqrt());
    }

    #[test]
    fn the_gabriel_graph_joins_neighbours_not_across_them() {
        // A square with its centre: the centre blocks both diagonals.
        let points = [
            [0.0, 0.0],
            [10.0, 0.0],
            [10.0, 10.0],
            [0.0, 10.0],
            [5.0, 5.0],
        ];
        let edges = gabriel_edges(&points);
        assert!(!edges.contains(&(0, 2)) && !edges.contains(&(1, 3)));
        for side in [(0, 1), (1, 2), (2, 3), (0, 3)] {
            assert!(edges.contains(&side), "{side:?} in {edges:?}");
        }
        for corner in 0..4 {
            assert!(edges.contains(&(corner, 4)), "{corner} to the centre");
        }
    }

    #[test]
    fn next_hops_follow_the_shortest_path() {
        // 0 -1- 1 -1- 2, and a long direct road 0 -5- 2.
        let edges = [(0, 1, 1.0), (1, 2, 1.0), (0, 2, 5.0), (3, 3, 0.0)];
        let next = next_hops(4, &edges);
        let hop = |from: usize, to: usize| next[from * 4 + to];
        assert_eq!(hop(0, 2), Some(0), "0 towards 2 starts on the short road");
        assert_eq!(hop(1, 2), Some(1));
        assert_eq!(hop(2, 0), Some(1), "2 towards 0 goes via 1");
        assert_eq!(hop(0, 0), None, "to itself");
        assert_eq!(hop(0, 3), None, "3 is not reachable");
    }
}
