//! The overview's table: one row per machine as the model orders and
//! filters them, virtualised (only the rows in view are laid out), so
//! 10,000 machines cost what 100 do. A click on a header sorts; a click on
//! a row, or Enter on the row marked with the arrow keys, opens the
//! machine's history. The rows in view are told to the model, whose
//! figures are read for them first.

use egui_extras::{Column as Width, TableBuilder};

use crate::app::overview::{Column, FleetRow, engine_hours, fuel_percent};
use crate::app::{Action, AppState, Loadable, MachineAction, OverviewAction};
use crate::ui::format;
use crate::ui::theme;
use fleetview_core::analysis::{MachineFigures, MachineState};

#[derive(Debug, Default)]
pub struct TableView {
    /// The row marked by the arrow keys (a machine, so a new order keeps
    /// it).
    pub cursor: Option<i64>,
    /// Scroll to this row at the next frame.
    scroll_to: Option<usize>,
    /// The pass the table was last drawn in. Back in view after another
    /// tab (where any machine is opened: opening one leaves this page), it
    /// marks the machine open, so one row is marked.
    drawn_pass: u64,
    /// The machines in view last told to the model.
    in_view: Vec<i64>,
}

pub fn table_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut TableView,
    actions: &mut Vec<Action>,
) {
    let o = &state.overview();
    let rows = o.rows();
    let pass = ui.ctx().cumulative_pass_nr();
    let back_in_view = pass > view.drawn_pass + 1;
    view.drawn_pass = pass;
    if back_in_view && let Some(open) = state.selected() {
        view.cursor = Some(open);
        view.scroll_to = rows.iter().position(|r| r.id == open);
    }
    keyboard(ui, rows, view, actions);
    let now = state.now();
    let mut in_view = Vec::new();
    // Sideways as a whole, the header with its rows: fourteen columns do
    // not fit beside the list at 1000x700.
    egui::ScrollArea::horizontal()
        .id_salt("fleet_table_sideways")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            rows_ui(ui, state, view, actions, now, &mut in_view);
        });
    if in_view != view.in_view {
        view.in_view = in_view.clone();
        actions.push(OverviewAction::InView(in_view).into());
    }
}

fn rows_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut TableView,
    actions: &mut Vec<Action>,
    now: i64,
    in_view: &mut Vec<i64>,
) {
    let rows = state.overview().rows();
    let sort = state.overview().settings.sort;
    let mut builder = TableBuilder::new(ui)
        .id_salt("fleet_table")
        .min_scrolled_height(0.0)
        .auto_shrink([false, false])
        .striped(true)
        .sense(egui::Sense::click())
        .resizable(true);
    // Fixed first widths (the header's text and its sort arrow fit): a
    // width measured from the first rows drawn re-laid the table out a
    // moment after it showed.
    for c in Column::ALL {
        builder = builder.column(
            Width::initial(theme::fleet_column_width(c))
                .at_least(50.0)
                .clip(true),
        );
    }
    if let Some(i) = view.scroll_to.take() {
        builder = builder.scroll_to_row(i, None);
    }
    builder
        .header(theme::ROW_HEIGHT, |mut header| {
            for c in Column::ALL {
                header.col(|ui| {
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                    let arrow = match (sort.column == c, sort.descending) {
                        (true, false) => theme::SORT_ASCENDING,
                        (true, true) => theme::SORT_DESCENDING,
                        _ => "",
                    };
                    if ui
                        .button(format!("{}{arrow}", c.label()))
                        .on_hover_text(hint(c))
                        .clicked()
                    {
                        actions.push(OverviewAction::SortBy(c).into());
                    }
                });
            }
        })
        .body(|body| {
            body.rows(theme::ROW_HEIGHT, rows.len(), |mut row| {
                let r = rows[row.index()];
                in_view.push(r.id);
                // The row the keys mark; the machine open, if the keys left
                // it, shows lighter.
                let marked = view.cursor == Some(r.id);
                row.set_selected(marked);
                row.set_hovered(!marked && state.selected() == Some(r.id));
                let mut open = false;
                for c in Column::ALL {
                    row.col(|ui| {
                        open |= cell_ui(ui, state, &r, c, now);
                    });
                }
                if open || row.response().clicked() {
                    view.cursor = Some(r.id);
                    actions.push(MachineAction::Select(r.id).into());
                }
            });
        });
}

/// Arrow keys move the marked row, Enter opens it; not while typing.
fn keyboard(ui: &egui::Ui, rows: &[FleetRow], view: &mut TableView, actions: &mut Vec<Action>) {
    if rows.is_empty() || ui.ctx().memory(|m| m.focused().is_some()) {
        return;
    }
    let (down, up, enter) = ui.input_mut(|i| {
        (
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowDown),
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowUp),
            i.consume_key(egui::Modifiers::NONE, egui::Key::Enter),
        )
    });
    let at = view
        .cursor
        .and_then(|id| rows.iter().position(|r| r.id == id));
    let next = match (at, down, up) {
        (None, true, _) | (None, _, true) => Some(0),
        (Some(i), true, _) => Some((i + 1).min(rows.len() - 1)),
        (Some(i), _, true) => Some(i.saturating_sub(1)),
        _ => None,
    };
    if let Some(i) = next {
        view.cursor = Some(rows[i].id);
        view.scroll_to = Some(i);
    }
    if enter && let Some(i) = at {
        actions.push(MachineAction::Select(rows[i].id).into());
    }
}

