//! A cache that cannot be written, on real files: a read-only database
//! (SQLite's own refusal, which holds as root too, where file modes do
//! not stop a write), a full disk (SQLite's page limit on the writer), and
//! the files of corrupt caches moved aside.

use super::*;
use fleetview_testkit::logs::logged;

const W: TimeWindow = TimeWindow {
    since: 0,
    until: 999,
};

fn key(equipment: i64) -> CacheKey {
    CacheKey::new("http://h", equipment, "positions")
}

/// A JSON array of about `bytes` bytes.
fn rows(bytes: usize) -> Vec<u8> {
    format!(
        r#"[{{"date":"1970-01-01T00:00:10Z","pad":"{}"}}]"#,
        "x".repeat(bytes)
    )
    .into_bytes()
}

fn file_cache(dir: &tempfile::TempDir) -> Cache {
    Cache::open(&dir.path().join("cache.sqlite"), DEFAULT_CAP_BYTES)
        .expect("open")
        .0
}

/// The disk as full as the file is now: SQLite refuses to grow it.
///
/// `max_page_count` bounds the pages of the database, whose writes go to
/// the write-ahead log first: it covers a write refused as `SQLITE_FULL`
/// (taken for a full disk, room made, the write tried again, the notice),
/// not a real `ENOSPC` from the file system, which can strike the log
/// itself as it grows, or a checkpoint.
fn fill_the_disk(cache: &Cache) {
    let conn = cache.conn();
    let pages: i64 = conn
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .expect("pages");
    conn.pragma_update(None, "max_page_count", pages)
        .expect("max pages");
}

fn stored(cache: &Cache, equipment: i64) -> bool {
    !cache.get(&key(equipment), W).expect("get").is_empty()
}

#[test]
fn a_full_disk_drops_the_least_used_windows_and_writes_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = file_cache(&dir);
    for equipment in 0..8 {
        cache
            .put(&key(equipment), W, &rows(64 * 1024), 100_000)
            .expect("put");
    }
    // Used in the order of their machines, the first read lately.
    cache
        .conn()
        .execute_batch(
            "UPDATE windows SET last_used = 1000 + equipment;
             UPDATE windows SET last_used = 5000 WHERE equipment = 0;",
        )
        .expect("dates of use");
    fill_the_disk(&cache);
    let log = logged(|| {
        cache
            .put(&key(100), W, &rows(64 * 1024), 100_000)
            .expect("kept: room was made");
    });
    assert!(stored(&cache, 100), "the new window");
    assert!(!stored(&cache, 1), "the least used went");
    assert!(stored(&cache, 0), "read lately: kept");
    assert!(stored(&cache, 7), "the newest: kept");
    assert!(cache.take_notices().is_empty(), "kept: nothing to tell");
    assert!(log.contains("disk is full"), "{log}");
}

#[test]
fn a_read_only_cache_says_so_once_and_logs_a_line_a_minute() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = file_cache(&dir);
    cache.put(&key(1), W, &rows(100), 100_000).expect("put");
    cache
        .conn()
        .pragma_update(None, "query_only", true)
        .expect("read-only");
    let log = logged(|| {
        for equipment in 2..202 {
            let e = cache
                .put(&key(equipment), W, &rows(100), 100_000)
                .expect_err("not written");
            assert!(e.is_told(), "not to be logged again: {e}");
        }
    });
    assert_eq!(log.lines().count(), 1, "{log}");
    let notices = cache.take_notices();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(matches!(
        notices[0],
        CacheNotice::NotKept {
            why: Unwritable::ReadOnly,
            ..
        }
    ));
    assert_eq!(
        notices[0].title(),
        "The local cache is read-only: new data is not kept"
    );
    assert!(stored(&cache, 1), "what it holds is still read");
}

