//! A machine's window read through the cache, decoded and indexed off the
//! async threads, and said in one event: raw rows, the tables, a plotted
//! kind, the track, the history. The page's own reads are also handed to
//! its figures (see [`PageReads`]).
//!
//! [`PageReads`]: super::shared::PageReads

use std::sync::Arc;

use super::events::{MachineEvent, TimelineEvent};
use super::messages::Command;
use super::shared::{PageRead, split_history};
use super::task::{TaskCtx, decode_off_thread};
use crate::series::{PlotSeries, Track, TrackPiece, TrackSample};
use fleetview_api::model::{ActivityRow, Envelope, EquipmentHistory, FaultRow, PositionRow};
use fleetview_api::time::TimeWindow;
use fleetview_api::{ApiError, DataKind, SeriesSource};

impl TaskCtx {
    /// Reads what a command asks of a machine's window (other commands ask
    /// nothing of it).
    pub(crate) async fn read_window(&self, command: Command) -> Result<(), ApiError> {
        match command {
            Command::FetchSeries {
                equipment,
                source,
                window,
                offline,
            } => {
                self.fetch_series_rows(equipment, source, window, offline)
                    .await
            }
            Command::FetchFaults { equipment, window } => {
                self.fetch_faults(equipment, window).await
            }
            Command::FetchActivities { equipment, window } => {
                self.fetch_activities(equipment, window).await
            }
            Command::FetchPlot {
                equipment,
                kind,
                window,
            } => self.fetch_plot(equipment, kind, window).await,
            Command::FetchTrack { equipment, window } => self.fetch_track(equipment, window).await,
            Command::FetchHistory {
                equipment,
                window,
                keep_body,
                offline,
            } => {
                self.fetch_history(equipment, window, keep_body, offline)
                    .await
            }
            _ => Ok(()),
        }
    }

    /// Raw rows of a series window (for the command line's exports).
    async fn fetch_series_rows(
        &self,
        equipment: i64,
        source: SeriesSource,
        window: TimeWindow,
        offline: bool,
    ) -> Result<(), ApiError> {
        let fetched = self.fetch(equipment, source, window, offline).await?;
        self.emit(MachineEvent::Series {
            request: self.id,
            equipment,
            source,
            fetched: Arc::new(fetched),
        });
        Ok(())
    }

    async fn fetch_faults(&self, equipment: i64, window: TimeWindow) -> Result<(), ApiError> {
        let fetched = self
            .fetch(equipment, SeriesSource::Faults, window, false)
            .await?;
        let offline = fetched.offline_since();
        let rows = decode_off_thread("faults", move || fetched.typed::<FaultRow>()).await?;
        self.writes.rows_decoded();
        self.emit(MachineEvent::Faults {
            request: self.id,
            equipment,
            window,
            rows,
            offline,
        });
        Ok(())
    }

    async fn fetch_activities(&self, equipment: i64, window: TimeWindow) -> Result<(), ApiError> {
        let source = SeriesSource::Kind(DataKind::Activities);
        let fetched = self.fetch(equipment, source, window, false).await?;
        let offline = fetched.offline_since();
        let rows = Arc::new(
            decode_off_thread("activities", move || fetched.typed::<ActivityRow>()).await?,
        );
        self.writes.rows_decoded();
        self.emit(MachineEvent::Activities {
            request: self.id,
            equipment,
            window,
            rows: rows.clone(),
            offline,
        });
        self.page_read(equipment, window, PageRead::Activities(Some(rows)));
        Ok(())
    }

    async fn fetch_plot(
        &self,
        equipment: i64,
        kind: DataKind,
        window: TimeWindow,
    ) -> Result<(), ApiError> {
        let fetched = self
            .fetch(equipment, SeriesSource::Kind(kind), window, false)
            .await?;
        let offline = fetched.offline_since();
        let series =
            decode_off_thread(kind.wire(), move || fetched.series().map(PlotSeries::new)).await?;
        self.writes.rows_decoded();
        self.emit(TimelineEvent::Plot {
            request: self.id,
            equipment,
            kind,
            window,
            series: Arc::new(series),
            offline,
        });
        Ok(())
    }

