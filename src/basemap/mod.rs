//! The offline basemap: Natural Earth land and country outlines, embedded in
//! the binary and rasterised into map tiles on a thread of their own, so the
//! map has a background with no network at all.
//!
//! - [`Outlines`] (`outlines.rs`): the TopoJSON decoded into Mercator rings
//!   with boxes.
//! - [`render_tile`] (`render.rs`): one 256 px tile, with tiny-skia.
//! - [`OfflineTiles`] (`tiles.rs`): walkers' `Tiles` over a render thread,
//!   and whether the tiles in view show anything ([`TileDetail`],
//!   `detail.rs`).
//! - [`OnlineTiles`] (`online.rs`): the online tiles drawn over it, and
//!   their state in words, so the map widget never deals with HTTP.

mod detail;
mod online;
mod outlines;
mod render;
mod tiles;

pub use detail::TileDetail;
pub use online::{OSM_TEMPLATE, OnlineStatus, OnlineTiles, UrlTiles, online_tiles};
pub use outlines::{BasemapError, Outlines, Polygon, Ring};
pub use render::{DETAIL_ZOOM, Palette, TILE_SIZE, render_tile, tile_bounds};
pub use tiles::OfflineTiles;
