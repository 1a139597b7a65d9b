//! The sandbox: an implementation of the service (axum + SQLite + the
//! deterministic simulator), for the app's first run, for tests and for
//! scripts. It may use `api`'s wire types, never app, ui, worker or cache.

pub mod answers;
pub mod auth;
pub(crate) mod catalog;
pub mod chaos;
pub(crate) mod clock;
pub mod embedded;
pub mod encode;
mod equipments;
mod files;
mod http;
mod login;
pub(crate) mod routes;
pub(crate) mod shared;
pub mod simulate;
pub(crate) mod stream;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use auth::Auth;
use catalog::{Store, StoreError};
use chaos::{Chaos, ChaosConfig};
pub use clock::{Clock, ManualClock};
use shared::Shared;
use simulate::Simulator;
use stream::HeavyWork;

/// Default fleet size: a mixed fleet of about 60 machines.
pub const DEFAULT_FLEET_SIZE: u64 = 60;
/// Default token lifetime: a working day.
pub const DEFAULT_TOKEN_TTL_SECS: i64 = 12 * 3600;

/// How to run a sandbox. Build with the methods, then [`SandboxConfig::start`].
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    pub(crate) listen: SocketAddr,
    /// Where integrations and the signing key live; `None` keeps them in
    /// memory (gone when the sandbox stops).
    pub(crate) data_dir: Option<PathBuf>,
    pub(crate) fleet_size: u64,
    pub(crate) clock: Clock,
    pub(crate) token_ttl_secs: i64,
    pub(crate) chaos: ChaosConfig,
    /// Compress answers with gzip when the client accepts it.
    pub(crate) gzip: bool,
    /// Listen on an address beyond loopback, although the demo login is
    /// public.
    pub(crate) public: bool,
    /// Keep the method, path and query of every request, for benchmarks
    /// that replay exactly what a client asked (never headers or bodies).
    pub(crate) record_requests: bool,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            data_dir: None,
            fleet_size: DEFAULT_FLEET_SIZE,
            clock: Clock::System,
            token_ttl_secs: DEFAULT_TOKEN_TTL_SECS,
            chaos: ChaosConfig::default(),
            gzip: false,
            public: false,
            record_requests: false,
        }
    }
}

impl SandboxConfig {
    pub fn listen(mut self, addr: SocketAddr) -> Self {
        self.listen = addr;
        self
    }
    pub fn data_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.data_dir = Some(dir.into());
        self
    }
    pub fn fleet_size(mut self, n: u64) -> Self {
        self.fleet_size = n;
        self
    }
    pub fn clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }
    pub fn token_ttl_secs(mut self, secs: i64) -> Self {
        self.token_ttl_secs = secs;
        self
    }
    pub fn chaos(mut self, chaos: ChaosConfig) -> Self {
        self.chaos = chaos;
        self
    }
    pub fn gzip(mut self, on: bool) -> Self {
        self.gzip = on;
        self
    }
    pub fn record_requests(mut self, on: bool) -> Self {
        self.record_requests = on;
        self
    }

    pub fn public(mut self, on: bool) -> Self {
        self.public = on;
        self
    }

    /// Binds the listener and serves in the current tokio runtime.
    pub async fn start(self) -> Result<RunningSandbox, SandboxError> {
        if !self.public && !self.listen.ip().to_canonical().is_loopback() {
            return Err(SandboxError::NotLoopback(self.listen));
        }
        let store = match &self.data_dir {
            Some(dir) => {
                let catalog = dir.join("catalog.sqlite");
                files::private_dir(dir)
                    .and_then(|()| files::private_database(&catalog))
                    .map_err(|e| SandboxError::DataDir(dir.clone(), e))?;
                Store::open(&catalog)?
            }
            None => Store::in_memory()?,
        };
        let key = store.secret("jwt_key", || signing_key(getrandom::fill))?;
        let shared = Arc::new(Shared {
            sim: Simulator::new(self.fleet_size, self.clock.clone()),
            store,
            auth: Auth::new(&key, self.token_ttl_secs, self.clock.clone()),
            chaos: self
                .chaos
                .is_active()
                .then(|| Arc::new(Chaos::new(self.chaos.clone()))),
            requests: AtomicU64::new(0),
            in_flight: Default::default(),
            recorded: self.record_requests.then(Default::default),
            logins: AtomicU64::new(0),
            heavy: HeavyWork::for_this_machine(),
        });
        let listener = TcpListener::bind(self.listen)
            .await
            .map_err(|e| SandboxError::Bind(self.listen, e))?;
        let addr = listener
            .local_addr()
            .map_err(|e| SandboxError::Bind(self.listen, e))?;
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let mut app = routes::router(shared.clone());
        if self.gzip {
            app = app.layer(tower_http::compression::CompressionLayer::new().gzip(true));
        }
        // Answers are written in pieces as rows are generated: without
        // TCP_NODELAY the last small piece waits for the client's delayed
        // acknowledgement (about 40 ms a request on Linux).
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            if let Err(e) = tcp.set_nodelay(true) {
                tracing::debug!("could not set TCP_NODELAY: {e}");
            }
        });
        let task = tokio::spawn(async move {
            let served = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = stop_rx.await;
                })
                .await;
            if let Err(e) = served {
                tracing::error!("sandbox server stopped: {e}");
            }
        });
        tracing::info!(%addr, fleet_size = self.fleet_size, "sandbox listening");
        Ok(RunningSandbox {
            addr,
            shared,
            stop: Some(stop_tx),
            task: Some(task),
        })
    }
}

