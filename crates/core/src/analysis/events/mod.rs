//! What happened in a window, and what does not add up (D16): events
//! detected from what the service returned, and cross-checks of one series
//! against another. One definition for the Events tab, the plots' event
//! lane, the map's event marks, the figures strip's counts, the fleet
//! overview's flags and `fleetview report`.
//!
//! Every rule is a pure function of the rows it is given (no I/O, no
//! clock): [`detect`] runs them all and returns the events in time order.

pub(crate) mod checks;
mod counters;
pub mod detect;
mod faults;
mod fuel;
mod gaps;
mod hours;
mod series;
pub(crate) mod timeline;
pub(crate) mod types;
mod zone;

pub(crate) use checks::OPERATING_HOURS_COUNTER;
pub use detect::{counts, detect};
pub use series::HistorySeries;
pub use types::{CheckKind, CheckSide, CounterSeries, EventInputs, RowTimes, difference_percent};
pub use types::{Event, EventDetail, EventKind, EventValue, WorkingHours};
pub use zone::{prepare_time_zones, time_zone_at, time_zone_of};

#[cfg(test)]
#[path = "checks_tests.rs"]
mod checks_tests;
#[cfg(test)]
#[path = "detect_tests.rs"]
mod detect_tests;
#[cfg(test)]
#[path = "hours_tests.rs"]
mod hours_tests;
