//! Item 2: the Fleet table a manager can read. The Name column stays
//! while the rest scrolls sideways (Shift+wheel, a touchpad's swipe, the
//! bar), rows stay level, the attention columns come first, columns can be
//! hidden and moved (kept across restarts), and a restart starts at the
//! left. Positions are the accesskit nodes' bounds as drawn.

use std::collections::HashMap;

use crate::common;

use common::ui::wait_until;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use fleetview::app::Settings;
use fleetview::shell::{AppOptions, FleetApp};

/// A laptop's screen.
const SCREEN: egui::Vec2 = egui::vec2(1366.0, 768.0);

fn options() -> AppOptions {
    AppOptions {
        clock: Some(common::now()),
        ..AppOptions::default()
    }
}

/// The app on its embedded sandbox, `setup` run on its context before the
/// first frame (as eframe restores its memory).
fn app_with(
    options: AppOptions,
    setup: impl FnOnce(&egui::Context) + 'static,
) -> Harness<'static, FleetApp> {
    let mut h = Harness::builder()
        .with_size(SCREEN)
        .with_step_dt(1.0 / 60.0)
        .with_context_setup(setup)
        .build_eframe(move |cc| FleetApp::new(cc, options));
    wait_until(&mut h, "the fleet and its snapshots", |app| {
        let s = app.state();
        !s.fleet().loading
            && !s.fleet().equipments.is_empty()
            && !s.overview().status.loading
            && !s.overview().snapshots.is_empty()
            && s.overview().look_back.loading(s.fleet().equipments.len()) == 0
    });
    h
}

fn app() -> Harness<'static, FleetApp> {
    app_with(options(), |_| {})
}

/// eframe's storage, in memory: what it writes at exit is what it reads at
/// the next start (RON, as on disk).
#[derive(Default)]
struct Store(HashMap<String, String>);

