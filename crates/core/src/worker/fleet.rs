//! Fleet discovery (D2): pages through the equipment list, or, when the
//! service has none (404), through the deprecated fleet history, saying so;
//! then keeps the list for offline starts. With the service away, the list
//! last kept.

use futures_util::stream::{BoxStream, StreamExt};

use super::events::{FleetEvent, FleetSource};
use super::task::TaskCtx;
use fleetview_api::ApiError;
use fleetview_api::fleet::ListPage;
use fleetview_api::model::EquipmentSummary;
use fleetview_api::time::TimeWindow;

/// The fleet as last discovered, kept in the cache under this kind.
const FLEET_KIND: &str = "fleet/latest";

/// A page of machines, how many are read so far and how many in all.
type Found = Result<(Vec<EquipmentSummary>, i64, i64), ApiError>;

impl TaskCtx {
    /// Discovers the fleet; `window` is what the deprecated fleet history
    /// is read over if the service has no equipment list.
    pub(crate) async fn discover_fleet(&self, window: TimeWindow) -> Result<(), ApiError> {
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
                self.emit(FleetEvent::Page {
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
        self.keep_list(FLEET_KIND, "the fleet", &all);
        let (equipments, done, total) = last.unwrap_or_default();
        self.emit(FleetEvent::Page {
            request: self.id,
            equipments,
            done,
            total,
            finished: true,
            source,
        });
        Ok(())
    }

    /// The service is away: the fleet as last discovered, if kept.
    fn fleet_as_kept(&self, e: ApiError) -> Result<(), ApiError> {
        if self.send_kept_fleet(&self.cache_scope)? {
            tracing::warn!("{e}; showing the fleet as last discovered");
            Ok(())
        } else {
            Err(e)
        }
    }

    /// The fleet as last discovered of the service cached under `scope`,
    /// if kept; nothing said otherwise.
    pub(crate) fn kept_fleet(&self, scope: &str) -> Result<(), ApiError> {
        self.send_kept_fleet(scope).map(|_| ())
    }

    /// Sends the fleet as last discovered; whether one was kept.
    fn send_kept_fleet(&self, scope: &str) -> Result<bool, ApiError> {
        let Some((equipments, fetched_at)) = self.kept_list_of(scope, FLEET_KIND, "fleet")? else {
            return Ok(false);
        };
        self.emit(FleetEvent::Cached {
            request: self.id,
            equipments,
            fetched_at,
        });
        Ok(true)
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
