//! The fleet map's clusters: machines whose markers would overlap at a
//! zoom are drawn as one marker with their count. Pure: Web Mercator in,
//! clusters out, so it is tested without a screen.
//!
//! Greedy, in world pixels at the zoom: each machine starts alone; a pass
//! takes the clusters in order (the largest first, then by lowest id, so
//! the result does not depend on the table's sort) and each one not yet
//! taken absorbs every other one not yet taken whose centre is closer than
//! the radius; passes repeat until one merges nothing. So no two clusters'
//! centres are closer than the radius, and every machine is in exactly one.
//! A grid of radius-sized cells finds the neighbours: a pass costs about
//! the number of clusters, not its square.

use std::collections::HashMap;

use fleetview_api::geo::MercRect;
use fleetview_core::analysis::MachineState;

/// A machine to place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Web Mercator, 0..1.
    pub xy: [f64; 2],
    /// Orders the seeds, so clusters stay put when the rows are re-sorted.
    pub id: i64,
    pub state: MachineState,
    pub faulty: bool,
    /// The site it works from and its company, as indices into names the
    /// caller keeps (see [`site_of`]).
    pub site: Option<u32>,
    pub company: Option<u32>,
}

/// What most of a cluster's machines share, to label it by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    Site(u32),
    Company(u32),
}

/// Machines drawn as one marker.
#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    /// The members' mean position, Web Mercator.
    pub center: [f64; 2],
    /// Its members: `Clusters::members[start..start + count]`.
    start: u32,
    pub count: u32,
    /// The state most members are in (a tie goes to the one asking more
    /// attention, see [`concern`]): the worst member's coloured every
    /// cluster of a large fleet as silent.
    pub state: MachineState,
    /// Members with faults in the window.
    pub faulty: u32,
    /// The members' box, Web Mercator: what a click zooms to.
    pub bounds: MercRect,
    /// The site, or else the company, that most members share.
    pub group: Option<Group>,
}

/// The clusters of a set of machines at one zoom.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Clusters {
    pub clusters: Vec<Cluster>,
    /// Indices into the points given, cluster by cluster.
    members: Vec<u32>,
}

impl Clusters {
    /// The indices (into the points clustered) of a cluster's members, in
    /// id order.
    pub fn members_of(&self, c: &Cluster) -> &[u32] {
        let start = c.start as usize;
        &self.members[start..start + c.count as usize]
    }

    /// How many machines the clusters hold.
    pub fn machines(&self) -> usize {
        self.members.len()
    }
}

/// How much a state asks for attention; a cluster shows its worst
/// member's. A machine silent for a day is the one to look at; one never
/// heard of next.
pub fn concern(s: MachineState) -> u8 {
    match s {
        MachineState::Pending => 0,
        MachineState::Running => 1,
        MachineState::ReportedToday => 2,
        MachineState::Recent => 3,
        MachineState::Unknown => 4,
        MachineState::Silent => 5,
    }
}

/// A share of members at least this large names a cluster's group.
pub const GROUP_SHARE: f64 = 0.6;

/// The site in a machine's name: what its trailing parentheses say, as
/// in `EX-001 Volvo EC220E (Rotterdam)`.
pub fn site_of(name: &str) -> Option<&str> {
    let inner = name.trim_end().strip_suffix(')')?;
    let open = inner.rfind('(')?;
    let site = inner[open + 1..].trim();
    (!site.is_empty()).then_some(site)
}

/// A cluster being built: its members and the sum of their positions in
/// world pixels.
struct Building {
    members: Vec<u32>,
    sum: [f64; 2],
    first_id: i64,
}

impl Building {
    fn center(&self) -> [f64; 2] {
        let n = self.members.len() as f64;
        [self.sum[0] / n, self.sum[1] / n]
    }
}

/// Clusters `points` at a zoom of `world_px` pixels round the world: no
/// two clusters' centres closer than `radius_px`.
pub fn cluster(points: &[Point], world_px: f64, radius_px: f64) -> Clusters {
    let radius_px = radius_px.max(1e-6);
    let mut groups: Vec<Building> = points
        .iter()
        .enumerate()
        .map(|(i, p)| Building {
            members: vec![i as u32],
            sum: [p.xy[0] * world_px, p.xy[1] * world_px],
            first_id: p.id,
        })
        .collect();
    while let Some(merged) = merge_pass(&groups, radius_px) {
        groups = merged;
    }
    finish(points, groups, world_px)
}

