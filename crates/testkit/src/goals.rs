//! What the plain-harness benchmarks share: goals checked as ratios, and a
//! best-of timer. A benchmark's report is its standard output, hence the
//! prints.
#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

/// Goals met and missed, printed as `PASS ...` / `FAIL ...` lines and a
/// closing `N passed, M failed`.
#[derive(Debug, Default)]
pub struct Goals {
    passed: u32,
    failed: u32,
}

impl Goals {
    pub fn check(&mut self, ok: bool, line: String) {
        if ok {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
        println!("{} {line}", if ok { "PASS" } else { "FAIL" });
    }

    /// Prints the closing line; the exit status is non-zero when a goal
    /// was missed. Returned from `main` rather than exiting here, so what
    /// the run holds is dropped (its temporary caches removed).
    pub fn finish(self) -> std::process::ExitCode {
        println!("{} passed, {} failed", self.passed, self.failed);
        if self.failed > 0 {
            std::process::ExitCode::FAILURE
        } else {
            std::process::ExitCode::SUCCESS
        }
    }
}

/// Runs `f` until `budget` is spent (at least three times) and returns the
/// best time of one run: the one least disturbed by the other core's work.
pub fn best_of(budget: Duration, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut runs = 0;
    while runs < 3 || start.elapsed() < budget {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
        runs += 1;
    }
    best
}
