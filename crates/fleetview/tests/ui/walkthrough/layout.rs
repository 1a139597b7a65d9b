//! Items 7, 11, 14 and 16: what stays put, what a small window still
//! reaches, what offline shows, and the small things.

use super::*;

/// The top of a widget found by its label (the first one, if several).
fn top_of(h: &Harness<'static, FleetApp>, label: &str) -> f32 {
    h.get_all_by_label(label)
        .next()
        .unwrap_or_else(|| panic!("{label} is shown"))
        .rect()
        .top()
}

fn tables_loaded(app: &FleetApp) -> bool {
    let s = app.state();
    s.faults().value().is_some()
        && s.activities().value().is_some()
        && s.history().value().is_some()
}

/// Item 7: the tables' pane keeps its size whatever it holds (it grew and
/// shrank with its rows), and a notice floats in a corner instead of
/// pushing the page down.
#[test]
fn panes_keep_their_size_and_notices_push_nothing() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    let name = common::ui::equipment_name(h.state(), 1003);
    common::ui::pick(&h, &name);
    wait_until(&mut h, "the tables", tables_loaded);
    let tabs = top_of(&h, "Daily history");
    for tab in ["Activities", "Daily history", "Faults"] {
        h.get_all_by_label(tab).next().expect("the tab").click();
        h.run_steps(3);
        assert_eq!(top_of(&h, "Daily history"), tabs, "after {tab}");
    }
    // Also while the new window loads (the status bar, wrapping its many
    // fetches, grew and moved the page up).
    h.get_by_label("Yesterday").click();
    for _ in 0..3 {
        h.step();
        assert_eq!(top_of(&h, "Daily history"), tabs, "while loading");
    }
    wait_until(&mut h, "yesterday's tables", |app| {
        tables_loaded(app) && !app.state().faults().is_pending()
    });
    assert_eq!(top_of(&h, "Daily history"), tabs, "with fewer rows");

    let page = top_of(&h, "Machine history");
    type_into(&mut h, Role::TextInput, "Equipment id", "999999");
    h.get_by_label("Open").click();
    wait_until(&mut h, "the notice", |app| {
        app.state()
            .notifications()
            .iter()
            .any(|n| n.level == Level::Error)
    });
    h.run_steps(3);
    assert_eq!(top_of(&h, "Machine history"), page, "the page stays put");
    let title = h.state().state().notifications()[0].title.clone();
    let notice = h.get_by_label(title.as_str()).rect();
    let screen = h.ctx.content_rect();
    assert!(
        notice.right() > screen.center().x && notice.bottom() > screen.center().y,
        "the notice is in the bottom right corner: {notice:?}"
    );
    // Errors stay until dismissed, whatever the time.
    h.run_steps(30);
    h.get_by_label("Dismiss").click();
    h.run_steps(3);
    assert!(h.query_by_label(title.as_str()).is_none());
}

fn small_harness(options: AppOptions) -> Harness<'static, FleetApp> {
    Harness::builder()
        .with_size(egui::vec2(1000.0, 700.0))
        .with_step_dt(1.0 / 60.0)
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

