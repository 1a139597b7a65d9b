//! What sits on the map: the speed legend (bottom left), the tiles'
//! attribution (bottom right, beside the legend or above it, never over
//! it), the zoom buttons (top right) and a note when the map has nothing to
//! show. Their places are pure functions of the map's rectangle, so a
//! fitted track can keep clear of them.

use egui::{Color32, Mesh, Rect, Shape, Vec2, pos2, vec2};

use crate::ui::format;
use crate::ui::theme;
use fleetview_core::analysis::{Quantity, UnitSystem};

const LEGEND_SIZE: Vec2 = vec2(176.0, 50.0);
pub(crate) const BUTTON_SIZE: Vec2 = vec2(34.0, 28.0);
const BUTTON_GAP: f32 = 4.0;
/// Narrower than this beside the legend, the attribution goes above it.
const MIN_ATTRIBUTION_WIDTH: f32 = 120.0;

/// Room to keep free at each edge of the map, in points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Insets {
    pub(crate) left: f32,
    pub(crate) right: f32,
    pub(crate) top: f32,
    pub(crate) bottom: f32,
}

/// What a fitted track keeps clear of: the legend and attribution below,
/// the zoom buttons on the right.
pub(super) const FIT_INSETS: Insets = Insets {
    left: theme::MAP_MARGIN,
    right: BUTTON_SIZE.x + 2.0 * theme::MAP_MARGIN,
    // A one-line note fits above.
    top: 36.0,
    bottom: LEGEND_SIZE.y + 2.0 * theme::MAP_MARGIN,
};

/// The events' legend above the speed legend: two rows of marks at most.
const EVENTS_LEGEND_HEIGHT: f32 = 2.0 * 18.0 + 12.0 + theme::MAP_MARGIN / 2.0;
/// The least height the overlays leave to the track.
const MIN_TRACK_ROOM: f32 = 90.0;

/// Which overlays a map this tall has room for. On a short map (a small
/// window) they give way to the track: the events' legend first, then the
/// note, the speed legend last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Room {
    pub(super) speed_legend: bool,
    pub(super) note: bool,
    pub(super) events_legend: bool,
}

pub(super) fn overlay_room(height: f32) -> Room {
    let speed = LEGEND_SIZE.y + 2.0 * theme::MAP_MARGIN;
    let free = height - MIN_TRACK_ROOM;
    Room {
        speed_legend: free >= speed,
        note: free >= speed + FIT_INSETS.top,
        events_legend: free >= speed + FIT_INSETS.top + EVENTS_LEGEND_HEIGHT,
    }
}

/// What a fitted track keeps clear of on a map this tall: the overlays
/// shown there.
pub(super) fn fit_insets(height: f32) -> Insets {
    let room = overlay_room(height);
    let mut bottom = theme::MAP_MARGIN;
    if room.speed_legend {
        bottom = FIT_INSETS.bottom;
    }
    if room.events_legend {
        bottom += EVENTS_LEGEND_HEIGHT;
    }
    Insets {
        bottom,
        top: if room.note {
            FIT_INSETS.top
        } else {
            theme::MAP_MARGIN
        },
        ..FIT_INSETS
    }
}

/// Where the legend goes on a map of `rect`.
pub(super) fn legend_rect(rect: Rect) -> Rect {
    Rect::from_min_size(
        rect.left_bottom() + vec2(theme::MAP_MARGIN, -theme::MAP_MARGIN - LEGEND_SIZE.y),
        LEGEND_SIZE,
    )
}

/// The room for the attribution, right-aligned on the map: its widest and
/// the y of its bottom. Beside the legend when there is room, else above it.
pub(super) fn attribution_room(rect: Rect, legend: Option<Rect>) -> (f32, f32) {
    let full = rect.width();
    match legend {
        Some(l) => {
            let beside = rect.right() - l.right() - theme::MAP_MARGIN;
            if beside >= MIN_ATTRIBUTION_WIDTH {
                (beside, rect.bottom())
            } else {
                (full, l.top() - theme::MAP_MARGIN / 2.0)
            }
        }
        None => (full, rect.bottom()),
    }
}

