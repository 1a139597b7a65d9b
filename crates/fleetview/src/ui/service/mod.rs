//! The machine page's Service tab: its plans (its own and its category's)
//! with the meter now, next due, what remains, the forecast date and the
//! status; *Mark done*; the plan form; the services done on it.

mod form;

use crate::app::service::WriteNews;
use crate::app::{Action, AppState};
use crate::ui::format::reading as trim;
use crate::ui::theme;
use fleetview_core::service::attention::amount;
use fleetview_core::service::due::{DueItem, Forecast};
use fleetview_core::service::plan::{Day, PlanScope, PlanUnit};

pub use form::ServiceView;

/// The tab.
pub fn service_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut ServiceView,
    actions: &mut Vec<Action>,
) {
    let Some(id) = state.selected() else {
        ui.weak("Choose a machine to see its service plans.");
        return;
    };
    let service = state.service();
    view.follow(id, service.saved);
    if view.news_seen == u64::MAX {
        view.news_seen = service.news_count;
    }
    header_ui(ui, state, view, actions);
    egui::ScrollArea::both()
        .id_salt("service_tab")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if let Some(open) = view.form.as_mut() {
                if form::plan_form_ui(ui, state, id, open, actions) {
                    view.form = None;
                }
                ui.separator();
            }
            match service.of(id) {
                Some(m) => plans_table_ui(ui, state, view, &m.items, actions),
                None if service.book.is_pending() => {
                    ui.weak("Reading the service book…");
                }
                None if service.path.is_some() && service.read_only.is_none() => {
                    ui.weak("No service plan applies to this machine. Add one for it, or for its category.");
                }
                None => {
                    ui.weak("No service plan applies to this machine.");
                }
            }
            ui.add_space(theme::GAP);
            history_ui(ui, state, id);
        });
}

/// The tab's first line: add a plan, the last write's news, a book that
/// cannot be written.
fn header_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut ServiceView,
    actions: &mut Vec<Action>,
) {
    let service = state.service();
    let writable = service.path.is_some() && service.read_only.is_none();
    ui.horizontal(|ui| {
        let add = ui.add_enabled(
            writable && view.form.is_none(),
            egui::Button::new("Add plan…"),
        );
        if add.clicked() {
            view.form = Some(form::PlanForm::new(None, state.now()));
            view.news_seen = service.news_count;
        }
        if !service.writing.is_empty() {
            crate::ui::widgets::spinner_ui(ui);
            ui.weak("Saving…");
        }
        export_menu_ui(ui, actions);
        soon_ui(ui, service.soon_percent(), actions);
        let news = service
            .news
            .as_ref()
            .filter(|_| service.news_count > view.news_seen);
        match news {
            Some(WriteNews::Saved(what)) => {
                ui.label(egui::RichText::new(format!("{what}.")).color(theme::OK_COLOR));
            }
            Some(WriteNews::Failed(why)) => {
                ui.colored_label(ui.visuals().error_fg_color, format!("Not saved: {why}"));
            }
            None => {}
        }
    });
    if service.path.is_none() {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            "No data folder on this system: service plans cannot be kept.",
        );
    } else if let Some(why) = &service.read_only {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!(
                "The service book is read-only ({why}). It is shown as it is and never overwritten."
            ),
        );
    }
}

fn plans_table_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut ServiceView,
    items: &[DueItem],
    actions: &mut Vec<Action>,
) {
    let service = state.service();
    let writable = service.path.is_some() && service.read_only.is_none();
    let today = Day::of_secs(state.now());
    egui::Grid::new("service_plans")
        .striped(true)
        .num_columns(9)
        .spacing([theme::GAP * 2.0, theme::GAP])
        .show(ui, |ui| {
            for title in [
                "Task",
                "",
                "Status",
                "Remaining",
                "Forecast",
                "Next due",
                "Meter now",
                "Last done",
                "Every",
            ] {
                ui.strong(title);
            }
            ui.end_row();
            for item in items {
                plan_row_ui(ui, state, view, item, today, writable);
                ui.end_row();
            }
        });
    confirm_delete_ui(ui, view, actions);
    if let Some(done) = view.mark_done.as_mut() {
        ui.separator();
        if form::mark_done_ui(ui, state, done, actions) {
            view.mark_done = None;
        }
    }
}

fn plan_row_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut ServiceView,
    item: &DueItem,
    today: Day,
    writable: bool,
) {
    let plan = &item.plan.plan;
    // A long name is cut (whole in its tip): the buttons stay in view.
    let task = ui
        .scope(|ui| {
            ui.set_max_width(theme::SERVICE_TASK_WIDTH);
            ui.add(egui::Label::new(&plan.task).truncate())
        })
        .inner;
    match &plan.scope {
        PlanScope::Category(c) if item.from_category => {
            task.on_hover_text(format!("{}: the plan of every {c}", plan.task));
        }
        _ => {
            task.on_hover_text(&plan.task);
        }
    }
    row_buttons_ui(ui, state, view, item, writable);
    ui.label(
        egui::RichText::new(item.status.label()).color(theme::service_status_color(item.status)),
    );
    let remaining = ui.label(item.remaining.map_or_else(
        || "—".to_owned(),
        |r| {
            let a = amount(r, plan.unit);
            if r < 0.0 { format!("{a} over") } else { a }
        },
    ));
    if item.resets > 0 {
        remaining.on_hover_text(format!(
            "Counted across {} meter reset{} since the last service",
            item.resets,
            if item.resets == 1 { "" } else { "s" }
        ));
    }
    forecast_ui(ui, state, item, today);
    ui.label(match (item.next_due_meter, item.due_day) {
        (_, Some(d)) => d.to_string(),
        (Some(m), None) => format!("{} {}", trim(m), plan.unit.key()),
        (None, None) => "—".to_owned(),
    });
    ui.label(meter(item.meter_now, plan.unit));
    ui.label(item.last_done.map_or_else(
        || "never".to_owned(),
        |l| match l.meter {
            Some(m) => format!("{} at {} {}", l.day, trim(m), plan.unit.key()),
            None => l.day.to_string(),
        },
    ));
    ui.label(format!("{} {}", trim(plan.every), plan.unit.key()));
}

