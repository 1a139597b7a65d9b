//! What the fleet map draws: a machine's marker (shaped by its category,
//! coloured by its state, ringed when it has faults), a cluster's disc,
//! the labels of sites where machines gather (placed so they never cover
//! one another nor another marker), and the legend. Markers go into one
//! mesh a frame, edges feathered as egui's own shapes are.

use std::collections::HashMap;
use std::sync::OnceLock;

use egui::{Color32, Mesh, Pos2, Rect, Vec2, pos2, vec2};

use super::cluster::Group;
use crate::ui::theme;
use fleetview_core::analysis::MachineState;

/// A machine's marker shape, from its category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Earthmoving: excavators, loaders, dump trucks, dozers; and what is
    /// not known.
    Circle,
    /// Road vehicles.
    Square,
    /// Lifting: cranes, telehandlers, lifts.
    Triangle,
    /// Power and compact machines: generators, compressors, compact
    /// (often electric) machines.
    Diamond,
}

/// The shape of a machine of `category` (any wording: the service's own
/// or the sandbox's).
pub fn shape_of(category: Option<&str>) -> Shape {
    let Some(c) = category.map(str::to_lowercase) else {
        return Shape::Circle;
    };
    let has = |words: &[&str]| words.iter().any(|w| c.contains(w));
    if has(&["dump", "articulated hauler"]) {
        Shape::Circle
    } else if has(&["crane", "telehandler", "lift", "boom", "hoist"]) {
        Shape::Triangle
    } else if has(&[
        "generator",
        "compressor",
        "light tower",
        "power",
        "compact",
        "electric",
        "mini",
    ]) {
        Shape::Diamond
    } else if has(&["truck", "van", "trailer", "vehicle", "tractor unit"]) {
        Shape::Square
    } else {
        Shape::Circle
    }
}

/// Edges fade over this width, as egui feathers its own shapes.
const FEATHER: f32 = 1.0;
const OUTLINE: f32 = 1.5;
/// A circle's corners: enough that none shows (the arc between two is
/// under a third of a point from the chord at these radii), few enough that
/// a thousand markers cost little (the discs are most of a frame's mesh).
const CIRCLE_STEPS: usize = 24;

fn unit_circle() -> &'static [Vec2; CIRCLE_STEPS] {
    static CIRCLE: OnceLock<[Vec2; CIRCLE_STEPS]> = OnceLock::new();
    CIRCLE.get_or_init(|| {
        std::array::from_fn(|k| {
            let a = k as f32 / CIRCLE_STEPS as f32 * std::f32::consts::TAU;
            vec2(a.cos(), a.sin())
        })
    })
}

/// Unit vectors round a circle of radius `r`: every other one for a
/// machine's small disc.
fn circle(r: f32) -> impl Iterator<Item = Vec2> {
    let step = if r < 9.0 { 2 } else { 1 };
    unit_circle().iter().step_by(step).copied()
}

/// `v` made a unit vector (`Vec2::normalized` goes through `hypot`,
/// which showed in the frame's profile).
fn unit(v: Vec2) -> Vec2 {
    v / (v.x * v.x + v.y * v.y).sqrt()
}

/// The corners of `shape` about `c`, `r` its size (a circle's radius),
/// each with its outward unit vector (the feather's direction).
fn outline(shape: Shape, c: Pos2, r: f32, out: &mut Vec<(Pos2, Vec2)>) {
    out.clear();
    let mut corners = |ds: &[Vec2]| out.extend(ds.iter().map(|d| (c + *d, unit(*d))));
    match shape {
        Shape::Circle => out.extend(circle(r).map(|d| (c + d * r, d))),
        Shape::Square => {
            let h = r * 0.9;
            corners(&[vec2(-h, -h), vec2(h, -h), vec2(h, h), vec2(-h, h)]);
        }
        Shape::Triangle => {
            // Pointing up; its centre a little low, so it sits on the spot.
            let (rr, dy) = (r * 1.3, r * 0.2);
            corners(&[-90f32, 30.0, 150.0].map(|a| {
                let a = a.to_radians();
                vec2(a.cos() * rr, a.sin() * rr + dy)
            }));
        }
        Shape::Diamond => {
            let d = r * 1.25;
            corners(&[vec2(0.0, -d), vec2(d, 0.0), vec2(0.0, d), vec2(-d, 0.0)]);
        }
    }
}

