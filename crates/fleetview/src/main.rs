//! Command line: parse the arguments, set up logging, dispatch to the job
//! asked for (the jobs and their arguments are in the library's `cli`).

use std::io::IsTerminal as _;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::{CommandFactory as _, Parser, Subcommand};
use fleetview::cli::args::{
    CacheArgs, EventArgs, LoginArgs, ServiceArgs, UnitsArg, WindowArgs, parse_now,
};
use fleetview::cli::assets::{AssetsArgs, write_assets};
use fleetview::cli::exit::{EXIT_STATUS_HELP, is_closed_pipe};
use fleetview::cli::export::{
    CliExportError, ExportArgs, ExportKind, ExportRequest, FormatArg, run_export,
};
use fleetview::cli::report::{
    CliReportError, ReportArgs, ReportJob, Subject, parse_working_hours, run_report,
};
use fleetview::cli::sandbox::SandboxArgs;
use fleetview::cli::service::{CliServiceError, ServiceCmdArgs, run_service};
use fleetview_api::model::SecretValue;
use fleetview_core::analysis::Expected;
use fleetview_core::analysis::attention::DEFAULT_IDLE_THRESHOLD_PERCENT;
use fleetview_core::report::ReportFormat;
use tracing_subscriber::EnvFilter;

#[derive(Debug, Parser)]
#[command(
    name = "fleetview",
    version,
    propagate_version = true,
    about = "Inspect a machine's telematics history and manage fleet integrations",
    after_help = EXIT_STATUS_HELP
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

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the simulated fleet over HTTP (the service's every operation).
    Sandbox(SandboxArgs),
    /// Fetch one machine's data for a window and write it as CSV or JSON.
    Export(ExportArgs),
    /// A machine's figures over a window and each of its (UTC) days, or the
    /// whole fleet's (--fleet), as JSON, CSV, Markdown or HTML.
    Report(ReportArgs),
    /// Service plans from the hour meter: import plans or services done
    /// (CSV), list what is due (JSON, CSV), export the plans or a calendar.
    Service(ServiceCmdArgs),
    /// Write the man pages and shell completions into a folder (for the
    /// package).
    #[command(hide = true)]
    Assets(AssetsArgs),
}

#[allow(clippy::print_stdout)] // The first stdout line is the contract: "listening on URL".
async fn run_sandbox(args: SandboxArgs) -> anyhow::Result<()> {
    Ok(args.serve(|url| println!("listening on {url}")).await?)
}

