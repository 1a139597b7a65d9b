//! The equipment picker: the fleet (discovered per D2), search, an id typed
//! by hand, recently viewed. The list is virtualised: only visible rows are
//! laid out, so 10,000 machines scroll as smoothly as 10.

use super::theme;
use super::widgets;
use crate::app::MachineAction;
use crate::app::overview::Filters;
use crate::app::{Action, AppState, FleetState, OverviewAction};
use fleetview_core::worker::FleetSource;

#[derive(Debug, Default)]
pub struct PickerView {
    pub manual_id: String,
    manual_error: Option<String>,
    /// Indices into the fleet matching `search`, recomputed only when the
    /// search or the fleet changes.
    filtered: Vec<usize>,
    filtered_for: Option<(String, usize)>,
    /// Give the search field the focus this frame (a shortcut asked).
    focus_search: bool,
    /// Scroll the list to this row (a shortcut moved to its machine).
    scroll_to: Option<usize>,
    /// The list's scroll offset and height as last shown: a row already
    /// in view is not scrolled to.
    list_shown: (f32, f32),
}

impl PickerView {
    pub fn focus_search(&mut self) {
        self.focus_search = true;
    }

    /// The machine `step` rows from the open one in the list as shown
    /// (searched), scrolled into view, stopping at either end; from none
    /// open, the first (or the last). `None` if that is the open one.
    pub fn neighbour(&mut self, state: &AppState, step: isize) -> Option<i64> {
        self.refresh_filter(state);
        let equipments = &state.fleet().equipments;
        let last = self.filtered.len().checked_sub(1)?;
        let at = state
            .selected()
            .and_then(|id| self.filtered.iter().position(|&i| equipments[i].id == id));
        let row = match at {
            Some(k) => k.saturating_add_signed(step).min(last),
            None if step > 0 => 0,
            None => last,
        };
        if Some(row) == at {
            return None;
        }
        let id = equipments[*self.filtered.get(row)?].id;
        self.scroll_to = Some(row);
        Some(id)
    }

    fn refresh_filter(&mut self, state: &AppState) {
        let search = &state.overview().settings.filters.text;
        let key = (search.clone(), state.fleet().equipments.len());
        if self.filtered_for.as_ref() == Some(&key) {
            return;
        }
        self.filtered = state
            .fleet()
            .equipments
            .iter()
            .enumerate()
            .filter(|(_, e)| e.matches(search))
            .map(|(i, _)| i)
            .collect();
        self.filtered_for = Some(key);
    }
}

pub fn equipment_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut PickerView,
    actions: &mut Vec<Action>,
) {
    ui.heading("Equipment");
    let fleet = &state.fleet();
    source_line_ui(ui, fleet);
    progress_line_ui(ui, fleet);
    fleet_notices_ui(ui, fleet, state.conn().needs_secret(), actions);
    view.search_ui(ui, state, actions);
    view.manual_id_ui(ui, actions);
    view.refresh_filter(state);
    ui.label(format!(
        "{} of {} shown",
        view.filtered.len(),
        fleet.equipments.len()
    ));
    ui.separator();
    // Below the list, not above it: above, the first machine picked would
    // add it over the list and move every row under the mouse.
    if !state.machine().recent.is_empty() {
        egui::Panel::bottom("recent_machines")
            .resizable(false)
            .show(ui, |ui| recent_ui(ui, state, actions));
    }
    view.list_ui(ui, state, actions);
}

/// Where the fleet came from, on one line whatever the source, so the list
/// below never moves when the discovery says where it found the fleet.
fn source_line_ui(ui: &mut egui::Ui, fleet: &FleetState) {
    let source = match fleet.source {
        FleetSource::List => "The service's equipment list.".to_owned(),
        FleetSource::DeprecatedHistory => format!(
            "This service has no equipment list: found through the deprecated fleet \
             history, only machines that reported in the last {}.",
            match crate::app::DISCOVERY_WINDOW_SECS / 3600 {
                1 => "hour".to_owned(),
                h => format!("{h} hours"),
            }
        ),
    };
    ui.label(egui::RichText::new(source).small().weak());
}

/// The discovery's progress, on a line of its own, there whether loading
/// or not, so nothing below moves when a discovery starts or ends.
fn progress_line_ui(ui: &mut egui::Ui, fleet: &FleetState) {
    let line = egui::vec2(ui.available_width(), ui.spacing().interact_size.y);
    if fleet.loading {
        let (fraction, text) = if fleet.total > 0 {
            (
                fleet.done as f32 / fleet.total as f32,
                format!(
                    "Discovering the fleet: {} of {}",
                    fleet.done,
                    fleet.total.max(fleet.done)
                ),
            )
        } else {
            (0.0, "Discovering the fleet…".to_owned())
        };
        ui.add_sized(line, egui::ProgressBar::new(fraction).text(text));
    } else {
        ui.allocate_exact_size(line, egui::Sense::hover());
    }
}

