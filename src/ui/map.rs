//! The map: the offline basemap, online tiles on top when switched on, and
//! the window's track coloured by speed, with start and end markers, the
//! selected activity highlighted and the time cursor. Hovering the track
//! shows the nearest sample; clicking it moves the cursor there.

use std::sync::Arc;

use egui::{Color32, Mesh, Pos2, Rect, Shape, Stroke, pos2, vec2};
use walkers::{HttpTiles, Map, MapMemory, Plugin, Projector, Tiles, lat_lon};

use super::theme;
use crate::api::time::TimeWindow;
use crate::app::TimelineAction;
use crate::app::{Action, AppState, MapSettings};
use crate::basemap::{OfflineTiles, Palette, online_tiles};
use crate::export::shown::{ExportContent, GeoFormat};
use crate::geo::{MercRect, mercator, unmercator};
use crate::series::{Segment, Track};

/// Segments drawn per frame at most: 4 vertices each, so a frame stays
/// under 100k vertices however long the track.
pub const MAX_SEGMENTS: usize = 20_000;
const TRACK_WIDTH: f32 = 3.0;
/// How near (in points) the pointer must be to pick a sample.
const PICK_RADIUS: f32 = 12.0;

pub struct MapView {
    memory: MapMemory,
    offline: Option<OfflineTiles>,
    /// Online tiles and the template they were made for.
    online: Option<(String, HttpTiles)>,
    /// The machine and window whose track was last fitted into view: a
    /// refresh of the same (back online, *Refresh*) keeps the user's view.
    fitted: Option<(i64, TimeWindow)>,
    fit_requested: bool,
    last_seek: u64,
    segments: Vec<Segment>,
    tile_url: String,
}

impl Default for MapView {
    fn default() -> Self {
        let mut memory = MapMemory::default();
        // Europe, until there is a track.
        let _ = memory.set_zoom(4.0);
        Self {
            memory,
            offline: None,
            online: None,
            fitted: None,
            fit_requested: false,
            last_seek: 0,
            segments: Vec::new(),
            tile_url: String::new(),
        }
    }
}

impl std::fmt::Debug for MapView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapView")
            .field("zoom", &self.memory.zoom())
            .field("online", &self.online.as_ref().map(|o| &o.0))
            .finish_non_exhaustive()
    }
}

/// Screen <-> Web Mercator for one frame of the map.
#[derive(Debug, Clone, Copy)]
pub struct MapFrame {
    center_px: Pos2,
    center: [f64; 2],
    world_px: f64,
    pub view: MercRect,
}

impl MapFrame {
    pub fn new(projector: &Projector) -> Option<Self> {
        let rect = projector.clip_rect();
        let c = projector.unproject(rect.center().to_vec2());
        let center = mercator(c.y(), c.x())?;
        let world_px = 256.0 * 2f64.powf(projector.zoom());
        let (hw, hh) = (
            f64::from(rect.width()) / 2.0 / world_px,
            f64::from(rect.height()) / 2.0 / world_px,
        );
        Some(Self {
            center_px: rect.center(),
            center,
            world_px,
            view: MercRect {
                min: [center[0] - hw, center[1] - hh],
                max: [center[0] + hw, center[1] + hh],
            },
        })
    }

    pub fn to_screen(&self, p: [f64; 2]) -> Pos2 {
        pos2(
            self.center_px.x + ((p[0] - self.center[0]) * self.world_px) as f32,
            self.center_px.y + ((p[1] - self.center[1]) * self.world_px) as f32,
        )
    }

    pub fn to_merc(&self, p: Pos2) -> [f64; 2] {
        [
            self.center[0] + f64::from(p.x - self.center_px.x) / self.world_px,
            self.center[1] + f64::from(p.y - self.center_px.y) / self.world_px,
        ]
    }