/// One greedy pass; `None` when it merged nothing.
fn merge_pass(groups: &[Building], radius_px: f64) -> Option<Vec<Building>> {
    let centers: Vec<[f64; 2]> = groups.iter().map(Building::center).collect();
    let cell = |p: [f64; 2]| {
        (
            (p[0] / radius_px).floor() as i64,
            (p[1] / radius_px).floor() as i64,
        )
    };
    let mut grid: HashMap<(i64, i64), Vec<u32>> = HashMap::with_capacity(groups.len());
    for (i, c) in centers.iter().enumerate() {
        grid.entry(cell(*c)).or_default().push(i as u32);
    }
    let mut order: Vec<u32> = (0..groups.len() as u32).collect();
    order.sort_by_key(|&i| {
        let g = &groups[i as usize];
        (std::cmp::Reverse(g.members.len()), g.first_id, i)
    });
    let mut taken = vec![false; groups.len()];
    let mut out: Vec<Building> = Vec::with_capacity(groups.len());
    let mut merged_any = false;
    let r2 = radius_px * radius_px;
    let mut near: Vec<u32> = Vec::new();
    for &seed in &order {
        if taken[seed as usize] {
            continue;
        }
        taken[seed as usize] = true;
        let c = centers[seed as usize];
        let (cx, cy) = cell(c);
        near.clear();
        for dx in -1..=1 {
            for dy in -1..=1 {
                let Some(list) = grid.get(&(cx + dx, cy + dy)) else {
                    continue;
                };
                for &j in list {
                    let p = centers[j as usize];
                    let d2 = (p[0] - c[0]).powi(2) + (p[1] - c[1]).powi(2);
                    if !taken[j as usize] && d2 < r2 {
                        near.push(j);
                    }
                }
            }
        }
        let seed_group = &groups[seed as usize];
        let mut built = Building {
            members: seed_group.members.clone(),
            sum: seed_group.sum,
            first_id: seed_group.first_id,
        };
        for &j in &near {
            taken[j as usize] = true;
            let g = &groups[j as usize];
            built.members.extend_from_slice(&g.members);
            built.sum[0] += g.sum[0];
            built.sum[1] += g.sum[1];
            built.first_id = built.first_id.min(g.first_id);
            merged_any = true;
        }
        out.push(built);
    }
    merged_any.then_some(out)
}

/// The clusters' figures from their members.
fn finish(points: &[Point], groups: Vec<Building>, world_px: f64) -> Clusters {
    let mut clusters = Vec::with_capacity(groups.len());
    let mut members = Vec::with_capacity(points.len());
    let mut sites: HashMap<u32, u32> = HashMap::new();
    let mut companies: HashMap<u32, u32> = HashMap::new();
    for mut g in groups {
        g.members.sort_by_key(|&i| (points[i as usize].id, i));
        let center = g.center();
        let mut bounds = MercRect::EMPTY;
        let mut faulty = 0;
        let mut by_state = [0u32; 6];
        sites.clear();
        companies.clear();
        for &i in &g.members {
            let p = &points[i as usize];
            bounds.extend(p.xy);
            by_state[usize::from(concern(p.state))] += 1;
            faulty += u32::from(p.faulty);
            if let Some(s) = p.site {
                *sites.entry(s).or_default() += 1;
            }
            if let Some(c) = p.company {
                *companies.entry(c).or_default() += 1;
            }
        }
        let count = g.members.len() as u32;
        let state = [
            MachineState::Pending,
            MachineState::Running,
            MachineState::ReportedToday,
            MachineState::Recent,
            MachineState::Unknown,
            MachineState::Silent,
        ]
        .into_iter()
        .max_by_key(|s| (by_state[usize::from(concern(*s))], concern(*s)))
        .unwrap_or(MachineState::Running);
        let group = main_share(&sites, count)
            .map(Group::Site)
            .or_else(|| main_share(&companies, count).map(Group::Company));
        clusters.push(Cluster {
            center: [center[0] / world_px, center[1] / world_px],
            start: members.len() as u32,
            count,
            state,
            faulty,
            bounds,
            group,
        });
        members.extend_from_slice(&g.members);
    }
    Clusters { clusters, members }
}

