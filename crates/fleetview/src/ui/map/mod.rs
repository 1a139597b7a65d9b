//! The map: the offline basemap, online tiles on top when switched on, and
//! the window's track coloured by speed, with start and end markers, the
//! selected activity highlighted (and fitted into view) and the time
//! cursor. The wheel zooms about the pointer; buttons zoom and fit the
//! track. Hovering the line shows where the machine was there; clicking it
//! moves the cursor there. Where the offline basemap has nothing to show,
//! the map says so, with the online tiles' state.
//!
//! Where to look: `track.rs` the track layer (a walkers plugin),
//! `markers.rs` what is drawn on the track, `overlays.rs` what sits on the
//! map (legend, attribution, buttons, notes), `tiles.rs` the tile layers,
//! `toolbar.rs` the toolbar, `frame.rs` the screen <-> Web Mercator mapping
//! of a frame.

mod events;
mod frame;
mod markers;
mod overlays;
mod tiles;
mod toolbar;
mod track;

use std::sync::Arc;

use walkers::{MapMemory, lat_lon};

use crate::app::TimelineAction;
use crate::app::{Action, AppState, Loadable};
use fleetview_api::geo::{MercRect, mercator, unmercator};
use fleetview_api::time::TimeWindow;
use fleetview_core::analysis::Report;
use fleetview_core::series::{Segment, Track};
pub use frame::MapFrame;
pub(crate) use overlays::{BUTTON_SIZE, FitButton, Insets, MapButton, attribution_ui, buttons_ui};
pub(crate) use tiles::Basemap;
use toolbar::toolbar_ui;
pub use track::{MAX_SEGMENTS, track_mesh};
use track::{Picked, TrackLayer};

/// What the map remembers between frames.
pub struct MapView {
    memory: MapMemory,
    basemap: Basemap,
    /// The machine and window whose track was last fitted into view: a
    /// refresh of the same (back online, *Refresh*) keeps the user's view.
    fitted: Option<(i64, TimeWindow)>,
    /// The machine whose place the map shows (its track fitted, or its
    /// last known place while it has none): another one selected moves
    /// the map, track or not.
    placed: Option<i64>,
    /// The activity last fitted into view.
    activity: Option<usize>,
    /// What was last fitted into view and for which size of the map: while
    /// the user leaves the map alone, a new size (the layout settling, a
    /// panel resized) fits it again.
    framed: Option<(MercRect, egui::Vec2)>,
    fit_requested: bool,
    last_seek: u64,
    segments: Vec<Segment>,
    tile_url: String,
    /// The last frame drawn.
    shown: Option<MapFrame>,
    /// The event marks last drawn: under them the track keeps quiet.
    event_marks: Vec<events::Mark>,
}

/// A map's memory before it has anything to show: Europe.
pub(crate) fn europe() -> MapMemory {
    let mut memory = MapMemory::default();
    let _ = memory.set_zoom(4.0);
    memory
}

impl Default for MapView {
    fn default() -> Self {
        Self {
            memory: europe(),
            basemap: Basemap::default(),
            fitted: None,
            placed: None,
            activity: None,
            framed: None,
            fit_requested: false,
            last_seek: 0,
            segments: Vec::new(),
            tile_url: String::new(),
            shown: None,
            event_marks: Vec::new(),
        }
    }
}

impl MapView {
    /// The map's zoom level.
    pub fn zoom(&self) -> f64 {
        self.memory.zoom()
    }

    /// The colours the offline basemap was last drawn in, if drawn.
    pub fn basemap_palette(&self) -> Option<fleetview_core::basemap::Palette> {
        self.basemap.palette()
    }

    /// Screen <-> Web Mercator of the last frame drawn.
    pub fn frame(&self) -> Option<MapFrame> {
        self.shown
    }
}

impl std::fmt::Debug for MapView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapView")
            .field("zoom", &self.memory.zoom())
            .field("basemap", &self.basemap)
            .finish_non_exhaustive()
    }
}

impl MapView {
    /// Fit the track into view at the next frame (a shortcut asked).
    pub fn request_fit(&mut self) {
        self.fit_requested = true;
    }
}

