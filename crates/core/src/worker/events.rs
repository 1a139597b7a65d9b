//! What the worker answers: `Event`s, decoded and ready to show. Each
//! carries the request it answers and what it is about (machine, window),
//! so a reader can match it to what it asked.

use std::sync::Arc;

use super::fetch::{Fetched, Progress};
use super::messages::{ExportOutcome, OfflineSince, RequestId, Target};
use super::report_data::ReportSources;
use super::tokens::TokenPlace;
use crate::analysis::{MachineFigures, Report};
use crate::export::shown::ExportKey;
use crate::series::{PlotSeries, Track};
use fleetview_api::equipment::{EquipmentSnapshot, UserInfo};
use fleetview_api::model::{
    ActivityRow, DataSource, EquipmentHistory, EquipmentSummary, FaultRow, Integration,
};
use fleetview_api::time::TimeWindow;
use fleetview_api::{ApiError, AuthMethod, DataKind, SeriesSource};

/// What a catalog write did.
#[derive(Debug, Clone, PartialEq)]
pub enum CatalogChange {
    Created { id: Option<i64> },
    Updated { id: i64 },
    Deleted { id: i64 },
    StatusSet { id: i64, active: bool },
}

/// Where the fleet was discovered (D2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FleetSource {
    /// `GET /v2/fleet/equipments`, every machine.
    #[default]
    List,
    /// The service has no list (404): the deprecated fleet history, only
    /// the machines that reported in its window.
    DeprecatedHistory,
}

#[derive(Debug, Clone)]
pub enum Event {
    /// The worker now talks to this base URL; `token_place` says where its
    /// token or API key is kept, when it came from a profile; `user` who the
    /// API key belongs to, when it logged in with one.
    Connected {
        request: RequestId,
        base_url: String,
        token_place: Option<TokenPlace>,
        user: Option<UserInfo>,
    },
    /// A profile's token (or API key, as `method` says) was kept, there.
    TokenStored {
        request: RequestId,
        method: AuthMethod,
        token_place: TokenPlace,
    },
    /// A connection test's outcome: integrations counted and who the API
    /// key signed in as (if one was used), or the error.
    ConnectionTested {
        request: RequestId,
        result: Result<(usize, Option<UserInfo>), ApiError>,
    },
    Progress {
        target: Target,
        request: RequestId,
        progress: Progress,
    },
    /// Raw rows of a series window, merged from the cache and the service.
    Series {
        request: RequestId,
        equipment: i64,
        source: SeriesSource,
        fetched: Arc<Fetched>,
    },
    Faults {
        request: RequestId,
        equipment: i64,
        window: TimeWindow,
        rows: Vec<FaultRow>,
        offline: OfflineSince,
    },
    Activities {
        request: RequestId,
        equipment: i64,
        window: TimeWindow,
        /// Shared with the page's figures, which know it by its address.
        rows: Arc<Vec<ActivityRow>>,
        offline: OfflineSince,
    },
    Plot {
        request: RequestId,
        equipment: i64,
        kind: DataKind,
        window: TimeWindow,
        series: Arc<PlotSeries>,
        offline: OfflineSince,
    },
    Track {
        request: RequestId,
        equipment: i64,
        window: TimeWindow,
        track: Arc<Track>,
        offline: OfflineSince,
    },
    History {
        request: RequestId,
        equipment: i64,
        window: TimeWindow,
        history: Arc<EquipmentHistory>,
        /// The service's JSON, when asked for (`keep_body`).
        body: Option<Arc<Vec<u8>>>,
        offline: OfflineSince,
        /// Requests made to the service for it (0: from the cache).
        requests: usize,
    },
    /// One more page of the fleet: `done` of `total` read so far.
    FleetPage {
        request: RequestId,
        equipments: Vec<EquipmentSummary>,
        done: i64,
        total: i64,
        finished: bool,
        source: FleetSource,
    },
    /// The service could not be reached: the fleet as last discovered.
    FleetCached {
        request: RequestId,
        equipments: Vec<EquipmentSummary>,
        fetched_at: i64,
    },
    /// One more page of the fleet's snapshots: `done` of `total` so far.
    SnapshotPage {
        request: RequestId,
        snapshots: Vec<EquipmentSnapshot>,
        done: i64,
        total: i64,
        finished: bool,
    },
    /// The service could not be reached: the snapshots as last read.
    SnapshotsCached {
        request: RequestId,
        snapshots: Vec<EquipmentSnapshot>,
        fetched_at: i64,
    },
    /// One machine's figures over a window, for the fleet overview.
    Figures {
        request: RequestId,
        equipment: i64,
        window: TimeWindow,
        figures: MachineFigures,
        offline: OfflineSince,
    },
    /// A machine's window figures.
    Report {
        request: RequestId,
        equipment: i64,
        window: TimeWindow,
        report: Arc<Report>,
        offline: OfflineSince,
        /// What the machine page had read that they come from.
        sources: Option<ReportSources>,
    },
    /// The probe reached the service.
    Reachable { request: RequestId },
    /// An export ended; `what` it was (`faults (CSV)`).
    Exported {
        request: RequestId,
        key: ExportKey,
        what: String,
        outcome: ExportOutcome,
    },
    Catalog {
        request: RequestId,
        sources: Vec<DataSource>,
        integrations: Vec<Integration>,
        /// Read from the cache, the service being away: when it was read.
        offline: OfflineSince,
    },
    CatalogChanged {
        request: RequestId,
        change: CatalogChange,
    },
    Failed {
        target: Target,
        request: RequestId,
        error: ApiError,
    },
}

impl Event {
    pub fn request(&self) -> RequestId {
        match self {
            Event::Connected { request, .. }
            | Event::ConnectionTested { request, .. }
            | Event::TokenStored { request, .. }
            | Event::Progress { request, .. }
            | Event::Series { request, .. }
            | Event::Faults { request, .. }
            | Event::Activities { request, .. }
            | Event::Plot { request, .. }
            | Event::Track { request, .. }
            | Event::History { request, .. }
            | Event::FleetPage { request, .. }
            | Event::FleetCached { request, .. }
            | Event::SnapshotPage { request, .. }
            | Event::SnapshotsCached { request, .. }
            | Event::Figures { request, .. }
            | Event::Report { request, .. }
            | Event::Reachable { request }
            | Event::Exported { request, .. }
            | Event::Catalog { request, .. }
            | Event::CatalogChanged { request, .. }
            | Event::Failed { request, .. } => *request,
        }
    }
}
