//! Fetching a series through the cache: what is cached is read from it,
//! only the missing parts of the window are fetched (in grid chunks, with
//! bounded concurrency, taken as they are answered), and every settled chunk
//! is stored.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bytes::Bytes;
use futures_util::StreamExt;
use serde::de::DeserializeOwned;

use crate::cache::{Cache, CacheKey, CachedWindow};
use fleetview_api::fleet::split_window;
use fleetview_api::limits::check_window;
use fleetview_api::model::{ActivityRow, FaultRow, PositionRow};
use fleetview_api::time::{TimeWindow, now_secs, parse_lenient};
use fleetview_api::{ApiClient, ApiError, RowsChunk, SeriesSource};

pub(crate) use super::store::Writes;
use crate::series::{Series, decode_rows};

/// How far a fetch has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    pub chunks_done: usize,
    pub chunks_total: usize,
    pub rows: usize,
    /// Chunks answered by the cache rather than the service.
    pub cached_windows: usize,
}

/// The rows of a window, as pieces of JSON arrays in time order.
#[derive(Clone, Default, PartialEq)]
pub struct Fetched {
    pub window: TimeWindow,
    pub pieces: Vec<(TimeWindow, Bytes)>,
    /// Parts of the window that could not be had (offline): empty when whole.
    pub missing: Vec<TimeWindow>,
    /// When the oldest cached piece was fetched, if any came from the cache.
    pub oldest_fetch: Option<i64>,
    /// Whether the service could not be reached and the cache answered.
    pub offline: bool,
    /// Requests made to the service.
    pub requests: usize,
    /// Where the pieces read from the cache are stored (none for rows
    /// made up elsewhere).
    pub from_cache: Option<FromCache>,
}

/// The pieces of a read that came from the cache, and where they are
/// stored: one whose rows cannot be read is dropped from it.
#[derive(Clone)]
pub struct FromCache {
    cache: Arc<Cache>,
    key: CacheKey,
    /// Each cached piece's window and stored id.
    windows: Vec<(TimeWindow, i64)>,
    /// Set once one is dropped: the read is to be done again.
    dropped: Arc<AtomicBool>,
}

impl std::fmt::Debug for FromCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FromCache")
            .field("key", &self.key)
            .field("windows", &self.windows.len())
            .finish_non_exhaustive()
    }
}

impl PartialEq for FromCache {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key && self.windows == other.windows
    }
}

impl std::fmt::Debug for Fetched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pieces: Vec<String> = self
            .pieces
            .iter()
            .map(|(w, b)| format!("{w} ({} bytes)", b.len()))
            .collect();
        f.debug_struct("Fetched")
            .field("window", &self.window.to_string())
            .field("pieces", &pieces)
            .field("missing", &self.missing)
            .field("offline", &self.offline)
            .field("requests", &self.requests)
            .finish()
    }
}

impl Fetched {
    /// When served from the cache with the service away: when its oldest
    /// part was fetched.
    pub(crate) fn offline_since(&self) -> Option<i64> {
        self.offline
            .then(|| self.oldest_fetch.unwrap_or_else(now_secs))
    }

    /// The rows as columns, limited to the window.
    pub fn series(&self) -> Result<Series, serde_json::Error> {
        let mut out = Series::default();
        self.each_piece(|w, rows| {
            let mut s = decode_rows(rows).map_err(|e| match e {
                crate::series::DecodeError::Json(j) => j,
            })?;
            s.retain_window(
                w.since.max(self.window.since),
                w.until.min(self.window.until),
            );
            out.append(s);
            Ok(())
        })?;
        // Held as long as the plot is shown: no room left from appending.
        out.shrink_to_fit();
        Ok(out)
    }

    /// The rows as typed values, limited to the window.
    pub fn typed<T: DeserializeOwned + Dated>(&self) -> Result<Vec<T>, serde_json::Error> {
        let mut out = Vec::new();
        self.each_piece(|w, rows| {
            let piece: Vec<T> = serde_json::from_slice(rows)?;
            let (lo, hi) = (
                w.since.max(self.window.since),
                w.until.min(self.window.until),
            );
            out.extend(
                piece
                    .into_iter()
                    .filter(|r| (lo..=hi).contains(&r.date_secs())),
            );
            Ok(())
        })?;
        Ok(out)
    }

