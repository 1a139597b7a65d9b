//! The offline basemap: Natural Earth land and country outlines, embedded in
//! the binary and rasterised into map tiles on a thread of their own, so the
//! map has a background with no network at all.
//!
//! - [`Outlines`]: the TopoJSON decoded into Mercator rings with boxes.
//! - [`render_tile`]: one 256 px tile, with tiny-skia.
//! - [`OfflineTiles`]: walkers' `Tiles` over a render thread.

mod tiles;

use std::collections::HashMap;
use std::io::Read;

use serde::Deserialize;

use crate::geo::{MercRect, mercator};
pub use tiles::{OSM_TEMPLATE, OfflineTiles, UrlTiles, online_tiles};

/// Tile edge in pixels.
pub const TILE_SIZE: u32 = 256;
/// From this zoom on, the detailed (1:10m) outlines are used.
pub const DETAIL_ZOOM: u8 = 5;

const COUNTRIES_50M: &[u8] = include_bytes!("../../assets/natural-earth/countries-50m.json.gz");
const COUNTRIES_10M: &[u8] = include_bytes!("../../assets/natural-earth/countries-10m.json.gz");

/// The colours of the basemap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    pub water: [u8; 4],
    pub land: [u8; 4],
    pub border: [u8; 4],
}

impl Default for Palette {
    fn default() -> Self {
        Self {
            water: [0x1d, 0x2b, 0x3a, 0xff],
            land: [0x3a, 0x3f, 0x44, 0xff],
            border: [0x6a, 0x70, 0x76, 0xff],
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum BasemapError {
    #[error("the embedded basemap could not be unpacked: {0}")]
    Gzip(#[from] std::io::Error),
    #[error("the embedded basemap is not the expected TopoJSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the basemap has no object named {0:?}")]
    MissingObject(&'static str),
}

/// A closed ring in Mercator units, with its box.
#[derive(Debug, Clone, PartialEq)]
pub struct Ring {
    pub points: Vec<[f64; 2]>,
    pub bounds: MercRect,
}

/// A polygon: its outer ring then its holes (filled even-odd).
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    pub rings: Vec<Ring>,
    pub bounds: MercRect,
}

/// Land to fill, country outlines to stroke.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outlines {
    pub land: Vec<Polygon>,
    pub borders: Vec<Ring>,
}

// ---------------------------------------------------------------- TopoJSON

#[derive(Deserialize)]
struct Topology {
    objects: HashMap<String, Collection>,
    arcs: Vec<Vec<Vec<f64>>>,
    transform: Option<Transform>,
}

#[derive(Deserialize)]
struct Transform {
    scale: [f64; 2],
    translate: [f64; 2],
}

#[derive(Deserialize)]
struct Collection {
    #[serde(default)]
    geometries: Vec<Geometry>,
}

#[derive(Deserialize)]
#[serde(tag = "type")]
enum Geometry {
    Polygon {
        arcs: Vec<Vec<i64>>,
    },
    MultiPolygon {
        arcs: Vec<Vec<Vec<i64>>>,
    },
    #[serde(other)]
    Other,
}

/// Arcs decoded to Mercator points.
struct Arcs(Vec<Vec<[f64; 2]>>);

impl Arcs {
    fn decode(topo: &Topology) -> Self {
        let (scale, translate) = topo
            .transform
            .as_ref()
            .map_or(([1.0, 1.0], [0.0, 0.0]), |t| (t.scale, t.translate));
        let quantized = topo.transform.is_some();
        Arcs(
            topo.arcs
                .iter()
                .map(|arc| {
                    let (mut x, mut y) = (0.0, 0.0);
                    arc.iter()
                        .filter(|p| p.len() >= 2)
                        .filter_map(|p| {
                            // Quantized arcs are delta-encoded.
                            if quantized {
                                x += p[0];
                                y += p[1];
                            } else {
                                (x, y) = (p[0], p[1]);
                            }
                            let lon = x * scale[0] + translate[0];
                            let lat = y * scale[1] + translate[1];
                            mercator(lat, lon)
                        })
                        .collect()
                })
                .collect(),
        )
    }

    /// A ring from arc references (`!i` is arc `i` reversed).
    fn ring(&self, refs: &[i64]) -> Option<Ring> {
        let mut points: Vec<[f64; 2]> = Vec::new();
        for &r in refs {
            let (idx, reversed) = if r >= 0 {
                (r as usize, false)
            } else {
                ((!r) as usize, true)
            };
            let arc = self.0.get(idx)?;
            let skip = usize::from(!points.is_empty());
            if reversed {
                points.extend(arc.iter().rev().skip(skip));
            } else {
                points.extend(arc.iter().skip(skip));
            }
        }
        if points.len() < 3 {
            return None;
        }
        let mut bounds = MercRect::EMPTY;
        for p in &points {
            bounds.extend(*p);
        }
        Some(Ring { points, bounds })
    }

    fn polygon(&self, rings: &[Vec<i64>]) -> Option<Polygon> {
        let rings: Vec<Ring> = rings.iter().filter_map(|r| self.ring(r)).collect();
        let bounds = rings.first()?.bounds;
        Some(Polygon { rings, bounds })
    }
}

fn polygons(arcs: &Arcs, collection: &Collection) -> Vec<Polygon> {
    let mut out = Vec::new();
    for g in &collection.geometries {
        match g {
            Geometry::Polygon { arcs: rings } => out.extend(arcs.polygon(rings)),
            Geometry::MultiPolygon { arcs: polys } => {
                out.extend(polys.iter().filter_map(|p| arcs.polygon(p)))
            }
            Geometry::Other => {}
        }
    }
    out
}

impl Outlines {
    /// Decodes gzipped TopoJSON with a `land` and a `countries` object.
    pub fn from_topojson_gz(bytes: &[u8]) -> Result<Self, BasemapError> {
        let mut json = Vec::new();
        flate2::read::GzDecoder::new(bytes).read_to_end(&mut json)?;
        let topo: Topology = serde_json::from_slice(&json)?;
        let arcs = Arcs::decode(&topo);
        let land = topo
            .objects
            .get("land")
            .ok_or(BasemapError::MissingObject("land"))?;
        let countries = topo
            .objects
            .get("countries")
            .ok_or(BasemapError::MissingObject("countries"))?;
        let land = polygons(&arcs, land);
        let borders = polygons(&arcs, countries)
            .into_iter()
            .flat_map(|p| p.rings)
            .collect();
        Ok(Self { land, borders })
    }

    /// The coarse (1:50m) outlines.
    pub fn coarse() -> Result<Self, BasemapError> {
        Self::from_topojson_gz(COUNTRIES_50M)
    }

    /// The detailed (1:10m) outlines.
    pub fn detailed() -> Result<Self, BasemapError> {
        Self::from_topojson_gz(COUNTRIES_10M)
    }
}

/// The box a tile covers, in Mercator units.
pub fn tile_bounds(x: u32, y: u32, zoom: u8) -> MercRect {
    let n = f64::from(1u32 << zoom.min(30));
    MercRect {
        min: [f64::from(x) / n, f64::from(y) / n],
        max: [f64::from(x + 1) / n, f64::from(y + 1) / n],
    }
}

/// Rasterises tile `x`, `y` at `zoom`: premultiplied RGBA, `TILE_SIZE`
/// pixels square.
pub fn render_tile(outlines: &Outlines, x: u32, y: u32, zoom: u8, palette: Palette) -> Vec<u8> {
    use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

    let size = TILE_SIZE;
    let Some(mut pixmap) = Pixmap::new(size, size) else {
        return Vec::new();
    };
    let [r, g, b, a] = palette.water;
    pixmap.fill(Color::from_rgba8(r, g, b, a));
    let bounds = tile_bounds(x, y, zoom);
    // A little margin so strokes crossing the edge are drawn on both tiles.
    let margin = (bounds.max[0] - bounds.min[0]) * 0.02;
    let view = MercRect {
        min: [bounds.min[0] - margin, bounds.min[1] - margin],
        max: [bounds.max[0] + margin, bounds.max[1] + margin],
    };
    let scale = f64::from(size) / (bounds.max[0] - bounds.min[0]);
    let to_px = |p: [f64; 2]| {
        (
            ((p[0] - bounds.min[0]) * scale) as f32,
            ((p[1] - bounds.min[1]) * scale) as f32,
        )
    };
    // Points closer than a quarter pixel add nothing.
    let min_step = 0.25 / scale;
    let add_ring = |pb: &mut PathBuilder, ring: &Ring| {
        let mut last: Option<[f64; 2]> = None;
        for (k, p) in ring.points.iter().enumerate() {
            if let Some(l) = last
                && (p[0] - l[0]).abs() < min_step
                && (p[1] - l[1]).abs() < min_step
                && k + 1 != ring.points.len()
            {
                continue;
            }
            let (px, py) = to_px(*p);
            if last.is_none() {
                pb.move_to(px, py);
            } else {
                pb.line_to(px, py);
            }
            last = Some(*p);
        }
        pb.close();
    };

    let mut paint = Paint {
        anti_alias: true,
        ..Paint::default()
    };
    let [r, g, b, a] = palette.land;
    paint.set_color_rgba8(r, g, b, a);
    let mut pb = PathBuilder::new();
    for poly in outlines.land.iter().filter(|p| p.bounds.intersects(&view)) {
        for ring in &poly.rings {
            add_ring(&mut pb, ring);
        }
    }
    if let Some(path) = pb.finish() {
        pixmap.fill_path(
            &path,
            &paint,
            FillRule::EvenOdd,
            Transform::identity(),
            None,
        );
    }

    let [r, g, b, a] = palette.border;
    paint.set_color_rgba8(r, g, b, a);
    let stroke = Stroke {
        width: if zoom >= DETAIL_ZOOM { 1.0 } else { 0.6 },
        ..Stroke::default()
    };
    let mut pb = PathBuilder::new();
    for ring in outlines
        .borders
        .iter()
        .filter(|r| r.bounds.intersects(&view))
    {
        add_ring(&mut pb, ring);
    }
    if let Some(path) = pb.finish() {
        pixmap.stroke_path(&path, &paint, &stroke, Transform::identity(), None);
    }
    pixmap.take()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixel(tile: &[u8], x: u32, y: u32) -> [u8; 4] {
        let i = ((y * TILE_SIZE + x) * 4) as usize;
        [tile[i], tile[i + 1], tile[i + 2], tile[i + 3]]
    }

    #[test]
    fn the_embedded_outlines_decode() {
        let coarse = Outlines::coarse().expect("coarse outlines");
        assert!(
            coarse.land.len() > 100,
            "{} land polygons",
            coarse.land.len()
        );
        assert!(coarse.borders.len() > 200);
        let detailed = Outlines::detailed().expect("detailed outlines");
        assert!(detailed.land.len() > coarse.land.len());
    }

    #[test]
    fn tiles_show_land_where_land_is_and_sea_where_it_is_not() {
        let outlines = Outlines::coarse().expect("outlines");
        let palette = Palette::default();
        // Zoom 4: central France (Lyon) is land; the mid-Atlantic is water.
        let lyon = mercator(45.75, 4.85).expect("finite");
        let (tx, ty) = ((lyon[0] * 16.0) as u32, (lyon[1] * 16.0) as u32);
        let tile = render_tile(&outlines, tx, ty, 4, palette);
        assert_eq!(tile.len(), (TILE_SIZE * TILE_SIZE * 4) as usize);
        let px = (((lyon[0] * 16.0).fract()) * 256.0) as u32;
        let py = (((lyon[1] * 16.0).fract()) * 256.0) as u32;
        assert_eq!(pixel(&tile, px, py), palette.land);
        let sea = mercator(30.0, -40.0).expect("finite");
        let tile = render_tile(
            &outlines,
            (sea[0] * 16.0) as u32,
            (sea[1] * 16.0) as u32,
            4,
            palette,
        );
        assert_eq!(pixel(&tile, 128, 128), palette.water);
    }
}
