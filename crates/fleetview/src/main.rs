//! Command line: parse arguments, set up logging, run what was asked.

use std::io::IsTerminal as _;
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Parser, Subcommand};
use fleetview_api::model::SecretValue;
use fleetview_api::time::{TimeWindow, now_secs};
use fleetview_api::{ApiKey, ClientConfig};
use fleetview_core::cache::Cache;
use fleetview_sandbox::chaos::ChaosConfig;
use fleetview_sandbox::{Clock, DEFAULT_FLEET_SIZE, SandboxConfig};
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
    /// Base URL of the service (default: the embedded sandbox).
    #[arg(long, env = "FLEETVIEW_BASE_URL")]
    base_url: Option<String>,
    #[command(flatten)]
    login: LoginArgs,
    /// Fixed "now" for the embedded sandbox and the window presets, as
    /// YYYY-MM-DDTHH:mm:ssZ (for demos and screenshots).
    #[arg(long, hide = true)]
    now: Option<String>,
    /// Size of the embedded sandbox's fleet.
    #[arg(long, hide = true)]
    sandbox_fleet_size: Option<u64>,
    /// Save the app's exports in this directory without asking (for
    /// desktops where no file dialog can open).
    #[arg(long)]
    export_dir: Option<PathBuf>,
}

/// How to sign in to the service: an API key (logged in with, and again
/// when the token runs out), a token, or both.
#[derive(Debug, clap::Args)]
struct LoginArgs {
    /// Name of the API key (as created in the service's settings).
    #[arg(long, env = "FLEETVIEW_API_KEY_NAME", requires = "api_key")]
    api_key_name: Option<String>,
    /// The API key; prefer the environment variable.
    #[arg(
        long,
        env = "FLEETVIEW_API_KEY",
        hide_env_values = true,
        requires = "api_key_name"
    )]
    api_key: Option<String>,
    /// Access token (x-access-token); prefer the environment variable.
    #[arg(long, env = "FLEETVIEW_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// Send the token or key over plain http to a host beyond loopback (D12).
    #[arg(long)]
    allow_insecure_http: bool,
}

impl LoginArgs {
    fn api_key(&self) -> Option<ApiKey> {
        match (&self.api_key_name, &self.api_key) {
            (Some(name), Some(key)) => Some(ApiKey::new(name.trim(), key.trim())),
            _ => None,
        }
    }