/// A filled convex polygon about `c`, its edge feathered.
fn fill(mesh: &mut Mesh, c: Pos2, corners: &[(Pos2, Vec2)], color: Color32) {
    let n = corners.len() as u32;
    let base = mesh.vertices.len() as u32;
    let h = FEATHER / 2.0;
    mesh.colored_vertex(c, color);
    for (p, d) in corners {
        mesh.colored_vertex(*p - *d * h, color);
    }
    for (p, d) in corners {
        mesh.colored_vertex(*p + *d * h, Color32::TRANSPARENT);
    }
    for i in 0..n {
        let j = (i + 1) % n;
        mesh.add_triangle(base, base + 1 + i, base + 1 + j);
        mesh.add_triangle(base + 1 + i, base + 1 + n + i, base + 1 + j);
        mesh.add_triangle(base + 1 + j, base + 1 + n + i, base + 1 + n + j);
    }
}

/// A ring from radius `r0` to `r1` about `c`, both edges feathered.
fn ring(mesh: &mut Mesh, c: Pos2, r0: f32, r1: f32, color: Color32) {
    let base = mesh.vertices.len() as u32;
    let h = FEATHER / 2.0;
    let radii = [
        (r0 - h, Color32::TRANSPARENT),
        (r0 + h, color),
        (r1 - h, color),
        (r1 + h, Color32::TRANSPARENT),
    ];
    let mut n = 0;
    for d in circle(r1) {
        for (r, col) in radii {
            mesh.colored_vertex(c + d * r, col);
        }
        n += 1;
    }
    for k in 0..n {
        let (a, b) = (base + 4 * k, base + 4 * ((k + 1) % n));
        for level in 0..3 {
            mesh.add_triangle(a + level, a + level + 1, b + level);
            mesh.add_triangle(a + level + 1, b + level + 1, b + level);
        }
    }
}

/// One frame's markers, drawn into one mesh.
#[derive(Debug, Default)]
pub struct Marks {
    pub mesh: Mesh,
    corners: Vec<(Pos2, Vec2)>,
}

impl Marks {
    /// Room for `machines` machines' markers and `clusters` clusters'
    /// (their fault rings and the hover's included): the mesh grows once.
    pub fn with_room(machines: usize, clusters: usize) -> Self {
        // A ring: 4 vertices and 6 triangles a step; a fill of n corners:
        // 1 + 2n vertices, 3n triangles.
        let ring = (4 * CIRCLE_STEPS, 6 * CIRCLE_STEPS);
        let fill = |n: usize| (1 + 2 * n, 3 * n);
        let (small, big) = (fill(CIRCLE_STEPS / 2), fill(CIRCLE_STEPS));
        let machine = (2 * small.0 + ring.0, 2 * small.1 + ring.1);
        let cluster = (2 * big.0 + ring.0, 2 * big.1 + ring.1);
        let mut mesh = Mesh::default();
        mesh.reserve_vertices(machines * machine.0 + clusters * cluster.0 + ring.0);
        mesh.reserve_triangles(machines * machine.1 + clusters * cluster.1 + ring.1);
        Self {
            mesh,
            corners: Vec::with_capacity(CIRCLE_STEPS),
        }
    }

    /// `shape` in `color`, edged white so it stands out on any tiles.
    fn edged(&mut self, shape: Shape, p: Pos2, r: f32, color: Color32) {
        outline(shape, p, r + OUTLINE, &mut self.corners);
        fill(&mut self.mesh, p, &self.corners, theme::MARKER_OUTLINE);
        outline(shape, p, r, &mut self.corners);
        fill(&mut self.mesh, p, &self.corners, color);
    }

