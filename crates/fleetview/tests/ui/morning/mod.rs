//! Issue 37, the morning check: what needs attention across the fleet.

mod attention;
