//! Where machines go: the places a day's moves stop at, and the way between
//! two of them. Machines that work on a site move between spots on it;
//! road trucks drive between their site's depot and the few customers each
//! serves, over the site's roads ([`super::roads`]), so their trips repeat.

use super::catalogue::models::Class;
use super::machine::{LatLon, Machine, Rng, bearing_deg, hash2, hash3};
use super::path::Path;
use super::roads::{self, Network};

/// A place a machine stops at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Stop {
    /// A node of the site's road network (road trucks).
    Node(usize),
    /// A spot on the site (machines that work on it).
    Spot(LatLon),
}

/// How many of its site's customers a road truck serves regularly.
const ROUND: u64 = 4;
/// Chance that a truck's next stop is the depot, during the day and at its end.
const DEPOT_DURING_DAY: f64 = 0.3;
const DEPOT_AT_NIGHT: f64 = 0.7;

impl Machine {
    fn on_roads(&self) -> bool {
        self.class() == Class::RoadTruck
    }

    pub fn network(&self) -> &'static Network {
        roads::of_site(self.site)
    }

    /// Where the machine is parked when it has no other place to be.
    pub(crate) fn home_stop(&self) -> Stop {
        if self.on_roads() {
            Stop::Node(self.network().depot())
        } else {
            Stop::Spot(self.home)
        }
    }

    pub(crate) fn stop_pos(&self, stop: Stop) -> LatLon {
        match stop {
            Stop::Node(i) => self.network().nodes[i].pos,
            Stop::Spot(p) => p,
        }
    }

    /// The `k`-th customer of this truck's round: its site's customers
    /// shuffled by the truck's seed.
    fn customer(&self, k: u64) -> usize {
        let mut customers: Vec<usize> = self.network().customers().collect();
        customers.sort_by_key(|c| hash2(self.seed, *c as u64));
        customers[(k as usize) % customers.len().max(1)]
    }

    /// A random place to stop at after `prev`: a spot on site, or for a road
    /// truck the depot or a customer of its round other than `prev`.
    pub(crate) fn waypoint(&self, rng: &mut Rng, prev: Stop) -> Stop {
        if !self.on_roads() {
            let r = 350.0 * rng.f64().sqrt();
            let a = rng.range(0.0, std::f64::consts::TAU);
            return Stop::Spot(self.centre().offset_m(r * a.cos(), r * a.sin()));
        }
        let depot = self.home_stop();
        for _ in 0..8 {
            let next = if rng.chance(DEPOT_DURING_DAY) {
                depot
            } else {
                Stop::Node(self.customer(rng.int(0, ROUND - 1)))
            };
            if next != prev {
                return next;
            }
        }
        if prev == depot {
            Stop::Node(self.customer(0))
        } else {
            depot
        }
    }

    /// Where a working day ends: a spot on site, or mostly the depot for a
    /// road truck.
    pub(crate) fn end_anchor(&self, day: i64) -> Stop {
        let mut rng = Rng::new(hash3(self.seed, day as u64, 0xE4D));
        if self.on_roads() && rng.chance(DEPOT_AT_NIGHT) {
            return self.home_stop();
        }
        self.waypoint(&mut rng, self.home_stop())
    }

    /// The way from one stop to the next: over the roads between two nodes,
    /// otherwise straight.
    pub(crate) fn path_between(&self, a: Stop, b: Stop) -> Path {
        match (a, b) {
            (Stop::Node(x), Stop::Node(y)) if x != y => {
                let network = self.network();
                Path::Road {
                    network,
                    route: network.route(x, y),
                }
            }
            _ => {
                let (from, to) = (self.stop_pos(a), self.stop_pos(b));
                Path::Line {
                    from,
                    to,
                    heading_deg: bearing_deg(from, to),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::clock::Clock;
    use crate::simulate::Simulator;
    use crate::simulate::day_plan::SegKind;
    use crate::simulate::roads::polyline::{Frame, Xy, distance_to_segment_m};
    use fleetview_api::time::{SECS_PER_DAY, TimeWindow, days_from_civil};

    const CELL_M: f64 = 1_000.0;

    fn today() -> i64 {
        days_from_civil(2025, 6, 18)
    }

    fn trucks() -> Vec<Machine> {
        (0..60)
            .map(Machine::at_index)
            .filter(|m| m.class() == Class::RoadTruck)
            .collect()
    }

    /// The pieces of a site's roads by cell of ~1 km, to find quickly how
    /// far a point is from the nearest road.
    struct RoadIndex {
        frame: Frame,
        cells: HashMap<(i64, i64), Vec<(Xy, Xy)>>,
    }

    fn cell(v: f64) -> i64 {
        (v / CELL_M).floor() as i64
    }

    impl RoadIndex {
        fn new(m: &Machine) -> Self {
            let frame = Frame::new(m.centre());
            let mut cells: HashMap<(i64, i64), Vec<(Xy, Xy)>> = HashMap::new();
            for road in &m.network().roads {
                for w in road.points.windows(2) {
                    let (a, b) = (frame.to_xy(w[0]), frame.to_xy(w[1]));
                    let pad = 10.0;
                    for x in cell(a[0].min(b[0]) - pad)..=cell(a[0].max(b[0]) + pad) {
                        for y in cell(a[1].min(b[1]) - pad)..=cell(a[1].max(b[1]) + pad) {
                            cells.entry((x, y)).or_default().push((a, b));
                        }
                    }
                }
            }
            Self { frame, cells }
        }

        fn distance_m(&self, p: LatLon) -> f64 {
            let p = self.frame.to_xy(p);
            self.cells
                .get(&(cell(p[0]), cell(p[1])))
                .into_iter()
                .flatten()
                .map(|(a, b)| distance_to_segment_m(p, *a, *b))
                .fold(f64::INFINITY, f64::min)
        }
    }

    #[test]
    fn a_trucks_positions_lie_on_its_sites_roads() {
        let now = today() * SECS_PER_DAY + 15 * 3600;
        let sim = Simulator::new(60, Clock::Fixed(now));
        let w = TimeWindow {
            since: now - 60 * SECS_PER_DAY,
            until: now,
        };
        for m in trucks() {
            let roads = RoadIndex::new(&m);
            let rows = sim.positions(&m, w);
            assert!(rows.len() > 1_000, "{}: {} positions", m.name, rows.len());
            let far = rows
                .iter()
                .map(|r| roads.distance_m(LatLon::new(r.latitude, r.longitude)))
                .fold(0.0, f64::max);
            // Positions are rounded to 1e-6 degrees, about 0.1 m.
            assert!(far < 0.5, "{}: a position {far} m off the roads", m.name);
        }
    }

    #[test]
    fn a_month_of_trips_reuses_a_few_roads() {
        for m in trucks() {
            let mut uses: HashMap<usize, usize> = HashMap::new();
            let mut trips = 0;
            for day in today() - 30..today() {
                for g in m.full_plan(day).segments() {
                    if let SegKind::Move {
                        path: Path::Road { route, .. },
                        ..
                    } = g.kind
                    {
                        trips += 1;
                        for leg in &route.legs {
                            *uses.entry(leg.road).or_default() += 1;
                        }
                    }
                }
            }
            let total = m.network().roads.len();
            let used: usize = uses.values().sum();
            let per_road = used as f64 / uses.len() as f64;
            assert!(trips >= 40, "{}: {trips} trips", m.name);
            assert!(
                uses.len() <= 20 && uses.len() * 3 <= total * 2 && per_road >= 5.0,
                "{}: {trips} trips over {} of {total} roads, each driven {per_road:.1} times",
                m.name,
                uses.len()
            );
        }
    }

    #[test]
    fn a_truck_stops_at_its_depot_and_a_few_customers_never_twice_in_a_row() {
        for m in trucks() {
            let depot = m.home_stop();
            assert_eq!(m.stop_pos(depot), m.home, "{} parks at the depot", m.name);
            let mut rng = Rng::new(m.seed);
            let mut prev = depot;
            let mut seen = Vec::new();
            for _ in 0..500 {
                let next = m.waypoint(&mut rng, prev);
                assert_ne!(next, prev, "{}", m.name);
                if !seen.contains(&next) {
                    seen.push(next);
                }
                prev = next;
            }
            assert_eq!(seen.len() as u64, ROUND + 1, "{}: {seen:?}", m.name);
            assert!(seen.contains(&depot));
        }
    }

    #[test]
    fn machines_on_a_site_move_in_straight_lines_between_spots() {
        let m = Machine::at_index(0);
        assert_ne!(m.class(), Class::RoadTruck);
        let mut rng = Rng::new(1);
        let (a, b) = (
            m.waypoint(&mut rng, m.home_stop()),
            m.waypoint(&mut rng, m.home_stop()),
        );
        assert!(matches!(a, Stop::Spot(_)) && matches!(b, Stop::Spot(_)));
        assert!(matches!(m.path_between(a, b), Path::Line { .. }));
    }
}