    /// The red ring of faults in the window, from radius `r` out.
    fn fault_ring(&mut self, p: Pos2, r: f32) {
        let outer = r + theme::FAULT_RING_WIDTH;
        ring(&mut self.mesh, p, r, outer, theme::FAULT_RING);
    }

    /// A machine: its shape in its state's colour; ringed red with faults
    /// in the window.
    pub fn machine(&mut self, p: Pos2, shape: Shape, state: MachineState, faulty: bool) {
        let r = theme::FLEET_MARKER_RADIUS;
        if faulty {
            self.fault_ring(p, r + 2.5);
        }
        self.edged(shape, p, r, theme::machine_state_color(state));
    }

    /// A cluster: a disc in its main state's colour (its count written
    /// on it by the caller), ringed red when any member has faults.
    pub fn cluster(&mut self, p: Pos2, count: u32, state: MachineState, faulty: bool) {
        let r = theme::cluster_radius(count);
        if faulty {
            self.fault_ring(p, r + 1.0);
        }
        self.edged(
            Shape::Circle,
            p,
            r - OUTLINE,
            theme::machine_state_color(state),
        );
    }

    /// A legend's swatch: a small disc.
    pub fn swatch(&mut self, p: Pos2, color: Color32) {
        self.edged(Shape::Circle, p, theme::FLEET_MARKER_RADIUS - 1.5, color);
    }

    /// The marker under the pointer.
    pub fn hovered(&mut self, p: Pos2, radius: f32) {
        ring(
            &mut self.mesh,
            p,
            radius + 4.0,
            radius + 6.0,
            theme::MARKER_HOVER,
        );
    }
}

/// How far a marker reaches from its centre (its fault ring included):
/// what the pointer picks and labels keep clear of.
pub fn reach(count: u32) -> f32 {
    let r = if count <= 1 {
        theme::FLEET_MARKER_RADIUS * 1.3 + 2.5
    } else {
        theme::cluster_radius(count) + 1.0
    };
    r + theme::FAULT_RING_WIDTH
}

/// A label asked for under a cluster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelAsk {
    /// The cluster's index (in the obstacles), its centre in world pixels.
    pub cluster: usize,
    pub center: [f64; 2],
    pub size: Vec2,
    pub group: Group,
}

/// Where a placed label sits, relative to its marker's centre.
pub fn label_rect(center: Pos2, reach: f32, size: Vec2) -> Rect {
    Rect::from_min_size(center + vec2(-size.x / 2.0, reach + 1.0), size)
}

/// Labels with the same text closer than this (points) are one label:
/// the biggest cluster's.
pub const SAME_LABEL_PX: f64 = 240.0;
/// Rects in world pixels (x0, y0, x1, y1), each with its owner (a
/// cluster, or none for a label), filed by the 64-point cells they
/// overlap: what a label must not cover is found among a few.
#[derive(Debug, Default)]
struct RectGrid {
    cells: HashMap<(i64, i64), Vec<OwnedRect>>,
}

type OwnedRect = ([f64; 4], Option<usize>);

impl RectGrid {
    const CELL_PX: f64 = 64.0;

