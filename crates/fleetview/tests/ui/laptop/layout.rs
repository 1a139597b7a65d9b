//! A laptop after a session on a large screen. The page left is reopened;
//! the tables pane, restored as a share of the window, shows at least five
//! rows whatever size it was left at; the Measure tool's pane leaves the
//! plots their room; the status bar fits offline.

use egui::Rect;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::{Loadable, Settings, Tab};
use fleetview::shell::{AppOptions, FleetApp};

use crate::common;
use common::ui::{drag, equipment_name, pick, wait_until};

fn app(
    size: egui::Vec2,
    settings: Option<Settings>,
    memory: Option<egui::Memory>,
) -> Harness<'static, FleetApp> {
    let options = AppOptions {
        clock: Some(common::now()),
        settings,
        ..AppOptions::default()
    };
    let h = Harness::builder()
        .with_size(size)
        .build_eframe(move |cc| FleetApp::new(cc, options));
    if let Some(memory) = memory {
        // As eframe restores egui's memory (the panels' sizes among it).
        h.ctx.memory_mut(|m| *m = memory);
    }
    h
}

fn loaded(app: &FleetApp) -> bool {
    let s = app.state();
    matches!(*s.faults(), Loadable::Ready(_))
        && matches!(*s.activities(), Loadable::Ready(_))
        && matches!(*s.history(), Loadable::Ready(_))
        && s.figures().report.value().is_some()
}

/// A session at 1600x1000: a machine's Events left with the tables pane
/// dragged down as far as it goes. What a restart restores: the settings
/// and egui's memory.
fn big_screen_session() -> (Settings, egui::Memory) {
    let mut h = app(egui::vec2(1600.0, 1000.0), None, None);
    wait_until(&mut h, "the fleet", |app| {
        !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
    });
    let id = h.state().state().fleet().equipments[0].id;
    pick(&h, &equipment_name(h.state(), id));
    wait_until(&mut h, "the machine", loaded);
    h.key_press(egui::Key::E);
    h.run_steps(3);
    assert_eq!(h.state().state().tab(), Tab::Events);
    let tabs = h.get_by_label("Activities").rect();
    let edge = egui::pos2(tabs.center().x, tabs.top() - 5.0);
    drag(&mut h, edge, egui::pos2(edge.x, 995.0));
    let memory = h.ctx.memory(|m| m.clone());
    (h.state().state().settings(), memory)
}

/// Whether `text` is a date and time as the tables write them.
fn is_date_time(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 19 && text.starts_with("20") && b[4] == b'-' && b[10] == b' ' && b[13] == b':'
}

/// The table rows shown whole in the tables pane: rows start with a date
/// and time.
fn rows_shown(h: &Harness<'static, FleetApp>) -> usize {
    let pane_bottom = h.get_by_label_contains("Notices").rect().top();
    h.get_all_by(|n| {
        n.label()
            .or_else(|| n.value())
            .is_some_and(|t| is_date_time(&t))
    })
    .filter(|n| n.rect().bottom() <= pane_bottom)
    .count()
}

#[test]
fn a_restart_reopens_the_page_left() {
    let (settings, memory) = big_screen_session();
    let mut h = app(egui::vec2(1366.0, 768.0), Some(settings), Some(memory));
    h.run_steps(2);
    assert_eq!(h.state().state().tab(), Tab::Events);
}

#[test]
fn a_pane_left_small_on_a_big_screen_shows_five_rows_on_a_laptop() {
    let (settings, memory) = big_screen_session();
    for size in [egui::vec2(1366.0, 768.0), egui::vec2(1000.0, 700.0)] {
        let mut h = app(size, Some(settings.clone()), Some(memory.clone()));
        h.run_steps(2);
        h.key_press(egui::Key::E);
        wait_until(&mut h, "the machine", loaded);
        assert_eq!(h.state().state().tab(), Tab::Events);
        h.run_steps(3);
        assert!(
            rows_shown(&h) >= 5,
            "at {size:?}: {} event rows shown",
            rows_shown(&h)
        );
    }
}

