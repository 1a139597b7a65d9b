//! Feedback: the status bar (what is being fetched, how far), the offline
//! mark, dismissable notifications with their detail, and the history of
//! every notice shown (from the status bar).

use super::format;
use super::theme;
use crate::app::ConnectionAction;
use crate::app::{Action, AppState, Level, Notification};

/// What the status bar remembers between frames.
#[derive(Debug, Default)]
pub struct StatusView {
    /// The history of notices is open.
    pub history_open: bool,
}

pub fn status_bar_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut StatusView,
    now: i64,
    actions: &mut Vec<Action>,
) {
    // One line, whatever is in flight: a bar that wrapped grew and moved
    // the page above it. The service's address is laid out first, on the
    // right, and the rest is cut short before it (they were drawn over
    // each other).
    ui.horizontal(|ui| {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let shown = state.notification_history().len();
            if ui
                .selectable_label(view.history_open, format!("Notices ({shown})"))
                .on_hover_text("Every notice shown since the app started, those gone too")
                .clicked()
            {
                view.history_open = !view.history_open;
            }
            ui.label(
                egui::RichText::new(&state.connection().base_url)
                    .small()
                    .weak(),
            );
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                activity_ui(ui, state, now, actions);
            });
        });
    });
}

/// What the app is doing, left to right: offline, the fleet, fetches and
/// exports, or "Ready".
fn activity_ui(ui: &mut egui::Ui, state: &AppState, now: i64, actions: &mut Vec<Action>) {
    {
        if let (Some(o), Some(problem)) = (state.offline(), state.offline_problem()) {
            offline_ui(ui, o.data_fetched_at, &problem, now, state.local_time());
            if o.probing {
                // Words, not a spinner: a try of a service that is down
                // can take a second of retries, and a spinner draws every
                // frame of it (on a laptop offline, at every try).
                ui.label("trying the service…");
            } else {
                if let Some(t) = o.next_retry {
                    // A time, not a countdown: a countdown would need a
                    // frame every second.
                    ui.label(format!(
                        "next try at {}",
                        format::format_in_zone(t, state.local_time(), "%H:%M:%S")
                    ));
                }
                if ui.small_button("Retry now").clicked() {
                    actions.push(ConnectionAction::RetryNow.into());
                }
            }
            ui.separator();
        }
        if state.fleet().loading {
            crate::ui::widgets::spinner_ui(ui);
            ui.label(format!(
                "fleet {} of {}",
                state.fleet().done,
                state.fleet().total
            ));
            ui.separator();
        }
        let mut busy: Vec<(String, String)> = state
            .fetches()
            .into_iter()
            .map(|(what, p)| {
                (
                    what,
                    format!(
                        "{} rows, {}/{} chunks",
                        p.rows, p.chunks_done, p.chunks_total
                    ),
                )
            })
            .collect();
        busy.sort();
        for pending in [
            (state.faults().is_pending(), "faults"),
            (state.activities().is_pending(), "activities"),
            (state.history().is_pending(), "daily history"),
        ] {
            if pending.0 && !busy.iter().any(|(w, _)| w.eq_ignore_ascii_case(pending.1)) {
                busy.push((pending.1.to_owned(), "waiting".to_owned()));
            }
        }
        let mut doing: Vec<String> = state
            .exports()
            .describe_under_way()
            .map(|what| format!("Exporting {what}"))
            .collect();
        doing.extend(
            busy.into_iter()
                .map(|(what, how)| format!("Fetching {what}: {how}")),
        );
        if doing.is_empty() {
            ui.label("Ready");
        } else {
            crate::ui::widgets::spinner_ui(ui);
            // All of it on hover, where the line is too short.
            let all = doing.join("; ");
            ui.add(
                egui::Label::new(all.clone())
                    .truncate()
                    .show_tooltip_when_elided(false),
            )
            .on_hover_text(all.replace("; ", "\n"));
        }
    }
}

/// The one notice of the service out of reach: why, in words (the panels
/// say only "Not in the cache"), what is shown instead, and the technical
/// text under Details.
fn offline_ui(
    ui: &mut egui::Ui,
    data_fetched_at: Option<i64>,
    problem: &crate::app::Problem,
    now: i64,
    local: bool,
) {
    // What is shown instead: the cache's data and when it was fetched, or nothing
    // for this view (said, not left to a reader to infer).
    let instead = data_fetched_at.map_or_else(
        || "Showing what the cache holds: nothing for this view.".to_owned(),
        |t| {
            // When, not how long ago: an age would need a frame a minute.
            let same_day =
                format::format_in_zone(t, local, "%F") == format::format_in_zone(now, local, "%F");
            let when =
                format::format_in_zone(t, local, if same_day { "%H:%M" } else { "%F %H:%M" });
            format!("Showing what the cache holds (data fetched at {when}).")
        },
    );
    // Cut short (whole on hover) so that what follows stays in the bar:
    // on a small screen it was drawn over the service's address.
    let words = format!("Offline. {}. {instead}", problem.title);
    let room = (ui.available_width() - theme::STATUS_OFFLINE_CONTROLS_WIDTH)
        .max(theme::STATUS_OFFLINE_WORDS_MIN_WIDTH);
    ui.allocate_ui(egui::vec2(room, ui.available_height()), |ui| {
        ui.add(
            egui::Label::new(egui::RichText::new(&words).color(theme::ink(ui, theme::OFFLINE)))
                .truncate()
                .show_tooltip_when_elided(false),
        )
        .on_hover_text(&words);
    });
    if !problem.detail.is_empty() {
        ui.menu_button("Details", |ui| {
            ui.set_max_width(theme::TOAST_WIDTH);
            ui.add(egui::Label::new(&problem.detail).wrap());
        });
    }
}