/// A button named for the screen reader with its plan's task.
fn named_button_ui(ui: &mut egui::Ui, enabled: bool, text: &str, name: String) -> egui::Response {
    let b = ui.add_enabled(enabled, egui::Button::new(text));
    b.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, &name));
    b
}

fn row_buttons_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut ServiceView,
    item: &DueItem,
    writable: bool,
) {
    let plan = &item.plan.plan;
    let for_all = matches!(plan.scope, PlanScope::Category(_));
    ui.horizontal(|ui| {
        if named_button_ui(
            ui,
            writable,
            "Mark done",
            format!("Mark done: {}", plan.task),
        )
        .clicked()
        {
            view.mark_done = Some(form::MarkDone::new(item, state.now()));
            view.news_seen = state.service().news_count;
        }
        let edit = named_button_ui(
            ui,
            writable && view.form.is_none(),
            "Edit…",
            format!("Edit plan: {}", plan.task),
        );
        let edit = if for_all {
            edit.on_hover_text(
                "This plan is its category's: a change applies to every machine of it",
            )
        } else {
            edit
        };
        if edit.clicked() {
            view.form = Some(form::PlanForm::new(Some(&item.plan), state.now()));
            view.news_seen = state.service().news_count;
        }
        let delete = named_button_ui(
            ui,
            writable && view.confirm_delete.is_none(),
            "Delete…",
            format!("Delete plan: {}", plan.task),
        );
        if delete.clicked() {
            let whose = match &plan.scope {
                PlanScope::Category(c) => format!("every {c}"),
                PlanScope::Machine(_) => "this machine".to_owned(),
            };
            view.confirm_delete = Some((item.plan.id, format!("{} ({whose})", plan.task)));
        }
    });
}

/// Asks before a plan is deleted, below the table (not where the
/// Delete button was: a second click there deletes nothing).
fn confirm_delete_ui(ui: &mut egui::Ui, view: &mut ServiceView, actions: &mut Vec<Action>) {
    let Some((id, what)) = view.confirm_delete.clone() else {
        return;
    };
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        ui.label(format!(
            "Delete the plan {what}? Its services done stay recorded."
        ));
        if ui.button("Delete the plan").clicked() {
            actions.push(crate::app::ServiceAction::DeletePlan(id).into());
            view.confirm_delete = None;
        }
        if ui.button("Keep it").clicked() {
            view.confirm_delete = None;
        }
    });
}

fn forecast_ui(ui: &mut egui::Ui, state: &AppState, item: &DueItem, _today: Day) {
    match item.forecast {
        Forecast::On(d) => {
            ui.label(format!("about {d}"))
                .on_hover_text("At its mean daily use over the last 30 days");
        }
        Forecast::Calendar => {
            ui.label("—");
        }
        Forecast::NoUsage if state.service().usage_pending(item.equipment) => {
            ui.weak("reading usage…");
        }
        other => {
            ui.weak(other.why_none().unwrap_or("—"));
        }
    }
}

/// The services done on the machine, newest first.
fn history_ui(ui: &mut egui::Ui, state: &AppState, id: i64) {
    let Some(book) = state.service().book.value() else {
        return;
    };
    let mut done: Vec<_> = book.done.iter().filter(|r| r.equipment == id).collect();
    ui.strong("Services done");
    if done.is_empty() {
        ui.weak("None recorded yet: Mark done records one.");
        return;
    }
    done.reverse();
    egui::Grid::new("service_done")
        .striped(true)
        .show(ui, |ui| {
            for r in done {
                ui.label(r.done.day.to_string());
                ui.label(&r.task);
                ui.label(meter(r.done.meter, r.unit));
                ui.end_row();
            }
        });
}

fn meter(v: Option<f64>, unit: PlanUnit) -> String {
    match (v, unit) {
        (_, PlanUnit::Days) => "—".to_owned(),
        (Some(v), u) => format!("{} {}", trim(v), u.key()),
        (None, _) => "no reading".to_owned(),
    }
}

/// The due-soon threshold: a share of each plan's interval.
fn soon_ui(ui: &mut egui::Ui, percent: u8, actions: &mut Vec<Action>) {
    ui.separator();
    let mut p = percent;
    let field = crate::ui::widgets::labelled_ui(
        ui,
        "Due soon within",
        egui::DragValue::new(&mut p).range(1..=50).suffix(" %"),
    )
    .on_hover_text("A service is due soon when what remains is within this share of its interval");
    if field.changed() && p != percent {
        actions.push(crate::app::ServiceAction::SetSoonPercent(p).into());
    }
    ui.weak("of the interval");
}

/// The book's files: to share plans with a team, or drop the upcoming
/// services into a calendar.
fn export_menu_ui(ui: &mut egui::Ui, actions: &mut Vec<Action>) {
    use fleetview_core::export::shown::ServiceFile;
    ui.menu_button("Export…", |ui| {
        for (file, label) in [
            (ServiceFile::Plans, "Plans (CSV)"),
            (ServiceFile::Done, "Services done (CSV)"),
            (ServiceFile::Calendar, "Upcoming services (iCalendar)"),
        ] {
            if ui.button(label).clicked() {
                actions.push(crate::app::ServiceAction::Export(file).into());
                ui.close();
            }
        }
    });
}
