//! Fleet discovery: pages through the deprecated fleet history (D2), then
//! keeps the list for offline starts; with the service away, the list last
//! kept.

use futures_util::StreamExt;

use super::events::Event;
use super::task::{TaskCtx, read_or_warn};
use crate::api::ApiError;
use crate::api::model::EquipmentSummary;
use crate::api::time::{TimeWindow, now_secs};
use crate::cache::CacheKey;

/// The fleet as last discovered, kept in the cache under this kind.
const FLEET_SNAPSHOT_KIND: &str = "fleet/latest";
const FLEET_SNAPSHOT_WINDOW: TimeWindow = TimeWindow { since: 0, until: 0 };

impl TaskCtx {
    pub async fn discover_fleet(&self, window: TimeWindow) -> Result<(), ApiError> {
        let id = self.id;
        let key = CacheKey::new(&self.cache_scope, 0, FLEET_SNAPSHOT_KIND);
        let cache = self.cache.as_deref();
        let client = self.client()?;
        let mut pages = std::pin::pin!(client.fleet_history(window));
        let mut all: Vec<EquipmentSummary> = Vec::new();
        let mut last: Option<(Vec<EquipmentSummary>, i64, i64)> = None;
        while let Some(page) = pages.next().await {
            let page = match page {
                Ok(p) => p,
                Err(e) if e.is_unreachable() => {
                    let kept = cache
                        .and_then(|c| read_or_warn(c.get_document(&key, FLEET_SNAPSHOT_WINDOW)));
                    let Some(doc) = kept else { return Err(e) };
                    let equipments =
                        serde_json::from_slice(&doc.rows_json).map_err(|d| ApiError::Decode {
                            endpoint: "cached fleet".into(),
                            message: d.to_string(),
                            transient: false,
                        })?;
                    tracing::warn!("{e}; showing the fleet as last discovered");
                    self.emit(Event::FleetCached {
                        request: id,
                        equipments,
                        fetched_at: doc.fetched_at,
                    });
                    return Ok(());
                }
                Err(e) => return Err(e),
            };
            let (done, total) = (page.done(), page.total);
            let equipments: Vec<EquipmentSummary> = page
                .equipments
                .into_iter()
                .map(EquipmentSummary::from)
                .collect();
            all.extend(equipments.iter().cloned());
            if let Some((equipments, done, total)) = last.replace((equipments, done, total)) {
                self.emit(Event::FleetPage {
                    request: id,
                    equipments,
                    done,
                    total,
                    finished: false,
                });
            }
        }
        if let Some(c) = cache {
            let stored = serde_json::to_vec(&all)
                .map_err(|e| e.to_string())
                .and_then(|json| {
                    c.put_snapshot(&key, FLEET_SNAPSHOT_WINDOW, &json, now_secs())
                        .map_err(|e| e.to_string())
                });
            if let Err(e) = stored {
                tracing::warn!("could not keep the fleet for offline use: {e}");
            }
        }
        let (equipments, done, total) = last.unwrap_or_default();
        self.emit(Event::FleetPage {
            request: id,
            equipments,
            done,
            total,
            finished: true,
        });
        Ok(())
    }
}