/// A new signing key from the OS's randomness; there is no fallback, since
/// a guessable key would let anyone sign tokens.
fn signing_key(
    fill: impl FnOnce(&mut [u8]) -> Result<(), getrandom::Error>,
) -> Result<Vec<u8>, SandboxError> {
    let mut key = vec![0u8; 32];
    fill(&mut key).map_err(SandboxError::NoRandomness)?;
    Ok(key)
}

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, std::io::Error),
    #[error("cannot create the data directory {0} (or make it private): {1}")]
    DataDir(PathBuf, std::io::Error),
    #[error(
        "refusing to listen on {0}: the sandbox's login (demo/demo) is public, so anyone who \
         can reach that address could use it; listen on 127.0.0.1, or pass --public to \
         listen there anyway"
    )]
    NotLoopback(SocketAddr),
    #[error("the system offers no randomness for the sandbox's signing key: {0}")]
    NoRandomness(getrandom::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("could not start the sandbox's runtime: {0}")]
    Runtime(std::io::Error),
}

/// A sandbox serving in the background; stops when dropped.
#[derive(Debug)]
pub struct RunningSandbox {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl RunningSandbox {
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Requests received so far (any route, any answer).
    pub fn request_count(&self) -> u64 {
        self.shared.requests.load(Ordering::Relaxed)
    }

    /// The requests received since the last call, as `METHOD /path?query`,
    /// in order of arrival; empty unless the sandbox was configured with
    /// [`SandboxConfig::record_requests`].
    pub fn take_recorded(&self) -> Vec<String> {
        self.shared
            .recorded
            .as_ref()
            .map(|r| std::mem::take(&mut *r.lock().unwrap_or_else(|p| p.into_inner())))
            .unwrap_or_default()
    }

    /// The most requests answered at once since the last call (or the
    /// start): how many a client had out together.
    pub fn take_peak_in_flight(&self) -> usize {
        self.shared.in_flight.take_peak()
    }

    /// Successful logins so far, on `/login` and `/auth/login` alike.
    pub fn login_count(&self) -> u64 {
        self.shared.logins.load(Ordering::Relaxed)
    }

    /// Stops accepting, lets requests in flight finish, and waits.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }

    /// Waits until the server stops (for the `sandbox` command).
    pub async fn wait(mut self) {
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for RunningSandbox {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_randomness_no_key() {
        let failed = signing_key(|_| Err(getrandom::Error::UNSUPPORTED));
        assert!(
            matches!(failed, Err(SandboxError::NoRandomness(_))),
            "{failed:?}"
        );
        let key = signing_key(getrandom::fill).expect("this machine has randomness");
        assert_eq!(key.len(), 32);
        assert_ne!(key, signing_key(getrandom::fill).expect("again"));
    }

    #[tokio::test]
    async fn only_loopback_unless_public() {
        for addr in ["0.0.0.0:0", "[::]:0", "[::ffff:0.0.0.0]:0"] {
            let addr: SocketAddr = addr.parse().expect("an address");
            let refused = SandboxConfig::default().listen(addr).start().await;
            assert!(
                matches!(refused, Err(SandboxError::NotLoopback(_))),
                "{addr}: {refused:?}"
            );
        }
        let mapped: SocketAddr = "[::ffff:127.0.0.1]:0".parse().expect("an address");
        assert!(mapped.ip().to_canonical().is_loopback());
    }
}
