//! The background worker: a thread owning a tokio runtime. `Command`s in,
//! decoded `Event`s out; the UI thread never waits on I/O and never decodes.
//!
//! Each command has a [`Target`]; a newer command for a target cancels the
//! older one. Which request is current is recorded when the command is
//! *sent*, and events are checked against it both when a task emits them
//! and when the UI drains them: once [`Worker::send`] returns, the older
//! request can deliver nothing more, even an event already queued.

mod catalog;
mod connect;
mod dialog;
mod events;
mod execute;
mod export;
pub(crate) mod fetch;
mod fleet;
mod history;
mod history_columns;
mod kept;
mod messages;
mod overview;
mod reads;
mod report;
mod report_data;
mod report_file;
mod report_job;
mod run;
mod service_book;
mod service_events;
mod shared;
mod store;
mod task;
pub(crate) mod tokens;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use tokio::sync::mpsc as tmpsc;

pub use dialog::{SaveAnswer, SaveDialog, SaveDialogRef, SaveRequest};
pub use events::{
    CatalogChange, CatalogEvent, ConnectionEvent, Event, ExportEvent, FiguresEvent, FiguresPart,
    FleetEvent, FleetSource, MachineEvent, OverviewEvent, TimelineEvent, Unread,
};
pub use fetch::{Fetched, FromCache, Progress, SeriesRequest};
pub use history::HISTORY_KIND;
pub use messages::{Command, ExportJob, ExportOutcome, OfflineSince, RequestId, Target};
pub use report_data::{ReportData, ReportRequest, ReportSources};
pub use report_job::{ReportJob, ReportMachine, ReportPlace, ReportScope, ReportWritten};
pub use service_events::ServiceEvent;
pub use shared::{Urgency, Wake};
pub use tokens::{TokenPlace, TokenStore};

use crate::cache::{Cache, CacheNotice};

/// At most this many threads for blocking work at once.
const MAX_BLOCKING_THREADS: usize = 16;
use fleetview_api::{ApiClient, ApiError, ClientConfig};
use shared::{Current, Envelope, Shared};

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
    /// Asks the user where to save an export (the desktop app's native
    /// dialog); without one, an export needs its job's folder.
    pub save_dialog: Option<SaveDialogRef>,
}

