//! Each site's road network, where its road trucks drive.
//!
//! A handful of places around the site (its depot, customers, junctions)
//! joined by roads: the Gabriel graph of the places ([`polyline::gabriel_edges`]),
//! each edge a polyline of gentle curves. A trip between two places follows
//! the shortest path over the roads, so trips repeat over the same curved
//! lines and months of positions draw a road network rather than a star.
//! Built once per site from a fixed seed, so every run draws the same roads.

pub mod polyline;

use std::sync::LazyLock;

use polyline::{Frame, Xy, along, cumulative_m, curved, gabriel_edges, next_hops, piece_bearings};

use super::catalogue::sites::{SITES, Site};
use super::random::{Rng, hash2, hash3};
use fleetview_api::geo::LatLon;

/// Customers around a site (where trucks deliver) and junctions between them.
const CUSTOMERS: usize = 10;
const JUNCTIONS: usize = 8;
/// Customers lie this far from the site, metres (inside the land sector).
const CUSTOMER_RANGE_M: (f64, f64) = (8_000.0, 45_000.0);
const JUNCTION_RANGE_M: (f64, f64) = (3_000.0, 40_000.0);
/// Places closer than this are spread apart (when a few tries allow).
const MIN_GAP_M: f64 = 3_500.0;
/// Length of a road's straight pieces, metres.
const SPACING_M: f64 = 250.0;
/// Sideways swing of a road's first harmonic, as a fraction of its chord;
/// higher harmonics swing less (see [`polyline::curved`]).
const BEND: (f64, f64) = (0.03, 0.10);
const HARMONICS: usize = 5;

const NETWORK_SEED: u64 = 0x80AD_5EED;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NodeKind {
    Depot,
    Customer,
    Junction,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub pos: LatLon,
    pub(crate) kind: NodeKind,
}

/// A road between two nodes, as a polyline from `ends.0` to `ends.1`.
#[derive(Debug, Clone, PartialEq)]
pub struct Road {
    pub(crate) ends: (usize, usize),
    pub points: Vec<LatLon>,
    cum_m: Vec<f64>,
    /// Bearing of each piece, `[forwards, backwards]`.
    bearings: Vec<[f64; 2]>,
}

impl Road {
    pub(crate) fn length_m(&self) -> f64 {
        self.cum_m.last().copied().unwrap_or(0.0)
    }
}

/// One road of a route, driven from `ends.0` (or, `reversed`, from `ends.1`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Leg {
    pub(crate) road: usize,
    pub(crate) reversed: bool,
    /// Distance along the route where this leg starts, metres.
    pub(crate) start_m: f64,
}

/// Where the last read of a route was (its leg and that road's piece), for
/// the next read to start from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Hint {
    leg: usize,
    piece: usize,
}

/// The shortest way over the roads from one node to another.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Route {
    pub(crate) from: usize,
    pub(crate) to: usize,
    pub(crate) legs: Vec<Leg>,
    pub(crate) length_m: f64,
}

/// A site's places and roads, with the route between every two places.
#[derive(Debug, Clone, PartialEq)]
pub struct Network {
    pub nodes: Vec<Node>,
    pub roads: Vec<Road>,
    /// `routes[a * n + b]`, `n` nodes.
    routes: Vec<Route>,
}

static NETWORKS: LazyLock<Vec<Network>> = LazyLock::new(|| {
    SITES
        .iter()
        .enumerate()
        .map(|(i, site)| Network::generate(site, hash2(NETWORK_SEED, i as u64)))
        .collect()
});