/// A zoom level and centre that fit `bounds` into `size` points, clear of
/// `insets` (the legend, the buttons).
pub(crate) fn fit(bounds: &MercRect, size: egui::Vec2, insets: Insets) -> (f64, [f64; 2]) {
    let free_x = (size.x - insets.left - insets.right).max(50.0);
    let free_y = (size.y - insets.top - insets.bottom).max(50.0);
    let dx = (bounds.max[0] - bounds.min[0]).max(1e-9);
    let dy = (bounds.max[1] - bounds.min[1]).max(1e-9);
    let zx = (f64::from(free_x) / (dx * 256.0)).log2();
    let zy = (f64::from(free_y) / (dy * 256.0)).log2();
    // A margin, and not closer than street level.
    let zoom = (zx.min(zy) - 0.3).clamp(2.0, 17.0);
    // The map's centre sits where it puts the bounds in the middle of the
    // free area.
    let world_px = 256.0 * 2f64.powf(zoom);
    let c = bounds.center();
    let shift = [
        f64::from(insets.right - insets.left) / 2.0 / world_px,
        f64::from(insets.bottom - insets.top) / 2.0 / world_px,
    ];
    (zoom, [c[0] + shift[0], c[1] + shift[1]])
}

impl MapView {
    fn fit_into_view(&mut self, bounds: MercRect, size: egui::Vec2) {
        let (zoom, c) = fit(&bounds, size, overlays::fit_insets(size.y));
        let _ = self.memory.set_zoom(zoom);
        center_at(&mut self.memory, c);
        self.framed = Some((bounds, size));
    }
}

/// The zoom a machine's last known place is shown at, its track not to
/// be had: a town and its roads.
const LAST_PLACE_ZOOM: f64 = 11.0;

/// The zoom of the world view shown for a machine with no known place.
const WORLD_ZOOM: f64 = 2.0;

impl MapView {
    /// Another machine and no track of it (yet, or to be had): the map
    /// leaves the last one's place for this one's last known place (its
    /// snapshot), else the world.
    fn place_without_track(&mut self, state: &AppState) {
        let Some(id) = state.selected() else {
            return;
        };
        let another = self.placed.replace(id).is_some();
        // Its track, when it comes, is fitted; a resize fits nothing.
        self.fitted = None;
        self.framed = None;
        let place = state
            .overview()
            .last_position(id)
            .and_then(|p| mercator(p.lat, p.lon));
        let (zoom, centre) = match place {
            Some(p) => (LAST_PLACE_ZOOM, p),
            // The first machine shown: the map's first view stays.
            None if !another => return,
            None => (WORLD_ZOOM, WORLD_CENTRE),
        };
        let _ = self.memory.set_zoom(zoom);
        center_at(&mut self.memory, centre);
    }
}

/// Where the world view is centred: the middle of the map's width, at the
/// latitude of Europe (where the basemap has most detail).
const WORLD_CENTRE: [f64; 2] = [0.5, 0.35];

pub(crate) fn center_at(memory: &mut MapMemory, p: [f64; 2]) {
    let (lat, lon) = unmercator(p);
    memory.center_at(lat_lon(lat, lon));
}

/// The box of activity `i`'s part of the track, if it has positions.
fn activity_bounds(state: &AppState, t: &Track, i: usize) -> Option<MercRect> {
    let a = state.activities().value()?.get(i)?;
    let range = t.range_of(a.date_start.0, a.date_stop.0);
    let mut bounds = MercRect::EMPTY;
    for p in t.xy.get(range)? {
        bounds.extend(*p);
    }
    (!bounds.is_empty()).then_some(bounds)
}

/// Brings into view what asks for it this frame: a new track, *Fit*, a
/// seek or the replay's camera, an activity picked.
fn bring_into_view(state: &AppState, view: &mut MapView, t: &Track, size: egui::Vec2) {
    // The track of a new machine or window is fitted into view once it has
    // come (not the previous one shown meanwhile).
    let key = state.selected().zip(state.window());
    let arrived = !state.timeline().track.is_pending();
    if (arrived && key != view.fitted) || view.fit_requested {
        view.fitted = key;
        view.fit_requested = false;
        view.fit_into_view(t.bounds, size);
    } else if let Some((bounds, fitted)) = view.framed
        && (fitted - size).length() > 1.0
    {
        view.fit_into_view(bounds, size);
    }
    let seek = state.timeline().seek != view.last_seek;
    let follow = state.timeline().replay.playing && state.timeline().replay.follow;
    // A seek to a place (an event's) centres there; else on the track.
    let place = state
        .timeline()
        .seek_place
        .filter(|_| seek)
        .and_then(|p| mercator(p.lat, p.lon));
    if (seek || follow)
        && let Some(p) = place.or_else(|| state.timeline().cursor.and_then(|c| t.position_at(c)))
    {
        center_at(&mut view.memory, p);
        view.framed = None;
    }
    // An activity picked: its part of the track fills the map (after the
    // seek to its start, which only centred it).
    let picked = state.timeline().selected_activity;
    if picked != view.activity {
        view.activity = picked;
        if let Some(bounds) = picked.and_then(|i| activity_bounds(state, t, i)) {
            view.fit_into_view(bounds, size);
        }
    }
}

