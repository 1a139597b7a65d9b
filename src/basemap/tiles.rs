//! walkers' `Tiles` over the offline basemap: tiles are rasterised on a
//! thread of their own, newest request first; until a tile is ready its
//! nearest rendered ancestor is shown, magnified, so the map is never blank.
//! Also the online tile source (OpenStreetMap by default), which this module
//! owns so the map widget never deals with HTTP.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::mpsc;

use egui::{Rect, TextureHandle, TextureOptions, pos2};
use walkers::sources::{Attribution, TileSource};
use walkers::{HeaderValue, HttpOptions, HttpTiles, Tile, TileId, TilePiece, Tiles};

use super::outlines::Outlines;
use super::render::{DETAIL_ZOOM, Palette, TILE_SIZE, render_tile};

/// Deeper than this, tiles are the magnified quarter of their parent: the
/// outlines hold no more detail.
const MAX_RENDER_ZOOM: u8 = 14;
/// Rendered tiles kept as textures.
const MAX_TEXTURES: usize = 384;
/// Requests waiting to be rendered; older ones are dropped (panned past).
const MAX_QUEUE: usize = 48;

/// The offline basemap as walkers tiles.
pub struct OfflineTiles {
    ctx: egui::Context,
    requests: mpsc::Sender<TileId>,
    rendered: mpsc::Receiver<(TileId, Vec<u8>)>,
    textures: HashMap<TileId, TextureHandle>,
    /// Insertion order, for eviction.
    order: VecDeque<TileId>,
    pending: HashSet<TileId>,
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
    pub fn new(ctx: egui::Context, palette: Palette) -> Self {
        let (req_tx, req_rx) = mpsc::channel::<TileId>();
        let (out_tx, out_rx) = mpsc::channel();
        let wake = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("fleetview-basemap".into())
            .spawn(move || render_loop(req_rx, out_tx, palette, wake));
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
        }
    }

    fn receive(&mut self) {
        while let Ok((id, rgba)) = self.rendered.try_recv() {
            self.pending.remove(&id);
            let size = TILE_SIZE as usize;
            if rgba.len() != size * size * 4 {
                continue;
            }
            let image = egui::ColorImage::from_rgba_premultiplied([size, size], &rgba);
            let name = format!("basemap-{}-{}-{}", id.zoom, id.x, id.y);
            let texture = self.ctx.load_texture(name, image, TextureOptions::LINEAR);
            self.textures.insert(id, texture);
            self.order.push_back(id);
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
fn ancestor(id: TileId, levels: u8) -> (TileId, Rect) {
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
        let (own, own_uv) = ancestor(id, id.zoom.saturating_sub(MAX_RENDER_ZOOM));
        if let Some(t) = self.textures.get(&own) {
            return Some(TilePiece::new(Tile::Raster(t.clone()), own_uv));
        }
        if self.pending.insert(own) && self.requests.send(own).is_err() {
            self.pending.remove(&own);
        }
        // Meanwhile, the nearest rendered ancestor, magnified.
        (1..=id.zoom).find_map(|up| {
            let (a, uv) = ancestor(id, up);
            self.textures
                .get(&a)
                .map(|t| TilePiece::new(Tile::Raster(t.clone()), uv))
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
    requests: mpsc::Receiver<TileId>,
    out: mpsc::Sender<(TileId, Vec<u8>)>,
    palette: Palette,
    wake: egui::Context,
) {
    let coarse = match Outlines::coarse() {
        Ok(o) => o,
        Err(e) => {
            tracing::warn!("{e}");
            Outlines::default()
        }
    };
    let mut detailed: Option<Outlines> = None;
    let mut queue: VecDeque<TileId> = VecDeque::new();
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
        let Some(id) = queue.pop_back() else { continue };
        let outlines = if id.zoom >= DETAIL_ZOOM {
            detailed.get_or_insert_with(|| {
                Outlines::detailed().unwrap_or_else(|e| {
                    tracing::warn!("{e}");
                    Outlines::default()
                })
            })
        } else {
            &coarse
        };
        let rgba = render_tile(outlines, id.x, id.y, id.zoom, palette);
        if out.send((id, rgba)).is_err() {
            return;
        }
        wake.request_repaint();
    }
}

/// An online raster tile source from a URL template with `{z}`, `{x}` and
/// `{y}` (OpenStreetMap's by default).
#[derive(Debug, Clone, PartialEq)]
pub struct UrlTiles {
    pub template: String,
}

/// OpenStreetMap's standard tiles.
pub const OSM_TEMPLATE: &str = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";

impl TileSource for UrlTiles {
    fn tile_url(&self, id: TileId) -> String {
        self.template
            .replace("{z}", &id.zoom.to_string())
            .replace("{x}", &id.x.to_string())
            .replace("{y}", &id.y.to_string())
    }

    fn attribution(&self) -> Attribution {
        Attribution {
            text: "© OpenStreetMap contributors",
            url: "https://www.openstreetmap.org/copyright",
            logo_light: None,
            logo_dark: None,
        }
    }
}

/// Online tiles from `template`, cached on disk in `cache_dir` (walkers
/// honours the server's expiry), with a User-Agent naming fleetview.
pub fn online_tiles(template: &str, cache_dir: Option<PathBuf>, ctx: egui::Context) -> HttpTiles {
    let options = HttpOptions {
        cache: cache_dir,
        user_agent: Some(HeaderValue::from_static(concat!(
            "fleetview/",
            env!("CARGO_PKG_VERSION"),
            " (fleet telematics desktop app)"
        ))),
        ..HttpOptions::default()
    };
    HttpTiles::with_options(
        UrlTiles {
            template: template.to_owned(),
        },
        options,
        ctx,
    )
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

    #[test]
    fn url_templates() {
        let t = UrlTiles {
            template: OSM_TEMPLATE.into(),
        };
        let id = TileId {
            x: 1,
            y: 2,
            zoom: 3,
        };
        assert_eq!(t.tile_url(id), "https://tile.openstreetmap.org/3/1/2.png");
        assert_eq!(t.attribution().text, "© OpenStreetMap contributors");
    }
}
