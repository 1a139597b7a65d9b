//! A machine's window figures (`analysis::figures`), computed here so the
//! UI thread only shows them. The machine page hands over what it has read
//! already (history, activities, track) and only the daily idle fuel is
//! read; the command line reads everything through the cache.

use std::sync::Arc;

use serde::Deserialize;

use super::events::{FiguresEvent, FiguresPart, Unread};
use super::fetch::Fetched;
use super::messages::OfflineSince;
use super::report_data::{ReportData, ReportRequest, ReportSources};
use super::shared::PageFigures;
use super::task::{TaskCtx, decode_off_thread};
use crate::analysis::events::{
    CounterSeries, HistorySeries, OPERATING_HOURS_COUNTER, time_zone_of,
};
use crate::analysis::tanks::tank_capacity_l;
use crate::analysis::units::litres;
use crate::analysis::{EventContext, Report, ReportInputs};
use crate::series::{Track, TrackSample};
use fleetview_api::model::{ActivityRow, Envelope, EquipmentHistory, PositionRow};
use fleetview_api::time::TimeWindow;
use fleetview_api::{ApiError, DataKind, SeriesSource};

/// A `dailyIdleFuel` row.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct IdleFuelRow {
    date: fleetview_api::Timestamp,
    fuel_used: Option<f64>,
    #[serde(default)]
    unit: Option<String>,
}

/// A `cumulativeOperatingHours` row: `hour` (D7), `hours` read too.
#[derive(Debug, Deserialize)]
struct OperatingHoursRow {
    date: fleetview_api::Timestamp,
    #[serde(alias = "hours")]
    hour: Option<f64>,
}

impl super::fetch::Dated for OperatingHoursRow {
    fn date_secs(&self) -> i64 {
        self.date.0
    }
}

/// The counter's (time, hours) samples of fetched rows.
pub(super) fn operating_hours_of(
    fetched: &super::fetch::Fetched,
) -> Result<Vec<(i64, f64)>, serde_json::Error> {
    Ok(fetched
        .typed::<OperatingHoursRow>()?
        .iter()
        .filter_map(|r| Some((r.date.0, r.hour.filter(|h| h.is_finite())?)))
        .collect())
}

impl super::fetch::Dated for IdleFuelRow {
    fn date_secs(&self) -> i64 {
        self.date.0
    }
}

impl TaskCtx {
    /// The figures from what the machine page has, plus the idle fuel.
    pub(crate) async fn compute_report(
        &self,
        req: ReportRequest,
        mut data: ReportData,
    ) -> Result<(), ApiError> {
        let sources = Some(data.sources());
        let ahead = self.shared.read_ahead.take(req.equipment, req.window).await;
        let ((idle_fuel, offline, idle_unread), (hours, hours_unread), (whole, whole_unread)) =
            futures_util::future::join3(
                self.idle_fuel(req, false, ahead.idle_fuel),
                self.operating_hours(req, false, ahead.operating_hours),
                self.whole_history(req, &data.history),
            )
            .await;
        data.history = whole;
        let unread = [idle_unread, hours_unread, whole_unread]
            .into_iter()
            .flatten()
            .collect();
        let parts = Parts {
            idle_fuel,
            operating_hours: hours,
            unread,
        };
        self.report_from(req, data, parts, offline, sources).await
    }

    /// The figures of the machine page, once its own reads have what they
    /// come from; none if its history could not be read (as the page shows
    /// none then).
    pub(crate) async fn page_report(&self, req: ReportRequest) -> Result<(), ApiError> {
        match self.shared.page.wait(req.equipment, req.window).await {
            PageFigures::Ready(data) => self.compute_report(req, data).await,
            PageFigures::NoHistory | PageFigures::Waiting => Ok(()),
        }
    }

