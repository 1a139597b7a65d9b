//! Writing a report (`Command::Report`): ask where to save first (nothing
//! is read for a report nobody saves), read each machine's figures and
//! events through the cache (the fleet's four at a time), judge what needs
//! attention, write the document and save it, or hand it back to the
//! command line. A fleet report lists every machine: one that could not be
//! read (offline: not cached) has null figures and is named in the notes.

use std::sync::Arc;

use futures_util::future::{BoxFuture, FutureExt};
use futures_util::stream::{self, StreamExt};

use super::events::{ExportEvent, Unread};
use super::export::{Place, SaveAsk, put, where_to};
use super::messages::{ExportOutcome, OfflineSince};
use super::report::ReadReport;
use super::report_data::ReportRequest;
use super::report_job::{ReportJob, ReportMachine, ReportPlace, ReportScope, ReportWritten};
use super::task::TaskCtx;
use crate::analysis::{AttentionInputs, Figure, LastReport, Report, attention};
use crate::export::ExportError;
use crate::report::{FleetDoc, FleetMachine, ReportDoc, write_fleet_report, write_report};
use fleetview_api::ApiError;
use fleetview_api::time::format_wire;

/// Machines read at once for the fleet's report.
const READ_AT_ONCE: usize = 4;

/// What a report is written from, once read.
enum Built {
    Machine {
        read: ReadReport,
        name: Option<String>,
        notes: Vec<String>,
    },
    Fleet {
        machines: Vec<FleetMachine>,
        notes: Vec<String>,
        lacking: Vec<i64>,
        offline: OfflineSince,
    },
}

impl TaskCtx {
    pub(crate) async fn report_file(&self, job: ReportJob) -> Result<(), ApiError> {
        let what = job.describe();
        let place = match &job.place {
            ReportPlace::Returned => None,
            ReportPlace::Saved {
                file_name,
                directory,
                fallback_directory,
            } => {
                let ask = SaveAsk {
                    title: format!("Save {what}"),
                    file_name: file_name.clone(),
                    extension: job.format.extension(),
                    directory: directory.clone(),
                    fallback_directory: fallback_directory.clone(),
                };
                match where_to(&ask, self.shared.save_dialog.as_deref()).await {
                    Ok(place) => Some((place, file_name.clone())),
                    Err(outcome) => {
                        self.reported(what, Some(outcome), ReportWritten::default());
                        return Ok(());
                    }
                }
            }
        };
        let built = match &job.scope {
            ReportScope::Machine { machine, tank_l } => {
                self.machine_built(&job, machine, *tank_l).await
            }
            ReportScope::Fleet {
                machines,
                last_reports_known,
            } => self.fleet_built(&job, machines, *last_reports_known).await,
        };
        let built = match built {
            Ok(built) => built,
            // The command line says the failure as it says any other.
            Err(e) if place.is_none() => return Err(e),
            Err(e) => {
                let outcome = ExportOutcome::Failed(e.to_string());
                self.reported(what, Some(outcome), ReportWritten::default());
                return Ok(());
            }
        };
        let (bytes, mut written) = render(&job, built);
        let bytes = match bytes {
            Ok(bytes) => bytes,
            Err(e) => {
                self.reported(what, Some(ExportOutcome::Failed(e.to_string())), written);
                return Ok(());
            }
        };
        match place {
            None => {
                written.document = Some(Arc::new(bytes));
                self.reported(what, None, written);
            }
            Some((place, name)) => {
                let outcome = save(place, name, bytes, written.machines.max(written.days)).await;
                self.reported(what, Some(outcome), written);
            }
        }
        Ok(())
    }

    fn reported(&self, what: String, outcome: Option<ExportOutcome>, written: ReportWritten) {
        self.emit(ExportEvent::Reported {
            request: self.id,
            what,
            outcome,
            written: Box::new(written),
        });
    }

    async fn machine_built(
        &self,
        job: &ReportJob,
        machine: &ReportMachine,
        tank_l: Option<f64>,
    ) -> Result<Built, ApiError> {
        let read = self
            .read_report(request(job, machine.equipment, tank_l), job.offline)
            .await?;
        let mut notes = job.notes.clone();
        notes.extend(machine_notes(&read.report, read.offline, &read.unread));
        let given = machine.name.clone().filter(|n| !n.trim().is_empty());
        let name = given.or_else(|| Some(read.name.clone()).filter(|n| !n.is_empty()));
        Ok(Built::Machine { read, name, notes })
    }

