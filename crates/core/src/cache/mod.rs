//! The local cache: windows of rows already fetched, in a SQLite file in the
//! user's cache directory, keyed by (base URL, equipment, kind).
//!
//! Each entry is a window `[since, until]` that is known completely, with
//! the JSON array of its rows. A request asks for what is [`Cache::missing`]
//! from its window, fetches only that, and reads the rest from here. Rows
//! near "now" may still arrive late, so a window is only cached up to a few
//! minutes before it was fetched. No token or credential is ever stored: the
//! key's base URL is stripped of any user info.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rusqlite::{Connection, OptionalExtension, params};

use fleetview_api::time::{TimeWindow, now_secs, parse_lenient};

mod aside;
mod error;
mod heal;
mod health;
mod notice;
mod open;
mod read_only;
mod room;
mod schema;

pub use error::CacheError;
pub use notice::{CacheNotice, OnNotice, Unwritable};

/// Rows newer than this when fetched are not cached (late telemetry).
pub const SETTLE_SECS: i64 = 300;
/// Default size cap of the cache file's row data.
pub const DEFAULT_CAP_BYTES: u64 = 512 * 1024 * 1024;

/// What a cached window belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CacheKey {
    base_url: String,
    pub(crate) equipment: i64,
    pub(crate) kind: String,
}

impl CacheKey {
    pub(crate) fn new(base_url: &str, equipment: i64, kind: impl Into<String>) -> Self {
        Self {
            base_url: sanitize_base_url(base_url),
            equipment,
            kind: kind.into(),
        }
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }
}

/// Drops user info (`user:pass@`), query and fragment from a base URL.
fn sanitize_base_url(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut u) => {
            let _ = u.set_username("");
            let _ = u.set_password(None);
            u.set_query(None);
            u.set_fragment(None);
            u.as_str().trim_end_matches('/').to_owned()
        }
        Err(_) => url.trim_end_matches('/').to_owned(),
    }
}

/// Which stored windows a new one supersedes.
#[derive(Debug, Clone, Copy)]
enum Replace {
    /// Every window inside it (row windows merge).
    Inside,
    /// Only the same window (documents do not merge).
    Exact,
}

/// A window to store, and which stored ones it supersedes.
#[derive(Clone, Copy)]
struct NewWindow<'a> {
    key: &'a CacheKey,
    w: TimeWindow,
    rows: &'a [u8],
    fetched_at: i64,
    old: Replace,
}

/// A cached window and its rows (a JSON array).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CachedWindow {
    /// Its row in the file (to drop it if its rows cannot be read).
    pub(crate) id: i64,
    pub(crate) window: TimeWindow,
    pub(crate) rows_json: Vec<u8>,
    pub(crate) fetched_at: i64,
}

#[derive(Debug)]
pub struct Cache {
    /// Writes (and, in memory, everything).
    conn: Mutex<Connection>,
    /// Reads of a cache file, on a connection of their own: with SQLite's
    /// write-ahead log they never wait for a write (a year of positions
    /// being stored takes tens of milliseconds).
    reader: Option<Mutex<Connection>>,
    /// Windows read since the last write, and when: marked used by the
    /// next write (the reader does not write), before any eviction.
    touched: Mutex<Vec<(i64, i64)>>,
    cap_bytes: u64,
    /// Bytes held, at most over-counted: writes add, deletes of superseded
    /// windows do not subtract. Measuring exactly reads every row (a scan
    /// of the whole file), so it is only done once this passes the cap.
    upper_bytes: AtomicU64,
    path: Option<PathBuf>,
    /// What is to be told the user.
    notices: notice::Notices,
    /// Windows whose rows could not be read nor deleted (a read-only
    /// file): never served again this session.
    unreadable: Mutex<HashSet<i64>>,
    /// How writes have gone (a read-only or full disk).
    health: health::Health,
}

impl Cache {
    /// `<cache dir>/fleetview/cache.sqlite`, if the platform has a cache dir.
    pub fn default_path() -> Option<PathBuf> {
        dirs::cache_dir().map(|d| d.join("fleetview").join("cache.sqlite"))
    }