    pub fn px(&self, merc: f64) -> f32 {
        (merc * self.world_px) as f32
    }
}

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
        for s in segments.iter().filter(|s| range.contains(&(s.a as usize))) {
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
struct Picked {
    hovered: Option<usize>,
    clicked: Option<usize>,
}

/// The track layer, rebuilt each frame.
struct TrackLayer<'a> {
    track: &'a Track,
    segments: &'a mut Vec<Segment>,
    highlight: Option<std::ops::Range<usize>>,
    cursor: Option<i64>,
    local: bool,
    picked: &'a mut Picked,
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
        // Start and end.
        for (i, color, text) in [
            (0, theme::TRACK_START, "Start"),
            (t.len() - 1, theme::TRACK_END, "End"),
        ] {
            let p = frame.to_screen(t.xy[i]);
            painter.circle(p, 6.0, color, Stroke::new(2.0, Color32::WHITE));
            painter.text(
                p + vec2(9.0, -9.0),
                egui::Align2::LEFT_BOTTOM,
                text,
                egui::FontId::proportional(12.0),
                Color32::WHITE,
            );
        }
        if let Some(p) = self.cursor.and_then(|c| t.position_at(c)) {
            let p = frame.to_screen(p);
            painter.circle(p, 7.0, theme::CURSOR, Stroke::new(2.0, Color32::BLACK));
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
        let s = &t.samples[i];
        let p = frame.to_screen(t.xy[i]);
        painter.circle_stroke(p, 6.0, Stroke::new(2.0, Color32::WHITE));
        let text = format!(
            "{}\nspeed {} km/h\nheading {}°\naltitude {} m",
            theme::format_time(s.time, self.local),
            theme::number(s.speed_kmh.or(Some(f64::from(t.speed_kmh[i]))), 1),
            theme::number(s.heading_deg, 0),
            theme::number(s.altitude_m, 0),
        );
        let galley = painter.layout_no_wrap(text, egui::FontId::proportional(13.0), Color32::WHITE);
        let rect = Rect::from_min_size(pointer + vec2(16.0, 16.0), galley.size()).expand(6.0);
        painter.rect_filled(rect, 4.0, Color32::from_black_alpha(220));
        painter.galley(rect.min + vec2(6.0, 6.0), galley, Color32::WHITE);
    }
}

/// A zoom level and centre that fit `bounds` into `size` points.
fn fit(bounds: &MercRect, size: egui::Vec2) -> (f64, [f64; 2]) {
    let dx = (bounds.max[0] - bounds.min[0]).max(1e-9);
    let dy = (bounds.max[1] - bounds.min[1]).max(1e-9);
    let zx = (f64::from(size.x.max(50.0)) / (dx * 256.0)).log2();
    let zy = (f64::from(size.y.max(50.0)) / (dy * 256.0)).log2();
    // A margin, and not closer than street level.
    ((zx.min(zy) - 0.6).clamp(2.0, 17.0), bounds.center())
}

fn center_at(memory: &mut MapMemory, p: [f64; 2]) {
    let (lat, lon) = unmercator(p);
    memory.center_at(lat_lon(lat, lon));
}

fn legend_ui(ui: &egui::Ui, rect: Rect, scale_kmh: f32) {
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
}

fn toolbar_ui(ui: &mut egui::Ui, state: &AppState, view: &mut MapView, actions: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        if ui
            .button("Fit to track")
            .on_hover_text("Zoom the map to the whole track of the window")
            .clicked()
        {
            view.fit_requested = true;
        }
        let mut online = state.map.online_tiles;
        if ui
            .checkbox(&mut online, "Online tiles")
            .on_hover_text("Draw OpenStreetMap tiles (or your tile server's) over the offline map")
            .changed()
        {
            actions.push(Action::SetMapSettings(MapSettings {
                online_tiles: online,
                ..state.map.clone()
            }));
        }
        let config = egui::containers::menu::MenuConfig::new()
            .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
        egui::containers::menu::MenuButton::new("Tile server")
            .config(config)
            .ui(ui, |ui| {
                if view.tile_url.is_empty() {
                    view.tile_url = state.map.tile_url.clone();
                }
                let label = ui.label("Tile URL ({z}/{x}/{y})");
                ui.add(egui::TextEdit::singleline(&mut view.tile_url).desired_width(360.0))
                    .labelled_by(label.id);
                let valid = ["{z}", "{x}", "{y}"]
                    .iter()
                    .all(|k| view.tile_url.contains(k));
                if !valid {
                    ui.colored_label(theme::ERROR, "The URL needs {z}, {x} and {y}.");
                }
                ui.horizontal(|ui| {
                    if ui.add_enabled(valid, egui::Button::new("Apply")).clicked() {
                        actions.push(Action::SetMapSettings(MapSettings {
                            tile_url: view.tile_url.trim().to_owned(),
                            ..state.map.clone()
                        }));
                        ui.close();
                    }
                    if ui.button("OpenStreetMap").clicked() {
                        view.tile_url = crate::basemap::OSM_TEMPLATE.to_owned();
                    }
                });
            });
        let track = state.timeline.track.value().filter(|t| !t.is_empty());
        ui.add_enabled_ui(track.is_some(), |ui| {
            ui.menu_button("Export positions", |ui| {
                for (label, format) in [("GPX…", GeoFormat::Gpx), ("GeoJSON…", GeoFormat::GeoJson)]
                {
                    if let (true, Some(track)) = (ui.button(label).clicked(), track) {
                        actions.push(Action::Export(ExportContent::Positions {
                            track: track.clone(),
                            format,
                        }));
                    }
                }
            });
        });
        match &state.timeline.track {
            t if t.is_pending() => {
                ui.spinner();
                ui.label("Loading positions");
            }
            t => {
                if let Some(e) = t.error() {
                    ui.colored_label(theme::ERROR, e);
                } else if let Some(track) = t.value() {
                    ui.label(format!("{} positions", track.len()));
                }
            }
        }
    });
}