    /// The page's history with its positions: kept since the page read it,
    /// else read again (the cache first), else the page's as it is (and
    /// why its positions could not be read).
    async fn whole_history(
        &self,
        req: ReportRequest,
        page: &Arc<EquipmentHistory>,
    ) -> (Arc<EquipmentHistory>, Option<Unread>) {
        if let Some(whole) = self.shared.full_history.take(req.equipment, req.window) {
            return (whole, None);
        }
        if !page.positions.rows.is_empty() || page.positions.total == 0 {
            return (page.clone(), None);
        }
        let mut decoded = self.history_again(req).await;
        if let Err((_, true)) = decoded {
            // Dropped from the cache, which could not read it: once more,
            // from the service.
            decoded = self.history_again(req).await;
        }
        match decoded {
            Ok(whole) => (Arc::new(whole), None),
            Err((error, _)) => {
                tracing::warn!(
                    "the history of equipment {} could not be read again: {error}; figures without its positions",
                    req.equipment
                );
                (page.clone(), Unread::of(FiguresPart::Positions, error))
            }
        }
    }

    /// The window's history read again, the cache first; if it cannot be
    /// read, why and whether it came from the cache (it is then dropped
    /// there).
    async fn history_again(
        &self,
        req: ReportRequest,
    ) -> Result<EquipmentHistory, (ApiError, bool)> {
        let (body, from_cache) = match self.history_in_cache(req.equipment, req.window) {
            Some(body) => (body, true),
            None => {
                let (body, offline, requests) = self
                    .history_body(req.equipment, req.window, false)
                    .await
                    .map_err(|e| (e, false))?;
                (body, requests == 0 || offline.is_some())
            }
        };
        decode_off_thread("history", move || {
            serde_json::from_slice::<Envelope<EquipmentHistory>>(&body).map(|e| e.data)
        })
        .await
        .map_err(|e| {
            let e = self.history_unreadable(req.equipment, req.window, from_cache, e);
            (e, from_cache)
        })
    }

    /// The figures' own reads, sent with the page's (see [`ReadAhead`]):
    /// stored in the cache, nothing said (the figures' request reports).
    ///
    /// [`ReadAhead`]: super::shared::ReadAhead
    pub(crate) async fn read_ahead(&self, equipment: i64, window: TimeWindow) {
        let mut running = self.shared.read_ahead.start(equipment, window);
        let writes = super::fetch::Writes::new(self.shared.storer.clone());
        let read = |kind: DataKind| {
            let req = super::fetch::SeriesRequest {
                equipment,
                source: SeriesSource::Kind(kind),
                window,
                offline: false,
            };
            super::fetch::fetch_series(
                self.client.as_deref(),
                self.cache.as_ref(),
                &writes,
                &self.cache_scope,
                req,
                |_| {},
                |_, _| {},
            )
        };
        let (idle, hours) = futures_util::future::join(
            read(DataKind::DailyIdleFuel),
            read(DataKind::CumulativeOperatingHours),
        )
        .await;
        let kept = |read: Result<Fetched, ApiError>| {
            read.map_err(|e| {
                // The figures' own request reads again and says what failed.
                tracing::debug!("reading ahead for the figures: {e}");
            })
            .ok()
        };
        running.idle_fuel = kept(idle);
        running.operating_hours = kept(hours);
        // Handed over before stored: the figures need not wait for the cache.
        drop(running);
        writes.finish().await;
    }

    /// Reads history, activities, idle fuel (and positions, without
    /// engine events) through the cache, computes the figures and sends
    /// them; with `offline`, the cache only.
    pub(crate) async fn fetch_report(
        &self,
        req: ReportRequest,
        offline: bool,
    ) -> Result<(), ApiError> {
        let read = self.read_report(req, offline).await?;
        self.emit(FiguresEvent::Report {
            request: self.id,
            equipment: req.equipment,
            window: req.window,
            report: read.report,
            offline: read.offline,
            sources: None,
            unread: read.unread,
        });
        Ok(())
    }

