//! What each command does once it runs as a task: the command is handed to
//! the work it asks for (`reads.rs`, `fleet.rs`, `overview.rs`, `report.rs`,
//! `catalog.rs`, `export.rs`), which says what it had in one event; a
//! failure is said here.

use super::events::{ConnectionEvent, ExportEvent};
use super::export::export_file;
use super::messages::{Command, ExportJob};
use super::overview::Wanted;
use super::reads::page_read_of;
use super::task::TaskCtx;
use fleetview_api::ApiError;

impl TaskCtx {
    pub(crate) async fn run(self, command: Command) {
        let page = page_read_of(&command);
        let mut done = self.execute(command.clone()).await;
        if done.is_err() && self.writes.take_unreadable() {
            // Rows of the cache could not be read and were dropped (the
            // user is told): read again, from the service, once.
            done = self.execute(command).await;
        }
        if let Err(e) = done {
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
        match command {
            Command::FetchSeries { .. }
            | Command::FetchFaults { .. }
            | Command::FetchActivities { .. }
            | Command::FetchPlot { .. }
            | Command::FetchTrack { .. }
            | Command::FetchHistory { .. } => self.read_window(command).await,
            Command::DiscoverFleet { window } => self.discover_fleet(window).await,
            Command::FetchServiceUsage {
                equipment,
                window,
                offline,
            } => self.fetch_usage(equipment, window, offline).await,
            Command::FetchSnapshots => self.fetch_snapshots().await,
            Command::KeptFleet { scope } => self.kept_fleet(&scope),
            Command::KeptSnapshots { scope } => self.kept_snapshots(&scope),
            Command::FetchFigures {
                equipment,
                window,
                offline,
                look_back_now,
            } => {
                let wanted = Wanted {
                    figures: true,
                    look_back_now,
                };
                self.fetch_figures(equipment, window, offline, wanted).await
            }
            Command::FetchLookBack {
                equipment,
                window,
                now,
                offline,
            } => {
                let wanted = Wanted {
                    figures: false,
                    look_back_now: Some(now),
                };
                self.fetch_figures(equipment, window, offline, wanted).await
            }
            Command::ComputeReport { request, data } => self.compute_report(request, data).await,
            Command::PageReport { request } => self.page_report(request).await,
            Command::ReadAhead { equipment, window } => {
                self.read_ahead(equipment, window).await;
                Ok(())
            }
            Command::FetchReport { request, offline } => self.fetch_report(request, offline).await,
            Command::Export(job) => {
                self.export(job).await;
                Ok(())
            }
            Command::Report(job) => self.report_file(*job).await,
            Command::Probe => self.probe().await,
            Command::LoadCatalog => self.load_catalog().await,
            Command::CreateIntegration(body) => self.create_integration(body).await,
            Command::UpdateIntegration { id, body } => self.update_integration(id, body).await,
            Command::DeleteIntegration { id } => self.delete_integration(id).await,
            Command::SetIntegrationActive { id, active } => {
                self.set_integration_active(id, active).await
            }
            // Handled by the command loop itself.
            Command::Connect(_)
            | Command::UseProfile { .. }
            | Command::TestConnection { .. }
            | Command::StoreToken { .. }
            | Command::Service { .. }
            | Command::Cancel(_)
            | Command::CancelReads => Ok(()),
        }
    }

    /// Asks where to save (unless a directory is set), writes the file and
    /// says how it ended (a failed export is said in its event).
    async fn export(&self, job: ExportJob) {
        let what = job.content.describe();
        let key = job.content.key();
        let outcome = export_file(job, self.shared.save_dialog.as_deref()).await;
        self.emit(ExportEvent::Exported {
            request: self.id,
            key,
            what,
            outcome,
        });
    }

    /// One cheap authenticated request: is the service back?
    async fn probe(&self) -> Result<(), ApiError> {
        self.client()?.data_sources().await?;
        self.emit(ConnectionEvent::Reachable { request: self.id });
        Ok(())
    }
}
