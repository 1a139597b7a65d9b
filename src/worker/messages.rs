//! What the UI and the worker say to each other. The UI sends `Command`s and
//! drains `Event`s once a frame; it sees no HTTP, SQL or async types.

use std::sync::Arc;

use super::fetch::{Fetched, Progress};
use super::tokens::TokenPlace;
use crate::api::model::SecretValue;
use crate::api::model::{
    CreateIntegration, DataSource, EquipmentHistory, Integration, UpdateIntegration,
};
use crate::api::time::TimeWindow;
use crate::api::{ApiError, ClientConfig, DataKind, SeriesSource};
use crate::export::shown::ExportContent;
use crate::series::{PlotSeries, Track};

/// A file to write from what the app shows.
#[derive(Debug, Clone)]
pub struct ExportJob {
    pub content: ExportContent,
    /// The name suggested (or used, with `directory`).
    pub file_name: String,
    /// Save there without asking (`--export-dir`); `None`: a save dialog.
    pub directory: Option<std::path::PathBuf>,
}

/// How an export ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportOutcome {
    Saved {
        path: std::path::PathBuf,
        rows: usize,
    },
    /// No file was chosen.
    Cancelled,
    Failed(String),
}

/// One machine of the fleet, as discovered (D2).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EquipmentSummary {
    pub id: i64,
    pub name: String,
    pub make: String,
    pub model: String,
    pub serial_number: String,
}

impl EquipmentSummary {
    /// Whether every word of `query` is in the name, make, model or serial.
    pub fn matches(&self, query: &str) -> bool {
        let hay = format!(
            "{} {} {} {} {}",
            self.name, self.make, self.model, self.serial_number, self.id
        )
        .to_lowercase();
        query
            .to_lowercase()
            .split_whitespace()
            .all(|w| hay.contains(w))
    }
}

/// Set on data served from the cache because the service could not be
/// reached: when the oldest part of it was fetched (Unix seconds).
pub type OfflineSince = Option<i64>;

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
    /// Whether the service can be reached again (after going offline).
    Probe,
    /// Writing an export, per file name.
    Export(String),
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
    /// One cheap authenticated request: is the service back?
    Probe,
    /// Ask where to save (unless a directory is set), then write the file.
    Export(ExportJob),
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
            Command::Probe => Target::Probe,
            Command::Export(job) => Target::Export(job.file_name.clone()),
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
        offline: OfflineSince,
    },
    Track {
        request: RequestId,
        equipment: i64,
        track: Arc<Track>,
        offline: OfflineSince,
    },
    History {
        request: RequestId,
        equipment: i64,
        window: TimeWindow,
        history: Arc<EquipmentHistory>,
        offline: OfflineSince,
    },
    /// One more page of the fleet: `done` of `total` read so far.
    FleetPage {
        request: RequestId,
        equipments: Vec<EquipmentSummary>,
        done: i64,
        total: i64,
        finished: bool,
    },
    /// The service could not be reached: the fleet as last discovered.
    FleetCached {
        request: RequestId,
        equipments: Vec<EquipmentSummary>,
        fetched_at: i64,
    },
    /// The probe reached the service.
    Reachable { request: RequestId },
    /// An export ended; `what` it was (`faults (CSV)`).
    Exported {
        request: RequestId,
        what: String,
        outcome: ExportOutcome,
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
            | Event::FleetCached { request, .. }
            | Event::Reachable { request }
            | Event::Exported { request, .. }
            | Event::Catalog { request, .. }
            | Event::CatalogChanged { request, .. }
            | Event::Failed { request, .. } => *request,
        }
    }
}
