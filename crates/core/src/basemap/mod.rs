//! The offline basemap: Natural Earth land and country outlines, embedded in
//! the binary and rasterised into map tiles, so the map has a background
//! with no network at all. The desktop app's `tiles` module serves them to
//! the map widget.
//!
//! - [`Outlines`] (`outlines.rs`): the TopoJSON decoded into Mercator rings
//!   with boxes.
//! - [`render_tile`] (`render.rs`): one 256 px tile, with tiny-skia.
//! - [`KeptTiles`] (`kept.rs`): rendered tiles kept on disk.

mod kept;
mod outlines;
mod render;

pub use kept::{DEFAULT_KEPT_TILE_BYTES, KeptTiles};
pub use outlines::{BasemapError, Outlines, Polygon, Ring};
pub use render::{DETAIL_ZOOM, Palette, TILE_SIZE, relative_luminance, render_tile, tile_bounds};
