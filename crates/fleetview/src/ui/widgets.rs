//! Pieces the views share: a field after its label, a row of a form grid,
//! the set-up of a table filling a pane (or listing all its rows), a header
//! of titles and a column's sort button.
//!
//! Each draws exactly the widgets the views drew by hand, in the same order
//! and in the same `Ui` (no child `Ui` is added, so no widget's id moves), so
//! a view built from them looks, and reads to a screen reader and the tests,
//! as before.

use egui_extras::{Column, Table, TableBuilder};

use super::theme;

/// A label, then the field `add` puts after it, which a screen reader (and a
/// test looking widgets up by label) names by the label's text. A click on
/// the label gives the field the focus, as in a desktop form (typing then
/// goes to the field, not to the shortcuts).
pub fn labelled_with_ui(
    ui: &mut egui::Ui,
    label: impl Into<egui::WidgetText>,
    add: impl FnOnce(&mut egui::Ui) -> egui::Response,
) -> egui::Response {
    let label = ui.add(
        egui::Label::new(label)
            .selectable(false)
            .sense(egui::Sense::click()),
    );
    let field = add(ui).labelled_by(label.id);
    if label.clicked() && field.enabled() {
        field.request_focus();
    }
    field
}

/// `field` after its label, named by it (see [`labelled_with_ui`]).
pub fn labelled_ui(
    ui: &mut egui::Ui,
    label: impl Into<egui::WidgetText>,
    field: impl egui::Widget,
) -> egui::Response {
    labelled_with_ui(ui, label, |ui| ui.add(field))
}

/// `field` after its label, greyed out and inert unless `enabled`.
pub fn labelled_enabled_ui(
    ui: &mut egui::Ui,
    label: impl Into<egui::WidgetText>,
    enabled: bool,
    field: impl egui::Widget,
) -> egui::Response {
    labelled_with_ui(ui, label, |ui| ui.add_enabled(enabled, field))
}

/// A row of a two-column form grid: the label, the field named by it, the
/// row's end.
pub fn form_row_ui(
    ui: &mut egui::Ui,
    label: impl Into<egui::WidgetText>,
    field: impl egui::Widget,
) -> egui::Response {
    let response = labelled_ui(ui, label, field);
    ui.end_row();
    response
}

/// A table filling its pane (as tall as the pane, never taller, so the pane
/// keeps its size), striped, its rows clickable; the columns in order.
/// Whether the columns can be resized is the caller's to say.
pub fn pane_table(
    ui: &mut egui::Ui,
    id_salt: impl egui::AsIdSalt,
    columns: impl IntoIterator<Item = Column>,
) -> TableBuilder<'_> {
    let table = TableBuilder::new(ui)
        .id_salt(id_salt)
        .min_scrolled_height(0.0)
        .auto_shrink([false, false])
        .striped(true)
        .sense(egui::Sense::click());
    with_columns(table, columns)
}

/// A table showing all its rows, striped, inside a page that scrolls as a
/// whole (no scroll area of its own); the columns in order.
pub fn list_table(
    ui: &mut egui::Ui,
    id_salt: impl egui::AsIdSalt,
    columns: impl IntoIterator<Item = Column>,
) -> TableBuilder<'_> {
    let table = TableBuilder::new(ui)
        .id_salt(id_salt)
        .striped(true)
        .vscroll(false);
    with_columns(table, columns)
}

fn with_columns(
    table: TableBuilder<'_>,
    columns: impl IntoIterator<Item = Column>,
) -> TableBuilder<'_> {
    columns.into_iter().fold(table, TableBuilder::column)
}

/// A header row, a row high, of the columns' titles in bold.
pub fn titles_header<'a, T: Into<egui::RichText>>(
    table: TableBuilder<'a>,
    titles: impl IntoIterator<Item = T>,
) -> Table<'a> {
    table.header(theme::ROW_HEIGHT, |mut header| {
        for title in titles {
            header.col(|ui| {
                ui.strong(title);
            });
        }
    })
}

/// The arrow after the title of the column a table is sorted by
/// (`ascending` or not); `None` for the other columns.
pub fn sort_arrow(sorted_ascending: Option<bool>) -> &'static str {
    match sorted_ascending {
        Some(true) => theme::SORT_ASCENDING,
        Some(false) => theme::SORT_DESCENDING,
        None => "",
    }
}

/// A column's title as a button sorting by it, with the arrow of
/// [`sort_arrow`], in a header cell of its own: the title stays on one line
/// (the column widens rather than wrap). True when clicked.
pub fn sort_button_ui(
    ui: &mut egui::Ui,
    title: &str,
    sorted_ascending: Option<bool>,
    hover: impl Into<egui::WidgetText>,
) -> bool {
    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
    let arrow = sort_arrow(sorted_ascending);
    ui.button(format!("{title}{arrow}"))
        .on_hover_text(hover)
        .clicked()
}

/// A panel's failure: its short line in the error colour, the cause and
/// the technical text on hover (never the headline).
pub fn problem_ui(
    ui: &mut egui::Ui,
    prefix: &str,
    problem: &crate::app::Problem,
) -> egui::Response {
    ui.colored_label(
        theme::ink(ui, theme::ERROR),
        format!("{prefix}{}", problem.short),
    )
    .on_hover_text(problem.hover_text())
}

