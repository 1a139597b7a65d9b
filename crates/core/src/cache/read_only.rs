//! A cache file that can only be read (a read-only file or folder, or a
//! read-only disk): what it holds is still shown, nothing new is kept, and
//! it is said once; it is not taken for a corrupt file and moved aside.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use super::health::sqlite_error;
use super::{Cache, CacheError};

impl Cache {
    /// Opens the cache file for reading only (what [`Cache::open`] does
    /// with a file it cannot write). The user is told it is read-only.
    pub fn open_read_only(path: &Path, cap_bytes: u64) -> Result<Self, CacheError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(path, flags)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let check: String = conn.query_row("PRAGMA quick_check", [], |r| r.get(0))?;
        if check != "ok" {
            return Err(sqlite_error(rusqlite::ffi::SQLITE_CORRUPT, check));
        }
        // Schema 1 lacks only the table of reads, which is written alone.
        let version: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                r.get(0)
            })
            .optional()?;
        if !matches!(
            version.as_deref(),
            Some("1" | super::schema::SCHEMA_VERSION)
        ) {
            return Err(CacheError::Db(rusqlite::Error::InvalidParameterName(
                format!("cache schema {version:?} cannot be read"),
            )));
        }
        let cache = Self::with_conn(conn, cap_bytes, Some(path.to_owned()))?;
        let refused = sqlite_error(
            rusqlite::ffi::SQLITE_READONLY,
            format!("{} can only be read", path.display()),
        );
        cache.health.not_written(refused, &cache.notices);
        Ok(cache)
    }
}
