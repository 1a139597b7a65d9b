//! fleetview: inspect one machine's telematics history and manage the
//! integrations that feed a fleet's data.
//!
//! Layers, imports pointing down only (docs/decisions.md, "Layers"; check:
//! `python3 ../shared/tools/layers.py`):
//! - [`shell`]: the eframe app and start-up; ties the layers below.
//! - [`cli`]: the command line's jobs (export), driving the worker.
//! - [`ui`]: egui views, one home per view; view state only; never I/O.
//! - [`app`]: the model, split by feature: actions and events in, commands out.
//! - [`worker`]: background thread with a tokio runtime; commands in,
//!   decoded events out.
//! - [`analysis`]: pure figures over what the service returned.
//! - [`cache`]: SQLite store of windows already fetched.
//! - [`export`]: pure writers: CSV, JSON, GPX and GeoJSON.
//! - [`basemap`]: the offline map background (Natural Earth), as map tiles.
//! - [`series`]: columnar time series, min/max index, track simplification.
//! - [`api`]: wire model, data kinds, time windows, the HTTP client.
//! - [`geo`]: positions, distances and Web Mercator.
//! - [`sandbox`]: an implementation of the service with a simulated fleet
//!   (uses only `api` and `geo`).

pub mod analysis;
pub mod api;
pub mod app;
pub mod basemap;
pub mod cache;
pub mod cli;
pub mod export;
pub mod geo;
pub mod sandbox;
pub mod series;
pub mod shell;
pub mod ui;
pub mod worker;
