//! The fleet overview's reads: the whole fleet's snapshots page by page
//! (kept for offline starts, as the fleet list is), and one machine's
//! window figures from its `/history` and `/faults` through the cache,
//! computed here so the UI thread only copies them.

use futures_util::StreamExt;

use super::events::{FiguresPart, OverviewEvent, Unread};
use super::task::{TaskCtx, decode_off_thread};
use crate::analysis::MachineFigures;
use fleetview_api::equipment::EquipmentSnapshot;
use fleetview_api::model::FaultRow;
use fleetview_api::time::TimeWindow;
use fleetview_api::{ApiError, DataKind, SeriesSource};

/// What a figures read computes: the window's figures, the attention
/// strip's look-back (gaps found up to `look_back_now`), or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Wanted {
    pub(crate) figures: bool,
    pub(crate) look_back_now: Option<i64>,
}

/// The snapshots last read, kept in the cache under this kind.
const SNAPSHOTS_KIND: &str = "fleet/snapshots";

impl TaskCtx {
    /// Reads every page of the fleet's snapshots, each sent as it comes.
    pub(crate) async fn fetch_snapshots(&self) -> Result<(), ApiError> {
        let client = self.client()?;
        let mut pages = Box::pin(client.snapshots(""));
        let mut all: Vec<EquipmentSnapshot> = Vec::new();
        let mut last: Option<(Vec<EquipmentSnapshot>, i64, i64)> = None;
        while let Some(page) = pages.next().await {
            let page = match page {
                Ok(p) => p,
                Err(e) if e.is_unreachable() && all.is_empty() => {
                    return self.snapshots_as_kept(e);
                }
                Err(e) => return Err(e),
            };
            let (done, total) = (page.done(), page.total);
            all.extend(page.rows.iter().cloned());
            // Each page goes once the next is known, so the last one says
            // the reading is over.
            if let Some((snapshots, done, total)) = last.replace((page.rows, done, total)) {
                self.emit(OverviewEvent::SnapshotPage {
                    request: self.id,
                    snapshots,
                    done,
                    total,
                    finished: false,
                });
            }
        }
        self.keep_list(SNAPSHOTS_KIND, "the snapshots", &all);
        let (snapshots, done, total) = last.unwrap_or_default();
        self.emit(OverviewEvent::SnapshotPage {
            request: self.id,
            snapshots,
            done,
            total,
            finished: true,
        });
        Ok(())
    }

    fn snapshots_as_kept(&self, e: ApiError) -> Result<(), ApiError> {
        if self.send_kept_snapshots(&self.cache_scope)? {
            tracing::warn!("{e}; showing the snapshots as last read");
            Ok(())
        } else {
            Err(e)
        }
    }

    /// The snapshots as last read of the service cached under `scope`, if
    /// kept; nothing said otherwise.
    pub(crate) fn kept_snapshots(&self, scope: &str) -> Result<(), ApiError> {
        self.send_kept_snapshots(scope).map(|_| ())
    }

    /// Sends the snapshots as last read; whether any were kept.
    fn send_kept_snapshots(&self, scope: &str) -> Result<bool, ApiError> {
        let Some((snapshots, fetched_at)) =
            self.kept_list_of(scope, SNAPSHOTS_KIND, "snapshots")?
        else {
            return Ok(false);
        };
        self.emit(OverviewEvent::SnapshotsCached {
            request: self.id,
            snapshots,
            fetched_at,
        });
        Ok(true)
    }

    /// One machine's figures over a window; `offline`, from the cache
    /// alone (as without a client), saying when it lacks the window.
    /// `wanted`: the window's figures, the Fleet page's attention strip's
    /// (gaps found up to its `now`, said as a `LookBack`), or both from
    /// the same reads.
    pub(crate) async fn fetch_figures(
        &self,
        equipment: i64,
        window: TimeWindow,
        offline: bool,
        wanted: Wanted,
    ) -> Result<(), ApiError> {
        let offline = offline || self.client.is_none();
        let (history, faults, hours) = futures_util::future::join3(
            self.history_read(equipment, window, offline, true),
            self.fetch(equipment, SeriesSource::Faults, window, offline),
            self.fetch(
                equipment,
                SeriesSource::Kind(DataKind::CumulativeOperatingHours),
                window,
                offline,
            ),
        )
        .await;
        let (body, history_offline, requests) = match history {
            Err(ApiError::NotConnected) if offline => {
                self.emit_not_cached(equipment, window, wanted);
                return Ok(());
            }
            h => h?,
        };
        let faults = faults?;
        if offline && faults.pieces.is_empty() && !faults.missing.is_empty() {
            self.emit_not_cached(equipment, window, wanted);
            return Ok(());
        }
        // Without the counter, no reset is flagged; the rest still shows,
        // and the page says what was not read.
        let (hours, unread) = match hours {
            Ok(h) => (Some(h).filter(|h| h.missing.is_empty()), None),
            Err(e) => {
                tracing::warn!("operating hours of equipment {equipment}: {e}");
                // Out of reach, the history and faults read with it fail
                // too or come from the cache, marked offline: not said
                // again for each machine.
                let away = e.is_unreachable();
                (
                    None,
                    Unread::of(FiguresPart::OperatingHours, e).filter(|_| !away),
                )
            }
        };
        let offline = history_offline.or(faults.offline_since());
        let from_cache = requests < body.len() || history_offline.is_some();
        // A busy machine's month is megabytes, the last of the Fleet
        // page's figures to be ready: its settled pieces read as columns.
        let history = self
            .decode_history_read(equipment, body)
            .await
            .map_err(|e| self.history_unreadable(equipment, window, from_cache, e))?;
        let (figures, look_back) = decode_off_thread("history", move || {
            let faults = faults.typed::<FaultRow>()?;
            let hours = match hours {
                Some(h) => super::report::operating_hours_of(&h)?,
                None => Vec::new(),
            };
            Ok(match (wanted.figures, wanted.look_back_now) {
                (true, Some(now)) => {
                    let (figures, look_back) = MachineFigures::compute_with_look_back(
                        &history, &faults, &hours, window, now,
                    );
                    (Some(figures), Some(look_back))
                }
                (true, None) => (
                    Some(MachineFigures::compute(&history, &faults, &hours, window)),
                    None,
                ),
                (false, now) => (
                    None,
                    now.map(|now| {
                        MachineFigures::compute_at(&history, &faults, &hours, window, now)
                    }),
                ),
            })
        })
        .await?;
        if let Some(figures) = look_back {
            self.emit(OverviewEvent::LookBack {
                request: self.id,
                equipment,
                window,
                figures: Some(figures),
                offline,
            });
        }
        if let Some(figures) = figures {
            self.emit(OverviewEvent::Figures {
                request: self.id,
                equipment,
                window,
                figures,
                offline,
                unread: unread.into_iter().collect(),
            });
        }
        Ok(())
    }

    /// The cache does not hold the window (read offline).
    fn emit_not_cached(&self, equipment: i64, window: TimeWindow, wanted: Wanted) {
        if wanted.look_back_now.is_some() {
            self.emit(OverviewEvent::LookBack {
                request: self.id,
                equipment,
                window,
                figures: None,
                offline: None,
            });
        }
        if wanted.figures {
            self.emit(OverviewEvent::NotCached {
                request: self.id,
                equipment,
                window,
            });
        }
    }
}
