//! The map's tiles: the offline basemap (always, made once), online tiles
//! over it when switched on (made again when their URL changes), and the
//! attribution strip they require.

use egui::{Color32, Rect, vec2};
use walkers::HttpTiles;

use crate::app::AppState;
use crate::basemap::{OfflineTiles, Palette, online_tiles};

/// The tile layers of this frame: the offline basemap, and the online tiles
/// when the settings switch them on.
pub(super) fn layers<'a>(
    ctx: &egui::Context,
    state: &AppState,
    offline: &'a mut Option<OfflineTiles>,
    online: &'a mut Option<(String, HttpTiles)>,
) -> (&'a mut OfflineTiles, Option<&'a mut HttpTiles>) {
    let offline = offline.get_or_insert_with(|| OfflineTiles::new(ctx.clone(), Palette::default()));
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
                    ctx.clone(),
                ),
            ));
        }
        online.as_mut().map(|(_, t)| t)
    } else {
        None
    };
    (offline, online)
}

/// The tiles' attributions, in the map's bottom right corner.
pub(super) fn attribution_ui(ui: &mut egui::Ui, rect: Rect, text: String) {
    let at = Rect::from_min_max(rect.right_bottom() - vec2(330.0, 20.0), rect.right_bottom());
    ui.painter()
        .rect_filled(at, 0.0, Color32::from_black_alpha(150));
    ui.interact(at, ui.scope_id().with("attribution"), egui::Sense::hover())
        .widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Label, true, format!("Map attribution: {text}"))
        });
    ui.put(
        at.shrink2(vec2(4.0, 2.0)),
        egui::Label::new(egui::RichText::new(text).small().color(Color32::WHITE)),
    );
}