/// The road network around `site` (one of [`SITES`]).
pub(crate) fn of_site(site: &'static Site) -> &'static Network {
    let i = SITES
        .iter()
        .position(|s| std::ptr::eq(s, site))
        .unwrap_or(0);
    &NETWORKS[i]
}

impl Network {
    /// The network around `site`, a pure function of `seed`.
    pub(crate) fn generate(site: &Site, seed: u64) -> Self {
        let frame = Frame::new(LatLon::new(site.lat, site.lon));
        let mut rng = Rng::new(seed);
        // The depot sits at the site; the other places in its land sector.
        let mut xy: Vec<Xy> = vec![[rng.range(-300.0, 300.0), rng.range(-300.0, 300.0)]];
        let mut kinds = vec![NodeKind::Depot];
        for (kind, count, range) in [
            (NodeKind::Customer, CUSTOMERS, CUSTOMER_RANGE_M),
            (NodeKind::Junction, JUNCTIONS, JUNCTION_RANGE_M),
        ] {
            for _ in 0..count {
                xy.push(place(&xy, &mut rng, site.land_deg, range));
                kinds.push(kind);
            }
        }
        let nodes: Vec<Node> = xy
            .iter()
            .zip(&kinds)
            .map(|(p, kind)| Node {
                pos: frame.to_latlon(*p),
                kind: *kind,
            })
            .collect();

        let roads: Vec<Road> = gabriel_edges(&xy)
            .into_iter()
            .map(|(a, b)| {
                let mut r = Rng::new(hash3(seed, a as u64, b as u64));
                let side = if r.chance(0.5) { 1.0 } else { -1.0 };
                let bends: Vec<f64> = (1..=HARMONICS)
                    .map(|k| {
                        if k == 1 {
                            side * r.range(BEND.0, BEND.1)
                        } else {
                            r.range(-BEND.1, BEND.1) / (k as f64).powf(1.5)
                        }
                    })
                    .collect();
                let mut points: Vec<LatLon> = curved(xy[a], xy[b], &bends, SPACING_M)
                    .into_iter()
                    .map(|p| frame.to_latlon(p))
                    .collect();
                // The ends are the nodes themselves, to the bit.
                let last = points.len() - 1;
                points[0] = nodes[a].pos;
                points[last] = nodes[b].pos;
                let cum_m = cumulative_m(&points);
                let bearings = piece_bearings(&points);
                Road {
                    ends: (a, b),
                    points,
                    cum_m,
                    bearings,
                }
            })
            .collect();

        let n = nodes.len();
        let weighted: Vec<(usize, usize, f64)> = roads
            .iter()
            .map(|r| (r.ends.0, r.ends.1, r.length_m()))
            .collect();
        let next = next_hops(n, &weighted);
        let mut routes = Vec::with_capacity(n * n);
        for from in 0..n {
            for to in 0..n {
                let mut legs = Vec::new();
                let (mut at, mut length_m) = (from, 0.0);
                while let Some(road) = next[at * n + to] {
                    let reversed = roads[road].ends.0 != at;
                    legs.push(Leg {
                        road,
                        reversed,
                        start_m: length_m,
                    });
                    length_m += roads[road].length_m();
                    at = if reversed {
                        roads[road].ends.0
                    } else {
                        roads[road].ends.1
                    };
                }
                routes.push(Route {
                    from,
                    to,
                    legs,
                    length_m,
                });
            }
        }
        Self {
            nodes,
            roads,
            routes,
        }
    }

    pub(crate) fn depot(&self) -> usize {
        0
    }

    /// Node indices of the customers.
    pub(crate) fn customers(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.nodes.len()).filter(|i| self.nodes[*i].kind == NodeKind::Customer)
    }

    pub(crate) fn route(&self, from: usize, to: usize) -> &Route {
        &self.routes[from * self.nodes.len() + to]
    }

    /// The point `d` metres along `route`, and the heading there. With a
    /// `hint` (one per read route), reads at growing distances walk on from
    /// the last one instead of searching; the answer is the same.
    pub(crate) fn along(&self, route: &Route, d: f64, hint: Option<&mut Hint>) -> (LatLon, f64) {
        let (Some(first), Some(last)) = (route.legs.first(), route.legs.last()) else {
            return (self.nodes[route.from].pos, 0.0);
        };
        let leg_at = |leg: &Leg, d: f64, piece: Option<&mut usize>| {
            let road = &self.roads[leg.road];
            let (p, piece) = along(&road.points, &road.cum_m, d, leg.reversed, piece);
            (p, road.bearings[piece][usize::from(leg.reversed)])
        };
        if d <= 0.0 {
            return (self.nodes[route.from].pos, leg_at(first, 0.0, None).1);
        }
        if d >= route.length_m {
            let end = self.roads[last.road].length_m();
            return (self.nodes[route.to].pos, leg_at(last, end, None).1);
        }
        // The leg with start_m < d <= the next one's start_m.
        match hint {
            None => {
                let i = route.legs.partition_point(|l| l.start_m < d).max(1) - 1;
                let leg = &route.legs[i];
                leg_at(leg, d - leg.start_m, None)
            }
            Some(h) => {
                let legs = &route.legs;
                let start = h.leg.min(legs.len() - 1);
                let mut i = start;
                while i > 0 && legs[i].start_m >= d {
                    i -= 1;
                }
                while i + 1 < legs.len() && legs[i + 1].start_m < d {
                    i += 1;
                }
                if i != h.leg {
                    // A new road: start at its end the route enters by.
                    h.leg = i;
                    h.piece = if legs[i].reversed { usize::MAX } else { 0 };
                }
                let leg = &legs[i];
                leg_at(leg, d - leg.start_m, Some(&mut h.piece))
            }
        }
    }
}

