//! Opening the cache file, and the whole file's check (SQLite's quick
//! check), which reads every page: done before opening by the command
//! line, and after the first frame, on a thread of its own, by the desktop
//! app. A damaged file is moved aside and a new one started (under the
//! same `Cache` when found after opening).

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::health::sqlite_error;
use super::{Cache, CacheError, CacheNotice, Unwritable, schema};
use super::{aside, health};
use fleetview_api::time::now_secs;

/// When the whole file is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Check {
    /// Before the cache is used.
    Now,
    /// Later, by [`Cache::check_in_background`].
    Later,
}

/// SQLite's quick check of the file `conn` has open.
pub(super) fn whole_file(conn: &Connection) -> Result<(), CacheError> {
    let check: String = conn.query_row("PRAGMA quick_check", [], |r| r.get(0))?;
    if check == "ok" {
        Ok(())
    } else {
        Err(sqlite_error(rusqlite::ffi::SQLITE_CORRUPT, check))
    }
}

/// The reads' own connection to the file.
pub(super) fn reader(path: &Path) -> Result<Connection, CacheError> {
    let reader = Connection::open(path)?;
    reader.busy_timeout(Duration::from_secs(5))?;
    Ok(reader)
}

/// Moves a damaged file to `aside`, with its journal's files deleted.
pub(super) fn move_aside(path: &Path, aside: &Path) -> Result<(), CacheError> {
    std::fs::rename(path, aside).map_err(|e| CacheError::Io(path.to_owned(), e))?;
    for suffix in ["-wal", "-shm"] {
        let side = PathBuf::from(format!("{}{suffix}", path.display()));
        let _ = std::fs::remove_file(side);
    }
    Ok(())
}

