//! The markers on the track: its start and end (labels kept apart, or
//! merged when the track ends where it started), the time cursor, and the
//! point under the pointer with its time, speed, heading and altitude.

use egui::{Align2, Color32, Painter, Pos2, Rect, Stroke, Vec2, vec2};

use super::frame::MapFrame;
use crate::ui::format;
use crate::ui::theme;
use fleetview_api::geo::{LatLon, bearing_deg};
use fleetview_core::analysis::{Quantity, UnitSystem};
use fleetview_core::series::{Track, TrackPoint};

const END_RADIUS: f32 = 6.0;
/// From the marker's centre to its label's corner.
const LABEL_OFFSET: f32 = 9.0;
/// Markers closer than this are one: one label says both.
const SAME_PLACE_PX: f32 = 6.0;
const LABEL_PAD: Vec2 = vec2(4.0, 1.0);

/// Where the Start and End labels go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum EndLabels {
    /// Each beside its own marker.
    Apart { start: Rect, end: Rect },
    /// "Start and end", beside the start.
    Merged(Rect),
}

/// A label of `size` beside `p`, on the side given by `align` (the label's
/// corner nearest the marker).
fn beside(p: Pos2, size: Vec2, align: Align2) -> Rect {
    let dx = match align.x() {
        egui::Align::Min => LABEL_OFFSET,
        egui::Align::Center => 0.0,
        egui::Align::Max => -LABEL_OFFSET,
    };
    let dy = match align.y() {
        egui::Align::Min => LABEL_OFFSET,
        egui::Align::Center => 0.0,
        egui::Align::Max => -LABEL_OFFSET,
    };
    align.anchor_size(p + vec2(dx, dy), size)
}

/// Places the Start and End labels (of the sizes given) so that neither
/// covers the other nor the other's marker: up and right of each marker if
/// that fits, else apart sideways, else apart up and down, else one label
/// for both.
pub(super) fn place_end_labels(
    start: Pos2,
    end: Pos2,
    start_size: Vec2,
    end_size: Vec2,
    both_size: Vec2,
) -> EndLabels {
    let merged = EndLabels::Merged(beside(start, both_size, Align2::LEFT_BOTTOM));
    if start.distance(end) < SAME_PLACE_PX {
        return merged;
    }
    let marker = |p: Pos2| Rect::from_center_size(p, Vec2::splat(2.0 * END_RADIUS + 2.0));
    let clear = |s: Rect, e: Rect| {
        !s.intersects(e) && !s.intersects(marker(end)) && !e.intersects(marker(start))
    };
    let (left, right) = if start.x <= end.x {
        (Align2::RIGHT_BOTTOM, Align2::LEFT_BOTTOM)
    } else {
        (Align2::LEFT_BOTTOM, Align2::RIGHT_BOTTOM)
    };
    let (up, down) = if start.y <= end.y {
        (Align2::LEFT_BOTTOM, Align2::LEFT_TOP)
    } else {
        (Align2::LEFT_TOP, Align2::LEFT_BOTTOM)
    };
    [
        (Align2::LEFT_BOTTOM, Align2::LEFT_BOTTOM),
        (left, right),
        (up, down),
    ]
    .into_iter()
    .map(|(a, b)| (beside(start, start_size, a), beside(end, end_size, b)))
    .find(|(s, e)| clear(*s, *e))
    .map_or(merged, |(start, end)| EndLabels::Apart { start, end })
}

/// A label on the map: text on a dark plate, named for accessibility.
fn label_ui(ui: &egui::Ui, painter: &Painter, rect: Rect, text: &str) {
    painter.rect_filled(rect, 3.0, theme::MAP_OVERLAY_BG);
    painter.text(
        rect.center(),
        Align2::CENTER_CENTER,
        text,
        egui::FontId::proportional(12.0),
        Color32::WHITE,
    );
    ui.interact(rect, ui.scope_id().with(text), egui::Sense::hover())
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, text));
}

/// The track's start and end, labelled.
pub(super) fn ends_ui(ui: &egui::Ui, painter: &Painter, frame: &MapFrame, t: &Track) {
    let (start, end) = (frame.to_screen(t.xy[0]), frame.to_screen(t.xy[t.len() - 1]));
    let outline = theme::map_outline(ui.visuals());
    for (p, color) in [(start, theme::TRACK_START), (end, theme::TRACK_END)] {
        painter.circle(p, END_RADIUS, color, Stroke::new(2.0, outline));
    }
    let size = |text: &str| {
        let galley = painter.layout_no_wrap(
            text.to_owned(),
            egui::FontId::proportional(12.0),
            Color32::WHITE,
        );
        galley.size() + 2.0 * LABEL_PAD
    };
    let (s, e, both) = ("Start", "End", "Start and end");
    match place_end_labels(start, end, size(s), size(e), size(both)) {
        EndLabels::Apart { start, end } => {
            label_ui(ui, painter, start, s);
            label_ui(ui, painter, end, e);
        }
        EndLabels::Merged(rect) => label_ui(ui, painter, rect, both),
    }
}

/// The time cursor's position on the track.
pub(super) fn cursor_ui(painter: &Painter, p: Pos2) {
    painter.circle(p, 7.0, theme::CURSOR, Stroke::new(2.0, Color32::BLACK));
}

