//! The track layer: the window's positions as one mesh of segments
//! coloured by speed (simplified for the zoom, at most [`MAX_SEGMENTS`] a
//! frame), the selected activity's halo, and picking the point of the line
//! under the pointer.

use egui::{Color32, Mesh, Pos2, Shape, vec2};
use walkers::{MapMemory, Plugin, Projector};

use super::frame::MapFrame;
use super::markers;
use crate::ui::theme;
use fleetview_core::series::{Segment, Track, TrackPoint};

/// Segments drawn per frame at most: 4 vertices each, so a frame stays
/// under 100k vertices however long the track.
pub const MAX_SEGMENTS: usize = 20_000;
const TRACK_WIDTH: f32 = 3.0;
/// How near (in points) the pointer must be to pick the line.
const PICK_RADIUS: f32 = 12.0;
/// How near (in points) the pointer must be to pick a position itself.
const SNAP_RADIUS: f32 = 8.0;

/// Adds a segment as a quad (4 vertices) to `mesh`.
fn add_segment(mesh: &mut Mesh, a: Pos2, b: Pos2, width: f32, color: Color32) {
    let d = b - a;
    let dir = if d.length_sq() > 1e-6 {
        d.normalized()
    } else {
        vec2(1.0, 0.0)
    };
    let n = vec2(-dir.y, dir.x) * (width / 2.0);
    let i = mesh.vertices.len() as u32;
    for p in [a + n, a - n, b + n, b - n] {
        mesh.colored_vertex(p, color);
    }
    mesh.add_triangle(i, i + 1, i + 2);
    mesh.add_triangle(i + 1, i + 3, i + 2);
}

/// The track's mesh for one frame: what a frame of the map costs beyond
/// the tiles. Public for the frame benchmark.
pub fn track_mesh(
    track: &Track,
    frame: &MapFrame,
    zoom: f64,
    highlight: Option<(std::ops::Range<usize>, Color32)>,
    segments: &mut Vec<Segment>,
) -> Mesh {
    track.visible_segments(&frame.view, zoom, MAX_SEGMENTS, segments);
    let scale = track.speed_scale_kmh.max(1.0);
    let mut mesh = Mesh::default();
    mesh.reserve_vertices(segments.len() * 4);
    mesh.reserve_triangles(segments.len() * 2);
    let ends = |s: &Segment| {
        (
            frame.to_screen(track.xy[s.a as usize]),
            frame.to_screen(track.xy[s.b as usize]),
        )
    };
    if let Some((range, halo)) = highlight {
        for (a, b) in segments.iter().filter_map(|s| inside(s, &range)) {
            let (p, q) = (frame.to_screen(track.xy[a]), frame.to_screen(track.xy[b]));
            add_segment(&mut mesh, p, q, TRACK_WIDTH + 5.0, halo);
        }
    }
    for s in segments.iter() {
        let (p, q) = ends(s);
        let color = theme::speed_color(s.speed_kmh / scale);
        add_segment(&mut mesh, p, q, TRACK_WIDTH, color);
    }
    mesh
}

/// A dark edge under the track's `segments` (as [`track_mesh`] left
/// them), for a light basemap.
fn casing_mesh(track: &Track, frame: &MapFrame, segments: &[Segment], color: Color32) -> Mesh {
    let mut mesh = Mesh::default();
    for s in segments {
        let (p, q) = (
            frame.to_screen(track.xy[s.a as usize]),
            frame.to_screen(track.xy[s.b as usize]),
        );
        add_segment(&mut mesh, p, q, TRACK_WIDTH + 2.0, color);
    }
    mesh
}

/// What the track layer saw this frame.
#[derive(Debug, Default)]
pub(super) struct Picked {
    pub(super) hovered: Option<TrackPoint>,
    pub(super) clicked: Option<TrackPoint>,
}

