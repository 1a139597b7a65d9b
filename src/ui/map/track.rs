//! The track layer: the window's positions as one mesh of segments
//! coloured by speed (simplified for the zoom, at most [`MAX_SEGMENTS`] a
//! frame), the selected activity's halo, picking the sample under the
//! pointer, and the speed legend.

use egui::{Color32, Mesh, Pos2, Rect, Shape, vec2};
use walkers::{MapMemory, Plugin, Projector};

use super::frame::MapFrame;
use super::markers;
use crate::series::{Segment, Track};
use crate::ui::theme;

/// Segments drawn per frame at most: 4 vertices each, so a frame stays
/// under 100k vertices however long the track.
pub const MAX_SEGMENTS: usize = 20_000;
const TRACK_WIDTH: f32 = 3.0;
/// How near (in points) the pointer must be to pick a sample.
const PICK_RADIUS: f32 = 12.0;

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
    highlight: Option<std::ops::Range<usize>>,
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
    if let Some(range) = highlight {
        for s in segments.iter().filter(|s| inside(s, &range)) {
            let (p, q) = ends(s);
            add_segment(&mut mesh, p, q, TRACK_WIDTH + 5.0, theme::ACTIVITY_HALO);
        }
    }
    for s in segments.iter() {
        let (p, q) = ends(s);
        let color = theme::speed_color(s.speed_kmh / scale);
        add_segment(&mut mesh, p, q, TRACK_WIDTH, color);
    }
    mesh
}

/// What the track layer saw this frame.
#[derive(Debug, Default)]
pub(super) struct Picked {
    pub(super) hovered: Option<usize>,
    pub(super) clicked: Option<usize>,
}

/// The track layer, rebuilt each frame.
pub(super) struct TrackLayer<'a> {
    pub(super) track: &'a Track,
    pub(super) segments: &'a mut Vec<Segment>,
    pub(super) highlight: Option<std::ops::Range<usize>>,
    pub(super) cursor: Option<i64>,
    pub(super) local: bool,
    pub(super) picked: &'a mut Picked,
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
        let mesh = track_mesh(t, &frame, projector.zoom(), self.highlight, self.segments);
        painter.add(Shape::mesh(mesh));
        markers::ends_ui(ui, &painter, &frame, t);
        if let Some(p) = self.cursor.and_then(|c| t.position_at(c)) {
            markers::cursor_ui(&painter, frame.to_screen(p));
        }
        // Hover and click: the nearest sample, if near enough.
        let Some(pointer) = response.hover_pos() else {
            return;
        };
        let near = t
            .nearest(frame.to_merc(pointer), self.segments)
            .filter(|(_, d)| frame.px(*d) <= PICK_RADIUS);
        let Some((i, _)) = near else { return };
        self.picked.hovered = Some(i);
        if response.clicked() {
            self.picked.clicked = Some(i);
        }
        markers::hovered_ui(&painter, &frame, t, i, pointer, self.local);
    }
}

/// The speed scale of the track's colours, in a corner of the map.
pub(super) fn legend_ui(ui: &egui::Ui, rect: Rect, scale_kmh: f32) {
    let painter = ui.painter().with_clip_rect(rect);
    let bar = Rect::from_min_size(rect.left_bottom() + vec2(12.0, -34.0), vec2(160.0, 10.0));
    let bg = bar.expand2(vec2(8.0, 20.0)).translate(vec2(0.0, -6.0));
    painter.rect_filled(bg, 4.0, Color32::from_black_alpha(170));
    let mut mesh = Mesh::default();
    let steps = 32;
    for k in 0..steps {
        let f0 = k as f32 / steps as f32;
        let f1 = (k + 1) as f32 / steps as f32;
        let r = Rect::from_x_y_ranges(
            bar.left() + bar.width() * f0..=bar.left() + bar.width() * f1,
            bar.y_range(),
        );
        mesh.add_colored_rect(r, theme::speed_color((f0 + f1) / 2.0));
    }
    painter.add(Shape::mesh(mesh));
    let font = egui::FontId::proportional(11.0);
    painter.text(
        bar.left_top() - vec2(0.0, 3.0),
        egui::Align2::LEFT_BOTTOM,
        "Speed",
        font.clone(),
        Color32::WHITE,
    );
    painter.text(
        bar.left_bottom() + vec2(0.0, 2.0),
        egui::Align2::LEFT_TOP,
        "0",
        font.clone(),
        Color32::WHITE,
    );
    painter.text(
        bar.right_bottom() + vec2(0.0, 2.0),
        egui::Align2::RIGHT_TOP,
        format!("{scale_kmh:.0} km/h"),
        font,
        Color32::WHITE,
    );
    ui.interact(bg, ui.scope_id().with("speed_legend"), egui::Sense::hover())
        .widget_info(|| {
            egui::WidgetInfo::labeled(
                egui::Role::Label,
                true,
                format!("Speed legend, 0 to {scale_kmh:.0} km/h"),
            )
        });
}

/// Whether a segment lies within a range of samples (an activity's): both
/// its ends, not only its start (the leg after the last sample belongs to
/// whatever comes next).
fn inside(s: &Segment, range: &std::ops::Range<usize>) -> bool {
    range.contains(&(s.a as usize)) && range.contains(&(s.b as usize))
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
        assert!(!inside(&seg(0, 1), &range), "the leg leading to it");
        assert!(inside(&seg(1, 2), &range));
        assert!(!inside(&seg(2, 3), &range), "the leg leaving it");
    }
}
