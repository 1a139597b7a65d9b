//! The Service tab's forms: a plan (new or changed) and *Mark done*, each
//! checked before it is sent (a positive interval, a unit, a task, a last
//! done not after today, a reading not above the meter now), the reason
//! shown beside the form; closed once the service book says saved.

use crate::app::{Action, AppState, ServiceAction};
use crate::ui::widgets::labelled_ui;
use fleetview_core::service::due::DueItem;
use fleetview_core::service::plan::{
    Day, DoneRecord, LastDone, Plan, PlanId, PlanScope, PlanUnit, StoredPlan,
};
use fleetview_core::service::usage::MetersNow;

use crate::ui::format::reading as trim;

/// The tab's own state: the forms open, for the machine shown.
#[derive(Debug, Default)]
pub struct ServiceView {
    machine: Option<i64>,
    saved_seen: u64,
    pub(super) form: Option<PlanForm>,
    pub(super) mark_done: Option<MarkDone>,
    /// The plan whose deletion waits for a yes, and what it is called.
    pub(super) confirm_delete: Option<(fleetview_core::service::plan::PlanId, String)>,
    /// The book's news last seen when a form opened or the machine
    /// changed: older news is not shown.
    pub(super) news_seen: u64,
}

impl ServiceView {
    /// A form is open: the keyboard is its own (no shortcut fires).
    pub fn is_form_open(&self) -> bool {
        self.form.is_some() || self.mark_done.is_some() || self.confirm_delete.is_some()
    }

    /// Another machine closes the forms; a write saved closes the form
    /// that sent it.
    pub(super) fn follow(&mut self, machine: i64, saved: u64) {
        if self.machine != Some(machine) {
            self.machine = Some(machine);
            self.form = None;
            self.mark_done = None;
            self.confirm_delete = None;
            self.news_seen = u64::MAX;
        }
        if saved != self.saved_seen {
            self.saved_seen = saved;
            if self.form.as_ref().is_some_and(|f| f.sent) {
                self.form = None;
            }
            if self.mark_done.as_ref().is_some_and(|f| f.sent) {
                self.mark_done = None;
            }
        }
    }
}

#[derive(Debug)]
pub(super) struct PlanForm {
    id: Option<PlanId>,
    task: String,
    every: String,
    unit: PlanUnit,
    /// For every machine of the category, not this one alone.
    for_category: bool,
    last_date: String,
    last_meter: String,
    /// Why the last Save was refused, and the fields it was refused for
    /// (shown only while they are unchanged).
    error: Option<(String, String)>,
    sent: bool,
}

impl PlanForm {
    fn fields(&self) -> String {
        format!(
            "{}\u{1f}{}\u{1f}{:?}\u{1f}{}\u{1f}{}\u{1f}{}",
            self.task, self.every, self.unit, self.for_category, self.last_date, self.last_meter
        )
    }

    pub(super) fn new(plan: Option<&StoredPlan>, now: i64) -> Self {
        match plan {
            Some(p) => Self {
                id: Some(p.id),
                task: p.plan.task.clone(),
                every: trim(p.plan.every),
                unit: p.plan.unit,
                for_category: matches!(p.plan.scope, PlanScope::Category(_)),
                last_date: p
                    .plan
                    .last_done
                    .map(|l| l.day.to_string())
                    .unwrap_or_default(),
                last_meter: p
                    .plan
                    .last_done
                    .and_then(|l| l.meter)
                    .map(trim)
                    .unwrap_or_default(),
                error: None,
                sent: false,
            },
            None => Self {
                id: None,
                task: String::new(),
                every: String::new(),
                unit: PlanUnit::Hours,
                for_category: false,
                last_date: Day::of_secs(now).to_string(),
                last_meter: String::new(),
                error: None,
                sent: false,
            },
        }
    }
}

/// What the plan form's fields say, checked.
pub(super) struct PlanInput<'a> {
    pub task: &'a str,
    pub every: &'a str,
    pub unit: PlanUnit,
    pub scope: PlanScope,
    pub last_date: &'a str,
    pub last_meter: &'a str,
    pub meter_now: Option<f64>,
    pub today: Day,
}

/// The plan, or why not, in words.
pub(super) fn checked_plan(i: &PlanInput<'_>) -> Result<Plan, String> {
    let task = i.task.trim();
    if task.is_empty() {
        return Err("Name the task (for example: Engine oil and filter).".into());
    }
    let every = match i.every.trim().replace(',', ".").parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => v,
        _ => {
            return Err(format!(
                "The interval must be a number above 0 ({}).",
                i.unit.label()
            ));
        }
    };
    let last_done = match (i.last_date.trim(), i.last_meter.trim()) {
        ("", "") if matches!(i.scope, PlanScope::Category(_)) => None,
        ("", _) => return Err("Say when it was last done (YYYY-MM-DD).".into()),
        (date, meter) => Some(checked_done(date, meter, i.unit, i.meter_now, i.today)?),
    };
    Ok(Plan {
        scope: i.scope.clone(),
        task: task.to_owned(),
        every,
        unit: i.unit,
        last_done,
    })
}

/// A last done from a date and a meter reading, or why not.
pub(super) fn checked_done(
    date: &str,
    meter: &str,
    unit: PlanUnit,
    meter_now: Option<f64>,
    today: Day,
) -> Result<LastDone, String> {
    let Some(day) = Day::parse(date) else {
        return Err(format!("{date:?} is not a date: write it YYYY-MM-DD."));
    };
    if day > today {
        return Err(format!("{day} is after today ({today})."));
    }
    let meter = match (unit, meter.trim()) {
        (PlanUnit::Days, _) => None,
        (_, "") => return Err(format!("Give the meter reading then ({}).", unit.key())),
        (_, m) => match m.replace(',', ".").parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => {
                if let Some(now) = meter_now
                    && v > now
                {
                    return Err(format!(
                        "{} {} is above the meter now ({} {}).",
                        trim(v),
                        unit.key(),
                        trim(now),
                        unit.key()
                    ));
                }
                Some(v)
            }
            _ => return Err(format!("{m:?} is not a meter reading.")),
        },
    };
    Ok(LastDone { day, meter })
}