fn hint(c: Column) -> &'static str {
    match c {
        Column::LastReport => "The latest date of any value in the machine's snapshot",
        Column::EngineHours => "Cumulative operating hours, from the snapshot",
        Column::WindowHours => "Operating hours in the selected window (daily history)",
        Column::IdlePercent => "Idle hours as a share of operating hours in the window",
        Column::Fuel => "Fuel remaining, from the snapshot",
        Column::Faults => "Faults in the window: how many, and the worst level",
        Column::Flags => {
            "Suspected fuel drains (fuel falls with the engine off) and counter resets (a cumulative counter going down) in the window"
        }
        Column::Source => {
            "Known from the machine's identity: a PIN is an OEM feed, a VIN a tracker"
        }
        Column::State => {
            "Engine running (last event in a window reaching now), reported today, or silent for more than 24 h"
        }
        _ => "Sort by this column",
    }
}

/// One cell; whether it asks to open the machine.
fn cell_ui(ui: &mut egui::Ui, state: &AppState, r: &FleetRow, c: Column, now: i64) -> bool {
    let Some(e) = state.fleet().equipments.get(r.index) else {
        return false;
    };
    let snapshot = state.overview().snapshots.get(&r.id);
    let text = |s: &str| {
        if s.is_empty() {
            format::NULL.to_owned()
        } else {
            s.to_owned()
        }
    };
    match c {
        Column::Name => {
            return ui
                .selectable_label(false, &e.name)
                .on_hover_text(format!(
                    "{} {}, serial {}, id {}. Click to open its history.",
                    e.make, e.model, e.serial_number, e.id
                ))
                .clicked();
        }
        Column::Category => {
            ui.label(text(e.category.as_deref().unwrap_or("")));
        }
        Column::Make => {
            ui.label(text(&e.make));
        }
        Column::Model => {
            ui.label(text(&e.model));
        }
        Column::Serial => {
            ui.label(text(&e.serial_number));
        }
        Column::State => state_cell_ui(ui, r.state),
        Column::LastReport => match r.last_report {
            Some(t) => {
                ui.label(format::format_age(now - t))
                    .on_hover_text(format::format_time(t, format::zone_of(state, Some(r.id))));
            }
            None => {
                ui.label(format::NULL);
            }
        },
        Column::EngineHours => {
            ui.label(format::number(engine_hours(snapshot), 1));
        }
        Column::Fuel => {
            let fuel = fuel_percent(snapshot);
            ui.label(fuel.map_or_else(|| format::NULL.to_owned(), |f| format!("{f:.0} %")));
        }
        Column::WindowHours
        | Column::IdlePercent
        | Column::Faults
        | Column::Flags
        | Column::Source => {
            let o = state.overview();
            if o.not_cached(r.id) {
                ui.label(format::NULL).on_hover_text("Not in the cache");
            } else {
                window_cell_ui(ui, o.figures_of(r.id), c);
            }
        }
    }
    false
}

/// The State cell: a dot and the state's name in its colour (silent in
/// bold).
fn state_cell_ui(ui: &mut egui::Ui, machine_state: MachineState) {
    let color = theme::machine_state_color(machine_state);
    let mut label = egui::RichText::new(machine_state.label()).color(theme::ink(ui, color));
    if machine_state == MachineState::Silent {
        label = label.strong();
    }
    ui.horizontal(|ui| {
        let (dot, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
        ui.painter().circle_filled(dot.center(), 4.0, color);
        ui.label(label);
    });
}

/// A cell of the machine's window figures: loading, failed, or column
/// `c` of them.
fn window_cell_ui(ui: &mut egui::Ui, figures: Option<&Loadable<MachineFigures>>, c: Column) {
    let Some(f) = figures.and_then(Loadable::value) else {
        match figures {
            Some(Loadable::Failed { error, .. }) => {
                ui.colored_label(theme::ink(ui, theme::ERROR), "failed")
                    .on_hover_text(error.as_str());
            }
            _ => {
                ui.weak("…").on_hover_text("Loading");
            }
        }
        return;
    };
    match c {
        Column::WindowHours => {
            ui.label(format::number(f.engine_hours_h, 1));
        }
        Column::IdlePercent => {
            ui.label(
                f.idle_percent()
                    .map_or_else(|| format::NULL.to_owned(), |p| format!("{p:.0} %")),
            );
        }
        Column::Faults => {
            let t = &f.faults;
            if t.count == 0 {
                ui.label("none");
            } else {
                let level = t.worst_label.as_deref().unwrap_or("unknown");
                ui.colored_label(
                    theme::ink(ui, theme::level_color(level)),
                    format!("{} · {level}", t.count),
                );
            }
        }
        Column::Flags => {
            if f.flags.count() == 0 {
                ui.label("none");
            } else {
                ui.colored_label(
                    theme::ink(ui, theme::WARNING),
                    format!("⚠ {}", f.flags.describe()),
                )
                .on_hover_text(
                    "Open the machine (click its name) and its Events tab says when and where",
                );
            }
        }
        _ => {
            ui.label(f.feed.map_or(format::NULL, |k| k.label()));
        }
    }
}
