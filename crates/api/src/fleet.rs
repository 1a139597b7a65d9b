//! Everything under `/v2/fleet/`: one equipment's series over a time
//! window (activities, faults, positions, history, any data kind), and the
//! deprecated fleet history read page by page. Every window is checked
//! against the client's cap and fetched as grid-aligned chunks the service
//! accepts (D13), with bounded concurrency, put back together in order.

use bytes::Bytes;
use futures_util::TryStreamExt;
use futures_util::stream::{self, Stream, StreamExt};
use serde::de::DeserializeOwned;

use super::chunks::RowsChunk;
pub use super::chunks::{merge_envelopes, split_window};
use super::client::{ApiClient, Dated, check_json, decode_json, rows_chunk};
use super::data_kind::DataKind;
use super::error::ApiError;
use super::limits::{MAX_EQUIPMENT_WINDOW_SECS, MAX_FLEET_WINDOW_SECS, check_window};
use super::model::{
    ActivityRow, Envelope, EquipmentHistory, FaultRow, FleetEquipment, FleetHistory, PositionRow,
    SeriesData,
};
use super::time::{SECS_PER_DAY, TimeWindow, format_wire};

/// The service never returns more than this many equipments per page (D5).
pub(crate) const MAX_PAGE: i64 = 50;

/// Chunk length of `/history`: a quarter, so that a machine reporting every
/// minute answers in tens of megabytes, not hundreds.
pub const HISTORY_CHUNK_SECS: i64 = 92 * SECS_PER_DAY;
const _: () = assert!(HISTORY_CHUNK_SECS <= MAX_EQUIPMENT_WINDOW_SECS);

/// One page of a paged read (the fleet history, the equipment list, the
/// snapshots), with where it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct ListPage<R> {
    pub(crate) offset: i64,
    pub total: i64,
    pub rows: Vec<R>,
}

impl<R> ListPage<R> {
    /// Rows read so far, including this page.
    pub fn done(&self) -> i64 {
        self.offset + self.rows.len() as i64
    }
}

/// One page of the deprecated fleet history.
pub type FleetPage = ListPage<FleetEquipment>;

/// Every page of a paged read, `page(offset)` after `page(offset)`, as a
/// stream; it ends at `total`, or at an empty page (a service whose total
/// is wrong).
pub(super) fn paged<'a, R: 'a, Fut>(
    page: impl Fn(i64) -> Fut + 'a,
) -> impl Stream<Item = Result<ListPage<R>, ApiError>> + 'a
where
    Fut: Future<Output = Result<ListPage<R>, ApiError>> + 'a,
{
    stream::try_unfold(
        (page, Some((0i64, None::<i64>))),
        |(page, state)| async move {
            let Some((offset, total)) = state else {
                return Ok(None);
            };
            if total.is_some_and(|t| offset >= t) {
                return Ok(None);
            }
            let found = page(offset).await?;
            let next = (!found.rows.is_empty()).then(|| (found.done(), Some(found.total)));
            Ok(Some((found, (page, next))))
        },
    )
}

/// What a chunked fetch is for: a data kind (activities and positions
/// included) or faults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SeriesSource {
    Kind(DataKind),
    Faults,
}

impl SeriesSource {
    /// The path segment after `/v2/fleet/equipments/{id}/`.
    pub(crate) fn path_segment(self) -> String {
        match self {
            SeriesSource::Kind(k) => k.path_segment(),
            SeriesSource::Faults => "faults".to_owned(),
        }
    }

    /// A stable name (the wire name), used as a cache key.
    pub fn name(self) -> &'static str {
        match self {
            SeriesSource::Kind(k) => k.wire(),
            SeriesSource::Faults => "faults",
        }
    }

    /// Chunk length: a week of dense series, a year of daily ones (never
    /// more than the service accepts for one equipment).
    pub fn chunk_secs(self) -> i64 {
        match self {
            SeriesSource::Kind(k) if k.is_daily() => MAX_EQUIPMENT_WINDOW_SECS,
            SeriesSource::Faults => HISTORY_CHUNK_SECS,
            _ => 7 * SECS_PER_DAY,
        }
    }
}

impl ApiClient {
    fn window_query(w: TimeWindow) -> Vec<(&'static str, String)> {
        vec![
            ("since", format_wire(w.since)),
            ("until", format_wire(w.until)),
        ]
    }

    fn equipment_path(id: i64, segment: &str) -> String {
        format!("v2/fleet/equipments/{id}/{segment}")
    }

    /// One request for one chunk: its body, checked to be whole JSON (so
    /// that a body cut short is retried), and its answer's `Date`.
    async fn chunk_body(&self, path: &str, w: TimeWindow) -> Result<Dated<Bytes>, ApiError> {
        self.get_dated_with(path, &Self::window_query(w), |b, endpoint| {
            check_json(b, endpoint)?;
            Ok(b.clone())
        })
        .await
    }

