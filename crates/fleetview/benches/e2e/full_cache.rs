//! Goal 3, start-up with a full cache: the app started (embedded sandbox,
//! as a person's start is) on a cache file of at least [`FULL_BYTES`]
//! populates the Fleet page within 1.25x the same start-up on an empty
//! cache directory, and draws its first frame within 1.25x too: the
//! file's check and any other whole-file work run off the UI thread,
//! after the first frame.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::Goals;
use crate::driver::{Driver, populated};
use crate::{median, ms, ratio};
use fleetview::shell::AppOptions;

/// The least size of the full cache: most of the 512 MB cap.
const FULL_BYTES: u64 = 400_000_000;

/// The goal: at most this times the start-up on an empty cache directory.
const LIMIT: f64 = 1.25;

/// A start-up's first frame and overview populated, from building the app.
type Start = (Duration, Duration);

/// Starts to compare, each way.
const RUNS: usize = 3;

/// Grows the cache file at `full` (one the bench has filled through the
/// app) past [`FULL_BYTES`] with copies of its windows under other
/// services' addresses, as a cache used with several services holds,
/// then compares start-ups on it and on empty directories.
pub fn full_cache(goals: &mut Goals, dir: &Path, now: i64, full: &Path) {
    let started = Instant::now();
    let bytes = grow(full);
    let start = |cache: &Path| {
        let t0 = Instant::now();
        let mut d = Driver::new(AppOptions {
            clock: Some(now),
            cache_path: Some(cache.to_owned()),
            ..AppOptions::default()
        });
        let first =
            d.h.state()
                .first_frame_at
                .expect("a first frame")
                .duration_since(t0);
        let populated = d.until("the overview populated", populated) - t0;
        (first, populated)
    };
    let mut empty: Vec<Start> = Vec::new();
    let mut filled: Vec<Start> = Vec::new();
    // Taken in turns, so that neither way has the quieter moments.
    for run in 0..RUNS {
        let fresh = dir.join(format!("empty-{run}"));
        std::fs::create_dir_all(&fresh).expect("an empty cache directory");
        empty.push(start(&fresh.join("cache.sqlite")));
        filled.push(start(full));
    }
    let first = |v: &[Start]| median(v.iter().map(|r| r.0).collect());
    let shown = |v: &[Start]| median(v.iter().map(|r| r.1).collect());
    let (first_empty, first_full) = (first(&empty), first(&filled));
    let (shown_empty, shown_full) = (shown(&empty), shown(&filled));
    goals.check(
        ratio(shown_full, shown_empty) <= LIMIT && ratio(first_full, first_empty) <= LIMIT,
        format!(
            "full cache: start-up on a cache of {:.0} MB, overview populated in {} (first frame at {}), on an empty cache directory {} (first frame at {}): {:.2}x and {:.2}x (goal <= {LIMIT}x each; medians of {RUNS})",
            bytes as f64 / 1e6,
            ms(shown_full),
            ms(first_full),
            ms(shown_empty),
            ms(first_empty),
            ratio(shown_full, shown_empty),
            ratio(first_full, first_empty),
        ),
    );
    println!(
        "full cache: {:.1} s for growing the file and {} start-ups",
        started.elapsed().as_secs_f64(),
        2 * RUNS
    );
}

/// Copies the windows of `path`'s services under new addresses, a few at
/// a time, until the file holds [`FULL_BYTES`] (under the cache's cap, as
/// a file the app kept is); its size then.
fn grow(path: &Path) -> u64 {
    let conn = rusqlite::Connection::open(path).expect("the bench's cache file");
    let size = || std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let (mut copy, mut offset) = (1, 0);
    while size() < FULL_BYTES {
        let added = conn
            .execute(
                "INSERT INTO windows (base_url, equipment, kind, since, until, fetched_at, last_used, rows)
                 SELECT base_url || '/copy-' || ?1, equipment, kind, since, until, fetched_at, last_used, rows
                 FROM windows WHERE base_url NOT LIKE '%/copy-%' ORDER BY id LIMIT 20 OFFSET ?2",
                [copy, offset],
            )
            .expect("windows copied");
        if added == 0 {
            assert!(offset > 0, "the bench's cache file holds windows");
            (copy, offset) = (copy + 1, 0);
            continue;
        }
        offset += 20;
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .expect("the log written into the file");
    }
    size()
}
