//! What the worker answers: `Event`s, decoded and ready to show, grouped by
//! the feature they feed (as the app's actions are), so each feature of the
//! app takes its own. Each carries the request it answers and what it is
//! about (machine, window), so a reader can match it to what it asked.

use std::sync::Arc;

use super::fetch::{Fetched, Progress};
use super::messages::{ExportOutcome, OfflineSince, RequestId, Target};
use super::report_data::ReportSources;
use super::report_job::ReportWritten;
pub use super::service_events::ServiceEvent;
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

/// An answer of the worker: one feature's event, or what any command can
/// say (how far it has come, that it failed).
#[derive(Debug, Clone)]
pub enum Event {
    Connection(ConnectionEvent),
    Fleet(FleetEvent),
    Overview(OverviewEvent),
    Machine(MachineEvent),
    Timeline(TimelineEvent),
    Figures(FiguresEvent),
    Catalog(CatalogEvent),
    Export(ExportEvent),
    Service(ServiceEvent),
    Progress {
        target: Target,
        request: RequestId,
        progress: Progress,
    },
    Failed {
        target: Target,
        request: RequestId,
        error: ApiError,
    },
}

/// The service in use: logging in, keeping its secret, testing it.
#[derive(Debug, Clone)]
pub enum ConnectionEvent {
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
    Tested {
        request: RequestId,
        result: Result<(usize, Option<UserInfo>), ApiError>,
    },
    /// The probe reached the service.
    Reachable { request: RequestId },
}

/// The list of the fleet's machines.
#[derive(Debug, Clone)]
pub enum FleetEvent {
    /// One more page of the fleet: `done` of `total` read so far.
    Page {
        request: RequestId,
        equipments: Vec<EquipmentSummary>,
        done: i64,
        total: i64,
        finished: bool,
        source: FleetSource,
    },
    /// The service could not be reached: the fleet as last discovered.
    Cached {
        request: RequestId,
        equipments: Vec<EquipmentSummary>,
        fetched_at: i64,
    },
}

/// The fleet overview: every machine's snapshot and window figures.
#[derive(Debug, Clone)]
pub enum OverviewEvent {
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
        /// What could not be read after its retries (the operating hours:
        /// no counter reset is flagged without them).
        unread: Vec<Unread>,
    },
    /// Read from the cache alone, which does not hold the machine's window.
    NotCached {
        request: RequestId,
        equipment: i64,
        window: TimeWindow,
    },
    /// One machine's figures over the attention strip's look-back; `None`:
    /// read from the cache alone, which does not hold it.
    LookBack {
        request: RequestId,
        equipment: i64,
        window: TimeWindow,
        figures: Option<MachineFigures>,
        offline: OfflineSince,
    },
}

/// A machine's rows over a window: its tables, and raw rows for exports.
#[derive(Debug, Clone)]
pub enum MachineEvent {
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
}

/// What the map and the plots of a machine's window show.
#[derive(Debug, Clone)]
pub enum TimelineEvent {
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
}

/// A machine's window figures.
#[derive(Debug, Clone)]
pub enum FiguresEvent {
    Report {
        request: RequestId,
        equipment: i64,
        window: TimeWindow,
        report: Arc<Report>,
        offline: OfflineSince,
        /// What the machine page had read that they come from.
        sources: Option<ReportSources>,
        /// What they come from that could not be read after its retries:
        /// the figures go without it, and the page says so.
        unread: Vec<Unread>,
    },
}

/// A part of what figures come from that could not be read (after its
/// retries), and why; the figures are computed without it.
#[derive(Debug, Clone, PartialEq)]
pub struct Unread {
    pub part: FiguresPart,
    pub error: fleetview_api::ApiError,
}

impl Unread {
    /// A part that failed, the service out of reach too: with nothing of
    /// it cached, nothing else says the part is missing (the page is
    /// marked offline only when the cache answered). None when signed out:
    /// the cache alone is read then, and the page says so.
    pub(crate) fn of(part: FiguresPart, error: fleetview_api::ApiError) -> Option<Self> {
        (error != fleetview_api::ApiError::NotConnected).then_some(Self { part, error })
    }
}

/// What window figures read besides the page's tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FiguresPart {
    /// `dailyIdleFuel`: the working/idle split of the fuel.
    IdleFuel,
    /// `cumulativeOperatingHours`: the counter's resets and gaps.
    OperatingHours,
    /// The history's positions: the events found from positions.
    Positions,
}

impl FiguresPart {
    /// What it is, as a sentence starts with it.
    pub fn describe(self) -> &'static str {
        match self {
            FiguresPart::IdleFuel => "The daily idle fuel",
            FiguresPart::OperatingHours => "The operating hours",
            FiguresPart::Positions => "The positions",
        }
    }

    /// What the figures go without when it could not be read.
    pub fn loss(self) -> &'static str {
        match self {
            FiguresPart::IdleFuel => "fuel is not split into working and idle",
            FiguresPart::OperatingHours => "counter resets are not flagged",
            FiguresPart::Positions => "no events are found from positions",
        }
    }
}