/// The fleet shown as last discovered (offline, or `signed_out`), or why
/// the discovery failed and a retry.
fn fleet_notices_ui(
    ui: &mut egui::Ui,
    fleet: &FleetState,
    signed_out: bool,
    actions: &mut Vec<Action>,
) {
    if fleet.cached_at.is_some() && !fleet.loading {
        let why = if signed_out { "Signed out" } else { "Offline" };
        ui.colored_label(
            theme::ink(ui, theme::OFFLINE),
            format!("{why}: the fleet as last discovered on this computer."),
        );
    }
    if let Some(e) = &fleet.error {
        ui.colored_label(
            theme::ink(ui, theme::ERROR),
            format!("Discovery failed: {e}"),
        );
        if ui.button("Retry discovery").clicked() {
            actions.push(Action::ReloadFleet);
        }
    }
}

/// The machines viewed last, a button each.
fn recent_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    ui.label(egui::RichText::new("Recently viewed").strong());
    ui.horizontal_wrapped(|ui| {
        for id in &state.machine().recent {
            let name = state
                .fleet()
                .known_name(*id)
                .map_or_else(|| id.to_string(), short_name);
            if ui
                .small_button(name)
                .on_hover_text(format!("Equipment {id}"))
                .clicked()
            {
                actions.push(MachineAction::Select(*id).into());
            }
        }
    });
}

impl PickerView {
    /// One search for the list and the Fleet page's table and map.
    fn search_ui(&mut self, ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
        ui.horizontal(|ui| {
            let filters = &state.overview().settings.filters;
            let mut text = filters.text.clone();
            let field = egui::TextEdit::singleline(&mut text)
                .hint_text("name, make, model, serial")
                .desired_width(f32::INFINITY);
            let edit = widgets::labelled_ui(ui, "Search", field).on_hover_text(super::keys::tip(
                ui.ctx(),
                "Search the fleet",
                super::keys::KeyCommand::FocusSearch,
            ));
            if std::mem::take(&mut self.focus_search) {
                edit.request_focus();
            }
            if edit.changed() {
                let filters = Filters {
                    text,
                    ..filters.clone()
                };
                actions.push(OverviewAction::SetFilters(filters).into());
            }
        });
    }

    /// A machine opened by its id, typed by hand.
    fn manual_id_ui(&mut self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        ui.horizontal(|ui| {
            let field = egui::TextEdit::singleline(&mut self.manual_id)
                .hint_text("e.g. 1001")
                .desired_width(90.0);
            let edit = widgets::labelled_ui(ui, "Equipment id", field);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Open").clicked() || enter {
                match self.manual_id.trim().parse::<i64>() {
                    Ok(id) if id > 0 => {
                        self.manual_error = None;
                        actions.push(MachineAction::Select(id).into());
                    }
                    _ => {
                        self.manual_error = Some(format!(
                            "'{}' is not an equipment id",
                            self.manual_id.trim()
                        ))
                    }
                }
            }
        });
        if let Some(e) = &self.manual_error {
            ui.colored_label(theme::ink(ui, theme::ERROR), e);
        }
    }

    /// The machines matching the search, only the rows in view laid out.
    fn list_ui(&mut self, ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
        let mut list = egui::ScrollArea::vertical().auto_shrink([false, false]);
        if let Some(row) = self.scroll_to.take() {
            // The row a shortcut moved to, if out of view: at the edge it
            // left by (show_rows spaces rows by their height and the item
            // spacing).
            let pitch = theme::ROW_HEIGHT + ui.spacing().item_spacing.y;
            let (offset, height) = self.list_shown;
            let (top, bottom) = (row as f32 * pitch, (row + 1) as f32 * pitch);
            if top < offset {
                list = list.vertical_scroll_offset(top);
            } else if bottom > offset + height {
                list = list.vertical_scroll_offset(bottom - height);
            }
        }
        let equipments = &state.fleet().equipments;
        let shown = list.show_rows(ui, theme::ROW_HEIGHT, self.filtered.len(), |ui, range| {
            ui.with_layout(egui::Layout::top_down_justified(egui::Align::LEFT), |ui| {
                for &i in &self.filtered[range] {
                    let e = &equipments[i];
                    let selected = state.selected() == Some(e.id);
                    let response = ui
                        .selectable_label(selected, &e.name)
                        .on_hover_text(format!(
                            "{} {}, serial {}, id {}",
                            e.make, e.model, e.serial_number, e.id
                        ));
                    if response.clicked() {
                        actions.push(MachineAction::Select(e.id).into());
                    }
                }
            });
        });
        self.list_shown = (shown.state.clamped_offset().y, shown.inner_rect.height());
    }
}

/// `EX-001 Volvo EC220E (Rotterdam)` -> `EX-001`.
fn short_name(name: &str) -> String {
    name.split_whitespace().next().unwrap_or(name).to_owned()
}