    /// A machine's figures and events over a window, read as
    /// [`fetch_report`](Self::fetch_report) reads them, kept for a report.
    pub(crate) async fn read_report(
        &self,
        req: ReportRequest,
        offline: bool,
    ) -> Result<ReadReport, ApiError> {
        let (history, activities) = futures_util::future::join(
            self.history_body(req.equipment, req.window, offline),
            self.fetch(
                req.equipment,
                SeriesSource::Kind(DataKind::Activities),
                req.window,
                offline,
            ),
        )
        .await;
        let (body, history_offline, requests) = history?;
        let from_cache = requests == 0 || history_offline.is_some();
        let history = decode_off_thread("history", move || {
            serde_json::from_slice::<Envelope<EquipmentHistory>>(&body).map(|e| e.data)
        })
        .await
        .map_err(|e| self.history_unreadable(req.equipment, req.window, from_cache, e))?;
        let activities = activities?;
        let mut offline_since = history_offline.or(activities.offline_since());
        let activities = if activities.missing.is_empty() {
            Some(Arc::new(
                decode_off_thread("activities", move || activities.typed::<ActivityRow>()).await?,
            ))
        } else {
            None
        };
        let track = if history.engine_conditions.rows.is_empty() {
            let fetched = self
                .fetch(
                    req.equipment,
                    SeriesSource::Kind(DataKind::Positions),
                    req.window,
                    offline,
                )
                .await?;
            offline_since = offline_since.or(fetched.offline_since());
            // Part of the window only (offline): no stops rather than too few.
            if fetched.missing.is_empty() {
                let track = decode_off_thread("positions", move || {
                    fetched
                        .typed::<PositionRow>()
                        .map(|rows| Track::new(rows.iter().map(TrackSample::from).collect()))
                })
                .await?;
                Some(Arc::new(track))
            } else {
                None
            }
        } else {
            None
        };
        let data = ReportData {
            history: Arc::new(history),
            activities,
            track,
        };
        let ((idle_fuel, idle_offline, idle_unread), (hours, hours_unread)) =
            futures_util::future::join(
                self.idle_fuel(req, offline, None),
                self.operating_hours(req, offline, None),
            )
            .await;
        let parts = Parts {
            idle_fuel,
            operating_hours: hours,
            unread: [idle_unread, hours_unread].into_iter().flatten().collect(),
        };
        let name = data.history.name.clone();
        let (report, unread) = self.compute(req, data, parts).await?;
        Ok(ReadReport {
            report,
            offline: offline_since.or(idle_offline),
            unread,
            name,
        })
    }

    /// Computes the figures off the async threads and sends them.
    async fn report_from(
        &self,
        req: ReportRequest,
        data: ReportData,
        parts: Parts,
        offline: OfflineSince,
        sources: Option<ReportSources>,
    ) -> Result<(), ApiError> {
        let (report, unread) = self.compute(req, data, parts).await?;
        self.emit(FiguresEvent::Report {
            request: self.id,
            equipment: req.equipment,
            window: req.window,
            report,
            offline,
            sources,
            unread,
        });
        Ok(())
    }

    /// Computes the figures off the async threads.
    async fn compute(
        &self,
        req: ReportRequest,
        data: ReportData,
        parts: Parts,
    ) -> Result<(Arc<Report>, Vec<Unread>), ApiError> {
        let Parts {
            idle_fuel,
            operating_hours,
            unread,
        } = parts;
        let report = decode_off_thread("report", move || {
            let h = &data.history;
            let hours = operating_hours.unwrap_or_default();
            let series = HistorySeries::of(h, &hours);
            let positions = &series.positions;
            let counters = [CounterSeries {
                name: OPERATING_HOURS_COUNTER,
                samples: &hours,
            }];
            let rows = series.gap_rows();
            // Local time where the machine was in the window.
            let zone = time_zone_of(positions);
            let tank_l = req.tank_l.or_else(|| tank_capacity_l(&h.make, &h.model));
            Ok(Report::compute(&ReportInputs {
                window: req.window,
                now: req.now,
                daily: &data.history.daily_usages.rows,
                idle_fuel: idle_fuel.as_deref(),
                activities: data.activities.as_deref().map(Vec::as_slice),
                engine: &data.history.engine_conditions.rows,
                positions: data.track.as_ref().map(|t| t.samples.as_slice()),
                expected: req.expected,
                events: EventContext {
                    fuel: &h.fuel_remainings.rows,
                    positions,
                    faults: &h.fault_codes.rows,
                    counters: &counters,
                    rows: &rows,
                    working_hours: req.working_hours,
                    time_zone: zone.as_ref(),
                    tank_l,
                },
            }))
        })
        .await?;
        Ok((Arc::new(report), unread))
    }