pub fn map_ui(ui: &mut egui::Ui, state: &AppState, view: &mut MapView, actions: &mut Vec<Action>) {
    let now_secs = ui.input(|i| i.time);
    if toolbar_ui(
        ui,
        state,
        view.basemap.online_status(),
        view.basemap.online_retry_in_secs(now_secs),
        &mut view.tile_url,
        actions,
    ) {
        view.basemap.retry_online();
    }
    let track: Option<Arc<Track>> = state
        .timeline()
        .track
        .value()
        .filter(|t| !t.is_empty())
        .cloned();
    let size = ui.available_size();
    if let Some(t) = &track {
        bring_into_view(state, view, t, size);
        view.placed = state.selected();
    } else if state.selected() != view.placed {
        view.place_without_track(state);
    }
    view.fit_requested = false;
    // A seek made while the track loads (a machine opened at an event from
    // the Fleet page) waits for it: the track's fit would undo it.
    if !state.timeline().track.is_pending() {
        view.last_seek = state.timeline().seek;
    }
    let report = state.figures().report.value().filter(|_| track.is_some());
    let (shown, picked, clicked_event) = view.layers_ui(ui, state, track.as_ref(), report);
    shown
        .response
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Map"));
    let rect = shown.response.rect;
    if shown.response.changed() || shown.response.dragged() {
        // Moved by hand: what the user sees stays.
        view.framed = None;
    }
    let nothing = no_track_note(state);
    view.basemap
        .after_ui(ui, state, rect, nothing.as_deref(), actions);
    view.buttons_ui(ui, rect, track.is_some());
    view.shown = shown.inner;
    if let Some(e) = clicked_event.and_then(|i| report?.events.get(i)) {
        actions.push(crate::ui::events::seek_action(e));
    } else if let (Some(p), Some(t)) = (picked.clicked, &track) {
        actions.push(TimelineAction::SeekTo(t.time_at(&p)).into());
    }
}

/// Read, and nothing in it, or offline and nothing cached: said, rather
/// than an empty map left without a word (why a read failed is the
/// toolbar's line).
fn no_track_note(state: &AppState) -> Option<String> {
    let (empty, failed) = match &state.timeline().track {
        Loadable::Ready(t) => (t.is_empty(), false),
        Loadable::Failed { previous: None, .. } => (false, true),
        _ => return None,
    };
    // Signed out, too, the cache is all there is.
    let cache_only = state.offline().is_some() || state.conn().needs_secret();
    if (empty || failed) && cache_only {
        let name = state.fleet().name_of(state.selected()?);
        return Some(format!(
            "No positions of {name} in the cache for this window."
        ));
    }
    empty.then(|| "No position in this window: nothing to draw on the map.".to_owned())
}

/// The part of the track to highlight: the span measured on the plots,
/// else the activity picked.
fn highlight_of(state: &AppState, track: Option<&Arc<Track>>) -> Option<std::ops::Range<usize>> {
    match state.timeline().span {
        Some((from, to)) => track.map(|t| t.range_of(from, to)),
        None => state.timeline().selected_activity.and_then(|i| {
            let a = state.activities().value()?.get(i)?;
            Some(track?.range_of(a.date_start.0, a.date_stop.0))
        }),
    }
}