/// Items 14 and 16: at 1000x700 the daily history shows its days (it
/// showed one row), the Day column stays while the figures scroll sideways
/// (it scrolled away), and DEF reads as a percent with the tank apart (it
/// read "90.6 of 90 L").
#[test]
fn the_daily_history_keeps_its_days_in_a_small_window() {
    let mut h = small_harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    let name = common::ui::equipment_name(h.state(), 1003);
    common::ui::pick(&h, &name);
    h.step();
    h.get_by_label("Last 7 days").click();
    h.step();
    h.get_by_label("Daily history").click();
    wait_until(&mut h, "the history", |app| {
        app.state().history().value().is_some() && !app.state().history().is_pending()
    });
    h.run_steps(3);
    let history = h
        .state()
        .state()
        .history()
        .value()
        .cloned()
        .expect("history");
    let screen = h.ctx.content_rect();
    let days_seen = history
        .daily_usages
        .rows
        .iter()
        .filter(|r| {
            let day = jiff::Timestamp::from_second(r.date.0)
                .expect("a date")
                .strftime("%Y-%m-%d")
                .to_string();
            h.query_all_by_label(&day)
                .any(|n| screen.contains_rect(n.rect()) && n.rect().height() > 0.0)
        })
        .count();
    assert!(days_seen >= 3, "{days_seen} days readable at 1000x700");

    let day = h.get_by_label("Day").rect();
    let fuel = h.get_by_label("Fuel (L)").rect();
    // The wheel sideways over the figures (a trackpad's swipe).
    let over = fuel.center() + egui::vec2(0.0, 3.0 * fuel.height());
    h.hover_at(over);
    for _ in 0..6 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(-120.0, 0.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        h.run_steps(4);
    }
    assert!(
        h.get_by_label("Fuel (L)").rect().left() < fuel.left() - 50.0,
        "the figures scrolled sideways"
    );
    assert_eq!(h.get_by_label("Day").rect(), day, "the Day column stays");

    if let Some(def) = history
        .daily_usages
        .rows
        .iter()
        .find_map(|r| r.def_remaining_ratio.clone())
    {
        let tank = format!("{} {}", def.tank_capacity.round(), def.tank_capacity_unit);
        assert!(h.query_all_by_label(&tank).next().is_some(), "{tank} apart");
        assert!(
            h.query_all_by_label_contains(&format!(" of {}", def.tank_capacity))
                .next()
                .is_none()
        );
    }
}

/// Item 11: started while the service is down, the app never says
/// "online" (it did until the cache was shown), names the last machine in
/// its recent chip (it read "1002"), and shows the integrations as last
/// read, marked offline (it emptied the list to "0 integrations").
#[test]
fn an_offline_start_says_so_and_keeps_names_and_integrations() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let sb = rt.block_on(common::start_with(
        common::fixed_config().data_dir(dir.path().join("service")),
    ));
    let options = {
        let (base, token) = (sb.base.clone(), sb.token.clone());
        let cache = dir.path().join("cache.sqlite");
        move || AppOptions {
            cache_path: Some(cache.clone()),
            ..on_service(&base, &token)
        }
    };
    let mut h = harness(options());
    wait_until(&mut h, "the fleet", fleet_of(60));
    let name = common::ui::equipment_name(h.state(), 1002);
    common::ui::pick(&h, &name);
    wait_until(&mut h, "the tables", tables_loaded);
    h.get_by_label("Integrations").click();
    wait_until(&mut h, "the integrations", |app| {
        let c = &app.state().catalog();
        c.integrations.value().is_some() && !c.integrations.is_pending()
    });
    let integrations = h
        .state()
        .state()
        .catalog()
        .integrations
        .value()
        .map(Vec::len);
    let settings = h.state().state().settings();
    drop(h);
    rt.block_on(sb.running.shutdown());

    let mut h = harness(AppOptions {
        settings: Some(settings),
        ..options()
    });
    let chip = name
        .split_whitespace()
        .next()
        .expect("a short name")
        .to_owned();
    // The app reopens the page left: the integrations.
    h.step();
    assert_eq!(h.state().state().tab(), fleetview::app::Tab::Catalog);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        h.step();
        assert!(
            h.query_by_label("online").is_none(),
            "never online: {:?} {:?}",
            h.state().state().connection().status,
            h.state().state().offline()
        );
        assert!(h.query_by_label(&chip).is_some(), "the chip reads {chip}");
        let c = h.state().state().catalog();
        if c.cached_at.is_some() && h.state().state().offline().is_some() {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "never shown offline");
    }
    h.run_steps(3);
    h.get_by_label("offline");
    assert_eq!(
        h.state()
            .state()
            .catalog()
            .integrations
            .value()
            .map(Vec::len),
        integrations,
        "the list as last read"
    );
    h.get_by_label_contains("offline, the list as last read at");
}

/// Item 14: at 1000x700 every integration's buttons are inside the window
/// (Deactivate and Delete were cut off).
#[test]
fn the_integrations_buttons_are_reachable_at_1000x700() {
    let mut h = small_harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    h.get_by_label("Integrations").click();
    wait_until(&mut h, "the integrations", |app| {
        let c = app.state().catalog();
        c.integrations.value().is_some_and(|l| !l.is_empty()) && !c.integrations.is_pending()
    });
    h.run_steps(3);
    let screen = h.ctx.content_rect();
    let mut seen = 0;
    for label in ["Activate", "Deactivate", "Delete"] {
        for b in h.get_all_by_label(label) {
            let r = b.rect();
            assert!(
                screen.contains_rect(r),
                "{label} at {r:?} is inside {screen:?}"
            );
            seen += 1;
        }
    }
    let rows = h
        .state()
        .state()
        .catalog()
        .integrations
        .value()
        .map_or(0, Vec::len);
    assert!(
        seen >= 3 * rows.min(3),
        "{seen} buttons for {rows} integrations"
    );
}