    pub fn in_memory(cap_bytes: u64) -> Result<Self, CacheError> {
        Self::init(Connection::open_in_memory()?, cap_bytes, None)
    }

    fn init(
        mut conn: Connection,
        cap_bytes: u64,
        path: Option<PathBuf>,
    ) -> Result<Self, CacheError> {
        schema::prepare(&mut conn)?;
        Self::with_conn(conn, cap_bytes, path)
    }

    /// The cache on a connection whose file has this build's tables.
    fn with_conn(
        conn: Connection,
        cap_bytes: u64,
        path: Option<PathBuf>,
    ) -> Result<Self, CacheError> {
        let cache = Self {
            conn: Mutex::new(conn),
            reader: None,
            touched: Mutex::new(Vec::new()),
            cap_bytes,
            upper_bytes: AtomicU64::new(0),
            path,
            notices: notice::Notices::default(),
            unreadable: Mutex::new(HashSet::new()),
            health: health::Health::default(),
        };
        cache
            .upper_bytes
            .store(cache.file_bytes()?, Ordering::Relaxed);
        Ok(cache)
    }

    /// The file's size from its header: more than its rows hold, and read
    /// without going through the rows (which the first eviction does).
    fn file_bytes(&self) -> Result<u64, CacheError> {
        let conn = self.conn();
        let pages: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
        let page_bytes: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        Ok(u64::try_from(pages.saturating_mul(page_bytes)).unwrap_or(0))
    }

    /// What the cache has to tell since last asked.
    pub fn take_notices(&self) -> Vec<CacheNotice> {
        self.notices.take()
    }

    /// `wake` is called whenever there is something to tell.
    pub fn on_notice(&self, wake: OnNotice) {
        self.notices.on_notice(wake);
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn read_conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        match &self.reader {
            Some(r) => r.lock().unwrap_or_else(|e| e.into_inner()),
            None => self.conn(),
        }
    }

    /// Windows read are marked used at the next write.
    fn touch(&self, ids: impl IntoIterator<Item = i64>) {
        let now = now_secs();
        self.touched
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(ids.into_iter().map(|id| (id, now)));
    }