    /// The rows of a series answer over `w` (in `data.rows`), checked
    /// whole only: the rows' decoding is the full check.
    async fn rows_chunk(&self, path: &str, w: TimeWindow) -> Result<Dated<RowsChunk>, ApiError> {
        self.get_dated_with(path, &Self::window_query(w), rows_chunk)
            .await
    }

    /// The body of `path` over `w`, fetched in chunks of `chunk_secs` on the
    /// grid, `concurrency` at a time, and merged into one answer.
    async fn window_body(
        &self,
        path: &str,
        w: TimeWindow,
        chunk_secs: i64,
    ) -> Result<Bytes, ApiError> {
        self.dated_window_body(path, w, chunk_secs)
            .await
            .map(|(body, _)| body)
    }

    /// [`ApiClient::window_body`], with the earliest `Date` of its answers.
    async fn dated_window_body(
        &self,
        path: &str,
        w: TimeWindow,
        chunk_secs: i64,
    ) -> Result<Dated<Bytes>, ApiError> {
        check_window(w)?;
        let chunks = split_window(w, chunk_secs.min(MAX_EQUIPMENT_WINDOW_SECS));
        if let [one] = chunks[..] {
            return self.chunk_body(path, one).await;
        }
        // The next chunk asked for as soon as any is in (not once the
        // earliest is), put back in order after.
        let mut dated: Vec<(usize, Dated<Bytes>)> = stream::iter(chunks.into_iter().enumerate())
            .map(|(i, c)| async move { self.chunk_body(path, c).await.map(|d| (i, d)) })
            .buffer_unordered(self.config().concurrency())
            .try_collect()
            .await?;
        dated.sort_unstable_by_key(|(i, _)| *i);
        let dated: Vec<Dated<Bytes>> = dated.into_iter().map(|(_, d)| d).collect();
        let date_secs = dated.iter().filter_map(|(_, d)| *d).min();
        let bodies: Vec<Bytes> = dated.into_iter().map(|(b, _)| b).collect();
        let endpoint = format!("GET /{path}");
        // A year of history is tens of megabytes: joined off the async
        // threads, which keep serving the page's other requests.
        let merged = tokio::task::spawn_blocking(move || {
            merge_envelopes(&bodies, &endpoint).map(Bytes::from)
        })
        .await
        .map_err(|e| ApiError::Decode {
            endpoint: format!("GET /{path}"),
            message: e.to_string(),
            transient: false,
        })??;
        Ok((merged, date_secs))
    }

    async fn series<R: DeserializeOwned>(
        &self,
        id: i64,
        source: SeriesSource,
        w: TimeWindow,
    ) -> Result<SeriesData<R>, ApiError> {
        let body = self.series_body(id, source, w).await?;
        let endpoint = format!("GET /{}", Self::equipment_path(id, &source.path_segment()));
        decode_json::<Envelope<SeriesData<R>>>(&body, &endpoint).map(|e| e.data)
    }

    pub async fn activities(
        &self,
        id: i64,
        w: TimeWindow,
    ) -> Result<SeriesData<ActivityRow>, ApiError> {
        self.series(id, SeriesSource::Kind(DataKind::Activities), w)
            .await
    }

    pub async fn faults(&self, id: i64, w: TimeWindow) -> Result<SeriesData<FaultRow>, ApiError> {
        self.series(id, SeriesSource::Faults, w).await
    }

    pub async fn positions(
        &self,
        id: i64,
        w: TimeWindow,
    ) -> Result<SeriesData<PositionRow>, ApiError> {
        self.series(id, SeriesSource::Kind(DataKind::Positions), w)
            .await
    }

    pub async fn history(&self, id: i64, w: TimeWindow) -> Result<EquipmentHistory, ApiError> {
        let body = self.history_body(id, w).await?;
        let endpoint = format!("GET /{}", Self::equipment_path(id, "history"));
        decode_json::<Envelope<EquipmentHistory>>(&body, &endpoint).map(|e| e.data)
    }

    /// The raw body of `/{id}/history` (checked to be whole JSON), fetched
    /// in chunks of [`HISTORY_CHUNK_SECS`] and merged.
    pub async fn history_body(&self, id: i64, w: TimeWindow) -> Result<Bytes, ApiError> {
        self.window_body(&Self::equipment_path(id, "history"), w, HISTORY_CHUNK_SECS)
            .await
    }

    /// The raw body of `/{id}/{source}` for a window (an envelope), fetched
    /// in chunks of the source's length and merged.
    pub async fn series_body(
        &self,
        id: i64,
        source: SeriesSource,
        w: TimeWindow,
    ) -> Result<Bytes, ApiError> {
        let path = Self::equipment_path(id, &source.path_segment());
        self.window_body(&path, w, source.chunk_secs()).await
    }

