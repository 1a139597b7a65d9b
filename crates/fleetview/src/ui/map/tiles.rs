//! The maps' tiles: the offline basemap (always, made once, drawn in the
//! theme's palette) and online tiles over it when switched on (made again
//! when their URL changes). The machine's map and the fleet map both draw
//! on them, with the same settings, attribution and note when the basemap
//! shows nothing.

use egui::Rect;
use walkers::{Map, MapMemory, Tiles, lat_lon};

use super::overlays;
use crate::app::{Action, AppState, MapSettings};
use crate::basemap::{OfflineTiles, OnlineStatus, OnlineTiles};
use crate::ui::theme;
use fleetview_api::geo::unmercator;
use fleetview_core::basemap::{KeptTiles, Palette};

/// The tile layers a map draws on, kept between frames.
#[derive(Debug, Default)]
pub(crate) struct Basemap {
    offline: Option<OfflineTiles>,
    online: Option<OnlineTiles>,
}

impl Basemap {
    /// The colours of the offline tiles last drawn, if any.
    pub(crate) fn palette(&self) -> Option<Palette> {
        self.offline.as_ref().map(OfflineTiles::palette)
    }

    /// The online tiles' state when they are on.
    pub(crate) fn online_status(&self) -> Option<&OnlineStatus> {
        self.online.as_ref().map(OnlineTiles::status)
    }

    /// When failed online tiles are tried again by themselves.
    pub(crate) fn online_retry_in_secs(&self, now_secs: f64) -> Option<f64> {
        self.online.as_ref()?.next_try_in_secs(now_secs)
    }

    /// Failed online tiles are asked for again now.
    pub(crate) fn retry_online(&mut self) {
        if let Some(o) = self.online.as_mut() {
            o.retry_now();
        }
    }

    /// The map widget over this frame's layers (the online tiles when the
    /// settings switch them on), `home` its centre until it is moved; and
    /// the layers' attribution. The wheel zooms about the pointer
    /// (walkers' default pans with it and zooms with Ctrl held).
    pub(crate) fn map<'a, 'p>(
        &'a mut self,
        ctx: &egui::Context,
        state: &AppState,
        memory: &'a mut MapMemory,
        home: [f64; 2],
    ) -> (Map<'a, 'a, 'p>, String) {
        let palette = theme::basemap_palette(&ctx.global_style().visuals);
        let offline = self.offline.get_or_insert_with(|| {
            let kept = state.tile_cache_dir().map(|d| KeptTiles::new(d));
            OfflineTiles::new(ctx.clone(), palette, kept)
        });
        offline.set_palette(palette);
        if !state.map().online_tiles {
            // Off: forgotten, so switching on again starts afresh (failed
            // tiles asked for again).
            self.online = None;
        } else if self
            .online
            .as_ref()
            .is_none_or(|o| o.template() != state.map().tile_url)
        {
            self.online = Some(OnlineTiles::new(
                &state.map().tile_url,
                state.tile_cache_dir().cloned(),
                ctx.clone(),
            ));
        }
        offline.begin_pass();
        let mut attribution = vec![offline.attribution().text];
        let (lat, lon) = unmercator(home);
        let mut map = Map::new(Some(offline as &mut dyn Tiles), memory, lat_lon(lat, lon))
            .zoom_with_ctrl(false);
        if let Some(o) = self.online.as_mut() {
            o.begin_pass();
            attribution.push(o.attribution().text);
            map = map.with_layer(o, 1.0);
        }
        (map, attribution.join(" · "))
    }

    /// After the map is shown on `rect`: the online tiles' probe, and the
    /// note when the offline basemap has nothing to show here (its button
    /// switches the online tiles on).
    ///
    /// The map has one note, in one place: `own`, the map's own (nothing
    /// to draw), is said instead of the basemap's.
    pub(crate) fn after_ui(
        &mut self,
        ui: &mut egui::Ui,
        state: &AppState,
        rect: Rect,
        own: Option<&str>,
        actions: &mut Vec<Action>,
    ) {
        if let Some(o) = self.online.as_mut() {
            o.update(ui.input(|i| i.time));
        }
        // On a short map the basemap's note gives way to the track (the
        // toolbar still says how the tiles are).
        let note = match own {
            Some(text) => Some((text.to_owned(), None)),
            None => (overlays::overlay_room(rect.height()).note
                && self
                    .offline
                    .as_ref()
                    .is_some_and(OfflineTiles::flat_in_view))
            .then(|| no_detail_note(self.online_status()))
            .flatten(),
        };
        if let Some((text, button)) = note
            && overlays::note_ui(ui, rect, &text, button)
        {
            actions.push(Action::SetMapSettings(MapSettings {
                online_tiles: true,
                ..state.map().clone()
            }));
        }
    }
}

/// What the map says when the offline basemap has nothing to draw here,
/// given the online tiles' state (the toolbar says more); the button
/// offered, if any.
fn no_detail_note(online: Option<&OnlineStatus>) -> Option<(String, Option<&'static str>)> {
    let first = "No offline map detail at this zoom";
    match online {
        None => Some((
            format!("{first}: turn on Online tiles for streets."),
            Some("Turn on online tiles"),
        )),
        Some(OnlineStatus::Loading) => Some((format!("{first}; online tiles loading…"), None)),
        // Why, on the toolbar's line above.
        Some(OnlineStatus::Failed { .. }) => {
            Some((format!("{first}, and online tiles failed."), None))
        }
        Some(OnlineStatus::Ready) => None,
    }
}