    /// Marks the windows read since the last write used, in `used`: an
    /// update of their own row would rewrite their rows with it.
    fn mark_touched(&self, conn: &Connection) -> Result<(), CacheError> {
        let touched = std::mem::take(&mut *self.touched.lock().unwrap_or_else(|e| e.into_inner()));
        if touched.is_empty() {
            return Ok(());
        }
        // One commit for them all, not one each.
        let tx = conn.unchecked_transaction()?;
        {
            let mut touch = tx.prepare_cached(
                "INSERT INTO used (id, last_used) SELECT id, ?2 FROM windows WHERE id = ?1
                     ON CONFLICT (id) DO UPDATE SET last_used = MAX(last_used, excluded.last_used)",
            )?;
            for (id, at) in touched {
                touch.execute(params![id, at])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Cached windows overlapping `w`, in time order; marks them used.
    pub(crate) fn get(
        &self,
        key: &CacheKey,
        w: TimeWindow,
    ) -> Result<Vec<CachedWindow>, CacheError> {
        let conn = self.read_conn();
        let mut stmt = conn.prepare_cached(
            "SELECT id, since, until, fetched_at, rows FROM windows
             WHERE base_url = ?1 AND equipment = ?2 AND kind = ?3 AND until >= ?4 AND since <= ?5
             ORDER BY since",
        )?;
        let rows = stmt.query_map(
            params![key.base_url, key.equipment, key.kind, w.since, w.until],
            |r| {
                Ok(CachedWindow {
                    id: r.get(0)?,
                    window: TimeWindow {
                        since: r.get(1)?,
                        until: r.get(2)?,
                    },
                    fetched_at: r.get(3)?,
                    rows_json: r.get(4)?,
                })
            },
        )?;
        let mut found: Vec<CachedWindow> = rows.collect::<Result<_, _>>()?;
        self.skip_unreadable(&mut found);
        self.touch(found.iter().map(|c| c.id));
        Ok(found)
    }

    /// The parts of `w` not cached yet, in order.
    pub fn missing(&self, key: &CacheKey, w: TimeWindow) -> Result<Vec<TimeWindow>, CacheError> {
        let conn = self.read_conn();
        let mut stmt = conn.prepare_cached(
            "SELECT since, until FROM windows
             WHERE base_url = ?1 AND equipment = ?2 AND kind = ?3 AND until >= ?4 AND since <= ?5
             ORDER BY since",
        )?;
        let covered = stmt
            .query_map(
                params![key.base_url, key.equipment, key.kind, w.since, w.until],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)),
            )?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(gaps(w, &covered))
    }

    /// [`Self::put_as_of`] with both clocks at `fetched_at` (tests only).
    #[cfg(test)]
    pub(crate) fn put(
        &self,
        key: &CacheKey,
        w: TimeWindow,
        rows_json: &[u8],
        fetched_at: i64,
    ) -> Result<Option<TimeWindow>, CacheError> {
        self.put_as_of(key, w, rows_json, fetched_at, fetched_at)
    }

    /// Stores the rows of a window fetched at `fetched_at` (this computer's
    /// clock: the window's age) from a service whose clock then read
    /// `service_now`. Only the part up to the earlier of the two, less
    /// `SETTLE_SECS`, is kept: what is in the future of a service whose
    /// clock is behind is not final yet, and is asked again. Windows it
    /// covers whole are replaced. Returns the window actually cached.
    pub(crate) fn put_as_of(
        &self,
        key: &CacheKey,
        w: TimeWindow,
        rows_json: &[u8],
        fetched_at: i64,
        service_now: i64,
    ) -> Result<Option<TimeWindow>, CacheError> {
        let settled = fetched_at.min(service_now).saturating_sub(SETTLE_SECS);
        if w.since > settled {
            return Ok(None);
        }
        let covered = TimeWindow {
            since: w.since,
            until: w.until.min(settled),
        };
        let rows: std::borrow::Cow<'_, [u8]> = if covered.until < w.until {
            std::borrow::Cow::Owned(rows_until(rows_json, covered.until)?)
        } else {
            std::borrow::Cow::Borrowed(rows_json)
        };
        self.replace(key, covered, &rows, fetched_at, Replace::Inside)?;
        Ok(Some(covered))
    }

    /// [`Self::put_document_as_of`] with both clocks at `fetched_at` (tests
    /// only).
    #[cfg(test)]
    pub(crate) fn put_document(
        &self,
        key: &CacheKey,
        w: TimeWindow,
        body: &[u8],
        fetched_at: i64,
    ) -> Result<bool, CacheError> {
        self.put_document_as_of(key, w, body, fetched_at, fetched_at)
    }

    /// Stores a whole answer for exactly this window (for `/history`, which
    /// is not a list of rows and cannot be merged). Kept only when settled
    /// by the earlier of the two clocks (see [`Self::put_as_of`]).
    pub(crate) fn put_document_as_of(
        &self,
        key: &CacheKey,
        w: TimeWindow,
        body: &[u8],
        fetched_at: i64,
        service_now: i64,
    ) -> Result<bool, CacheError> {
        if !settled(w, fetched_at, service_now) {
            return Ok(false);
        }
        self.replace(key, w, body, fetched_at, Replace::Exact)?;
        Ok(true)
    }

    /// Stores the last answer seen for exactly this window, settled or not:
    /// what is shown when the service cannot be reached. Callers keep it
    /// under a kind of its own, so it never stands in for settled data.
    pub(crate) fn put_snapshot(
        &self,
        key: &CacheKey,
        w: TimeWindow,
        body: &[u8],
        fetched_at: i64,
    ) -> Result<(), CacheError> {
        self.replace(key, w, body, fetched_at, Replace::Exact)
    }

