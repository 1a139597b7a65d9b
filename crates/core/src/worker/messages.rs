//! What the UI (or the command line) asks of the worker: `Command`s, each
//! for a [`Target`]. A newer command for a target replaces the older one.

use super::report_data::{ReportData, ReportRequest};
use super::report_job::ReportJob;
use crate::export::shown::{ExportContent, ExportKey};
use fleetview_api::model::{CreateIntegration, SecretValue, UpdateIntegration};
use fleetview_api::time::TimeWindow;
use fleetview_api::{AuthMethod, ClientConfig, DataKind, SeriesSource};

/// A file to write from what the app shows.
#[derive(Debug, Clone)]
pub struct ExportJob {
    pub content: ExportContent,
    /// The name suggested (or used, with `directory`).
    pub file_name: String,
    /// Save there without asking (`--export-dir`); `None`: a save dialog.
    pub directory: Option<std::path::PathBuf>,
    /// Where to save when no dialog can open (the user's Downloads).
    pub fallback_directory: Option<std::path::PathBuf>,
    /// The units of the tables' values (as the app shows them).
    pub units: crate::analysis::UnitSystem,
}

/// How an export ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportOutcome {
    Saved {
        path: std::path::PathBuf,
        rows: usize,
    },
    /// No dialog could open, so it was saved in the fallback folder.
    SavedWithoutDialog {
        path: std::path::PathBuf,
        rows: usize,
        /// Why no dialog opened.
        why: String,
    },
    /// No file was chosen.
    Cancelled,
    Failed(String),
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
    /// Keeping a profile's token.
    TokenStore,
    Fleet,
    /// Raw rows of a series (for the command line's exports).
    Series(SeriesSource),
    /// The fault rows of a window, decoded.
    Faults,
    /// The activities of a window, decoded.
    Activities,
    /// A data kind decoded for plotting.
    Plot(DataKind),
    /// Positions decoded into a map track.
    Track,
    History,
    Catalog,
    /// Whether the service can be reached again (after going offline).
    Probe,
    /// The whole fleet's snapshots.
    Snapshots,
    /// One machine's window figures for the fleet overview.
    Figures(i64),
    /// One machine's figures over the attention strip's look-back.
    LookBack(i64),
    /// The machine page's window figures (or the command line's report).
    Report,
    /// The figures' own reads, sent ahead with the machine page's.
    ReadAhead,
    /// Writing one kind of export.
    Export(ExportKey),
    /// Writing a report: one at a time (a second replaces the first).
    ReportFile,
    /// Creating an integration (the form's one write).
    CatalogCreate,
    /// A write on one integration, by its id.
    Integration(i64),
    /// The service book's reads.
    ServiceBook,
    /// A write to the service book, by the app's own count (each is
    /// answered: none silences another).
    ServiceWrite(u64),
    /// A machine's daily usage for the due rules, by its id.
    ServiceUsage(i64),
}

