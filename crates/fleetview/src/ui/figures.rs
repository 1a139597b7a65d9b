//! The window figures strip above map and plots: what the machine did in
//! the window (hours, idle, fuel, CO2, distance, activities, stops,
//! utilisation), each saying on hover how it is computed and from which
//! data kinds. A figure whose inputs are missing shows a dash, never 0;
//! one resting on estimated values says how much of it is. The last chip
//! counts the window's events (D16) and opens the Events tab. Every chip
//! has a fixed width, so the strip wraps by the window's width alone and
//! nothing moves when the figures arrive.

use crate::app::{Action, AppState, FiguresAction, Tab};
use crate::ui::events::{kinds, settings, text};
use crate::ui::format;
use crate::ui::theme;
use crate::ui::widgets;
use fleetview_core::analysis::events::counts;
use fleetview_core::analysis::{Figure, Figures, Report, UnitSystem};

/// The chips, each one figure or two shown together.
const CHIPS: &[(&str, &[Figure])] = &[
    ("Engine hours", &[Figure::EngineHours]),
    ("Working", &[Figure::WorkingHours]),
    ("Idle", &[Figure::IdleHours, Figure::IdlePercent]),
    ("Fuel used", &[Figure::FuelUsed]),
    ("Fuel per engine hour", &[Figure::FuelPerEngineHour]),
    (
        "{rate} working · idle",
        &[Figure::WorkingFuelPerHour, Figure::IdleFuelPerHour],
    ),
    ("CO2", &[Figure::Co2]),
    ("Distance", &[Figure::Distance]),
    ("Activities · stops", &[Figure::Activities, Figure::Stops]),
    ("Utilisation", &[Figure::Utilisation]),
];

/// The value line of a chip, and the estimated share it rests on (`est.
/// 35 %`), if any.
fn chip_value(f: &Figures, figures: &[Figure], units: UnitSystem) -> (String, Option<String>) {
    let text = match figures {
        [Figure::WorkingFuelPerHour, Figure::IdleFuelPerHour] => {
            let n = |fig: Figure| format::number(f.value(fig).map(|v| fig.value_in(units, v)), 2);
            match (
                f.value(Figure::WorkingFuelPerHour),
                f.value(Figure::IdleFuelPerHour),
            ) {
                (None, None) => format::NULL.to_owned(),
                _ => format!(
                    "{} · {} {}",
                    n(Figure::WorkingFuelPerHour),
                    n(Figure::IdleFuelPerHour),
                    Figure::WorkingFuelPerHour.unit_in(units)
                ),
            }
        }
        _ => figures
            .iter()
            .map(|fig| format::figure_value(*fig, f.value(*fig), units))
            .collect::<Vec<_>>()
            .join(" · "),
    };
    let share = match figures.first() {
        // Fuel per engine hour rests on the same litres.
        Some(Figure::FuelUsed | Figure::FuelPerEngineHour) => f.fuel_estimated_percent(),
        Some(Figure::Co2) => f.co2_estimated_percent(),
        _ => None,
    };
    let note = share
        .filter(|p| *p > 0.0)
        .map(|p| format!("est. {}", format::percent_share(p)));
    (text, note)
}

/// How a chip's figures are computed, and over how many days.
fn chip_hover(report: &Report, figures: &[Figure]) -> String {
    let total = report.days.len();
    let mut out = Vec::new();
    for fig in figures {
        let with = report
            .days
            .iter()
            .filter(|(_, d)| d.value(*fig).is_some())
            .count();
        let mut line = format!("{}: {}", fig.label(), fig.how());
        match fig {
            Figure::Activities | Figure::Stops | Figure::ExpectedHours | Figure::Utilisation => {}
            _ => line.push_str(&format!(
                " From {with} of {} with data.",
                format::count(total, "day", "days")
            )),
        }
        if *fig == Figure::Utilisation {
            line.push_str(&format!(
                " Expected: {} h in the window.",
                format::number(Some(report.totals.expected_hours_h), 1)
            ));
        }
        if *fig == Figure::Stops
            && let Some(from) = report.stops_from
        {
            line.push_str(&format!(" Found from {}.", from.describe()));
        }
        out.push(line);
    }
    if figures.first() == Some(&Figure::FuelUsed) || figures.first() == Some(&Figure::Co2) {
        out.push(
            "est.: the share the service marks estimated (hours times the model's rate)".into(),
        );
    }
    out.push("Days are UTC days, as the service's daily figures are.".into());
    out.join("\n\n")
}

/// The strip: the chips in as few rows of equal columns as the width
/// allows (at least [`theme::FIGURE_CHIP_MIN_WIDTH`] each).
/// At most `max_rows` rows of chips: past that (a short window) they
/// scroll sideways in one row rather than take the plots' room.
pub fn figures_strip_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    max_rows: usize,
    actions: &mut Vec<Action>,
) {
    let gap = theme::GAP;
    let width = ui.available_width();
    // The figures' chips, then the events'.
    let chips = CHIPS.len() + 1;
    let most = (((width + gap) / (theme::FIGURE_CHIP_MIN_WIDTH + gap)) as usize).clamp(1, chips);
    // Rows as even as they can be (5 and 5, not 8 and 2).
    let rows = chips.div_ceil(most);
    if rows > max_rows.max(1) {
        egui::ScrollArea::horizontal()
            .id_salt("figures_strip")
            .show(ui, |ui| {
                chip_rows_ui(ui, state, chips, theme::FIGURE_CHIP_MIN_WIDTH, actions);
            });
    } else {
        let columns = chips.div_ceil(rows);
        let chip_width = ((width - gap * (columns - 1) as f32) / columns as f32).floor();
        chip_rows_ui(ui, state, columns, chip_width, actions);
    }
    let loadable = &state.figures().report;
    if let Some(e) = loadable.error().filter(|_| loadable.value().is_none()) {
        widgets::panel_failed_ui(ui, "Figures could not be computed", e, actions);
    }
    for (part, problem) in &state.figures().unread {
        let line = format::unread(
            format::figures_part(*part),
            problem,
            format::figures_part_loss(*part),
        );
        widgets::machine_failed_ui(ui, &line, problem, actions);
    }
}