/// Every character of every label shown has a glyph in the app's fonts.
fn assert_every_glyph(h: &Harness<'static, FleetApp>, screen: &str) {
    let labels: Vec<String> = h
        .query_all(
            egui_kittest::kittest::By::new()
                .include_labels()
                .predicate(|n| n.label().is_some()),
        )
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    assert!(!labels.is_empty(), "{screen}: labels to check");
    let font = egui::FontId::proportional(14.0);
    let missing: Vec<&String> = h.ctx.fonts_mut(|f| {
        labels
            .iter()
            .filter(|l| !f.has_glyphs(&font, l.as_str()))
            .collect()
    });
    assert!(
        missing.is_empty(),
        "{screen}: glyphs missing in {missing:?}"
    );
}

/// Item 16: no missing glyph (the date pickers showed a box), sort arrows
/// that are arrows and do not wrap the header, and local time that says
/// which zone, the window's days staying UTC days.
#[test]
fn labels_read_well_sorted_dated_and_zoned() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    // A machine with faults in the last 7 days.
    let base = h.state().state().connection().base_url.clone();
    let week = fleetview::app::Preset::Last7Days.window(common::now(), (0, 0));
    let id = (1001..1031)
        .find(|id| {
            common::ui::service_body(&base, *id, "faults", week)["data"]["total"]
                .as_u64()
                .is_some_and(|n| n > 1)
        })
        .expect("a machine with faults");
    let name = common::ui::equipment_name(h.state(), id);
    common::ui::pick(&h, &name);
    h.step();
    h.get_by_label("Last 7 days").click();
    wait_until(&mut h, "a week's tables", |app| {
        tables_loaded(app) && app.state().faults().value().is_some_and(|f| !f.is_empty())
    });
    // Sorted by severity: the header is one line with an arrow.
    let plain = h.get_by_label("Severity").rect();
    h.get_by_label("Severity").click();
    h.run_steps(3);
    let sorted = h
        .query_all(egui_kittest::kittest::By::new().label_contains("Severity"))
        .find(|n| n.accesskit_node().role() == Role::Button)
        .expect("the sorted header");
    let label = sorted.accesskit_node().label().unwrap_or_default();
    assert!(
        label.ends_with('⏶') || label.ends_with('⏷'),
        "an arrow: {label}"
    );
    assert!(sorted.rect().height() <= plain.height() + 0.5, "one line");
    assert_every_glyph(&h, "faults sorted");
    h.get_by_label("Custom").click();
    h.run_steps(3);
    assert_every_glyph(&h, "custom window");
    wait_until(&mut h, "the custom window's tables", |app| {
        tables_loaded(app) && !app.state().faults().is_pending()
    });
    h.get_by_label("This computer's time").click();
    h.run_steps(3);
    let zone = fleetview::ui::format::zone_label(true);
    assert!(zone.contains("UTC"), "the zone's offset: {zone}");
    h.get_by_label_contains(&format!("times below in {zone}"));
    h.get_by_label_contains("days are UTC days");
    for tab in ["Activities", "Daily history"] {
        h.get_all_by_label(tab).next().expect("the tab").click();
        h.run_steps(3);
        assert_every_glyph(&h, tab);
    }
    h.get_by_label("Integrations").click();
    h.run_steps(3);
    assert_every_glyph(&h, "integrations");
}

