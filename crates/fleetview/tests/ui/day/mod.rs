//! A day without a restart: what goes wrong over hours of use,
//! met as a person meets it.

mod cache;
mod failed;
mod kept_clock;
mod memory;
mod refused_key;
