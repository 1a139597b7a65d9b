//! The Fleet table's cells: what each column shows of a machine, and the
//! hint of each column's header.

use crate::app::overview::{Column, FleetRow, Sort, engine_hours, fuel_percent};
use crate::app::{Action, AppState, Loadable, OverviewAction};
use crate::ui::format;
use crate::ui::theme;
use fleetview_core::analysis::{MachineFigures, MachineState};

/// A column's header: its title (with the sort's arrow), a click sorts.
pub(super) fn header_ui(ui: &mut egui::Ui, c: Column, sort: Sort, actions: &mut Vec<Action>) {
    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
    // No arrow while the attention sort rules.
    let by_it = sort.column == c && !sort.attention_first;
    let arrow = match (by_it, sort.descending) {
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
            "What the machine needs attention for over the strip's look-back (faults, suspected drains, meter resets, silence, high idle, data gaps): click to list them and open one"
        }
        Column::Source => {
            "Known from the machine's identity: a PIN is an OEM feed, a VIN a tracker"
        }
        Column::Service => {
            "Its services overdue or due soon first (the service book's plans for it or its category)"
        }
        Column::State => {
            "Engine running (last event in a window reaching now), reported today, or silent for more than 24 h"
        }
        _ => "Sort by this column",
    }
}

/// One cell; whether it asks to open the machine.
pub(super) fn cell_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    r: &FleetRow,
    c: Column,
    now: i64,
    actions: &mut Vec<Action>,
) -> bool {
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
        // Over the strip's look-back, not the window.
        Column::Flags => super::attention::flags_cell_ui(ui, state, r.id, actions),
        Column::Service => match state.overview().service.get(&r.id) {
            Some((status, words)) => {
                let cell = ui.add(
                    egui::Label::new(
                        egui::RichText::new(words).color(theme::service_status_color(*status)),
                    )
                    .sense(egui::Sense::click()),
                );
                if cell
                    .on_hover_text("Click to open the machine's Service tab")
                    .clicked()
                {
                    actions.push(Action::SetTab(crate::app::Tab::Service));
                    return true;
                }
            }
            None => {
                ui.label(format::NULL)
                    .on_hover_text("No service plan applies");
            }
        },
        Column::WindowHours | Column::IdlePercent | Column::Faults | Column::Source => {
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
        _ => {
            ui.label(f.feed.map_or(format::NULL, |k| k.label()));
        }
    }
}
