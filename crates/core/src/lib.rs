//! fleetview's headless core: everything between the service's wire model
//! and the desktop app, with no GUI crate. Layers, imports pointing down
//! only (docs/architecture.md):
//! - [`worker`]: a background thread with a tokio runtime; commands in,
//!   decoded events out.
//! - [`report`]: reports of a machine or the fleet over a window, written
//!   as JSON, CSV, Markdown or one self-contained HTML file.
//! - [`service`]: service plans, when each is due, the service book.
//! - [`analysis`]: pure figures over what the service returned.
//! - [`cache`]: SQLite store of windows already fetched.
//! - [`export`]: pure writers: CSV, JSON, GPX and GeoJSON.
//! - [`basemap`]: the offline map background (Natural Earth), rendered into
//!   map tiles.
//! - [`series`]: columnar time series, min/max index, track simplification.

pub mod analysis;
pub mod basemap;
pub mod cache;
pub mod export;
pub mod report;
pub mod series;
pub mod service;
pub mod worker;
