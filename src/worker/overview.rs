//! The fleet overview's reads: the whole fleet's snapshots page by page
//! (kept for offline starts, as the fleet list is), and one machine's
//! window figures from its `/history` and `/faults` through the cache,
//! computed here so the UI thread only copies them.

use futures_util::StreamExt;

use super::events::Event;
use super::task::{TaskCtx, decode_off_thread, read_or_warn};
use crate::analysis::MachineFigures;
use crate::api::equipment::EquipmentSnapshot;
use crate::api::model::{Envelope, EquipmentHistory, FaultRow};
use crate::api::time::{TimeWindow, now_secs};
use crate::api::{ApiError, SeriesSource};
use crate::cache::CacheKey;

/// The snapshots last read, kept in the cache under this kind.
const SNAPSHOTS_KIND: &str = "fleet/snapshots";
const SNAPSHOTS_WINDOW: TimeWindow = TimeWindow { since: 0, until: 0 };

impl TaskCtx {
    /// Reads every page of the fleet's snapshots, each sent as it comes.
    pub async fn fetch_snapshots(&self) -> Result<(), ApiError> {
        let client = self.client()?;
        let mut pages = Box::pin(client.snapshots(""));
        let mut all: Vec<EquipmentSnapshot> = Vec::new();
        let mut last: Option<(Vec<EquipmentSnapshot>, i64, i64)> = None;
        while let Some(page) = pages.next().await {
            let page = match page {
                Ok(p) => p,
                Err(e) if e.is_unreachable() && all.is_empty() => {
                    return self.snapshots_as_kept(e);
                }
                Err(e) => return Err(e),
            };
            let (done, total) = (page.done(), page.total);
            all.extend(page.rows.iter().cloned());
            // Each page goes once the next is known, so the last one says
            // the reading is over.
            if let Some((snapshots, done, total)) = last.replace((page.rows, done, total)) {
                self.emit(Event::SnapshotPage {
                    request: self.id,
                    snapshots,
                    done,
                    total,
                    finished: false,
                });
            }
        }
        self.keep_snapshots(&all);
        let (snapshots, done, total) = last.unwrap_or_default();
        self.emit(Event::SnapshotPage {
            request: self.id,
            snapshots,
            done,
            total,
            finished: true,
        });
        Ok(())
    }

    fn snapshots_key(&self) -> CacheKey {
        CacheKey::new(&self.cache_scope, 0, SNAPSHOTS_KIND)
    }

    fn snapshots_as_kept(&self, e: ApiError) -> Result<(), ApiError> {
        let kept = self
            .cache
            .as_deref()
            .and_then(|c| read_or_warn(c.get_document(&self.snapshots_key(), SNAPSHOTS_WINDOW)));
        let Some(doc) = kept else { return Err(e) };
        let snapshots = serde_json::from_slice(&doc.rows_json).map_err(|d| ApiError::Decode {
            endpoint: "cached snapshots".into(),
            message: d.to_string(),
            transient: false,
        })?;
        tracing::warn!("{e}; showing the snapshots as last read");
        self.emit(Event::SnapshotsCached {
            request: self.id,
            snapshots,
            fetched_at: doc.fetched_at,
        });
        Ok(())
    }

    fn keep_snapshots(&self, all: &[EquipmentSnapshot]) {
        let Some(c) = self.cache.as_deref() else {
            return;
        };
        let stored = serde_json::to_vec(all)
            .map_err(|e| e.to_string())
            .and_then(|json| {
                c.put_snapshot(&self.snapshots_key(), SNAPSHOTS_WINDOW, &json, now_secs())
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = stored {
            tracing::warn!("could not keep the snapshots for offline use: {e}");
        }
    }

    /// One machine's figures over a window.
    pub async fn fetch_figures(&self, equipment: i64, window: TimeWindow) -> Result<(), ApiError> {
        let (history, faults) = futures_util::future::join(
            self.history_body(equipment, window, false),
            self.fetch(equipment, SeriesSource::Faults, window, false),
        )
        .await;
        let (body, history_offline, _) = history?;
        let faults = faults?;
        let offline = history_offline.or(faults.offline_since());
        let figures = decode_off_thread("history", move || {
            let history = serde_json::from_slice::<Envelope<EquipmentHistory>>(&body)?.data;
            let faults = faults.typed::<FaultRow>()?;
            Ok(MachineFigures::compute(&history, &faults, window))
        })
        .await?;
        self.emit(Event::Figures {
            request: self.id,
            equipment,
            window,
            figures,
            offline,
        });
        Ok(())
    }
}
