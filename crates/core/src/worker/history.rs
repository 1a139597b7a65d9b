//! The single-equipment history of a window: a settled copy from the
//! cache, else the service (keeping the last answer of the window for
//! offline use), else, with the service away, that last answer.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use futures_util::{StreamExt, TryStreamExt, stream};

use super::messages::OfflineSince;
use super::task::{TaskCtx, read_or_warn};
use crate::cache::CacheKey;
use fleetview_api::ApiError;
use fleetview_api::fleet::{HISTORY_CHUNK_SECS, merge_envelopes, split_window};
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
            let settled = CacheKey::new(&self.cache_scope, equipment, HISTORY_KIND);
            for chunk in split_window(window, HISTORY_CHUNK_SECS) {
                cache.drop_unreadable_document(&settled, chunk, &error.to_string());
            }
            let latest = CacheKey::new(&self.cache_scope, equipment, HISTORY_SNAPSHOT_KIND);
            for chunk in split_window(window, HISTORY_CHUNK_SECS) {
                cache.drop_unreadable_document(&latest, chunk, &error.to_string());
            }
            cache.drop_unreadable_document(&latest, window, &error.to_string());
            self.writes.unreadable_flag().store(true, Ordering::Relaxed);
        }
        error
    }

    /// Whether a history read with `requests` requests came from the cache
    /// in part (a chunk of it at least).
    pub(crate) fn history_partly_cached(window: TimeWindow, requests: usize) -> bool {
        requests < split_window(window, HISTORY_CHUNK_SECS).len()
    }

    /// The history body of a window as the cache has it (an error if its
    /// chunks cannot be joined): settled, else as last seen. No request,
    /// nothing said.
    pub(crate) fn history_in_cache(
        &self,
        equipment: i64,
        window: TimeWindow,
    ) -> Option<Result<Vec<u8>, ApiError>> {
        self.kept_history(equipment, window).map(|(body, _)| body)
    }

    /// The history body of a window, when it was fetched if served from
    /// the cache with the service away, and the requests made.
    ///
    /// Kept by chunk of the service's grid: a window ending today reads its
    /// settled chunks from the cache and asks only for the others.
    pub(crate) async fn history_body(
        &self,
        equipment: i64,
        window: TimeWindow,
        offline: bool,
    ) -> Result<(Vec<u8>, OfflineSince, usize), ApiError> {
        check_window(window)?;
        // No client (signed out): the cache alone.
        let offline = offline || self.client.is_none();
        let chunks = split_window(window, HISTORY_CHUNK_SECS);
        let settled = CacheKey::new(&self.cache_scope, equipment, HISTORY_KIND);
        let mut bodies: Vec<Option<Vec<u8>>> = match &self.cache {
            // Off the async threads, which meanwhile take answers.
            Some(c) => {
                let (c, key, read) = (Arc::clone(c), settled.clone(), chunks.clone());
                tokio::task::spawn_blocking(move || {
                    read.iter()
                        .map(|&w| read_or_warn(c.get_document(&key, w)).map(|d| d.rows_json))
                        .collect()
                })
                .await
                .unwrap_or_else(|_| vec![None; chunks.len()])
            }
            None => vec![None; chunks.len()],
        };
        let missing: Vec<(usize, TimeWindow)> = chunks
            .iter()
            .enumerate()
            .filter(|(i, _)| bodies[*i].is_none())
            .map(|(i, w)| (i, *w))
            .collect();
        if missing.is_empty() {
            let body = join_chunks(bodies.into_iter().flatten().collect())
                .map_err(|e| self.history_unreadable(equipment, window, true, e))?;
            return Ok((body, None, 0));
        }
        let answers = match (offline, self.client()) {
            (false, Ok(client)) => {
                let concurrency = client.config().concurrency();
                stream::iter(missing.iter().copied())
                    .map(|(i, w)| async move {
                        client.history_body(equipment, w).await.map(|b| (i, w, b))
                    })
                    // Each put back in its place: none waits for an earlier one.
                    .buffer_unordered(concurrency)
                    .try_collect::<Vec<_>>()
                    .await
            }
            (true, _) => Err(ApiError::NotConnected),
            (false, Err(e)) => Err(e),
        };
        match answers {
            Ok(answers) => {
                let requests = answers.len();
                let fetched: Vec<(TimeWindow, bytes::Bytes)> =
                    answers.iter().map(|(_, w, b)| (*w, b.clone())).collect();
                for (i, _, body) in answers {
                    bodies[i] = Some(body.to_vec());
                }
                let body = join_chunks(bodies.into_iter().flatten().collect()).map_err(|e| {
                    let cached = Self::history_partly_cached(window, requests);
                    self.history_unreadable(equipment, window, cached, e)
                })?;
                self.keep_history(equipment, fetched);
                Ok((body, None, requests))
            }
            Err(e) if offline || e.is_unreachable() => match self.kept_history(equipment, window) {
                Some((body, fetched_at)) => {
                    // Said once by the caller (the app's status, the command
                    // line's notes), not once a machine.
                    tracing::info!("{e}; serving the cached history");
                    let body =
                        body.map_err(|e| self.history_unreadable(equipment, window, true, e))?;
                    Ok((body, Some(fetched_at), usize::from(!offline)))
                }
                None => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    /// The window's history as last seen, with the service away: each chunk
    /// settled or as last answered (else the whole window as last answered,
    /// as caches kept it before chunks), and when the oldest was fetched.
    fn kept_history(
        &self,
        equipment: i64,
        window: TimeWindow,
    ) -> Option<(Result<Vec<u8>, ApiError>, i64)> {
        let cache = self.cache.as_deref()?;
        let settled = CacheKey::new(&self.cache_scope, equipment, HISTORY_KIND);
        let latest = CacheKey::new(&self.cache_scope, equipment, HISTORY_SNAPSHOT_KIND);
        let by_chunk: Option<Vec<_>> = split_window(window, HISTORY_CHUNK_SECS)
            .into_iter()
            .map(|w| {
                read_or_warn(cache.get_document(&settled, w))
                    .or_else(|| read_or_warn(cache.get_document(&latest, w)))
            })
            .collect();
        match by_chunk {
            Some(docs) => {
                let fetched_at = docs.iter().map(|d| d.fetched_at).min()?;
                let bodies = docs.into_iter().map(|d| d.rows_json).collect();
                Some((join_chunks(bodies), fetched_at))
            }
            None => read_or_warn(cache.get_document(&latest, window))
                .map(|d| (Ok(d.rows_json), d.fetched_at)),
        }
    }

    /// Stores what was fetched, while it is decoded and shown, by chunk:
    /// settled by the service's clock as it answered, else as the last
    /// answer seen of that chunk (for offline use).
    fn keep_history(&self, equipment: i64, fetched: Vec<(TimeWindow, bytes::Bytes)>) {
        let Some(c) = &self.cache else { return };
        let service_now = self.client().ok().and_then(|c| c.service_now());
        let settled = CacheKey::new(&self.cache_scope, equipment, HISTORY_KIND);
        let latest = CacheKey::new(&self.cache_scope, equipment, HISTORY_SNAPSHOT_KIND);
        let c = Arc::clone(c);
        self.writes.start(move |_| {
            let now = now_secs();
            for (w, chunk) in &fetched {
                let kept = match service_now {
                    Some(service_now) => {
                        c.put_document_as_of(&settled, *w, chunk, now, service_now)?
                    }
                    None => false,
                };
                if !kept {
                    c.put_snapshot(&latest, *w, chunk, now)?;
                }
            }
            Ok(())
        });
    }
}

/// The answers of a window's chunks, in order, as one answer.
fn join_chunks(mut bodies: Vec<Vec<u8>>) -> Result<Vec<u8>, ApiError> {
    if bodies.len() == 1 {
        return Ok(bodies.remove(0));
    }
    merge_envelopes(&bodies, "GET /history")
}
