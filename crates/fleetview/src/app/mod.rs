//! The model: the app's state split by feature, each owning its state and
//! how its actions and the worker's events change it. Views read it and
//! return actions; it returns commands for the worker. No view, no I/O.

pub mod action;
pub mod catalog;
pub mod connection;
pub mod desktop;
pub mod errors;
pub mod exports;
pub mod failure;
pub mod figures;
pub mod fleet;
pub mod intake;
pub mod loadable;
pub mod machine;
pub mod notifications;
pub mod overview;
mod reading;
pub mod recent_views;
pub mod service;
pub mod settings;
pub mod state;
#[cfg(feature = "test-support")]
mod test_support;
pub mod timeline;

pub use action::Action;
pub use catalog::{CatalogAction, CatalogState};
pub use connection::{ConnStatus, Connection, ConnectionAction, EmbeddedLogin, Offline, Profile};
pub use desktop::{Places, Setup, ThemeChoice, sandbox_data_dir};
pub use errors::Problem;
pub use figures::{FiguresAction, FiguresState};
pub use fleet::{DISCOVERY_WINDOW_SECS, FleetState};
pub use loadable::Loadable;
pub use machine::{MachineAction, MachineView, custom_window_refusal};
pub use notifications::{Level, NEWS_SECS, Notification};
pub use overview::{OverviewAction, OverviewState};
pub use service::{ServiceAction, ServiceState};
pub use settings::{PaneShares, Preset, Settings, Tab, TimesIn};
pub use state::AppState;
pub use timeline::{MapSettings, REPLAY_SPEEDS, Replay, TimelineAction, TimelineState};
