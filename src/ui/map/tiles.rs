//! The map's tiles: the offline basemap (always, made once) and online
//! tiles over it when switched on (made again when their URL changes).

use crate::app::AppState;
use crate::basemap::{OfflineTiles, OnlineTiles, Palette};

/// The tile layers of this frame: the offline basemap, and the online tiles
/// when the settings switch them on.
pub(super) fn layers<'a>(
    ctx: &egui::Context,
    state: &AppState,
    offline: &'a mut Option<OfflineTiles>,
    online: &'a mut Option<OnlineTiles>,
) -> (&'a mut OfflineTiles, Option<&'a mut OnlineTiles>) {
    let offline = offline.get_or_insert_with(|| OfflineTiles::new(ctx.clone(), Palette::default()));
    if !state.map.online_tiles {
        // Off: forgotten, so switching on again starts afresh (failed
        // tiles asked for again).
        *online = None;
        return (offline, None);
    }
    if online
        .as_ref()
        .is_none_or(|o| o.template() != state.map.tile_url)
    {
        *online = Some(OnlineTiles::new(
            &state.map.tile_url,
            state.tile_cache_dir.clone(),
            ctx.clone(),
        ));
    }
    (offline, online.as_mut())
}
