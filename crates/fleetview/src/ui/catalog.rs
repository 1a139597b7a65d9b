//! The integration catalog: data sources, integrations, and forms to create,
//! update, delete, activate and deactivate them.
//!
//! Credentials are typed into masked fields held in `Zeroizing` strings
//! (wiped when dropped or cleared) and never shown by `Debug`. They are
//! checked before anything is sent, kept when the service refuses them (so
//! nothing typed is lost), and wiped once the service accepts them.

use std::collections::BTreeMap;

use egui_extras::{Column, TableRow};
use zeroize::Zeroizing;

use super::format;
use super::theme;
use super::widgets;
use crate::app::CatalogAction;
use crate::app::{Action, AppState, CatalogState};
use fleetview_api::model::{
    CreateIntegration, Credentials, DataSource, Integration, SecretValue, UpdateIntegration, status,
};

#[derive(Default)]
pub struct CatalogView {
    source: Option<String>,
    name: String,
    creds: BTreeMap<String, Zeroizing<String>>,
    /// A problem found before sending (missing fields).
    create_problem: Option<String>,
    seen_created: u64,
    /// The rename/credentials form, for the selected integration.
    edit_for: Option<i64>,
    edit_name: String,
    edit_creds: BTreeMap<String, Zeroizing<String>>,
    edit_problem: Option<String>,
    seen_updated: u64,
    /// The catalog's count of writes that succeeded, when last drawn.
    seen_succeeded: u64,
    /// The integration waiting for a delete confirmation.
    confirm_delete: Option<i64>,
}

impl std::fmt::Debug for CatalogView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CatalogView")
            .field("source", &self.source)
            .field("name", &self.name)
            .field("credentials", &"[redacted]")
            .finish_non_exhaustive()
    }
}

/// Wipes typed secrets (their memory too).
fn wipe(creds: &mut BTreeMap<String, Zeroizing<String>>) {
    // Zeroizing wipes each value as it is dropped.
    creds.clear();
}

fn credentials(creds: &BTreeMap<String, Zeroizing<String>>) -> Credentials {
    creds
        .iter()
        .map(|(k, v)| (k.clone(), SecretValue::new(v.trim())))
        .collect()
}

fn status_color(s: &str) -> egui::Color32 {
    match s {
        status::RUNNING => theme::INFO,
        status::STOPPED => theme::UNKNOWN,
        _ => theme::WARNING,
    }
}

pub fn catalog_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut CatalogView,
    actions: &mut Vec<Action>,
) {
    let cat = &state.catalog();
    // A create or update the service accepted: wipe what was typed.
    if cat.created != view.seen_created {
        view.seen_created = cat.created;
        view.name.clear();
        wipe(&mut view.creds);
        view.create_problem = None;
    }
    if cat.succeeded != view.seen_succeeded {
        // A write succeeded since a form complained: the complaint is stale.
        view.seen_succeeded = cat.succeeded;
        view.create_problem = None;
        view.edit_problem = None;
    }
    if cat.updated != view.seen_updated {
        view.seen_updated = cat.updated;
        // The name stays as saved: the list shows it once refreshed.
        wipe(&mut view.edit_creds);
    }
    ui.horizontal(|ui| {
        ui.heading("Integrations");
        if ui.button("Refresh list").clicked() {
            actions.push(CatalogAction::Load.into());
        }
        if cat.integrations.is_pending() {
            crate::ui::widgets::spinner_ui(ui);
        }
    });
    if let Some(e) = cat.integrations.error() {
        super::widgets::problem_ui(ui, "Integrations: ", e);
    }
    egui::ScrollArea::vertical()
        .id_salt("catalog_scroll")
        .show(ui, |ui| {
            integrations_table_ui(ui, state, view, actions);
            ui.add_space(theme::GAP * 2.0);
            ui.columns(2, |cols| {
                create_form_ui(&mut cols[0], state, view, actions);
                edit_form_ui(&mut cols[1], state, view, actions);
            });
            ui.add_space(theme::GAP * 2.0);
            sources_table_ui(ui, &cat.sources);
        });
    delete_confirmation_ui(ui, state, view, actions);
}