impl MapView {
    /// The map with its layers (the track, the events' marks) and what
    /// sits on it; the frame drawn, the point of the track clicked, and
    /// the event clicked.
    fn layers_ui(
        &mut self,
        ui: &mut egui::Ui,
        state: &AppState,
        track: Option<&Arc<Track>>,
        report: Option<&Arc<Report>>,
    ) -> (egui::InnerResponse<Option<MapFrame>>, Picked, Option<usize>) {
        // Over an event's mark (as last drawn), the mark answers, not the
        // line.
        let on_mark = ui
            .input(|i| i.pointer.hover_pos())
            .is_some_and(|p| events::mark_at(&self.event_marks, p).is_some());
        let MapView {
            memory,
            basemap,
            segments,
            event_marks,
            ..
        } = self;
        let home = track.map_or(WORLD_CENTRE, |t| t.bounds.center());
        let (mut map, attribution) = basemap.map(ui.ctx(), state, memory, home);
        let mut picked = Picked::default();
        if let Some(t) = track {
            map = map.with_plugin(TrackLayer {
                track: t,
                segments,
                highlight: highlight_of(state, track),
                cursor: state.timeline().cursor,
                zone: crate::ui::format::machine_zone(state),
                units: state.units(),
                picked: &mut picked,
                quiet: on_mark,
            });
        }
        let mut clicked_event = None;
        match report {
            Some(r) => {
                map = map.with_plugin(events::EventsLayer {
                    events: &r.events,
                    zone: crate::ui::format::machine_zone(state),
                    units: state.units(),
                    marks: event_marks,
                    clicked: &mut clicked_event,
                });
            }
            None => event_marks.clear(),
        }
        let kinds = report.map(|r| events::kinds_present(&r.events));
        let scale = track.map(|t| t.speed_scale_kmh.max(1.0));
        let shown = map.show(ui, |ui, _response, projector, _memory| {
            let rect = projector.clip_rect();
            let legend =
                scale.and_then(|scale| legends_ui(ui, rect, state, scale, kinds.as_deref()));
            overlays::attribution_ui(ui, rect, legend, &attribution);
            MapFrame::new(projector)
        });
        (shown, picked, clicked_event)
    }

    /// The zoom and *Fit to track* buttons over the map at `rect`.
    fn buttons_ui(&mut self, ui: &mut egui::Ui, rect: egui::Rect, has_track: bool) {
        let fit = FitButton {
            name: "Fit to track",
            hover: crate::ui::keys::tip(
                ui.ctx(),
                "Zoom the map to the whole track of the window",
                crate::ui::keys::KeyCommand::FitMap,
            ),
            enabled: has_track,
        };
        match buttons_ui(ui, rect, &mut self.memory, &fit) {
            Some(MapButton::ZoomIn | MapButton::ZoomOut) => self.framed = None,
            Some(MapButton::Fit) => {
                self.fit_requested = true;
                ui.ctx().request_repaint();
            }
            None => {}
        }
    }
}

/// The speed legend (up to `scale_kmh`) and above it the events' marks
/// present, where the map has room for them: where they are.
fn legends_ui(
    ui: &egui::Ui,
    rect: egui::Rect,
    state: &AppState,
    scale_kmh: f32,
    kinds: Option<&[fleetview_core::analysis::EventKind]>,
) -> Option<egui::Rect> {
    let room = overlays::overlay_room(rect.height());
    if !room.speed_legend {
        return None;
    }
    overlays::legend_ui(ui, rect, scale_kmh, state.units());
    let speed = overlays::legend_rect(rect);
    Some(
        match kinds.filter(|k| room.events_legend && !k.is_empty()) {
            Some(kinds) => speed.union(events::legend_ui(ui, rect, speed, kinds)),
            None => speed,
        },
    )
}

#[cfg(test)]
mod tests {
    use egui::vec2;

    use super::*;

    #[test]
    fn fitting_a_track_frames_it() {
        let a = mercator(45.70, 4.80).expect("finite");
        let b = mercator(45.80, 4.95).expect("finite");
        let bounds = MercRect {
            min: [a[0].min(b[0]), a[1].min(b[1])],
            max: [a[0].max(b[0]), a[1].max(b[1])],
        };
        let none = Insets {
            left: 0.0,
            right: 0.0,
            top: 0.0,
            bottom: 0.0,
        };
        let (zoom, c) = fit(&bounds, vec2(800.0, 600.0), none);
        // About 11 km wide in 800 px: a city zoom.
        assert!((10.0..13.0).contains(&zoom), "{zoom}");
        assert_eq!(c, bounds.center());
        // A single point does not zoom in forever.
        let (zoom, _) = fit(&MercRect { min: a, max: a }, vec2(800.0, 600.0), none);
        assert_eq!(zoom, 17.0);
        // Room kept below: the track sits higher, wholly above it.
        let insets = Insets {
            bottom: 80.0,
            ..none
        };
        let (zoom, c) = fit(&bounds, vec2(800.0, 600.0), insets);
        let world_px = 256.0 * 2f64.powf(zoom);
        let bottom_px = 300.0 + (bounds.max[1] - c[1]) * world_px;
        assert!(bottom_px < 600.0 - 80.0, "{bottom_px}");
        let top_px = 300.0 + (bounds.min[1] - c[1]) * world_px;
        assert!(top_px > 0.0, "{top_px}");
    }
}
