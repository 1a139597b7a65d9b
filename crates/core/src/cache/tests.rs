//! The cache against real SQLite, in memory and in files.

use super::*;

#[test]
fn gaps_of_a_window() {
    let w = TimeWindow {
        since: 0,
        until: 100,
    };
    assert_eq!(gaps(w, &[]), vec![w]);
    assert_eq!(gaps(w, &[(0, 100)]), vec![]);
    assert_eq!(
        gaps(w, &[(-50, 10), (20, 30), (25, 40), (90, 200)]),
        vec![
            TimeWindow {
                since: 11,
                until: 19
            },
            TimeWindow {
                since: 41,
                until: 89
            }
        ]
    );
}

#[test]
fn user_info_never_reaches_the_key() {
    let k = CacheKey::new(
        "https://user:s3cret@fleet.example/api/?token=abc#x",
        1,
        "positions",
    );
    assert_eq!(k.base_url(), "https://fleet.example/api");
}

#[test]
fn put_get_missing_and_the_settle_margin() {
    let cache = Cache::in_memory(DEFAULT_CAP_BYTES).expect("cache");
    let key = CacheKey::new("http://127.0.0.1:1", 7, "temperature");
    let rows = br#"[{"date":"1970-01-01T00:00:10Z","v":1},{"date":"1970-01-01T00:16:40Z","v":2}]"#;
    // Fetched long after: the whole window is settled.
    let w = TimeWindow {
        since: 0,
        until: 999,
    };
    assert_eq!(cache.put(&key, w, rows, 100_000).expect("put"), Some(w));
    assert_eq!(
        cache
            .missing(
                &key,
                TimeWindow {
                    since: 500,
                    until: 1500
                }
            )
            .expect("missing"),
        vec![TimeWindow {
            since: 1000,
            until: 1500
        }]
    );
    let got = cache
        .get(
            &key,
            TimeWindow {
                since: 900,
                until: 950,
            },
        )
        .expect("get");
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].rows_json, rows.to_vec());
    // Fetched just after: only the settled part is cached, rows trimmed.
    let key2 = CacheKey::new("http://127.0.0.1:1", 8, "temperature");
    let cached = cache.put(&key2, w, rows, 900).expect("put");
    assert_eq!(
        cached,
        Some(TimeWindow {
            since: 0,
            until: 600
        })
    );
    let got = cache.get(&key2, w).expect("get");
    let kept: Vec<serde_json::Value> = serde_json::from_slice(&got[0].rows_json).expect("json");
    assert_eq!(kept.len(), 1);
    assert_eq!(
        cache
            .put(
                &key2,
                TimeWindow {
                    since: 800,
                    until: 999
                },
                b"[]",
                900
            )
            .expect("put"),
        None
    );
}

/// A cache capped at 2,500 bytes, and a window.
fn capped_at_2500() -> (Cache, TimeWindow) {
    let cache = Cache::in_memory(2_500).expect("cache");
    (
        cache,
        TimeWindow {
            since: 0,
            until: 10,
        },
    )
}

#[test]
fn a_window_written_again_and_again_evicts_nothing_else() {
    // Rewrites over-count what is held; under the cap, nothing goes.
    let (cache, w) = capped_at_2500();
    let other = CacheKey::new("http://h", 1, "k");
    cache
        .put(&other, w, &[b' '; 1_000], 1_000_000)
        .expect("put");
    let again = CacheKey::new("http://h", 2, "k");
    for _ in 0..10 {
        cache
            .put(&again, w, &[b' '; 1_000], 1_000_000)
            .expect("put");
    }
    assert_eq!(cache.size_bytes().expect("size"), 2_000);
    assert!(cache.get(&other, w).expect("get").len() == 1, "kept");
}

#[test]
fn least_recently_used_windows_go_first_past_the_cap() {
    let (cache, w) = capped_at_2500();
    let blob = vec![b' '; 1_000];
    for i in 0..3 {
        let key = CacheKey::new("http://h", i, "k");
        cache.put(&key, w, &blob, 1_000_000).expect("put");
        if i == 0 {
            std::thread::sleep(std::time::Duration::from_millis(1100));
        }
    }
    assert!(cache.size_bytes().expect("size") <= 2_500);
    let oldest = CacheKey::new("http://h", 0, "k");
    assert!(cache.get(&oldest, w).expect("get").is_empty());
    let newest = CacheKey::new("http://h", 2, "k");
    assert_eq!(cache.get(&newest, w).expect("get").len(), 1);
}

#[test]
fn a_window_read_since_it_was_stored_outlives_one_not_read() {
    let (cache, w) = capped_at_2500();
    let blob = vec![b' '; 1_000];
    let (read, unread) = (
        CacheKey::new("http://h", 1, "k"),
        CacheKey::new("http://h", 2, "k"),
    );
    cache.put(&read, w, &blob, 1_000_000).expect("put");
    cache.put(&unread, w, &blob, 1_000_000).expect("put");
    // Both stored long ago; only one read since.
    cache
        .conn()
        .execute("UPDATE windows SET last_used = 0", [])
        .expect("stored long ago");
    assert_eq!(cache.get(&read, w).expect("get").len(), 1);
    // Past the cap: one of the two goes.
    cache
        .put(&CacheKey::new("http://h", 3, "k"), w, &blob, 1_000_000)
        .expect("put");
    assert_eq!(cache.get(&read, w).expect("get").len(), 1, "read: kept");
    assert!(
        cache.get(&unread, w).expect("get").is_empty(),
        "not read: evicted"
    );
}

