//! Whether a rendered tile shows anything: at a site's zoom the outlines
//! hold no coast or border, and a tile is one flat colour; the map says so
//! rather than showing grey.

use egui::Rect;

use fleetview_core::basemap::TILE_SIZE;

/// Blocks per tile edge.
const GRID: usize = 16;

/// Per block of a tile (16 x 16 blocks), its one colour if it has only
/// one.
#[derive(Debug, Clone, PartialEq)]
pub struct TileDetail {
    blocks: Vec<Option<u32>>,
}

impl TileDetail {
    /// Reads a rendered tile (RGBA, `TILE_SIZE` square).
    pub fn of(rgba: &[u8]) -> Self {
        let size = TILE_SIZE as usize;
        let block = size / GRID;
        let pixel = |x: usize, y: usize| {
            let i = (y * size + x) * 4;
            rgba.get(i..i + 4)
                .map_or(0, |p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]))
        };
        let blocks = (0..GRID * GRID)
            .map(|k| {
                let (bx, by) = ((k % GRID) * block, (k / GRID) * block);
                let first = pixel(bx, by);
                let flat = (by..by + block).all(|y| (bx..bx + block).all(|x| pixel(x, y) == first));
                flat.then_some(first)
            })
            .collect();
        Self { blocks }
    }

    /// Whether the part `uv` (0..1 of the tile) shows more than one flat
    /// colour.
    pub fn shows_detail(&self, uv: Rect) -> bool {
        let cell = |v: f32| ((v * GRID as f32).floor() as usize).min(GRID - 1);
        // The blocks the part touches; its far edge is exclusive.
        let last = |v: f32| cell((v - 1e-4).max(0.0));
        let (x0, x1) = (cell(uv.min.x), last(uv.max.x));
        let (y0, y1) = (cell(uv.min.y), last(uv.max.y));
        let mut colour = None;
        for y in y0..=y1.max(y0) {
            for x in x0..=x1.max(x0) {
                match (self.blocks[y * GRID + x], colour) {
                    (None, _) => return true,
                    (Some(c), None) => colour = Some(c),
                    (Some(c), Some(first)) if c != first => return true,
                    _ => {}
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use egui::pos2;

    use super::*;

    fn tile(paint: impl Fn(usize, usize) -> [u8; 4]) -> Vec<u8> {
        let size = TILE_SIZE as usize;
        (0..size * size)
            .flat_map(|i| paint(i % size, i / size))
            .collect()
    }

    #[test]
    fn a_flat_tile_has_no_detail_and_a_coast_has() {
        let whole = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
        let land = TileDetail::of(&tile(|_, _| [58, 63, 68, 255]));
        assert!(!land.shows_detail(whole));
        // Sea on the left, land from x = 200: a coast.
        let coast = TileDetail::of(&tile(|x, _| {
            if x < 200 {
                [29, 43, 58, 255]
            } else {
                [58, 63, 68, 255]
            }
        }));
        assert!(coast.shows_detail(whole));
        // Magnified, a quarter away from the coast is flat again.
        let top_left = Rect::from_min_max(pos2(0.0, 0.0), pos2(0.5, 0.5));
        assert!(!coast.shows_detail(top_left));
        let top_right = Rect::from_min_max(pos2(0.5, 0.0), pos2(1.0, 0.5));
        assert!(coast.shows_detail(top_right));
        // A sixteenth: one block.
        let block = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0 / 16.0, 1.0 / 16.0));
        assert!(!coast.shows_detail(block));
    }
}
