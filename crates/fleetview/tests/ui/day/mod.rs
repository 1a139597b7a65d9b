//! A day without a restart: what goes wrong over a long session is said
//! where it shows, and can be asked again.

mod failed;