/// The integrations table's fixed columns.
const ID_WIDTH: f32 = 40.0;
const STATUS_WIDTH: f32 = 80.0;
const ACTIONS_WIDTH: f32 = 250.0;

fn integrations_table_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut CatalogView,
    actions: &mut Vec<Action>,
) {
    let cat = &state.catalog();
    let empty = Vec::new();
    let rows = cat.integrations.value().unwrap_or(&empty);
    integrations_count_ui(ui, state, rows.len());
    // The buttons keep their room; the names share what is left (clipped,
    // whole on hover), so nothing is cut off in a small window.
    let fixed = ID_WIDTH + STATUS_WIDTH + ACTIONS_WIDTH + 4.0 * theme::GAP * 2.0;
    let name_width = ((ui.available_width() - fixed) / 2.0).clamp(90.0, 260.0);
    let columns = [
        Column::exact(ID_WIDTH),
        Column::exact(name_width).clip(true),
        Column::exact(name_width).clip(true),
        Column::exact(STATUS_WIDTH).clip(true),
        Column::exact(ACTIONS_WIDTH),
    ];
    let table = widgets::list_table(ui, "integrations_table", columns);
    let titles = ["Id", "Name", "Data source", "Status", ""];
    widgets::titles_header(table, titles).body(|body| {
        body.rows(theme::ROW_HEIGHT + 4.0, rows.len(), |row| {
            let it = &rows[row.index()];
            integration_row_ui(row, cat, it, view, actions);
        });
    });
    if let Some((id, e)) = &cat.write_error {
        ui.colored_label(
            theme::ink(ui, theme::ERROR),
            format!("Integration {id}: {e}"),
        );
    }
}

/// How many integrations, and whether the list is the one last read
/// (offline).
fn integrations_count_ui(ui: &mut egui::Ui, state: &AppState, count: usize) {
    match state.catalog().cached_at {
        Some(t) => {
            ui.colored_label(
                theme::ink(ui, theme::OFFLINE),
                format!(
                    "{}: offline, the list as last read at {}",
                    format::count(count, "integration", "integrations"),
                    format::format_time(t, state.local_time())
                ),
            )
            .on_hover_text("The service cannot be reached: changes wait until it is back.");
        }
        None => {
            ui.label(format::count(count, "integration", "integrations"));
        }
    }
}

fn integration_row_ui(
    mut row: TableRow<'_, '_>,
    cat: &CatalogState,
    it: &Integration,
    view: &mut CatalogView,
    actions: &mut Vec<Action>,
) {
    row.col(|ui| {
        ui.label(it.id.to_string());
    });
    row.col(|ui| {
        if ui
            .selectable_label(cat.selected == Some(it.id), &it.name)
            .clicked()
        {
            actions.push(CatalogAction::Select(it.id).into());
        }
    });
    row.col(|ui| {
        ui.label(cat.source_label(&it.data_source_code));
    });
    row.col(|ui| {
        // Any status string is shown as it comes (D4).
        ui.colored_label(theme::ink(ui, status_color(&it.status)), &it.status);
    });
    row.col(|ui| {
        ui.horizontal(|ui| {
            let busy = cat.busy.get(&it.id).copied();
            integration_buttons_ui(ui, it, busy, view, actions);
        });
    });
}

/// Activate, Deactivate and Delete; in their place, while a change is
/// under way, a spinner and what is being done.
fn integration_buttons_ui(
    ui: &mut egui::Ui,
    it: &Integration,
    busy: Option<&str>,
    view: &mut CatalogView,
    actions: &mut Vec<Action>,
) {
    if let Some(what) = busy {
        crate::ui::widgets::spinner_ui(ui);
        ui.label(what);
        return;
    }
    let running = it.status == status::RUNNING;
    for (label, active) in [("Activate", true), ("Deactivate", false)] {
        // Each button does what the status does not already say.
        if ui
            .add_enabled(running != active, egui::Button::new(label).small())
            .clicked()
        {
            actions.push(CatalogAction::SetActive { id: it.id, active }.into());
        }
    }
    if ui.small_button("Delete").clicked() {
        view.confirm_delete = Some(it.id);
    }
}

