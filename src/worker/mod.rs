//! The background worker: a thread owning a tokio runtime. `Command`s in,
//! `Event`s out; the UI thread never waits on I/O.
//!
//! Each command has a [`Target`]; a newer command for a target cancels the
//! older one. Which request is current is recorded when the command is
//! *sent*, so once [`Worker::send`] returns, the older request can deliver
//! nothing more, even if it was about to.

pub mod fetch;
pub mod messages;
pub mod tokens;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::mpsc as tmpsc;
use tokio::task::AbortHandle;

use crate::api::model::{EquipmentHistory, PositionRow};
use crate::api::time::{TimeWindow, now_secs};
use crate::api::{ApiClient, ApiError, ClientConfig, DataKind, SeriesSource};
use crate::cache::{Cache, CacheKey};
pub use crate::export::shown::{ExportContent, GeoFormat};
use crate::series::{PlotSeries, Track, TrackSample};
pub use fetch::{Fetched, Progress, SeriesRequest};
pub use messages::{
    CatalogChange, Command, EquipmentSummary, Event, ExportJob, ExportOutcome, OfflineSince,
    RequestId, Target,
};
pub use tokens::{TokenPlace, TokenStore};

/// Called after every event, to wake the UI (`Context::request_repaint`).
pub type Wake = Arc<dyn Fn() + Send + Sync>;

type Current = Arc<Mutex<HashMap<Target, RequestId>>>;

#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    #[error("could not start the background worker: {0}")]
    Start(std::io::Error),
    #[error(transparent)]
    Client(#[from] ApiError),
}

/// Where the worker gets its data.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// The service; its base URL also keys the cache.
    pub client: Option<ClientConfig>,
    pub cache: Option<Arc<Cache>>,
    /// Never talk to the service: answer from the cache only.
    pub offline: bool,
}

pub struct Worker {
    commands: tmpsc::UnboundedSender<(RequestId, Command)>,
    events: mpsc::Receiver<Event>,
    current: Current,
    next_id: AtomicU64,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("next_id", &self.next_id)
            .finish_non_exhaustive()
    }
}

impl Worker {
    /// Starts the worker. A client configuration that cannot work (a bad
    /// URL, a token over plain http beyond loopback) is refused here.
    pub fn spawn(config: WorkerConfig, wake: Wake) -> Result<Self, WorkerError> {
        let client = match (&config.client, config.offline) {
            (Some(c), false) => Some(Arc::new(ApiClient::new(c.clone())?)),
            _ => None,
        };
        let base_url = config
            .client
            .as_ref()
            .map(|c| c.base_url.clone())
            .unwrap_or_default();
        let start = Start {
            client,
            base_url,
            cache: config.cache,
        };
        let (cmd_tx, cmd_rx) = tmpsc::unbounded_channel();
        let (event_tx, event_rx) = mpsc::channel();
        let current: Current = Arc::default();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("fleetview-io")
            .enable_all()
            .build()
            .map_err(WorkerError::Start)?;
        let state = Shared {
            current: current.clone(),
            events: event_tx,
            wake,
        };
        let thread = std::thread::Builder::new()
            .name("fleetview-worker".into())
            .spawn(move || {
                runtime.block_on(run(start, cmd_rx, state));
                runtime.shutdown_timeout(Duration::from_secs(1));
            })
            .map_err(WorkerError::Start)?;
        Ok(Self {
            commands: cmd_tx,
            events: event_rx,
            current,
            next_id: AtomicU64::new(1),
            thread: Some(thread),
        })
    }

    /// Queues a command; returns the id its events will carry.
    pub fn send(&self, command: Command) -> RequestId {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        {
            let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
            match &command {
                Command::Cancel(t) => {
                    current.remove(t);
                }
                c => {
                    current.insert(c.target(), id);
                }
            }
        }
        if self.commands.send((id, command)).is_err() {
            tracing::error!("the background worker has stopped; command dropped");
        }
        id
    }

    pub fn try_recv(&self) -> Option<Event> {
        self.events.try_recv().ok()
    }

    /// Every event waiting now (what `App::logic` drains each frame).
    pub fn drain(&self) -> Vec<Event> {
        self.events.try_iter().collect()
    }

    /// Waits for the next event (for scripts and tests, not the UI thread).
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Event> {
        self.events.recv_timeout(timeout).ok()
    }

    /// Whether `request` is still the current one for its target.
    pub fn is_current(&self, target: &Target, request: RequestId) -> bool {
        self.current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(target)
            == Some(&request)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing the channel ends the loop, which aborts every task.
        let (tx, _) = tmpsc::unbounded_channel();
        drop(std::mem::replace(&mut self.commands, tx));
        if let Some(t) = self.thread.take()
            && t.join().is_err()
        {
            tracing::error!("the background worker panicked");
        }
    }
}