/// The notices shown since the start, newest first, in a window of their
/// own (over the page: nothing under it moves).
pub fn history_ui(
    ctx: &egui::Context,
    state: &AppState,
    view: &mut StatusView,
    actions: &mut Vec<Action>,
) {
    let mut open = view.history_open;
    super::keys::close_on_escape(ctx, &mut open);
    // By its button, bottom right, above the status bar.
    let corner = ctx.content_rect().right_bottom() - theme::TOAST_MARGIN;
    egui::Window::new("Notices")
        .open(&mut open)
        .default_size(theme::NOTICES_SIZE)
        .pivot(egui::Align2::RIGHT_BOTTOM)
        .default_pos(corner)
        .collapsible(false)
        .show(ctx, |ui| {
            let history = state.notification_history();
            ui.horizontal(|ui| {
                ui.label(format::count(history.len(), "notice", "notices"));
                if ui
                    .add_enabled(!history.is_empty(), egui::Button::new("Clear"))
                    .on_hover_text("Forget the notices shown so far")
                    .clicked()
                {
                    actions.push(Action::ClearNotificationHistory);
                }
            });
            ui.separator();
            if history.is_empty() {
                ui.label("No notice yet.");
                return;
            }
            egui::ScrollArea::vertical().show(ui, |ui| {
                for n in history.iter().rev() {
                    notice_row_ui(ui, state, n);
                }
            });
        });
    view.history_open = open;
}

fn notice_row_ui(ui: &mut egui::Ui, state: &AppState, n: &Notification) {
    let (color, level) = level_look(n.level);
    ui.horizontal_wrapped(|ui| {
        if let Some(t) = n.shown_at {
            ui.label(egui::RichText::new(format::format_time(t, state.local_time())).weak());
        }
        ui.colored_label(theme::ink(ui, color), level);
        ui.add(egui::Label::new(&n.title).wrap());
    });
    if !n.detail.is_empty() {
        egui::CollapsingHeader::new("Details")
            // By the notice, not its place: the oldest go as new come.
            .id_salt(("notice history", n.id))
            .show(ui, |ui| {
                ui.add(egui::Label::new(&n.detail).wrap());
            });
    }
    ui.add_space(theme::GAP / 2.0);
}

/// A level's colour and name.
fn level_look(level: Level) -> (egui::Color32, &'static str) {
    match level {
        Level::Error => (theme::ERROR, "error"),
        Level::Warning => (theme::WARNING, "warning"),
        Level::Info => (theme::INFO, "info"),
    }
}

/// Notices as toasts stacked in the bottom right corner, over the page:
/// they never move what is under the mouse. Errors stay until dismissed;
/// news goes by itself (the model expires it).
pub fn toasts_ui(ctx: &egui::Context, state: &AppState, actions: &mut Vec<Action>) {
    let list = state.notifications();
    if list.is_empty() {
        return;
    }
    egui::Area::new(egui::Id::unique("toasts"))
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::RIGHT_BOTTOM, -theme::TOAST_MARGIN)
        .show(ctx, |ui| {
            ui.set_max_width(theme::TOAST_WIDTH);
            for n in list {
                let (color, _) = level_look(n.level);
                egui::Frame::popup(ui.style())
                    .stroke(egui::Stroke::new(1.0, theme::line_ink(ui.visuals(), color)))
                    .show(ui, |ui| {
                        ui.set_width(theme::TOAST_WIDTH);
                        ui.horizontal(|ui| {
                            ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
                                if ui.small_button("Dismiss").clicked() {
                                    actions.push(Action::DismissNotification(n.id));
                                }
                                ui.with_layout(
                                    egui::Layout::left_to_right(egui::Align::Min),
                                    |ui| {
                                        ui.add(
                                            egui::Label::new(
                                                egui::RichText::new(&n.title)
                                                    .color(theme::ink(ui, color)),
                                            )
                                            .wrap(),
                                        );
                                    },
                                );
                            });
                        });
                        if let Some(folder) = &n.folder
                            && ui
                                .button("Open folder")
                                .on_hover_text(folder.display().to_string())
                                .clicked()
                        {
                            actions.push(Action::OpenFolder(folder.clone()));
                        }
                        if !n.detail.is_empty() {
                            egui::CollapsingHeader::new("Details")
                                .id_salt(("notification", n.id))
                                .show(ui, |ui| {
                                    egui::ScrollArea::vertical()
                                        .max_height(160.0)
                                        .show(ui, |ui| {
                                            ui.add(egui::Label::new(&n.detail).wrap());
                                        });
                                });
                        }
                    });
                ui.add_space(theme::GAP);
            }
        });
}