    fn apply(self, client: &mut ClientConfig) {
        client.api_key = self.api_key();
        client.token = self.token.map(SecretValue::new);
        client.allow_insecure_http = self.allow_insecure_http;
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the simulated fleet over HTTP (the service's every operation).
    Sandbox(SandboxArgs),
    /// Fetch one machine's data for a window and write it as CSV or JSON.
    Export(ExportArgs),
    /// A machine's figures over a window and each of its (UTC) days, as
    /// JSON, CSV or Markdown.
    Report(ReportArgs),
}

/// The service a command-line job reads, and how it signs in.
#[derive(Debug, clap::Args)]
struct ServiceArgs {
    /// Base URL of the service.
    #[arg(long, env = "FLEETVIEW_BASE_URL")]
    base_url: String,
    #[command(flatten)]
    login: LoginArgs,
}

impl ServiceArgs {
    fn client(self) -> ClientConfig {
        let mut client = ClientConfig::new(self.base_url);
        self.login.apply(&mut client);
        client
    }
}

/// The window a command-line job reads.
#[derive(Debug, clap::Args)]
struct WindowArgs {
    /// Start of the window, YYYY-MM-DDTHH:mm:ssZ (default: yesterday 00:00:00Z).
    #[arg(long)]
    since: Option<String>,
    /// End of the window, inclusive (default: today 23:59:59Z).
    #[arg(long)]
    until: Option<String>,
    /// Now, as YYYY-MM-DDTHH:mm:ssZ (default: the clock): for the default
    /// window, and for what is still going on (a stop, a running engine)
    /// against a sandbox started with its own --now.
    #[arg(long)]
    now: Option<String>,
}

impl WindowArgs {
    fn now(&self) -> anyhow::Result<i64> {
        self.now
            .as_deref()
            .map(fleetview_api::time::parse_wire)
            .transpose()
            .context("--now")
            .map(|n| n.unwrap_or_else(now_secs))
    }

    fn window(&self) -> anyhow::Result<TimeWindow> {
        TimeWindow::parse(self.since.as_deref(), self.until.as_deref(), self.now()?)
            .context("--since/--until")
    }
}

/// The cache a command-line job reads through (the app's).
#[derive(Debug, clap::Args)]
struct CacheArgs {
    /// Read only the local cache, never the service.
    #[arg(long)]
    offline: bool,
    /// Cache file (default: the user's cache directory).
    #[arg(long)]
    cache_file: Option<PathBuf>,
    /// Do not read or write the cache.
    #[arg(long, conflicts_with_all = ["offline", "cache_file"])]
    no_cache: bool,
}

impl CacheArgs {
    /// The cache file, `None` for none.
    fn path(&self) -> anyhow::Result<Option<PathBuf>> {
        if self.no_cache {
            return Ok(None);
        }
        self.cache_file
            .clone()
            .or_else(Cache::default_path)
            .context("no cache directory on this system; use --cache-file or --no-cache")
            .map(Some)
    }
}

#[derive(Debug, Parser)]
struct ExportArgs {
    #[command(flatten)]
    service: ServiceArgs,
    /// Equipment id.
    #[arg(long)]
    equipment: i64,
    /// Any data kind of the service (positions, activities, fuelRemaining,
    /// "evEnergyUsed faults", ...), faults, history, or events (the window's
    /// events and findings, as `fleetview report` finds them).
    #[arg(long)]
    kind: String,
    #[command(flatten)]
    window: WindowArgs,
    #[arg(long, value_enum, default_value_t = FormatArg::Csv)]
    format: FormatArg,
    /// Units of the values written (CSV tables and events; JSON keeps the
    /// service's rows and units, GPX and GeoJSON their standards').
    #[arg(long, value_enum, default_value_t = UnitsArg::Metric)]
    units: UnitsArg,
    /// Output file (default: stdout).
    #[arg(long, short)]
    output: Option<PathBuf>,
    #[command(flatten)]
    cache: CacheArgs,
    #[command(flatten)]
    events: EventArgs,
}

/// What the events (D16) of a report or an events export need.
#[derive(Debug, clap::Args)]
struct EventArgs {
    /// Working days, for out-of-hours use: `mon-fri`, `mon,tue,sat`, ...
    #[arg(long, default_value = "mon-fri")]
    working_days: String,
    /// Working hours in the machine's local time, for out-of-hours use.
    #[arg(long, default_value = "06:00-20:00")]
    working_hours: String,
    /// The fuel tank's capacity in litres, for refuels and drains in litres
    /// (default: from the machine's model where known).
    // A negative number is read as one (and refused with a clear message),
    // not as an unknown option.
    #[arg(long, allow_negative_numbers = true)]
    tank_capacity_l: Option<f64>,
}

/// The units values are written in.
#[derive(Debug, Clone, Copy, Default, clap::ValueEnum)]
enum UnitsArg {
    /// km, L, km/h, °C, kg (the service's units read and converted).
    #[default]
    Metric,
    /// mi, US gal, mph, °F, lb: headers and keys say so (`fuelUsed (gal)`).
    Imperial,
}

impl From<UnitsArg> for fleetview_core::analysis::UnitSystem {
    fn from(u: UnitsArg) -> Self {
        match u {
            UnitsArg::Metric => Self::Metric,
            UnitsArg::Imperial => Self::Imperial,
        }
    }
}

#[derive(Debug, Parser)]
struct ReportArgs {
    #[command(flatten)]
    service: ServiceArgs,
    /// Equipment id.
    #[arg(long)]
    equipment: i64,
    #[command(flatten)]
    window: WindowArgs,
    /// Hours a machine is expected to run per working day (Monday to
    /// Friday), for utilisation.
    #[arg(long, default_value_t = fleetview_core::analysis::figures::DEFAULT_EXPECTED_HOURS_PER_DAY)]
    expected_hours: f64,
    #[arg(long, value_enum, default_value_t = ReportFormatArg::Json)]
    format: ReportFormatArg,
    /// Units of the figures and events written.
    #[arg(long, value_enum, default_value_t = UnitsArg::Metric)]
    units: UnitsArg,
    /// Output file (default: stdout).
    #[arg(long, short)]
    output: Option<PathBuf>,
    #[command(flatten)]
    cache: CacheArgs,
    #[command(flatten)]
    events: EventArgs,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ReportFormatArg {
    /// One JSON document, for scripts.
    Json,
    /// A row per day, then the total.
    Csv,
    /// Markdown tables, for e-mails.
    #[value(name = "md", alias = "markdown")]
    Md,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Csv,
    Json,
    /// Positions as a GPX track.
    Gpx,
    /// Positions as GeoJSON points.
    Geojson,
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
    #[arg(long, default_value_t = fleetview_sandbox::DEFAULT_TOKEN_TTL_SECS)]
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
    /// Allow --listen on an address beyond loopback. Its demo login is
    /// public: anyone who can reach the address can use the sandbox.
    #[arg(long)]
    public: bool,
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
        Some(s) => Clock::Fixed(fleetview_api::time::parse_wire(s).context("--now")?),
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
        .public(args.public)
        .start()
        .await?;
    println!("listening on {}", sandbox.base_url());
    tracing::info!(data_dir = %data_dir.display(), "log in with POST /login {{\"name\":\"demo\",\"apiKey\":\"demo\"}}");
    tokio::select! {
        _ = sandbox.wait() => {}
        _ = tokio::signal::ctrl_c() => tracing::info!("stopping"),
    }
    Ok(())
}

#[allow(clippy::print_stderr)] // Progress and warnings go to stderr by design.
fn run_export(args: ExportArgs) -> anyhow::Result<()> {
    use fleetview::cli::export::{ExportKind, ExportRequest, Format, run_export};
    use fleetview::cli::report_writers::ReportFormat;
    if args.kind.trim() == "events" {
        let format = match args.format {
            FormatArg::Csv => ReportFormat::EventsCsv,
            FormatArg::Json => ReportFormat::EventsJson,
            FormatArg::Gpx | FormatArg::Geojson => {
                anyhow::bail!("events are exported as csv or json (use --format csv or json)")
            }
        };
        return report_job(
            args.service,
            args.equipment,
            args.window,
            Default::default(),
            format,
            args.output,
            args.cache,
            args.events,
            args.units,
        );
    }
    let kind: ExportKind = args.kind.parse()?;
    let window = args.window.window()?;
    let client = args.service.client();
    let cache_path = args.cache.path()?;
    let request = ExportRequest {
        client,
        equipment: args.equipment,
        kind,
        window,
        format: match args.format {
            FormatArg::Csv => Format::Csv,
            FormatArg::Json => Format::Json,
            FormatArg::Gpx => Format::Gpx,
            FormatArg::Geojson => Format::GeoJson,
        },
        offline: args.cache.offline,
        cache_path,
        output: args.output,
        units: args.units.into(),
    };
    let summary = run_export(&request, |note| eprintln!("{note}"))?;
    eprintln!(
        "{} rows written ({} requests to the service, {} windows from the cache)",
        summary.rows, summary.requests, summary.cached_windows
    );
    Ok(())
}

fn run_report(args: ReportArgs) -> anyhow::Result<()> {
    use fleetview::cli::report_writers::ReportFormat;
    use fleetview_core::analysis::Expected;
    let format = match args.format {
        ReportFormatArg::Json => ReportFormat::Json,
        ReportFormatArg::Csv => ReportFormat::Csv,
        ReportFormatArg::Md => ReportFormat::Markdown,
    };
    let expected = Expected {
        hours_per_working_day: args.expected_hours,
    };
    report_job(
        args.service,
        args.equipment,
        args.window,
        expected,
        format,
        args.output,
        args.cache,
        args.events,
        args.units,
    )
}

/// A report, or the events alone, of one machine over a window.
#[allow(clippy::print_stderr)] // Progress and notes go to stderr by design.
#[allow(clippy::too_many_arguments)] // The parts of two commands' arguments.
fn report_job(
    service: ServiceArgs,
    equipment: i64,
    window: WindowArgs,
    expected: fleetview_core::analysis::Expected,
    format: fleetview::cli::report_writers::ReportFormat,
    output: Option<PathBuf>,
    cache: CacheArgs,
    events: EventArgs,
    units: UnitsArg,
) -> anyhow::Result<()> {
    use fleetview::cli::report::{ReportJob, parse_working_hours, run_report};
    use fleetview::cli::report_writers::ReportFormat;
    let (window, now) = (window.window()?, window.now()?);
    let cache_path = cache.path()?;
    let job = ReportJob {
        client: service.client(),
        equipment,
        window,
        expected,
        format,
        offline: cache.offline,
        cache_path,
        output,
        now,
        working_hours: parse_working_hours(&events.working_days, &events.working_hours)?,
        tank_l: events.tank_capacity_l,
        units: units.into(),
    };
    let summary = run_report(&job, |note| eprintln!("{note}"))?;
    match format {
        ReportFormat::EventsCsv | ReportFormat::EventsJson => {
            eprintln!("{} events of equipment {equipment} written", summary.events)
        }
        _ => eprintln!(
            "report of equipment {equipment} written: {} days, {} events",
            summary.days, summary.events
        ),
    }
    Ok(())
}

fn run_app(cli: Cli) -> anyhow::Result<()> {
    use fleetview::shell::{AppOptions, FleetApp, ServiceOptions};
    let mut options = AppOptions::desktop();
    let api_key = cli.login.api_key();
    options.service = cli.base_url.map(|base_url| ServiceOptions {
        base_url,
        token: cli.login.token.map(SecretValue::new),
        api_key,
        allow_insecure_http: cli.login.allow_insecure_http,
    });
    options.clock = cli
        .now
        .as_deref()
        .map(fleetview_api::time::parse_wire)
        .transpose()
        .context("--now")?;
    options.sandbox_fleet_size = cli.sandbox_fleet_size;
    options.export_dir = cli.export_dir;
    eframe::run_native(
        fleetview::shell::APP_ID,
        fleetview::shell::native_options(),
        Box::new(move |cc| Ok(Box::new(FleetApp::new(cc, options)))),
    )
    .map_err(|e| anyhow::anyhow!("the window could not be opened: {e}"))
}

/// Logs to stderr; the desktop app also to a file a day in its log folder
/// (the last week kept), which About shows. The guard flushes the file.
fn init_logging(
    log_dir: Option<&std::path::Path>,
) -> Option<tracing_appender::non_blocking::WorkerGuard> {
    use tracing_subscriber::prelude::*;
    // Offline, every online map tile fails: walkers would warn per tile.
    let filter = || {
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,walkers=error"))
    };
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_filter(filter());
    let mut problem = None;
    let file = log_dir.and_then(|dir| {
        let built = std::fs::create_dir_all(dir)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                tracing_appender::rolling::Builder::new()
                    .rotation(tracing_appender::rolling::Rotation::DAILY)
                    .filename_prefix("fleetview")
                    .filename_suffix("log")
                    .max_log_files(7)
                    .build(dir)
                    .map_err(|e| e.to_string())
            });
        built.map_err(|e| problem = Some((dir.to_owned(), e))).ok()
    });
    let (file_layer, guard) = match file.map(tracing_appender::non_blocking) {
        Some((writer, guard)) => (
            Some(
                tracing_subscriber::fmt::layer()
                    .with_writer(writer)
                    .with_ansi(false)
                    .with_filter(filter()),
            ),
            Some(guard),
        ),
        None => (None, None),
    };
    tracing_subscriber::registry()
        .with(stderr)
        .with(file_layer)
        .init();
    if let Some((dir, e)) = problem {
        tracing::warn!(dir = %dir.display(), "logging to stderr only: {e}");
    }
    guard
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    // The desktop app's log is kept in files; commands log to stderr.
    let log_dir = cli
        .command
        .is_none()
        .then(fleetview::shell::default_log_dir)
        .flatten();
    let _log_guard = init_logging(log_dir.as_deref());
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    match cli.command {
        Some(Command::Sandbox(args)) => runtime.block_on(run_sandbox(args)),
        Some(Command::Export(args)) => {
            drop(runtime);
            run_export(args)
        }
        Some(Command::Report(args)) => {
            drop(runtime);
            run_report(args)
        }
        None => {
            drop(runtime);
            run_app(cli)
        }
    }
}