    /// The operating-hours counter's samples over the window (counter
    /// resets, gaps and a cross-check), if it could be read whole; why
    /// not, if it failed (offline, the part not cached is no failure).
    /// `ahead`: what a read ahead had of it.
    pub(super) async fn operating_hours(
        &self,
        req: ReportRequest,
        offline: bool,
        ahead: Option<Fetched>,
    ) -> (Option<Vec<(i64, f64)>>, Option<Unread>) {
        let read = self
            .read_part(
                req,
                DataKind::CumulativeOperatingHours,
                offline,
                ahead,
                operating_hours_of,
            )
            .await;
        match read {
            Ok((fetched, _)) if !fetched.missing.is_empty() => (None, None),
            Ok((_, hours)) => (Some(hours), None),
            Err(error) => {
                tracing::warn!("operating hours of equipment {}: {error}", req.equipment);
                (None, Unread::of(FiguresPart::OperatingHours, error))
            }
        }
    }

    /// The daily idle fuel of the window (day start, litres), if the
    /// machine gives any: the figures go without the working/idle fuel
    /// split otherwise, and say so by a dash. Offline, the days the cache
    /// holds (the last minutes of today never are): the split is made on
    /// the days with idle fuel only, so a day missing takes nothing away
    /// from the others.
    async fn idle_fuel(
        &self,
        req: ReportRequest,
        offline: bool,
        ahead: Option<Fetched>,
    ) -> (Option<Vec<(i64, f64)>>, OfflineSince, Option<Unread>) {
        let read = self
            .read_part(req, DataKind::DailyIdleFuel, offline, ahead, |f| {
                f.typed::<IdleFuelRow>()
            })
            .await;
        let (fetched, rows) = match read {
            Ok(read) => read,
            Err(error) => {
                tracing::warn!("daily idle fuel of equipment {}: {error}", req.equipment);
                return (None, None, Unread::of(FiguresPart::IdleFuel, error));
            }
        };
        let offline = fetched.offline_since();
        let days: Vec<(i64, f64)> = rows
            .iter()
            .filter_map(|r| {
                // Without a unit, the kind's documented one.
                let unit = r.unit.as_deref().unwrap_or(DataKind::DailyIdleFuel.unit());
                Some((r.date.0, litres(r.fuel_used?, unit)?))
            })
            .collect();
        ((!days.is_empty()).then_some(days), offline, None)
    }

    /// `kind` over the window through the cache, and `decode`d. Cached
    /// rows that cannot be read are dropped there (the cache tells the
    /// user so) and the part read once more, from the service (offline,
    /// what the cache has left). `ahead`, a read of the same window
    /// already had, is taken first.
    async fn read_part<T: Send + 'static>(
        &self,
        req: ReportRequest,
        kind: DataKind,
        offline: bool,
        ahead: Option<Fetched>,
        decode: fn(&Fetched) -> Result<T, serde_json::Error>,
    ) -> Result<(Fetched, T), ApiError> {
        let source = SeriesSource::Kind(kind);
        let mut again = true;
        let mut ahead = ahead.filter(|f| f.window == req.window && (!offline || f.offline));
        loop {
            let fetched = match ahead.take() {
                Some(had) => had,
                None => {
                    self.fetch(req.equipment, source, req.window, offline)
                        .await?
                }
            };
            let (decoded, fetched) =
                decode_off_thread(kind.wire(), move || Ok((decode(&fetched), fetched))).await?;
            match decoded {
                Ok(value) => return Ok((fetched, value)),
                Err(_) if again && fetched.cache_dropped() => again = false,
                Err(e) => {
                    return Err(ApiError::Decode {
                        endpoint: kind.wire().to_owned(),
                        message: e.to_string(),
                        transient: false,
                    });
                }
            }
        }
    }
}

/// A machine's figures read for a report: where from, what could not be
/// read, and the name its history gives.
pub(crate) struct ReadReport {
    pub(crate) report: Arc<Report>,
    pub(crate) offline: OfflineSince,
    pub(crate) unread: Vec<Unread>,
    pub(crate) name: String,
}

/// What the figures read besides the page's tables, and what of it could
/// not be read.
struct Parts {
    idle_fuel: Option<Vec<(i64, f64)>>,
    operating_hours: Option<Vec<(i64, f64)>>,
    unread: Vec<Unread>,
}
