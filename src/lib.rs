//! fleetview: inspect one machine's telematics history and manage the
//! integrations that feed a fleet's data.
//!
//! Layers, imports pointing down only (see DESIGN.md):
//! - [`ui`]: egui panels; view state only; never does I/O.
//! - [`app`]: the eframe app: state, actions, draining worker events.
//! - [`basemap`]: the offline map background (Natural Earth), as map tiles.
//! - [`export`]: CSV, JSON, GPX and GeoJSON files from fetched data.
//! - [`worker`]: background thread with a tokio runtime; Commands in, Events out.
//! - [`cache`]: SQLite store of windows already fetched.
//! - [`series`]: columnar time series decoded from rows of any shape.
//! - [`api`]: wire model, data kinds, time windows.
//! - [`sandbox`]: an implementation of the service with a simulated fleet.

pub mod api;
pub mod app;
pub mod basemap;
pub mod cache;
pub mod export;
pub mod geo;
pub mod sandbox;
pub mod series;
pub mod ui;
pub mod worker;
