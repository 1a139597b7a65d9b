//! About (version, licences, the data and fonts bundled, where the app
//! keeps its files) and the third-party licences it opens.

use std::sync::OnceLock;

use super::keys;
use super::menu::MenuView;
use super::theme;
use crate::app::{Action, AppState};

/// The licences and notices of every crate the binary links, generated
/// from the lock file by `cargo about` (`.ci/notices`, checked in CI).
const NOTICES: &str = include_str!("../../../../assets/third-party-notices.txt");

/// What is bundled beside the code, with its licence: the map data, the
/// time-zone boundaries, the fonts.
const BUNDLED: [(&str, &str); 4] = [
    (
        "Map data",
        "Country and land outlines (offline map): Made with Natural Earth, public domain; \
         as packaged by world-atlas, ISC licence, © Michael Bostock. Online map tiles: \
         © OpenStreetMap contributors, data under the Open Database Licence \
         (openstreetmap.org/copyright), when online tiles are on.",
    ),
    (
        "Time zones",
        "Time-zone boundaries (a machine's local time): timezone-boundary-builder, from \
         OpenStreetMap data, © OpenStreetMap contributors, under the Open Database Licence \
         1.0 (ODbL), as bundled by the tzf-rs crate.",
    ),
    (
        "Fonts",
        "Ubuntu Light, © Canonical Ltd., Ubuntu Font Licence 1.0; Hack, © Source Foundry \
         Authors, MIT (from Bitstream Vera, © Bitstream Inc., and DejaVu); Noto Emoji, \
         © Google Inc., SIL Open Font Licence 1.1; emoji-icon-font, © John Slegers, MIT.",
    ),
    (
        "Libraries",
        "The Rust crates the app is built from, each under its own licence: \
         Third-party licences below, and in /usr/share/doc/fleetview/ where installed.",
    ),
];

/// The About window.
pub fn about_ui(
    ctx: &egui::Context,
    state: &AppState,
    view: &mut MenuView,
    actions: &mut Vec<Action>,
) {
    // Escape closes the window on top: the licences when they are open.
    if !view.notices_open {
        keys::close_on_escape(ctx, &mut view.about_open);
    }
    let mut open = view.about_open;
    egui::Window::new("About Fleetview")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(ctx.content_rect().center())
        .default_width(theme::ABOUT_WIDTH)
        .show(ctx, |ui| {
            ui.heading(format!("Fleetview {}", env!("CARGO_PKG_VERSION")));
            ui.label(env!("CARGO_PKG_DESCRIPTION"));
            ui.label(format!("Licence: {}", env!("CARGO_PKG_LICENSE")));
            for (what, credit) in BUNDLED {
                ui.add_space(theme::GAP);
                ui.label(egui::RichText::new(what).strong());
                ui.label(credit);
            }
            if ui.button("Third-party licences…").clicked() {
                view.notices_open = true;
            }
            ui.add_space(theme::GAP);
            places_ui(ui, state, actions);
        });
    view.about_open = open;
}

/// Where the app keeps its files, and a button to the logs.
fn places_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    ui.label(egui::RichText::new("Where Fleetview keeps its files").strong());
    let places = &state.places();
    egui::Grid::new("about_places")
        .num_columns(2)
        .spacing([theme::GAP * 2.0, theme::GAP])
        .show(ui, |ui| {
            for (what, path) in [
                ("Settings", places.settings.as_ref()),
                ("Cache", places.cache.as_ref()),
                ("Map tiles", state.tile_cache_dir()),
                ("Logs", places.logs.as_ref()),
            ] {
                ui.label(what);
                match path {
                    Some(p) => ui.add(egui::Label::new(p.display().to_string()).selectable(true)),
                    None => ui.weak("not kept"),
                };
                ui.end_row();
            }
        });
    ui.add_space(theme::GAP);
    let logs = places.logs.clone();
    let button = ui
        .add_enabled(logs.is_some(), egui::Button::new("Open the log folder"))
        .on_hover_text("Show the log files in the file manager")
        .on_disabled_hover_text("This run writes no log file");
    if button.clicked()
        && let Some(dir) = logs
    {
        actions.push(Action::OpenFolder(dir));
    }
}

/// The notices' lines and the number of crates they list, read once (not
/// at every frame the window is open).
fn notice_lines() -> &'static (Vec<&'static str>, usize) {
    static LINES: OnceLock<(Vec<&'static str>, usize)> = OnceLock::new();
    LINES.get_or_init(|| {
        let lines: Vec<&str> = NOTICES.lines().collect();
        let crates = lines.iter().filter(|l| l.starts_with("  - ")).count();
        (lines, crates)
    })
}

/// The third-party licences: only the lines in view are laid out (the
/// text is hundreds of kilobytes).
pub fn notices_ui(ctx: &egui::Context, open: &mut bool) {
    if !*open {
        return;
    }
    keys::close_on_escape(ctx, open);
    egui::Window::new("Third-party licences")
        .open(open)
        .collapsible(false)
        .default_size(theme::NOTICES_SIZE * 1.5)
        .show(ctx, |ui| {
            let (lines, crates) = notice_lines();
            ui.label(format!(
                "The licences of the {crates} libraries Fleetview is built from."
            ));
            ui.separator();
            let row_height = ui.text_style_height(&egui::TextStyle::Monospace);
            egui::ScrollArea::both().auto_shrink(false).show_rows(
                ui,
                row_height,
                lines.len(),
                |ui, rows| {
                    for line in &lines[rows] {
                        ui.label(egui::RichText::new(*line).monospace());
                    }
                },
            );
        });
}
