//! The simulated fleet: deterministic, procedural telemetry.
//!
//! Every value is a function of (equipment, time): a machine's identity comes
//! from its index ([`machine`]), the days it works from its calendar
//! ([`calendar`]), and each day is drawn from hashes of (machine, day)
//! ([`planning`]) into a plan ([`day_plan`]) with its moves between stops
//! ([`trips`]) over the site's roads for road trucks ([`roads`]). What a
//! fleet manager looks for is planted in those days ([`planted`]). The
//! [`Simulator`] ([`simulator`]) keeps the running sums of each machine's
//! days ([`totals`]) and hands each day to the row generators as a
//! [`DayCtx`] ([`day_context`]); every series is read off those plans
//! ([`series`]). Any window, short or years long, is served without stored
//! telemetry. Nothing after the simulator's clock exists yet, as with a real
//! service.
//!
//! The files import one another downwards only, in this order from the top:
//! `series`, `simulator`, `day_context`, `planning`, `planted`, `refuel`,
//! `totals`, `day_plan`, `trips`, `path`, `calendar`, `local`, `machine`,
//! `roads`, `catalogue`, `random`. This file only names them.

pub(crate) mod calendar;
pub mod catalogue;
pub(crate) mod day_context;
pub(crate) mod day_plan;
pub(crate) mod local;
pub mod machine;
pub(crate) mod path;
pub(crate) mod planning;
pub(crate) mod planted;
pub(crate) mod random;
pub(crate) mod refuel;
pub mod roads;
pub mod series;
pub(crate) mod simulator;
pub(crate) mod totals;
pub(crate) mod trips;

pub use machine::{FIRST_ID, Machine};
#[cfg(test)]
pub(crate) use refuel::is_refuel_day;
pub use series::{Planted, PlantedKind};
pub use simulator::Simulator;
