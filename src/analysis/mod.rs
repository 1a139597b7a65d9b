//! Pure figures computed from what the service returned: no I/O, no state.
//! The worker runs them off the UI thread; the views show their results.
//!
//! - `fleet`: one machine's line in the fleet overview (its window figures,
//!   its state now).

pub mod fleet;

pub use fleet::{FaultTally, FeedKind, MachineFigures, MachineState, last_report, machine_state};
