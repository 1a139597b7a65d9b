//! The fleet overview, the first page: what the snapshots say of every
//! machine (where, when it last reported, hours, fuel) and what each
//! machine's window adds (hours and idle, faults), as a map above a table.
//! Filters and sort are the model's (kept across restarts); picking a
//! machine on the map or in the table opens its history.
//!
//! Where to look: `attention.rs` the "needs attention" strip and the
//! Flags cell, `table.rs` the table and its keyboard (`cells.rs` its
//! cells, `columns.rs` its Columns menu), `map.rs` the
//! fleet map (`placed.rs` the machines it places, `cluster.rs` its
//! clustering, `marks.rs` what it draws, `tips.rs` what it says).

mod attention;
mod cells;
mod cluster;
mod columns;
mod map;
mod marks;
mod placed;
mod table;
mod tips;

use crate::app::overview::{Filters, choices};
use crate::app::{Action, AppState, OverviewAction};
use crate::ui::format;
use crate::ui::theme;
use fleetview_core::analysis::MachineState;
use fleetview_core::export::shown::ExportContent;

pub use attention::{count_label, summary};
pub use map::{FleetMapView, MAX_CLUSTER_ZOOM, ShownMarker, fleet_map_ui};
pub use table::{TableView, table_ui};

/// What the overview remembers between frames.
#[derive(Debug, Default)]
pub struct OverviewView {
    pub table: table::TableView,
    pub map: FleetMapView,
    /// The filters' choices (categories, companies, makes) and the rows'
    /// generation they were made for: made again only when the fleet is.
    choices: Option<(u64, [Vec<String>; 3])>,
    /// *Sign in to refresh* was clicked: the Connections window is to open.
    pub sign_in_asked: bool,
}

/// The Fleet page; `now` is the wall clock, for the age of what the cache
/// shows.
pub fn overview_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut OverviewView,
    now: i64,
    actions: &mut Vec<Action>,
) {
    let o = &state.overview();
    let fleet = &state.fleet().equipments;
    header_ui(ui, state, now, &mut view.sign_in_asked, actions);
    if !fleet.is_empty() {
        attention::attention_ui(ui, state, actions);
    }
    hours_unread_ui(ui, state, actions);
    let generation = o.generation;
    if view.choices.as_ref().is_none_or(|(g, _)| *g != generation) {
        view.choices = Some((
            generation,
            [
                choices(fleet, |e| e.category.as_deref()),
                choices(fleet, |e| e.entreprise.as_deref()),
                choices(fleet, |e| Some(e.make.as_str())),
            ],
        ));
    }
    if let Some((_, lists)) = &view.choices {
        filters_ui(ui, &o.settings.filters, lists, actions);
    }
    ui.separator();
    // The map above, the table below; the map gives up height first. Its
    // size is kept as dragged, but never more than 45 % of the room:
    // a size kept from a larger window left the table 2 rows at 1000x700.
    let room = ui.available_height();
    let map_height = (room * 0.4).clamp(150.0, 420.0);
    egui::Panel::top("fleet_map")
        .resizable(true)
        .default_size(map_height)
        .min_size(120.0)
        .max_size((room * 0.45).max(120.0))
        .show(ui, |ui| {
            ui.set_min_height(ui.available_height());
            map::fleet_map_ui(ui, state, &mut view.map, actions);
        });
    egui::CentralPanel::default().show(ui, |ui| {
        if fleet.is_empty() {
            ui.label(if state.fleet().loading {
                "Discovering the fleet…"
            } else if state.conn().needs_secret() {
                "Nothing of this fleet is cached on this computer: sign in to see it."
            } else {
                "No machines in this fleet."
            });
            return;
        }
        table::table_ui(ui, state, &mut view.table, actions);
    });
}

/// Machines whose operating hours could not be read: said once for them
/// all (the first one's cause), with *Retry*.
fn hours_unread_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    let unread = &state.overview().hours_unread;
    let Some(problem) = unread.values().next() else {
        return;
    };
    let line = format::unread(
        &format!(
            "The operating hours of {}",
            format::count(unread.len(), "machine", "machines")
        ),
        problem,
        "counter resets are not flagged for them",
    );
    crate::ui::widgets::failed_retry_ui(
        ui,
        &line,
        problem,
        OverviewAction::Refresh.into(),
        actions,
    );
}