pub struct Worker {
    commands: tmpsc::UnboundedSender<(RequestId, Command)>,
    events: mpsc::Receiver<Envelope>,
    current: Current,
    in_flight: Arc<AtomicUsize>,
    next_id: AtomicU64,
    thread: Option<std::thread::JoinHandle<()>>,
    /// The cache's writer, waited for after the tasks end.
    storer: Option<std::thread::JoinHandle<()>>,
    /// The cache, for what it has to tell.
    cache: Option<Arc<Cache>>,
    service_clock: shared::ServiceClock,
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
        let cache_scope = config
            .client
            .as_ref()
            .map(|c| c.cache_scope().to_owned())
            .unwrap_or_default();
        let cache = config.cache.clone();
        let service_clock = shared::ServiceClock::default();
        service_clock.set(client.clone());
        if let Some(c) = &cache {
            let wake = wake.clone();
            c.on_notice(Arc::new(move || wake(Urgency::Now)));
        }
        let start = run::Start {
            client,
            cache_scope,
            cache: config.cache,
        };
        let (cmd_tx, cmd_rx) = tmpsc::unbounded_channel();
        let (event_tx, event_rx) = mpsc::channel();
        let current = Current::default();
        let in_flight = Arc::new(AtomicUsize::new(0));
        let runtime = io_runtime().map_err(WorkerError::Start)?;
        let (storer, storer_thread) = store::Storer::spawn().map_err(WorkerError::Start)?;
        let shared = Shared {
            current: current.clone(),
            events: event_tx,
            wake: wake.clone(),
            in_flight: in_flight.clone(),
            page_in_flight: shared::PageInFlight::new(wake),
            read_ahead: shared::ReadAhead::default(),
            full_history: shared::FullHistory::default(),
            page: shared::PageReads::default(),
            storer,
            save_dialog: config.save_dialog,
            service_clock: service_clock.clone(),
        };
        let thread = std::thread::Builder::new()
            .name("fleetview-worker".into())
            .spawn(move || {
                runtime.block_on(run::run(start, cmd_rx, shared));
                runtime.shutdown_timeout(Duration::from_secs(1));
            })
            .map_err(WorkerError::Start)?;
        Ok(Self {
            commands: cmd_tx,
            events: event_rx,
            current,
            in_flight,
            next_id: AtomicU64::new(1),
            thread: Some(thread),
            storer: Some(storer_thread),
            cache,
            service_clock,
        })
    }

    /// Queues a command; returns the id its events will carry.
    pub fn send(&self, command: Command) -> RequestId {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        match &command {
            Command::Cancel(t) => self.current.clear(t),
            Command::CancelReads => self.current.clear_reads(),
            c => self.current.set(c.target(), id),
        }
        // Counted before it is on its way: the worker's loop takes the
        // count over, so "nothing in flight" means no event can come.
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        if self.commands.send((id, command)).is_err() {
            self.in_flight.fetch_sub(1, Ordering::SeqCst);
            tracing::error!("the background worker has stopped; command dropped");
        }
        id
    }

    /// The event if it still answers the current request of its target.
    fn fresh(&self, (target, request, event): Envelope) -> Option<Event> {
        self.current.is(&target, request).then_some(event)
    }

    pub fn try_recv(&self) -> Option<Event> {
        loop {
            let envelope = self.events.try_recv().ok()?;
            if let Some(e) = self.fresh(envelope) {
                return Some(e);
            }
        }
    }

    /// Every current event waiting now (what `App::logic` drains each
    /// frame); events of requests replaced since they were queued are
    /// dropped here.
    pub fn drain(&self) -> Vec<Event> {
        self.events
            .try_iter()
            .filter_map(|e| self.fresh(e))
            .collect()
    }

    /// Waits for the next current event (for scripts and tests, not the UI
    /// thread).
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Event> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.checked_duration_since(Instant::now())?;
            let envelope = self.events.recv_timeout(left).ok()?;
            if let Some(e) = self.fresh(envelope) {
                return Some(e);
            }
        }
    }

    /// What the cache has to tell the user since last asked (rows it
    /// could not read and dropped; that it cannot keep new data).
    pub fn cache_notices(&self) -> Vec<CacheNotice> {
        self.cache
            .as_ref()
            .map(|c| c.take_notices())
            .unwrap_or_default()
    }

    /// Now by the service in use, as its last answers told it (`None`:
    /// not told yet, or no service). Never waits.
    pub fn service_now(&self) -> Option<i64> {
        self.service_clock.now_secs()
    }

    /// Whether `request` is still the current one for its target.
    pub fn is_current(&self, target: &Target, request: RequestId) -> bool {
        self.current.is(target, request)
    }

    /// Commands sent whose work has not ended (a task that ended or was
    /// aborted can report nothing more): zero means no event can come
    /// until the next command.
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::SeqCst)
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
        // Every task gone, the writer ends once it has stored what they
        // handed it.
        if let Some(t) = self.storer.take()
            && t.join().is_err()
        {
            tracing::error!("the cache's writer panicked");
        }
    }
}

/// The worker's name for its runtime's threads.
const IO_THREAD_NAME: &str = "fleetview-io";

/// The worker's runtime: two threads for its tasks, and a pool for the
/// blocking work (cache reads, DNS lookups, file writes). The pool is
/// bounded: tokio's default (512) let a page's burst of cache reads, all
/// waiting on the cache's one reader, start a thread each (docs/decisions.md).
fn io_runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .thread_name(IO_THREAD_NAME)
        .enable_all()
        .build()
}

#[cfg(test)]
mod runtime_tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// This process's threads named as the worker's runtime names them.
    fn io_threads() -> usize {
        let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
            return 0;
        };
        tasks
            .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
            .filter(|name| name.trim_end() == IO_THREAD_NAME)
            .count()
    }

    /// A page's burst of cache reads all waiting on the one reader: each
    /// took a thread of its own, idle for 10 s after, and the soak's
    /// resident set grew with the hundreds of threads (docs/performance.md).
    #[test]
    #[cfg(target_os = "linux")]
    fn a_burst_of_blocking_work_takes_a_bounded_number_of_threads() {
        let runtime = io_runtime().expect("runtime");
        let gate = Arc::new(AtomicBool::new(false));
        let before = io_threads();
        let tasks: Vec<_> = (0..100)
            .map(|_| {
                let gate = gate.clone();
                runtime.spawn_blocking(move || {
                    let deadline = Instant::now() + Duration::from_secs(10);
                    while !gate.load(Ordering::Acquire) && Instant::now() < deadline {
                        std::thread::yield_now();
                    }
                })
            })
            .collect();
        let during = io_threads() - before;
        gate.store(true, Ordering::Release);
        runtime.block_on(async {
            for t in tasks {
                t.await.expect("task");
            }
        });
        assert!(
            during <= 2 + MAX_BLOCKING_THREADS,
            "{during} threads for 100 blocking tasks"
        );
    }
}