/// The chips, `columns` to a row, each `chip_width` wide.
fn chip_rows_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    columns: usize,
    chip_width: f32,
    actions: &mut Vec<Action>,
) {
    let gap = theme::GAP;
    let all: Vec<Option<&(&str, &[Figure])>> = CHIPS.iter().map(Some).chain([None]).collect();
    for row in all.chunks(columns) {
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = gap;
            for chip in row {
                ui.allocate_ui_with_layout(
                    egui::vec2(chip_width, theme::FIGURE_CHIP_HEIGHT),
                    egui::Layout::left_to_right(egui::Align::Center),
                    |ui| {
                        ui.set_min_size(egui::vec2(chip_width, theme::FIGURE_CHIP_HEIGHT));
                        ui.set_max_width(chip_width);
                        match chip {
                            Some((name, figures)) => {
                                figure_chip_ui(ui, state, name, figures, actions);
                            }
                            None => events_chip_ui(ui, state, chip_width, actions),
                        }
                    },
                );
            }
        });
    }
}

/// One chip of figures.
fn figure_chip_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    name: &str,
    figures: &[Figure],
    actions: &mut Vec<Action>,
) {
    let loadable = &state.figures().report;
    let (report, pending) = (loadable.value(), loadable.is_pending());
    let (value, note) = match report {
        Some(r) => chip_value(&r.totals, figures, state.units()),
        None if pending => ("…".to_owned(), None),
        None => (format::NULL.to_owned(), None),
    };
    // The fuel rates' chip names their unit, which the unit system sets.
    let name = name.replace("{rate}", Figure::WorkingFuelPerHour.unit_in(state.units()));
    let title = match note {
        Some(n) => format!("{name} · {n}"),
        None => name,
    };
    let label = ui.add(
        egui::Label::new(theme::figure_chip(ui, &title, &value, pending))
            .wrap_mode(egui::TextWrapMode::Extend),
    );
    if let Some(r) = report {
        label.on_hover_text(chip_hover(r, figures));
    }
    if figures.first() == Some(&Figure::Utilisation) {
        expected_hours_ui(ui, state, actions);
    }
}

/// The events' chip: counts by kind (stops aside: the strip counts them
/// beside activities); a click opens the Events tab, a right-click sets
/// the working hours.
fn events_chip_ui(ui: &mut egui::Ui, state: &AppState, width: f32, actions: &mut Vec<Action>) {
    let loadable = &state.figures().report;
    let pending = loadable.is_pending();
    let present = loadable.value().map(|r| counts(&r.events));
    // What fits the chip, with room for the " · …".
    let font = egui::TextStyle::Body.resolve(ui.style());
    let fits = |s: &str| {
        let galley =
            ui.painter()
                .layout_no_wrap(format!("{s} · …"), font.clone(), egui::Color32::WHITE);
        galley.size().x <= width - 2.0 * theme::GAP
    };
    let value = match &present {
        Some(c) => text::counts_short(c, fits),
        None if pending => "…".to_owned(),
        None => format::NULL.to_owned(),
    };
    let label = ui.add(
        egui::Label::new(theme::figure_chip(ui, "Events", &value, pending))
            .wrap_mode(egui::TextWrapMode::Extend)
            .sense(egui::Sense::click()),
    );
    let mut hover = match &present {
        Some(c) if !c.is_empty() => c
            .iter()
            .map(|(k, n)| kinds::counted(*k, *n))
            .collect::<Vec<_>>()
            .join("\n"),
        Some(_) => "No events in this window.".to_owned(),
        None => "Events are being worked out.".to_owned(),
    };
    hover.push_str(&format!(
        "\n\nWorking hours: {}.\nClick to open the Events tab; right-click to set the \
         working hours.",
        settings::hours_text(&state.figures().working_hours)
    ));
    let label = label.on_hover_text(hover);
    if label.clicked() {
        actions.push(Action::SetTab(Tab::Events));
    }
    egui::Popup::context_menu(&label)
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
        .show(|ui| settings::working_hours_ui(ui, state, actions));
}

/// The hours expected per working day, against which utilisation is
/// measured.
fn expected_hours_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    let mut hours = state.figures().expected.hours_per_working_day;
    let r = ui
        .add(
            egui::DragValue::new(&mut hours)
                .range(0.0..=crate::app::figures::MAX_EXPECTED_HOURS)
                .speed(0.1)
                .max_decimals(1)
                .suffix(" h/day"),
        )
        .on_hover_text(
            "Expected hours per working day (Monday to Friday): utilisation is engine \
             hours against them. Drag or double-click to type. Kept across restarts.",
        );
    if r.changed() {
        actions.push(FiguresAction::SetExpectedHours(hours).into());
    }
}
