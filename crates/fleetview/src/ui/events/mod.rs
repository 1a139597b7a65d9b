//! Events: what happened in the window and what does not add up (D16), as
//! the worker found them in the report: a table of time, kind, duration,
//! value and place, filtered by kind and sorted by a column; a click on a
//! row moves the time cursor there and centres the map on the place. The
//! working hours and the tank's capacity the events are found with are
//! set in its header.
//!
//! Where to look: `kinds.rs` each kind's name, colour, marks and sentence,
//! `text.rs` what events say in words, `list.rs` the rows' filter and
//! order, `settings.rs` working hours and tank.

pub mod kinds;
pub mod list;
pub mod settings;
pub mod text;

use std::collections::BTreeSet;

use egui_extras::{Column, TableBuilder};

use crate::app::{Action, AppState, TimelineAction};
use crate::ui::format;
use crate::ui::theme;
use crate::ui::widgets;
use fleetview_core::analysis::events::counts;
use fleetview_core::analysis::{Event, EventKind};
use kinds::event_style;
use list::{ListCache, Order, SortColumn};

/// What the Events tab remembers between frames.
#[derive(Debug, Default)]
pub struct EventsView {
    /// Kinds switched off in the filter.
    pub hidden: BTreeSet<EventKind>,
    pub order: Order,
    cache: ListCache,
    tank: settings::TankEdit,
    /// The cursor the table last brought its row into view for.
    scrolled_for: Option<i64>,
}

impl EventsView {
    /// The events listed at the last frame (indices into the report's
    /// events), in the order shown.
    pub fn shown(&self) -> &[usize] {
        self.cache.last()
    }
}

/// What clicking an event does: the cursor to its start, and the map to
/// where the machine was.
pub fn seek_action(e: &Event) -> Action {
    match e.position {
        Some(position) => TimelineAction::SeekToPlace {
            time: e.start,
            position,
        },
        None => TimelineAction::SeekTo(e.start),
    }
    .into()
}

/// An event kind's name on its colour.
pub fn kind_chip(kind: EventKind) -> egui::RichText {
    let style = event_style(kind);
    egui::RichText::new(format!(" {} ", style.label))
        .background_color(style.color)
        .color(theme::EVENT_CHIP_TEXT)
}

/// Says why there is no table (loading, failed): whether there is none.
/// What the events go without (a part unread) the figures' strip above
/// says.
fn no_report_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) -> bool {
    let report = &state.figures().report;
    if let Some(e) = report.error() {
        widgets::panel_failed_ui(ui, "The events could not be worked out", e, actions);
    }
    if report.value().is_some() {
        return false;
    }
    if report.is_pending() || state.history().is_pending() {
        ui.horizontal(|ui| {
            crate::ui::widgets::spinner_ui(ui);
            ui.label("Events are being worked out…");
        });
    } else if report.error().is_none() {
        ui.label("Events are worked out once the window's data is read.");
    }
    true
}

pub fn events_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut EventsView,
    actions: &mut Vec<Action>,
) {
    ui.horizontal_wrapped(|ui| {
        settings::working_hours_button_ui(ui, state, actions);
        // A machine that reports no fuel level (an electric one) has no
        // refuel or drain to measure in litres.
        let fuel_level = state
            .history()
            .value()
            .is_some_and(|h| !h.fuel_remainings.rows.is_empty());
        if fuel_level {
            ui.separator();
            settings::tank_ui(ui, state, &mut view.tank, actions);
        }
    });
    if no_report_ui(ui, state, actions) {
        return;
    }
    let Some(report) = state.figures().report.value() else {
        return;
    };
    let events = &report.events;
    let present = counts(events);
    ui.horizontal_wrapped(|ui| {
        ui.label("Kinds:");
        for (kind, n) in &present {
            let shown = !view.hidden.contains(kind);
            let style = event_style(*kind);
            let text = format!("{} ({n})", style.label);
            let text = if shown {
                egui::RichText::new(text)
                    .background_color(style.color)
                    .color(theme::EVENT_CHIP_TEXT)
            } else {
                egui::RichText::new(text).weak().strikethrough()
            };
            let r = ui
                .selectable_label(shown, text)
                .on_hover_text(format!("{}\n\nClick to show or hide them.", kind.rule()));
            if r.clicked() && !view.hidden.remove(kind) {
                view.hidden.insert(*kind);
            }
        }
    });
    let rows = view.cache.rows(report, &view.hidden, view.order);
    if events.is_empty() {
        ui.label("No events in this window.");
        return;
    }
    ui.label(format!(
        "{} shown of {} in the window",
        format::count(rows.len(), "event", "events"),
        events.len()
    ));
    if rows.is_empty() {
        ui.label("No events of the kinds shown.");
        return;
    }
    let rows = rows.to_vec();
    table_ui(ui, state, view, events, &rows, actions);
}

