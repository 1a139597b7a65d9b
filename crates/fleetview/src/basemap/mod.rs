//! The basemap's tiles for the map: walkers' `Tiles` over the core's offline basemap
//! (rendered on a thread of their own), the online tiles drawn over it and
//! their state in words, so the map widget never deals with HTTP.
//!
//! - [`OfflineTiles`] (`offline.rs`), and whether the tiles in view show
//!   anything ([`TileDetail`], `detail.rs`).
//! - [`OnlineTiles`] (`online.rs`).

mod detail;
mod offline;
mod online;

pub use detail::TileDetail;
pub use offline::OfflineTiles;
pub use online::{OSM_TEMPLATE, OnlineStatus, OnlineTiles, UrlTiles, online_tiles};