/// The track layer, rebuilt each frame.
pub(super) struct TrackLayer<'a> {
    pub(super) track: &'a Track,
    pub(super) segments: &'a mut Vec<Segment>,
    pub(super) highlight: Option<std::ops::Range<usize>>,
    pub(super) cursor: Option<i64>,
    pub(super) zone: crate::ui::format::Zone,
    pub(super) units: fleetview_core::analysis::UnitSystem,
    pub(super) picked: &'a mut Picked,
    /// The pointer is on an event's mark: no hover, no click of the line.
    pub(super) quiet: bool,
}

impl Plugin for TrackLayer<'_> {
    fn run(
        self: Box<Self>,
        ui: &mut egui::Ui,
        response: &egui::Response,
        projector: &Projector,
        _memory: &MapMemory,
    ) {
        let Some(frame) = MapFrame::new(projector) else {
            return;
        };
        let t = self.track;
        let painter = ui.painter().with_clip_rect(projector.clip_rect());
        let visuals = ui.visuals().clone();
        let highlight = self
            .highlight
            .map(|range| (range, theme::activity_halo(&visuals)));
        let mesh = track_mesh(t, &frame, projector.zoom(), highlight, self.segments);
        if let Some(casing) = theme::track_casing(&visuals) {
            painter.add(Shape::mesh(casing_mesh(t, &frame, self.segments, casing)));
        }
        painter.add(Shape::mesh(mesh));
        markers::ends_ui(ui, &painter, &frame, t);
        if let Some(p) = self.cursor.and_then(|c| t.position_at(c)) {
            markers::cursor_ui(&painter, frame.to_screen(p));
        }
        // Hover and click: the nearest point of the line, if near enough;
        // a position itself when the pointer is on it.
        let Some(pointer) = response.hover_pos().filter(|_| !self.quiet) else {
            return;
        };
        let near = t
            .pick(frame.to_merc(pointer), self.segments)
            .filter(|p| frame.px(p.distance) <= PICK_RADIUS);
        let Some(mut point) = near else { return };
        for i in [point.leg, point.leg + 1] {
            if let Some(xy) = t.xy.get(i)
                && frame.to_screen(*xy).distance(pointer) <= SNAP_RADIUS
            {
                point = point.at_sample(i, *xy);
                break;
            }
        }
        self.picked.hovered = Some(point);
        if response.clicked() {
            self.picked.clicked = Some(point);
        }
        markers::hovered_ui(
            response,
            &painter,
            &frame,
            t,
            &point,
            (&self.zone, self.units),
        );
    }
}

/// The part of a segment within a range of samples (an activity's), as
/// the samples at its ends: a simplified segment may stand for samples on
/// both sides of the range, and the samples between its ends lie on it
/// (within half a pixel). The leg after the range's last sample belongs to
/// whatever comes next.
fn inside(s: &Segment, range: &std::ops::Range<usize>) -> Option<(usize, usize)> {
    let a = (s.a as usize).max(range.start);
    let b = (s.b as usize).min(range.end.checked_sub(1)?);
    (a < b).then_some((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_activity_highlights_its_own_legs_only() {
        let seg = |a, b| Segment {
            a,
            b,
            speed_kmh: 0.0,
        };
        // Samples 1 and 2 are the activity's; 0 before it, 3 after it.
        let range = 1..3;
        assert_eq!(inside(&seg(0, 1), &range), None, "the leg leading to it");
        assert_eq!(inside(&seg(1, 2), &range), Some((1, 2)));
        assert_eq!(inside(&seg(2, 3), &range), None, "the leg leaving it");
        // Simplified, one segment stands for samples 0 to 9: the activity's
        // part of it is drawn (it was left out, so a straight trip had no
        // halo at all).
        assert_eq!(inside(&seg(0, 9), &(3..7)), Some((3, 6)));
        assert_eq!(inside(&seg(0, 9), &(3..4)), None, "one sample, no leg");
        assert_eq!(inside(&seg(0, 9), &(3..3)), None);
    }
}