    /// A whole answer stored for exactly this window, if any.
    pub(crate) fn get_document(
        &self,
        key: &CacheKey,
        w: TimeWindow,
    ) -> Result<Option<CachedWindow>, CacheError> {
        let found = self
            .read_conn()
            .prepare_cached(
                "SELECT id, fetched_at, rows FROM windows
                 WHERE base_url = ?1 AND equipment = ?2 AND kind = ?3 AND since = ?4 AND until = ?5",
            )?
            .query_row(
                params![key.base_url, key.equipment, key.kind, w.since, w.until],
                |r| Ok(CachedWindow { id: r.get(0)?, window: w, fetched_at: r.get(1)?, rows_json: r.get(2)? }),
            )
            .optional()?;
        let mut found: Vec<CachedWindow> = found.into_iter().collect();
        self.skip_unreadable(&mut found);
        Ok(found.pop().inspect(|doc| self.touch([doc.id])))
    }

    /// Marks the whole answer stored for exactly `w` used, unread (one
    /// kept beside another copy that is read instead: not evicted first).
    pub(crate) fn mark_document_used(
        &self,
        key: &CacheKey,
        w: TimeWindow,
    ) -> Result<(), CacheError> {
        let id: Option<i64> = self
            .read_conn()
            .prepare_cached(
                "SELECT id FROM windows
                 WHERE base_url = ?1 AND equipment = ?2 AND kind = ?3 AND since = ?4 AND until = ?5",
            )?
            .query_row(
                params![key.base_url, key.equipment, key.kind, w.since, w.until],
                |r| r.get(0),
            )
            .optional()?;
        self.touch(id);
        Ok(())
    }