/// A document kept beside a copy read in its place (a settled history's
/// JSON beside its columns) is marked used with it, unread: not the
/// first to go.
#[test]
fn a_document_marked_used_unread_outlives_one_not_marked() {
    let (cache, w) = capped_at_2500();
    let blob = vec![b' '; 1_000];
    let (marked, unmarked) = (
        CacheKey::new("http://h", 1, "history"),
        CacheKey::new("http://h", 2, "history"),
    );
    cache
        .put_document(&marked, w, &blob, 1_000_000)
        .expect("put");
    cache
        .put_document(&unmarked, w, &blob, 1_000_000)
        .expect("put");
    cache
        .conn()
        .execute("UPDATE windows SET last_used = 0", [])
        .expect("stored long ago");
    cache.mark_document_used(&marked, w).expect("marked");
    cache
        .mark_document_used(&CacheKey::new("http://h", 3, "history"), w)
        .expect("nothing to mark is no error");
    // Past the cap: one of the two goes.
    cache
        .put(&CacheKey::new("http://h", 3, "k"), w, &blob, 1_000_000)
        .expect("put");
    assert!(
        cache.get_document(&marked, w).expect("get").is_some(),
        "marked: kept"
    );
    assert!(
        cache.get_document(&unmarked, w).expect("get").is_none(),
        "not marked: evicted"
    );
}

#[test]
fn a_cache_file_is_read_while_a_write_is_under_way() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (cache, _) = Cache::open(&dir.path().join("c.sqlite"), DEFAULT_CAP_BYTES).expect("open");
    let cache = std::sync::Arc::new(cache);
    let key = CacheKey::new("http://h", 1, "k");
    let w = TimeWindow {
        since: 0,
        until: 10,
    };
    cache.put(&key, w, b"[1]", 1_000_000).expect("put");
    // A write holds the writer (and is in the middle of a transaction).
    let mut writer = cache.conn();
    let tx = writer.transaction().expect("a write");
    tx.execute("DELETE FROM windows", []).expect("delete");
    let (done, read) = std::sync::mpsc::channel();
    let reading = std::sync::Arc::clone(&cache);
    let key_read = key.clone();
    std::thread::spawn(move || {
        let got = reading.get(&key_read, w).map(|g| g.len());
        let gaps = reading.missing(&key_read, w);
        let _ = done.send((got.ok(), gaps.ok()));
    });
    let answer = read.recv_timeout(std::time::Duration::from_secs(5));
    assert_eq!(
        answer.expect("read without waiting for the write"),
        (Some(1), Some(Vec::new())),
        "the last committed state"
    );
    drop(tx);
    drop(writer);
    // The read marks it used at the next write.
    cache
        .put(&CacheKey::new("http://h", 2, "k"), w, b"[]", 1_000_000)
        .expect("put");
    assert!(cache.touched.lock().expect("touched").is_empty());
}

#[test]
fn a_corrupt_file_is_moved_aside_and_rebuilt() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("cache.sqlite");
    std::fs::write(
        &path,
        b"this is not a database, just garbage bytes .......................",
    )
    .expect("write");
    let (cache, warning) = Cache::open(&path, DEFAULT_CAP_BYTES).expect("opens anyway");
    assert!(warning.is_some_and(|w| w.contains("moved")));
    let key = CacheKey::new("http://h", 1, "k");
    cache
        .put(
            &key,
            TimeWindow {
                since: 0,
                until: 10,
            },
            b"[]",
            1_000_000,
        )
        .expect("usable");
    drop(cache);
    // And it survives a restart without a warning.
    let (cache, warning) = Cache::open(&path, DEFAULT_CAP_BYTES).expect("reopens");
    assert!(warning.is_none());
    assert_eq!(
        cache
            .get(
                &key,
                TimeWindow {
                    since: 0,
                    until: 10
                }
            )
            .expect("get")
            .len(),
        1
    );
    let moved = std::fs::read_dir(dir.path())
        .expect("dir")
        .filter_map(Result::ok)
        .any(|e| e.file_name().to_string_lossy().contains("corrupt"));
    assert!(moved);
}

#[test]
fn snapshots_keep_unsettled_answers_and_survive_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("cache.sqlite");
    let key = CacheKey::new("http://h", 7, "history/latest");
    let w = TimeWindow {
        since: 0,
        until: 1_000,
    };
    {
        let (cache, _) = Cache::open(&path, DEFAULT_CAP_BYTES).expect("opens");
        // Fetched at the very end of its window: a document is refused...
        assert!(!cache.put_document(&key, w, b"{}", 1_000).expect("put"));
        // ...a snapshot is kept, and a newer one replaces it.
        cache
            .put_snapshot(&key, w, b"{\"v\":1}", 1_000)
            .expect("put");
        cache
            .put_snapshot(&key, w, b"{\"v\":2}", 1_010)
            .expect("put");
    }
    let (cache, _) = Cache::open(&path, DEFAULT_CAP_BYTES).expect("reopens");
    let doc = cache.get_document(&key, w).expect("get").expect("kept");
    assert_eq!(
        (doc.rows_json.as_slice(), doc.fetched_at),
        (&b"{\"v\":2}"[..], 1_010)
    );
    let other = TimeWindow {
        since: 0,
        until: 999,
    };
    assert!(cache.get_document(&key, other).expect("get").is_none());
}