fn table_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut EventsView,
    events: &[Event],
    rows: &[usize],
    actions: &mut Vec<Action>,
) {
    let cursor = state.timeline().cursor;
    // A finding spans the whole window: marking it at every cursor says
    // nothing.
    let at_cursor = |e: &Event| {
        e.kind != EventKind::Check
            && cursor
                .is_some_and(|c| c == e.start || (e.start..=e.end.unwrap_or(e.start)).contains(&c))
    };
    // A cursor placed from elsewhere (a flag, the plots) brings its event's
    // row into view; only as far as needed, so a row clicked in view stays
    // under the mouse.
    let mut builder = TableBuilder::new(ui);
    // The event starting at the cursor, else the first one spanning it
    // (a stop under way holds the cursor too). Tried until the row is
    // there: the page's events may still be loading.
    let at_cursor_row = || {
        rows.iter()
            .position(|&i| cursor == Some(events[i].start))
            .or_else(|| rows.iter().position(|&i| at_cursor(&events[i])))
    };
    if cursor != view.scrolled_for
        && let Some(i) = at_cursor_row()
    {
        view.scrolled_for = cursor;
        builder = builder.scroll_to_row(i, None);
    }
    builder
        .id_salt("events_table")
        // As tall as the pane, never taller: the pane keeps its size.
        .min_scrolled_height(0.0)
        .auto_shrink([false, false])
        .striped(true)
        .sense(egui::Sense::click())
        // Not resizable: a width dragged in a large window would push the
        // Where column out of a smaller one.
        // Fixed widths but the Value's: the remainder is what they leave,
        // so the Where column stays inside the pane.
        .column(
            Column::initial(theme::time_column_width(
                format::machine_zone(state).is_machine(),
            ))
            .at_least(140.0),
        )
        // "Suspected drain" on one line.
        .column(Column::initial(theme::EVENT_KIND_COLUMN_WIDTH).at_least(95.0))
        // "within 14 h 56 min" on one line.
        .column(Column::initial(theme::EVENT_DURATION_COLUMN_WIDTH).at_least(80.0))
        .column(Column::remainder().at_least(140.0).clip(true))
        .column(Column::initial(150.0).at_least(120.0))
        .header(theme::ROW_HEIGHT, |mut header| {
            for (title, column) in [
                ("Time", Some(SortColumn::Time)),
                ("Kind", Some(SortColumn::Kind)),
                ("Duration", Some(SortColumn::Duration)),
                ("Value", None),
                ("Where", None),
            ] {
                header.col(|ui| sort_header_ui(ui, title, column, &mut view.order));
            }
        })
        .body(|mut body| {
            // A click anywhere on a row goes there: no cell's text takes it
            // for a selection.
            body.ui_mut().style_mut().interaction.selectable_labels = false;
            body.rows(theme::ROW_HEIGHT, rows.len(), |mut row| {
                let e = &events[rows[row.index()]];
                let marked = at_cursor(e);
                row.set_selected(marked);
                let seek = event_row_ui(&mut row, e, marked, state);
                if seek || row.response().clicked() {
                    actions.push(seek_action(e));
                }
            });
        });
}

/// A column's header: a button sorting by it (its arrow when sorted by
/// it), or its title alone where it does not sort.
fn sort_header_ui(ui: &mut egui::Ui, title: &str, column: Option<SortColumn>, order: &mut Order) {
    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
    let Some(column) = column else {
        ui.strong(title);
        return;
    };
    let arrow = match (order.column == column, order.ascending) {
        (true, true) => theme::SORT_ASCENDING,
        (true, false) => theme::SORT_DESCENDING,
        _ => "",
    };
    if ui
        .button(format!("{title}{arrow}"))
        .on_hover_text("Sort by this column")
        .clicked()
    {
        *order = order.clicked(column);
    }
}

/// An event's cells: time, kind, duration, value, place. Whether its
/// time was clicked.
fn event_row_ui(
    row: &mut egui_extras::TableRow<'_, '_>,
    e: &Event,
    marked: bool,
    state: &AppState,
) -> bool {
    let mut seek = false;
    row.col(|ui| {
        seek = ui
            .selectable_label(
                marked,
                format::format_time(e.start, format::machine_zone(state)),
            )
            .on_hover_text("Move the time cursor here and the map to this place")
            .clicked();
    });
    row.col(|ui| {
        ui.label(kind_chip(e.kind)).on_hover_text(e.kind.rule());
    });
    row.col(|ui| {
        ui.label(text::duration_text(e));
    });
    row.col(|ui| {
        let value = kinds::summary(e, state.units());
        ui.add(egui::Label::new(&value).truncate())
            .on_hover_text(&value);
    });
    row.col(|ui| {
        ui.label(text::where_text(e));
    });
    seek
}