fn meters_now(state: &AppState, id: i64) -> MetersNow {
    state
        .overview()
        .snapshots
        .get(&id)
        .map(MetersNow::of)
        .unwrap_or_default()
}

/// The form; whether it was cancelled.
pub(super) fn plan_form_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    id: i64,
    f: &mut PlanForm,
    actions: &mut Vec<Action>,
) -> bool {
    let mut cancelled = false;
    let category = state
        .fleet()
        .equipments
        .iter()
        .find(|e| e.id == id)
        .and_then(|e| e.category.clone());
    ui.strong(if f.id.is_some() {
        "Change the plan"
    } else {
        "New plan"
    });
    egui::Grid::new("service_plan_form")
        .num_columns(2)
        .show(ui, |ui| {
            labelled_ui(
                ui,
                "Task",
                egui::TextEdit::singleline(&mut f.task).desired_width(240.0),
            );
            ui.end_row();
            labelled_ui(
                ui,
                "Every",
                egui::TextEdit::singleline(&mut f.every).desired_width(80.0),
            );
            ui.horizontal(|ui| {
                for u in PlanUnit::ALL {
                    ui.radio_value(&mut f.unit, u, u.label());
                }
            });
            ui.end_row();
            ui.label("Applies to");
            ui.horizontal(|ui| {
                ui.radio_value(&mut f.for_category, false, "This machine");
                if let Some(c) = &category {
                    ui.radio_value(&mut f.for_category, true, format!("Every {c}"));
                }
            });
            ui.end_row();
            labelled_ui(
                ui,
                "Last done (YYYY-MM-DD)",
                egui::TextEdit::singleline(&mut f.last_date).desired_width(100.0),
            );
            ui.end_row();
            // Always there (greyed for days): nothing below it moves.
            let unit = if f.unit.is_meter() { f.unit.key() } else { "h" };
            crate::ui::widgets::labelled_enabled_ui(
                ui,
                format!("Meter then ({unit})"),
                f.unit.is_meter(),
                egui::TextEdit::singleline(&mut f.last_meter).desired_width(100.0),
            );
            ui.end_row();
        });
    let scope = match (&category, f.for_category) {
        (Some(c), true) => PlanScope::Category(c.clone()),
        _ => PlanScope::Machine(id),
    };
    ui.horizontal(|ui| {
        if ui.button("Save plan").clicked() {
            let input = PlanInput {
                task: &f.task,
                every: &f.every,
                unit: f.unit,
                scope,
                last_date: &f.last_date,
                last_meter: &f.last_meter,
                // A category's reading is checked against no one machine.
                meter_now: (!f.for_category)
                    .then(|| meters_now(state, id).get(f.unit))
                    .flatten(),
                today: Day::of_secs(state.now()),
            };
            match checked_plan(&input) {
                Ok(plan) => {
                    f.error = None;
                    f.sent = true;
                    actions.push(ServiceAction::SavePlan { id: f.id, plan }.into());
                }
                Err(why) => f.error = Some((why, f.fields())),
            }
        }
        cancelled = ui.button("Cancel").clicked();
    });
    if let Some((why, fields)) = &f.error
        && *fields == f.fields()
    {
        ui.colored_label(ui.visuals().error_fg_color, why);
    }
    cancelled
}

/// *Mark done* on one plan: the date and the meter reading, filled in
/// from the latest data.
#[derive(Debug)]
pub(super) struct MarkDone {
    equipment: i64,
    task: String,
    unit: PlanUnit,
    date: String,
    meter: String,
    error: Option<String>,
    sent: bool,
}

impl MarkDone {
    pub(super) fn new(item: &DueItem, now: i64) -> Self {
        Self {
            equipment: item.equipment,
            task: item.plan.plan.task.clone(),
            unit: item.plan.plan.unit,
            date: Day::of_secs(now).to_string(),
            meter: item.meter_now.map(trim).unwrap_or_default(),
            error: None,
            sent: false,
        }
    }
}

/// The form; whether it was cancelled.
pub(super) fn mark_done_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    f: &mut MarkDone,
    actions: &mut Vec<Action>,
) -> bool {
    let mut cancelled = false;
    ui.strong(format!("Mark done: {}", f.task));
    ui.horizontal(|ui| {
        labelled_ui(
            ui,
            "Done on",
            egui::TextEdit::singleline(&mut f.date).desired_width(100.0),
        );
        if f.unit.is_meter() {
            labelled_ui(
                ui,
                format!("Meter reading ({})", f.unit.key()),
                egui::TextEdit::singleline(&mut f.meter).desired_width(100.0),
            );
        }
        if ui.button("Record").clicked() {
            let now = meters_now(state, f.equipment).get(f.unit);
            match checked_done(&f.date, &f.meter, f.unit, now, Day::of_secs(state.now())) {
                Ok(done) => {
                    f.error = None;
                    f.sent = true;
                    actions.push(
                        ServiceAction::MarkDone(DoneRecord {
                            equipment: f.equipment,
                            task: f.task.clone(),
                            unit: f.unit,
                            done,
                            recorded_at: state.now(),
                        })
                        .into(),
                    );
                }
                Err(why) => f.error = Some(why),
            }
        }
        cancelled = ui.button("Cancel").clicked();
    });
    if let Some(why) = &f.error {
        ui.colored_label(ui.visuals().error_fg_color, why);
    }
    cancelled
}