    /// The windows of the whole answers stored under `key` inside `w`,
    /// in time order (their rows not read).
    pub(crate) fn document_windows(
        &self,
        key: &CacheKey,
        w: TimeWindow,
    ) -> Result<Vec<TimeWindow>, CacheError> {
        let conn = self.read_conn();
        let mut stmt = conn.prepare_cached(
            "SELECT since, until FROM windows
             WHERE base_url = ?1 AND equipment = ?2 AND kind = ?3 AND since >= ?4 AND until <= ?5
             ORDER BY since, until",
        )?;
        let rows = stmt.query_map(
            params![key.base_url, key.equipment, key.kind, w.since, w.until],
            |r| {
                Ok(TimeWindow {
                    since: r.get(0)?,
                    until: r.get(1)?,
                })
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Stores a window in one transaction with dropping the windows it
    /// supersedes, then keeps the cache under its cap. With the disk full,
    /// room is made (the least used windows go) and it is tried again,
    /// once. A failure is told by the cache itself ([`CacheError::NotKept`]).
    fn replace(
        &self,
        key: &CacheKey,
        w: TimeWindow,
        rows: &[u8],
        fetched_at: i64,
        old: Replace,
    ) -> Result<(), CacheError> {
        let new = NewWindow {
            key,
            w,
            rows,
            fetched_at,
            old,
        };
        let mut written = self.write_window(&new);
        if let Err(e) = &written
            && health::unwritable(e) == Unwritable::Full
        {
            written = match self.make_room(rows.len()) {
                Ok(freed) if freed > 0 => self.write_window(&new),
                Ok(_) => written,
                Err(e) => Err(e),
            };
        }
        let kept = written.and_then(|()| {
            self.upper_bytes
                .fetch_add(rows.len() as u64, Ordering::Relaxed);
            self.evict()
        });
        match kept {
            Ok(()) => {
                self.health.written(&self.notices);
                Ok(())
            }
            Err(e) => Err(self.health.not_written(e, &self.notices)),
        }
    }

    fn write_window(&self, new: &NewWindow<'_>) -> Result<(), CacheError> {
        let NewWindow {
            key,
            w,
            rows,
            fetched_at,
            old,
        } = *new;
        {
            let mut conn = self.conn();
            self.mark_touched(&conn)?;
            let tx = conn.transaction()?;
            let delete = match old {
                Replace::Inside => {
                    "DELETE FROM windows WHERE base_url = ?1 AND equipment = ?2 AND kind = ?3 AND since >= ?4 AND until <= ?5"
                }
                Replace::Exact => {
                    "DELETE FROM windows WHERE base_url = ?1 AND equipment = ?2 AND kind = ?3 AND since = ?4 AND until = ?5"
                }
            };
            // Statements kept prepared: a start stores hundreds of windows.
            tx.prepare_cached(delete)?.execute(params![
                key.base_url,
                key.equipment,
                key.kind,
                w.since,
                w.until
            ])?;
            tx.prepare_cached(
                "INSERT INTO windows (base_url, equipment, kind, since, until, fetched_at, last_used, rows)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![key.base_url, key.equipment, key.kind, w.since, w.until, fetched_at, now_secs(), rows])?;
            tx.commit()?;
        }
        Ok(())
    }

    /// Bytes of row data held.
    pub(crate) fn size_bytes(&self) -> Result<u64, CacheError> {
        let n: i64 = self.conn().query_row(
            "SELECT COALESCE(SUM(LENGTH(rows)), 0) FROM windows",
            [],
            |r| r.get(0),
        )?;
        Ok(n.max(0) as u64)
    }

    /// Drops least recently used windows until under the cap.
    fn evict(&self) -> Result<(), CacheError> {
        if self.upper_bytes.load(Ordering::Relaxed) <= self.cap_bytes {
            return Ok(());
        }
        let size = self.size_bytes()?;
        if size <= self.cap_bytes {
            self.upper_bytes.store(size, Ordering::Relaxed);
            return Ok(());
        }
        let conn = self.conn();
        // The least used go first: what was read since counts.
        self.mark_touched(&conn)?;
        let target = self.cap_bytes - self.cap_bytes / 10;
        let (_, left) = room::drop_least_used(&conn, |_| target)?;
        self.upper_bytes.store(left, Ordering::Relaxed);
        Ok(())
    }
}

impl Drop for Cache {
    fn drop(&mut self) {
        // What was read last is marked used for the next session's evictions.
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = self.mark_touched(&conn) {
            tracing::debug!("could not mark cached windows used: {e}");
        }
    }
}

/// Whether all of `w` had settled when fetched at `fetched_at` from a
/// service whose clock said `service_now` (the earlier of the two).
pub(crate) fn settled(w: TimeWindow, fetched_at: i64, service_now: i64) -> bool {
    w.until <= fetched_at.min(service_now).saturating_sub(SETTLE_SECS)
}

/// The gaps of `w` not covered by the sorted `covered` windows.
pub(crate) fn gaps(w: TimeWindow, covered: &[(i64, i64)]) -> Vec<TimeWindow> {
    let mut out = Vec::new();
    let mut cursor = w.since;
    for &(since, until) in covered {
        if cursor > w.until {
            break;
        }
        if until < cursor {
            continue;
        }
        if since > cursor {
            out.push(TimeWindow {
                since: cursor,
                until: (since - 1).min(w.until),
            });
        }
        cursor = cursor.max(until.saturating_add(1));
    }
    if cursor <= w.until {
        out.push(TimeWindow {
            since: cursor,
            until: w.until,
        });
    }
    out
}

/// Keeps the rows of a JSON array dated at or before `until` (rows dated by
/// `date`, or `dateStart` for activities; undated rows are kept).
fn rows_until(rows_json: &[u8], until: i64) -> Result<Vec<u8>, CacheError> {
    let rows: Vec<serde_json::Value> = serde_json::from_slice(rows_json)?;
    let kept: Vec<&serde_json::Value> = rows
        .iter()
        .filter(|r| {
            let date = r
                .get("date")
                .or_else(|| r.get("dateStart"))
                .and_then(|d| d.as_str());
            date.and_then(|d| parse_lenient(d).ok())
                .is_none_or(|t| t <= until)
        })
        .collect();
    Ok(serde_json::to_vec(&kept)?)
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod write_tests;