pub fn map_ui(ui: &mut egui::Ui, state: &AppState, view: &mut MapView, actions: &mut Vec<Action>) {
    toolbar_ui(ui, state, view, actions);
    let track: Option<Arc<Track>> = state
        .timeline
        .track
        .value()
        .filter(|t| !t.is_empty())
        .cloned();
    let size = ui.available_size();
    // The track of a new machine or window is fitted into view once it has
    // come (not the previous one shown meanwhile); seeks and the follow
    // camera bring the cursor into view.
    if let Some(t) = &track {
        let key = state.machine.selected.zip(state.machine.window);
        let arrived = !state.timeline.track.is_pending();
        if (arrived && key != view.fitted) || view.fit_requested {
            view.fitted = key;
            let (zoom, c) = fit(&t.bounds, size);
            let _ = view.memory.set_zoom(zoom);
            center_at(&mut view.memory, c);
        }
        let seek = state.timeline.seek != view.last_seek;
        let follow = state.timeline.replay.playing && state.timeline.replay.follow;
        if (seek || follow)
            && let Some(p) = state.timeline.cursor.and_then(|c| t.position_at(c))
        {
            center_at(&mut view.memory, p);
        }
    }
    view.fit_requested = false;
    view.last_seek = state.timeline.seek;

    let MapView {
        memory,
        offline,
        online,
        segments,
        ..
    } = view;
    let offline =
        offline.get_or_insert_with(|| OfflineTiles::new(ui.ctx().clone(), Palette::default()));
    let online = if state.map.online_tiles {
        if online
            .as_ref()
            .is_none_or(|(url, _)| *url != state.map.tile_url)
        {
            *online = Some((
                state.map.tile_url.clone(),
                online_tiles(
                    &state.map.tile_url,
                    state.tile_cache_dir.clone(),
                    ui.ctx().clone(),
                ),
            ));
        }
        online.as_mut().map(|(_, t)| t)
    } else {
        None
    };
    let home = track.as_ref().map_or([0.5, 0.35], |t| t.bounds.center());
    let (lat, lon) = unmercator(home);
    let mut attribution = vec![offline.attribution().text];
    let mut map = Map::new(Some(offline as &mut dyn Tiles), memory, lat_lon(lat, lon));
    if let Some(online) = online {
        attribution.push(online.attribution().text);
        map = map.with_layer(online, 1.0);
    }
    let mut picked = Picked::default();
    let highlight = state.timeline.selected_activity.and_then(|i| {
        let a = state.machine.activities.value()?.get(i)?;
        Some(track.as_ref()?.range_of(a.date_start.0, a.date_stop.0))
    });
    if let Some(t) = &track {
        map = map.with_plugin(TrackLayer {
            track: t,
            segments,
            highlight,
            cursor: state.timeline.cursor,
            local: state.local_time,
            picked: &mut picked,
        });
    }
    let scale = track.as_ref().map(|t| t.speed_scale_kmh.max(1.0));
    map.show(ui, |ui, _response, projector, _memory| {
        let rect = projector.clip_rect();
        if let Some(scale) = scale {
            legend_ui(ui, rect, scale);
        }
        let text = attribution.join(" · ");
        let at = Rect::from_min_max(rect.right_bottom() - vec2(330.0, 20.0), rect.right_bottom());
        ui.painter()
            .rect_filled(at, 0.0, Color32::from_black_alpha(150));
        ui.put(
            at.shrink2(vec2(4.0, 2.0)),
            egui::Label::new(egui::RichText::new(text).small().color(Color32::WHITE)),
        );
    });
    if let (Some(i), Some(t)) = (picked.clicked, &track) {
        actions.push(TimelineAction::SeekTo(t.samples[i].time).into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_a_track_frames_it() {
        let a = mercator(45.70, 4.80).expect("finite");
        let b = mercator(45.80, 4.95).expect("finite");
        let bounds = MercRect {
            min: [a[0].min(b[0]), a[1].min(b[1])],
            max: [a[0].max(b[0]), a[1].max(b[1])],
        };
        let (zoom, c) = fit(&bounds, vec2(800.0, 600.0));
        // About 11 km wide in 800 px: a city zoom.
        assert!((10.0..13.0).contains(&zoom), "{zoom}");
        assert_eq!(c, bounds.center());
        // A single point does not zoom in forever.
        let (zoom, _) = fit(&MercRect { min: a, max: a }, vec2(800.0, 600.0));
        assert_eq!(zoom, 17.0);
    }
}
