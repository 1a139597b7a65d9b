//! Issue 37, the morning check: what needs attention across the fleet, and
//! a report to send. One module per part.

mod fleet_report;