    async fn fleet_built(
        &self,
        job: &ReportJob,
        machines: &[ReportMachine],
        known: bool,
    ) -> Result<Built, ApiError> {
        // Boxed first: a stream of `async` blocks borrowing the task is not
        // seen as `Send` by the compiler otherwise.
        let reads: Vec<BoxFuture<'_, (&ReportMachine, Result<ReadReport, ApiError>)>> = machines
            .iter()
            .map(|m| {
                let req = request(job, m.equipment, None);
                async move { (m, self.read_report(req, job.offline).await) }.boxed()
            })
            .collect();
        let reads: Vec<_> = stream::iter(reads).buffered(READ_AT_ONCE).collect().await;
        let mut notes = job.notes.clone();
        let (mut lacking, mut out, mut offline) = (Vec::new(), Vec::new(), None::<i64>);
        for (m, read) in reads {
            let mut machine = fleet_machine(m);
            match read {
                Ok(read) => {
                    offline = match (offline, read.offline) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                    for u in &read.unread {
                        notes.push(format!("{}: {}", machine.title(), unread_note(u)));
                    }
                    machine.report = Some(read.report);
                }
                Err(e) if e.is_unauthorized() => return Err(e),
                Err(ApiError::NotConnected) => lacking.push(m.equipment),
                Err(e) => notes.push(format!(
                    "{} (equipment {}) could not be read ({e}): no figures",
                    machine.title(),
                    m.equipment
                )),
            }
            machine.attention = attention(&AttentionInputs {
                last_report: if known {
                    LastReport::from(m.last_report)
                } else {
                    LastReport::Unknown
                },
                events: machine.report.as_ref().map_or(&[], |r| r.events.as_slice()),
                idle_percent: machine
                    .report
                    .as_ref()
                    .and_then(|r| r.totals.value(Figure::IdlePercent)),
                idle_threshold_percent: job.idle_threshold_percent,
                now: job.now,
            });
            out.push(machine);
        }
        if let Some(at) = offline {
            notes.insert(0, offline_note(at));
        }
        if !lacking.is_empty() {
            notes.push(lacking_note(&out, &lacking));
        }
        Ok(Built::Fleet {
            machines: out,
            notes,
            lacking,
            offline,
        })
    }
}

fn request(job: &ReportJob, equipment: i64, tank_l: Option<f64>) -> ReportRequest {
    ReportRequest {
        equipment,
        window: job.window,
        expected: job.expected,
        now: job.now,
        working_hours: job.working_hours,
        tank_l,
    }
}

fn fleet_machine(m: &ReportMachine) -> FleetMachine {
    let known = |s: &Option<String>| s.clone().filter(|s| !s.trim().is_empty());
    FleetMachine {
        equipment: m.equipment,
        name: known(&m.name),
        category: known(&m.category),
        make: known(&m.make),
        model: known(&m.model),
        report: None,
        attention: Vec::new(),
    }
}

/// The document, and what it holds.
fn render(job: &ReportJob, built: Built) -> (Result<Vec<u8>, ExportError>, ReportWritten) {
    let mut bytes = Vec::new();
    match built {
        Built::Machine { read, name, notes } => {
            let doc = ReportDoc {
                equipment: match &job.scope {
                    ReportScope::Machine { machine, .. } => machine.equipment,
                    ReportScope::Fleet { .. } => 0,
                },
                name: name.as_deref(),
                window: job.window,
                expected: job.expected,
                report: &read.report,
                notes: &notes,
                units: job.units,
            };
            let done = write_report(&doc, job.format, &mut bytes).map(|()| bytes);
            let written = ReportWritten {
                days: read.report.days.len(),
                events: read.report.events.len(),
                machines: 1,
                offline: read.offline,
                notes,
                ..ReportWritten::default()
            };
            (done, written)
        }
        Built::Fleet {
            machines,
            notes,
            lacking,
            offline,
        } => {
            let doc = FleetDoc {
                window: job.window,
                generated_at: job.now,
                machines: &machines,
                notes: &notes,
                units: job.units,
                expected: job.expected,
            };
            let done = write_fleet_report(&doc, job.format, &mut bytes).map(|()| bytes);
            let written = ReportWritten {
                machines: machines.len(),
                events: machines
                    .iter()
                    .filter_map(|m| m.report.as_ref())
                    .map(|r| r.events.len())
                    .sum(),
                lacking,
                offline,
                notes,
                ..ReportWritten::default()
            };
            (done, written)
        }
    }
}

/// Saves off the async threads.
async fn save(place: Place, name: String, bytes: Vec<u8>, rows: usize) -> ExportOutcome {
    match tokio::task::spawn_blocking(move || put(place, &name, &bytes, rows)).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(e)) => ExportOutcome::Failed(e),
        Err(e) => ExportOutcome::Failed(e.to_string()),
    }
}

fn offline_note(at: i64) -> String {
    format!(
        "read from the cache, not the service: the oldest part was fetched at {}",
        format_wire(at)
    )
}

/// `the cache does not hold this window for RT-001 (1001), ...`.
fn lacking_note(machines: &[FleetMachine], lacking: &[i64]) -> String {
    let named: Vec<String> = lacking
        .iter()
        .map(|id| match machines.iter().find(|m| m.equipment == *id) {
            Some(m) if m.name.is_some() => format!("{} (equipment {id})", m.title()),
            _ => format!("equipment {id}"),
        })
        .collect();
    format!(
        "not in the cache for this window, so without figures: {}",
        named.join(", ")
    )
}

fn unread_note(u: &Unread) -> String {
    format!(
        "{} could not be read ({}): {}",
        u.part.describe().to_lowercase(),
        u.error,
        u.part.loss()
    )
}

/// What a reader of one machine's report should know about where its
/// figures come from.
fn machine_notes(report: &Report, offline: OfflineSince, unread: &[Unread]) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(at) = offline {
        notes.push(offline_note(at));
    }
    let t = &report.totals;
    if t.engine_hours_h.is_none() && t.fuel_used_l.is_none() && t.distance_km.is_none() {
        notes.push("the service gives no daily usage for this window".to_owned());
    }
    if t.activities.is_none() {
        notes.push("the activities could not be read: activities_count is null".to_owned());
    }
    if report.stops_from.is_none() {
        notes.push(
            "no engine events and no positions in the window: stops_count is null".to_owned(),
        );
    }
    // Parts that failed after their retries: said, not silently left out.
    notes.extend(unread.iter().map(unread_note));
    notes
}
