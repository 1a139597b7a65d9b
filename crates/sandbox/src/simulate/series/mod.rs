//! Rows of every data kind over a window, read off the day plans.
//!
//! Row shapes follow D7: every row has `date`; values are named as in the
//! daily-usage members (`hour`, `fuelUsed`+`unit`, `odometer`+`unit`, `count`,
//! `payload`+`payloadUnit`, `percent`, `speed`+`speedUnit`, `weight`+`unit`)
//! or plainly (`voltage`, `temperature`, `current`, `energy`, `power`, `state`,
//! `value`) with a `unit` where one applies. The hour counters are named as
//! the real service names them: `hour` and `usageHours` (operating hours
//! less idle hours) for operating hours, `hours` for the others.

mod daily;
mod faults;
mod figures;
mod history;
mod planted;
mod positions;
mod rows;
mod snapshot;
mod values;
mod walk;

pub use planted::{Planted, PlantedKind};
pub use rows::{Flow, KindRow, Rows, Val};
