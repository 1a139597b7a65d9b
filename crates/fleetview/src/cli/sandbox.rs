//! `fleetview sandbox`: the simulated fleet served over HTTP, for scripts,
//! curl and other clients, until interrupted.

use std::net::SocketAddr;
use std::path::PathBuf;

use fleetview_sandbox::chaos::ChaosConfig;
use fleetview_sandbox::{Clock, DEFAULT_FLEET_SIZE, SandboxConfig, SandboxError};

use super::args::{ArgError, ChaosSpecError, parse_now};

#[derive(Debug, clap::Parser)]
pub struct SandboxArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Directory for the integrations database and signing key
    /// (default: the user's data directory).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Number of machines in the simulated fleet.
    #[arg(long, default_value_t = DEFAULT_FLEET_SIZE)]
    pub fleet_size: u64,
    /// Token lifetime in seconds.
    #[arg(long, default_value_t = fleetview_sandbox::DEFAULT_TOKEN_TTL_SECS)]
    pub token_ttl_secs: i64,
    /// Fixed "now" for the simulation, as YYYY-MM-DDTHH:mm:ssZ (default: the clock).
    #[arg(long)]
    pub now: Option<String>,
    /// Fault injection for client tests, e.g. "500=0.1,429=0.05,latency_ms=200,latency=0.3".
    #[arg(long)]
    pub chaos: Option<String>,
    /// Compress answers with gzip for clients that accept it.
    #[arg(long)]
    pub gzip: bool,
    /// Allow --listen on an address beyond loopback. Its demo login is
    /// public: anyone who can reach the address can use the sandbox.
    #[arg(long)]
    pub public: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum SandboxJobError {
    #[error(transparent)]
    Args(#[from] ArgError),
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
}

/// The app's sandbox folder; on a system without a data folder, one in
/// the temporary folder (the server still needs somewhere to write).
fn default_data_dir() -> PathBuf {
    crate::app::sandbox_data_dir()
        .unwrap_or_else(|| std::env::temp_dir().join("fleetview").join("sandbox"))
}

impl SandboxArgs {
    /// Serves until interrupted (Ctrl-C) or the server stops. `listening`
    /// receives the base URL once the socket is bound.
    pub async fn serve(self, listening: impl FnOnce(&str)) -> Result<(), SandboxJobError> {
        let clock = match parse_now(self.now.as_deref())? {
            Some(now) => Clock::Fixed(now),
            None => Clock::System,
        };
        let chaos = match &self.chaos {
            Some(spec) => {
                ChaosConfig::parse(spec).map_err(|e| ArgError::Chaos(ChaosSpecError(e)))?
            }
            None => ChaosConfig::default(),
        };
        let data_dir = self.data_dir.unwrap_or_else(default_data_dir);
        let sandbox = SandboxConfig::default()
            .listen(self.listen)
            .data_dir(&data_dir)
            .fleet_size(self.fleet_size)
            .clock(clock)
            .token_ttl_secs(self.token_ttl_secs)
            .chaos(chaos)
            .gzip(self.gzip)
            .public(self.public)
            .start()
            .await?;
        listening(&sandbox.base_url());
        tracing::info!(data_dir = %data_dir.display(), "log in with POST /login {{\"name\":\"demo\",\"apiKey\":\"demo\"}}");
        tokio::select! {
            _ = sandbox.wait() => {}
            _ = tokio::signal::ctrl_c() => tracing::info!("stopping"),
        }
        Ok(())
    }
}
