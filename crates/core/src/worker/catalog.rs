//! The integration catalog: read from the service and kept for offline use;
//! with the service away, the catalog as last read (marked as such). And
//! the writes on its integrations, each said in one event.

use serde::{Deserialize, Serialize};

use super::events::{CatalogChange, CatalogEvent};
use super::task::{TaskCtx, read_or_warn};
use crate::cache::CacheKey;
use fleetview_api::ApiError;
use fleetview_api::model::{CreateIntegration, DataSource, Integration, UpdateIntegration};
use fleetview_api::time::{TimeWindow, now_secs};

/// The catalog as last read, kept in the cache under this kind.
const CATALOG_SNAPSHOT_KIND: &str = "catalog/latest";
const CATALOG_SNAPSHOT_WINDOW: TimeWindow = TimeWindow { since: 0, until: 0 };

/// What is kept: names and codes only (the service never lists credential
/// values).
#[derive(Serialize, Deserialize)]
struct Kept {
    sources: Vec<DataSource>,
    integrations: Vec<Integration>,
}

impl TaskCtx {
    pub(crate) async fn load_catalog(&self) -> Result<(), ApiError> {
        let key = CacheKey::new(&self.cache_scope, 0, CATALOG_SNAPSHOT_KIND);
        let cache = self.cache.as_deref();
        let read = match self.client() {
            Ok(client) => tokio::try_join!(client.data_sources(), client.integrations()),
            Err(e) => Err(e),
        };
        match read {
            Ok((sources, integrations)) => {
                if let Some(c) = cache {
                    let kept = Kept {
                        sources: sources.clone(),
                        integrations: integrations.clone(),
                    };
                    let stored = serde_json::to_vec(&kept)
                        .map_err(|e| e.to_string())
                        .and_then(|json| {
                            match c.put_snapshot(&key, CATALOG_SNAPSHOT_WINDOW, &json, now_secs()) {
                                // One the cache told of is not logged again.
                                Err(e) if !e.is_told() => Err(e.to_string()),
                                _ => Ok(()),
                            }
                        });
                    if let Err(e) = stored {
                        tracing::warn!("could not keep the integrations for offline use: {e}");
                    }
                }
                self.emit(CatalogEvent::Loaded {
                    request: self.id,
                    sources,
                    integrations,
                    offline: None,
                });
                Ok(())
            }
            Err(e) if e.is_unreachable() || matches!(e, ApiError::NotConnected) => {
                let doc =
                    cache.and_then(|c| read_or_warn(c.get_document(&key, CATALOG_SNAPSHOT_WINDOW)));
                let Some(doc) = doc else { return Err(e) };
                let kept: Kept =
                    serde_json::from_slice(&doc.rows_json).map_err(|d| ApiError::Decode {
                        endpoint: "cached integrations".into(),
                        message: d.to_string(),
                        transient: false,
                    })?;
                tracing::warn!("{e}; showing the integrations as last read");
                self.emit(CatalogEvent::Loaded {
                    request: self.id,
                    sources: kept.sources,
                    integrations: kept.integrations,
                    offline: Some(doc.fetched_at),
                });
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}

impl TaskCtx {
    pub(crate) async fn create_integration(&self, body: CreateIntegration) -> Result<(), ApiError> {
        let resp = self.client()?.create_integration(&body).await?;
        self.catalog_changed(CatalogChange::Created {
            id: resp.integration_id,
        });
        Ok(())
    }

    pub(crate) async fn update_integration(
        &self,
        id: i64,
        body: UpdateIntegration,
    ) -> Result<(), ApiError> {
        self.client()?.update_integration(id, &body).await?;
        self.catalog_changed(CatalogChange::Updated { id });
        Ok(())
    }

    pub(crate) async fn delete_integration(&self, id: i64) -> Result<(), ApiError> {
        self.client()?.delete_integration(id).await?;
        self.catalog_changed(CatalogChange::Deleted { id });
        Ok(())
    }

    pub(crate) async fn set_integration_active(
        &self,
        id: i64,
        active: bool,
    ) -> Result<(), ApiError> {
        let client = self.client()?;
        if active {
            client.activate_integration(id).await?;
        } else {
            client.deactivate_integration(id).await?;
        }
        self.catalog_changed(CatalogChange::StatusSet { id, active });
        Ok(())
    }

    fn catalog_changed(&self, change: CatalogChange) {
        self.emit(CatalogEvent::Changed {
            request: self.id,
            change,
        });
    }
}
