//! The integration catalog as the app knows it: data sources, integrations,
//! the one selected, and the writes in flight with the service's answers.

use std::collections::HashMap;

use super::failure::Failure;
use super::intake::Intake;
use super::loadable::Loadable;
use fleetview_api::ApiError;
use fleetview_api::model::{CreateIntegration, DataSource, Integration, UpdateIntegration};
use fleetview_core::worker::{CatalogChange, CatalogEvent, Command, Target};

#[derive(Debug, Clone, PartialEq)]
pub enum CatalogAction {
    Load,
    Select(i64),
    Create(CreateIntegration),
    Update { id: i64, body: UpdateIntegration },
    Delete(i64),
    SetActive { id: i64, active: bool },
}

#[derive(Debug, Default)]
pub struct CatalogState {
    pub sources: Vec<DataSource>,
    pub integrations: Loadable<Vec<Integration>>,
    pub selected: Option<i64>,
    /// Writes in flight per integration: what is being done.
    pub busy: HashMap<i64, &'static str>,
    pub creating: bool,
    /// The service's answer to the last create that failed.
    pub create_error: Option<String>,
    /// The service's answer to the last write on an integration that failed.
    pub write_error: Option<(i64, String)>,
    /// Counts successful creates and updates: a form seeing it change
    /// clears (and wipes) what was typed.
    pub created: u64,
    pub updated: u64,
    /// Counts every write that succeeded: a form's own complaint (checked
    /// before sending) goes once something was done since.
    pub succeeded: u64,
    /// The list shown is the one last read (the service is away): when.
    pub cached_at: Option<i64>,
}

impl CatalogState {
    pub fn source_label(&self, code: &str) -> String {
        self.sources
            .iter()
            .find(|s| s.code == code)
            .map_or_else(|| code.to_owned(), |s| s.label.clone())
    }

    pub fn load(&mut self) -> Vec<Command> {
        self.integrations.start();
        vec![Command::LoadCatalog]
    }

    /// Loads the list unless it was loaded already.
    pub fn load_once(&mut self) -> Vec<Command> {
        if matches!(self.integrations, Loadable::Idle) {
            self.load()
        } else {
            Vec::new()
        }
    }

    pub fn on_action(&mut self, action: CatalogAction) -> Vec<Command> {
        match action {
            CatalogAction::Load => self.load(),
            CatalogAction::Select(id) => {
                self.selected = Some(id);
                Vec::new()
            }
            CatalogAction::Create(body) => {
                self.creating = true;
                self.create_error = None;
                vec![Command::CreateIntegration(body)]
            }
            CatalogAction::Update { id, body } => {
                self.start_write(id, "saving");
                vec![Command::UpdateIntegration { id, body }]
            }
            CatalogAction::Delete(id) => {
                self.start_write(id, "deleting");
                vec![Command::DeleteIntegration { id }]
            }
            CatalogAction::SetActive { id, active } => {
                self.start_write(id, if active { "activating" } else { "deactivating" });
                vec![Command::SetIntegrationActive { id, active }]
            }
        }
    }

    fn start_write(&mut self, id: i64, what: &'static str) {
        self.busy.insert(id, what);
        self.write_error = None;
    }

    /// Takes in the list (maybe from the cache) or a write that succeeded.
    pub fn on_event(&mut self, event: CatalogEvent, intake: &mut Intake) -> Vec<Command> {
        match event {
            CatalogEvent::Loaded {
                sources,
                integrations,
                offline,
                ..
            } => {
                match offline {
                    Some(t) => intake
                        .conn
                        .went_offline(Some(t), "the integrations served from the cache".into()),
                    None => intake.conn.answered(),
                }
                self.on_loaded(sources, integrations, offline);
                Vec::new()
            }
            CatalogEvent::Changed { change, .. } => self.on_changed(change),
        }
    }

    /// The list or a write failed; a write says it beside its form.
    pub fn on_failed(&mut self, target: &Target, error: &ApiError) -> Failure {
        match target {
            Target::Integration(id) => self.write_failed(Some(*id), error),
            Target::CatalogCreate => self.write_failed(None, error),
            _ => {
                self.integrations.fail(super::errors::explain_read(error));
                return Failure::Notice;
            }
        }
        // Shown beside the form, not as a notification.
        if error.is_unauthorized() {
            Failure::Notice
        } else {
            Failure::Said
        }
    }

    pub fn on_loaded(
        &mut self,
        sources: Vec<DataSource>,
        integrations: Vec<Integration>,
        cached_at: Option<i64>,
    ) {
        self.sources = sources;
        self.integrations = Loadable::Ready(integrations);
        self.cached_at = cached_at;
    }

    /// A write succeeded; every change is followed by a fresh list.
    pub fn on_changed(&mut self, change: CatalogChange) -> Vec<Command> {
        self.succeeded += 1;
        // What failed before on the form or row that now succeeded is stale.
        match change {
            CatalogChange::Created { .. } => self.create_error = None,
            CatalogChange::Updated { id }
            | CatalogChange::Deleted { id }
            | CatalogChange::StatusSet { id, .. } => {
                if self.write_error.as_ref().is_some_and(|(e, _)| *e == id) {
                    self.write_error = None;
                }
            }
        }
        match change {
            CatalogChange::Created { id } => {
                self.creating = false;
                self.created += 1;
                self.selected = id;
            }
            CatalogChange::Updated { id } => {
                self.busy.remove(&id);
                self.updated += 1;
            }
            CatalogChange::Deleted { id } => {
                self.busy.remove(&id);
                if self.selected == Some(id) {
                    self.selected = None;
                }
            }
            CatalogChange::StatusSet { id, .. } => {
                self.busy.remove(&id);
            }
        }
        self.load()
    }

    /// A write failed: the service's own words, shown beside the form
    /// (`integration`: the one written; `None`: the create form).
    pub fn write_failed(&mut self, integration: Option<i64>, error: &ApiError) {
        let message = match error {
            ApiError::BadRequest { message, .. }
            | ApiError::NotFound { message, .. }
            | ApiError::Server { message, .. } => message.clone(),
            other => super::errors::explain(other).title,
        };
        match integration {
            Some(id) => {
                self.busy.remove(&id);
                self.write_error = Some((id, message));
            }
            None => {
                self.creating = false;
                self.create_error = Some(message);
            }
        }
    }
}
