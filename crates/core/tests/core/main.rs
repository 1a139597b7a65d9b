//! The core's tests against real sandboxes over loopback and real SQLite
//! files: the client, the worker and its cache, the analysis of simulated
//! fleets, and fuzzing of the decoders. One binary, one module per area.

mod analysis_sandbox;
mod analysis_tanks;
mod cache_heal;
mod client;
mod events_sandbox;
mod export_numbers;
mod fuzz;
mod history_chunks;
mod look_back;
mod remote;
mod service_clock;
mod tzdb;
mod wakes;
mod worker;
