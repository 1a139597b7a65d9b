//! The context of one running command: its client, cache and target, how it
//! reports, and the work every kind of command shares (a series window
//! through the cache, decoding off the async threads).

use std::sync::Arc;

use super::events::Event;
use super::fetch::{self, Fetched, SeriesRequest, Writes};
use super::messages::{RequestId, Target};
use super::shared::Shared;
use crate::cache::Cache;
use fleetview_api::time::TimeWindow;
use fleetview_api::{ApiClient, ApiError, SeriesSource};

pub(crate) struct TaskCtx {
    pub(crate) client: Option<Arc<ApiClient>>,
    pub(crate) cache: Option<Arc<Cache>>,
    /// What the service's data is cached under (its base URL, or a
    /// stable name).
    pub(crate) cache_scope: String,
    pub(crate) shared: Shared,
    pub(crate) target: Target,
    pub(crate) id: RequestId,
    /// The task's cache writes, waited for when it has said what it had.
    pub(crate) writes: Writes,
}

impl TaskCtx {
    pub(crate) fn emit(&self, event: impl Into<Event>) {
        self.shared.emit(&self.target, self.id, event.into());
    }

    pub(crate) fn fail(&self, error: ApiError) {
        self.emit(Event::Failed {
            target: self.target.clone(),
            request: self.id,
            error,
        });
    }

    pub(crate) fn client(&self) -> Result<&ApiClient, ApiError> {
        self.client.as_deref().ok_or(ApiError::NotConnected)
    }

    /// A series window through the cache, reporting progress.
    pub(crate) async fn fetch(
        &self,
        equipment: i64,
        source: SeriesSource,
        window: TimeWindow,
        offline: bool,
    ) -> Result<Fetched, ApiError> {
        self.fetch_each(equipment, source, window, offline, |_, _| {})
            .await
    }

    /// [`Self::fetch`], handing each piece's rows to `on_piece` as soon as
    /// they are had.
    pub(crate) async fn fetch_each(
        &self,
        equipment: i64,
        source: SeriesSource,
        window: TimeWindow,
        offline: bool,
        on_piece: impl FnMut(TimeWindow, &bytes::Bytes),
    ) -> Result<Fetched, ApiError> {
        let req = SeriesRequest {
            equipment,
            source,
            window,
            offline,
        };
        fetch::fetch_series(
            self.client.as_deref(),
            self.cache.as_ref(),
            &self.writes,
            &self.cache_scope,
            req,
            |progress| {
                self.emit(Event::Progress {
                    target: self.target.clone(),
                    request: self.id,
                    progress,
                })
            },
            on_piece,
        )
        .await
    }
}

/// A cache read that failed is logged and treated as a miss.
pub(crate) fn read_or_warn<T>(r: Result<Option<T>, crate::cache::CacheError>) -> Option<T> {
    r.unwrap_or_else(|e| {
        tracing::warn!("cache read failed: {e}");
        None
    })
}

/// Decoding and indexing a large window takes CPU time: it runs on a
/// blocking thread so the async threads keep serving other requests.
pub(crate) async fn decode_off_thread<T: Send + 'static>(
    endpoint: &str,
    work: impl FnOnce() -> Result<T, serde_json::Error> + Send + 'static,
) -> Result<T, ApiError> {
    let decode_error = |message: String| ApiError::Decode {
        endpoint: endpoint.to_owned(),
        message,
        transient: false,
    };
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| decode_error(e.to_string()))?
        .map_err(|e| decode_error(e.to_string()))
}
