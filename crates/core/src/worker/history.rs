//! The single-equipment history of a window, read in pieces: each a
//! settled copy from the cache, else the service (keeping the last answer
//! of the piece for offline use), else, with the service away, that last
//! answer.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use futures_util::{StreamExt, TryStreamExt, stream};

use super::history_columns;
use super::messages::OfflineSince;
use super::task::{TaskCtx, read_or_warn};
use crate::cache::{self, CacheKey};
use fleetview_api::fleet::{HISTORY_CHUNK_SECS, split_window};
use fleetview_api::limits::check_window;
use fleetview_api::model::{Envelope, EquipmentHistory, Page};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow, now_secs};
use fleetview_api::{ApiClient, ApiError, merge_envelopes};

/// Cache kinds beside the series: the settled history of a window, and the
/// last history seen of it (for offline use).
pub const HISTORY_KIND: &str = "history";
const HISTORY_SNAPSHOT_KIND: &str = "history/latest";
/// A settled piece kept decoded, as columns (see [`history_columns`]);
/// the layout's version in the name, so a new one never reads an old.
const HISTORY_COLUMNS_KIND: &str = "history/columns-1";

/// A piece of a history as read.
pub(crate) enum PieceRead {
    /// The service's JSON (its answer, or the cache's copy of one); with
    /// its window when it is settled and not kept as columns yet: kept so
    /// once decoded.
    Json {
        body: Vec<u8>,
        keep_columns: Option<TimeWindow>,
    },
    /// A settled piece's columns, read back.
    Columns(EquipmentHistory),
}

