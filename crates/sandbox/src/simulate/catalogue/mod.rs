//! Static tables of the simulated fleet: sites, machine models, fault codes.
//! Figures follow published values for mixed construction fleets (DESIGN.md).

pub mod fault_codes;
pub mod models;
pub mod sites;