/// A place in the land sector `(first bearing, span)` at a distance in
/// `range` (uniform over the area), away from the places already there
/// when a few tries find room.
fn place(taken: &[Xy], rng: &mut Rng, (first_deg, span_deg): (f64, f64), range: (f64, f64)) -> Xy {
    let mut p = [0.0, 0.0];
    for _ in 0..16 {
        let r = rng.range(range.0 * range.0, range.1 * range.1).sqrt();
        let bearing = (first_deg + span_deg * rng.f64()).to_radians();
        p = [r * bearing.sin(), r * bearing.cos()];
        let clear = taken
            .iter()
            .all(|q| (q[0] - p[0]).hypot(q[1] - p[1]) >= MIN_GAP_M);
        if clear {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::polyline::Frame;
    use super::*;
    use fleetview_api::geo::{bearing_deg, haversine_m};

    fn site(city: &str) -> &'static Site {
        SITES
            .iter()
            .find(|s| s.city == city)
            .unwrap_or_else(|| panic!("{city}"))
    }

    #[test]
    fn the_network_is_a_pure_function_of_its_seed() {
        for s in SITES {
            assert_eq!(
                Network::generate(s, 7),
                Network::generate(s, 7),
                "{}",
                s.city
            );
            assert_ne!(
                Network::generate(s, 7),
                Network::generate(s, 8),
                "{}",
                s.city
            );
        }
        // The served networks are those of the fixed seed.
        for (i, s) in SITES.iter().enumerate() {
            assert_eq!(
                *of_site(s),
                Network::generate(s, hash2(NETWORK_SEED, i as u64))
            );
        }
    }

    #[test]
    fn a_site_has_a_depot_customers_and_a_few_dozen_roads() {
        for s in SITES {
            let net = of_site(s);
            assert_eq!(net.nodes[net.depot()].kind, NodeKind::Depot);
            let depot_m = haversine_m(net.nodes[net.depot()].pos, LatLon::new(s.lat, s.lon));
            assert!(
                depot_m < 500.0,
                "{}: depot {depot_m} m from the site",
                s.city
            );
            assert_eq!(net.customers().count(), CUSTOMERS);
            let n = net.nodes.len();
            // Planar: at most 3n - 6 roads; a network, not a tree: more than n - 1.
            assert!(
                (n..=3 * n - 6).contains(&net.roads.len()),
                "{}: {} roads between {n} places",
                s.city,
                net.roads.len()
            );
        }
    }

    #[test]
    fn places_stay_on_land() {
        for city in ["Rotterdam", "Chicago", "Manchester"] {
            let s = site(city);
            let centre = LatLon::new(s.lat, s.lon);
            let (first, span) = s.land_deg;
            for node in &of_site(s).nodes[1..] {
                let off = (bearing_deg(centre, node.pos) - first).rem_euclid(360.0);
                assert!(
                    off <= span + 1e-6,
                    "{city}: a place at {off} degrees past {first}"
                );
            }
        }
    }

    #[test]
    fn roads_curve_gently() {
        for s in SITES {
            let net = of_site(s);
            for road in &net.roads {
                let (a, b) = road.ends;
                let chord = haversine_m(net.nodes[a].pos, net.nodes[b].pos);
                let ratio = road.length_m() / chord;
                assert!(
                    (1.003..1.25).contains(&ratio),
                    "{}: road {a}-{b} is {ratio} times its chord",
                    s.city
                );
                let bearings: Vec<f64> = road
                    .points
                    .windows(2)
                    .map(|w| bearing_deg(w[0], w[1]))
                    .collect();
                let turns: Vec<f64> = bearings
                    .windows(2)
                    .map(|w| (w[1] - w[0] + 540.0).rem_euclid(360.0) - 180.0)
                    .collect();
                let turning = turns.iter().filter(|t| t.abs() > 0.05).count();
                assert!(
                    turning * 2 > turns.len(),
                    "{}: road {a}-{b} turns at {turning} of {} bends",
                    s.city,
                    turns.len()
                );
                // Gentle: no hairpins between two pieces of 250 m.
                assert!(
                    turns.iter().all(|t| t.abs() < 30.0),
                    "{}: {turns:?}",
                    s.city
                );
            }
        }
    }

    #[test]
    fn routes_join_their_roads_end_to_end() {
        for s in SITES {
            let net = of_site(s);
            let n = net.nodes.len();
            for from in 0..n {
                for to in 0..n {
                    let route = net.route(from, to);
                    assert_eq!((route.from, route.to), (from, to));
                    assert_eq!(
                        route.legs.is_empty(),
                        from == to,
                        "every place is reachable"
                    );
                    let mut at = from;
                    let mut length = 0.0;
                    for leg in &route.legs {
                        let road = &net.roads[leg.road];
                        let (start, end) = if leg.reversed {
                            (road.ends.1, road.ends.0)
                        } else {
                            road.ends
                        };
                        assert_eq!(start, at);
                        assert_eq!(leg.start_m, length);
                        length += road.length_m();
                        at = end;
                    }
                    assert_eq!(at, to);
                    assert_eq!(route.length_m, length);
                    assert_eq!(net.along(route, 0.0, None).0, net.nodes[from].pos);
                    assert_eq!(net.along(route, length, None).0, net.nodes[to].pos);
                }
            }
        }
    }

    #[test]
    fn reading_a_route_moves_along_its_roads_at_the_distance_asked() {
        let s = site("Lyon");
        let net = of_site(s);
        let frame = Frame::new(LatLon::new(s.lat, s.lon));
        let route = (1..net.nodes.len())
            .map(|to| net.route(net.depot(), to))
            .max_by_key(|r| r.legs.len())
            .unwrap_or_else(|| net.route(0, 1));
        assert!(route.legs.len() >= 2, "a route over several roads");
        // Steps of 100 m along the route are 100 m apart on the ground, a
        // little less where a step cuts a bend, and less where it turns from
        // one road into the next.
        let mut last = net.along(route, 0.0, None).0;
        let (mut d, mut short) = (100.0, 0);
        while d < route.length_m {
            let (p, _) = net.along(route, d, None);
            let step = haversine_m(last, p);
            assert!(step <= 100.01, "{step} m at {d}");
            if step < 95.0 {
                short += 1;
            }
            last = p;
            d += 100.0;
        }
        assert!(short < route.legs.len(), "{short} short steps");
        // Every point read lies on a road of the route.
        let on_route = |p: LatLon| {
            let xy = frame.to_xy(p);
            route.legs.iter().any(|l| {
                net.roads[l.road].points.windows(2).any(|w| {
                    polyline::distance_to_segment_m(xy, frame.to_xy(w[0]), frame.to_xy(w[1])) < 0.01
                })
            })
        };
        for k in 0..50 {
            let d = route.length_m * k as f64 / 50.0 + 3.7;
            assert!(on_route(net.along(route, d, None).0), "at {d} m");
        }
    }

    #[test]
    fn a_hint_gives_the_answer_a_search_gives() {
        for s in SITES {
            let net = of_site(s);
            let n = net.nodes.len();
            for (from, to) in [(0, n - 1), (n - 1, 0), (1, n / 2), (n / 2, 1)] {
                let route = net.route(from, to);
                let mut hint = Hint::default();
                // Forwards in steps of varied size, then back and forth.
                let mut ds: Vec<f64> = (0..400).map(|k| (k * k) as f64 * 0.7).collect();
                ds.extend([route.length_m * 0.9, 10.0, route.length_m * 0.5, 0.0]);
                for d in ds.into_iter().filter(|d| *d <= route.length_m + 1.0) {
                    assert_eq!(
                        net.along(route, d, Some(&mut hint)),
                        net.along(route, d, None),
                        "{} {from}->{to} at {d}",
                        s.city
                    );
                }
            }
        }
    }
}
