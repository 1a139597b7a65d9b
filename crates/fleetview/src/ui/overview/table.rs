//! The overview's table: one row per machine as the model orders and
//! filters them, virtualised (only the rows in view are laid out), so
//! 10,000 machines cost what 100 do. A click on a header sorts; a click on
//! a row, or Enter on the row marked with the arrow keys, opens the
//! machine's history. The rows in view are told to the model, whose
//! figures are read for them first.
//!
//! The Name column stays in place while the columns right of it scroll
//! sideways (a touchpad's swipe, Shift+wheel, or the bar under them): the
//! table is two columns, Name and the rest, and the rest's cell lays the
//! chosen columns out shifted by one offset, so every row is one row of one
//! table and stays level however it is scrolled. The offset is the view's,
//! never saved: each start shows the first columns.

use std::collections::HashMap;

use egui::{Rect, UiBuilder};
use egui_extras::{Column as Width, TableBuilder};

use super::cells::{cell_ui, header_ui};
use super::columns::columns_menu_ui;
use crate::app::overview::{Column, FleetRow};
use crate::app::{Action, AppState, MachineAction, OverviewAction};
use crate::ui::theme;

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
    /// How far the columns right of Name are scrolled sideways (points).
    sideways: f32,
    /// The width the columns right of Name showed in at the last frame.
    room: Option<f32>,
    /// The widths of the columns right of Name the user dragged, kept in
    /// egui's memory as Name's own width is (read at the first frame).
    widths: Option<HashMap<Column, f32>>,
    /// Drawn once already (the rows' scroll is not taken from egui's
    /// memory at start).
    started: bool,
}

/// Where the dragged widths are kept in egui's memory.
fn widths_id() -> egui::Id {
    egui::Id::unique("fleet_table_widths")
}

/// The columns right of Name as laid out at this frame.
struct Strip {
    columns: Vec<(Column, f32)>,
    sideways: f32,
    gap: f32,
}

impl Strip {
    /// Their whole width, unscrolled.
    fn width(&self) -> f32 {
        let n = self.columns.len() as f32;
        self.columns.iter().map(|(_, w)| w).sum::<f32>() + self.gap * (n - 1.0).max(0.0)
    }

    /// Each column's place in a cell (shifted by the sideways offset).
    fn places(&self, cell: Rect) -> Vec<(Column, Rect)> {
        let mut x = cell.left() - self.sideways;
        self.columns
            .iter()
            .map(|&(c, w)| {
                let r =
                    Rect::from_min_size(egui::pos2(x, cell.top()), egui::vec2(w, cell.height()));
                x += w + self.gap;
                (c, r)
            })
            .collect()
    }

    /// Draws `add` for each column, each in its place, clipped to it and
    /// to the cell (those scrolled out of sight too, as a scroll area
    /// does: screen readers and tests find them where they are).
    fn cells_ui(&self, ui: &mut egui::Ui, mut add: impl FnMut(&mut egui::Ui, Column)) {
        let clip = ui.clip_rect();
        let layout = *ui.layout();
        for (c, place) in self.places(ui.max_rect()) {
            let mut cell = ui.new_child(UiBuilder::new().id_salt(c).max_rect(place).layout(layout));
            cell.set_clip_rect(clip.intersect(place));
            add(&mut cell, c);
        }
    }
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
    let strip = strip(ui, state, view);
    let area = ui.available_rect_before_wrap();
    let room = view
        .room
        .unwrap_or(area.width() - theme::fleet_column_width(Column::Name));
    let overflow = (strip.width() - room).max(0.0);
    sideways_input(ui, area, overflow, &mut view.sideways);
    let strip = Strip {
        sideways: view.sideways,
        ..strip
    };
    let bar = if overflow > 0.0 {
        theme::FLEET_SIDEWAYS_BAR_HEIGHT
    } else {
        0.0
    };
    let mut table = area;
    table.max.y -= bar;
    let mut in_view = Vec::new();
    let rest = ui
        .scope_builder(UiBuilder::new().max_rect(table), |ui| {
            rows_ui(ui, state, view, &strip, actions, &mut in_view)
        })
        .inner;
    if let Some(rest) = rest {
        view.room = Some(rest.width());
        if overflow > 0.0 {
            let under = Rect::from_x_y_ranges(rest.x_range(), table.bottom()..=area.bottom());
            view.sideways = bar_ui(ui, under, strip.width(), view.sideways);
        }
    }
    ui.advance_cursor_after_rect(area);
    if in_view != view.in_view {
        view.in_view = in_view.clone();
        actions.push(OverviewAction::InView(in_view).into());
    }
}

/// The columns shown right of Name, at their widths.
fn strip(ui: &egui::Ui, state: &AppState, view: &mut TableView) -> Strip {
    let widths = view.widths.get_or_insert_with(|| {
        ui.data_mut(|d| d.get_persisted(widths_id()))
            .unwrap_or_default()
    });
    let columns = state
        .overview()
        .settings
        .columns
        .shown()
        .filter(|c| *c != Column::Name)
        .map(|c| {
            let w = widths.get(&c).copied();
            (c, w.unwrap_or_else(|| theme::fleet_column_width(c)))
        })
        .collect();
    Strip {
        columns,
        sideways: view.sideways,
        gap: ui.spacing().item_spacing.x,
    }
}

