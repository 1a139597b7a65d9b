//! The state every request handler shares: the simulator, the catalog
//! store, the token signer, the fault injector and the heavy work's turns.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
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
    /// Requests being answered now, and the most at once since the last
    /// look (tests and benchmarks check how many a client has out).
    pub(crate) in_flight: InFlightGauge,
    /// Every request's method, path and query, when asked for.
    pub(crate) recorded: Option<Mutex<Vec<String>>>,
    /// Successful logins (either route), for tests that count them.
    pub(crate) logins: AtomicU64,
    /// Turns for the series and history operations.
    pub(crate) heavy: HeavyWork,
}

/// Requests being answered at once: now, and the most since last taken.
#[derive(Debug, Default)]
pub(crate) struct InFlightGauge {
    now: AtomicUsize,
    peak: AtomicUsize,
}

impl InFlightGauge {
    /// Counts a request in until the guard is dropped.
    pub(crate) fn enter(&self) -> InFlightGuard<'_> {
        let n = self.now.fetch_add(1, Ordering::AcqRel) + 1;
        self.peak.fetch_max(n, Ordering::AcqRel);
        InFlightGuard(self)
    }

    /// The most at once since the last call; the count starts again from
    /// those in flight now.
    pub(crate) fn take_peak(&self) -> usize {
        self.peak
            .swap(self.now.load(Ordering::Acquire), Ordering::AcqRel)
    }
}

pub(crate) struct InFlightGuard<'a>(&'a InFlightGauge);

impl Drop for InFlightGuard<'_> {
    fn drop(&mut self) {
        self.0.now.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gauge_keeps_the_most_at_once_since_last_taken() {
        let gauge = InFlightGauge::default();
        let a = gauge.enter();
        let b = gauge.enter();
        drop(a);
        let c = gauge.enter();
        assert_eq!(gauge.take_peak(), 2);
        drop((b, c));
        assert_eq!(gauge.take_peak(), 2, "counted from those in flight then");
        assert_eq!(gauge.take_peak(), 0, "none since");
    }
}
