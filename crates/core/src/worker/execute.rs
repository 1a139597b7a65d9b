//! What each command does once it runs as a task: fetch, decode and index
//! off the async threads, and say so in one event.

use std::sync::Arc;

use super::events::{
    CatalogChange, CatalogEvent, ConnectionEvent, ExportEvent, MachineEvent, TimelineEvent,
};
use super::export::export_file;
use super::messages::Command;
use super::shared::{PageRead, split_history};
use super::task::{TaskCtx, decode_off_thread};
use crate::series::{PlotSeries, Track, TrackPiece, TrackSample};
use fleetview_api::model::{ActivityRow, Envelope, EquipmentHistory, FaultRow, PositionRow};
use fleetview_api::time::TimeWindow;
use fleetview_api::{ApiError, DataKind, SeriesSource};

impl TaskCtx {
    pub async fn run(self, command: Command) {
        let page = page_read_of(&command);
        if let Err(e) = self.execute(command).await {
            // The page's figures wait for its reads: they end, failed.
            if let Some((equipment, window, failed)) = page {
                self.page_read(equipment, window, failed);
            }
            self.fail(e);
        }
        // Said, then stored: the task (and its count in flight) ends with
        // its rows in the cache.
        self.writes.finish().await;
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
                self.emit(MachineEvent::Series {
                    request: id,
                    equipment,
                    source,
                    fetched: Arc::new(fetched),
                });
            }
            Command::FetchFaults { equipment, window } => {
                let fetched = self
                    .fetch(equipment, SeriesSource::Faults, window, false)
                    .await?;
                let offline = fetched.offline_since();
                let rows = decode_off_thread("faults", move || fetched.typed::<FaultRow>()).await?;
                self.writes.rows_decoded();
                self.emit(MachineEvent::Faults {
                    request: id,
                    equipment,
                    window,
                    rows,
                    offline,
                });
            }
            Command::FetchActivities { equipment, window } => {
                let source = SeriesSource::Kind(DataKind::Activities);
                let fetched = self.fetch(equipment, source, window, false).await?;
                let offline = fetched.offline_since();
                let rows = Arc::new(
                    decode_off_thread("activities", move || fetched.typed::<ActivityRow>()).await?,
                );
                self.writes.rows_decoded();
                self.emit(MachineEvent::Activities {
                    request: id,
                    equipment,
                    window,
                    rows: rows.clone(),
                    offline,
                });
                self.page_read(equipment, window, PageRead::Activities(Some(rows)));
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
                self.writes.rows_decoded();
                self.emit(TimelineEvent::Plot {
                    request: id,
                    equipment,
                    kind,
                    window,
                    series: Arc::new(series),
                    offline,
                });
            }
            Command::FetchTrack { equipment, window } => {
                let source = SeriesSource::Kind(DataKind::Positions);
                // Each piece decoded, projected and simplified as soon as it
                // is had, while the next ones download: only the joining
                // waits for the last.
                let mut pieces = Vec::new();
                let fetched = self
                    .fetch_each(equipment, source, window, false, |w, rows| {
                        let rows = rows.clone();
                        let decode = decode_off_thread("positions", move || {
                            positions_in(
                                &rows,
                                w.since.max(window.since),
                                w.until.min(window.until),
                            )
                            .map(TrackPiece::new)
                        });
                        pieces.push((w.since, tokio::spawn(decode)));
                    })
                    .await?;
                let offline = fetched.offline_since();
                drop(fetched);
                pieces.sort_by_key(|p| p.0);
                let mut decoded = Vec::with_capacity(pieces.len());
                for (_, piece) in pieces {
                    decoded.push(piece.await.map_err(|e| ApiError::Decode {
                        endpoint: "positions".to_owned(),
                        message: e.to_string(),
                        transient: false,
                    })??);
                }
                self.writes.rows_decoded();
                let track =
                    decode_off_thread("positions", move || Ok(Track::join(decoded))).await?;
                let track = Arc::new(track);
                self.emit(TimelineEvent::Track {
                    request: id,
                    equipment,
                    window,
                    track: track.clone(),
                    offline,
                });
                self.page_read(equipment, window, PageRead::Track(Some(track)));
            }
            Command::FetchHistory {
                equipment,
                window,
                keep_body,
                offline,
            } => {
                let (body, served_offline, requests) =
                    self.history_body(equipment, window, offline).await?;
                let body = Arc::new(body);
                let decoded = body.clone();
                let (history, whole) = decode_off_thread("history", move || {
                    serde_json::from_slice::<Envelope<EquipmentHistory>>(&decoded)
                        .map(|e| split_history(e.data))
                })
                .await?;
                self.shared
                    .full_history
                    .put(equipment, window, Arc::new(whole));
                let history = Arc::new(history);
                self.emit(MachineEvent::History {
                    request: id,
                    equipment,
                    window,
                    history: history.clone(),
                    body: keep_body.then_some(body),
                    offline: served_offline,
                    requests,
                });
                self.page_read(equipment, window, PageRead::History(Some(history)));
            }
            Command::DiscoverFleet { window } => self.discover_fleet(window).await?,
            Command::FetchSnapshots => self.fetch_snapshots().await?,
            Command::FetchFigures { equipment, window } => {
                self.fetch_figures(equipment, window).await?;
            }
            Command::ComputeReport { request, data } => self.compute_report(request, data).await?,
            Command::PageReport { request } => self.page_report(request).await?,
            Command::ReadAhead { equipment, window } => self.read_ahead(equipment, window).await,
            Command::FetchReport { request, offline } => {
                self.fetch_report(request, offline).await?;
            }
            Command::Export(job) => {
                let what = job.content.describe();
                let key = job.content.key();
                let outcome = export_file(job).await;
                self.emit(ExportEvent::Exported {
                    request: id,
                    key,
                    what,
                    outcome,
                });
            }
            Command::Probe => {
                self.client()?.data_sources().await?;
                self.emit(ConnectionEvent::Reachable { request: id });
            }
            Command::LoadCatalog => self.load_catalog().await?,
            Command::CreateIntegration(body) => {
                let resp = self.client()?.create_integration(&body).await?;
                self.emit(CatalogEvent::Changed {
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
                self.emit(CatalogEvent::Changed {
                    request: id,
                    change: CatalogChange::Updated { id: integration },
                });
            }
            Command::DeleteIntegration { id: integration } => {
                self.client()?.delete_integration(integration).await?;
                self.emit(CatalogEvent::Changed {
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
                self.emit(CatalogEvent::Changed {
                    request: id,
                    change: CatalogChange::StatusSet {
                        id: integration,
                        active,
                    },
                });
            }
            // Handled by the command loop itself.
            Command::Connect(_)
            | Command::UseProfile { .. }
            | Command::TestConnection { .. }
            | Command::StoreToken { .. }
            | Command::Cancel(_)
            | Command::CancelReads => {}
        }
        Ok(())
    }
}

/// A read of the machine page, and what it ends with if it fails.
fn page_read_of(command: &Command) -> Option<(i64, TimeWindow, PageRead)> {
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

impl TaskCtx {
    /// Said after the event: the page has had it before figures from it.
    fn page_read(&self, equipment: i64, window: TimeWindow, read: PageRead) {
        // Only the page's current read: a superseded one could put what the
        // page will never show.
        if self.shared.current.is(&self.target, self.id) {
            self.shared.page.put(equipment, window, read);
        }
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
