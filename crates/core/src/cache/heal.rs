//! Stored rows that cannot be read (a bad sector, another program, a bug
//! of an older build): the window is dropped, so its rows are read again
//! from the service, and the user is told the local cache was at fault.
//! Found where they are decoded, which happens anyway: reads pay nothing
//! for it.

use rusqlite::params;

use super::{Cache, CacheKey, CacheNotice, CachedWindow};
use fleetview_api::time::TimeWindow;

impl Cache {
    /// Leaves out windows found unreadable in this session.
    pub(super) fn skip_unreadable(&self, found: &mut Vec<CachedWindow>) {
        let unreadable = self.unreadable.lock().unwrap_or_else(|e| e.into_inner());
        if !unreadable.is_empty() {
            found.retain(|c| !unreadable.contains(&c.id));
        }
    }

    /// The window stored as `id` (of `key`, over `w`) could not be read:
    /// it is dropped (never served again this session, even if the file
    /// cannot be written) and the user told.
    pub(crate) fn drop_unreadable(&self, id: i64, key: &CacheKey, w: TimeWindow, error: &str) {
        let newly = self
            .unreadable
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id);
        if !newly {
            return;
        }
        let what = format!("{} of equipment {}, {w}", key.kind, key.equipment);
        tracing::warn!(
            "the local cache's {what} could not be read ({error}): dropped, to be read again"
        );
        if let Err(e) = self
            .conn()
            .execute("DELETE FROM windows WHERE id = ?1", [id])
        {
            tracing::warn!("the unreadable {what} could not be deleted from the cache: {e}");
        }
        self.notices.push(CacheNotice::Repaired {
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