    async fn fetch_track(&self, equipment: i64, window: TimeWindow) -> Result<(), ApiError> {
        let source = SeriesSource::Kind(DataKind::Positions);
        // Each piece decoded, projected and simplified as soon as it is
        // had, while the next ones download: only the joining waits for the
        // last.
        let mut pieces = Vec::new();
        let fetched = self
            .fetch_each(equipment, source, window, false, |w, rows| {
                let rows = rows.clone();
                let decode = decode_off_thread("positions", move || {
                    positions_in(&rows, w.since.max(window.since), w.until.min(window.until))
                        .map(TrackPiece::new)
                });
                pieces.push((w, tokio::spawn(decode)));
            })
            .await?;
        let offline = fetched.offline_since();
        pieces.sort_by_key(|p| p.0.since);
        let mut decoded = Vec::with_capacity(pieces.len());
        let mut failed = None;
        for (w, piece) in pieces {
            let piece = piece.await.unwrap_or_else(|e| {
                Err(ApiError::Decode {
                    endpoint: "positions".to_owned(),
                    message: e.to_string(),
                    transient: false,
                })
            });
            match piece {
                Ok(p) => decoded.push(p),
                // Cached rows that cannot be read are dropped (a delete,
                // rarely); the other pieces are still tried.
                Err(e) if fetched.unreadable(w, &e) => drop(failed.get_or_insert(e)),
                Err(e) => return Err(e),
            }
        }
        drop(fetched);
        if let Some(e) = failed {
            return Err(e);
        }
        self.writes.rows_decoded();
        let track = decode_off_thread("positions", move || Ok(Track::join(decoded))).await?;
        let track = Arc::new(track);
        self.emit(TimelineEvent::Track {
            request: self.id,
            equipment,
            window,
            track: track.clone(),
            offline,
        });
        self.page_read(equipment, window, PageRead::Track(Some(track)));
        Ok(())
    }

    /// The history; the page keeps it without its positions, its figures
    /// take it whole (see [`FullHistory`]). Its pieces are decoded apart
    /// unless the service's JSON is wanted (`keep_body`).
    ///
    /// [`FullHistory`]: super::shared::FullHistory
    async fn fetch_history(
        &self,
        equipment: i64,
        window: TimeWindow,
        keep_body: bool,
        offline: bool,
    ) -> Result<(), ApiError> {
        let (whole, body, served_offline, requests) = if keep_body {
            let (body, served_offline, requests) =
                self.history_body(equipment, window, offline).await?;
            let body = Arc::new(body);
            let decoded = body.clone();
            let whole = decode_off_thread("history", move || {
                serde_json::from_slice::<Envelope<EquipmentHistory>>(&decoded).map(|e| e.data)
            })
            .await
            .map_err(|e| {
                let from_cache = requests == 0 || served_offline.is_some();
                self.history_unreadable(equipment, window, from_cache, e)
            })?;
            (whole, Some(body), served_offline, requests)
        } else {
            let (pieces, served_offline, requests) =
                self.history_read(equipment, window, offline, true).await?;
            let from_cache = requests < pieces.len() || served_offline.is_some();
            let whole = self
                .decode_history_read(equipment, pieces)
                .await
                .map_err(|e| self.history_unreadable(equipment, window, from_cache, e))?;
            (whole, None, served_offline, requests)
        };
        // The page's copy without positions: megabytes for a year.
        let (history, whole) =
            decode_off_thread("history", move || Ok(split_history(whole))).await?;
        self.shared
            .full_history
            .put(equipment, window, Arc::new(whole));
        let history = Arc::new(history);
        self.emit(MachineEvent::History {
            request: self.id,
            equipment,
            window,
            history: history.clone(),
            body,
            offline: served_offline,
            requests,
        });
        self.page_read(equipment, window, PageRead::History(Some(history)));
        Ok(())
    }

    /// Said after the event: the page has had it before figures from it.
    pub(crate) fn page_read(&self, equipment: i64, window: TimeWindow, read: PageRead) {
        // Only the page's current read: a superseded one could put what the
        // page will never show.
        if self.shared.current.is(&self.target, self.id) {
            self.shared.page.put(equipment, window, read);
        }
    }
}

/// A read of the machine page, and what it ends with if it fails.
pub(crate) fn page_read_of(command: &Command) -> Option<(i64, TimeWindow, PageRead)> {
    match *command {
        Command::FetchHistory {
            equipment, window, ..
        } => Some((equipment, window, PageRead::History(None))),
        Command::FetchActivities { equipment, window } => {
            Some((equipment, window, PageRead::Activities(None)))
        }
        Command::FetchTrack { equipment, window } => {
            Some((equipment, window, PageRead::Track(None)))
        }
        _ => None,
    }
}

/// The track's samples of one piece of `/positions` rows, dated within
/// `since..=until`.
fn positions_in(
    rows: &[u8],
    since: i64,
    until: i64,
) -> Result<Vec<TrackSample>, serde_json::Error> {
    let rows: Vec<PositionRow> = serde_json::from_slice(rows)?;
    Ok(rows
        .iter()
        .filter(|r| (since..=until).contains(&r.date.0))
        .map(TrackSample::from)
        .collect())
}