/// What the map says of a point of the track: a position's own values, or
/// between two positions, the time and values interpolated along the leg.
fn describe(t: &Track, point: &TrackPoint, zone: &format::Zone, units: UnitSystem) -> String {
    let time = format::format_time(t.time_at(point), zone);
    let speed = |kmh| format::measure(units, Quantity::Speed, kmh, 1);
    let altitude = |m| format::measure(units, Quantity::Length, m, 0);
    if let Some(i) = point.sample() {
        let s = &t.samples[i];
        // A speed the service did not send is worked out from the leg to
        // the next position: said so.
        let speed_text = match s.speed_kmh() {
            Some(given) => speed(Some(given)),
            None => match speed(Some(f64::from(t.speed_kmh(i)))) {
                text if text == format::NULL => text,
                text => format!("{text} (from positions)"),
            },
        };
        return format!(
            "{time}\nspeed {speed_text}\nheading {}\naltitude {}",
            degrees(s.heading_deg()),
            altitude(s.altitude_m()),
        );
    }
    let (a, b) = (&t.samples[point.leg], &t.samples[point.leg + 1]);
    let f = point.fraction;
    let lerp = |x: Option<f64>, y: Option<f64>| Some(x? + (y? - x?) * f);
    let heading = bearing_deg(LatLon::new(a.lat, a.lon), LatLon::new(b.lat, b.lon));
    format!(
        "{time} (between two positions)\nspeed {}\nheading {}\naltitude {}",
        speed(lerp(
            Some(f64::from(t.speed_kmh(point.leg))),
            Some(f64::from(t.speed_kmh(point.leg + 1))),
        )),
        degrees(Some(heading)),
        altitude(lerp(a.altitude_m(), b.altitude_m())),
    )
}

/// A heading in whole degrees; the dash alone when unknown.
fn degrees(v: Option<f64>) -> String {
    match format::number(v, 0) {
        text if text == format::NULL => text,
        text => format!("{text}°"),
    }
}

/// The point under the pointer: ringed, with its values beside the pointer.
pub(super) fn hovered_ui(
    response: &egui::Response,
    painter: &Painter,
    frame: &MapFrame,
    t: &Track,
    point: &TrackPoint,
    (zone, units): (&format::Zone, UnitSystem),
) {
    let outline = theme::map_outline(&response.ctx.global_style().visuals);
    painter.circle_stroke(
        frame.to_screen(point.xy),
        END_RADIUS,
        Stroke::new(2.0, outline),
    );
    let text = describe(t, point, zone, units);
    egui::Tooltip::for_widget(response)
        .at_pointer()
        .gap(16.0)
        .show(|ui| ui.label(text));
}

#[cfg(test)]
mod tests {
    use egui::pos2;

    use super::*;

    fn sizes() -> (Vec2, Vec2, Vec2) {
        (vec2(38.0, 16.0), vec2(30.0, 16.0), vec2(90.0, 16.0))
    }

    #[test]
    fn a_position_says_what_it_was_sent_and_what_was_worked_out() {
        use fleetview_core::series::{Track, TrackSample};
        let given = TrackSample::at(0, 45.0, 4.0)
            .with_speed_kmh(Some(12.3))
            .with_heading_deg(Some(90.0));
        // No speed or heading sent: the speed is that of the leg after it.
        let bare = TrackSample::at(60, 45.01, 4.0);
        let t = Track::new(vec![given, bare, TrackSample::at(120, 45.02, 4.0)]);
        let at = |i: usize| {
            let point = TrackPoint {
                leg: i,
                fraction: 0.0,
                xy: t.xy[i],
                distance: 0.0,
            };
            describe(
                &t,
                &point,
                &crate::ui::format::Zone::utc(),
                UnitSystem::Metric,
            )
        };
        let first = at(0);
        assert!(first.contains("speed 12.3 km/h\n"), "{first}");
        assert!(first.contains("heading 90°\n"), "{first}");
        let second = at(1);
        assert!(second.contains("km/h (from positions)\n"), "{second}");
        assert!(second.contains("heading —\n"), "{second}");
        assert!(
            !second.contains("°"),
            "no unit on an unknown heading: {second}"
        );
    }

    #[test]
    fn end_labels_never_overlap_however_close_the_ends() {
        let (s, e, b) = sizes();
        let start = pos2(400.0, 300.0);
        for dx in (-60..=60).step_by(3) {
            for dy in (-60..=60).step_by(3) {
                let end = start + vec2(dx as f32, dy as f32);
                match place_end_labels(start, end, s, e, b) {
                    EndLabels::Apart { start: ls, end: le } => {
                        assert!(!ls.intersects(le), "{dx},{dy}: {ls:?} {le:?}");
                        assert_eq!((ls.size(), le.size()), (s, e));
                    }
                    EndLabels::Merged(r) => {
                        assert!(start.distance(end) < 20.0, "{dx},{dy} merged");
                        assert_eq!(r.size(), b);
                    }
                }
            }
        }
    }

    #[test]
    fn far_ends_keep_their_usual_place_and_one_place_has_one_label() {
        let (s, e, b) = sizes();
        let (start, end) = (pos2(100.0, 100.0), pos2(400.0, 300.0));
        assert_eq!(
            place_end_labels(start, end, s, e, b),
            EndLabels::Apart {
                start: Rect::from_min_size(pos2(109.0, 91.0 - s.y), s),
                end: Rect::from_min_size(pos2(409.0, 291.0 - e.y), e),
            }
        );
        assert!(matches!(
            place_end_labels(start, start + vec2(2.0, 1.0), s, e, b),
            EndLabels::Merged(_)
        ));
    }
}