impl eframe::Storage for Store {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

/// A column's header (its sort button).
fn header(h: &Harness<'static, FleetApp>, label: &str) -> egui::Rect {
    h.get_by_role_and_label(Role::Button, label).rect()
}

fn has_header(h: &Harness<'static, FleetApp>, label: &str) -> bool {
    h.query_by_role_and_label(Role::Button, label).is_some()
}

/// The name of the machine in the table's `k`th row.
fn row_name(h: &Harness<'static, FleetApp>, k: usize) -> String {
    let s = h.state().state();
    let row = s.overview().rows()[k];
    s.fleet().equipments[row.index].name.clone()
}

/// A machine's cell in the table: the rightmost node with its name (the
/// equipment list names it too).
fn name_cell(h: &Harness<'static, FleetApp>, name: &str) -> egui::Rect {
    h.get_all_by_label(name)
        .map(|n| n.rect())
        .max_by(|a, b| a.left().total_cmp(&b.left()))
        .unwrap_or_else(|| panic!("{name} is in the table"))
}

/// Wheel events over the table's rows, below the `over` column's header.
fn wheel(
    h: &mut Harness<'static, FleetApp>,
    over: &str,
    (unit, delta): (egui::MouseWheelUnit, egui::Vec2),
    modifiers: egui::Modifiers,
    times: usize,
) {
    let at = header(h, over).center() + egui::vec2(0.0, 3.0 * 22.0);
    h.hover_at(at);
    h.step();
    for _ in 0..times {
        h.event(egui::Event::MouseWheel {
            unit,
            delta,
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers,
        });
        h.run_steps(4);
    }
    // The wheel's steps are spread over a few frames.
    h.run_steps(30);
}

/// A touchpad's swipe to the left (the content moves left: the view goes
/// right).
const SWIPE: (egui::MouseWheelUnit, egui::Vec2) =
    (egui::MouseWheelUnit::Point, egui::vec2(-40.0, 0.0));

#[test]
fn attention_table_name_column_stays_while_scrolled_sideways() {
    let mut h = app();
    let first = row_name(&h, 0);
    let name = name_cell(&h, &first);
    let state = header(&h, "State");
    wheel(&mut h, "State", SWIPE, egui::Modifiers::NONE, 6);
    assert!(
        header(&h, "State").left() < state.left() - 100.0,
        "the figures scrolled sideways: State at {:?}, was {state:?}",
        header(&h, "State")
    );
    assert_eq!(name_cell(&h, &first), name, "the Name column stays");
    // The Name header and the Columns menu stay too.
    let name_header = h.get_by_role_and_label(Role::Button, "Name").rect();
    assert!(name_header.left() < name.left() + 1.0);
}

#[test]
fn attention_table_shift_wheel_scrolls_sideways() {
    let mut h = app();
    let first = row_name(&h, 0);
    let name = name_cell(&h, &first);
    let state = header(&h, "State");
    let wheel_down = (egui::MouseWheelUnit::Line, egui::vec2(0.0, -1.0));
    wheel(&mut h, "State", wheel_down, egui::Modifiers::SHIFT, 3);
    assert!(
        header(&h, "State").left() < state.left() - 60.0,
        "Shift+wheel went sideways: State at {:?}, was {state:?}",
        header(&h, "State")
    );
    assert_eq!(name_cell(&h, &first), name, "not up or down, Name in place");
    // Without Shift the wheel still goes down the rows, Name with them
    // (the first row may have left the view).
    let second = row_name(&h, 1);
    let below = name_cell(&h, &second);
    wheel(&mut h, "State", wheel_down, egui::Modifiers::NONE, 1);
    assert!(name_cell(&h, &second).top() < below.top() - 10.0);
    assert!(
        header(&h, "State").left() < state.left() - 60.0,
        "still sideways"
    );
}

/// Arrow keys scroll the rows to the marked one (the table's own scroll to
/// a row): scrolled sideways, each row's Name stays level with its cells.
#[test]
fn attention_table_rows_stay_level_when_a_row_is_scrolled_to() {
    let mut h = app();
    // How a row's serial number sits beside its name, unscrolled.
    let level = |h: &Harness<'static, FleetApp>, k: usize| {
        let s = h.state().state();
        let e = &s.fleet().equipments[s.overview().rows()[k].index];
        let serial = h.get_by_label(&e.serial_number).rect();
        serial.center().y - name_cell(h, &e.name).center().y
    };
    let at_rest = level(&h, 0);
    wheel(&mut h, "State", SWIPE, egui::Modifiers::NONE, 40);
    for _ in 0..40 {
        h.key_press(egui::Key::ArrowDown);
        h.step();
    }
    h.run_steps(30);
    let cursor = h.state().view().overview.table.cursor;
    let s = h.state().state();
    let k = s
        .overview()
        .rows()
        .iter()
        .position(|r| Some(r.id) == cursor);
    let k = k.expect("a marked row");
    assert!(k >= 30, "the keys went down the rows: {k}");
    let name = s.fleet().equipments[s.overview().rows()[k].index]
        .name
        .clone();
    assert!(
        (level(&h, k) - at_rest).abs() < 0.5,
        "{name} level with its serial number: {} (unscrolled {at_rest})",
        level(&h, k)
    );
    let screen = h.ctx.content_rect();
    assert!(screen.contains_rect(name_cell(&h, &name)), "scrolled to");
}

#[test]
fn attention_table_sideways_scroll_not_restored() {
    let mut h = app();
    // A wider Name column is kept (egui's memory, as before), and so are
    // the other columns' widths.
    let state = header(&h, "State");
    let first = row_name(&h, 0);
    let boundary = egui::pos2(
        state.left() - 4.0,
        h.get_by_role_and_label(Role::Button, "Name")
            .rect()
            .center()
            .y,
    );
    common::ui::drag(&mut h, boundary, boundary + egui::vec2(80.0, 0.0));
    let widened = header(&h, "State");
    assert!(widened.left() > state.left() + 60.0, "Name widened");
    // State widened by its edge in the header.
    let flags = header(&h, "Flags");
    let edge = egui::pos2(flags.left() - 4.0, boundary.y);
    common::ui::drag(&mut h, edge, edge + egui::vec2(50.0, 0.0));
    let flags = header(&h, "Flags");
    assert!(
        flags.left() > edge.x + 40.0,
        "State widened: Flags at {flags:?}"
    );
    let name = name_cell(&h, &first);
    wheel(&mut h, "State", SWIPE, egui::Modifiers::NONE, 6);
    assert!(header(&h, "State").left() < widened.left() - 100.0);
    // Down the rows too, the first out of view.
    let down = (egui::MouseWheelUnit::Line, egui::vec2(0.0, -5.0));
    wheel(&mut h, "State", down, egui::Modifiers::NONE, 3);
    assert!(
        h.query_all_by_label(&first)
            .all(|n| n.rect().left() < name.left())
    );

    let h_settings = h.state().state().settings();
    let far = h.state().state().overview().rows()[30].id;
    // eframe writes egui's memory at exit and gives it back at start.
    let mut store = Store::default();
    eframe::set_value(&mut store, "egui", &h.ctx.memory(|m| m.clone()));
    drop(h);
    let memory: egui::Memory = eframe::get_value(&store, "egui").expect("memory kept");
    // A machine far down the list was open when the app closed.
    let mut settings = h_settings;
    settings.selected = Some(far);
    let restart = AppOptions {
        settings: Some(settings),
        ..options()
    };
    let h = app_with(restart, move |ctx| ctx.memory_mut(|m| *m = memory));
    assert_eq!(
        header(&h, "State").left(),
        widened.left(),
        "starts at the left, Name as wide as left"
    );
    assert_eq!(
        name_cell(&h, &first),
        name,
        "at the first row, Name as wide"
    );
    assert_eq!(header(&h, "Flags"), flags, "State as wide as left");
}

