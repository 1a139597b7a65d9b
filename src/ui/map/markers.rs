//! The markers on the track: its start and end, the time cursor, and the
//! sample under the pointer with its time, speed, heading and altitude.

use egui::{Color32, Painter, Pos2, Rect, Stroke, vec2};

use super::frame::MapFrame;
use crate::series::Track;
use crate::ui::theme;

/// The track's start and end, labelled.
pub(super) fn ends_ui(ui: &egui::Ui, painter: &Painter, frame: &MapFrame, t: &Track) {
    for (i, color, text) in [
        (0, theme::TRACK_START, "Start"),
        (t.len() - 1, theme::TRACK_END, "End"),
    ] {
        let p = frame.to_screen(t.xy[i]);
        painter.circle(p, 6.0, color, Stroke::new(2.0, Color32::WHITE));
        let rect = painter.text(
            p + vec2(9.0, -9.0),
            egui::Align2::LEFT_BOTTOM,
            text,
            egui::FontId::proportional(12.0),
            Color32::WHITE,
        );
        ui.interact(rect, ui.scope_id().with(text), egui::Sense::hover())
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, text));
    }
}

/// The time cursor's position on the track.
pub(super) fn cursor_ui(painter: &Painter, p: Pos2) {
    painter.circle(p, 7.0, theme::CURSOR, Stroke::new(2.0, Color32::BLACK));
}

/// Sample `i` under the pointer: ringed, with its values beside the pointer.
pub(super) fn hovered_ui(
    painter: &Painter,
    frame: &MapFrame,
    t: &Track,
    i: usize,
    pointer: Pos2,
    local: bool,
) {
    let s = &t.samples[i];
    let p = frame.to_screen(t.xy[i]);
    painter.circle_stroke(p, 6.0, Stroke::new(2.0, Color32::WHITE));
    let text = format!(
        "{}\nspeed {} km/h\nheading {}°\naltitude {} m",
        theme::format_time(s.time, local),
        theme::number(s.speed_kmh.or(Some(f64::from(t.speed_kmh[i]))), 1),
        theme::number(s.heading_deg, 0),
        theme::number(s.altitude_m, 0),
    );
    let galley = painter.layout_no_wrap(text, egui::FontId::proportional(13.0), Color32::WHITE);
    let rect = Rect::from_min_size(pointer + vec2(16.0, 16.0), galley.size()).expand(6.0);
    painter.rect_filled(rect, 4.0, Color32::from_black_alpha(220));
    painter.galley(rect.min + vec2(6.0, 6.0), galley, Color32::WHITE);
}
