//! The map: the offline basemap, online tiles on top when switched on, and
//! the window's track coloured by speed, with start and end markers, the
//! selected activity highlighted and the time cursor. Hovering the track
//! shows the nearest sample; clicking it moves the cursor there.
//!
//! Where to look: `track.rs` the track layer (a walkers plugin) and the
//! speed legend, `markers.rs` what is drawn on the track, `tiles.rs` the
//! tile layers, `toolbar.rs` the toolbar, `frame.rs` the screen <-> Web
//! Mercator mapping of a frame.

mod frame;
mod markers;
mod tiles;
mod toolbar;
mod track;

use std::sync::Arc;

use walkers::{HttpTiles, Map, MapMemory, Tiles, lat_lon};

use crate::api::time::TimeWindow;
use crate::app::TimelineAction;
use crate::app::{Action, AppState};
use crate::basemap::OfflineTiles;
use crate::geo::{MercRect, unmercator};
use crate::series::{Segment, Track};
pub use frame::MapFrame;
use toolbar::toolbar_ui;
pub use track::{MAX_SEGMENTS, track_mesh};
use track::{Picked, TrackLayer, legend_ui};

/// What the map remembers between frames.
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
    /// The last frame drawn.
    shown: Option<MapFrame>,
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
            shown: None,
        }
    }
}

impl MapView {
    /// The map's zoom level.
    pub fn zoom(&self) -> f64 {
        self.memory.zoom()
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
            .field("online", &self.online.as_ref().map(|o| &o.0))
            .finish_non_exhaustive()
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

pub fn map_ui(ui: &mut egui::Ui, state: &AppState, view: &mut MapView, actions: &mut Vec<Action>) {
    toolbar_ui(
        ui,
        state,
        &mut view.fit_requested,
        &mut view.tile_url,
        actions,
    );
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
    let (offline, online) = tiles::layers(ui.ctx(), state, offline, online);
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
    let shown = map.show(ui, |ui, _response, projector, _memory| {
        let rect = projector.clip_rect();
        if let Some(scale) = scale {
            legend_ui(ui, rect, scale);
        }
        tiles::attribution_ui(ui, rect, attribution.join(" · "));
        MapFrame::new(projector)
    });
    shown
        .response
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Map"));
    view.shown = shown.inner;
    if let (Some(i), Some(t)) = (picked.clicked, &track) {
        actions.push(TimelineAction::SeekTo(t.samples[i].time).into());
    }
}

#[cfg(test)]
mod tests {
    use egui::vec2;

    use super::*;
    use crate::geo::mercator;

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