/// A read's failure with a button that asks again: the short line in the
/// error colour (cause and technical text on hover), then *Retry*, which
/// pushes `retry`.
pub fn failed_retry_ui(
    ui: &mut egui::Ui,
    line: &str,
    problem: &crate::app::Problem,
    retry: crate::app::Action,
    actions: &mut Vec<crate::app::Action>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(theme::ink(ui, theme::ERROR), line)
            .on_hover_text(problem.hover_text());
        if ui
            .button(RETRY)
            .on_hover_text("Ask the service again")
            .clicked()
        {
            actions.push(retry);
        }
    });
}

/// A machine panel's failure, "`panel`: short line", with *Retry*, which
/// reads the machine's page again.
pub fn panel_failed_ui(
    ui: &mut egui::Ui,
    panel: &str,
    problem: &crate::app::Problem,
    actions: &mut Vec<crate::app::Action>,
) {
    let line = format!("{panel}: {}", problem.short);
    machine_failed_ui(ui, &line, problem, actions);
}

/// A failure of the machine page's reads said in `line`, with *Retry*,
/// which reads the page again.
pub fn machine_failed_ui(
    ui: &mut egui::Ui,
    line: &str,
    problem: &crate::app::Problem,
    actions: &mut Vec<crate::app::Action>,
) {
    let refresh = crate::app::Action::Machine(crate::app::MachineAction::Refresh);
    failed_retry_ui(ui, line, problem, refresh, actions);
}

/// The button that asks again for what could not be read.
pub const RETRY: &str = "Retry";

/// A spinner, as egui's, that asks for its next turn only every
/// [`theme::PROGRESS_FRAME`]: egui's asks for a frame at once, every frame,
/// so a page loading behind it was drawn at the display's full rate, each
/// frame taking a core from the decoding and holding back the frame that
/// completes the page (docs/decisions.md, "Frames while a page loads").
pub fn spinner_ui(ui: &mut egui::Ui) -> egui::Response {
    let side = ui.style().spacing.interact_size.y;
    let (rect, response) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::hover());
    response.widget_info(|| egui::WidgetInfo::new(egui::Role::ProgressIndicator));
    if ui.is_rect_visible(rect) {
        ui.ctx().request_repaint_after(theme::PROGRESS_FRAME);
        let time_secs = ui.input(|i| i.time);
        let color = ui.visuals().strong_text_color();
        ui.painter().add(egui::Shape::line(
            spinner_arc(rect, time_secs),
            egui::Stroke::new(theme::SPINNER_STROKE, color),
        ));
    }
    response
}

/// The spinner's arc at `time_secs`: a turn a second, its length swinging
/// between nothing and two thirds of a circle.
fn spinner_arc(rect: egui::Rect, time_secs: f64) -> Vec<egui::Pos2> {
    let radius = rect.width().min(rect.height()) * 0.5 - theme::SPINNER_STROKE;
    let steps = 24_u32;
    let start = time_secs * std::f64::consts::TAU;
    let sweep = std::f64::consts::TAU * 2.0 / 3.0 * time_secs.sin();
    (0..=steps)
        .map(|i| {
            let angle = start + sweep * f64::from(i) / f64::from(steps);
            let (sin, cos) = angle.sin_cos();
            rect.center() + radius * egui::vec2(cos as f32, sin as f32)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::accesskit::Role;
    use egui_kittest::Harness;
    use egui_kittest::kittest::{NodeT, Queryable};

    #[test]
    fn a_field_is_found_by_its_label_enabled_or_not() {
        let (mut name, mut key) = (String::new(), String::new());
        let harness = Harness::new_ui(|ui| {
            egui::Grid::new("form").show(ui, |ui| {
                form_row_ui(ui, "Name", egui::TextEdit::singleline(&mut name));
                labelled_enabled_ui(ui, "Key", false, egui::TextEdit::singleline(&mut key));
                ui.end_row();
            });
        });
        harness.get_by_role_and_label(Role::TextInput, "Name");
        let key = harness.get_by_role_and_label(Role::TextInput, "Key");
        assert!(key.accesskit_node().is_disabled());
    }

    #[test]
    fn only_the_sorted_column_has_an_arrow() {
        assert_eq!(sort_arrow(Some(true)), theme::SORT_ASCENDING);
        assert_eq!(sort_arrow(Some(false)), theme::SORT_DESCENDING);
        assert_eq!(sort_arrow(None), "");
    }

    #[test]
    fn a_spinner_turns_at_thirty_frames_a_second_not_at_every_frame() {
        let mut h = Harness::new_ui(|ui| {
            spinner_ui(ui);
        });
        h.step();
        let delay = h
            .output()
            .viewport_output
            .get(&egui::ViewportId::ROOT)
            .map(|v| v.repaint_delay);
        assert_eq!(delay, Some(theme::PROGRESS_FRAME), "its next turn");
        h.get_by_role(Role::ProgressIndicator);
    }

    #[test]
    fn a_spinners_arc_stays_in_its_square() {
        let rect = egui::Rect::from_min_size(egui::pos2(10.0, 10.0), egui::vec2(18.0, 18.0));
        for tenth in 0..40 {
            let arc = spinner_arc(rect, f64::from(tenth) / 10.0);
            assert_eq!(arc.len(), 25);
            assert!(arc.iter().all(|p| rect.contains(*p)), "{arc:?}");
        }
    }
}
