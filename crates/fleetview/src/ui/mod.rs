//! The panels. Each draws from the app state (read-only) and its own view
//! state (filters, text being typed), and returns `Action`s; none does I/O.

mod about;
mod activities;
mod catalog;
mod connection;
pub mod daily_charts;
mod equipment;
pub mod events;
mod faults;
mod figures;
pub mod format;
mod history;
mod input;
pub mod keys;
pub mod map;
mod menu;
pub mod overview;
mod panes;
pub mod plots;
mod replay;
mod report_menu;
mod service;
mod status;
pub mod theme;
mod widgets;
mod window;

pub use input::InputOrder;
pub use panes::PanelShare;

use crate::app::MachineAction;
use crate::app::{Action, AppState, PaneShares, Tab};

/// What the panels remember between frames that is not app state.
#[derive(Debug, Default)]
pub struct ViewState {
    pub picker: equipment::PickerView,
    pub window: window::WindowView,
    pub faults: faults::FaultsView,
    pub events: events::EventsView,
    pub connection: connection::ConnectionView,
    pub catalog: catalog::CatalogView,
    pub map: map::MapView,
    pub plots: plots::PlotsView,
    pub overview: overview::OverviewView,
    pub daily_charts: daily_charts::DailyChartsView,
    pub status: status::StatusView,
    pub map_share: PanelShare,
    pub tables_share: PanelShare,
    pub menu: menu::MenuView,
    pub service: service::ServiceView,
}

/// Applies the shortcuts pressed this frame: those that move a view here,
/// the others as actions.
fn shortcuts(
    ctx: &egui::Context,
    state: &AppState,
    view: &mut ViewState,
    actions: &mut Vec<Action>,
) {
    use keys::KeyCommand;
    // Machines stepped through this frame: one move, by all of them (each
    // from the machine open would land on the same one).
    let mut machine_step = 0;
    // A popup (the data kinds' search, a menu) is a form too.
    let form_open = view.connection.is_open()
        || state.tab() == Tab::Catalog
        || (state.tab() == Tab::Service && view.service.is_form_open())
        || egui::Popup::is_any_open(ctx);
    for command in keys::pressed(ctx, form_open) {
        match command {
            KeyCommand::Help => view.menu.help_open = !view.menu.help_open,
            KeyCommand::FocusSearch => view.picker.focus_search(),
            KeyCommand::NextMachine => machine_step += 1,
            KeyCommand::PreviousMachine => machine_step -= 1,
            KeyCommand::FitMap if state.tab().is_machine_tab() => view.map.request_fit(),
            other => actions.extend(keys::action(state, other)),
        }
    }
    if machine_step != 0
        && let Some(id) = view.picker.neighbour(state, machine_step)
    {
        actions.push(MachineAction::Select(id).into());
    }
}

/// The whole window; `now` is the wall clock, for ages and "today".
pub fn app_ui(ui: &mut egui::Ui, state: &AppState, view: &mut ViewState, now: i64) -> Vec<Action> {
    let mut actions = chrome_ui(ui, state, view, now);
    actions.append(&mut page_ui(ui, state, view, now));
    actions
}

/// The keys, the bars and the equipment list: drawn first, their actions
/// (a machine picked) can be applied before the page is drawn, so its
/// reads start without waiting for the page (and the page shows them in
/// this very frame).
pub fn chrome_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut ViewState,
    now: i64,
) -> Vec<Action> {
    let mut actions = Vec::new();
    shortcuts(ui.ctx(), state, view, &mut actions);
    egui::Panel::top("top_bar").show(ui, |ui| {
        ui.add_space(theme::GAP);
        let mut from_menu = Vec::new();
        connection::connection_ui(ui, state, &mut view.connection, &mut actions, |ui| {
            menu::menu_ui(ui, state, &mut view.menu, &mut from_menu);
        });
        actions.append(&mut from_menu);
        ui.separator();
        window::window_ui(ui, state, &mut view.window, &mut actions);
        ui.add_space(theme::GAP);
    });
    egui::Panel::bottom("status_bar").show(ui, |ui| {
        status::status_bar_ui(ui, state, &mut view.status, now, &mut actions);
    });
    egui::Panel::left("equipment")
        .resizable(true)
        .default_size(300.0)
        .min_size(220.0)
        .show(ui, |ui| {
            equipment::equipment_ui(ui, state, &mut view.picker, &mut actions);
        });
    actions
}

/// Everything after [`chrome_ui`]: the notices and the page of the tab;
/// `now` is the wall clock.
pub fn page_ui(ui: &mut egui::Ui, state: &AppState, view: &mut ViewState, now: i64) -> Vec<Action> {
    let mut actions = Vec::new();
    status::toasts_ui(ui.ctx(), state, &mut actions);
    status::history_ui(ui.ctx(), state, &mut view.status, &mut actions);
    keys::help_ui(ui.ctx(), &mut view.menu.help_open);
    about::about_ui(ui.ctx(), state, &mut view.menu, &mut actions);
    about::notices_ui(ui.ctx(), &mut view.menu.notices_open);
    egui::CentralPanel::default().show(ui, |ui| {
        page_tabs_ui(ui, state, &mut actions);
        ui.separator();
        match state.tab() {
            Tab::Catalog => catalog::catalog_ui(ui, state, &mut view.catalog, &mut actions),
            Tab::Fleet => overview::overview_ui(ui, state, &mut view.overview, now, &mut actions),
            _ => machine_page_ui(ui, state, view, &mut actions),
        }
    });
    if std::mem::take(&mut view.overview.sign_in_asked) {
        // Drawn with the top bar, at the next frame.
        view.connection.open_window();
        ui.ctx().request_repaint();
    }
    actions
}

