//! Writing what was fetched to files, for scripts and other tools.
//!
//! CSV: `date`, then one column per channel with its unit in the header
//! (`fuelUsed (L)`), and the `estimated` flags where the rows carry them.
//! JSON: the rows as the service sent them, limited to the window.
//! GPX and GeoJSON, for positions: see [`geo`].

pub mod geo;
pub mod shown;

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::api::model::PositionRow;
use crate::api::time::{TimeWindow, format_wire, now_secs};
use crate::api::{ApiClient, ApiError, ClientConfig, DataKind, SeriesSource};
use crate::cache::{Cache, CacheError, CacheKey, DEFAULT_CAP_BYTES};
use crate::series::{ChannelKind, Series, decode_rows};
use crate::worker::{Command, Event, Worker, WorkerConfig, WorkerError};

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Api(#[from] ApiError),
    #[error(transparent)]
    Cache(#[from] CacheError),
    #[error(transparent)]
    Worker(#[from] WorkerError),
    #[error("not everything asked for is cached (offline): missing {0}")]
    Incomplete(String),
    #[error("unknown kind '{0}': use a data kind of the service, faults or history")]
    UnknownKind(String),
    #[error("the background worker stopped without an answer")]
    NoAnswer,
    #[error("writing CSV: {0}")]
    Csv(#[from] csv::Error),
    #[error("writing JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("writing: {0}")]
    Io(#[from] std::io::Error),
    #[error("{format} applies to positions only (use --kind positions, or csv or json)")]
    NotApplicable { format: &'static str },
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
    type Err = ExportError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "faults" => Ok(ExportKind::Series(SeriesSource::Faults)),
            "history" => Ok(ExportKind::History),
            other => other
                .parse::<DataKind>()
                .map(|k| ExportKind::Series(SeriesSource::Kind(k)))
                .map_err(|_| ExportError::UnknownKind(other.to_owned())),
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
) -> Result<ExportSummary, ExportError> {
    let cache = match &req.cache_path {
        Some(path) => {
            let (cache, warning) = Cache::open(path, DEFAULT_CAP_BYTES)?;
            if let Some(w) = warning {
                note(&w);
            }
            Some(Arc::new(cache))
        }
        None => None,
    };
    if let Some(format) = req.format.positions_only()
        && req.kind != ExportKind::Series(SeriesSource::Kind(DataKind::Positions))
    {
        // Said before anything is fetched.
        return Err(ExportError::NotApplicable { format });
    }
    let (bytes, summary) = match req.kind {
        ExportKind::History => export_history(req, cache.as_deref(), &mut note)?,
        ExportKind::Series(source) => export_series(req, source, cache, &mut note)?,
    };
    match &req.output {
        None => std::io::stdout().lock().write_all(&bytes)?,
        Some(path) => write_file(path, &bytes)?,
    }
    Ok(summary)
}

fn export_series(
    req: &ExportRequest,
    source: SeriesSource,
    cache: Option<Arc<Cache>>,
    note: &mut impl FnMut(&str),
) -> Result<(Vec<u8>, ExportSummary), ExportError> {
    let config = WorkerConfig {
        client: Some(req.client.clone()),
        cache,
        offline: req.offline,
    };
    let worker = Worker::spawn(config, Arc::new(|| {}))?;
    let id = worker.send(Command::FetchSeries {
        equipment: req.equipment,
        source,
        window: req.window,
        offline: req.offline,
    });
    let fetched = loop {
        match worker.recv_timeout(Duration::from_secs(3600)) {
            Some(Event::Progress {
                request, progress, ..
            }) if request == id => note(&format!(
                "{} of equipment {}: {}/{} chunks fetched, {} cached windows, {} rows",
                source.name(),
                req.equipment,
                progress.chunks_done,
                progress.chunks_total,
                progress.cached_windows,
                progress.rows
            )),
            Some(Event::Series {
                request, fetched, ..
            }) if request == id => break fetched,
            Some(Event::Failed { request, error, .. }) if request == id => return Err(error.into()),
            Some(_) => {}
            None => return Err(ExportError::NoAnswer),
        }
    };
    if !fetched.missing.is_empty() {
        let missing: Vec<String> = fetched.missing.iter().map(ToString::to_string).collect();
        return Err(ExportError::Incomplete(missing.join(", ")));
    }
    let mut out = Vec::new();
    let rows = match req.format {
        Format::Csv => {
            let series = fetched.series()?;
            if series.skipped_rows > 0 {
                note(&format!(
                    "{} rows without a readable date were left out",
                    series.skipped_rows
                ));
            }
            write_csv(&series, &mut out)?;
            series.len()
        }
        Format::Json => {
            let rows = fetched.json_rows()?;
            write_json(&rows, &mut out)?;
            rows.len()
        }
        Format::Gpx | Format::GeoJson => {
            let rows = fetched.typed::<PositionRow>()?;
            let name = format!("fleetview equipment {}", req.equipment);
            let skipped = if req.format == Format::Gpx {
                geo::write_gpx(&rows, &name, &mut out)?
            } else {
                geo::write_geojson(&rows, &name, &mut out)?
            };
            if skipped > 0 {
                note(&format!(
                    "{skipped} rows without a valid position were left out"
                ));
            }
            rows.len() - skipped
        }
    };
    let summary = ExportSummary {
        rows,
        requests: fetched.requests,
        cached_windows: fetched.pieces.len().saturating_sub(fetched.requests),
    };
    Ok((out, summary))
}

fn export_history(
    req: &ExportRequest,
    cache: Option<&Cache>,
    note: &mut impl FnMut(&str),
) -> Result<(Vec<u8>, ExportSummary), ExportError> {
    let key = CacheKey::new(
        &req.client.base_url,
        req.equipment,
        crate::worker::HISTORY_KIND,
    );
    let cached = match cache {
        Some(c) => c.get_document(&key, req.window)?,
        None => None,
    };
    let (body, requests) = match (cached, req.offline) {
        (Some(doc), _) => {
            note("history served from the cache");
            (doc.rows_json, 0)
        }
        (None, true) => {
            return Err(ExportError::Incomplete(format!(
                "the history for {}",
                req.window
            )));
        }
        (None, false) => {
            let client = ApiClient::new(req.client.clone())?;
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            note(&format!(
                "fetching the history of equipment {}",
                req.equipment
            ));
            let body = runtime
                .block_on(client.history_body(req.equipment, req.window))?
                .to_vec();
            if let Some(c) = cache {
                c.put_document(&key, req.window, &body, now_secs())?;
            }
            (body, 1)
        }
    };
    let envelope: serde_json::Value = serde_json::from_slice(&body)?;
    let data = &envelope["data"];
    let mut out = Vec::new();
    let rows = match req.format {
        Format::Gpx | Format::GeoJson => {
            // Refused before fetching (positions only).
            return Err(ExportError::NotApplicable {
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
            let series = decode_rows(&rows).map_err(|crate::series::DecodeError::Json(e)| e)?;
            write_csv(&series, &mut out)?;
            series.len()
        }
    };
    Ok((
        out,
        ExportSummary {
            rows,
            requests,
            cached_windows: usize::from(requests == 0),
        },
    ))
}

/// Writes a whole file aside and renames it: an error never leaves half a
/// file, nor replaces a good one.
pub fn write_file(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes)?;
    std::fs::rename(&partial, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&partial);
    })
}

/// Writes a series as CSV, one line per row.
pub fn write_csv(series: &Series, out: impl Write) -> Result<(), ExportError> {
    let mut w = csv::Writer::from_writer(out);
    let flagged: Vec<usize> = (0..series.channels.len())
        .filter(|i| series.channels[*i].estimated.is_some())
        .collect();
    let mut header = vec!["date".to_owned()];
    for (i, c) in series.channels.iter().enumerate() {
        header.push(c.title());
        if flagged.contains(&i) {
            header.push(if flagged.len() == 1 {
                "estimated".to_owned()
            } else {
                format!("{} estimated", c.name)
            });
        }
    }
    w.write_record(&header)?;
    let mut record: Vec<String> = Vec::with_capacity(header.len());
    for row in 0..series.len() {
        record.clear();
        record.push(format_wire(series.times[row]));
        for (i, c) in series.channels.iter().enumerate() {
            let v = c.values[row];
            record.push(match c.kind {
                _ if v.is_nan() => String::new(),
                ChannelKind::Numeric => v.to_string(),
                ChannelKind::Boolean => (v != 0.0).to_string(),
                ChannelKind::Label => c.label_at(row).unwrap_or_default().to_owned(),
                ChannelKind::Time => format_wire(v as i64),
            });
            if flagged.contains(&i) {
                record.push(
                    c.estimated_at(row)
                        .map(|e| e.to_string())
                        .unwrap_or_default(),
                );
            }
        }
        w.write_record(&record)?;
    }
    w.flush()?;
    Ok(())
}

/// Writes JSON values as a pretty array (or any value).
pub fn write_json(value: &impl serde::Serialize, mut out: impl Write) -> Result<(), ExportError> {
    serde_json::to_writer_pretty(&mut out, value)?;
    out.write_all(b"\n")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::series::decode_rows;

    #[test]
    fn csv_has_units_in_headers_and_an_estimated_column() {
        let s = decode_rows(
            br#"[{"date":"2024-01-01T00:00:00Z","fuelUsed":80.5,"unit":"L","estimated":true,"state":"a, b"},
                 {"date":"2024-01-02T00:00:00Z","fuelUsed":null,"unit":"L","estimated":false,"state":"c"}]"#,
        )
        .expect("rows");
        let mut out = Vec::new();
        write_csv(&s, &mut out).expect("csv");
        let text = String::from_utf8(out).expect("utf8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "date,fuelUsed (L),estimated,state");
        assert_eq!(lines[1], "2024-01-01T00:00:00Z,80.5,true,\"a, b\"");
        // No value, so nothing to flag as estimated.
        assert_eq!(lines[2], "2024-01-02T00:00:00Z,,,c");
        assert_eq!(lines.len(), 3);
    }
}
