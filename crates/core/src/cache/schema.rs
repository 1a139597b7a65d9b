//! The cache file's tables, and bringing an older file up to them.
//!
//! When a window was last read is kept in `used`, apart from its row in
//! `windows`: SQLite rewrites a row whole on any update, and reads every
//! page of its blob to do it (marking a year's history of 10 MB used cost
//! the next write about 10 ms of CPU).

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior};

use super::error::CacheError;

/// The schema this build reads and writes.
pub(crate) const SCHEMA_VERSION: &str = "2";

/// Pages of a new file. Blobs of several megabytes are chains of pages:
/// at 16 KiB one is read in about a third of the time it takes at SQLite's
/// default of 4 KiB. An existing file keeps its pages.
const PAGE_SIZE_BYTES: u32 = 16 * 1024;

/// Schema 1: a window's facts and its rows (`last_used`: when stored).
const WINDOWS: &str = "
    CREATE TABLE IF NOT EXISTS windows (
        id INTEGER PRIMARY KEY,
        base_url TEXT NOT NULL,
        equipment INTEGER NOT NULL,
        kind TEXT NOT NULL,
        since INTEGER NOT NULL,
        until INTEGER NOT NULL,
        fetched_at INTEGER NOT NULL,
        last_used INTEGER NOT NULL,
        rows BLOB NOT NULL
    );
    CREATE INDEX IF NOT EXISTS windows_key ON windows (base_url, equipment, kind, since);";

/// Schema 2 adds when a window was last read.
const USED: &str = "
    CREATE TABLE IF NOT EXISTS used (id INTEGER PRIMARY KEY, last_used INTEGER NOT NULL);
    CREATE TRIGGER IF NOT EXISTS windows_used AFTER DELETE ON windows
        BEGIN DELETE FROM used WHERE id = OLD.id; END;";

/// Sets the connection up and makes sure the file has this build's tables:
/// made in a new file, added to a schema 1 file (at once: nothing is
/// copied), and refused in any other (a newer build's file).
pub(crate) fn prepare(conn: &mut Connection) -> Result<(), CacheError> {
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    // Only takes in a file with no table yet, and before the log is on.
    conn.pragma_update(None, "page_size", PAGE_SIZE_BYTES)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
    )?;
    // Takes the write lock first (waiting for it as any write does): two
    // processes opening a new file together then make its tables in turn.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let version: Option<String> = tx
        .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
            r.get(0)
        })
        .optional()?;
    match version.as_deref() {
        None => {
            tx.execute_batch(WINDOWS)?;
            tx.execute_batch(USED)?;
            set_version(&tx)?;
        }
        Some("1") => {
            tracing::info!("adding the cache file's table of reads (schema 1 to {SCHEMA_VERSION})");
            tx.execute_batch(USED)?;
            set_version(&tx)?;
        }
        Some(SCHEMA_VERSION) => {}
        Some(other) => {
            return Err(CacheError::Db(rusqlite::Error::InvalidParameterName(
                format!("cache schema {other}, expected {SCHEMA_VERSION}"),
            )));
        }
    }
    tx.commit()?;
    Ok(())
}

fn set_version(tx: &Transaction<'_>) -> Result<(), CacheError> {
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('schema', ?1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [SCHEMA_VERSION],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file as schema 1 made it, with one window.
    fn schema_1_file(path: &std::path::Path) {
        let conn = Connection::open(path).expect("open");
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = WAL;
             CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
             {WINDOWS}
             INSERT INTO meta (key, value) VALUES ('schema', '1');
             INSERT INTO windows (base_url, equipment, kind, since, until, fetched_at, last_used, rows)
                 VALUES ('http://h', 7, 'positions', 0, 99, 1000, 1000, CAST('[1,2]' AS BLOB));"
        ))
        .expect("a schema 1 file");
    }

    #[test]
    fn a_new_file_has_the_tables_and_larger_pages() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("c.sqlite");
        let (cache, warning) =
            super::super::Cache::open(&path, super::super::DEFAULT_CAP_BYTES).expect("open");
        assert_eq!(warning, None);
        drop(cache);
        let mut conn = Connection::open(&path).expect("open");
        let page: u32 = conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .expect("page size");
        assert_eq!(page, PAGE_SIZE_BYTES);
        let version: String = conn
            .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                r.get(0)
            })
            .expect("version");
        assert_eq!(version, SCHEMA_VERSION);
        // Prepared again (the next start): nothing changes, nothing fails.
        prepare(&mut conn).expect("prepare again");
    }

    #[test]
    fn a_schema_1_file_keeps_its_windows() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("c.sqlite");
        schema_1_file(&path);
        let (cache, warning) =
            super::super::Cache::open(&path, super::super::DEFAULT_CAP_BYTES).expect("open");
        assert_eq!(warning, None, "brought over, not rebuilt");
        let key = super::super::CacheKey::new("http://h", 7, "positions");
        let w = fleetview_api::time::TimeWindow {
            since: 0,
            until: 99,
        };
        let got = cache.get(&key, w).expect("get");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].rows_json, b"[1,2]".to_vec());
        assert_eq!(got[0].fetched_at, 1000);
        assert_eq!(cache.size_bytes().expect("size"), 5);
        let marks = || -> Vec<i64> {
            let conn = cache.conn();
            let mut stmt = conn.prepare("SELECT id FROM used").expect("query");
            stmt.query_map([], |r| r.get(0))
                .expect("rows")
                .collect::<Result<_, _>>()
                .expect("marks")
        };
        // The read is marked used by the next write, in the new table.
        let other = super::super::CacheKey::new("http://h", 8, "positions");
        cache.put(&other, w, b"[]", 100_000).expect("put");
        assert_eq!(marks(), vec![1]);
        // Replaced as any window is, its mark goes with it.
        cache.put(&key, w, b"[3]", 100_000).expect("put");
        assert_eq!(marks(), Vec::<i64>::new());
        assert_eq!(
            cache.get(&key, w).expect("get")[0].rows_json,
            b"[3]".to_vec()
        );
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut conn = Connection::open(dir.path().join("c.sqlite")).expect("open");
        conn.execute_batch(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
             INSERT INTO meta (key, value) VALUES ('schema', '99');",
        )
        .expect("a newer file");
        let e = prepare(&mut conn).expect_err("refused");
        assert!(e.to_string().contains("cache schema 99"), "{e}");
    }
}