/// The speed scale of the track's colours, in a corner of the map.
pub(super) fn legend_ui(ui: &egui::Ui, rect: Rect, scale_kmh: f32, units: UnitSystem) {
    let top = format::measure(units, Quantity::Speed, Some(f64::from(scale_kmh)), 0);
    let painter = ui.painter().with_clip_rect(rect);
    let bg = legend_rect(rect);
    painter.rect_filled(bg, 4.0, theme::MAP_OVERLAY_BG);
    let bar = Rect::from_min_size(
        bg.left_top() + vec2(8.0, 20.0),
        vec2(LEGEND_SIZE.x - 16.0, 10.0),
    );
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
        top.clone(),
        font,
        Color32::WHITE,
    );
    ui.interact(bg, ui.scope_id().with("speed_legend"), egui::Sense::hover())
        .widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Label, true, format!("Speed legend, 0 to {top}"))
        });
}

/// The tiles' attributions, bottom right, wrapped to the room left by the
/// legend (if any).
pub(crate) fn attribution_ui(ui: &egui::Ui, rect: Rect, legend: Option<Rect>, text: &str) {
    let (width, bottom) = attribution_room(rect, legend);
    let pad = vec2(4.0, 2.0);
    let galley = ui.painter().layout(
        text.to_owned(),
        egui::FontId::proportional(10.0),
        Color32::WHITE,
        (width - 2.0 * pad.x).max(10.0),
    );
    let size = galley.size() + 2.0 * pad;
    let at = Rect::from_min_max(
        pos2(rect.right() - size.x, bottom - size.y),
        pos2(rect.right(), bottom),
    );
    let painter = ui.painter().with_clip_rect(rect);
    painter.rect_filled(at, 0.0, theme::MAP_OVERLAY_BG);
    painter.galley(at.min + pad, galley, Color32::WHITE);
    ui.interact(at, ui.scope_id().with("attribution"), egui::Sense::hover())
        .widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Label, true, format!("Map attribution: {text}"))
        });
}

/// A button of the map's own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum MapButton {
    ZoomIn,
    ZoomOut,
    Fit,
}

/// What the Fit button fits: its accessible name, its hover text, and
/// whether there is anything to fit.
#[derive(Debug, Clone)]
pub(crate) struct FitButton {
    pub(crate) name: &'static str,
    pub(crate) hover: String,
    pub(crate) enabled: bool,
}

/// Zoom in, zoom out and fit, in the map's top right corner. The zoom
/// buttons zoom `memory`; the button clicked, if any.
pub(crate) fn buttons_ui(
    ui: &mut egui::Ui,
    rect: Rect,
    memory: &mut walkers::MapMemory,
    fit: &FitButton,
) -> Option<MapButton> {
    let mut clicked = None;
    let x = rect.right() - theme::MAP_MARGIN - BUTTON_SIZE.x;
    let buttons = [
        ("+", "Zoom in", MapButton::ZoomIn, true),
        ("−", "Zoom out", MapButton::ZoomOut, true),
        ("Fit", fit.name, MapButton::Fit, fit.enabled),
    ];
    for (k, (text, name, which, enabled)) in buttons.into_iter().enumerate() {
        let size = if which == MapButton::Fit { 13.0 } else { 16.0 };
        let top = rect.top() + theme::MAP_MARGIN + k as f32 * (BUTTON_SIZE.y + BUTTON_GAP);
        let at = Rect::from_min_size(pos2(x, top), BUTTON_SIZE);
        let response = ui
            .scope_builder(egui::UiBuilder::new().max_rect(at), |ui| {
                ui.add_enabled(
                    enabled,
                    egui::Button::new(egui::RichText::new(text).size(size))
                        .wrap_mode(egui::TextWrapMode::Extend)
                        .min_size(BUTTON_SIZE),
                )
            })
            .inner
            .on_hover_text(match which {
                MapButton::Fit => fit.hover.as_str(),
                _ => name,
            });
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, name));
        if response.clicked() {
            clicked = Some(which);
        }
    }
    match clicked {
        Some(MapButton::ZoomIn) => {
            let _ = memory.zoom_in();
        }
        Some(MapButton::ZoomOut) => {
            let _ = memory.zoom_out();
        }
        _ => {}
    }
    clicked
}