    /// The rows of the given chunks, fetched `concurrency` at a time and
    /// yielded as they are answered (each with its window: callers put
    /// them in order), each with the service's time as it answered
    /// ([`RowsChunk::service_now`]). The next chunk is asked for as soon as
    /// any is in, not once the earliest is: with a service far away, an
    /// answer slower than the others would hold the next requests back a
    /// round trip's part each time. A chunk longer than the service
    /// accepts is itself fetched in chunks and merged.
    pub fn chunk_rows(
        &self,
        id: i64,
        source: SeriesSource,
        chunks: Vec<TimeWindow>,
    ) -> impl Stream<Item = (TimeWindow, Result<RowsChunk, ApiError>)> + '_ {
        let concurrency = self.config().concurrency();
        let path = Self::equipment_path(id, &source.path_segment());
        stream::iter(chunks)
            .map(move |w| self.chunk_rows_of(path.clone(), w))
            .buffer_unordered(concurrency)
    }

    /// The rows of one chunk (see [`ApiClient::chunk_rows`]).
    async fn chunk_rows_of(
        &self,
        path: String,
        w: TimeWindow,
    ) -> (TimeWindow, Result<RowsChunk, ApiError>) {
        let dated = if w.duration_secs() >= MAX_EQUIPMENT_WINDOW_SECS {
            self.dated_window_body(&path, w, MAX_EQUIPMENT_WINDOW_SECS)
                .await
                .and_then(|(body, date)| Ok((rows_chunk(&body, &format!("GET /{path}"))?, date)))
        } else {
            self.rows_chunk(&path, w).await
        };
        let rows = dated.map(|(mut chunk, date_secs)| {
            self.service_time().saw_rows(&chunk.rows);
            // Read now, not when the chunk leaves the stream: later answers
            // may have moved it on by then.
            chunk.service_now = date_secs.or_else(|| self.service_now());
            chunk
        });
        (w, rows)
    }

    // ------------------------------------------------------ fleet (deprecated)

    /// One page of the fleet history over `w`: the same page of each chunk
    /// of at most 31 days, each equipment's rows joined in order.
    pub async fn fleet_history_page(
        &self,
        w: TimeWindow,
        limit: i64,
        offset: i64,
    ) -> Result<FleetHistory, ApiError> {
        check_window(w)?;
        let pages: Vec<FleetHistory> = stream::iter(split_window(w, MAX_FLEET_WINDOW_SECS))
            .map(|chunk| {
                let mut query = Self::window_query(chunk);
                query.push(("limit", limit.clamp(1, MAX_PAGE).to_string()));
                query.push(("offset", offset.max(0).to_string()));
                async move {
                    let env: Envelope<FleetHistory> =
                        self.get_json("v2/fleet/equipments/history", &query).await?;
                    Ok::<_, ApiError>(env.data)
                }
            })
            .buffered(self.config().concurrency())
            .try_collect()
            .await?;
        let mut pages = pages.into_iter();
        let mut merged = pages.next().ok_or_else(|| ApiError::Decode {
            endpoint: "GET /v2/fleet/equipments/history".to_owned(),
            message: "no answer for the window".to_owned(),
            transient: false,
        })?;
        for page in pages {
            merged.until = page.until;
            for equipment in page.rows {
                match merged.rows.iter_mut().find(|e| e.id == equipment.id) {
                    Some(into) => join_equipment(into, equipment),
                    None => merged.rows.push(equipment),
                }
            }
        }
        Ok(merged)
    }

    /// Every page of the deprecated fleet history, 50 at a time, as a stream:
    /// each item tells how far the reading has come.
    pub fn fleet_history(
        &self,
        w: TimeWindow,
    ) -> impl Stream<Item = Result<FleetPage, ApiError>> + '_ {
        paged(move |offset| async move {
            let page = self.fleet_history_page(w, MAX_PAGE, offset).await?;
            Ok(ListPage {
                offset,
                total: i64::from(page.total),
                rows: page.rows,
            })
        })
    }
}

/// One equipment's rows of a later chunk after those of an earlier one.
fn join_equipment(into: &mut FleetEquipment, later: FleetEquipment) {
    fn join<R>(into: &mut super::model::Page<R>, later: super::model::Page<R>) {
        into.total += later.total;
        into.rows.extend(later.rows);
    }
    join(&mut into.positions, later.positions);
    join(&mut into.fault_codes, later.fault_codes);
    join(&mut into.fuel_remainings, later.fuel_remainings);
    join(&mut into.engine_conditions, later.engine_conditions);
    join(&mut into.daily_usages, later.daily_usages);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chunk_is_one_the_service_accepts() {
        let mut sources: Vec<SeriesSource> = DataKind::ALL
            .iter()
            .map(|k| SeriesSource::Kind(*k))
            .collect();
        sources.push(SeriesSource::Faults);
        for s in sources {
            assert!(s.chunk_secs() <= MAX_EQUIPMENT_WINDOW_SECS, "{s:?}");
            assert_eq!(s.chunk_secs() % SECS_PER_DAY, 0, "{s:?}: whole days");
        }
    }
}