/// Whether an error says the file is damaged (not busy, not missing).
fn is_damage(e: &CacheError) -> bool {
    matches!(
        e,
        CacheError::Db(rusqlite::Error::SqliteFailure(f, _))
            if matches!(f.code, rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
    )
}

impl Cache {
    /// Opens (or creates) the cache file. A file that is corrupt or of
    /// another schema is moved aside and a new one made: the second value
    /// is then a warning to show. Of the files moved aside, only the newest
    /// is kept.
    pub fn open(path: &Path, cap_bytes: u64) -> Result<(Self, Option<String>), CacheError> {
        Self::open_with(path, cap_bytes, Check::Now)
    }

    /// [`Cache::open`] without reading the whole file first, for the
    /// desktop app: up to the cap (512 MB) read before the first frame. The
    /// app calls [`Cache::check_in_background`] once its window shows.
    pub fn open_check_later(
        path: &Path,
        cap_bytes: u64,
    ) -> Result<(Self, Option<String>), CacheError> {
        Self::open_with(path, cap_bytes, Check::Later)
    }

    fn open_with(
        path: &Path,
        cap_bytes: u64,
        check: Check,
    ) -> Result<(Self, Option<String>), CacheError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| CacheError::Io(dir.to_owned(), e))?;
        }
        let opened = Self::open_or_rebuild(path, cap_bytes, check);
        // Only the newest corrupt file is kept (one moved aside now too).
        aside::prune_corrupt(path);
        opened
    }

    /// Opens the cache file, or moves it aside and makes a new one.
    fn open_or_rebuild(
        path: &Path,
        cap_bytes: u64,
        check: Check,
    ) -> Result<(Self, Option<String>), CacheError> {
        match Self::try_open(path, cap_bytes, check) {
            Ok(cache) => Ok((cache, None)),
            // Not corrupt, only not writable: read as it is (and said so).
            Err(e) if health::unwritable(&e) == Unwritable::ReadOnly => {
                tracing::info!("the cache file {} cannot be written: {e}", path.display());
                Ok((Self::open_read_only(path, cap_bytes)?, None))
            }
            Err(e) => {
                let aside = path.with_extension(format!("corrupt-{}", now_secs()));
                let warning = format!(
                    "the cache file {} could not be used ({e}); it was moved to {} and a new one started",
                    path.display(),
                    aside.display()
                );
                tracing::warn!("{warning}");
                move_aside(path, &aside)?;
                Ok((Self::try_open(path, cap_bytes, Check::Now)?, Some(warning)))
            }
        }
    }

    fn try_open(path: &Path, cap_bytes: u64, check: Check) -> Result<Self, CacheError> {
        let conn = Connection::open(path)?;
        health::refuses_writes(&conn)?;
        if check == Check::Now {
            whole_file(&conn)?;
        }
        let mut cache = Self::init(conn, cap_bytes, Some(path.to_owned()))?;
        cache.reader = Some(Mutex::new(reader(path)?));
        Ok(cache)
    }

    /// Checks the whole file on a thread of its own; a damaged file is
    /// replaced and said through the cache's notices.
    pub fn check_in_background(self: &Arc<Self>) {
        let cache = Arc::clone(self);
        let started = std::thread::Builder::new()
            .name("fleetview-cache-check".into())
            .spawn(move || cache.check_whole_file());
        if let Err(e) = started {
            tracing::warn!("the cache file's check could not start: {e}");
        }
    }

    /// Reads the whole file on a connection of its own (the cache is used
    /// meanwhile). A damaged file is moved aside and a new one started:
    /// what was kept is read again from the service. Returns whether the
    /// file was replaced.
    pub fn check_whole_file(&self) -> bool {
        // Only a file opened for writing was not checked at its opening.
        let (Some(path), Some(_)) = (self.path.clone(), self.reader.as_ref()) else {
            return false;
        };
        let checked = Connection::open_with_flags(
            &path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(CacheError::from)
        .and_then(|conn| {
            conn.busy_timeout(Duration::from_secs(5))?;
            whole_file(&conn)
        });
        match checked {
            Ok(()) => false,
            Err(e) if is_damage(&e) => self.start_again(&path, &e.to_string()),
            Err(e) => {
                tracing::warn!(
                    "the cache file {} could not be checked: {e}",
                    path.display()
                );
                false
            }
        }
    }

    /// Replaces the damaged file under both connections with a new one.
    fn start_again(&self, path: &Path, error: &str) -> bool {
        let aside = path.with_extension(format!("corrupt-{}", now_secs()));
        tracing::warn!(
            "the cache file {} is damaged ({error}); moved to {} and a new one started",
            path.display(),
            aside.display()
        );
        let Some(reader_slot) = self.reader.as_ref() else {
            return false;
        };
        // The reads' lock first, as a read that drops a window takes them.
        let mut reader_conn = reader_slot.lock().unwrap_or_else(|e| e.into_inner());
        let mut conn = self.conn();
        let replaced = (|| -> Result<(), CacheError> {
            // The old connections are closed before their file moves.
            *reader_conn = Connection::open_in_memory()?;
            *conn = Connection::open_in_memory()?;
            move_aside(path, &aside)?;
            let mut fresh = Connection::open(path)?;
            schema::prepare(&mut fresh)?;
            *conn = fresh;
            *reader_conn = reader(path)?;
            Ok(())
        })();
        if let Err(e) = replaced {
            tracing::warn!("a new cache file could not be started: {e}");
            // Back on whichever file is at the path (the damaged one, if it
            // could not be moved): reads of damaged rows heal one by one.
            if let (Ok(c), Ok(r)) = (Connection::open(path), reader(path)) {
                *conn = c;
                *reader_conn = r;
            }
            return false;
        }
        drop(conn);
        drop(reader_conn);
        self.unreadable
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        self.touched
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        if let Ok(size) = self.file_bytes() {
            self.upper_bytes.store(size, Ordering::Relaxed);
        }
        super::aside::prune_corrupt(path);
        self.notices.push(CacheNotice::Rebuilt {
            aside: aside.display().to_string(),
            error: error.to_owned(),
        });
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::{CacheKey, DEFAULT_CAP_BYTES};
    use fleetview_api::time::TimeWindow;

    fn window(i: i64) -> TimeWindow {
        TimeWindow {
            since: i * 100,
            until: i * 100 + 50,
        }
    }

    /// A cache file of many pages whose second half is overwritten: its
    /// first pages (the schema, the small tables) still read.
    fn damaged_file(path: &Path) -> CacheKey {
        let key = CacheKey::new("http://h", 1, "k");
        {
            let (cache, _) = Cache::open(path, DEFAULT_CAP_BYTES).expect("opens");
            let rows = format!("[{}]", vec!["{\"v\":12345.678}"; 150].join(","));
            for i in 0..200 {
                cache
                    .put(&key, window(i), rows.as_bytes(), 1_000_000)
                    .expect("put");
            }
        }
        let mut bytes = std::fs::read(path).expect("read");
        let half = bytes.len() / 2;
        for b in &mut bytes[half..] {
            *b = 0xA5;
        }
        std::fs::write(path, bytes).expect("write");
        key
    }

    #[test]
    fn a_file_damaged_inside_opens_unread_then_its_check_starts_a_new_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache.sqlite");
        let key = damaged_file(&path);

        let (cache, warning) =
            Cache::open_check_later(&path, DEFAULT_CAP_BYTES).expect("opens unread");
        assert_eq!(warning, None, "nothing read past the first pages");
        let aside = || {
            std::fs::read_dir(dir.path())
                .expect("dir")
                .filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().contains(".corrupt-"))
                .count()
        };
        assert_eq!(aside(), 0, "not moved before its check");

        assert!(cache.check_whole_file(), "found damaged and replaced");
        assert_eq!(aside(), 1, "the damaged file moved aside");
        let notices = cache.take_notices();
        assert!(
            matches!(notices.as_slice(), [CacheNotice::Rebuilt { error, .. }] if error.contains("malformed") || error.contains("corrupt") || !error.is_empty()),
            "{notices:?}"
        );
        // The new file is empty and in use, and survives a restart.
        assert!(cache.get(&key, window(3)).expect("get").is_empty());
        cache
            .put(&key, window(3), b"[1]", 1_000_000)
            .expect("put into the new file");
        assert_eq!(cache.get(&key, window(3)).expect("get").len(), 1);
        assert!(!cache.check_whole_file(), "the new file is sound");
        drop(cache);
        let (cache, warning) = Cache::open(&path, DEFAULT_CAP_BYTES).expect("reopens");
        assert_eq!(warning, None);
        assert_eq!(cache.get(&key, window(3)).expect("get").len(), 1);
    }

    #[test]
    fn a_sound_file_is_kept_by_its_check() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache.sqlite");
        let key = CacheKey::new("http://h", 1, "k");
        let (cache, _) = Cache::open_check_later(&path, DEFAULT_CAP_BYTES).expect("opens");
        cache.put(&key, window(1), b"[1]", 1_000_000).expect("put");
        assert!(!cache.check_whole_file());
        assert!(cache.take_notices().is_empty());
        assert_eq!(cache.get(&key, window(1)).expect("get").len(), 1);
    }
}
