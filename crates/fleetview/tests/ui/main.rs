//! The desktop app driven through egui_kittest (accesskit queries, clicks,
//! typing, scrolling, dragging) on real app state, against real sandboxes
//! over loopback. One binary, one module per area.

/// The workspace's test helpers, and those that drive the app (`ui.rs`).
mod common {
    pub use fleetview_testkit::*;
    pub mod ui;
}

mod answers;
mod app;
mod catalog;
mod daily_charts;
mod day;
mod desktop;
mod events;
mod export;
mod laptop;
mod morning;
mod offline;
mod overview;
mod overview_map;
mod real_rows;
mod service_plan;
mod timeline;
mod ui_fuzz;
mod walkthrough;
