//! A cache that cannot be written (a read-only file or folder, a full
//! disk): the app goes on with what it has, the user is told once, the log
//! gets a line a minute at most, and a full disk gets room made in it (the
//! least recently used windows go) before the write is tried again.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use rusqlite::ErrorCode;

use super::notice::{CacheNotice, Notices, Unwritable};
use super::{Cache, CacheError};

/// Write failures are logged this often at most.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// How writes have gone.
#[derive(Debug, Default)]
pub(super) struct Health(Mutex<State>);

#[derive(Debug, Default)]
struct State {
    /// Failing since the last write that worked.
    failing: bool,
    /// The kinds of failure the user was told of (once each a session).
    told: Vec<Unwritable>,
    last_logged: Option<Instant>,
    /// Failures since the last line logged.
    unlogged: u64,
}

impl Health {
    /// A write worked.
    pub(super) fn written(&self) {
        let mut st = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if st.failing {
            st.failing = false;
            tracing::info!("the local cache is written again");
        }
    }

    /// A write failed with `error`: told once, logged a minute apart at
    /// most; the error returned says it was.
    pub(super) fn not_written(&self, error: CacheError, notices: &Notices) -> CacheError {
        let why = unwritable(&error);
        let mut st = self.0.lock().unwrap_or_else(|e| e.into_inner());
        st.failing = true;
        if !st.told.contains(&why) {
            st.told.push(why);
            notices.push(CacheNotice::NotKept {
                why,
                error: error.to_string(),
            });
        }
        if st.last_logged.is_none_or(|t| t.elapsed() >= LOG_EVERY) {
            let more = match st.unlogged {
                0 => String::new(),
                n => format!(" ({n} more failed writes since the last line)"),
            };
            tracing::warn!(
                "the local cache cannot be written, new data is not kept: {error}{more}"
            );
            st.last_logged = Some(Instant::now());
            st.unlogged = 0;
        } else {
            st.unlogged += 1;
        }
        CacheError::NotKept(error.to_string())
    }
}

/// Why a write failed, as the user is told.
pub(super) fn unwritable(error: &CacheError) -> Unwritable {
    match error {
        CacheError::Db(rusqlite::Error::SqliteFailure(e, _)) => match e.code {
            ErrorCode::DiskFull => Unwritable::Full,
            ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied => {
                Unwritable::ReadOnly
            }
            _ => Unwritable::Other,
        },
        CacheError::Io(_, e) => match e.kind() {
            std::io::ErrorKind::StorageFull => Unwritable::Full,
            std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied => {
                Unwritable::ReadOnly
            }
            _ => Unwritable::Other,
        },
        _ => Unwritable::Other,
    }
}

impl Cache {
    /// The disk is full: drops the least recently used windows, at least
    /// twice `needed` bytes of rows (room for this write and the next), in
    /// one transaction. Returns the bytes dropped.
    pub(super) fn make_room(&self, needed: usize) -> Result<u64, CacheError> {
        let conn = self.conn();
        // What was read since counts as used; a failure to mark it (the
        // disk is full) only makes the order less exact.
        let _ = self.mark_touched(&conn);
        let goal = 2 * needed as u64;
        let tx = conn.unchecked_transaction()?;
        let mut freed = 0u64;
        {
            let mut stmt = tx.prepare(
                "SELECT w.id, LENGTH(w.rows) FROM windows w LEFT JOIN used u ON u.id = w.id
                     ORDER BY MAX(w.last_used, COALESCE(u.last_used, 0)), w.id",
            )?;
            let victims: Vec<(i64, i64)> = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            let mut delete = tx.prepare("DELETE FROM windows WHERE id = ?1")?;
            for (id, len) in victims {
                if freed >= goal {
                    break;
                }
                delete.execute([id])?;
                freed += len.max(0) as u64;
            }
        }
        tx.commit()?;
        if freed > 0 {
            tracing::info!(
                "the local cache's disk is full: {freed} bytes of the least used windows dropped"
            );
        }
        Ok(freed)
    }
}
