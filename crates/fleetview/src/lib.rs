//! fleetview, the desktop app: inspect one machine's telematics history,
//! see the whole fleet at a glance, and manage the integrations that feed a
//! fleet's data. The only crate of the workspace that links a GUI crate.
//!
//! Layers, imports pointing down only (docs/architecture.md); below them the
//! crates `fleetview_core` (worker, analysis, cache, export, series,
//! basemap), `fleetview_sandbox` and `fleetview_api`:
//! - [`shell`]: the eframe app and start-up; ties the layers below.
//! - [`cli`]: the command line's jobs (export, report), driving the worker.
//! - [`ui`]: egui views, one home per view; view state only; never I/O.
//! - [`app`]: the model, split by feature: actions and events in, commands out.
//! - [`basemap`]: the map's offline and online tiles (walkers), over the
//!   core's rendering.

pub mod app;
pub mod basemap;
pub mod cli;
pub mod shell;
pub mod ui;