/// A note across the top of the map, left of the buttons, with an optional
/// button; returns whether the button was clicked.
pub(crate) fn note_ui(ui: &mut egui::Ui, rect: Rect, text: &str, button: Option<&str>) -> bool {
    let width = (rect.width() - FIT_INSETS.right - theme::MAP_MARGIN).max(80.0);
    let at = Rect::from_min_size(
        rect.left_top() + Vec2::splat(theme::MAP_MARGIN),
        vec2(width, rect.height() / 2.0),
    );
    let mut clicked = false;
    ui.scope_builder(egui::UiBuilder::new().max_rect(at), |ui| {
        egui::Frame::new()
            .fill(theme::MAP_OVERLAY_BG)
            .corner_radius(4.0)
            .inner_margin(6.0)
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    ui.add(
                        egui::Label::new(egui::RichText::new(text).color(Color32::WHITE))
                            .selectable(false),
                    );
                    if let Some(label) = button {
                        clicked = ui.button(label).clicked();
                    }
                });
            });
    });
    clicked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_attribution_never_covers_the_legend() {
        for width in (150..1600).step_by(10) {
            let map = Rect::from_min_size(pos2(300.0, 200.0), vec2(width as f32, 400.0));
            let legend = legend_rect(map);
            let (room, bottom) = attribution_room(map, Some(legend));
            assert!(room <= map.width());
            // The widest the attribution may be, right-aligned.
            let at = Rect::from_min_max(
                pos2(map.right() - room, bottom - 14.0),
                pos2(map.right(), bottom),
            );
            assert!(!at.intersects(legend), "{width}: {at:?} over {legend:?}");
            assert!(map.contains_rect(at), "{width}");
        }
        let map = Rect::from_min_size(pos2(0.0, 0.0), vec2(800.0, 400.0));
        assert_eq!(attribution_room(map, None), (800.0, 400.0));
    }

    #[test]
    fn on_a_short_map_the_overlays_give_way_to_the_track_in_order() {
        let mut last = overlay_room(0.0);
        assert_eq!(
            last,
            Room {
                speed_legend: false,
                note: false,
                events_legend: false
            }
        );
        for h in 0..800 {
            let room = overlay_room(h as f32);
            // Once shown, an overlay stays as the map grows; the events'
            // legend never without the note, the note never alone.
            assert!(room.speed_legend >= last.speed_legend && room.note >= last.note);
            assert!(room.events_legend >= last.events_legend);
            assert!(room.speed_legend >= room.note && room.note >= room.events_legend);
            // What is shown, stacked, leaves the track its room.
            let insets = fit_insets(h as f32);
            if room.speed_legend {
                assert!(
                    h as f32 - insets.top - insets.bottom >= MIN_TRACK_ROOM - theme::MAP_MARGIN,
                    "{h}: {insets:?}"
                );
            }
            last = room;
        }
        assert!(last.events_legend, "a tall map shows every overlay");
        // The map of a 1000x700 window (about 125 points) is the track's.
        assert_eq!(
            overlay_room(125.0),
            Room {
                speed_legend: false,
                note: false,
                events_legend: false
            }
        );
        // A little taller, it keeps the speed legend and drops the rest.
        assert_eq!(
            overlay_room(160.0),
            Room {
                speed_legend: true,
                note: false,
                events_legend: false
            }
        );
    }

    #[test]
    fn fitted_tracks_keep_clear_of_the_events_legend_too() {
        let map = Rect::from_min_size(pos2(0.0, 0.0), vec2(800.0, 400.0));
        let events_top = legend_rect(map).top() - EVENTS_LEGEND_HEIGHT;
        assert!(map.bottom() - fit_insets(map.height()).bottom <= events_top);
    }

    #[test]
    fn fitted_tracks_keep_clear_of_the_legend() {
        let map = Rect::from_min_size(pos2(0.0, 0.0), vec2(800.0, 400.0));
        assert!(map.bottom() - FIT_INSETS.bottom < legend_rect(map).top());
    }
}
