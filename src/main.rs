//! Command line: parse arguments, set up logging, run what was asked.

use std::io::IsTerminal as _;
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Parser, Subcommand};
use fleetview::sandbox::chaos::ChaosConfig;
use fleetview::sandbox::{Clock, DEFAULT_FLEET_SIZE, SandboxConfig};
use tracing_subscriber::EnvFilter;

#[derive(Debug, Parser)]
#[command(
    name = "fleetview",
    version,
    about = "Inspect a machine's telematics history and manage fleet integrations"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the simulated fleet over HTTP (the service's every operation).
    Sandbox(SandboxArgs),
}

#[derive(Debug, Parser)]
struct SandboxArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Directory for the integrations database and signing key
    /// (default: the user's data directory).
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Number of machines in the simulated fleet.
    #[arg(long, default_value_t = DEFAULT_FLEET_SIZE)]
    fleet_size: u64,
    /// Token lifetime in seconds.
    #[arg(long, default_value_t = fleetview::sandbox::DEFAULT_TOKEN_TTL_SECS)]
    token_ttl_secs: i64,
    /// Fixed "now" for the simulation, as YYYY-MM-DDTHH:mm:ssZ (default: the clock).
    #[arg(long)]
    now: Option<String>,
    /// Fault injection for client tests, e.g. "500=0.1,429=0.05,latency_ms=200,latency=0.3".
    #[arg(long)]
    chaos: Option<String>,
    /// Compress answers with gzip for clients that accept it.
    #[arg(long)]
    gzip: bool,
}

fn default_data_dir() -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("fleetview")
        .join("sandbox")
}

#[allow(clippy::print_stdout)] // The first stdout line is the contract: "listening on URL".
async fn run_sandbox(args: SandboxArgs) -> anyhow::Result<()> {
    let clock = match &args.now {
        Some(s) => Clock::Fixed(fleetview::api::time::parse_wire(s).context("--now")?),
        None => Clock::System,
    };
    let chaos = match &args.chaos {
        Some(spec) => ChaosConfig::parse(spec)
            .map_err(anyhow::Error::msg)
            .context("--chaos")?,
        None => ChaosConfig::default(),
    };
    let data_dir = args.data_dir.unwrap_or_else(default_data_dir);
    let sandbox = SandboxConfig::default()
        .listen(args.listen)
        .data_dir(&data_dir)
        .fleet_size(args.fleet_size)
        .clock(clock)
        .token_ttl_secs(args.token_ttl_secs)
        .chaos(chaos)
        .gzip(args.gzip)
        .start()
        .await?;
    println!("listening on {}", sandbox.base_url());
    tracing::info!(data_dir = %data_dir.display(), "log in with POST /auth/login {{\"username\":\"demo\",\"password\":\"demo\"}}");
    tokio::select! {
        _ = sandbox.wait() => {}
        _ = tokio::signal::ctrl_c() => tracing::info!("stopping"),
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let cli = Cli::parse();
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    match cli.command {
        Some(Command::Sandbox(args)) => runtime.block_on(run_sandbox(args)),
        // Until the desktop app lands, the bare command serves the sandbox.
        None => runtime.block_on(run_sandbox(SandboxArgs::parse_from(["sandbox"]))),
    }
}