#[test]
fn a_disk_still_full_once_room_is_made_says_so_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = file_cache(&dir);
    cache.put(&key(1), W, &rows(1000), 100_000).expect("put");
    fill_the_disk(&cache);
    let log = logged(|| {
        for equipment in 2..102 {
            // Larger than all the cache holds.
            let e = cache
                .put(&key(equipment), W, &rows(256 * 1024), 100_000)
                .expect_err("no room");
            assert!(e.is_told(), "{e}");
        }
    });
    let notices = cache.take_notices();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(
        notices[0].title(),
        "The local cache's disk is full: new data is not kept"
    );
    let failures = log.lines().filter(|l| l.contains("cannot be written"));
    assert_eq!(failures.count(), 1, "{log}");
    // Room again: written, and said in the log.
    cache
        .conn()
        .pragma_update(None, "max_page_count", 1_000_000)
        .expect("room");
    let log = logged(|| {
        cache.put(&key(500), W, &rows(100), 100_000).expect("put");
    });
    assert!(log.contains("written again"), "{log}");
    // Said too, so the notice that nothing is kept can go.
    assert_eq!(cache.take_notices(), vec![CacheNotice::Kept]);
    cache.put(&key(501), W, &rows(100), 100_000).expect("put");
    assert!(cache.take_notices().is_empty(), "said once");
    // Full again: said again.
    fill_the_disk(&cache);
    let _ = logged(|| {
        cache
            .put(&key(502), W, &rows(256 * 1024), 100_000)
            .expect_err("no room");
    });
    let again = cache.take_notices();
    assert!(
        matches!(
            again.as_slice(),
            [CacheNotice::NotKept {
                why: Unwritable::Full,
                ..
            }]
        ),
        "{again:?}"
    );
}

#[test]
fn only_the_newest_corrupt_file_is_kept() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = |n: &str| dir.path().join(n);
    for n in [
        "cache.corrupt-100",
        "cache.corrupt-100-wal",
        "cache.corrupt-100-shm",
        "cache.corrupt-300",
        "cache.corrupt-200",
        "cache.corrupt-200-wal",
        "other.corrupt-50",
    ] {
        std::fs::write(name(n), b"old").expect("write");
    }
    drop(file_cache(&dir));
    let left = |dir: &tempfile::TempDir| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .expect("dir")
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("corrupt"))
            .collect();
        names.sort();
        names
    };
    assert_eq!(left(&dir), ["cache.corrupt-300", "other.corrupt-50"]);

    // A corrupt cache moved aside now is the newest: the one before goes.
    std::fs::write(
        name("cache.sqlite"),
        b"not a database, garbage bytes ........",
    )
    .expect("garble");
    for side in ["cache.sqlite-wal", "cache.sqlite-shm"] {
        let _ = std::fs::remove_file(name(side));
    }
    let (_, warning) = Cache::open(&name("cache.sqlite"), DEFAULT_CAP_BYTES).expect("opens anyway");
    assert!(warning.is_some());
    let names = left(&dir);
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names[0].starts_with("cache.corrupt-") && names[0] != "cache.corrupt-300");
}

#[test]
fn a_cache_file_that_cannot_be_written_is_read_and_said_read_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("cache.sqlite");
    {
        let cache = file_cache(&dir);
        cache.put(&key(1), W, &rows(100), 100_000).expect("put");
    }
    let guard = fleetview_testkit::files::ReadOnly::make(&path);
    let (cache, warning) = match &guard {
        Some(_) => Cache::open(&path, DEFAULT_CAP_BYTES).expect("opens"),
        // Nothing here stops root writing: SQLite's own read-only open, as
        // the file opened read-only would be.
        None => (
            Cache::open_read_only(&path, DEFAULT_CAP_BYTES).expect("opens"),
            None,
        ),
    };
    assert_eq!(warning, None, "not taken for a corrupt file");
    assert!(stored(&cache, 1), "what it holds is read");
    let notices = cache.take_notices();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(
        notices[0].title(),
        "The local cache is read-only: new data is not kept"
    );
    let e = cache
        .put(&key(2), W, &rows(100), 100_000)
        .expect_err("not kept");
    assert!(e.is_told(), "{e}");
    assert!(cache.take_notices().is_empty(), "said once");
    drop(cache);
    drop(guard);
    let moved = std::fs::read_dir(dir.path())
        .expect("dir")
        .filter_map(Result::ok)
        .any(|e| e.file_name().to_string_lossy().contains("corrupt"));
    assert!(!moved, "nothing moved aside");
}
