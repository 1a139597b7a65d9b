//! Everything under `/v2/fleet/`: one equipment's series over a time
//! window (activities, faults, positions, history, any data kind), long
//! windows fetched as grid-aligned chunks with bounded concurrency, and the
//! deprecated fleet history read page by page.

use bytes::Bytes;
use futures_util::stream::{self, Stream, StreamExt};

use super::client::{ApiClient, check_json};
use super::data_kind::DataKind;
use super::error::ApiError;
use super::model::{
    ActivityRow, Envelope, EquipmentHistory, FaultRow, FleetEquipment, FleetHistory, PositionRow,
    SeriesData,
};
use super::time::{SECS_PER_DAY, TimeWindow, format_wire};

/// The service never returns more than this many equipments per page (D5).
pub const MAX_PAGE: i64 = 50;

/// One page of the deprecated fleet history, with where it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct FleetPage {
    pub offset: i64,
    pub total: i64,
    pub equipments: Vec<FleetEquipment>,
}

impl FleetPage {
    /// Equipments read so far, including this page.
    pub fn done(&self) -> i64 {
        self.offset + self.equipments.len() as i64
    }
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
    pub fn path_segment(self) -> String {
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

    /// Chunk length: a week of dense series, a year of daily ones.
    pub fn chunk_secs(self) -> i64 {
        match self {
            SeriesSource::Kind(k) if k.is_daily() => 366 * SECS_PER_DAY,
            SeriesSource::Faults => 92 * SECS_PER_DAY,
            _ => 7 * SECS_PER_DAY,
        }
    }
}

/// Splits `w` at multiples of `chunk_secs` since the epoch, so the same
/// chunks come back for overlapping windows (and can be cached as such).
/// Windows are inclusive, so chunks never share a second.
pub fn split_window(w: TimeWindow, chunk_secs: i64) -> Vec<TimeWindow> {
    let chunk_secs = chunk_secs.max(1);
    let mut out = Vec::new();
    let mut since = w.since;
    while since <= w.until {
        let grid_end = (since.div_euclid(chunk_secs) + 1) * chunk_secs - 1;
        let until = grid_end.min(w.until);
        out.push(TimeWindow { since, until });
        if until == i64::MAX {
            break;
        }
        since = until + 1;
    }
    out
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

    pub async fn activities(
        &self,
        id: i64,
        w: TimeWindow,
    ) -> Result<SeriesData<ActivityRow>, ApiError> {
        let env: Envelope<_> = self
            .get_json(
                &Self::equipment_path(id, "activities"),
                &Self::window_query(w),
            )
            .await?;
        Ok(env.data)
    }

    pub async fn faults(&self, id: i64, w: TimeWindow) -> Result<SeriesData<FaultRow>, ApiError> {
        let env: Envelope<_> = self
            .get_json(&Self::equipment_path(id, "faults"), &Self::window_query(w))
            .await?;
        Ok(env.data)
    }

    pub async fn positions(
        &self,
        id: i64,
        w: TimeWindow,
    ) -> Result<SeriesData<PositionRow>, ApiError> {
        let env: Envelope<_> = self
            .get_json(
                &Self::equipment_path(id, "positions"),
                &Self::window_query(w),
            )
            .await?;
        Ok(env.data)
    }

    pub async fn history(&self, id: i64, w: TimeWindow) -> Result<EquipmentHistory, ApiError> {
        let env: Envelope<_> = self
            .get_json(&Self::equipment_path(id, "history"), &Self::window_query(w))
            .await?;
        Ok(env.data)
    }

    /// The raw body of `/{id}/history` (checked to be whole JSON).
    pub async fn history_body(&self, id: i64, w: TimeWindow) -> Result<Bytes, ApiError> {
        self.get_with(
            &Self::equipment_path(id, "history"),
            &Self::window_query(w),
            |b, endpoint| {
                check_json(b, endpoint)?;
                Ok(Bytes::copy_from_slice(b))
            },
        )
        .await
    }

    /// The raw body of `/{id}/{source}` for a window (an envelope).
    pub async fn series_body(
        &self,
        id: i64,
        source: SeriesSource,
        w: TimeWindow,
    ) -> Result<Bytes, ApiError> {
        self.get_with(
            &Self::equipment_path(id, &source.path_segment()),
            &Self::window_query(w),
            |b, endpoint| {
                // Check it is whole JSON now, so a body cut short is retried.
                check_json(b, endpoint)?;
                Ok(Bytes::copy_from_slice(b))
            },
        )
        .await
    }

    /// Bodies of the given chunks, fetched `concurrency` at a time and
    /// yielded in chunk order.
    pub fn chunk_bodies(
        &self,
        id: i64,
        source: SeriesSource,
        chunks: Vec<TimeWindow>,
    ) -> impl Stream<Item = (TimeWindow, Result<Bytes, ApiError>)> + '_ {
        let concurrency = self.config().concurrency.max(1);
        stream::iter(chunks)
            .map(move |w| async move { (w, self.series_body(id, source, w).await) })
            .buffered(concurrency)
    }

    // ------------------------------------------------------ fleet (deprecated)

    pub async fn fleet_history_page(
        &self,
        w: TimeWindow,
        limit: i64,
        offset: i64,
    ) -> Result<FleetHistory, ApiError> {
        let mut query = Self::window_query(w);
        query.push(("limit", limit.clamp(1, MAX_PAGE).to_string()));
        query.push(("offset", offset.max(0).to_string()));
        let env: Envelope<FleetHistory> =
            self.get_json("v2/fleet/equipments/history", &query).await?;
        Ok(env.data)
    }

    /// Every page of the deprecated fleet history, 50 at a time, as a stream:
    /// each item tells how far the reading has come.
    pub fn fleet_history(
        &self,
        w: TimeWindow,
    ) -> impl Stream<Item = Result<FleetPage, ApiError>> + '_ {
        stream::try_unfold(Some((0i64, None::<i64>)), move |state| async move {
            let Some((offset, total)) = state else {
                return Ok(None);
            };
            if total.is_some_and(|t| offset >= t) {
                return Ok(None);
            }
            let page = self.fleet_history_page(w, MAX_PAGE, offset).await?;
            let total = i64::from(page.total);
            let count = page.rows.len() as i64;
            let next = if count == 0 {
                None
            } else {
                Some((offset + count, Some(total)))
            };
            Ok(Some((
                FleetPage {
                    offset,
                    total,
                    equipments: page.rows,
                },
                next,
            )))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_split_on_a_fixed_grid_without_overlap() {
        let day = SECS_PER_DAY;
        let w = TimeWindow {
            since: 3 * day + 100,
            until: 10 * day + 5,
        };
        let chunks = split_window(w, 2 * day);
        assert_eq!(chunks.first().map(|c| c.since), Some(w.since));
        assert_eq!(chunks.last().map(|c| c.until), Some(w.until));
        for pair in chunks.windows(2) {
            assert_eq!(pair[0].until + 1, pair[1].since);
            assert_eq!(pair[1].since % (2 * day), 0);
        }
        assert_eq!(
            split_window(TimeWindow { since: 5, until: 5 }, day).len(),
            1
        );
    }
}
