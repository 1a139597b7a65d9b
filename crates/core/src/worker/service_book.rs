//! The service book's commands and events, and the thread that runs them
//! one after another (each write committed before its answer), plus a
//! machine's daily usage read for the due rules.
//!
//! Every answer carries the whole book as it is after the command, so the
//! app never shows a book older than what it asked to be written.

use std::sync::Arc;
use std::sync::mpsc;

use super::fetch::Dated;
use super::messages::{RequestId, Target};
use super::service_events::ServiceEvent;
use super::shared::{InFlight, Shared};
use super::task::{TaskCtx, decode_off_thread};
use crate::service::change::{Saved, ServiceCommand};
use crate::service::plan::ServiceBook;
use crate::service::store::ServiceStore;
use crate::service::usage::{UsageDay, by_day};
use fleetview_api::model::DailyUsageRow;
use fleetview_api::time::TimeWindow;
use fleetview_api::{ApiError, DataKind, SeriesSource};

/// A command for the book's thread.
pub(crate) struct BookJob {
    pub(crate) id: RequestId,
    pub(crate) target: Target,
    pub(crate) service: String,
    pub(crate) command: ServiceCommand,
    pub(crate) guard: InFlight,
}

/// Starts the thread that owns the book; jobs run in the order sent.
pub(crate) fn spawn_book(shared: Shared) -> std::io::Result<mpsc::Sender<BookJob>> {
    let (tx, rx) = mpsc::channel::<BookJob>();
    std::thread::Builder::new()
        .name("fleetview-service-book".into())
        .spawn(move || {
            let mut store: Option<Result<ServiceStore, String>> = None;
            for job in rx {
                let event = run_job(&mut store, &job);
                shared.emit(&job.target, job.id, event);
                drop(job.guard);
            }
        })?;
    Ok(tx)
}

fn run_job(store: &mut Option<Result<ServiceStore, String>>, job: &BookJob) -> ServiceEvent {
    if let ServiceCommand::Open(path) = &job.command
        && store.is_none()
    {
        *store = Some(ServiceStore::open(path).map_err(|e| e.to_string()));
    }
    let (outcome, book, read_only) = match store {
        None => (
            job.command
                .is_write()
                .then(|| Err("the service book is not open".to_owned())),
            ServiceBook::default(),
            Some("the service book is not open".to_owned()),
        ),
        Some(Err(why)) => (
            job.command.is_write().then(|| Err(why.clone())),
            ServiceBook::default(),
            Some(why.clone()),
        ),
        Some(Ok(store)) => {
            let outcome = write(store, &job.service, &job.command);
            let (book, read_error) = match store.book(&job.service) {
                Ok(b) => (b, None),
                Err(e) => (ServiceBook::default(), Some(e.to_string())),
            };
            let read_only = store.read_only().map(str::to_owned).or(read_error);
            (outcome, book, read_only)
        }
    };
    ServiceEvent::Book {
        request: job.id,
        write: match job.target {
            Target::ServiceWrite(n) => n,
            _ => 0,
        },
        service: job.service.clone(),
        book: Arc::new(book),
        read_only,
        outcome,
    }
}

fn write(
    store: &ServiceStore,
    service: &str,
    command: &ServiceCommand,
) -> Option<Result<Saved, String>> {
    let done = match command {
        ServiceCommand::Open(_) | ServiceCommand::Load => return None,
        ServiceCommand::SavePlan { id, plan } => {
            store.save_plan(service, *id, plan).map(Saved::Plan)
        }
        ServiceCommand::DeletePlan(id) => store
            .delete_plan(service, *id)
            .map(|()| Saved::Deleted(*id)),
        ServiceCommand::RecordDone(r) => store.record_done(service, r).map(|()| Saved::Done),
        ServiceCommand::Import(i) => store.import(service, i).map(Saved::Imported),
    };
    if let Err(e) = &done {
        tracing::warn!(error = %e, "service book write failed");
    }
    Some(done.map_err(|e| e.to_string()))
}

impl Dated for DailyUsageRow {
    fn date_secs(&self) -> i64 {
        self.date.0
    }
}

impl TaskCtx {
    /// A machine's daily usage over `window`, through the cache.
    pub(crate) async fn fetch_usage(
        &self,
        equipment: i64,
        window: TimeWindow,
        offline: bool,
    ) -> Result<(), ApiError> {
        let source = SeriesSource::Kind(DataKind::DailyUsages);
        let fetched = self.fetch(equipment, source, window, offline).await?;
        let since = fetched.offline_since();
        let days = decode_off_thread("daily usage", move || {
            let rows = fetched.typed::<DailyUsageRow>()?;
            Ok::<_, serde_json::Error>(by_day(rows.iter().map(UsageDay::from_row).collect()))
        })
        .await?;
        self.writes.rows_decoded();
        self.emit(ServiceEvent::Usage {
            request: self.id,
            equipment,
            window,
            days: Arc::new(days),
            offline: since,
        });
        Ok(())
    }
}
