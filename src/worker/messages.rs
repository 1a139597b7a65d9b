//! What the UI and the worker say to each other. The UI sends `Command`s and
//! drains `Event`s once a frame; it sees no HTTP, SQL or async types.

use std::sync::Arc;

use super::fetch::{Fetched, Progress};
use super::tokens::TokenPlace;
use crate::api::client::FleetPage;
use crate::api::model::SecretValue;
use crate::api::model::{
    CreateIntegration, DataSource, EquipmentHistory, Integration, UpdateIntegration,
};
use crate::api::time::TimeWindow;
use crate::api::{ApiError, ClientConfig, DataKind, SeriesSource};
use crate::series::{PlotSeries, Track};

/// Numbers each command; events carry the number of the command they answer.
pub type RequestId = u64;

/// What a command is for. A newer command for the same target cancels the
/// older one: only the newest one's events arrive.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    Connection,
    ConnectionTest,
    Fleet,
    Series(SeriesSource),
    /// A data kind decoded for plotting.
    Plot(DataKind),
    /// Positions decoded into a map track.
    Track,
    History,
    Catalog,
    /// A catalog write, one per integration (or per form for creates).
    CatalogWrite(String),
}

#[derive(Debug, Clone)]
pub enum Command {
    /// Talk to this service from now on (base URL, token, options).
    Connect(ClientConfig),
    /// Log in (the sandbox's `/auth/login`, D1) and use the token from now on.
    Login {
        username: String,
        password: SecretValue,
    },
    /// Connect to a saved profile: keep `token` if given (keychain or
    /// memory), otherwise use the one kept for this base URL.
    UseProfile {
        config: ClientConfig,
        token: Option<SecretValue>,
    },
    /// One authenticated request to see whether a service answers.
    TestConnection {
        config: ClientConfig,
        token: Option<SecretValue>,
    },
    /// Fetch a series through the cache.
    FetchSeries {
        equipment: i64,
        source: SeriesSource,
        window: TimeWindow,
        offline: bool,
    },
    /// A data kind through the cache, decoded and indexed for plotting.
    FetchPlot {
        equipment: i64,
        kind: DataKind,
        window: TimeWindow,
    },
    /// Positions through the cache, projected into a map track.
    FetchTrack {
        equipment: i64,
        window: TimeWindow,
    },
    /// The single-equipment history (identity, daily usage, ...).
    FetchHistory {
        equipment: i64,
        window: TimeWindow,
    },
    /// Discover the fleet through the deprecated fleet history (D2).
    DiscoverFleet {
        window: TimeWindow,
    },
    /// Data sources and integrations.
    LoadCatalog,
    CreateIntegration(CreateIntegration),
    UpdateIntegration {
        id: i64,
        body: UpdateIntegration,
    },
    DeleteIntegration {
        id: i64,
    },
    SetIntegrationActive {
        id: i64,
        active: bool,
    },
    /// Stop whatever runs for a target.
    Cancel(Target),
}

impl Command {
    pub fn target(&self) -> Target {
        match self {
            Command::Connect(_) | Command::Login { .. } | Command::UseProfile { .. } => {
                Target::Connection
            }
            Command::TestConnection { .. } => Target::ConnectionTest,
            Command::FetchSeries { source, .. } => Target::Series(*source),
            Command::FetchPlot { kind, .. } => Target::Plot(*kind),
            Command::FetchTrack { .. } => Target::Track,
            Command::FetchHistory { .. } => Target::History,
            Command::DiscoverFleet { .. } => Target::Fleet,
            Command::LoadCatalog => Target::Catalog,
            Command::CreateIntegration(_) => Target::CatalogWrite("create".into()),
            Command::UpdateIntegration { id, .. }
            | Command::DeleteIntegration { id }
            | Command::SetIntegrationActive { id, .. } => Target::CatalogWrite(id.to_string()),
            Command::Cancel(t) => t.clone(),
        }
    }
}

/// What a catalog write did.
#[derive(Debug, Clone, PartialEq)]
pub enum CatalogChange {
    Created { id: Option<i64> },
    Updated { id: i64 },
    Deleted { id: i64 },
    StatusSet { id: i64, active: bool },
}

#[derive(Debug, Clone)]
pub enum Event {
    /// The worker now talks to this base URL; `token_place` says where its
    /// token is kept, when it came from a profile.
    Connected {
        request: RequestId,
        base_url: String,
        token_place: Option<TokenPlace>,
    },
    /// A connection test's outcome: integrations counted, or the error.
    ConnectionTested {
        request: RequestId,
        result: Result<usize, ApiError>,
    },
    Progress {
        target: Target,
        request: RequestId,
        progress: Progress,
    },
    /// A series window, merged from the cache and the service.
    Series {
        request: RequestId,
        equipment: i64,
        source: SeriesSource,
        fetched: Arc<Fetched>,
    },
    Plot {
        request: RequestId,
        equipment: i64,
        kind: DataKind,
        series: Arc<PlotSeries>,
        /// Served from the cache with the service away.
        offline: bool,
    },
    Track {
        request: RequestId,
        equipment: i64,
        track: Arc<Track>,
        offline: bool,
    },
    History {
        request: RequestId,
        equipment: i64,
        window: TimeWindow,
        history: Arc<EquipmentHistory>,
    },
    /// One more page of the fleet: `page.done()` of `page.total` read.
    FleetPage {
        request: RequestId,
        page: FleetPage,
        finished: bool,
    },
    Catalog {
        request: RequestId,
        sources: Vec<DataSource>,
        integrations: Vec<Integration>,
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
            | Event::Progress { request, .. }
            | Event::Series { request, .. }
            | Event::Plot { request, .. }
            | Event::Track { request, .. }
            | Event::History { request, .. }
            | Event::FleetPage { request, .. }
            | Event::Catalog { request, .. }
            | Event::CatalogChanged { request, .. }
            | Event::Failed { request, .. } => *request,
        }
    }
}