    fn cells(r: &[f64; 4]) -> impl Iterator<Item = (i64, i64)> {
        let cell = |v: f64| (v / Self::CELL_PX).floor() as i64;
        let (x0, x1, y0, y1) = (cell(r[0]), cell(r[2]), cell(r[1]), cell(r[3]));
        (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
    }

    fn insert(&mut self, r: [f64; 4], owner: Option<usize>) {
        for c in Self::cells(&r) {
            self.cells.entry(c).or_default().push((r, owner));
        }
    }

    /// Whether `r` overlaps a rect not owned by `own`.
    fn covers(&self, r: &[f64; 4], own: usize) -> bool {
        Self::cells(r).any(|c| {
            self.cells.get(&c).is_some_and(|list| {
                list.iter().any(|(o, owner)| {
                    *owner != Some(own) && o[0] < r[2] && r[0] < o[2] && o[1] < r[3] && r[1] < o[3]
                })
            })
        })
    }
}

/// Places labels under their clusters, in the order asked (the largest
/// cluster first): one is left out if it would cover a label already
/// placed, or a marker other than its own (`obstacles`: every cluster's
/// centre in world pixels and its reach), or repeat a label placed near.
/// Returns the offset of each placed label's rect from its cluster's
/// centre.
pub fn place_labels(asks: &[LabelAsk], obstacles: &[([f64; 2], f32)]) -> Vec<Option<Rect>> {
    let mut grid = RectGrid::default();
    for (i, (c, reach)) in obstacles.iter().enumerate() {
        let r = f64::from(*reach);
        grid.insert([c[0] - r, c[1] - r, c[0] + r, c[1] + r], Some(i));
    }
    let mut placed_by_group: HashMap<Group, Vec<[f64; 2]>> = HashMap::new();
    let mut out = Vec::with_capacity(asks.len());
    for ask in asks {
        let reach = obstacles.get(ask.cluster).map_or(0.0, |o| o.1);
        let offset = label_rect(Pos2::ZERO, reach, ask.size);
        // A point of room all round: labels never touch.
        let r = [
            ask.center[0] + f64::from(offset.min.x) - 1.0,
            ask.center[1] + f64::from(offset.min.y) - 1.0,
            ask.center[0] + f64::from(offset.max.x) + 1.0,
            ask.center[1] + f64::from(offset.max.y) + 1.0,
        ];
        let repeated = placed_by_group.get(&ask.group).is_some_and(|list| {
            list.iter()
                .any(|p| (p[0] - ask.center[0]).hypot(p[1] - ask.center[1]) < SAME_LABEL_PX)
        });
        if repeated || grid.covers(&r, ask.cluster) {
            out.push(None);
            continue;
        }
        grid.insert(r, None);
        placed_by_group
            .entry(ask.group)
            .or_default()
            .push(ask.center);
        out.push(Some(offset));
    }
    out
}

/// The legend's items: each state's colour and name, then the fault ring.
pub fn legend_items() -> impl Iterator<Item = (Option<MachineState>, &'static str)> {
    MachineState::ALL
        .into_iter()
        .map(|s| (Some(s), s.label()))
        .chain(std::iter::once((None, "Faults in window")))
}

/// Where each legend item goes (left to right, wrapping at `max_width`),
/// and the legend's size: items of `widths`, `height` each.
pub fn legend_layout(widths: &[f32], height: f32, max_width: f32) -> (Vec<Pos2>, Vec2) {
    const PAD: f32 = 6.0;
    const GAP: f32 = 10.0;
    let mut at = Vec::with_capacity(widths.len());
    let (mut x, mut y, mut widest) = (PAD, PAD, 0.0f32);
    for &w in widths {
        if x > PAD && x + w + PAD > max_width {
            x = PAD;
            y += height + 2.0;
        }
        at.push(pos2(x, y));
        widest = widest.max(x + w);
        x += w + GAP;
    }
    (at, vec2(widest + PAD, y + height + PAD))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_get_their_shapes() {
        let cases = [
            (Some("Excavator"), Shape::Circle),
            (Some("Wheel loader"), Shape::Circle),
            (Some("Dump truck"), Shape::Circle),
            (Some("Road truck"), Shape::Square),
            (Some("Telehandler"), Shape::Triangle),
            (Some("Crane"), Shape::Triangle),
            (Some("Mobile crane"), Shape::Triangle),
            (Some("Generator"), Shape::Diamond),
            (Some("Compact excavator"), Shape::Diamond),
            (Some("Something new"), Shape::Circle),
            (None, Shape::Circle),
        ];
        for (category, shape) in cases {
            assert_eq!(shape_of(category), shape, "{category:?}");
        }
    }

    #[test]
    fn shapes_are_convex_about_their_centre_and_feathered() {
        let c = pos2(50.0, 50.0);
        for shape in [
            Shape::Circle,
            Shape::Square,
            Shape::Triangle,
            Shape::Diamond,
        ] {
            let mut marks = Marks::default();
            marks.machine(c, shape, MachineState::Running, true);
            let mesh = &marks.mesh;
            assert!(mesh.is_valid());
            // Solid inside, fading to nothing outside.
            assert!(
                mesh.vertices
                    .iter()
                    .any(|v| v.color == Color32::TRANSPARENT)
            );
            let far = mesh
                .vertices
                .iter()
                .map(|v| v.pos.distance(c))
                .fold(0.0f32, f32::max);
            assert!(far <= reach(1) + 1.0, "{shape:?} reaches {far}");
        }
        let mut marks = Marks::default();
        marks.cluster(c, 120, MachineState::Silent, false);
        assert!(marks.mesh.is_valid());
        assert!(
            marks
                .mesh
                .vertices
                .iter()
                .any(|v| v.color == theme::machine_state_color(MachineState::Silent))
        );
    }

    fn ask(cluster: usize, x: f64, group: u32) -> LabelAsk {
        LabelAsk {
            cluster,
            center: [x, 100.0],
            size: vec2(60.0, 14.0),
            group: Group::Site(group),
        }
    }

    #[test]
    fn labels_never_cover_each_other_nor_other_markers() {
        // Clusters in a row, 30 px apart: the first's label is placed,
        // its neighbours' would cover it or their neighbour's marker.
        let centres: Vec<[f64; 2]> = (0..6)
            .map(|k| [100.0 + 30.0 * f64::from(k), 100.0])
            .collect();
        let obstacles: Vec<([f64; 2], f32)> = centres.iter().map(|c| (*c, 12.0)).collect();
        let asks: Vec<LabelAsk> = (0..6).map(|k| ask(k, centres[k][0], k as u32)).collect();
        let placed = place_labels(&asks, &obstacles);
        assert!(placed[0].is_some(), "the first asked is placed");
        let rects: Vec<Rect> = placed
            .iter()
            .zip(&asks)
            .filter_map(|(p, a)| {
                p.map(|r| r.translate(vec2(a.center[0] as f32, a.center[1] as f32)))
            })
            .collect();
        assert!(rects.len() < 6);
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                assert!(!a.intersects(*b), "{a:?} {b:?}");
            }
            for (c, reach) in &obstacles {
                let marker = Rect::from_center_size(
                    pos2(c[0] as f32, c[1] as f32),
                    Vec2::splat(2.0 * reach),
                );
                let own = (a.center().x - c[0] as f32).abs() < 1.0;
                assert!(own || !a.intersects(marker), "{a:?} over {marker:?}");
            }
        }
        // Far apart: all placed, each under its own marker.
        let far: Vec<LabelAsk> = (0..3)
            .map(|k| ask(k, 1000.0 * k as f64, k as u32))
            .collect();
        let obstacles: Vec<([f64; 2], f32)> = far.iter().map(|a| (a.center, 12.0)).collect();
        let placed = place_labels(&far, &obstacles);
        assert!(placed.iter().all(Option::is_some));
        let r = placed[1].expect("placed");
        assert!(r.top() > 12.0 && (r.center().x).abs() < 1e-3);
    }

    #[test]
    fn one_site_is_named_once_nearby() {
        let asks = [ask(0, 0.0, 7), ask(1, 150.0, 7), ask(2, 1000.0, 7)];
        let obstacles: Vec<([f64; 2], f32)> = asks.iter().map(|a| (a.center, 12.0)).collect();
        let placed = place_labels(&asks, &obstacles);
        assert!(placed[0].is_some());
        assert!(placed[1].is_none(), "the same site's name, near");
        assert!(placed[2].is_some(), "the same name, far away");
    }

    #[test]
    fn the_legend_wraps_to_its_width() {
        let widths = [90.0, 95.0, 100.0, 80.0, 90.0, 100.0];
        let (at, size) = legend_layout(&widths, 14.0, 1000.0);
        assert!(at.iter().all(|p| p.y == at[0].y), "one line when wide");
        assert!(size.x < 1000.0);
        let (at, size) = legend_layout(&widths, 14.0, 300.0);
        assert!(size.x <= 300.0, "{size:?}");
        for (p, w) in at.iter().zip(widths) {
            assert!(p.x + w <= size.x);
        }
        assert!(at.last().expect("items").y > at[0].y);
    }
}
