//! Pure figures computed from what the service returned: no I/O, no state.
//! The worker runs them off the UI thread; the views show their results.
//!
//! - `figures`: a machine's window and daily figures (hours, fuel, CO2,
//!   distance, activities, stops, utilisation), one definition for the
//!   figures strip, the daily charts and `fleetview report`.
//! - `day`: one day's figures as the service gives them, in the app's
//!   units (what the figures and the cross-checks read).
//! - `events`: events and cross-checks (D16): what happened in a window,
//!   and what does not add up.
//! - `stops`: stops as D16 defines them.
//! - `span`: statistics over a span selected on the plots.
//! - `tanks`: fuel tank capacities by make and model.
//! - `units` (in `api`, so exports use it too): the service's units read
//!   into litres, kilometres, kilograms, and shown metric or imperial.
//! - `attention`: what a machine needs a fleet manager's attention for
//!   (the Fleet page's strip, the fleet report's `attention`).
//! - `fleet`: one machine's line in the fleet overview (its window figures,
//!   its state now).

pub mod attention;
pub(crate) mod day;
pub mod events;
pub mod figures;
pub mod fleet;
pub(crate) mod span;
pub(crate) mod stops;
pub mod tanks;
pub use fleetview_api::units;

pub use attention::{
    Attention, AttentionInputs, AttentionKind, AttentionRank, FaultLevel, LastReport, attention,
    machine_attention,
};
pub use day::DayInput;
pub use events::{Event, EventDetail, EventKind, EventValue, WorkingHours};
pub use figures::{EventContext, Expected, Figure, Figures, Report, ReportInputs};
pub use fleet::{FaultTally, FeedKind, MachineFigures, MachineState, last_report, machine_state};
pub use span::{ChannelStats, channel_stats, engine_on_secs};
pub use stops::{Stop, StopSource};
pub use units::{Conversion, Quantity, UnitSystem};