impl PieceRead {
    /// The JSON, for a reader that wants the service's own.
    fn into_json(self) -> Option<Vec<u8>> {
        match self {
            PieceRead::Json { body, .. } => Some(body),
            PieceRead::Columns(_) => None,
        }
    }
}

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
            for kind in [HISTORY_KIND, HISTORY_SNAPSHOT_KIND, HISTORY_COLUMNS_KIND] {
                let key = CacheKey::new(&self.cache_scope, equipment, kind);
                // The window whole, and every piece it was read in (which
                // one could not be read is not known once joined).
                let pieces = read_or_warn(cache.document_windows(&key, window).map(Some));
                for w in pieces.unwrap_or_default() {
                    if w != window {
                        cache.drop_unreadable_document(&key, w, &error.to_string());
                    }
                }
                cache.drop_unreadable_document(&key, window, &error.to_string());
            }
            self.writes.unreadable_flag().store(true, Ordering::Relaxed);
        }
        error
    }

    /// The history body of a window as the cache has it: the settled copy,
    /// else the last one seen (whole, or piece by piece). No request,
    /// nothing said.
    pub(crate) fn history_in_cache(&self, equipment: i64, window: TimeWindow) -> Option<Vec<u8>> {
        let cache = self.cache.as_deref()?;
        let kept = |w: TimeWindow| {
            [HISTORY_KIND, HISTORY_SNAPSHOT_KIND]
                .into_iter()
                .find_map(|kind| {
                    let key = CacheKey::new(&self.cache_scope, equipment, kind);
                    read_or_warn(cache.get_document(&key, w))
                })
                .map(|doc| doc.rows_json)
        };
        if let Some(whole) = kept(window) {
            return Some(whole);
        }
        let bodies = self.kept_pieces(equipment, window)?;
        // Pieces that cannot be joined are dropped: read again after.
        join_pieces(bodies, equipment)
            .map_err(|e| self.history_unreadable(equipment, window, true, e))
            .ok()
    }

    /// The window as the cache holds it in pieces, settled or as last
    /// seen, whatever day they were cut on: their bodies in order, when
    /// the oldest was fetched. For reading without the service, whose
    /// clock (which cut the pieces) is then not known.
    fn kept_pieces_dated(&self, equipment: i64, window: TimeWindow) -> Option<(Vec<Vec<u8>>, i64)> {
        let cache = self.cache.as_deref()?;
        let keys = [HISTORY_KIND, HISTORY_SNAPSHOT_KIND]
            .map(|kind| CacheKey::new(&self.cache_scope, equipment, kind));
        let stored: Vec<Vec<TimeWindow>> = keys
            .iter()
            .map(|k| read_or_warn(cache.document_windows(k, window).map(Some)).unwrap_or_default())
            .collect();
        let mut bodies = Vec::new();
        let mut oldest = i64::MAX;
        let mut cursor = window.since;
        while cursor <= window.until {
            // The longest piece starting here, a settled one first.
            let (key, w) = keys
                .iter()
                .zip(&stored)
                .flat_map(|(k, ws)| ws.iter().map(move |w| (k, *w)))
                .filter(|(_, w)| w.since == cursor)
                .max_by_key(|(k, w)| (w.until, k.kind == HISTORY_KIND))?;
            let doc = read_or_warn(cache.get_document(key, w))?;
            oldest = oldest.min(doc.fetched_at);
            bodies.push(doc.rows_json);
            cursor = w.until.checked_add(1)?;
        }
        Some((bodies, oldest))
    }

    fn kept_pieces(&self, equipment: i64, window: TimeWindow) -> Option<Vec<Vec<u8>>> {
        self.kept_pieces_dated(equipment, window).map(|(b, _)| b)
    }

    /// The service's time as last heard (this computer's if earlier, or
    /// if not heard yet): where settled data ends.
    fn as_of(&self) -> i64 {
        let service = self.client().ok().and_then(ApiClient::service_now);
        service.map_or_else(now_secs, |s| s.min(now_secs()))
    }

    /// The history body of a window, when it was fetched if served from
    /// the cache with the service away, and the requests made. Read in
    /// pieces (see [`history_pieces`]), each settled one kept and read
    /// from the cache after: a window reaching now asks only for its
    /// last day.
    pub(crate) async fn history_body(
        &self,
        equipment: i64,
        window: TimeWindow,
        offline: bool,
    ) -> Result<(Vec<u8>, OfflineSince, usize), ApiError> {
        let (bodies, offline_since, requests) =
            self.history_bodies(equipment, window, offline).await?;
        // A piece from the cache that cannot be joined is dropped there.
        let from_cache = requests < bodies.len() || offline_since.is_some();
        let body = if bodies.len() == 1 {
            bodies.into_iter().next().unwrap_or_default()
        } else {
            // Tens of megabytes for a year: joined off the async threads.
            tokio::task::spawn_blocking(move || join_pieces(bodies, equipment))
                .await
                .map_err(|e| ApiError::Decode {
                    endpoint: format!("GET /{equipment}/history"),
                    message: e.to_string(),
                    transient: false,
                })?
                .map_err(|e| self.history_unreadable(equipment, window, from_cache, e))?
        };
        Ok((body, offline_since, requests))
    }

    /// As [`Self::history_body`], the pieces' bodies in order, not joined.
    async fn history_bodies(
        &self,
        equipment: i64,
        window: TimeWindow,
        offline: bool,
    ) -> Result<(Vec<Vec<u8>>, OfflineSince, usize), ApiError> {
        let (pieces, offline_since, requests) =
            self.history_read(equipment, window, offline, false).await?;
        let bodies = pieces
            .into_iter()
            .filter_map(PieceRead::into_json)
            .collect();
        Ok((bodies, offline_since, requests))
    }

    /// The pieces of a window's history in order, not joined (for a
    /// reader that decodes each: joining costs a pass over them); with
    /// `columns`, the settled ones kept as columns read so.
    pub(crate) async fn history_read(
        &self,
        equipment: i64,
        window: TimeWindow,
        offline: bool,
        columns: bool,
    ) -> Result<(Vec<PieceRead>, OfflineSince, usize), ApiError> {
        check_window(window)?;
        // No client (signed out): the cache alone.
        let offline = offline || self.client.is_none();
        // A whole window kept settled (as stored before the pieces).
        if let Some(body) = self.settled_history(equipment, window).await {
            let keep_columns = None;
            return Ok((vec![PieceRead::Json { body, keep_columns }], None, 0));
        }
        let pieces = history_pieces(window, self.as_of());
        let concurrency = self
            .client
            .as_deref()
            .map_or(1, |c| c.config().concurrency().max(1));
        let read: Result<Vec<_>, ApiError> = stream::iter(pieces)
            .map(|w| self.history_piece(equipment, w, offline, columns))
            .buffered(concurrency)
            .try_collect()
            .await;
        let read = match read {
            Ok(r) => r,
            // Out of reach: the window as last seen, whole or in pieces
            // (cut on another day, or by the service's clock).
            Err(e) if offline || e.is_unreachable() => {
                let latest = CacheKey::new(&self.cache_scope, equipment, HISTORY_SNAPSHOT_KIND);
                let (bodies, fetched_at) = self
                    .cache
                    .as_deref()
                    .and_then(|c| read_or_warn(c.get_document(&latest, window)))
                    .map(|doc| (vec![doc.rows_json], doc.fetched_at))
                    .or_else(|| self.kept_pieces_dated(equipment, window))
                    .ok_or(e)?;
                tracing::info!("serving the cached history");
                let pieces = bodies
                    .into_iter()
                    .map(|body| PieceRead::Json {
                        body,
                        keep_columns: None,
                    })
                    .collect();
                return Ok((pieces, Some(fetched_at), usize::from(!offline)));
            }
            Err(e) => return Err(e),
        };
        let requests = read.iter().map(|(_, _, n)| n).sum();
        let offline_since = read.iter().filter_map(|(_, o, _)| *o).min();
        let pieces = read.into_iter().map(|(b, _, _)| b).collect();
        Ok((pieces, offline_since, requests))
    }

    /// The settled copy of exactly `window`, read off the async threads
    /// (which meanwhile take answers).
    async fn settled_history(&self, equipment: i64, window: TimeWindow) -> Option<Vec<u8>> {
        let c = Arc::clone(self.cache.as_ref()?);
        let key = CacheKey::new(&self.cache_scope, equipment, HISTORY_KIND);
        tokio::task::spawn_blocking(move || read_or_warn(c.get_document(&key, window)))
            .await
            .ok()
            .flatten()
            .map(|doc| doc.rows_json)
    }

    /// The settled piece `window` as kept in columns, if it is and reads
    /// back (else dropped, to be kept again from its JSON).
    async fn settled_columns(
        &self,
        equipment: i64,
        window: TimeWindow,
    ) -> Option<EquipmentHistory> {
        let c = Arc::clone(self.cache.as_ref()?);
        let key = CacheKey::new(&self.cache_scope, equipment, HISTORY_COLUMNS_KIND);
        let json = CacheKey::new(&self.cache_scope, equipment, HISTORY_KIND);
        tokio::task::spawn_blocking(move || {
            let doc = read_or_warn(c.get_document(&key, window))?;
            let history = history_columns::decode(&doc.rows_json)
                .inspect_err(|e| c.drop_unreadable_document(&key, window, &e.to_string()))
                .ok()?;
            // The JSON stays as used as its copy: exports, reports and
            // reading offline take it.
            read_or_warn(c.mark_document_used(&json, window).map(Some));
            Some(history)
        })
        .await
        .ok()
        .flatten()
    }

    /// Keeps a settled piece decoded from its JSON as columns too, by the
    /// cache's writer.
    fn keep_columns(&self, equipment: i64, window: TimeWindow, columns: Vec<u8>) {
        let Some(c) = &self.cache else { return };
        let c = Arc::clone(c);
        let key = CacheKey::new(&self.cache_scope, equipment, HISTORY_COLUMNS_KIND);
        let service_now = self.as_of();
        self.writes.start(move |_| {
            c.put_document_as_of(&key, window, &columns, now_secs(), service_now)
                .map(|_| ())
        });
    }

    /// The pieces read, each decoded apart (at once, on the blocking
    /// threads), as one: a year's pieces neither joined as text first nor
    /// decoded one after the other. A settled piece decoded from its JSON
    /// is kept as columns, read so the next time.
    pub(crate) async fn decode_history_read(
        &self,
        equipment: i64,
        pieces: Vec<PieceRead>,
    ) -> Result<EquipmentHistory, ApiError> {
        let decoded = futures_util::future::join_all(pieces.into_iter().map(|piece| async {
            match piece {
                PieceRead::Columns(history) => Ok((history, None)),
                PieceRead::Json { body, keep_columns } => {
                    super::task::decode_off_thread("history", move || {
                        let history = decode_history_piece(&body)?;
                        let columns = keep_columns.map(|w| (w, history_columns::encode(&history)));
                        Ok((history, columns))
                    })
                    .await
                }
            }
        }))
        .await;
        let mut histories = Vec::with_capacity(decoded.len());
        for piece in decoded {
            let (history, columns) = piece?;
            if let Some((window, columns)) = columns {
                self.keep_columns(equipment, window, columns);
            }
            histories.push(history);
        }
        super::task::decode_off_thread("history", move || {
            join_history_pieces(histories)
                .ok_or_else(|| serde::de::Error::custom("a history of no piece"))
        })
        .await
    }

    /// One piece of a history: its settled copy, else the service's
    /// (kept settled, or as the last seen), else, with the service away,
    /// the last seen.
    async fn history_piece(
        &self,
        equipment: i64,
        window: TimeWindow,
        offline: bool,
        columns: bool,
    ) -> Result<(PieceRead, OfflineSince, usize), ApiError> {
        if columns && let Some(history) = self.settled_columns(equipment, window).await {
            return Ok((PieceRead::Columns(history), None, 0));
        }
        let json = |body: Vec<u8>, settled: bool| PieceRead::Json {
            body,
            keep_columns: (columns && settled).then_some(window),
        };
        if let Some(doc) = self.settled_history(equipment, window).await {
            return Ok((json(doc, true), None, 0));
        }
        let settled = CacheKey::new(&self.cache_scope, equipment, HISTORY_KIND);
        let latest = CacheKey::new(&self.cache_scope, equipment, HISTORY_SNAPSHOT_KIND);
        let cache = self.cache.as_deref();
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
                let settles = service_now
                    .is_some_and(|service_now| cache::settled(window, now_secs(), service_now));
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
                Ok((json(body.to_vec(), settles), None, 1))
            }
            Err(e) if offline || e.is_unreachable() => {
                match cache.and_then(|c| read_or_warn(c.get_document(&latest, window))) {
                    Some(doc) => {
                        // Said once by the caller (the app's status, the command line's
                        // notes), not once a machine.
                        tracing::info!("{e}; serving the cached history");
                        let piece = json(doc.rows_json, false);
                        Ok((piece, Some(doc.fetched_at), usize::from(!offline)))
                    }
                    None => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }
}

