//! Whole lists kept in the cache for a start with the service away (the
//! fleet list, its snapshots): written once a reading is complete, read
//! back, with when they were read, when the service cannot be reached.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::task::{TaskCtx, read_or_warn};
use crate::cache::CacheKey;
use fleetview_api::ApiError;
use fleetview_api::time::{TimeWindow, now_secs};

/// Kept lists have no window: one document per kind.
const KEPT_WINDOW: TimeWindow = TimeWindow { since: 0, until: 0 };

impl TaskCtx {
    fn kept_key(&self, kind: &str) -> CacheKey {
        CacheKey::new(&self.cache_scope, 0, kind)
    }

    /// Keeps a whole list under `kind`; a failure is logged, never fatal.
    pub(crate) fn keep_list<T: Serialize>(&self, kind: &str, what: &str, all: &[T]) {
        let Some(c) = self.cache.as_deref() else {
            return;
        };
        let stored = serde_json::to_vec(all)
            .map_err(|e| e.to_string())
            .and_then(|json| {
                // One the cache told of is not logged again.
                match c.put_snapshot(&self.kept_key(kind), KEPT_WINDOW, &json, now_secs()) {
                    Err(e) if !e.is_told() => Err(e.to_string()),
                    _ => Ok(()),
                }
            });
        if let Err(e) = stored {
            tracing::warn!("could not keep {what} for offline use: {e}");
        }
    }

    /// The list kept under `kind` for the service whose data is cached
    /// under `scope`, and when it was read; `Ok(None)` if none is kept.
    pub(crate) fn kept_list_of<T: DeserializeOwned>(
        &self,
        scope: &str,
        kind: &str,
        what: &str,
    ) -> Result<Option<(Vec<T>, i64)>, ApiError> {
        let key = CacheKey::new(scope, 0, kind);
        let kept = self
            .cache
            .as_deref()
            .and_then(|c| read_or_warn(c.get_document(&key, KEPT_WINDOW)));
        let Some(doc) = kept else { return Ok(None) };
        let list = serde_json::from_slice(&doc.rows_json).map_err(|d| ApiError::Decode {
            endpoint: format!("cached {what}"),
            message: d.to_string(),
            transient: false,
        })?;
        Ok(Some((list, doc.fetched_at)))
    }
}