/// When what the page shows was read, if it is shown from the cache for
/// want of a sign-in (the oldest of the fleet and its snapshots).
fn cached_signed_out(state: &AppState) -> Option<i64> {
    let fleet = state.fleet().cached_at;
    let snapshots = state.overview().status.cached_at;
    let oldest = match (fleet, snapshots) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    oldest.filter(|_| state.conn().needs_secret())
}

/// Counts, how far the reads are, refresh and exports: on one line that
/// fits beside the list at 1000x700. Signed out, what the cache shows is
/// marked, and *Refresh* asks to sign in (`sign_in_asked`).
fn header_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    now: i64,
    sign_in_asked: &mut bool,
    actions: &mut Vec<Action>,
) {
    let o = &state.overview();
    let fleet = &state.fleet().equipments;
    let cached = cached_signed_out(state);
    // Wrapped: a row wider than the page widened the map and the table
    // past the window's edge.
    ui.horizontal_wrapped(|ui| {
        ui.heading("Fleet");
        // Its own width: buttons to its right stay put as counts change.
        let count = format!(
            "{} of {} shown",
            o.rows().len(),
            format::count(fleet.len(), "machine", "machines")
        );
        ui.add_sized(
            [170.0, ui.spacing().interact_size.y],
            egui::Label::new(count).truncate(),
        );
        ui.separator();
        match cached {
            Some(at) => {
                cached_mark_ui(ui, state, now - at);
                if ui
                    .button("Sign in to refresh")
                    .on_hover_text("Open Connections to sign in to the service")
                    .clicked()
                {
                    *sign_in_asked = true;
                }
            }
            None => {
                progress_ui(ui, state);
                if ui
                    .add_enabled(!o.status.loading, egui::Button::new("Refresh"))
                    .on_hover_text("Read the snapshots and the window's figures again")
                    .clicked()
                {
                    actions.push(OverviewAction::Refresh.into());
                }
            }
        }
        let any = !o.rows().is_empty();
        ui.add_enabled_ui(any, |ui| {
            ui.menu_button("Export…", |ui| {
                if ui
                    .button("Table (CSV)…")
                    .on_hover_text("The table as shown: its filters, its order")
                    .clicked()
                {
                    let table = o.table_file(fleet);
                    actions.push(Action::Export(ExportContent::FleetTable(table.into())));
                }
                if ui
                    .button("Markers (GeoJSON)…")
                    .on_hover_text("The machines shown that have a position, as points")
                    .clicked()
                {
                    let markers = o.markers_file(fleet);
                    actions.push(Action::Export(ExportContent::FleetMarkers(markers.into())));
                }
            });
        });
        ui.add_enabled_ui(!fleet.is_empty(), |ui| {
            crate::ui::report_menu::report_menu_ui(ui, state, true, actions);
        });
    });
}

/// The fleet shown as the cache holds it, `age_secs` old, for want of a
/// sign-in: in the progress' box.
fn cached_mark_ui(ui: &mut egui::Ui, state: &AppState, age_secs: i64) {
    let size = egui::vec2(210.0, ui.spacing().interact_size.y);
    let text = format!("From the cache, read {}", format::format_age(age_secs));
    ui.add_sized(
        size,
        egui::Label::new(egui::RichText::new(&text).color(theme::ink(ui, theme::OFFLINE)))
            .truncate(),
    )
    .on_hover_text(format!(
        "{text}: the fleet and its snapshots as last read on this computer. No {} is \
         kept for {}; sign in to read them again.",
        state.connection().auth.secret_label(),
        state.connection().label
    ));
}

