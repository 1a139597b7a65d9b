//! What the events are found with that the user sets: the working hours
//! (out-of-hours use) and the machine's fuel tank capacity (refuel and
//! drain litres). Both are kept across restarts and ask the figures again.

use crate::app::figures::MAX_TANK_L;
use crate::app::{Action, AppState, FiguresAction};
use crate::ui::theme;
use fleetview_core::analysis::{EventDetail, Quantity, Report, WorkingHours};

const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// `06:00` from minutes after midnight (`24:00` at the end of a day).
pub fn clock(min: u16) -> String {
    format!("{:02}:{:02}", min / 60, min % 60)
}

/// `6`, `6:30`, `06:30` as minutes after midnight, up to `24:00`.
pub fn parse_clock(text: &str) -> Option<u16> {
    let (h, m) = text.trim().split_once(':').unwrap_or((text.trim(), "0"));
    let (h, m): (u16, u16) = (h.trim().parse().ok()?, m.trim().parse().ok()?);
    let min = h.checked_mul(60)?.checked_add(m)?;
    (m < 60 && min <= 24 * 60).then_some(min)
}

/// The working hours in words: `Mon–Fri 06:00–20:00`.
pub fn hours_text(h: &WorkingHours) -> String {
    h.describe()
}

/// A time of day, dragged in quarter hours or typed as `HH:MM`.
fn clock_ui(ui: &mut egui::Ui, name: &str, min: &mut u16) -> bool {
    let label = ui.label(name);
    let mut v = f64::from(*min);
    let r = ui
        .add(
            egui::DragValue::new(&mut v)
                .range(0.0..=1440.0)
                .speed(5.0)
                .custom_formatter(|v, _| clock(v.round() as u16))
                .custom_parser(|t| parse_clock(t).map(f64::from)),
        )
        .labelled_by(label.id);
    // Whole quarter hours when dragged, any minute when typed.
    let next = if r.dragged() {
        ((v / 15.0).round() * 15.0) as u16
    } else {
        v.round() as u16
    };
    let changed = r.changed() && next != *min;
    *min = next;
    changed
}

/// The working hours' editor (in a popup).
pub fn working_hours_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    let mut h = state.figures().working_hours;
    let mut changed = false;
    ui.label("Out of hours is the engine running outside these, in the machine's local time.");
    ui.horizontal(|ui| {
        for (k, day) in DAYS.iter().enumerate() {
            changed |= ui.checkbox(&mut h.days[k], *day).changed();
        }
    });
    ui.horizontal(|ui| {
        changed |= clock_ui(ui, "From", &mut h.start_min);
        changed |= clock_ui(ui, "to", &mut h.end_min);
    });
    if h.end_min <= h.start_min {
        ui.colored_label(
            theme::ink(ui, theme::WARNING),
            "The end comes before the start: no hour is working.",
        );
    }
    let default = WorkingHours::default();
    if ui
        .add_enabled(
            h != default,
            egui::Button::new(format!("Back to {}", hours_text(&default))),
        )
        .clicked()
    {
        h = default;
        changed = true;
    }
    if changed {
        actions.push(FiguresAction::SetWorkingHours(h).into());
    }
}

/// A button naming the working hours, opening their editor.
pub fn working_hours_button_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    let text = format!(
        "Working hours: {}",
        hours_text(&state.figures().working_hours)
    );
    // Several edits in a row (days ticked, a time typed): a click inside
    // keeps the editor open.
    let config = egui::containers::menu::MenuConfig::new()
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    egui::containers::menu::MenuButton::new(text)
        .config(config)
        .ui(ui, |ui| working_hours_ui(ui, state, actions))
        .0
        .on_hover_text(
            "Set the working hours out-of-hours use is measured against. Kept across restarts.",
        );
}

/// The tank field being typed.
#[derive(Debug, Default)]
pub struct TankEdit {
    text: String,
}

/// Where the litres of refuels and drains come from.
fn tank_source(report: Option<&Report>, entered: Option<f64>) -> &'static str {
    if entered.is_some() {
        return "entered";
    }
    let fuel: Vec<Option<f64>> = report
        .map(|r| {
            r.events
                .iter()
                .filter_map(|e| match &e.detail {
                    EventDetail::Fuel { litres, .. } => Some(*litres),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    match (fuel.iter().any(Option::is_some), fuel.is_empty()) {
        (true, _) => "from the machine's model",
        (false, false) => "not known: no litres",
        (false, true) => "from the machine's model, where known",
    }
}

/// `Tank (L)`: the machine's fuel tank capacity, empty for the model's.
pub fn tank_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    edit: &mut TankEdit,
    actions: &mut Vec<Action>,
) {
    let Some(equipment) = state.selected() else {
        return;
    };
    let entered = state.figures().tank_l(equipment);
    // Typed and shown in the units chosen, kept in litres.
    let units = state.units();
    let per_litre = units.from_metric(Quantity::Volume, 1.0);
    let shown = entered.map_or_else(String::new, |l| format!("{:.0}", l * per_litre));
    let label = ui.label(format!("Tank ({})", units.unit(Quantity::Volume)));
    let r = ui
        .add(
            egui::TextEdit::singleline(&mut edit.text)
                .hint_text("from model")
                .desired_width(90.0),
        )
        .labelled_by(label.id)
        .on_hover_text(
            "The fuel tank's capacity, for the litres of refuels and drains. Empty: the \
             machine's model's, where known. Kept for this machine across restarts.",
        );
    // Left as shown: nothing to set (a value entered in other units, shown
    // rounded, would otherwise change by the rounding).
    if r.lost_focus() && edit.text.trim() != shown {
        let text = edit.text.trim().replace(',', ".");
        let litres = text
            .parse::<f64>()
            .ok()
            .map(|v| v / per_litre)
            .filter(|l| l.is_finite() && *l > 0.0);
        if text.is_empty() || litres.is_some() {
            let litres = litres.map(|l| l.min(MAX_TANK_L));
            if litres != entered {
                actions.push(FiguresAction::SetTank { equipment, litres }.into());
            }
        }
    } else if !r.has_focus() {
        edit.text = shown;
    }
    let report = state.figures().report.value().map(|r| &**r);
    ui.weak(tank_source(report, entered));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn working_hours_read_as_words() {
        assert_eq!(hours_text(&WorkingHours::default()), "Mon–Fri 06:00–20:00");
        let h = WorkingHours {
            days: [true, false, true, false, false, true, true],
            start_min: 7 * 60 + 30,
            end_min: 24 * 60,
        };
        assert_eq!(hours_text(&h), "Mon, Wed, Sat–Sun 07:30–24:00");
        let every = WorkingHours {
            days: [true; 7],
            ..h
        };
        assert_eq!(hours_text(&every), "every day 07:30–24:00");
        let none = WorkingHours {
            days: [false; 7],
            ..h
        };
        assert_eq!(hours_text(&none), "no day 07:30–24:00");
    }

    #[test]
    fn times_of_day_are_typed_as_people_write_them() {
        assert_eq!(parse_clock("6"), Some(360));
        assert_eq!(parse_clock("06:30"), Some(390));
        assert_eq!(parse_clock(" 24:00 "), Some(1440));
        assert_eq!(parse_clock("24:01"), None);
        assert_eq!(parse_clock("7:75"), None);
        assert_eq!(parse_clock("noon"), None);
        assert_eq!(clock(1440), "24:00");
    }
}