fn create_form_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut CatalogView,
    actions: &mut Vec<Action>,
) {
    let cat = &state.catalog();
    ui.strong("New integration");
    let source = view
        .source
        .as_ref()
        .and_then(|c| cat.sources.iter().find(|s| &s.code == c));
    source_picker_ui(ui, cat, view, source);
    widgets::labelled_ui(
        ui,
        "Integration name",
        egui::TextEdit::singleline(&mut view.name).desired_width(260.0),
    );
    if let Some(s) = source {
        for field in &s.credentials {
            let value = view.creds.entry(field.clone()).or_default();
            widgets::labelled_ui(
                ui,
                format::field_label(field),
                credential_field(field, value),
            );
        }
    }
    let busy = cat.creating;
    if ui
        .add_enabled(
            !busy,
            egui::Button::new(if busy {
                "Creating..."
            } else {
                "Create integration"
            }),
        )
        .clicked()
    {
        match check_create(source, view) {
            Err(problem) => view.create_problem = Some(problem),
            Ok(body) => {
                view.create_problem = None;
                actions.push(CatalogAction::Create(body).into());
            }
        }
    }
    if let Some(p) = &view.create_problem {
        ui.colored_label(theme::ink(ui, theme::ERROR), p);
    }
    if let Some(e) = &cat.create_error {
        ui.colored_label(
            theme::ink(ui, theme::ERROR),
            format!("The service said: {e}"),
        );
    }
}

/// The data source of a new integration; choosing another wipes what was
/// typed for the one before.
fn source_picker_ui(
    ui: &mut egui::Ui,
    cat: &CatalogState,
    view: &mut CatalogView,
    source: Option<&DataSource>,
) {
    widgets::labelled_with_ui(ui, "Data source", |ui| {
        egui::ComboBox::from_id_salt("new_source")
            .selected_text(source.map_or("Choose a data source", |s| s.label.as_str()))
            .show_ui(ui, |ui| {
                for s in &cat.sources {
                    let chosen = view.source.as_deref() == Some(s.code.as_str());
                    if ui.selectable_label(chosen, &s.label).clicked() {
                        view.source = Some(s.code.clone());
                        // Fields of another source do not apply, nor does a
                        // problem found with them.
                        wipe(&mut view.creds);
                        view.create_problem = None;
                    }
                }
            })
            .response
    });
}

/// The field a credential is typed into (masked if a secret).
fn credential_field<'t>(field: &str, value: &'t mut Zeroizing<String>) -> egui::TextEdit<'t> {
    egui::TextEdit::singleline(&mut **value)
        .password(format::is_secret_field(field))
        .desired_width(260.0)
}

/// Required fields, checked before anything is sent.
fn check_create(
    source: Option<&DataSource>,
    view: &CatalogView,
) -> Result<CreateIntegration, String> {
    let Some(source) = source else {
        return Err("Choose a data source first.".into());
    };
    let mut missing: Vec<&str> = Vec::new();
    if view.name.trim().is_empty() {
        missing.push("integration name");
    }
    let mut labels = Vec::new();
    for f in &source.credentials {
        if view.creds.get(f).is_none_or(|v| v.trim().is_empty()) {
            labels.push(format::field_in_sentence(f));
        }
    }
    missing.extend(labels.iter().map(String::as_str));
    if !missing.is_empty() {
        return Err(format!(
            "Required: {}. Nothing was sent.",
            missing.join(", ")
        ));
    }
    let creds = source
        .credentials
        .iter()
        .filter_map(|f| view.creds.get_key_value(f))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Ok(CreateIntegration {
        integration_credentials: credentials(&creds),
        integration_name: view.name.trim().to_owned(),
        data_source_code: source.code.clone(),
    })
}

