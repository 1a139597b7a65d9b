//! The time window: presets, a custom range of days, the zone times are
//! shown in (UTC, this computer's or each machine's),
//! and the since/until actually sent to the service.

use super::format;
use super::theme;
use crate::app::{Action, AppState, Preset, TimesIn};
use crate::app::{MachineAction, custom_window_refusal};
use fleetview_api::time::{SECS_PER_DAY, civil_from_days, days_from_civil, format_wire};

#[derive(Debug, Default)]
pub struct WindowView {
    /// The custom range being edited (days since 1970-01-01).
    editing: Option<(jiff::civil::Date, jiff::civil::Date)>,
}

fn to_date(day: i64) -> jiff::civil::Date {
    let (y, m, d) = civil_from_days(day);
    jiff::civil::Date::new(y.clamp(1, 9999) as i16, m as i8, d as i8).unwrap_or_default()
}

fn to_day(date: jiff::civil::Date) -> i64 {
    days_from_civil(
        i64::from(date.year()),
        date.month() as u32,
        date.day() as u32,
    )
}

pub fn window_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut WindowView,
    actions: &mut Vec<Action>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Window:");
        presets_ui(ui, state, actions);
        if state.machine().preset == Preset::Custom {
            view.custom_days_ui(ui, state, actions);
        } else {
            view.editing = None;
        }
        ui.separator();
        times_in_ui(ui, state, actions);
    });
    view.sent_line_ui(ui, state);
}

/// The zone times are shown in: UTC, this computer's, or each machine's.
fn times_in_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    ui.label("Times:");
    for choice in TimesIn::ALL {
        if ui
            .selectable_label(state.times_in() == choice, choice.label())
            .on_hover_text(choice.hint())
            .clicked()
            && state.times_in() != choice
        {
            actions.push(Action::SetTimesIn(choice));
        }
    }
}

fn presets_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    for preset in Preset::ALL {
        let hint = super::keys::tip(
            ui.ctx(),
            preset.label(),
            super::keys::KeyCommand::Preset(preset),
        );
        if ui
            .selectable_label(state.machine().preset == preset, preset.label())
            .on_hover_text(hint)
            .clicked()
        {
            // The current preset again: its window afresh (data and view).
            actions.push(MachineAction::SetPreset(preset).into());
        }
    }
}

impl WindowView {
    /// The first and last day of a custom window; days the window cannot
    /// have stay in the pickers, and are not sent.
    fn custom_days_ui(&mut self, ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
        let (first, last) = *self.editing.get_or_insert_with(|| {
            (
                to_date(state.machine().custom_days.0),
                to_date(state.machine().custom_days.1),
            )
        });
        let (mut a, mut b) = (first, last);
        ui.label("from");
        ui.add(egui_extras::DatePickerButton::new(&mut a).id_salt("window_from"))
            .on_hover_text("The first day (UTC)");
        ui.label("to");
        ui.add(egui_extras::DatePickerButton::new(&mut b).id_salt("window_to"))
            .on_hover_text("The last day (UTC)");
        if (a, b) != (first, last) {
            self.editing = Some((a, b));
            if custom_window_refusal(to_day(a), to_day(b)).is_none() {
                actions.push(
                    MachineAction::SetCustomDays {
                        first_day: to_day(a),
                        last_day: to_day(b),
                    }
                    .into(),
                );
            }
        }
    }

    /// The since and until sent to the service and the zone times are
    /// shown in, or why the days picked were refused.
    fn sent_line_ui(&self, ui: &mut egui::Ui, state: &AppState) {
        let w = state.window().unwrap_or_else(|| state.selected_window());
        let days = (w.until - w.since + 1) / SECS_PER_DAY;
        // The service's days, and so the window's, are UTC days whatever
        // the zone times are shown in.
        let zone = format::machine_zone(state);
        let utc_days = if state.times_in() != TimesIn::Utc {
            "; the window's days are UTC days, as the service counts them"
        } else {
            ""
        };
        let sent = format!(
            "since {} until {} sent to the service (UTC, {days} days)",
            format_wire(w.since),
            format_wire(w.until),
        );
        // Days picked but refused: the window stays, and this line, always
        // there, says why in place of the zone (so no line is added that
        // would push the whole page down).
        let refused = self
            .editing
            .filter(|_| state.machine().preset == Preset::Custom)
            .and_then(|(a, b)| custom_window_refusal(to_day(a), to_day(b)));
        let line = match refused {
            Some(note) => egui::RichText::new(format!("{note} Still {sent}."))
                .small()
                .color(theme::ink(ui, theme::ERROR)),
            None => {
                egui::RichText::new(format!("{sent}; times below in {}{utc_days}", zone.label()))
                    .small()
                    .weak()
            }
        };
        ui.add(egui::Label::new(line).truncate());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_days_round_trip() {
        for day in [0, 19_000, 20_500, -365] {
            assert_eq!(to_day(to_date(day)), day);
        }
    }
}