/// What every task may use to report.
#[derive(Clone)]
struct Shared {
    current: Current,
    events: mpsc::Sender<Event>,
    wake: Wake,
}

impl Shared {
    /// Sends an event of `request` for `target`, unless a newer command took
    /// the target over (then the event is stale and dropped).
    fn emit(&self, target: &Target, request: RequestId, event: Event) {
        let current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        if current.get(target) != Some(&request) {
            return;
        }
        // The receiver is gone only when the worker is being dropped.
        let _ = self.events.send(event);
        drop(current);
        (self.wake)();
    }
}

/// What the worker starts with.
struct Start {
    client: Option<Arc<ApiClient>>,
    base_url: String,
    cache: Option<Arc<Cache>>,
}

/// The service in use. Connection changes run on the command loop itself,
/// so the commands after them use the new client.
struct Session {
    client: Option<Arc<ApiClient>>,
    base_url: String,
}

impl Session {
    /// Makes a new client the one in use and says so, or says why not.
    fn install(
        &mut self,
        result: Result<ApiClient, ApiError>,
        token_place: Option<TokenPlace>,
        shared: &Shared,
        target: &Target,
        id: RequestId,
    ) {
        match result {
            Ok(c) => {
                self.base_url = c.config().base_url.clone();
                self.client = Some(Arc::new(c));
                let event = Event::Connected {
                    request: id,
                    base_url: self.base_url.clone(),
                    token_place,
                };
                shared.emit(target, id, event);
            }
            Err(error) => shared.emit(
                target,
                id,
                Event::Failed {
                    target: target.clone(),
                    request: id,
                    error,
                },
            ),
        }
    }
}

async fn run(
    start: Start,
    mut commands: tmpsc::UnboundedReceiver<(RequestId, Command)>,
    shared: Shared,
) {
    let Start {
        client,
        base_url,
        cache,
    } = start;
    let mut session = Session { client, base_url };
    let tokens = Arc::new(TokenStore::default());
    let mut tasks: HashMap<Target, AbortHandle> = HashMap::new();

    while let Some((id, command)) = commands.recv().await {
        let target = command.target();
        if let Some(old) = tasks.remove(&target) {
            old.abort();
        }
        tasks.retain(|_, h| !h.is_finished());
        match command {
            Command::Cancel(_) => {}
            Command::Connect(cfg) => {
                session.install(ApiClient::new(cfg), None, &shared, &target, id)
            }
            Command::UseProfile { config, token } => {
                let key = config.base_url.clone();
                let store = tokens.clone();
                // The keychain may block (D-Bus): off the async threads.
                let found = tokio::task::spawn_blocking(move || match token {
                    Some(t) => {
                        let place = store.save(&key, &t);
                        (Some(t), place)
                    }
                    None => store.load(&key),
                })
                .await;
                let (token, place) =
                    found.unwrap_or_else(|e| (None, TokenPlace::SessionOnly(e.to_string())));
                let result = match token {
                    None => Err(ApiError::NoToken),
                    Some(t) => ApiClient::new(ClientConfig {
                        token: Some(t),
                        ..config
                    }),
                };
                session.install(result, Some(place), &shared, &target, id);
            }
            Command::TestConnection { config, token } => {
                let store = tokens.clone();
                let key = config.base_url.clone();
                let shared = shared.clone();
                let target = target.clone();
                let handle = tokio::spawn(async move {
                    let token = match token {
                        Some(t) => Some(t),
                        None => tokio::task::spawn_blocking(move || store.load(&key).0)
                            .await
                            .ok()
                            .flatten(),
                    };
                    let result = match ApiClient::new(ClientConfig { token, ..config }) {
                        Ok(c) => c.integrations().await.map(|list| list.len()),
                        Err(e) => Err(e),
                    };
                    shared.emit(
                        &target,
                        id,
                        Event::ConnectionTested {
                            request: id,
                            result,
                        },
                    );
                });
                tasks.insert(Target::ConnectionTest, handle.abort_handle());
            }
            Command::Login { username, password } => {
                let result = match session.client.clone() {
                    Some(current) => current
                        .login(&username, password.expose())
                        .await
                        .and_then(|t| current.with_token(t)),
                    None => Err(ApiError::NotConnected),
                };
                session.install(result, None, &shared, &target, id);
            }
            command => {
                let ctx = TaskCtx {
                    client: session.client.clone(),
                    cache: cache.clone(),
                    base_url: session.base_url.clone(),
                    shared: shared.clone(),
                    target: target.clone(),
                    id,
                };
                let handle = tokio::spawn(ctx.run(command));
                tasks.insert(target, handle.abort_handle());
            }
        }
    }
    for (_, t) in tasks {
        t.abort();
    }
}