#[derive(Debug, Clone)]
pub enum Command {
    /// Talk to this service from now on (base URL, token or API key,
    /// options). With an API key, logs in first (D1).
    Connect(ClientConfig),
    /// Connect to a saved profile: keep `secret` (its token or API key) if
    /// given (keychain or memory), otherwise use the one kept for it.
    UseProfile {
        config: ClientConfig,
        method: AuthMethod,
        secret: Option<SecretValue>,
    },
    /// Keep a profile's token or API key (keychain, else memory).
    StoreToken {
        config: ClientConfig,
        method: AuthMethod,
        token: SecretValue,
    },
    /// One authenticated request to see whether a service answers (after a
    /// login, with an API key).
    TestConnection {
        config: ClientConfig,
        method: AuthMethod,
        secret: Option<SecretValue>,
    },
    /// Raw rows of a series through the cache.
    FetchSeries {
        equipment: i64,
        source: SeriesSource,
        window: TimeWindow,
        offline: bool,
    },
    /// The fault rows of a window through the cache, decoded.
    FetchFaults {
        equipment: i64,
        window: TimeWindow,
    },
    /// The activities of a window through the cache, decoded.
    FetchActivities {
        equipment: i64,
        window: TimeWindow,
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
    /// The figures' own reads (daily idle fuel, the operating-hours
    /// counter) into the cache, with the page's, so the figures asked for
    /// once the page's history is in need not wait for them. Answers
    /// nothing.
    ReadAhead {
        equipment: i64,
        window: TimeWindow,
    },
    /// The single-equipment history (identity, daily usage, ...); with
    /// `keep_body`, the service's JSON comes along (for exports).
    FetchHistory {
        equipment: i64,
        window: TimeWindow,
        keep_body: bool,
        /// Read only the cache, never the service.
        offline: bool,
    },
    /// Discover the fleet through the deprecated fleet history (D2).
    DiscoverFleet {
        window: TimeWindow,
    },
    /// Every page of the fleet's snapshots (D2), each sent as it comes.
    FetchSnapshots,
    /// The fleet as last discovered, from the cache alone (there is
    /// nothing to sign in with), of the service whose data is cached under
    /// `scope` (the one chosen, which a failed connection did not put in
    /// use): said as `FleetEvent::Cached`, or nothing if none is kept.
    KeptFleet {
        scope: String,
    },
    /// The snapshots as last read, from the cache alone, as `KeptFleet`:
    /// said as `OverviewEvent::SnapshotsCached`, or nothing if none are
    /// kept.
    KeptSnapshots {
        scope: String,
    },
    /// One machine's figures over a window (its `/history` and `/faults`
    /// through the cache), for the fleet overview.
    FetchFigures {
        equipment: i64,
        window: TimeWindow,
        /// Read only the cache (offline, or signed out): a window it does
        /// not hold is said as `OverviewEvent::NotCached`.
        offline: bool,
        /// The look-back is this very window: its figures (gaps up to
        /// this `now`) are computed from the same reads and said as
        /// `OverviewEvent::LookBack` too, so the machine is read once.
        look_back_now: Option<i64>,
    },
    /// One machine's figures over the Fleet page's look-back (its own
    /// period, whatever the figures' window), with the gaps up to `now`:
    /// said as `OverviewEvent::LookBack`.
    FetchLookBack {
        equipment: i64,
        window: TimeWindow,
        now: i64,
        offline: bool,
    },
    /// The machine page's window figures from what it has read (only the
    /// daily idle fuel is read besides).
    ComputeReport {
        request: ReportRequest,
        data: ReportData,
    },
    /// The machine page's window figures, computed as soon as the page's
    /// own reads (sent before this) have what they come from: they come
    /// with the page's data rather than a frame after it.
    PageReport {
        request: ReportRequest,
    },
    /// A machine's window figures, everything read through the cache (the
    /// command line's report); with `offline`, the cache only.
    FetchReport {
        request: ReportRequest,
        offline: bool,
    },
    /// Data sources and integrations.
    LoadCatalog,
    /// One cheap authenticated request: is the service back?
    Probe,
    /// Ask where to save (unless a directory is set), then write the file.
    Export(ExportJob),
    /// Ask where to save (unless the document is to come back), read what
    /// the report needs through the cache, write it.
    Report(Box<ReportJob>),
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
    /// The service book (plans, services done): run in order, on a thread
    /// of its own. `write`: the app's count of its writes (ignored for
    /// reads).
    Service {
        write: u64,
        command: crate::service::change::ServiceCommand,
    },
    /// A machine's daily usage over a window through the cache, for the
    /// due rules: said as `ServiceEvent::Usage`.
    FetchServiceUsage {
        equipment: i64,
        window: TimeWindow,
        /// Read only the cache, never the service.
        offline: bool,
    },
    /// Stop whatever runs for a target.
    Cancel(Target),
    /// Stop every read of the service in use: another one is being chosen,
    /// and what the last one still answers is for nothing shown.
    CancelReads,
}

impl Command {
    pub(crate) fn target(&self) -> Target {
        match self {
            Command::Connect(_) | Command::UseProfile { .. } => Target::Connection,
            Command::TestConnection { .. } => Target::ConnectionTest,
            Command::StoreToken { .. } => Target::TokenStore,
            Command::FetchSeries { source, .. } => Target::Series(*source),
            Command::FetchFaults { .. } => Target::Faults,
            Command::FetchActivities { .. } => Target::Activities,
            Command::FetchPlot { kind, .. } => Target::Plot(*kind),
            Command::FetchTrack { .. } => Target::Track,
            Command::ReadAhead { .. } => Target::ReadAhead,
            Command::FetchHistory { .. } => Target::History,
            Command::DiscoverFleet { .. } | Command::KeptFleet { .. } => Target::Fleet,
            Command::FetchSnapshots | Command::KeptSnapshots { .. } => Target::Snapshots,
            Command::FetchFigures { equipment, .. } => Target::Figures(*equipment),
            Command::FetchLookBack { equipment, .. } => Target::LookBack(*equipment),
            Command::ComputeReport { .. }
            | Command::PageReport { .. }
            | Command::FetchReport { .. } => Target::Report,
            Command::LoadCatalog => Target::Catalog,
            Command::Probe => Target::Probe,
            Command::Export(job) => Target::Export(job.content.key()),
            Command::Report(_) => Target::ReportFile,
            Command::CreateIntegration(_) => Target::CatalogCreate,
            Command::UpdateIntegration { id, .. }
            | Command::DeleteIntegration { id }
            | Command::SetIntegrationActive { id, .. } => Target::Integration(*id),
            Command::Service { write, command } => {
                if command.is_write() {
                    Target::ServiceWrite(*write)
                } else {
                    Target::ServiceBook
                }
            }
            Command::FetchServiceUsage { equipment, .. } => Target::ServiceUsage(*equipment),
            Command::Cancel(t) => t.clone(),
            Command::CancelReads => Target::Connection,
        }
    }
}

impl Target {
    /// Whether it reads from the service in use (writes, exports, tokens and
    /// connection tests are let finish: their outcome is still news).
    pub(crate) fn is_read(&self) -> bool {
        matches!(
            self,
            Target::Fleet
                | Target::Series(_)
                | Target::Faults
                | Target::Activities
                | Target::Plot(_)
                | Target::Track
                | Target::History
                | Target::Catalog
                | Target::Probe
                | Target::Snapshots
                | Target::Figures(_)
                | Target::LookBack(_)
                | Target::Report
                | Target::ReadAhead
                | Target::ServiceUsage(_)
        )
    }

    /// Whether it is one of the machine page's panels (what the user waits
    /// for after a click on a machine).
    pub fn is_page(&self) -> bool {
        matches!(
            self,
            Target::Faults
                | Target::Activities
                | Target::Plot(_)
                | Target::Track
                | Target::History
                | Target::Report
        )
    }
}
