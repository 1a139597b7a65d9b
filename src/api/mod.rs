//! The service's wire model, data kinds and time windows.
//!
//! `client` is the async HTTP client, `error` its errors; `model` holds serde types for every resource and body of
//! `fleet-service.md`, `data_kind` the `{dataKind}` values, `time` the wire
//! date format and the D8 windows.

pub mod address;
pub mod client;
pub mod data_kind;
pub mod error;
pub mod model;
pub mod time;

pub use client::{ApiClient, ClientConfig, RetryPolicy, SeriesSource};
pub use data_kind::{DataKind, UnknownDataKind};
pub use error::ApiError;
pub use time::{TimeError, TimeWindow, Timestamp};
