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
use fleetview_core::basemap::{DETAIL_ZOOM, Outlines, Palette, TILE_SIZE, render_tile};

/// Deeper than this, tiles are the magnified quarter of their parent: the
/// outlines hold no more detail.
const MAX_RENDER_ZOOM: u8 = 14;
/// Rendered tiles kept as textures.
const MAX_TEXTURES: usize = 384;
/// Requests waiting to be rendered; older ones are dropped (panned past).
const MAX_QUEUE: usize = 48;

/// A tile in a palette: what is rendered and kept.
type Key = (TileId, Palette);

/// The offline basemap as walkers tiles.
pub struct OfflineTiles {
    ctx: egui::Context,
    requests: mpsc::Sender<Key>,
    rendered: mpsc::Receiver<(Key, Vec<u8>, TileDetail)>,
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
    /// Tiles are served in `palette` until [`OfflineTiles::set_palette`].
    pub fn new(ctx: egui::Context, palette: Palette) -> Self {
        let (req_tx, req_rx) = mpsc::channel::<Key>();
        let (out_tx, out_rx) = mpsc::channel();
        let wake = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("fleetview-basemap".into())
            .spawn(move || render_loop(req_rx, out_tx, wake));
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
        while let Ok((key, rgba, detail)) = self.rendered.try_recv() {
            self.pending.remove(&key);
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

fn render_loop(
    requests: mpsc::Receiver<Key>,
    out: mpsc::Sender<(Key, Vec<u8>, TileDetail)>,
    wake: egui::Context,
) {
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
            match requests.recv() {
                Ok(id) => queue.push_back(id),
                Err(_) => return,
            }
        }
        queue.extend(requests.try_iter());
        while queue.len() > MAX_QUEUE {
            queue.pop_front();
        }
        let Some(key) = queue.pop_back() else {
            continue;
        };
        let (id, palette) = key;
        let outlines = if id.zoom >= DETAIL_ZOOM {
            Outlines::detailed_shared()
        } else {
            &coarse
        };
        let rgba = render_tile(outlines, id.x, id.y, id.zoom, palette);
        let detail = TileDetail::of(&rgba);
        if out.send((key, rgba, detail)).is_err() {
            return;
        }
        wake.request_repaint();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
