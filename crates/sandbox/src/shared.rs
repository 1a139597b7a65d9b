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
pub(crate) struct Shared {
    pub(crate) sim: Simulator,
    pub(crate) store: Store,
    pub(crate) auth: Auth,
    pub(crate) chaos: Option<Arc<Chaos>>,
    /// Requests received, for tests that check what a client sent.
    pub(crate) requests: AtomicU64,
    /// Every request's method, path and query, when asked for.
    pub(crate) recorded: Option<Mutex<Vec<String>>>,
    /// Successful logins (either route), for tests that count them.
    pub(crate) logins: AtomicU64,
    /// Turns for the series and history operations.
    pub(crate) heavy: HeavyWork,
}
