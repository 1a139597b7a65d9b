//! walkers' `Tiles` over the offline basemap: tiles are rasterised on a
//! thread of their own, newest request first, in the palette of the theme
//! (kept per palette, so switching back and forth renders nothing twice);
//! until a tile is ready its nearest rendered ancestor of that palette is
//! shown, magnified, so the map is never blank. It also tells whether the
//! tiles in view show anything at all.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::mpsc;

use egui::{Rect, TextureHandle, TextureOptions, pos2};
use walkers::sources::Attribution;
use walkers::{Tile, TileId, TilePiece, Tiles};

use super::detail::TileDetail;
use fleetview_core::basemap::{
    DEFAULT_KEPT_TILE_BYTES, DETAIL_ZOOM, KeptTiles, Outlines, Palette, TILE_SIZE, render_tile,
};

/// Deeper than this, tiles are the magnified quarter of their parent: the
/// outlines hold no more detail.
const MAX_RENDER_ZOOM: u8 = 14;
/// The rendered tiles' textures kept, in bytes: a texture is held in the
/// GPU's memory, the computer's RAM under a software renderer, for as long
/// as it is kept. 96 tiles: the largest map's view (about 30), in both
/// palettes, and the ancestors shown magnified meanwhile.
const MAX_TEXTURE_BYTES: usize = 24 << 20;
/// Rendered tiles kept as textures.
const MAX_TEXTURES: usize = MAX_TEXTURE_BYTES / (TILE_SIZE as usize * TILE_SIZE as usize * 4);
/// Requests waiting to be rendered; older ones are dropped (panned past)
/// and said to be so, to be asked for again if they are still wanted.
const MAX_QUEUE: usize = 48;

/// A tile in a palette: what is rendered and kept.
type Key = (TileId, Palette);

/// A tile rendered (its pixels and what they show), or `None`: dropped
/// from the queue unrendered.
type Rendered = (Key, Option<(Vec<u8>, TileDetail)>);

/// The offline basemap as walkers tiles.
pub struct OfflineTiles {
    ctx: egui::Context,
    requests: mpsc::Sender<Key>,
    rendered: mpsc::Receiver<Rendered>,
    textures: HashMap<Key, (TextureHandle, TileDetail)>,
    /// Insertion order, for eviction.
    order: VecDeque<Key>,
    pending: HashSet<Key>,
    /// What the tiles served since [`OfflineTiles::begin_pass`] showed.
    seen: Seen,
    /// The palette tiles are served in.
    palette: Palette,
}

/// What the tiles served in one pass of the map showed.
#[derive(Debug, Default, Clone, Copy)]
struct Seen {
    /// A tile with something drawn on it (a coast, a border).
    detail: bool,
    /// A tile still to come (its ancestor, or nothing, shown meanwhile).
    waiting: bool,
}

impl std::fmt::Debug for OfflineTiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OfflineTiles")
            .field("textures", &self.textures.len())
            .field("pending", &self.pending.len())
            .finish()
    }
}

impl OfflineTiles {
    /// Starts the render thread; the outlines are decoded there too.
    /// Tiles are served in `palette` until [`OfflineTiles::set_palette`];
    /// those rendered are kept in `kept` (if on disk), and read from it
    /// rather than rendered again.
    pub fn new(ctx: egui::Context, palette: Palette, kept: Option<KeptTiles>) -> Self {
        let (req_tx, req_rx) = mpsc::channel::<Key>();
        let (out_tx, out_rx) = mpsc::channel();
        let wake = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("fleetview-basemap".into())
            .spawn(move || render_loop(req_rx, out_tx, wake, kept));
        if let Err(e) = spawned {
            tracing::warn!("the offline basemap cannot start: {e}");
        }
        Self {
            ctx,
            requests: req_tx,
            rendered: out_rx,
            textures: HashMap::new(),
            order: VecDeque::new(),
            pending: HashSet::new(),
            seen: Seen::default(),
            palette,
        }
    }

    /// The colours the tiles are served in.
    pub fn palette(&self) -> Palette {
        self.palette
    }

    /// Serves the tiles in `palette` from now on (another theme): those
    /// of the other palette stay cached, for a switch back.
    pub fn set_palette(&mut self, palette: Palette) {
        self.palette = palette;
    }

    /// Starts a pass of the map: what its tiles show is counted afresh.
    pub fn begin_pass(&mut self) {
        self.seen = Seen::default();
    }

    /// Whether the tiles served since [`OfflineTiles::begin_pass`] were all
    /// rendered and all flat: nothing but land or sea, as at a site's zoom.
    pub fn flat_in_view(&self) -> bool {
        !self.seen.detail && !self.seen.waiting
    }

