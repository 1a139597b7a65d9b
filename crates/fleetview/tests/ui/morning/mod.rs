//! The morning check (issue [T3 4/7]): what needs attention across the
//! fleet, the Fleet table a manager can read, times read in each
//! machine's own zone, and a report to send. `cargo test -- attention` and
//! `-- fleet_report` run them.

mod attention;
mod fleet_report;
mod table;
mod zone;
