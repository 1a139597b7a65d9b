//! Service planning from the meters: plans (a task every so many engine
//! hours, kilometres or days, for a machine or a category), the services
//! done, when each is due and a forecast date from the machine's own use,
//! the service book they are kept in (SQLite), and the files they are
//! shared in (CSV, iCalendar).

pub mod attention;
pub mod change;
pub mod due;
pub mod import;
pub mod plan;
pub mod store;
pub mod usage;
pub mod write;

#[cfg(test)]
mod due_tests;
#[cfg(test)]
mod file_tests;