    fn receive(&mut self) {
        while let Ok((key, rendered)) = self.rendered.try_recv() {
            self.pending.remove(&key);
            let Some((rgba, detail)) = rendered else {
                continue;
            };
            let size = TILE_SIZE as usize;
            if rgba.len() != size * size * 4 {
                continue;
            }
            let image = egui::ColorImage::from_rgba_premultiplied([size, size], &rgba);
            let (id, palette) = key;
            let [r, g, b, _] = palette.land();
            let name = format!(
                "basemap-{}-{}-{}-{r:02x}{g:02x}{b:02x}",
                id.zoom, id.x, id.y
            );
            let texture = self.ctx.load_texture(name, image, TextureOptions::LINEAR);
            self.textures.insert(key, (texture, detail));
            self.order.push_back(key);
            while self.order.len() > MAX_TEXTURES {
                if let Some(old) = self.order.pop_front() {
                    self.textures.remove(&old);
                }
            }
        }
    }

    /// Whether every tile asked for so far has been rendered.
    pub fn idle(&self) -> bool {
        self.pending.is_empty()
    }
}

/// `id`'s ancestor `levels` up, and where `id` sits inside it (uv).
pub(super) fn ancestor(id: TileId, levels: u8) -> (TileId, Rect) {
    let levels = levels.min(id.zoom);
    let n = 1u32 << levels;
    let parent = TileId {
        x: id.x >> levels,
        y: id.y >> levels,
        zoom: id.zoom - levels,
    };
    let (fx, fy) = ((id.x % n) as f32, (id.y % n) as f32);
    let step = 1.0 / n as f32;
    let uv = Rect::from_min_max(
        pos2(fx * step, fy * step),
        pos2((fx + 1.0) * step, (fy + 1.0) * step),
    );
    (parent, uv)
}

impl Tiles for OfflineTiles {
    fn at(&mut self, id: TileId) -> Option<TilePiece> {
        self.receive();
        let palette = self.palette;
        let (own, own_uv) = ancestor(id, id.zoom.saturating_sub(MAX_RENDER_ZOOM));
        let own = (own, palette);
        if let Some((t, detail)) = self.textures.get(&own) {
            self.seen.detail |= detail.shows_detail(own_uv);
            return Some(TilePiece::new(Tile::Raster(t.clone()), own_uv));
        }
        self.seen.waiting = true;
        if self.pending.insert(own) && self.requests.send(own).is_err() {
            self.pending.remove(&own);
        }
        // Meanwhile, the nearest rendered ancestor, magnified (of this
        // palette: another theme's tile is not shown).
        (1..=id.zoom).find_map(|up| {
            let (a, uv) = ancestor(id, up);
            self.textures
                .get(&(a, palette))
                .map(|(t, _)| TilePiece::new(Tile::Raster(t.clone()), uv))
        })
    }

    fn attribution(&self) -> Attribution {
        Attribution {
            text: "Made with Natural Earth",
            url: "https://www.naturalearthdata.com",
            logo_light: None,
            logo_dark: None,
        }
    }

    fn tile_size(&self) -> u32 {
        TILE_SIZE
    }
}

/// How soon a rendered tile wakes the UI.
const TILE_SHOWN_WITHIN: std::time::Duration = std::time::Duration::from_millis(33);