/// Item 16: the activities' last column ends inside the window (it was
/// clipped by the pane's edge); at 1000x700, where not every column fits at
/// its least, the table scrolls sideways to it.
#[test]
fn the_activities_last_column_fits_or_scrolls_into_view() {
    for small in [false, true] {
        let mut h = if small {
            small_harness(embedded())
        } else {
            harness(embedded())
        };
        wait_until(&mut h, "the fleet", fleet_of(60));
        let name = common::ui::equipment_name(h.state(), 1003);
        common::ui::pick(&h, &name);
        h.step();
        h.get_by_label("Last 7 days").click();
        wait_until(&mut h, "the tables", tables_loaded);
        h.get_all_by_label("Activities")
            .next()
            .expect("the tab")
            .click();
        h.run_steps(3);
        assert!(
            h.state()
                .state()
                .activities()
                .value()
                .is_some_and(|a| !a.is_empty()),
            "activities to show"
        );
        let screen = h.ctx.content_rect();
        if small {
            // The table's header (the map names its Start label too).
            let start = h
                .get_all_by_label("Start")
                .map(|n| n.rect())
                .max_by(|a, b| a.top().total_cmp(&b.top()))
                .expect("the Start header");
            h.hover_at(start.center() + egui::vec2(0.0, 2.0 * start.height()));
            for _ in 0..10 {
                h.event(egui::Event::MouseWheel {
                    unit: egui::MouseWheelUnit::Point,
                    delta: egui::vec2(-120.0, 0.0),
                    phase: egui::TouchPhase::Move,
                    source: egui::MouseWheelSource::Unknown,
                    modifiers: egui::Modifiers::NONE,
                });
                h.run_steps(4);
            }
        }
        let to = h.get_by_label("To").rect();
        assert!(
            to.right() <= screen.right() && to.left() >= 0.0,
            "small {small}: the last column's header {to:?} inside {screen:?}"
        );
    }
}

/// Item 7, found by a flaky test: saving a profile stores its token in the
/// background, and the note saying where it went appeared above the
/// editor, moving *Save and connect* down a line just as the user went
/// for it (the click then hit nothing). Lines that arrive later appear
/// below the buttons; a new profile has its row in the list while edited,
/// so saving it (which added the row above the form) moves nothing either.
#[test]
fn the_token_note_moves_no_button() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let service = rt.block_on(common::start_with(common::fixed_config().fleet_size(25)));
    let mut h = harness(embedded());
    wait_until(&mut h, "the embedded fleet", fleet_of(60));
    new_profile(&mut h, "Test service", &service.base, Some(&service.token));
    h.run_steps(2);
    let before = h.get_by_label("Save and connect").rect();
    h.get_by_label("Save").click();
    // The profile saved takes the row it had while edited.
    h.run_steps(2);
    assert_eq!(
        h.get_by_label("Save and connect").rect(),
        before,
        "saving moves no button"
    );
    wait_until(&mut h, "the token stored", |app| {
        app.state().conn().token_note.is_some()
    });
    h.get_by_label_contains("the access token is kept");
    assert_eq!(
        h.get_by_label("Save and connect").rect(),
        before,
        "the button stays where it was"
    );
}

/// Item 7, found under Xvfb: the first machine picked added "Recently
/// viewed" above the list, moving every row down under the mouse (a quick
/// second click opened the machine below). The list stays put.
#[test]
fn picking_a_machine_moves_no_row_of_the_list() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    let first = common::ui::equipment_name(h.state(), 1003);
    let second = common::ui::equipment_name(h.state(), 1004);
    let row = common::ui::in_list(&h, &second).rect();
    common::ui::pick(&h, &first);
    h.run_steps(3);
    assert_eq!(h.state().state().selected(), Some(1003));
    h.get_by_label("Recently viewed");
    assert_eq!(
        common::ui::in_list(&h, &second).rect(),
        row,
        "the rows stay put"
    );
}

/// Found under Xvfb: while a window loads, the status bar's fetches ran
/// under the service's address at its right end. At 1000x700, with every
/// answer slowed so the fetches show, the two never overlap.
#[test]
fn the_status_bar_never_draws_over_the_address() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let chaos =
        fleetview_sandbox::chaos::ChaosConfig::parse("latency_ms=400,latency=1").expect("spec");
    let sb = rt.block_on(common::start_with(common::fixed_config().chaos(chaos)));
    let options = on_service(&sb.base, &sb.token);
    let mut h = small_harness(options);
    wait_until(&mut h, "the fleet", fleet_of(60));
    let name = common::ui::equipment_name(h.state(), 1003);
    common::ui::pick(&h, &name);
    h.run_steps(3);
    let busy: Vec<egui::Rect> = h
        .query_all(egui_kittest::kittest::By::new().label_contains("Fetching "))
        .map(|n| n.rect())
        .collect();
    assert!(!busy.is_empty(), "the fetches are shown");
    let address = h
        .get_all_by_label(sb.base.trim_end_matches('/'))
        .chain(h.get_all_by_label(&sb.base))
        .last()
        .expect("the address in the status bar")
        .rect();
    for rect in busy {
        assert!(
            rect.right() <= address.left(),
            "{rect:?} runs into the address at {address:?}"
        );
    }
}

