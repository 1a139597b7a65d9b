//! `fleetview export`: one machine's data for a window, fetched through the
//! worker and the cache (offline too), written by the pure writers.
//!
//! CSV: `date`, then one column per channel with its unit in the header
//! (`fuelUsed (L)`), and the `estimated` flags where the rows carry them.
//! JSON: the rows as the service sent them, limited to the window.
//! GPX and GeoJSON, for positions only.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use super::args::{CacheArgs, EventArgs, ServiceArgs, UnitsArg, WindowArgs};
use super::exit::{FAILED, NOT_CACHED, OfflineJobError, UNREACHABLE, USAGE, api_status};
use super::job::{Waiting, check_sign_in, note_cache_notices, start_worker, write_output_with};
use fleetview_api::limits::check_window;
use fleetview_api::model::PositionRow;
use fleetview_api::time::TimeWindow;
use fleetview_api::{ApiError, ClientConfig, DataKind, SeriesSource};
use fleetview_core::analysis::UnitSystem;
use fleetview_core::cache::CacheError;
use fleetview_core::export::round::round_json;
use fleetview_core::export::{
    ExportError, FileError, JsonArrayWriter, geo, in_units, write_csv, write_daily_csv, write_json,
};
use fleetview_core::series::{DecodeError, Series, decode_rows};
use fleetview_core::worker::{Command, Event, Fetched, MachineEvent, Worker, WorkerError};