/// Data sources and integrations.
#[derive(Debug, Clone)]
pub enum CatalogEvent {
    Loaded {
        request: RequestId,
        sources: Vec<DataSource>,
        integrations: Vec<Integration>,
        /// Read from the cache, the service being away: when it was read.
        offline: OfflineSince,
    },
    Changed {
        request: RequestId,
        change: CatalogChange,
    },
}

/// Files written from what the app shows, and reports.
#[derive(Debug, Clone)]
pub enum ExportEvent {
    /// An export ended; `what` it was (`faults (CSV)`).
    Exported {
        request: RequestId,
        key: ExportKey,
        what: String,
        outcome: ExportOutcome,
    },
    /// A report was written (or could not be); `what` it was (`the fleet
    /// report (HTML)`). `outcome` is `None` when the document came back
    /// in `written` rather than to a file.
    Reported {
        request: RequestId,
        what: String,
        outcome: Option<ExportOutcome>,
        written: Box<ReportWritten>,
    },
}

impl Event {
    pub fn request(&self) -> RequestId {
        match self {
            Event::Connection(e) => e.request(),
            Event::Fleet(e) => e.request(),
            Event::Overview(e) => e.request(),
            Event::Machine(e) => e.request(),
            Event::Timeline(e) => e.request(),
            Event::Figures(e) => e.request(),
            Event::Catalog(e) => e.request(),
            Event::Export(e) => e.request(),
            Event::Service(e) => e.request(),
            Event::Progress { request, .. } | Event::Failed { request, .. } => *request,
        }
    }
}

impl ConnectionEvent {
    pub(crate) fn request(&self) -> RequestId {
        match self {
            Self::Connected { request, .. }
            | Self::TokenStored { request, .. }
            | Self::Tested { request, .. }
            | Self::Reachable { request } => *request,
        }
    }
}

impl FleetEvent {
    pub(crate) fn request(&self) -> RequestId {
        match self {
            Self::Page { request, .. } | Self::Cached { request, .. } => *request,
        }
    }
}

impl OverviewEvent {
    pub(crate) fn request(&self) -> RequestId {
        match self {
            Self::SnapshotPage { request, .. }
            | Self::SnapshotsCached { request, .. }
            | Self::Figures { request, .. }
            | Self::NotCached { request, .. }
            | Self::LookBack { request, .. } => *request,
        }
    }
}

impl MachineEvent {
    pub(crate) fn request(&self) -> RequestId {
        match self {
            Self::Series { request, .. }
            | Self::Faults { request, .. }
            | Self::Activities { request, .. }
            | Self::History { request, .. } => *request,
        }
    }
}

impl TimelineEvent {
    pub(crate) fn request(&self) -> RequestId {
        match self {
            Self::Plot { request, .. } | Self::Track { request, .. } => *request,
        }
    }
}

impl FiguresEvent {
    pub(crate) fn request(&self) -> RequestId {
        match self {
            Self::Report { request, .. } => *request,
        }
    }
}

impl CatalogEvent {
    pub(crate) fn request(&self) -> RequestId {
        match self {
            Self::Loaded { request, .. } | Self::Changed { request, .. } => *request,
        }
    }
}

impl ExportEvent {
    pub(crate) fn request(&self) -> RequestId {
        match self {
            Self::Exported { request, .. } | Self::Reported { request, .. } => *request,
        }
    }
}

/// Each feature's event is an event (tasks emit their feature's own).
macro_rules! feature_event {
    ($($feature:ident => $variant:ident),* $(,)?) => {
        $(impl From<$feature> for Event {
            fn from(e: $feature) -> Self {
                Event::$variant(e)
            }
        })*
    };
}

feature_event! {
    ConnectionEvent => Connection,
    ServiceEvent => Service,
    FleetEvent => Fleet,
    OverviewEvent => Overview,
    MachineEvent => Machine,
    TimelineEvent => Timeline,
    FiguresEvent => Figures,
    CatalogEvent => Catalog,
    ExportEvent => Export,
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::{ApiError, NetworkCause};

    #[test]
    fn a_part_out_of_reach_is_unread_but_not_when_signed_out() {
        let away = ApiError::Network {
            endpoint: "GET /dailyIdleFuel".to_owned(),
            message: "connection refused".to_owned(),
            refused: true,
            address: "127.0.0.1:9".to_owned(),
            cause: NetworkCause::Refused,
        };
        let unread = Unread::of(FiguresPart::IdleFuel, away.clone());
        assert_eq!(
            unread,
            Some(Unread {
                part: FiguresPart::IdleFuel,
                error: away
            })
        );
        assert_eq!(
            Unread::of(FiguresPart::IdleFuel, ApiError::NotConnected),
            None
        );
    }
}
