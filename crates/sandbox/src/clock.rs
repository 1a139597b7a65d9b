//! What "now" is for a sandbox: the computer's clock, a fixed instant, or an
//! instant its holder moves by hand.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use fleetview_api::time::now_secs;

/// What "now" is for the sandbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Clock {
    /// The computer's clock.
    System,
    /// A fixed instant, so tests see exactly the same data on every run.
    /// Only the data stands still: tokens still age on the computer's clock.
    Fixed(i64),
    /// An instant set and moved through a [`ManualClock`], for the data and
    /// the tokens alike: a test moves time on instead of sleeping.
    Manual(ManualClock),
}

impl Clock {
    /// Now for the simulated data: nothing after it exists yet.
    pub(crate) fn now(&self) -> i64 {
        match self {
            Clock::System => now_secs(),
            Clock::Fixed(t) => *t,
            Clock::Manual(m) => m.now(),
        }
    }

    /// Now for issuing and checking tokens: the computer's clock, unless
    /// time is moved by hand.
    pub(crate) fn token_now(&self) -> i64 {
        match self {
            Clock::System | Clock::Fixed(_) => now_secs(),
            Clock::Manual(m) => m.now(),
        }
    }
}

/// An instant (seconds since the epoch) that stays where it is put; every
/// clone reads and moves the same instant.
#[derive(Debug, Clone)]
pub struct ManualClock(Arc<AtomicI64>);

impl ManualClock {
    pub fn new(t: i64) -> Self {
        Self(Arc::new(AtomicI64::new(t)))
    }

    pub(crate) fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }

    /// Moves the instant on by `secs` (back, if negative).
    pub fn advance(&self, secs: i64) {
        self.0.fetch_add(secs, Ordering::SeqCst);
    }
}

/// Two manual clocks are equal when they are the same clock.
impl PartialEq for ManualClock {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for ManualClock {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_for_every_clone_and_for_tokens_too() {
        let hand = ManualClock::new(1_000);
        let clock = Clock::Manual(hand.clone());
        assert_eq!((clock.now(), clock.token_now()), (1_000, 1_000));
        hand.advance(61);
        assert_eq!((clock.now(), clock.token_now()), (1_061, 1_061));
        assert_eq!(clock, Clock::Manual(hand));
        assert_ne!(clock, Clock::Manual(ManualClock::new(1_061)));
    }

    #[test]
    fn a_fixed_clock_holds_the_data_still_but_not_the_tokens() {
        let clock = Clock::Fixed(1_000);
        assert_eq!(clock.now(), 1_000);
        assert!(clock.token_now() >= now_secs() - 1);
    }
}
