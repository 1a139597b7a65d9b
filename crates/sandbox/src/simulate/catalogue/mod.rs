//! Static tables of the simulated fleet: sites, machine models, fault codes.
//! Figures follow published values for mixed construction fleets (DESIGN.md).

pub(crate) mod fault_codes;
pub mod models;
pub(crate) mod sites;
