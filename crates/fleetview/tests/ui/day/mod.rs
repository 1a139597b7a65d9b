//! A day without a restart (issue 36): what goes wrong over hours of use,
//! met as a person meets it.

mod memory;
