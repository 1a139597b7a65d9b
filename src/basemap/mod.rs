//! The offline basemap: Natural Earth land and country outlines, embedded in
//! the binary and rasterised into map tiles on a thread of their own, so the
//! map has a background with no network at all.
//!
//! - [`Outlines`] (`outlines.rs`): the TopoJSON decoded into Mercator rings
//!   with boxes.
//! - [`render_tile`] (`render.rs`): one 256 px tile, with tiny-skia.
//! - [`OfflineTiles`] (`tiles.rs`): walkers' `Tiles` over a render thread;
//!   also the online tile source.

mod outlines;
mod render;
mod tiles;

pub use outlines::{BasemapError, Outlines, Polygon, Ring};
pub use render::{DETAIL_ZOOM, Palette, TILE_SIZE, render_tile, tile_bounds};
pub use tiles::{OSM_TEMPLATE, OfflineTiles, UrlTiles, online_tiles};
