//! fleetview: inspect one machine's telematics history and manage the
//! integrations that feed a fleet's data.
//!
//! Layers, imports pointing down only (see DESIGN.md):
//! - [`series`]: columnar time series decoded from rows of any shape.
//! - [`api`]: wire model, data kinds, time windows.
//! - [`sandbox`]: an implementation of the service with a simulated fleet.

pub mod api;
pub mod sandbox;
pub mod series;
