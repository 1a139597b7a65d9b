//! The command line's own jobs, run without a display: each drives the
//! background worker through its commands, with the same cache as the app
//! (`service` opens the app's service book itself).
//! Each job's arguments live beside it; what they share is in `args.rs`.

pub mod args;
pub mod assets;
pub mod exit;
pub mod export;
mod job;
pub mod report;
mod report_fleet;
pub mod sandbox;
pub mod service;
mod service_due;
