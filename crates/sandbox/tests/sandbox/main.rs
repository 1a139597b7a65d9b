//! The sandbox's tests, over HTTP on loopback against real sandboxes: its
//! answers and errors, the list and snapshots of equipments, the
//! consistency of the simulated series (property tests), its limits and
//! the queue of writes. One binary, one module per area.

mod clock;
mod consistency;
mod equipments;
mod http;
mod limits;
mod queue;