fn edit_form_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut CatalogView,
    actions: &mut Vec<Action>,
) {
    let cat = &state.catalog();
    let Some(it) = cat
        .selected
        .and_then(|id| cat.integrations.value()?.iter().find(|i| i.id == id))
    else {
        ui.label("Select an integration to rename it or replace its credentials.");
        return;
    };
    if view.edit_for != Some(it.id) {
        view.edit_for = Some(it.id);
        view.edit_name = it.name.clone();
        wipe(&mut view.edit_creds);
        view.edit_problem = None;
    }
    ui.strong(format!(
        "Integration {} ({})",
        it.id,
        cat.source_label(&it.data_source_code)
    ));
    widgets::labelled_ui(
        ui,
        "New name",
        egui::TextEdit::singleline(&mut view.edit_name).desired_width(260.0),
    );
    let fields = cat
        .sources
        .iter()
        .find(|s| s.code == it.data_source_code)
        .map(|s| s.credentials.clone())
        .unwrap_or_default();
    if !fields.is_empty() {
        ui.label(
            egui::RichText::new("New credentials (leave all empty to keep the current ones)")
                .small(),
        );
    }
    for field in &fields {
        let value = view.edit_creds.entry(field.clone()).or_default();
        let label = format!("New {}", format::field_in_sentence(field));
        widgets::labelled_ui(ui, label, credential_field(field, value));
    }
    let busy = cat.busy.contains_key(&it.id);
    if ui
        .add_enabled(!busy, egui::Button::new("Save changes"))
        .clicked()
    {
        match check_update(&fields, view) {
            Err(problem) => view.edit_problem = Some(problem),
            Ok(body) => {
                view.edit_problem = None;
                actions.push(CatalogAction::Update { id: it.id, body }.into());
            }
        }
    }
    if let Some(p) = &view.edit_problem {
        ui.colored_label(theme::ink(ui, theme::ERROR), p);
    }
}

/// A new name, and all of the source's credential `fields` or none,
/// checked before anything is sent.
fn check_update(fields: &[String], view: &CatalogView) -> Result<UpdateIntegration, String> {
    let filled: Vec<&String> = fields
        .iter()
        .filter(|f| {
            view.edit_creds
                .get(*f)
                .is_some_and(|v| !v.trim().is_empty())
        })
        .collect();
    if view.edit_name.trim().is_empty() {
        return Err("The name must not be empty. Nothing was sent.".into());
    }
    if !filled.is_empty() && filled.len() < fields.len() {
        let names: Vec<String> = fields.iter().map(|f| format::field_label(f)).collect();
        return Err(format!(
            "Replace all of {} or none. Nothing was sent.",
            names.join(", ")
        ));
    }
    let creds = (!filled.is_empty()).then(|| credentials(&view.edit_creds));
    Ok(UpdateIntegration {
        integration_credentials: creds,
        integration_name: view.edit_name.trim().to_owned(),
    })
}

fn delete_confirmation_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut CatalogView,
    actions: &mut Vec<Action>,
) {
    let Some(id) = view.confirm_delete else {
        return;
    };
    let name = state
        .catalog()
        .integrations
        .value()
        .and_then(|l| l.iter().find(|i| i.id == id))
        .map_or_else(|| format!("integration {id}"), |i| i.name.clone());
    let modal = egui::Modal::new(egui::Id::unique("confirm_delete")).show(ui.ctx(), |ui| {
        ui.heading("Delete integration?");
        ui.label(format!("Delete '{name}' (id {id})? This cannot be undone."));
        ui.horizontal(|ui| {
            if ui.button("Delete permanently").clicked() {
                actions.push(CatalogAction::Delete(id).into());
                view.confirm_delete = None;
            }
            if ui.button("Cancel").clicked() {
                view.confirm_delete = None;
            }
        });
    });
    if modal.should_close() {
        view.confirm_delete = None;
    }
}

fn sources_table_ui(ui: &mut egui::Ui, sources: &[DataSource]) {
    ui.strong(format!("Data sources ({})", sources.len()));
    let columns = [
        Column::auto().at_least(220.0),
        Column::auto().at_least(180.0),
        Column::remainder(),
    ];
    let table = widgets::list_table(ui, "sources_table", columns);
    let titles = ["Label", "Code", "Credential fields"];
    widgets::titles_header(table, titles).body(|body| {
        body.rows(theme::ROW_HEIGHT, sources.len(), |mut row| {
            let s = &sources[row.index()];
            row.col(|ui| {
                ui.label(&s.label);
            });
            row.col(|ui| {
                ui.label(&s.code);
            });
            row.col(|ui| {
                ui.label(s.credentials.join(", "));
            });
        });
    });
}