/// A sideways wheel over the table (a touchpad's swipe; Shift+wheel, which
/// egui turns sideways) scrolls the columns right of Name. The rows' own
/// scroll area moves only up and down, so it is left the rest.
fn sideways_input(ui: &mut egui::Ui, area: Rect, overflow: f32, sideways: &mut f32) {
    if overflow > 0.0 && ui.rect_contains_pointer(area) {
        let dx = ui.input_mut(|i| std::mem::take(&mut i.smooth_scroll_delta.x));
        *sideways -= dx;
    }
    *sideways = sideways.clamp(0.0, overflow);
}

/// The sideways scroll bar under the columns right of Name; the offset
/// after a drag of it.
fn bar_ui(ui: &mut egui::Ui, rect: Rect, content_width: f32, sideways: f32) -> f32 {
    let out = ui
        .scope_builder(UiBuilder::new().max_rect(rect), |ui| {
            // Solid: seen before it is hovered, so the columns out of
            // sight are not a secret.
            ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
            egui::ScrollArea::horizontal()
                .id_salt("fleet_table_sideways_bar")
                .scroll_source(egui::scroll_area::ScrollSource::SCROLL_BAR)
                .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                .horizontal_scroll_offset(sideways)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    ui.allocate_space(egui::vec2(content_width, 1.0));
                })
        })
        .inner;
    out.state.clamped_offset().x
}

/// The table; the header's cell of the columns right of Name (where they
/// show).
fn rows_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut TableView,
    strip: &Strip,
    actions: &mut Vec<Action>,
    in_view: &mut Vec<i64>,
) -> Option<Rect> {
    let rows = state.overview().rows();
    let settings = &state.overview().settings;
    let now = state.now();
    let mut builder = TableBuilder::new(ui)
        .id_salt("fleet_table_frozen")
        .min_scrolled_height(0.0)
        .auto_shrink([false, false])
        .striped(true)
        .sense(egui::Sense::click())
        .column(
            Width::initial(theme::fleet_column_width(Column::Name))
                .at_least(theme::FLEET_NAME_MIN_WIDTH)
                .clip(true)
                .resizable(true),
        )
        .column(
            Width::remainder()
                .at_least(theme::FLEET_COLUMN_MIN_WIDTH)
                .clip(true)
                .resizable(false),
        );
    if !view.started {
        // egui keeps the scroll across restarts; a start shows the top,
        // where the machines needing attention are, not the row of the
        // machine open when the app was closed.
        view.scroll_to = None;
        builder = builder.vertical_scroll_offset(0.0);
    } else if let Some(i) = view.scroll_to.take() {
        builder = builder.scroll_to_row(i, None);
    }
    view.started = true;
    let mut rest = None;
    let widths = view.widths.get_or_insert_with(HashMap::new);
    builder
        .header(theme::ROW_HEIGHT, |mut header| {
            header.col(|ui| {
                ui.horizontal(|ui| {
                    header_ui(ui, Column::Name, settings.sort, actions);
                    columns_menu_ui(ui, &settings.columns, actions);
                });
            });
            header.col(|ui| {
                // The whole cell (what `col` returns is the part used).
                rest = Some(ui.max_rect());
                strip.cells_ui(ui, |ui, c| header_ui(ui, c, settings.sort, actions));
                resize_ui(ui, strip, widths);
            });
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
                row.col(|ui| open |= cell_ui(ui, state, &r, Column::Name, now, actions));
                row.col(|ui| {
                    // Text that cannot be selected leaves the click to the
                    // row (selectable, it took the click: only the gaps
                    // between values opened the machine).
                    ui.style_mut().interaction.selectable_labels = false;
                    strip.cells_ui(ui, |ui, c| {
                        open |= cell_ui(ui, state, &r, c, now, actions);
                    });
                });
                if open || row.response().clicked() {
                    view.cursor = Some(r.id);
                    actions.push(MachineAction::Select(r.id).into());
                }
            });
        });
    rest
}

/// The edges of the columns right of Name, in the header, dragged to
/// resize them; the widths are kept in egui's memory.
fn resize_ui(ui: &mut egui::Ui, strip: &Strip, widths: &mut HashMap<Column, f32>) {
    let cell = ui.max_rect();
    let mut changed = false;
    for (c, place) in strip.places(cell) {
        let x = place.right() + strip.gap / 2.0;
        let grab = theme::FLEET_RESIZE_GRAB;
        let edge = Rect::from_x_y_ranges(x - grab..=x + grab, cell.y_range());
        let r = ui.interact(
            edge,
            ui.scope_id().with(("fleet_resize", c)),
            egui::Sense::drag(),
        );
        if r.dragged() {
            let w = (place.width() + r.drag_delta().x).max(theme::FLEET_COLUMN_MIN_WIDTH);
            widths.insert(c, w);
            changed = true;
        }
        let stroke = if r.hovered() || r.dragged() {
            ui.set_cursor_icon(egui::CursorIcon::ResizeColumn);
            ui.visuals().widgets.hovered.bg_stroke
        } else {
            ui.visuals().widgets.noninteractive.bg_stroke
        };
        ui.painter().vline(x, cell.y_range(), stroke);
    }
    if changed {
        let kept = widths.clone();
        ui.data_mut(|d| d.insert_persisted(widths_id(), kept));
    }
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