/// The snapshots' reading, else the window figures', else how things
/// stand; in a box of its own width, so nothing beside it moves.
fn progress_ui(ui: &mut egui::Ui, state: &AppState) {
    let o = &state.overview();
    let s = &o.status;
    let size = egui::vec2(210.0, ui.spacing().interact_size.y);
    let n = state.fleet().equipments.len();
    let figures_left = o.figures_loading(n);
    if s.loading {
        let (fraction, text) = if s.total > 0 {
            (
                s.done as f32 / s.total as f32,
                format!("Snapshots: {} of {}", s.done, s.total.max(s.done)),
            )
        } else {
            (0.0, "Reading snapshots…".to_owned())
        };
        ui.add_sized(size, egui::ProgressBar::new(fraction).text(text));
        return;
    }
    if figures_left > 0 && n > 0 && state.offline().is_none() {
        let done = n - figures_left;
        // Sorted by a window column: what is known is sorted, the rest
        // listed last; said here, so the table never moves.
        let sorted_on_figures = o.settings.sort.column.from_figures();
        let text = if sorted_on_figures {
            format!("{figures_left} loading, listed last")
        } else {
            format!("Window figures: {done} of {n}")
        };
        ui.add_sized(
            size,
            egui::ProgressBar::new(done as f32 / n as f32).text(text),
        )
        .on_hover_text(format!(
            "Hours, idle and faults in the window: {done} of {n} machines read, machine \
             by machine (the rows in view first) while this page shows.{}",
            if sorted_on_figures {
                " The table is sorted by what is known; the machines still loading are \
                 listed last."
            } else {
                ""
            }
        ));
        return;
    }
    let (text, color) = if s.unsupported {
        ("This service has no snapshots".to_owned(), theme::UNKNOWN)
    } else if let Some(at) = s.cached_at {
        (
            format!(
                "Offline: snapshots of {}",
                format::format_time(at, state.local_time())
            ),
            theme::OFFLINE,
        )
    } else if let Some(e) = &s.error {
        (format!("Snapshots failed: {e}"), theme::ERROR)
    } else {
        let at = s.requested_at.map_or_else(String::new, |t| {
            format!(
                " at {}",
                format::format_in_zone(t, state.local_time(), "%H:%M")
            )
        });
        (
            format!("Snapshots read{at}"),
            ui.visuals().weak_text_color(),
        )
    };
    ui.add_sized(
        size,
        egui::Label::new(egui::RichText::new(&text).color(theme::ink(ui, color))).truncate(),
    )
    .on_hover_text(format!(
        "{text}. The latest value of each data kind, per machine; read again every \
         10 minutes (the platform updates at most that often)."
    ));
}

/// One combo box per filter, and a way to clear them.
fn filters_ui(
    ui: &mut egui::Ui,
    filters: &Filters,
    [categories, companies, makes]: &[Vec<String>; 3],
    actions: &mut Vec<Action>,
) {
    let mut next = filters.clone();
    ui.horizontal_wrapped(|ui| {
        combo_ui(ui, "Category", &mut next.category, categories);
        combo_ui(ui, "Company", &mut next.company, companies);
        combo_ui(ui, "Make", &mut next.make, makes);
        let name = ui.label("State");
        let label = next.state.map_or("any", MachineState::label);
        egui::ComboBox::from_id_salt(("fleet_filter", "State"))
            .selected_text(label)
            .width(110.0)
            .truncate()
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut next.state, None, "any");
                for s in MachineState::ALL {
                    let text = egui::RichText::new(s.label())
                        .color(theme::ink(ui, theme::machine_state_color(s)));
                    ui.selectable_value(&mut next.state, Some(s), text);
                }
            })
            .response
            .labelled_by(name.id);
        if !filters.text.is_empty() {
            ui.label(format!("Search: “{}”", filters.text));
        }
        if ui
            .add_enabled(!filters.is_empty(), egui::Button::new("Clear filters"))
            .clicked()
        {
            next = Filters::default();
        }
    });
    if next != *filters {
        actions.push(OverviewAction::SetFilters(next).into());
    }
}

/// A label, then its combo box (named by it for screen readers).
fn combo_ui(ui: &mut egui::Ui, label: &str, value: &mut Option<String>, choices: &[String]) {
    let name = ui.label(label);
    egui::ComboBox::from_id_salt(("fleet_filter", label))
        .selected_text(value.as_deref().unwrap_or("any"))
        .width(110.0)
        // A long choice is cut, not widened: the filters beside it stay.
        .truncate()
        .show_ui(ui, |ui| {
            ui.selectable_value(value, None, "any");
            for c in choices {
                ui.selectable_value(value, Some(c.clone()), c);
            }
        })
        .response
        .labelled_by(name.id);
}