/// Cache kinds beside the series: the settled history of a window, the last
/// history seen of it (for offline use), and the fleet as last discovered.
pub const HISTORY_KIND: &str = "history";
const HISTORY_SNAPSHOT_KIND: &str = "history/latest";
const FLEET_SNAPSHOT_KIND: &str = "fleet/latest";
const FLEET_SNAPSHOT_WINDOW: TimeWindow = TimeWindow { since: 0, until: 0 };

/// Asks where to save (a native dialog, which waits on the user, not on
/// the UI thread), then writes the file on a blocking thread.
async fn export_file(job: ExportJob) -> ExportOutcome {
    let path = match &job.directory {
        Some(dir) => Some(dir.join(&job.file_name)),
        None => {
            let ext = job.content.extension();
            rfd::AsyncFileDialog::new()
                .set_title(format!("Export {}", job.content.describe()))
                .set_file_name(job.file_name.clone())
                .add_filter(ext.to_uppercase(), &[ext])
                .save_file()
                .await
                .map(|f| f.path().to_path_buf())
        }
    };
    let Some(path) = path else {
        return ExportOutcome::Cancelled;
    };
    let written = tokio::task::spawn_blocking(move || {
        let mut bytes = Vec::new();
        let rows = job.content.write(&mut bytes).map_err(|e| e.to_string())?;
        crate::export::write_file(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok::<_, String>(ExportOutcome::Saved { path, rows })
    })
    .await;
    match written {
        Ok(Ok(saved)) => saved,
        Ok(Err(e)) => ExportOutcome::Failed(e),
        Err(e) => ExportOutcome::Failed(e.to_string()),
    }
}

/// A cache read that failed is logged and treated as a miss.
fn read_or_warn<T>(r: Result<Option<T>, crate::cache::CacheError>) -> Option<T> {
    r.unwrap_or_else(|e| {
        tracing::warn!("cache read failed: {e}");
        None
    })
}

fn summary(e: crate::api::model::FleetEquipment) -> EquipmentSummary {
    EquipmentSummary {
        id: e.id,
        name: e.name,
        make: e.make,
        model: e.model,
        serial_number: e.serial_number,
    }
}

/// Decoding and indexing a large window takes CPU time: it runs on a
/// blocking thread so the async threads keep serving other requests.
async fn decode_off_thread<T: Send + 'static>(
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

struct TaskCtx {
    client: Option<Arc<ApiClient>>,
    cache: Option<Arc<Cache>>,
    base_url: String,
    shared: Shared,
    target: Target,
    id: RequestId,
}

impl TaskCtx {
    fn emit(&self, event: Event) {
        self.shared.emit(&self.target, self.id, event);
    }

    fn fail(&self, error: ApiError) {
        self.emit(Event::Failed {
            target: self.target.clone(),
            request: self.id,
            error,
        });
    }

    fn client(&self) -> Result<&ApiClient, ApiError> {
        self.client.as_deref().ok_or(ApiError::NotConnected)
    }

    async fn run(self, command: Command) {
        if let Err(e) = self.execute(command).await {
            self.fail(e);
        }
    }

    /// A series window through the cache, reporting progress.
    async fn fetch(
        &self,
        equipment: i64,
        source: SeriesSource,
        window: TimeWindow,
        offline: bool,
    ) -> Result<Fetched, ApiError> {
        let req = SeriesRequest {
            equipment,
            source,
            window,
            offline,
        };
        fetch::fetch_series(
            self.client.as_deref(),
            self.cache.as_deref(),
            &self.base_url,
            req,
            |progress| {
                self.emit(Event::Progress {
                    target: self.target.clone(),
                    request: self.id,
                    progress,
                })
            },
        )
        .await
    }

    /// The history of a window: a settled copy from the cache, else the
    /// service (keeping a snapshot), else, with the service away, the last
    /// snapshot of that window.
    async fn history_body(
        &self,
        equipment: i64,
        window: TimeWindow,
    ) -> Result<(Vec<u8>, OfflineSince), ApiError> {
        let settled = CacheKey::new(&self.base_url, equipment, HISTORY_KIND);
        let latest = CacheKey::new(&self.base_url, equipment, HISTORY_SNAPSHOT_KIND);
        let cache = self.cache.as_deref();
        if let Some(doc) = cache.and_then(|c| read_or_warn(c.get_document(&settled, window))) {
            return Ok((doc.rows_json, None));
        }
        match self.client()?.history_body(equipment, window).await {
            Ok(body) => {
                if let Some(c) = cache {
                    let now = now_secs();
                    let stored = c
                        .put_document(&settled, window, &body, now)
                        .and_then(|kept| {
                            if kept {
                                Ok(())
                            } else {
                                c.put_snapshot(&latest, window, &body, now)
                            }
                        });
                    if let Err(e) = stored {
                        tracing::warn!("could not cache the history: {e}");
                    }
                }
                Ok((body.to_vec(), None))
            }
            Err(e) if e.is_unreachable() => {
                match cache.and_then(|c| read_or_warn(c.get_document(&latest, window))) {
                    Some(doc) => {
                        tracing::warn!("{e}; serving the cached history");
                        Ok((doc.rows_json, Some(doc.fetched_at)))
                    }
                    None => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// Pages through the deprecated fleet history (D2), then keeps the list
    /// for offline starts; with the service away, the list last kept.
    async fn discover_fleet(&self, window: TimeWindow) -> Result<(), ApiError> {
        let id = self.id;
        let key = CacheKey::new(&self.base_url, 0, FLEET_SNAPSHOT_KIND);
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
            let equipments: Vec<EquipmentSummary> =
                page.equipments.into_iter().map(summary).collect();
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

    async fn execute(&self, command: Command) -> Result<(), ApiError> {
        let id = self.id;
        match command {
            Command::FetchSeries {
                equipment,
                source,
                window,
                offline,
            } => {
                let fetched = self.fetch(equipment, source, window, offline).await?;
                self.emit(Event::Series {
                    request: id,
                    equipment,
                    source,
                    fetched: Arc::new(fetched),
                });
            }
            Command::FetchPlot {
                equipment,
                kind,
                window,
            } => {
                let fetched = self
                    .fetch(equipment, SeriesSource::Kind(kind), window, false)
                    .await?;
                let offline = fetched.offline_since();
                let series =
                    decode_off_thread(kind.wire(), move || fetched.series().map(PlotSeries::new))
                        .await?;
                self.emit(Event::Plot {
                    request: id,
                    equipment,
                    kind,
                    series: Arc::new(series),
                    offline,
                });
            }
            Command::FetchTrack { equipment, window } => {
                let fetched = self
                    .fetch(
                        equipment,
                        SeriesSource::Kind(DataKind::Positions),
                        window,
                        false,
                    )
                    .await?;
                let offline = fetched.offline_since();
                let track = decode_off_thread("positions", move || {
                    fetched
                        .typed::<PositionRow>()
                        .map(|rows| Track::new(rows.iter().map(TrackSample::from).collect()))
                })
                .await?;
                self.emit(Event::Track {
                    request: id,
                    equipment,
                    track: Arc::new(track),
                    offline,
                });
            }
            Command::FetchHistory { equipment, window } => {
                let (body, offline) = self.history_body(equipment, window).await?;
                let history = decode_off_thread("history", move || {
                    serde_json::from_slice::<crate::api::model::Envelope<EquipmentHistory>>(&body)
                        .map(|e| e.data)
                })
                .await?;
                self.emit(Event::History {
                    request: id,
                    equipment,
                    window,
                    history: Arc::new(history),
                    offline,
                });
            }
            Command::DiscoverFleet { window } => self.discover_fleet(window).await?,
            Command::Export(job) => {
                let what = job.content.describe();
                let outcome = export_file(job).await;
                self.emit(Event::Exported {
                    request: id,
                    what,
                    outcome,
                });
            }
            Command::Probe => {
                self.client()?.data_sources().await?;
                self.emit(Event::Reachable { request: id });
            }
            Command::LoadCatalog => {
                let client = self.client()?;
                let (sources, integrations) =
                    tokio::try_join!(client.data_sources(), client.integrations())?;
                self.emit(Event::Catalog {
                    request: id,
                    sources,
                    integrations,
                });
            }
            Command::CreateIntegration(body) => {
                let resp = self.client()?.create_integration(&body).await?;
                self.emit(Event::CatalogChanged {
                    request: id,
                    change: CatalogChange::Created {
                        id: resp.integration_id,
                    },
                });
            }
            Command::UpdateIntegration {
                id: integration,
                body,
            } => {
                self.client()?
                    .update_integration(integration, &body)
                    .await?;
                self.emit(Event::CatalogChanged {
                    request: id,
                    change: CatalogChange::Updated { id: integration },
                });
            }
            Command::DeleteIntegration { id: integration } => {
                self.client()?.delete_integration(integration).await?;
                self.emit(Event::CatalogChanged {
                    request: id,
                    change: CatalogChange::Deleted { id: integration },
                });
            }
            Command::SetIntegrationActive {
                id: integration,
                active,
            } => {
                let client = self.client()?;
                if active {
                    client.activate_integration(integration).await?;
                } else {
                    client.deactivate_integration(integration).await?;
                }
                self.emit(Event::CatalogChanged {
                    request: id,
                    change: CatalogChange::StatusSet {
                        id: integration,
                        active,
                    },
                });
            }
            Command::Connect(_)
            | Command::Login { .. }
            | Command::UseProfile { .. }
            | Command::TestConnection { .. }
            | Command::Cancel(_) => {}
        }
        Ok(())
    }
}