/// The pieces a history is read in: the service's grid chunks (one
/// request each), the one holding the start of `as_of`'s day cut there,
/// so that all but the last day settle and are read from the cache after
/// (a day later, the days before settle again as one piece).
pub(crate) fn history_pieces(window: TimeWindow, as_of: i64) -> Vec<TimeWindow> {
    let day_start = as_of.div_euclid(SECS_PER_DAY) * SECS_PER_DAY;
    split_window(window, HISTORY_CHUNK_SECS)
        .into_iter()
        .flat_map(|w| {
            if w.since < day_start && day_start <= w.until {
                vec![
                    TimeWindow {
                        since: w.since,
                        until: day_start - 1,
                    },
                    TimeWindow {
                        since: day_start,
                        until: w.until,
                    },
                ]
            } else {
                vec![w]
            }
        })
        .collect()
}

/// One piece of a history, decoded.
pub(crate) fn decode_history_piece(body: &[u8]) -> Result<EquipmentHistory, serde_json::Error> {
    Ok(serde_json::from_slice::<Envelope<EquipmentHistory>>(body)?.data)
}

/// The pieces' histories as one: the rows joined in order (at their exact
/// size: a year's are held while the page is), the totals summed, the
/// rest the first's; none of no piece.
pub(crate) fn join_history_pieces(pieces: Vec<EquipmentHistory>) -> Option<EquipmentHistory> {
    let mut pieces = pieces.into_iter();
    let mut out = pieces.next()?;
    let rest: Vec<EquipmentHistory> = pieces.collect();
    fn join<R>(into: &mut Page<R>, from: Vec<Page<R>>) {
        into.rows
            .reserve_exact(from.iter().map(|p| p.rows.len()).sum());
        for p in from {
            into.total += p.total;
            into.rows.extend(p.rows);
        }
    }
    let mut positions = Vec::with_capacity(rest.len());
    let mut faults = Vec::with_capacity(rest.len());
    let mut fuel = Vec::with_capacity(rest.len());
    let mut engine = Vec::with_capacity(rest.len());
    let mut daily = Vec::with_capacity(rest.len());
    for h in rest {
        positions.push(h.positions);
        faults.push(h.fault_codes);
        fuel.push(h.fuel_remainings);
        engine.push(h.engine_conditions);
        daily.push(h.daily_usages);
    }
    join(&mut out.positions, positions);
    join(&mut out.fault_codes, faults);
    join(&mut out.fuel_remainings, fuel);
    join(&mut out.engine_conditions, engine);
    join(&mut out.daily_usages, daily);
    Some(out)
}

/// The pieces' answers as one, in order.
fn join_pieces(bodies: Vec<Vec<u8>>, equipment: i64) -> Result<Vec<u8>, ApiError> {
    merge_envelopes(&bodies, &format!("GET /{equipment}/history"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_reaching_today_is_cut_at_its_start_and_at_the_grid() {
        let day = SECS_PER_DAY;
        let today = 20_257 * day;
        let w = TimeWindow {
            since: today - 29 * day,
            until: today + day - 1,
        };
        let grid = 20_240 * day;
        assert_eq!(
            history_pieces(w, today + 55_800),
            vec![
                TimeWindow {
                    since: w.since,
                    until: grid - 1
                },
                TimeWindow {
                    since: grid,
                    until: today - 1
                },
                TimeWindow {
                    since: today,
                    until: w.until
                },
            ]
        );
        let past = TimeWindow {
            since: grid + day,
            until: grid + 3 * day - 1,
        };
        assert_eq!(
            history_pieces(past, today),
            vec![past],
            "settled: one piece"
        );
    }
}