/// The pages: the fleet, a machine's history, the integrations.
fn page_tabs_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        for (page, label) in [
            (Tab::Fleet, "Fleet"),
            (state.machine_tab(), "Machine history"),
            (Tab::Catalog, "Integrations"),
        ] {
            let on = state.tab() == page;
            if ui.selectable_label(on, label).clicked() && !on {
                actions.push(Action::SetTab(page));
            }
        }
    });
}

/// The machine open: its name, the tables below, the replay and the
/// figures, then the map and the plots sharing the time cursor.
fn machine_page_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut ViewState,
    actions: &mut Vec<Action>,
) {
    let Some(id) = state.selected() else {
        ui.add_space(40.0);
        ui.vertical_centered(|ui| {
            ui.heading("Pick a machine on the left, or on the Fleet page, to see its history.");
        });
        return;
    };
    ui.horizontal(|ui| {
        let name = state.fleet().name_of(id);
        ui.heading(name);
        if ui
            .button("Refresh")
            .on_hover_text("Fetch this window again")
            .clicked()
        {
            actions.push(MachineAction::Refresh.into());
        }
        report_menu::report_menu_ui(ui, state, false, actions);
    });
    tables_pane_ui(ui, state, view, actions);
    replay::replay_ui(ui, state, actions);
    // The strip's rows give way to the map and the plots on a short
    // window.
    let room = ui.available_height() - theme::MAP_AND_PLOTS_MIN;
    let strip_rows = (room / (theme::FIGURE_CHIP_HEIGHT + theme::GAP)).floor();
    figures::figures_strip_ui(ui, state, strip_rows.max(1.0) as usize, actions);
    map_and_plots_ui(ui, state, view, actions);
}

/// The resizable pane of tables at the bottom of the machine's page.
fn tables_pane_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut ViewState,
    actions: &mut Vec<Action>,
) {
    // A third of the height at first (300 px at most): a small window
    // keeps room for the map and the plots (the daily charts show once the
    // pane has room for them and a few days). Never less than five rows.
    let page_height = ui.available_height();
    let floor = theme::TABLES_PANE_MIN;
    let tables_height = (page_height / 3.0).min(300.0).max(floor);
    // Dragged up (or restored from a larger window), the pane leaves the
    // strip, the map and the plots their room: it never covers them.
    let tables_max = (page_height - theme::PAGE_ABOVE_TABLES_MIN).max(floor);
    let tables_panel = egui::Panel::bottom("tables")
        .resizable(true)
        .default_size(tables_height.min(tables_max))
        .min_size(floor)
        .max_size(tables_max);
    let tables = view
        .tables_share
        .apply(
            state.panes().tables,
            tables_panel,
            page_height,
            floor,
            tables_max,
        )
        .show(ui, |ui| {
            // The pane keeps the size it was given (or dragged to): a panel
            // shrinks to its content otherwise, and the page above would
            // move with the number of rows.
            ui.set_min_height(ui.available_height());
            table_tabs_ui(ui, state, actions);
            ui.separator();
            match state.tab() {
                Tab::Faults => faults::faults_ui(ui, state, &mut view.faults, actions),
                Tab::Activities => activities::activities_ui(ui, state, actions),
                Tab::History => history::history_ui(ui, state, &mut view.daily_charts, actions),
                Tab::Events => events::events_ui(ui, state, &mut view.events, actions),
                Tab::Service => service::service_ui(ui, state, &mut view.service, actions),
                Tab::Catalog | Tab::Fleet => {}
            }
        });
    if let Some(share) = view
        .tables_share
        .shown(tables.response.rect.height(), page_height)
    {
        actions.push(Action::SetPaneShares(PaneShares {
            tables: Some(share),
            ..state.panes()
        }));
    }
}

/// The tabs of the tables' pane.
fn table_tabs_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        for (tab, label) in [
            (Tab::Faults, "Faults"),
            (Tab::Activities, "Activities"),
            (Tab::History, "Daily history"),
            (Tab::Events, "Events"),
            (Tab::Service, "Service"),
        ] {
            let tab_label = ui.selectable_label(state.tab() == tab, label);
            let tab_label = if tab == Tab::Events {
                tab_label.on_hover_text(keys::tip(
                    ui.ctx(),
                    "The window's events and findings",
                    keys::KeyCommand::EventsTab,
                ))
            } else {
                tab_label
            };
            if tab_label.clicked() {
                actions.push(Action::SetTab(tab));
            }
        }
    });
}

/// The map on the left, as wide as the plots beside it leave it, and the
/// plots.
fn map_and_plots_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut ViewState,
    actions: &mut Vec<Action>,
) {
    // The map gives way to the plots' minimum width (and a width once
    // grown, restored at the next start, is capped too).
    let room = ui.available_width();
    let map_max = (room - plots::MIN_WIDTH).max(200.0);
    let map_panel = egui::Panel::left("map")
        .resizable(true)
        .default_size((room * 0.45).min(map_max))
        .min_size(200.0)
        .max_size(map_max);
    let shown = view
        .map_share
        .apply(state.panes().map, map_panel, room, 200.0, map_max)
        .show(ui, |ui| {
            map::map_ui(ui, state, &mut view.map, actions);
        });
    if let Some(share) = view.map_share.shown(shown.response.rect.width(), room) {
        actions.push(Action::SetPaneShares(PaneShares {
            map: Some(share),
            ..state.panes()
        }));
    }
    egui::CentralPanel::default().show(ui, |ui| {
        plots::plots_ui(ui, state, &mut view.plots, actions);
    });
}