/// The key held by at least [`GROUP_SHARE`] of `count` (and by two at
/// least: one machine is no gathering).
fn main_share(tally: &HashMap<u32, u32>, count: u32) -> Option<u32> {
    let (&key, &n) = tally
        .iter()
        .max_by_key(|&(&key, &n)| (n, std::cmp::Reverse(key)))?;
    (n >= 2 && f64::from(n) >= GROUP_SHARE * f64::from(count)).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::geo::mercator;

    fn point(id: i64, lat: f64, lon: f64) -> Point {
        Point {
            xy: mercator(lat, lon).expect("finite"),
            id,
            state: MachineState::ReportedToday,
            faulty: false,
            site: None,
            company: None,
        }
    }

    fn world(zoom: f64) -> f64 {
        256.0 * 2f64.powf(zoom)
    }

    /// Every machine once, counts adding up, centres apart.
    fn check(points: &[Point], c: &Clusters, world_px: f64, radius_px: f64) {
        let mut seen = vec![0u32; points.len()];
        let mut total = 0;
        for k in &c.clusters {
            let members = c.members_of(k);
            assert_eq!(members.len(), k.count as usize);
            total += k.count as usize;
            for &m in members {
                seen[m as usize] += 1;
                let xy = points[m as usize].xy;
                assert!(
                    k.bounds.min[0] <= xy[0]
                        && xy[0] <= k.bounds.max[0]
                        && k.bounds.min[1] <= xy[1]
                        && xy[1] <= k.bounds.max[1]
                );
            }
            // The centre is the members' mean.
            let n = f64::from(k.count);
            let mean = members.iter().fold([0.0, 0.0], |s, &m| {
                let xy = points[m as usize].xy;
                [s[0] + xy[0] / n, s[1] + xy[1] / n]
            });
            assert!((mean[0] - k.center[0]).abs() < 1e-9 && (mean[1] - k.center[1]).abs() < 1e-9);
        }
        assert_eq!(total, points.len(), "counts sum to N");
        assert_eq!(c.machines(), points.len());
        assert!(seen.iter().all(|&s| s == 1), "every machine in exactly one");
        for (i, a) in c.clusters.iter().enumerate() {
            for b in &c.clusters[i + 1..] {
                let d = ((a.center[0] - b.center[0]).powi(2) + (a.center[1] - b.center[1]).powi(2))
                    .sqrt()
                    * world_px;
                assert!(d >= radius_px - 1e-6, "centres {d} px apart < {radius_px}");
            }
        }
    }

    /// A deterministic scatter: `n` machines, a share of them at a few
    /// dense sites, the rest spread over Europe.
    fn fleet(n: usize) -> Vec<Point> {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let sites = [(51.95, 4.14), (45.73, 4.83), (53.53, 9.9), (40.37, -3.6)];
        (0..n)
            .map(|i| {
                let (lat, lon) = if i % 3 == 0 {
                    (36.0 + 24.0 * rand(), -9.0 + 33.0 * rand())
                } else {
                    let s = sites[i % sites.len()];
                    (s.0 + 0.01 * (rand() - 0.5), s.1 + 0.01 * (rand() - 0.5))
                };
                let mut p = point(i as i64, lat, lon);
                p.site = (i % 3 != 0).then_some((i % sites.len()) as u32);
                p
            })
            .collect()
    }

    #[test]
    fn every_machine_is_in_one_cluster_and_centres_stay_apart_at_every_zoom() {
        for n in [0, 1, 2, 7, 300, 3000] {
            let points = fleet(n);
            for zoom in [0.0, 2.0, 4.5, 6.0, 9.0, 13.0, 18.0] {
                let c = cluster(&points, world(zoom), 40.0);
                check(&points, &c, world(zoom), 40.0);
                if n > 0 {
                    assert!(!c.clusters.is_empty());
                }
            }
        }
    }

    #[test]
    fn far_apart_machines_stay_alone_and_near_ones_merge() {
        // About 1 km apart: alone at street level, one at country level.
        let points = vec![point(1, 51.0, 4.0), point(2, 51.0, 4.014)];
        let apart = cluster(&points, world(16.0), 40.0);
        assert_eq!(apart.clusters.len(), 2);
        assert!(apart.clusters.iter().all(|c| c.count == 1));
        let together = cluster(&points, world(8.0), 40.0);
        assert_eq!(together.clusters.len(), 1);
        assert_eq!(together.clusters[0].count, 2);
        // The same place twice is one cluster at any zoom.
        let same = vec![point(1, 51.0, 4.0), point(2, 51.0, 4.0)];
        assert_eq!(cluster(&same, world(22.0), 40.0).clusters.len(), 1);
    }

    #[test]
    fn a_chain_merges_until_no_two_centres_are_near() {
        // Machines 30 px apart in a row at the zoom: a single pass leaves
        // centres closer than the radius; the passes after merge them.
        let world_px = world(10.0);
        let points: Vec<Point> = (0..12)
            .map(|i| Point {
                xy: [0.5 + f64::from(i) * 30.0 / world_px, 0.3],
                ..point(i64::from(i), 0.0, 0.0)
            })
            .collect();
        let c = cluster(&points, world_px, 40.0);
        check(&points, &c, world_px, 40.0);
        assert!(c.clusters.len() < 12);
    }

    #[test]
    fn clusters_do_not_depend_on_the_rows_order() {
        let points = fleet(500);
        let mut shuffled = points.clone();
        shuffled.reverse();
        shuffled.rotate_left(77);
        let a = cluster(&points, world(5.0), 40.0);
        let b = cluster(&shuffled, world(5.0), 40.0);
        let ids = |c: &Clusters, pts: &[Point]| {
            let mut v: Vec<Vec<i64>> = c
                .clusters
                .iter()
                .map(|k| {
                    c.members_of(k)
                        .iter()
                        .map(|&m| pts[m as usize].id)
                        .collect()
                })
                .collect();
            v.sort();
            v
        };
        assert_eq!(ids(&a, &points), ids(&b, &shuffled));
    }

    #[test]
    fn a_cluster_shows_its_members_main_state_and_counts_its_faults() {
        let mut points = vec![
            point(1, 51.0, 4.0),
            point(2, 51.0001, 4.0),
            point(3, 51.0002, 4.0),
            point(4, 51.0003, 4.0),
        ];
        points[0].state = MachineState::Running;
        points[1].state = MachineState::Silent;
        points[1].faulty = true;
        points[2].state = MachineState::Running;
        points[3].state = MachineState::Unknown;
        let c = cluster(&points, world(8.0), 40.0);
        assert_eq!(c.clusters.len(), 1);
        assert_eq!(c.clusters[0].state, MachineState::Running, "most run");
        assert_eq!(c.clusters[0].faulty, 1);
        let tie = cluster(&points[..2], world(8.0), 40.0);
        assert_eq!(
            tie.clusters[0].state,
            MachineState::Silent,
            "a tie goes to the state asking more attention"
        );
        let calm = cluster(&points[..1], world(8.0), 40.0);
        assert_eq!(calm.clusters[0].state, MachineState::Running);
        assert_eq!(calm.clusters[0].faulty, 0);
        let mut ranked = MachineState::ALL;
        ranked.sort_by_key(|s| concern(*s));
        assert_eq!(ranked.last(), Some(&MachineState::Silent));
        assert_eq!(ranked.first(), Some(&MachineState::Running));
    }

    #[test]
    fn a_cluster_is_labelled_by_the_site_or_company_most_share() {
        let at = |id, site, company| Point {
            site,
            company,
            ..point(id, 51.0 + id as f64 * 1e-5, 4.0)
        };
        let label = |points: &[Point]| cluster(points, world(8.0), 40.0).clusters[0].group;
        // Three of four at site 7: the site.
        let points = [
            at(1, Some(7), Some(1)),
            at(2, Some(7), Some(2)),
            at(3, Some(7), None),
            at(4, Some(8), Some(1)),
        ];
        assert_eq!(label(&points), Some(Group::Site(7)));
        // Sites split, a company shared by 3 of 4: the company.
        let points = [
            at(1, Some(1), Some(5)),
            at(2, Some(2), Some(5)),
            at(3, Some(3), Some(5)),
            at(4, None, None),
        ];
        assert_eq!(label(&points), Some(Group::Company(5)));
        // Half and half: no label; nor for a machine alone.
        let points = [at(1, Some(1), None), at(2, Some(2), None)];
        assert_eq!(label(&points), None);
        assert_eq!(label(&[at(1, Some(1), Some(1))]), None);
    }

    #[test]
    fn the_site_is_read_from_the_name() {
        assert_eq!(
            site_of("EX-001 Volvo EC220E (Rotterdam)"),
            Some("Rotterdam")
        );
        assert_eq!(site_of("RT-12 DAF XF (Lyon) "), Some("Lyon"));
        assert_eq!(site_of("Crane (old) 4"), None);
        assert_eq!(site_of("Loader ()"), None);
        assert_eq!(site_of("Loader"), None);
    }

    #[test]
    fn ten_thousand_machines_cluster_quickly() {
        let points = fleet(10_000);
        let t = std::time::Instant::now();
        let c = cluster(&points, world(5.0), 40.0);
        let elapsed = t.elapsed();
        check(&points, &c, world(5.0), 40.0);
        // Generous: a debug build on a busy machine.
        assert!(elapsed.as_secs_f64() < 2.0, "{elapsed:?}");
    }
}
