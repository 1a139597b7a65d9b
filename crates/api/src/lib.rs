//! The service's wire model, data kinds and time windows, and the
//! geometry every layer shares (`geo`: positions, distances, Web Mercator).
//!
//! `client` is the async HTTP client (how requests are sent, retried and
//! decoded), `config` what it is made from (base URL checks, D12),
//! `fleet` its calls under `/v2/fleet/` (series over windows, in chunks),
//! `fleet_list` the fleet's list and snapshots, `equipment` their wire
//! types and the API-key login's, `placeholder` what feeds send for "no
//! value",
//! `catalog` its catalog calls, `service_time` the service's clock as its
//! answers tell it, `error` its errors, `limits` what one
//! request may ask for and one answer hold (D13) and where a redirect may
//! lead (D15); `model` holds serde types for every resource and body of
//! `fleet-service.md`, `data_kind` the `{dataKind}` values, `time` the wire
//! date format and the D8 windows, `units` the units values come in and
//! are shown in (metric or imperial).

pub mod address;
mod catalog;
mod chunks;
pub mod client;
pub mod config;
pub(crate) mod data_kind;
mod engine;
pub mod equipment;
pub mod error;
pub mod fleet;
pub(crate) mod fleet_list;
pub mod geo;
pub mod limits;
pub mod model;
pub mod placeholder;
pub mod service_time;
pub mod time;
pub mod units;

pub use chunks::{RowsChunk, merge_envelopes, rows_span};
pub use client::ApiClient;
pub use config::{ApiKey, AuthMethod, ClientConfig, RetryPolicy};
pub use data_kind::{DataKind, KindPack, UnknownDataKind};
pub use error::{ApiError, NetworkCause};
pub use fleet::SeriesSource;
pub use time::{TimeError, TimeWindow, Timestamp};
