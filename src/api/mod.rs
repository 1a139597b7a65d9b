//! The service's wire model, data kinds and time windows.
//!
//! `model` holds serde types for every resource and body of
//! `fleet-service.md`, `data_kind` the `{dataKind}` values, `time` the wire
//! date format and the D8 windows.

pub mod data_kind;
pub mod model;
pub mod time;

pub use data_kind::{DataKind, UnknownDataKind};
pub use time::{TimeError, TimeWindow, Timestamp};
