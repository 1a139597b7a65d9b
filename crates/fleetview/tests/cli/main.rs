//! The `fleetview` binary run as a user runs it: `export`, `report` and
//! `sandbox` (killed and restarted, as a process), and the pieces of the
//! Debian package. One binary, one module per area.

mod assets;
mod binary;
mod cache_cli;
mod export_cli;
mod export_clock;
mod export_numbers;
mod fleet_report_cli;
mod manners;
mod package;
mod report_cli;
mod sandbox_durability;
mod sandbox_process;
mod service_cli;
mod trouble;