/// Found under Xvfb: clicking a recently viewed machine moved its chip to
/// the front, putting another machine's chip under the pointer (a second
/// click opened that one). A machine seen again keeps its place.
#[test]
fn a_recently_viewed_chip_stays_under_the_pointer() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the fleet", fleet_of(60));
    for id in [1003, 1004, 1005] {
        let name = common::ui::equipment_name(h.state(), id);
        common::ui::pick(&h, &name);
        h.run_steps(2);
    }
    // A chip is the button named by the first word of its machine's name.
    let chip_name = |h: &Harness<'static, FleetApp>, id: i64| {
        let name = common::ui::equipment_name(h.state(), id);
        name.split_whitespace()
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let chip = |h: &Harness<'static, FleetApp>, id: i64| {
        h.get_by_role_and_label(Role::Button, &chip_name(h, id))
            .rect()
    };
    let before = chip(&h, 1003);
    let other = chip(&h, 1004);
    h.get_by_role_and_label(Role::Button, &chip_name(&h, 1003))
        .click();
    h.run_steps(3);
    assert_eq!(h.state().state().selected(), Some(1003));
    assert_eq!(chip(&h, 1003), before, "the chip clicked stays put");
    assert_eq!(chip(&h, 1004), other, "and so do the others");
}

/// Found under Xvfb: a new profile with no name and no address could be
/// saved (a blank row in the list). Its buttons wait for both, and say so.
#[test]
fn a_profile_needs_a_name_and_an_address() {
    let mut h = harness(embedded());
    wait_until(&mut h, "the embedded fleet", fleet_of(60));
    h.get_by_label("Connections").click();
    h.run_steps(4);
    h.get_by_label("New profile").click();
    h.run_steps(2);
    for button in ["Save", "Save and connect", "Test connection"] {
        assert!(
            h.get_by_label(button).accesskit_node().is_disabled(),
            "{button} waits for a name and an address"
        );
    }
    h.get_by_label("Save").click();
    h.run_steps(2);
    assert!(h.state().state().profiles().is_empty(), "nothing saved");
    // An address and a key's name are enough to test, not to save.
    common::ui::type_into(&mut h, Role::TextInput, "Service URL", "http://127.0.0.1:9");
    common::ui::type_into(&mut h, Role::TextInput, "API key name", "laptop");
    h.run_steps(2);
    assert!(
        !h.get_by_label("Test connection")
            .accesskit_node()
            .is_disabled()
    );
    assert!(h.get_by_label("Save").accesskit_node().is_disabled());
    common::ui::type_into(&mut h, Role::TextInput, "Name", "Other");
    h.run_steps(2);
    assert!(!h.get_by_label("Save").accesskit_node().is_disabled());
    h.get_by_label("Save").click();
    h.run_steps(2);
    assert_eq!(h.state().state().profiles().len(), 1);
}

/// Found under Xvfb: the discovery's progress bar was put above the search
/// field while the fleet loaded, and taken away after, so the field and the
/// list jumped twice. The progress has a line of its own.
#[test]
fn the_equipment_panel_stays_put_while_the_fleet_loads() {
    use fleetview_sandbox::chaos::ChaosConfig;
    // A slow service, so the discovery is seen under way.
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let slow = ChaosConfig {
        latency_ms: 400,
        latency_rate: 1.0,
        ..ChaosConfig::default()
    };
    let service = rt.block_on(common::start_with(
        common::fixed_config().fleet_size(25).chaos(slow),
    ));
    let mut h = harness(on_service(&service.base, &service.token));
    h.run_steps(2);
    assert!(h.state().state().fleet().loading, "still discovering");
    let while_loading = h.get_by_label("Search").rect();
    wait_until(&mut h, "the service's fleet", fleet_of(25));
    assert_eq!(h.get_by_label("Search").rect(), while_loading);
    drop(service);
}
