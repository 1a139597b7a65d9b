//! A cache that cannot be written (a read-only file or folder, a full
//! disk): the app goes on with what it has, the user is told once, and the
//! log gets a line a minute at most.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use rusqlite::{Connection, ErrorCode};

use super::error::CacheError;
use super::notice::{CacheNotice, Notices, Unwritable};

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
    /// A write worked: after failures the user was told of, said too (and
    /// a new failure is told again).
    pub(super) fn written(&self, notices: &Notices) {
        let mut st = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if st.failing {
            st.failing = false;
            tracing::info!("the local cache is written again");
            if !st.told.is_empty() {
                st.told.clear();
                notices.push(CacheNotice::Kept);
            }
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

/// Whether the database `conn` opened can only be read (SQLite opens a
/// file it may not write so, silently).
pub(super) fn refuses_writes(conn: &Connection) -> Result<(), CacheError> {
    if conn.is_readonly(rusqlite::MAIN_DB)? {
        return Err(sqlite_error(
            rusqlite::ffi::SQLITE_READONLY,
            "the cache file can only be read".to_owned(),
        ));
    }
    Ok(())
}

pub(super) fn sqlite_error(code: i32, message: String) -> CacheError {
    CacheError::Db(rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(code),
        Some(message),
    ))
}
