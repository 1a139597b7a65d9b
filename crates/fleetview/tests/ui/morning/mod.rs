//! Issue 37, the morning check: what needs attention across the fleet,
//! and times read in each machine's own zone.

mod zone;