/// The first plot's frame on screen, from its memory.
fn plot_rect(h: &Harness<'static, FleetApp>) -> Rect {
    let s = h.state().state();
    let id = fleetview::ui::plots::plot_id(
        s.timeline().plot_kinds[0],
        0,
        s.window().expect("window"),
        s.timeline().view_generation,
    );
    let memory = egui_plot::PlotMemory::load(&h.ctx, id).expect("the first plot is shown");
    *memory.transform().frame()
}

#[test]
fn measuring_leaves_the_plots_their_room_on_a_laptop() {
    for size in [egui::vec2(1366.0, 768.0), egui::vec2(1000.0, 700.0)] {
        let mut h = app(size, None, None);
        wait_until(&mut h, "the fleet", |app| {
            !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
        });
        let id = h.state().state().fleet().equipments[0].id;
        pick(&h, &equipment_name(h.state(), id));
        wait_until(&mut h, "the machine", loaded);
        h.get_by_label("Measure").click();
        h.run_steps(2);
        let plot = plot_rect(&h);
        let y = plot.center().y;
        drag(
            &mut h,
            egui::pos2(plot.left() + plot.width() * 0.3, y),
            egui::pos2(plot.left() + plot.width() * 0.6, y),
        );
        assert!(
            h.state().state().timeline().span.is_some(),
            "a span measured"
        );
        h.run_steps(3);
        let height = h.state().view().plots.area_height();
        assert!(height >= 120.0, "at {size:?}: the plots have {height} px");
    }
}

/// Found on the walk-through: Play became the wider Pause and moved the
/// controls after it under the mouse.
#[test]
fn play_and_pause_move_nothing_in_the_replay_bar() {
    let mut h = app(egui::vec2(1366.0, 768.0), None, None);
    wait_until(&mut h, "the fleet", |app| {
        !app.state().fleet().loading && !app.state().fleet().equipments.is_empty()
    });
    let id = h.state().state().fleet().equipments[0].id;
    pick(&h, &equipment_name(h.state(), id));
    wait_until(&mut h, "the machine", loaded);
    let skip = |h: &Harness<'static, FleetApp>| h.get_by_label("Skip engine-off").rect();
    let before = skip(&h);
    h.get_by_label("Play").click();
    h.run_steps(2);
    assert!(h.state().state().timeline().replay.playing);
    assert_eq!(skip(&h), before, "Skip engine-off stayed put");
}

/// Offline at 1000x700 the status bar holds the offline words, Details,
/// the next try, Retry now, what is going on and, on the right, the
/// service's address and the notices: none drawn over another.
#[test]
fn offline_on_a_small_screen_the_status_bar_draws_nothing_over_anything() {
    let options = AppOptions {
        service: Some(super::closed_service()),
        clock: Some(common::now()),
        ..AppOptions::default()
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1000.0, 700.0))
        .build_eframe(move |cc| FleetApp::new(cc, options));
    wait_until(&mut h, "offline, with a time for the next try", |app| {
        app.state()
            .offline()
            .is_some_and(|o| o.next_retry.is_some())
    });
    h.run_steps(2);
    // In the bar at the bottom (a notice may have its own Details).
    let in_bar = |label: &str| {
        h.query_all_by_label_contains(label)
            .map(|n| n.rect())
            .max_by(|a, b| a.min.y.total_cmp(&b.min.y))
            .unwrap_or_else(|| panic!("{label} in the status bar"))
    };
    let retry = in_bar("Retry now");
    let details = in_bar("Details");
    let notices = in_bar("Notices (");
    let address = in_bar(&h.state().state().connection().base_url);
    let next_try = in_bar("next try at ");
    let offline = in_bar("Offline. ");
    let shown = [
        ("offline words", offline),
        ("Details", details),
        ("next try", next_try),
        ("Retry now", retry),
        ("address", address),
        ("Notices", notices),
    ];
    for (i, (a, ra)) in shown.iter().enumerate() {
        assert!(ra.max.x <= 1000.0, "{a} within the window: {ra:?}");
        for (b, rb) in &shown[i + 1..] {
            assert!(
                !ra.intersects(*rb),
                "{a} {ra:?} and {b} {rb:?} drawn over each other"
            );
        }
    }
}
