//! Stored rows that cannot be read (a bad sector, another program, a bug
//! of an older build): the window is dropped, so its rows are read again
//! from the service, and the user is told the local cache was at fault.
//! Found where they are decoded, which happens anyway: reads pay nothing
//! for it.

use rusqlite::params;

use super::{Cache, CacheKey, CacheNotice, CachedWindow};
use fleetview_api::time::TimeWindow;

impl Cache {
    /// Leaves out windows found unreadable in this session that could not
    /// be deleted.
    pub(super) fn skip_unreadable(&self, found: &mut Vec<CachedWindow>) {
        let unreadable = self.unreadable.lock().unwrap_or_else(|e| e.into_inner());
        if !unreadable.is_empty() {
            found.retain(|c| !unreadable.contains(&c.id));
        }
    }

    /// The window stored as `id` (of `key`, over `w`) could not be read:
    /// it is dropped and the user told, once. Only a window that could not
    /// be deleted (a read-only file) is kept out by its id: a deleted one's
    /// id is given again to the next window stored (the highest id plus
    /// one, often the very window read again), which must be served.
    pub(crate) fn drop_unreadable(&self, id: i64, key: &CacheKey, w: TimeWindow, error: &str) {
        let what = format!("{} of equipment {}, {w}", key.kind, key.equipment);
        let deleted = self
            .conn()
            .execute("DELETE FROM windows WHERE id = ?1", [id]);
        let newly = match deleted {
            // None: another read of it dropped it first, and told.
            Ok(rows) => rows > 0,
            Err(e) => {
                tracing::warn!("the unreadable {what} could not be deleted from the cache: {e}");
                self.unreadable
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id)
            }
        };
        if !newly {
            return;
        }
        // Told as a notice (the app's, the command line's stderr).
        tracing::info!(
            "the local cache's {what} could not be read ({error}): dropped, to be read again"
        );
        self.notices.push(CacheNotice::Repaired {
            windows: 1,
            what,
            error: error.to_owned(),
        });
    }

    /// Drops the document stored for exactly `w` under `key` (it could not
    /// be read), if there is one.
    pub(crate) fn drop_unreadable_document(&self, key: &CacheKey, w: TimeWindow, error: &str) {
        let ids: Result<Vec<i64>, rusqlite::Error> = {
            let conn = self.read_conn();
            conn.prepare_cached(
                "SELECT id FROM windows
                 WHERE base_url = ?1 AND equipment = ?2 AND kind = ?3 AND since = ?4 AND until = ?5",
            )
            .and_then(|mut stmt| {
                stmt.query_map(
                    params![key.base_url, key.equipment, key.kind, w.since, w.until],
                    |r| r.get(0),
                )?
                .collect()
            })
        };
        match ids {
            Ok(ids) => {
                for id in ids {
                    self.drop_unreadable(id, key, w, error);
                }
            }
            Err(e) => tracing::warn!("could not look up an unreadable cached document: {e}"),
        }
    }
}