/// `fleetview export`'s arguments.
#[derive(Debug, clap::Parser)]
#[command(after_help = super::exit::EXIT_STATUS_HELP)]
pub struct ExportArgs {
    #[command(flatten)]
    pub service: ServiceArgs,
    /// Equipment id.
    #[arg(long)]
    pub equipment: i64,
    /// Any data kind of the service (positions, activities, fuelRemaining,
    /// "evEnergyUsed faults", ...), faults, history, or events (the window's
    /// events and findings, as `fleetview report` finds them).
    #[arg(long)]
    pub kind: String,
    #[command(flatten)]
    pub window: WindowArgs,
    #[arg(long, value_enum, default_value_t = FormatArg::Csv)]
    pub format: FormatArg,
    /// Units of the values written (CSV tables and events; JSON keeps the
    /// service's rows and units, GPX and GeoJSON their standards').
    #[arg(long, value_enum, default_value_t = UnitsArg::Metric)]
    pub units: UnitsArg,
    /// Output file (default: stdout).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub cache: CacheArgs,
    #[command(flatten)]
    pub events: EventArgs,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum FormatArg {
    Csv,
    Json,
    /// Positions as a GPX track.
    Gpx,
    /// Positions as GeoJSON points.
    Geojson,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::Csv => Format::Csv,
            FormatArg::Json => Format::Json,
            FormatArg::Gpx => Format::Gpx,
            FormatArg::Geojson => Format::GeoJson,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CliExportError {
    #[error(transparent)]
    Api(#[from] ApiError),
    #[error(transparent)]
    Cache(#[from] CacheError),
    #[error(transparent)]
    Worker(#[from] WorkerError),
    #[error(transparent)]
    Write(#[from] ExportError),
    #[error("not everything asked for is cached (offline): missing {0}")]
    Incomplete(String),
    /// The service could not be reached at the login, and the cache then
    /// lacked what was asked for.
    #[error("{cause}; and {then}")]
    Unreachable {
        cause: ApiError,
        then: Box<CliExportError>,
    },
    #[error("unknown kind '{0}': use a data kind of the service, faults or history")]
    UnknownKind(String),
    #[error("the background worker stopped without an answer")]
    NoAnswer,
    #[error("reading what was fetched: {0}")]
    Decode(#[from] serde_json::Error),
    #[error("writing: {0}")]
    Io(#[from] std::io::Error),
    #[error("{format} applies to positions only (use --kind positions, or csv or json)")]
    NotApplicable { format: &'static str },
    #[error(
        "--units imperial applies to CSV tables; {format} keeps {what} (use --format csv, or --units metric)"
    )]
    UnitsNotApplicable {
        format: &'static str,
        what: &'static str,
    },
}

impl CliExportError {
    /// The exit status it ends the command with (`exit.rs`).
    pub fn exit_status(&self) -> u8 {
        match self {
            CliExportError::Api(e) | CliExportError::Worker(WorkerError::Client(e)) => {
                api_status(e)
            }
            CliExportError::Incomplete(_) => NOT_CACHED,
            CliExportError::Unreachable { .. } => UNREACHABLE,
            CliExportError::UnknownKind(_) => USAGE,
            _ => FAILED,
        }
    }
}

impl OfflineJobError for CliExportError {
    fn status(&self) -> u8 {
        self.exit_status()
    }

    fn unreachable(cause: ApiError, then: Box<Self>) -> Self {
        CliExportError::Unreachable { cause, then }
    }
}

impl From<FileError> for CliExportError {
    fn from(e: FileError) -> Self {
        match e {
            FileError::File(e) => CliExportError::Io(e),
            FileError::Content(e) => CliExportError::Write(e),
        }
    }
}

impl From<DecodeError> for CliExportError {
    fn from(DecodeError::Json(e): DecodeError) -> Self {
        CliExportError::Decode(e)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Json,
    /// Positions only.
    Gpx,
    /// Positions only.
    GeoJson,
}

impl Format {
    fn positions_only(self) -> Option<&'static str> {
        match self {
            Format::Gpx => Some("GPX"),
            Format::GeoJson => Some("GeoJSON"),
            Format::Csv | Format::Json => None,
        }
    }
}

/// What to export: a series (any data kind, or faults) or the history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    Series(SeriesSource),
    History,
}

impl std::str::FromStr for ExportKind {
    type Err = CliExportError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "faults" => Ok(ExportKind::Series(SeriesSource::Faults)),
            "history" => Ok(ExportKind::History),
            other => other
                .parse::<DataKind>()
                .map(|k| ExportKind::Series(SeriesSource::Kind(k)))
                .map_err(|_| CliExportError::UnknownKind(other.to_owned())),
        }
    }
}

#[derive(Debug, Clone)]
pub struct ExportRequest {
    pub client: ClientConfig,
    pub equipment: i64,
    pub kind: ExportKind,
    pub window: TimeWindow,
    pub format: Format,
    /// Read only the cache.
    pub offline: bool,
    /// The cache file; `None` for no cache at all.
    pub cache_path: Option<PathBuf>,
    /// The output file; `None` for stdout.
    pub output: Option<PathBuf>,
    /// The units of a CSV table's values (its headers say which).
    pub units: UnitSystem,
}

/// What an export did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExportSummary {
    pub rows: usize,
    pub requests: usize,
    pub cached_windows: usize,
}

/// Fetches (through the same worker and cache as the app) and writes.
/// `note` receives progress and warnings, for stderr.
pub fn run_export(
    req: &ExportRequest,
    mut note: impl FnMut(&str),
) -> Result<ExportSummary, CliExportError> {
    if let Some(format) = req.format.positions_only()
        && req.kind != ExportKind::Series(SeriesSource::Kind(DataKind::Positions))
    {
        // Said before anything is fetched.
        return Err(CliExportError::NotApplicable { format });
    }
    if req.units == UnitSystem::Imperial {
        let refused = match req.format {
            Format::Json => Some(("JSON", "the service's rows and their units")),
            Format::Gpx => Some(("GPX", "its standard's metric units")),
            Format::GeoJson => Some(("GeoJSON", "metres and km/h, as the app's other GeoJSON")),
            Format::Csv => None,
        };
        if let Some((format, what)) = refused {
            return Err(CliExportError::UnitsNotApplicable { format, what });
        }
    }
    // A window refused online is refused offline, before anything is sent.
    check_window(req.window)?;
    let mut req = req.clone();
    let unreachable =
        check_sign_in::<CliExportError>(&mut req.client, &mut req.offline, &mut note)?;
    export_signed_in(&req, &mut note).map_err(|e| e.after(unreachable))
}

/// [`run_export`] once the sign-in is checked.
fn export_signed_in(
    req: &ExportRequest,
    mut note: impl FnMut(&str),
) -> Result<ExportSummary, CliExportError> {
    let worker = start_worker::<CliExportError>(
        &req.client,
        req.cache_path.as_deref(),
        req.offline,
        &mut note,
    )?;
    let made = match req.kind {
        ExportKind::History => export_history(req, &worker, &mut note),
        ExportKind::Series(source) => export_series(req, source, &worker, &mut note),
    };
    // Said even if the export failed.
    note_cache_notices(&worker, &mut note);
    let (document, mut summary) = made?;
    // Streamed to the output: the rows decoded, never the whole file.
    summary.rows = write_output_with(req.output.as_deref(), |out| document.write(req, out))?;
    Ok(summary)
}

/// What is written, decoded first: a row that cannot be read stops the
/// export before a byte is written (and the read is done again when the
/// cache dropped it).
enum Document {
    Csv(Series),
    /// The service's rows, checked readable, decoded again one piece at a
    /// time as they are written.
    Json(Arc<Fetched>),
    Positions(Vec<PositionRow>),
    /// A small document, made whole (the history).
    Made(Vec<u8>, usize),
}

impl Document {
    /// Writes the document; returns the rows written.
    fn write(&self, req: &ExportRequest, out: &mut dyn Write) -> Result<usize, ExportError> {
        match self {
            Document::Csv(series) => {
                write_csv(&in_units(series, req.units), out)?;
                Ok(series.len())
            }
            Document::Json(fetched) => {
                let mut w = JsonArrayWriter::start(out)?;
                fetched.each_json_row(|mut row| {
                    // The service's rows, their numbers without float noise.
                    round_json(&mut row);
                    w.row(&row)
                })?;
                w.finish()
            }
            Document::Positions(rows) => {
                let name = format!("fleetview equipment {}", req.equipment);
                let skipped = if req.format == Format::Gpx {
                    geo::write_gpx(rows, &name, out)?
                } else {
                    geo::write_geojson(rows, &name, out)?
                };
                Ok(rows.len() - skipped)
            }
            Document::Made(bytes, rows) => {
                out.write_all(bytes)?;
                Ok(*rows)
            }
        }
    }
}

/// A series fetched and written. Cached rows that could not be read are
/// dropped as they are decoded: then read again (from the service), once.
fn export_series(
    req: &ExportRequest,
    source: SeriesSource,
    worker: &Worker,
    note: &mut impl FnMut(&str),
) -> Result<(Document, ExportSummary), CliExportError> {
    let fetched = fetch_series(req, source, worker, note)?;
    match write_series(req, &fetched, note) {
        Err(_) if fetched.cache_dropped() => {
            let fetched = fetch_series(req, source, worker, note)?;
            write_series(req, &fetched, note)
        }
        written => written,
    }
}

fn fetch_series(
    req: &ExportRequest,
    source: SeriesSource,
    worker: &Worker,
    note: &mut impl FnMut(&str),
) -> Result<Arc<Fetched>, CliExportError> {
    let id = worker.send(Command::FetchSeries {
        equipment: req.equipment,
        source,
        window: req.window,
        offline: req.offline,
    });
    let what = format!("{} of equipment {}", source.name(), req.equipment);
    let waiting = Waiting::new(&req.client, req.offline, what);
    let fetched = loop {
        match waiting.recv(worker, note) {
            Some(Event::Progress {
                request, progress, ..
            }) if request == id => {
                if progress.chunks_done == progress.chunks_total {
                    waiting.all_in();
                }
                note(&format!(
                    "{} of equipment {}: {}/{} chunks fetched, {} cached windows, {} rows",
                    source.name(),
                    req.equipment,
                    progress.chunks_done,
                    progress.chunks_total,
                    progress.cached_windows,
                    progress.rows
                ));
            }
            Some(Event::Machine(MachineEvent::Series {
                request, fetched, ..
            })) if request == id => break fetched,
            Some(Event::Failed { request, error, .. }) if request == id => return Err(error.into()),
            Some(_) => {}
            None => return Err(CliExportError::NoAnswer),
        }
    };
    if !fetched.missing.is_empty() {
        let missing: Vec<String> = fetched.missing.iter().map(ToString::to_string).collect();
        return Err(CliExportError::Incomplete(missing.join(", ")));
    }
    Ok(fetched)
}

fn write_series(
    req: &ExportRequest,
    fetched: &Arc<Fetched>,
    note: &mut impl FnMut(&str),
) -> Result<(Document, ExportSummary), CliExportError> {
    let document = match req.format {
        Format::Csv => {
            let series = fetched.series()?;
            if series.skipped_rows > 0 {
                note(&format!(
                    "{} rows without a readable date were left out",
                    series.skipped_rows
                ));
            }
            Document::Csv(series)
        }
        Format::Json => {
            fetched.check_rows()?;
            Document::Json(fetched.clone())
        }
        Format::Gpx | Format::GeoJson => {
            let rows = fetched.typed::<PositionRow>()?;
            let skipped = rows.iter().filter(|r| !geo::placeable(r)).count();
            if skipped > 0 {
                note(&format!(
                    "{skipped} rows without a valid position were left out"
                ));
            }
            Document::Positions(rows)
        }
    };
    let summary = ExportSummary {
        // Counted as written.
        rows: 0,
        requests: fetched.requests,
        cached_windows: fetched.pieces.len().saturating_sub(fetched.requests),
    };
    Ok((document, summary))
}

fn export_history(
    req: &ExportRequest,
    worker: &Worker,
    note: &mut impl FnMut(&str),
) -> Result<(Document, ExportSummary), CliExportError> {
    let id = worker.send(Command::FetchHistory {
        equipment: req.equipment,
        window: req.window,
        keep_body: true,
        offline: req.offline,
    });
    let what = format!("the history of equipment {}", req.equipment);
    let waiting = Waiting::new(&req.client, req.offline, what);
    let (body, offline, requests) = loop {
        match waiting.recv(worker, note) {
            Some(Event::Machine(MachineEvent::History {
                request,
                body: Some(body),
                offline,
                requests,
                ..
            })) if request == id => break (body, offline, requests),
            Some(Event::Failed { request, error, .. }) if request == id => {
                return Err(match error {
                    ApiError::NotConnected if req.offline => {
                        CliExportError::Incomplete(format!("the history for {}", req.window))
                    }
                    e => e.into(),
                });
            }
            Some(_) => {}
            None => return Err(CliExportError::NoAnswer),
        }
    };
    if offline.is_some() {
        note("the service could not be reached: the history last fetched for this window");
    } else if requests == 0 {
        note("history served from the cache");
    } else {
        note(&format!(
            "history of equipment {} fetched from the service",
            req.equipment
        ));
    }
    let mut envelope: serde_json::Value = serde_json::from_slice(&body)?;
    round_json(&mut envelope);
    let data = &envelope["data"];
    let mut out = Vec::new();
    let rows = match req.format {
        Format::Gpx | Format::GeoJson => {
            // Refused before fetching (positions only).
            return Err(CliExportError::NotApplicable {
                format: req.format.positions_only().unwrap_or("this format"),
            });
        }
        Format::Json => {
            write_json(data, &mut out)?;
            data["dailyUsages"]["rows"].as_array().map_or(0, Vec::len)
        }
        Format::Csv => {
            // The history as a table: its daily usage rows.
            let rows = serde_json::to_vec(&data["dailyUsages"]["rows"])?;
            let series = decode_rows(&rows)?;
            write_daily_csv(&in_units(&series, req.units), &mut out)?;
            series.len()
        }
    };
    Ok((
        Document::Made(out, rows),
        ExportSummary {
            rows,
            requests,
            cached_windows: usize::from(requests == 0),
        },
    ))
}
