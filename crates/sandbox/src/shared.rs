//! The state every request handler shares: the simulator, the catalog
//! store, the token signer, the fault injector and the heavy work's turns.

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use super::auth::Auth;
use super::catalog::Store;
use super::chaos::Chaos;
use super::simulate::Simulator;
use super::stream::HeavyWork;

/// State shared by all handlers.
#[derive(Debug)]
pub struct Shared {
    pub sim: Simulator,
    pub store: Store,
    pub auth: Auth,
    pub chaos: Option<Arc<Chaos>>,
    /// Requests received, for tests that check what a client sent.
    pub requests: AtomicU64,
    /// Every request's method, path and query, when asked for.
    pub recorded: Option<Mutex<Vec<String>>>,
    /// Successful logins (either route), for tests that count them.
    pub logins: AtomicU64,
    /// Turns for the series and history operations.
    pub heavy: HeavyWork,
}
