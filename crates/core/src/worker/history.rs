//! The single-equipment history of a window: a settled copy from the
//! cache, else the service (keeping the last answer of the window for
//! offline use), else, with the service away, that last answer.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::messages::OfflineSince;
use super::task::{TaskCtx, read_or_warn};
use crate::cache::CacheKey;
use fleetview_api::ApiError;
use fleetview_api::limits::check_window;
use fleetview_api::time::{TimeWindow, now_secs};

/// Cache kinds beside the series: the settled history of a window, and the
/// last history seen of it (for offline use).
pub const HISTORY_KIND: &str = "history";
const HISTORY_SNAPSHOT_KIND: &str = "history/latest";

impl TaskCtx {
    /// A history that could not be read (`error`): if it came from the
    /// cache, what the cache holds for the window is dropped (the task
    /// reads it again, from the service).
    pub(crate) fn history_unreadable(
        &self,
        equipment: i64,
        window: TimeWindow,
        from_cache: bool,
        error: ApiError,
    ) -> ApiError {
        if let Some(cache) = self.cache.as_deref().filter(|_| from_cache) {
            for kind in [HISTORY_KIND, HISTORY_SNAPSHOT_KIND] {
                let key = CacheKey::new(&self.cache_scope, equipment, kind);
                cache.drop_unreadable_document(&key, window, &error.to_string());
            }
            self.writes.unreadable_flag().store(true, Ordering::Relaxed);
        }
        error
    }

    /// The history body of a window as the cache has it: the settled copy,
    /// else the last one seen. No request, nothing said.
    pub(crate) fn history_in_cache(&self, equipment: i64, window: TimeWindow) -> Option<Vec<u8>> {
        let cache = self.cache.as_deref()?;
        [HISTORY_KIND, HISTORY_SNAPSHOT_KIND]
            .into_iter()
            .find_map(|kind| {
                let key = CacheKey::new(&self.cache_scope, equipment, kind);
                read_or_warn(cache.get_document(&key, window))
            })
            .map(|doc| doc.rows_json)
    }

    /// The history body of a window, when it was fetched if served from
    /// the cache with the service away, and the requests made (0 or 1).
    pub(crate) async fn history_body(
        &self,
        equipment: i64,
        window: TimeWindow,
        offline: bool,
    ) -> Result<(Vec<u8>, OfflineSince, usize), ApiError> {
        check_window(window)?;
        // No client (signed out): the cache alone.
        let offline = offline || self.client.is_none();
        let settled = CacheKey::new(&self.cache_scope, equipment, HISTORY_KIND);
        let latest = CacheKey::new(&self.cache_scope, equipment, HISTORY_SNAPSHOT_KIND);
        let cache = self.cache.as_deref();
        if let Some(c) = &self.cache {
            // Off the async threads, which meanwhile take answers.
            let (c, key) = (Arc::clone(c), settled.clone());
            let found =
                tokio::task::spawn_blocking(move || read_or_warn(c.get_document(&key, window)))
                    .await
                    .ok()
                    .flatten();
            if let Some(doc) = found {
                return Ok((doc.rows_json, None, 0));
            }
        }
        let answer = match (offline, self.client()) {
            (false, Ok(client)) => client.history_body(equipment, window).await,
            (true, _) => Err(ApiError::NotConnected),
            (false, Err(e)) => Err(e),
        };
        match answer {
            Ok(body) => {
                // Settled by the service's clock as it answered: a window
                // in its future is kept only as the last answer seen.
                let service_now = self.client().ok().and_then(|c| c.service_now());
                if let Some(c) = &self.cache {
                    // Stored while it is decoded and shown.
                    let (c, body) = (Arc::clone(c), body.clone());
                    self.writes.start(move |_| {
                        let now = now_secs();
                        let kept = match service_now {
                            Some(service_now) => {
                                c.put_document_as_of(&settled, window, &body, now, service_now)?
                            }
                            None => false,
                        };
                        if kept {
                            Ok(())
                        } else {
                            c.put_snapshot(&latest, window, &body, now)
                        }
                    });
                }
                Ok((body.to_vec(), None, 1))
            }
            Err(e) if offline || e.is_unreachable() => {
                match cache.and_then(|c| read_or_warn(c.get_document(&latest, window))) {
                    Some(doc) => {
                        // Said once by the caller (the app's status, the command line's
                        // notes), not once a machine.
                        tracing::info!("{e}; serving the cached history");
                        Ok((doc.rows_json, Some(doc.fetched_at), usize::from(!offline)))
                    }
                    None => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }
}