fn render_loop(
    requests: mpsc::Receiver<Key>,
    out: mpsc::Sender<Rendered>,
    wake: egui::Context,
    kept: Option<KeptTiles>,
) {
    // Trimmed when the queue first empties (the first map drawn), then
    // again after each quarter of the cap written.
    let (mut trim_due, mut written_since_trim) = (true, 0u64);
    let coarse = match Outlines::coarse() {
        Ok(o) => o,
        Err(e) => {
            tracing::warn!("{e}");
            Outlines::default()
        }
    };
    let mut queue: VecDeque<Key> = VecDeque::new();
    loop {
        // Wait for work, then take everything asked for meanwhile.
        if queue.is_empty() {
            if let Some(k) = kept.as_ref().filter(|_| trim_due) {
                k.trim(DEFAULT_KEPT_TILE_BYTES);
                (trim_due, written_since_trim) = (false, 0);
            }
            match requests.recv() {
                Ok(id) => queue.push_back(id),
                Err(_) => return,
            }
        }
        queue.extend(requests.try_iter());
        while queue.len() > MAX_QUEUE {
            if let Some(dropped) = queue.pop_front()
                && out.send((dropped, None)).is_err()
            {
                return;
            }
        }
        let Some(key) = queue.pop_back() else {
            continue;
        };
        let (id, palette) = key;
        let rgba = kept
            .as_ref()
            .and_then(|k| k.get(id.x, id.y, id.zoom, palette))
            .unwrap_or_else(|| {
                let outlines = if id.zoom >= DETAIL_ZOOM {
                    Outlines::detailed_shared()
                } else {
                    &coarse
                };
                let rgba = render_tile(outlines, id.x, id.y, id.zoom, palette);
                // Not the sea drawn for outlines that could not be read.
                if let Some(k) = kept.as_ref().filter(|_| !outlines.is_empty()) {
                    written_since_trim += k.put(id.x, id.y, id.zoom, palette, &rgba);
                    trim_due |= written_since_trim >= DEFAULT_KEPT_TILE_BYTES / 4;
                }
                rgba
            });
        let detail = TileDetail::of(&rgba);
        if out.send((key, Some((rgba, detail)))).is_err() {
            return;
        }
        // Shown at the next frame drawn, within a thirtieth of a second
        // (as `theme::PROGRESS_FRAME`): a frame per tile rendered took a
        // core from a page loading and held back the frame completing it.
        wake.request_repaint_after(TILE_SHOWN_WITHIN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(i: u32) -> TileId {
        // Zoom 4: 16 x 16 tiles.
        TileId {
            x: i % 16,
            y: i / 16,
            zoom: 4,
        }
    }

    /// Takes in what the render thread sends until nothing is pending.
    fn wait_idle(tiles: &mut OfflineTiles) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        tiles.receive();
        while !tiles.idle() {
            assert!(
                std::time::Instant::now() < deadline,
                "{} tiles still pending",
                tiles.pending.len()
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
            tiles.receive();
        }
    }

    /// A map moved about all day asks for ever more tiles: the textures
    /// kept are bounded in bytes (they were 384, 100 MB, held in a
    /// software renderer's memory).
    #[test]
    fn the_textures_kept_stay_within_their_bytes() {
        let mut tiles = OfflineTiles::new(egui::Context::default(), Palette::LIGHT, None);
        for batch in 0..8 {
            // Fewer at once than the render queue drops.
            for i in 0..32 {
                let _ = tiles.at(tile(batch * 32 + i));
            }
            wait_idle(&mut tiles);
        }
        let bytes = tiles.textures.len() * (TILE_SIZE * TILE_SIZE * 4) as usize;
        assert!(
            bytes <= MAX_TEXTURE_BYTES,
            "{} textures kept, {bytes} bytes",
            tiles.textures.len()
        );
        assert_eq!(tiles.order.len(), tiles.textures.len());
    }

    /// A burst of requests (a fast pan, a zoom) is more than the render
    /// queue keeps: the tiles it drops are asked for again when shown, not
    /// left pending for good (shown magnified forever, and the pending
    /// set growing).
    #[test]
    fn tiles_dropped_from_the_queue_are_not_left_pending() {
        let mut tiles = OfflineTiles::new(egui::Context::default(), Palette::LIGHT, None);
        for i in 0..200 {
            let _ = tiles.at(tile(i));
        }
        wait_idle(&mut tiles);
        assert!(tiles.pending.is_empty());
    }

    /// Tiles rendered are kept on disk, and the next map (the next start)
    /// serves them from there rather than rendering them again.
    #[test]
    fn tiles_rendered_are_kept_and_served_from_disk_the_next_time() {
        let dir = tempfile::tempdir().expect("tempdir");
        let kept = KeptTiles::new(dir.path());
        let ctx = egui::Context::default();
        // Europe at zoom 4: coasts and borders.
        let europe = TileId {
            x: 8,
            y: 5,
            zoom: 4,
        };
        let mut first = OfflineTiles::new(ctx.clone(), Palette::LIGHT, Some(kept.clone()));
        let _ = first.at(europe);
        wait_idle(&mut first);
        let rendered = kept
            .get(europe.x, europe.y, europe.zoom, Palette::LIGHT)
            .expect("kept once rendered");
        assert!(
            TileDetail::of(&rendered)
                .shows_detail(Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)))
        );
        // The kept tile swapped for one of sea alone: what the next map
        // serves is the kept one, not a fresh rendering.
        let size = TILE_SIZE as usize;
        let sea: Vec<u8> = Palette::LIGHT.water().repeat(size * size);
        kept.put(europe.x, europe.y, europe.zoom, Palette::LIGHT, &sea);
        let mut second = OfflineTiles::new(ctx, Palette::LIGHT, Some(kept));
        let _ = second.at(europe);
        wait_idle(&mut second);
        let (_, detail) = &second.textures[&(europe, Palette::LIGHT)];
        assert_eq!(*detail, TileDetail::of(&sea), "served from disk");
        assert_ne!(*detail, TileDetail::of(&rendered));
    }

    #[test]
    fn ancestors_and_their_uv() {
        let id = TileId {
            x: 5,
            y: 6,
            zoom: 3,
        };
        let (p, uv) = ancestor(id, 1);
        assert_eq!((p.x, p.y, p.zoom), (2, 3, 2));
        assert_eq!(uv, Rect::from_min_max(pos2(0.5, 0.0), pos2(1.0, 0.5)));
        let (p, uv) = ancestor(id, 0);
        assert_eq!(p, id);
        assert_eq!(uv, Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)));
        // Never above the world tile.
        assert_eq!(ancestor(id, 9).0.zoom, 0);
    }
}