    /// The rows as JSON values, limited to the window (for JSON export).
    pub fn json_rows(&self) -> Result<Vec<serde_json::Value>, serde_json::Error> {
        let mut out = Vec::new();
        self.each_piece(|w, rows| {
            out.extend(self.json_piece(*w, rows)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// Whether every piece's rows can be read as JSON, holding none of
    /// them; a cached piece that cannot is dropped, as when decoded. Asked
    /// before rows are streamed out one piece at a time, so an unreadable
    /// one stops the export before anything is written.
    pub fn check_rows(&self) -> Result<(), serde_json::Error> {
        self.each_piece(|_, rows| {
            serde_json::from_slice::<Vec<serde::de::IgnoredAny>>(rows).map(drop)
        })
    }

    /// Hands each row to `row` as a JSON value, limited to the window,
    /// holding one piece's rows at a time (for a JSON export; after
    /// [`Fetched::check_rows`]).
    pub fn each_json_row<E: From<serde_json::Error>>(
        &self,
        mut row: impl FnMut(serde_json::Value) -> Result<(), E>,
    ) -> Result<(), E> {
        for (w, rows) in &self.pieces {
            for r in self.json_piece(*w, rows)? {
                row(r)?;
            }
        }
        Ok(())
    }

    /// One piece's rows, those in the window.
    fn json_piece(
        &self,
        w: TimeWindow,
        rows: &[u8],
    ) -> Result<impl Iterator<Item = serde_json::Value>, serde_json::Error> {
        let piece: Vec<serde_json::Value> = serde_json::from_slice(rows)?;
        let (lo, hi) = (
            w.since.max(self.window.since),
            w.until.min(self.window.until),
        );
        Ok(piece.into_iter().filter(move |r| {
            let date = r
                .get("date")
                .or_else(|| r.get("dateStart"))
                .and_then(|d| d.as_str());
            date.and_then(|d| parse_lenient(d).ok())
                .is_some_and(|t| (lo..=hi).contains(&t))
        }))
    }

    /// Decodes each piece in order. A cached piece that cannot be read is
    /// dropped from the cache, and the others still tried (so every bad one
    /// goes at once); the first error is returned.
    fn each_piece(
        &self,
        mut decode: impl FnMut(&TimeWindow, &Bytes) -> Result<(), serde_json::Error>,
    ) -> Result<(), serde_json::Error> {
        let mut failed = None;
        for (w, rows) in &self.pieces {
            if let Err(e) = decode(w, rows) {
                if !self.unreadable(*w, &e) {
                    // The service's rows: nothing to drop.
                    return Err(e);
                }
                failed.get_or_insert(e);
            }
        }
        failed.map_or(Ok(()), Err)
    }

    /// The piece over `w` could not be read: if it came from the cache it
    /// is dropped there (to be read again from the service) and `true`.
    pub(crate) fn unreadable(&self, w: TimeWindow, error: &dyn std::fmt::Display) -> bool {
        let Some(from) = &self.from_cache else {
            return false;
        };
        let Some(&(_, id)) = from.windows.iter().find(|(cached, _)| *cached == w) else {
            return false;
        };
        from.cache
            .drop_unreadable(id, &from.key, w, &error.to_string());
        from.dropped.store(true, Ordering::Relaxed);
        true
    }

    /// Whether rows of the cache were found unreadable and dropped: the
    /// read is to be done again (it then comes from the service).
    pub fn cache_dropped(&self) -> bool {
        self.from_cache
            .as_ref()
            .is_some_and(|f| f.dropped.load(Ordering::Relaxed))
    }
}

/// Rows with a date, for filtering typed rows to a window.
pub trait Dated {
    fn date_secs(&self) -> i64;
}

impl Dated for FaultRow {
    fn date_secs(&self) -> i64 {
        self.date.0
    }
}
impl Dated for PositionRow {
    fn date_secs(&self) -> i64 {
        self.date.0
    }
}
impl Dated for ActivityRow {
    fn date_secs(&self) -> i64 {
        self.date_start.0
    }
}

/// What to fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeriesRequest {
    pub(crate) equipment: i64,
    pub(crate) source: SeriesSource,
    pub(crate) window: TimeWindow,
    /// Read only the cache, never the service.
    pub(crate) offline: bool,
}

/// Fetches a window through the cache. With the service unreachable, what
/// the cache holds is returned, marked offline, with the missing parts.
///
/// `on_piece` sees each piece's rows as soon as they are had (the cache's
/// first, then each chunk as it arrives), so decoding can start before the
/// last chunk is in. The chunks fetched are stored in the cache by
/// `writes`, which the caller waits for once it has handed the rows on.
pub(crate) async fn fetch_series(
    client: Option<&ApiClient>,
    cache: Option<&Arc<Cache>>,
    writes: &Writes,
    base_url: &str,
    req: SeriesRequest,
    mut progress: impl FnMut(Progress),
    mut on_piece: impl FnMut(TimeWindow, &Bytes),
) -> Result<Fetched, ApiError> {
    // Refused before the cache too: the same window must not work offline
    // and fail online.
    check_window(req.window)?;
    let key = CacheKey::new(base_url, req.equipment, req.source.name());
    let cached = read_cached(cache, &key, req.window).await;
    let covered: Vec<(i64, i64)> = cached
        .iter()
        .map(|c| (c.window.since, c.window.until))
        .collect();
    let missing = crate::cache::gaps(req.window, &covered);
    let oldest_fetch = cached.iter().map(|c| c.fetched_at).min();
    let from_cache = cache.filter(|_| !cached.is_empty()).map(|c| FromCache {
        cache: Arc::clone(c),
        key: key.clone(),
        windows: cached.iter().map(|c| (c.window, c.id)).collect(),
        dropped: writes.unreadable_flag(),
    });
    let mut pieces: Vec<(TimeWindow, Bytes)> = cached
        .into_iter()
        .map(|c| (c.window, Bytes::from(c.rows_json)))
        .collect();
    let mut state = Progress {
        cached_windows: pieces.len(),
        ..Progress::default()
    };
    state.rows = pieces.iter().map(|p| count_rows_hint(&p.1)).sum();
    for (w, rows) in &pieces {
        on_piece(*w, rows);
    }

    let chunks: Vec<TimeWindow> = missing
        .iter()
        .flat_map(|m| split_window(*m, req.source.chunk_secs()))
        .collect();
    state.chunks_total = chunks.len();
    progress(state);

    let mut fetched = Fetched {
        window: req.window,
        oldest_fetch,
        from_cache,
        ..Fetched::default()
    };
    // No client (signed out): what the cache holds, as offline.
    let client = match (client, req.offline) {
        (Some(c), false) => c,
        _ => {
            fetched.missing = missing;
            fetched.offline = true;
            fetched.pieces = pieces;
            fetched.pieces.sort_by_key(|p| p.0.since);
            return Ok(fetched);
        }
    };

    let mut stream = std::pin::pin!(client.chunk_rows(req.equipment, req.source, chunks));
    // Chunks are stored once the task has handed them on (`writes`).
    while let Some((w, body)) = stream.next().await {
        fetched.requests += 1;
        let body = match body {
            Ok(b) => b,
            Err(e) if e.is_unreachable() && !pieces.is_empty() => {
                // Offline: serve what the cache has, and say what is missing.
                tracing::warn!("{e}; serving cached data");
                fetched.offline = true;
                fetched.missing = missing;
                break;
            }
            Err(e) => return Err(e),
        };
        // A view into the answer: stored and handed on without a copy.
        let RowsChunk {
            rows,
            count,
            service_now,
        } = body;
        if let Some(c) = cache {
            store_chunk(c, writes, &key, w, &rows, service_now);
        }
        on_piece(w, &rows);
        state.rows += count;
        state.chunks_done += 1;
        progress(state);
        pieces.push((w, rows));
    }
    pieces.sort_by_key(|p| p.0.since);
    fetched.pieces = pieces;
    Ok(fetched)
}

/// What the cache holds of `window`, read off the async threads (which
/// meanwhile take answers) in one read: what is missing is what the windows
/// read do not cover. A failed read is a miss.
async fn read_cached(
    cache: Option<&Arc<Cache>>,
    key: &CacheKey,
    window: TimeWindow,
) -> Vec<CachedWindow> {
    let Some(c) = cache else {
        return Vec::new();
    };
    let (c, k) = (Arc::clone(c), key.clone());
    match tokio::task::spawn_blocking(move || c.get(&k, window)).await {
        Ok(Ok(found)) => found,
        Ok(Err(e)) => {
            tracing::warn!("cache read failed, fetching instead: {e}");
            Vec::new()
        }
        Err(e) => {
            tracing::warn!("cache read failed, fetching instead: {e}");
            Vec::new()
        }
    }
}

/// Hands a chunk fetched to `writes`, to be stored in the cache once the
/// task has handed it on; what is final in it is decided by the service's
/// clock as it answered (`service_now`; unknown, nothing is).
fn store_chunk(
    cache: &Arc<Cache>,
    writes: &Writes,
    key: &CacheKey,
    w: TimeWindow,
    rows: &Bytes,
    service_now: Option<i64>,
) {
    let Some(service_now) = service_now else {
        return;
    };
    let (c, key, stored) = (Arc::clone(cache), key.clone(), rows.clone());
    writes.start(move |decoded| {
        // Cut by a scan: rows no decoding has read are checked before they
        // are kept, so the cache never holds rows that cannot be read.
        if !decoded && let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(&stored) {
            tracing::warn!("not cached, the rows are not valid JSON: {e}");
            return Ok(());
        }
        c.put_as_of(&key, w, &stored, now_secs(), service_now)
            .map(|_| ())
    });
}

/// Rows in a JSON array, counted cheaply (objects at depth one) for progress.
fn count_rows_hint(rows: &[u8]) -> usize {
    let mut depth = 0i32;
    let mut in_str = false;
    let mut escaped = false;
    let mut n = 0;
    for &b in rows {
        if in_str {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                if depth == 2 && b == b'{' {
                    n += 1;
                }
            }
            b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_rows_of_an_array() {
        assert_eq!(count_rows_hint(br#"[{"a":"}{"},{"b":{"c":1}},{}]"#), 3);
        assert_eq!(count_rows_hint(b"[]"), 0);
    }
}