#[allow(clippy::print_stderr)] // Progress and warnings go to stderr by design.
fn export_job(args: ExportArgs) -> anyhow::Result<()> {
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
            Subject::Machine(args.equipment),
            args.window,
            Default::default(),
            format,
            args.output,
            args.cache,
            args.events,
            args.units,
            f64::from(DEFAULT_IDLE_THRESHOLD_PERCENT),
        );
    }
    let kind: ExportKind = args.kind.parse()?;
    let request = ExportRequest {
        window: args.window.window()?,
        cache_path: args.cache.path()?,
        client: args.service.client(),
        equipment: args.equipment,
        kind,
        format: args.format.into(),
        offline: args.cache.offline,
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

fn report_command(args: ReportArgs) -> anyhow::Result<()> {
    let expected = Expected {
        hours_per_working_day: args.expected_hours,
    };
    // clap gives exactly one of them.
    let subject = match args.equipment {
        Some(id) if !args.fleet => Subject::Machine(id),
        _ => Subject::Fleet,
    };
    report_job(
        args.service,
        subject,
        args.window,
        expected,
        args.format.into(),
        args.output,
        args.cache,
        args.events,
        args.units,
        f64::from(args.idle_threshold_percent),
    )
}

/// A report (a machine's or the fleet's), or one machine's events alone,
/// over a window.
#[allow(clippy::print_stderr)] // Progress and notes go to stderr by design.
#[allow(clippy::too_many_arguments)] // The parts of two commands' arguments.
fn report_job(
    service: ServiceArgs,
    subject: Subject,
    window: WindowArgs,
    expected: Expected,
    format: ReportFormat,
    output: Option<PathBuf>,
    cache: CacheArgs,
    events: EventArgs,
    units: UnitsArg,
    idle_threshold_percent: f64,
) -> anyhow::Result<()> {
    let job = ReportJob {
        window: window.window()?,
        now: window.now()?,
        cache_path: cache.path()?,
        client: service.client(),
        subject,
        expected,
        format,
        offline: cache.offline,
        output,
        working_hours: parse_working_hours(&events.working_days, &events.working_hours)?,
        tank_l: events.tank_capacity_l,
        units: units.into(),
        idle_threshold_percent,
    };
    let summary = run_report(&job, |note| eprintln!("{note}"))?;
    match (format, subject) {
        (ReportFormat::EventsCsv | ReportFormat::EventsJson, Subject::Machine(id)) => {
            eprintln!("{} events of equipment {id} written", summary.events)
        }
        (_, Subject::Machine(id)) => eprintln!(
            "report of equipment {id} written: {} days, {} events",
            summary.days, summary.events
        ),
        (_, Subject::Fleet) => eprintln!(
            "fleet report written: {} machines, {} events",
            summary.machines, summary.events
        ),
    }
    Ok(())
}

/// A `fleetview service` job: its notes on stderr, an import's line (said
/// once the book committed it) on stdout.
#[allow(clippy::print_stdout, clippy::print_stderr)]
fn service_job(args: ServiceCmdArgs) -> anyhow::Result<()> {
    if let Some(line) = run_service(args, |note| eprintln!("{note}"))? {
        println!("{line}");
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
    options.clock = parse_now(cli.now.as_deref())?;
    options.sandbox_fleet_size = cli.sandbox_fleet_size;
    options.export_dir = cli.export_dir;
    let settings = fleetview::shell::settings_file();
    if let (Some(old), Some(new)) = (fleetview::shell::old_settings_file(), &settings) {
        match fleetview::shell::move_settings(&old, new) {
            Ok(true) => tracing::info!("settings moved to {}", new.display()),
            Ok(false) => {}
            Err(e) => tracing::warn!("the settings could not be moved to {}: {e}", new.display()),
        }
    }
    eframe::run_native(
        fleetview::shell::FOLDER,
        fleetview::shell::native_options(settings),
        Box::new(move |cc| {
            fleetview::shell::close_on_terminate(&cc.egui_ctx);
            Ok(Box::new(FleetApp::new(cc, options)))
        }),
    )
    .map_err(|e| anyhow::anyhow!("the window could not be opened: {e}"))
}

/// Logs to stderr; the desktop app also to a file a day in its log folder
/// (the last week kept), which About shows. The guard flushes the file.
/// `default_level` unless `RUST_LOG` says otherwise: an export or a report
/// says what matters in its own words on stderr, so only warnings are
/// logged there.
fn init_logging(
    log_dir: Option<&std::path::Path>,
    default_level: &str,
) -> Option<tracing_appender::non_blocking::WorkerGuard> {
    use tracing_subscriber::prelude::*;
    // Offline, every online map tile fails: walkers would warn per tile.
    let filter = || {
        EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| EnvFilter::new(format!("{default_level},walkers=error")))
    };
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal() && !no_color())
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

/// `NO_COLOR` set and not empty: no colours in what is written (no-color.org).
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// The exit status for a failure (`cli/exit.rs`); usage errors are clap's 2.
fn exit_status(e: &anyhow::Error) -> u8 {
    if let Some(e) = e.downcast_ref::<CliExportError>() {
        e.exit_status()
    } else if let Some(e) = e.downcast_ref::<CliReportError>() {
        e.exit_status()
    } else if let Some(e) = e.downcast_ref::<CliServiceError>() {
        e.exit_status()
    } else {
        fleetview::cli::exit::FAILED
    }
}

/// jemalloc gives back to the system what is freed, where glibc's malloc
/// kept it: over a day the resident set grew with the live heap flat
/// (docs/performance.md, the soak).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[allow(clippy::print_stderr)] // The error, as `anyhow` prints it from main.
fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // The reader took what it wanted (`| head`): nothing to say.
        Err(e) if is_closed_pipe(e.as_ref()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {e:?}");
            std::process::ExitCode::from(exit_status(&e))
        }
    }
}

fn run() -> anyhow::Result<()> {
    fleetview::shell::with_malloc_settings();
    let cli = Cli::parse();
    // The desktop app's log is kept in files; commands log to stderr.
    let log_dir = cli
        .command
        .is_none()
        .then(fleetview::shell::default_log_dir)
        .flatten();
    let jobs = matches!(
        cli.command,
        Some(Command::Export(_)) | Some(Command::Report(_)) | Some(Command::Service(_))
    );
    let _log_guard = init_logging(log_dir.as_deref(), if jobs { "warn" } else { "info" });
    match cli.command {
        // Only the sandbox serves from this thread; the app and the jobs
        // run their own workers.
        Some(Command::Sandbox(args)) => tokio::runtime::Runtime::new()
            .context("starting the async runtime")?
            .block_on(run_sandbox(args)),
        Some(Command::Export(args)) => export_job(args),
        Some(Command::Report(args)) => report_command(args),
        Some(Command::Service(args)) => service_job(args),
        Some(Command::Assets(args)) => {
            write_assets(Cli::command(), &args.dir)
                .with_context(|| format!("writing into {}", args.dir.display()))?;
            Ok(())
        }
        None => run_app(cli),
    }
}
