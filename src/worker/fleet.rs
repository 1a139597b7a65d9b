//! Fleet discovery (D2): pages through the equipment list, or, when the
//! service has none (404), through the deprecated fleet history, saying so;
//! then keeps the list for offline starts. With the service away, the list
//! last kept.

use futures_util::stream::{BoxStream, StreamExt};

use super::events::{Event, FleetSource};
use super::task::{TaskCtx, read_or_warn};
use crate::api::ApiError;
use crate::api::fleet::ListPage;
use crate::api::model::EquipmentSummary;
use crate::api::time::{TimeWindow, now_secs};
use crate::cache::CacheKey;

/// The fleet as last discovered, kept in the cache under this kind.
const FLEET_SNAPSHOT_KIND: &str = "fleet/latest";
const FLEET_SNAPSHOT_WINDOW: TimeWindow = TimeWindow { since: 0, until: 0 };

/// A page of machines, how many are read so far and how many in all.
type Found = Result<(Vec<EquipmentSummary>, i64, i64), ApiError>;

impl TaskCtx {
    /// Discovers the fleet; `window` is what the deprecated fleet history
    /// is read over if the service has no equipment list.
    pub async fn discover_fleet(&self, window: TimeWindow) -> Result<(), ApiError> {
        let client = self.client()?;
        let mut source = FleetSource::List;
        let mut pages: BoxStream<'_, Found> = client.equipments("").map(|p| p.map(found)).boxed();
        let mut first = pages.next().await;
        if let Some(Err(ApiError::NotFound { message, .. })) = &first {
            tracing::warn!(
                "no equipment list at this service ({message}); \
                 discovering the fleet through the deprecated fleet history"
            );
            source = FleetSource::DeprecatedHistory;
            pages = client.fleet_history(window).map(|p| p.map(found)).boxed();
            first = pages.next().await;
        }
        let mut all: Vec<EquipmentSummary> = Vec::new();
        let mut last: Option<(Vec<EquipmentSummary>, i64, i64)> = None;
        let mut next = first;
        while let Some(page) = next {
            let (equipments, done, total) = match page {
                Ok(p) => p,
                Err(e) if e.is_unreachable() => return self.fleet_as_kept(e),
                Err(e) => return Err(e),
            };
            all.extend(equipments.iter().cloned());
            // Each page is sent once the next one is known, so the last
            // one says the discovery is finished.
            if let Some((equipments, done, total)) = last.replace((equipments, done, total)) {
                self.emit(Event::FleetPage {
                    request: self.id,
                    equipments,
                    done,
                    total,
                    finished: false,
                    source,
                });
            }
            next = pages.next().await;
        }
        self.keep_fleet(&all);
        let (equipments, done, total) = last.unwrap_or_default();
        self.emit(Event::FleetPage {
            request: self.id,
            equipments,
            done,
            total,
            finished: true,
            source,
        });
        Ok(())
    }

    fn cache_key(&self) -> CacheKey {
        CacheKey::new(&self.cache_scope, 0, FLEET_SNAPSHOT_KIND)
    }

    /// The service is away: the fleet as last discovered, if kept.
    fn fleet_as_kept(&self, e: ApiError) -> Result<(), ApiError> {
        let kept = self
            .cache
            .as_deref()
            .and_then(|c| read_or_warn(c.get_document(&self.cache_key(), FLEET_SNAPSHOT_WINDOW)));
        let Some(doc) = kept else { return Err(e) };
        let equipments = serde_json::from_slice(&doc.rows_json).map_err(|d| ApiError::Decode {
            endpoint: "cached fleet".into(),
            message: d.to_string(),
            transient: false,
        })?;
        tracing::warn!("{e}; showing the fleet as last discovered");
        self.emit(Event::FleetCached {
            request: self.id,
            equipments,
            fetched_at: doc.fetched_at,
        });
        Ok(())
    }

    /// Keeps the fleet for offline starts.
    fn keep_fleet(&self, all: &[EquipmentSummary]) {
        let Some(c) = self.cache.as_deref() else {
            return;
        };
        let stored = serde_json::to_vec(all)
            .map_err(|e| e.to_string())
            .and_then(|json| {
                c.put_snapshot(&self.cache_key(), FLEET_SNAPSHOT_WINDOW, &json, now_secs())
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = stored {
            tracing::warn!("could not keep the fleet for offline use: {e}");
        }
    }
}

/// A page's machines as the app lists them, with how far the reading is.
fn found<R>(page: ListPage<R>) -> (Vec<EquipmentSummary>, i64, i64)
where
    EquipmentSummary: From<R>,
{
    let (done, total) = (page.done(), page.total);
    let list = page.rows.into_iter().map(EquipmentSummary::from).collect();
    (list, done, total)
}
