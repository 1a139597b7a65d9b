//! Rasterising the outlines into map tiles: one 256 px tile at a time,
//! with tiny-skia, in the basemap's palette.

use super::outlines::{Outlines, Ring};
use fleetview_api::geo::MercRect;

/// Tile edge in pixels.
pub const TILE_SIZE: u32 = 256;
/// From this zoom on, the detailed (1:10m) outlines are used.
pub const DETAIL_ZOOM: u8 = 5;

/// The colours of the basemap: [`Palette::DARK`] under a dark theme,
/// [`Palette::LIGHT`] under a light one. Tiles are cached per palette.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Palette {
    pub(crate) water: [u8; 4],
    pub(crate) land: [u8; 4],
    pub(crate) border: [u8; 4],
}

impl Default for Palette {
    fn default() -> Self {
        Self::DARK
    }
}

impl Palette {
    /// Slate land on a deep blue sea, for a dark theme.
    pub const DARK: Palette = Palette {
        water: [0x1d, 0x2b, 0x3a, 0xff],
        land: [0x3a, 0x3f, 0x44, 0xff],
        border: [0x6a, 0x70, 0x76, 0xff],
    };
    /// Pale land on a light blue sea, as printed maps are, for a light
    /// theme: the track's and the marks' colours, outlined, read on both.
    pub const LIGHT: Palette = Palette {
        water: [0xaa, 0xd3, 0xdf, 0xff],
        land: [0xf2, 0xef, 0xe9, 0xff],
        border: [0x9a, 0x94, 0xa6, 0xff],
    };

    /// The sea's colour (RGBA).
    pub fn water(&self) -> [u8; 4] {
        self.water
    }

    /// The land's colour (RGBA).
    pub fn land(&self) -> [u8; 4] {
        self.land
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

/// Relative luminance (0 to 1) of an sRGB colour (alpha ignored), as WCAG
/// defines it: the palettes' and the app's contrast checks share it.
pub fn relative_luminance([r, g, b, _]: [u8; 4]) -> f32 {
    let lin = |v: u8| {
        let v = f32::from(v) / 255.0;
        if v <= 0.040_45 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::geo::mercator;

    fn pixel(tile: &[u8], x: u32, y: u32) -> [u8; 4] {
        let i = ((y * TILE_SIZE + x) * 4) as usize;
        [tile[i], tile[i + 1], tile[i + 2], tile[i + 3]]
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

    #[test]
    fn the_light_palette_draws_light_land_and_light_water_apart() {
        let outlines = Outlines::coarse().expect("outlines");
        let at = |lat: f64, lon: f64, palette: Palette| {
            let p = mercator(lat, lon).expect("finite");
            let (tx, ty) = ((p[0] * 16.0) as u32, (p[1] * 16.0) as u32);
            let tile = render_tile(&outlines, tx, ty, 4, palette);
            let px = ((p[0] * 16.0).fract() * 256.0) as u32;
            let py = ((p[1] * 16.0).fract() * 256.0) as u32;
            pixel(&tile, px, py)
        };
        // Lyon is land, the mid-Atlantic water.
        let lyon = |palette| at(45.75, 4.85, palette);
        let sea = |palette| at(30.0, -40.0, palette);
        let (land, water) = (lyon(Palette::LIGHT), sea(Palette::LIGHT));
        assert_ne!(land, water);
        for (what, c) in [("land", land), ("water", water)] {
            assert!(relative_luminance(c) > 0.5, "light {what}: {c:?}");
        }
        for (what, c) in [("land", lyon(Palette::DARK)), ("water", sea(Palette::DARK))] {
            assert!(relative_luminance(c) < 0.1, "dark {what}: {c:?}");
        }
        assert_eq!((land, water), (Palette::LIGHT.land, Palette::LIGHT.water));
    }
}