#[test]
fn attention_table_columns_hidden_and_reordered_are_kept() {
    let mut h = app();
    // By default the attention columns come before the figures.
    let order = ["State", "Flags", "Faults in window"];
    let figures = ["Last report", "Hours in window", "Engine hours"];
    let lefts = |h: &Harness<'static, FleetApp>, labels: &[&str]| -> Vec<f32> {
        labels.iter().map(|l| header(h, l).left()).collect()
    };
    let first_figure = lefts(&h, &figures)
        .into_iter()
        .fold(f32::INFINITY, f32::min);
    for (l, x) in order.iter().zip(lefts(&h, &order)) {
        assert!(x < first_figure, "{l} before the figures");
    }
    assert!(header(&h, "Idle % in window").left() < first_figure);
    assert!(has_header(&h, "Make"));

    h.get_by_role_and_label(Role::Button, "Columns").click();
    h.run_steps(3);
    assert!(
        h.get_by_role_and_label(Role::CheckBox, "Name")
            .accesskit_node()
            .is_disabled(),
        "Name cannot be hidden"
    );
    h.get_by_role_and_label(Role::CheckBox, "Make").click();
    h.run_steps(3);
    h.get_by_role_and_label(Role::Button, "Move Last report up")
        .click();
    h.run_steps(3);
    h.key_press(egui::Key::Escape);
    h.run_steps(3);
    let shown = |h: &Harness<'static, FleetApp>| {
        assert!(!has_header(h, "Make"), "Make hidden");
        assert!(
            header(h, "Last report").left() < header(h, "Idle % in window").left(),
            "Last report moved before Idle %"
        );
    };
    shown(&h);

    // Kept across a restart: saved as eframe saves, read back at start.
    let mut store = Store::default();
    eframe::set_value(&mut store, "settings", &h.state().state().settings());
    let kept: Settings = eframe::get_value(&store, "settings").expect("settings read back");
    let h2 = app_with(
        AppOptions {
            settings: Some(kept),
            ..options()
        },
        |_| {},
    );
    shown(&h2);
    assert_eq!(
        h2.state().state().overview().settings,
        h.state().state().overview().settings
    );
}

/// A click anywhere on a row opens its machine, on a figure's text too
/// (the figures' text took the click for itself: only the gaps opened).
#[test]
fn attention_table_a_click_on_a_figure_opens_its_machine() {
    let mut h = app();
    let s = h.state().state();
    let row = s.overview().rows()[2];
    let e = &s.fleet().equipments[row.index];
    let (id, serial) = (e.id, e.serial_number.clone());
    wheel(&mut h, "State", SWIPE, egui::Modifiers::NONE, 40);
    let at = h.get_by_label(&serial).rect().center();
    common::ui::click_at(&mut h, at);
    assert_eq!(h.state().state().selected(), Some(id), "{serial}'s machine");
}

/// Started in a large window, then made small (1000x700): the map gives up
/// its height, so the table keeps rows to read.
#[test]
fn attention_table_keeps_rows_to_read_when_the_window_shrinks() {
    let options = options();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_step_dt(1.0 / 60.0)
        .build_eframe(move |cc| FleetApp::new(cc, options));
    wait_until(&mut h, "the fleet", |app| {
        let s = app.state();
        !s.fleet().loading && !s.overview().snapshots.is_empty()
    });
    h.set_size(egui::vec2(1000.0, 700.0));
    h.run_steps(10);
    let table_top = header(&h, "State").bottom();
    let rows = ((700.0 - table_top) / 22.0).floor();
    assert!(
        rows >= 10.0,
        "{rows} rows of the table in view (its header at {table_top})"
    );
}
