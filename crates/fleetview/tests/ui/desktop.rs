//! The desktop conventions, driven through the real app on its embedded
//! sandbox (egui_kittest): keyboard shortcuts and their help overlay, the
//! theme, and About with the log folder.

use crate::common;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use common::ui::{pick, wait_until};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fleetview::app::{Preset, Tab, ThemeChoice};
use fleetview::shell::{AppOptions, FleetApp, FolderOpener};
use fleetview::ui::keys::{KeyCommand, SHORTCUTS};

fn app(options: AppOptions) -> Harness<'static, FleetApp> {
    let options = AppOptions {
        clock: Some(common::now()),
        ..options
    };
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .with_step_dt(1.0 / 60.0)
        .build_eframe(move |cc| FleetApp::new(cc, options))
}

fn fleet_loaded(app: &FleetApp) -> bool {
    !app.state().fleet().loading && app.state().fleet().equipments.len() >= 3
}

/// Whether the shortcuts' overlay is open (its first line is shown).
fn help_shown(h: &Harness<'static, FleetApp>) -> bool {
    h.query_all_by_label("Show or hide this list of shortcuts")
        .next()
        .is_some()
}

fn selected(h: &Harness<'static, FleetApp>) -> Option<i64> {
    h.state().state().selected()
}

#[test]
fn the_help_overlay_lists_every_shortcut_the_app_registers() {
    let mut h = app(AppOptions::default());
    wait_until(&mut h, "the fleet", fleet_loaded);
    assert!(!help_shown(&h));

    h.key_press(Key::F1);
    h.run_steps(3);
    let ctx = h.ctx.clone();
    // `?` is written as itself (egui names the key "Questionmark").
    h.get_by_label("?");
    assert!(h.query_by_label("Questionmark").is_none());
    for s in &SHORTCUTS {
        let keys = fleetview::ui::keys::format(&ctx, &s.keys);
        assert!(
            h.query_all_by_label(&keys).next().is_some(),
            "{keys} ({}) is not listed",
            s.what
        );
        assert!(
            h.query_all_by_label(s.what).next().is_some(),
            "{} is not listed",
            s.what
        );
    }
    // Escape closes it; `?` opens it again.
    h.key_press(Key::Escape);
    h.run_steps(3);
    assert!(!help_shown(&h));
    h.key_press(Key::Questionmark);
    h.run_steps(3);
    assert!(help_shown(&h));
}

#[test]
fn shortcuts_move_between_machines_windows_replay_and_tabs() {
    let mut h = app(AppOptions::default());
    wait_until(&mut h, "the fleet", fleet_loaded);
    let ids: Vec<i64> = h
        .state()
        .state()
        .fleet()
        .equipments
        .iter()
        .map(|e| e.id)
        .collect();
    let names: Vec<String> = h
        .state()
        .state()
        .fleet()
        .equipments
        .iter()
        .map(|e| e.name.clone())
        .collect();
    pick(&h, &names[0]);
    h.run_steps(3);
    assert_eq!(selected(&h), Some(ids[0]));

    h.key_press_modifiers(Modifiers::ALT, Key::ArrowDown);
    h.run_steps(3);
    assert_eq!(
        selected(&h),
        Some(ids[1]),
        "Alt+Down: the next machine in the list"
    );
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowDown);
    h.run_steps(3);
    assert_eq!(selected(&h), Some(ids[2]));
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowUp);
    h.run_steps(3);
    assert_eq!(selected(&h), Some(ids[1]), "Alt+Up: back one");
    // Pressed fast (or held), several presses come in one frame: each
    // counts.
    for _ in 0..3 {
        h.key_press_modifiers(Modifiers::ALT, Key::ArrowDown);
    }
    h.run_steps(3);
    assert_eq!(
        selected(&h),
        Some(ids[4]),
        "three presses in a frame: three machines on"
    );
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowUp);
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowUp);
    h.run_steps(3);
    assert_eq!(selected(&h), Some(ids[2]));

    h.key_press(Key::Num4);
    h.run_steps(3);
    assert_eq!(h.state().state().machine().preset, Preset::Last30Days);
    h.key_press(Key::Num1);
    h.run_steps(3);
    assert_eq!(h.state().state().machine().preset, Preset::Today);

    wait_until(&mut h, "the track", |a| {
        a.state()
            .timeline()
            .track
            .value()
            .is_some_and(|t| !t.samples.is_empty())
    });
    let first = h
        .state()
        .state()
        .timeline()
        .track
        .value()
        .map(|t| t.samples[0].time);
    h.key_press(Key::ArrowRight);
    h.run_steps(2);
    assert_eq!(
        h.state().state().timeline().cursor,
        first,
        "→ from no cursor: the first position"
    );
    h.key_press(Key::ArrowRight);
    h.run_steps(2);
    let second = h.state().state().timeline().cursor;
    assert!(
        second > first,
        "→ again: a later position ({second:?} after {first:?})"
    );
    h.key_press(Key::ArrowLeft);
    h.run_steps(2);
    assert_eq!(h.state().state().timeline().cursor, first);

    h.key_press(Key::Space);
    h.run_steps(2);
    assert!(h.state().state().timeline().replay.playing, "Space plays");
    h.key_press(Key::Space);
    h.run_steps(2);
    assert!(!h.state().state().timeline().replay.playing, "and pauses");

    h.key_press(Key::E);
    h.run_steps(3);
    assert_eq!(h.state().state().tab(), Tab::Events);
}

#[test]
fn while_typing_in_search_letters_and_digits_are_text_not_shortcuts() {
    let mut h = app(AppOptions::default());
    wait_until(&mut h, "the fleet", fleet_loaded);
    let before = h.state().state().machine().preset;
    h.key_press_modifiers(Modifiers::COMMAND, Key::F);
    h.run_steps(3);
    h.event(egui::Event::Text("e4".into()));
    h.run_steps(3);
    assert_eq!(
        h.state().state().overview().settings.filters.text,
        "e4",
        "typed into the search"
    );
    assert_eq!(
        h.state().state().machine().preset,
        before,
        "4 was a digit typed, not a window"
    );
    assert_ne!(h.state().state().tab(), Tab::Events);
    // F1 works while typing.
    h.key_press(Key::F1);
    h.run_steps(3);
    assert!(help_shown(&h));
}

#[test]
fn buttons_name_their_shortcut_in_their_tooltip() {
    let mut h = app(AppOptions::default());
    wait_until(&mut h, "the fleet", fleet_loaded);
    let name = h.state().state().fleet().equipments[0].name.clone();
    pick(&h, &name);
    h.run_steps(3);
    let space = h.ctx.format_shortcut(
        &SHORTCUTS
            .iter()
            .find(|s| s.command == KeyCommand::PlayPause)
            .map(|s| s.keys)
            .expect("play"),
    );
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Play")
        .hover();
    h.run_steps(40);
    assert!(
        h.query_by_label_contains(&format!("({space})")).is_some(),
        "the Play button's tooltip names {space}"
    );
}

#[test]
fn the_theme_is_chosen_in_the_menu_and_kept() {
    let mut h = app(AppOptions::default());
    wait_until(&mut h, "the fleet", fleet_loaded);
    assert_eq!(
        h.state().state().theme(),
        ThemeChoice::System,
        "the system's at first"
    );
    for (choice, dark) in [(ThemeChoice::Light, false), (ThemeChoice::Dark, true)] {
        h.get_by_label("fleetview ⏷").click();
        h.run_steps(3);
        h.get_by_label(choice.label()).click();
        h.run_steps(3);
        assert_eq!(h.state().state().theme(), choice);
        assert_eq!(
            h.ctx.global_style().visuals.dark_mode,
            dark,
            "{choice:?} drawn"
        );
        assert_eq!(
            h.state().state().settings().theme,
            choice,
            "kept for the next start"
        );
        h.key_press(Key::Escape);
        h.run_steps(2);
    }
}

/// A folder opener that records what it was asked, failing if told to.
fn recording(fail: bool) -> (FolderOpener, Arc<Mutex<Vec<PathBuf>>>) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = asked.clone();
    let opener = FolderOpener::new(move |path| {
        seen.lock().expect("lock").push(path.to_owned());
        if fail {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no file manager here",
            ))
        } else {
            Ok(())
        }
    });
    (opener, asked)
}

fn open_about(h: &mut Harness<'static, FleetApp>) {
    h.get_by_label("fleetview ⏷").click();
    h.run_steps(3);
    h.get_by_label("About Fleetview").click();
    h.run_steps(3);
}

#[test]
fn about_says_the_version_the_data_licences_and_where_files_live() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (logs, cache, settings) = (
        dir.path().join("logs"),
        dir.path().join("cache.sqlite"),
        dir.path().join("settings"),
    );
    let (opener, asked) = recording(false);
    let mut h = app(AppOptions {
        log_dir: Some(logs.clone()),
        cache_path: Some(cache.clone()),
        settings_dir: Some(settings.clone()),
        folder_opener: opener,
        ..AppOptions::default()
    });
    wait_until(&mut h, "the fleet", fleet_loaded);
    open_about(&mut h);
    h.get_by_label(&format!("Fleetview {}", env!("CARGO_PKG_VERSION")));
    h.get_by_label_contains("Natural Earth, public domain; as packaged by world-atlas");
    h.get_by_label_contains("Online map tiles: © OpenStreetMap contributors");
    h.get_by_label_contains("timezone-boundary-builder");
    h.get_by_label_contains("Open Database Licence 1.0 (ODbL)");
    h.get_by_label_contains("Ubuntu Font Licence 1.0");
    h.get_by_label_contains("SIL Open Font Licence 1.1");
    for path in [&logs, &cache, &settings] {
        h.get_by_label(&path.display().to_string());
    }
    h.get_by_label("Open the log folder").click();
    wait_until(&mut h, "the log folder opened", |_| {
        !asked.lock().expect("lock").is_empty()
    });
    assert_eq!(*asked.lock().expect("lock"), vec![logs]);
    assert!(
        h.state().state().notifications().is_empty(),
        "no error said"
    );
}

#[test]
fn about_opens_the_third_party_licences_of_every_crate_linked() {
    let mut h = app(AppOptions::default());
    wait_until(&mut h, "the fleet", fleet_loaded);
    open_about(&mut h);
    h.get_by_label("Third-party licences…").click();
    h.run_steps(3);
    let notices = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/third-party-notices.txt"
    ))
    .expect("the notices");
    let crates = notices.lines().filter(|l| l.starts_with("  - ")).count();
    assert!(crates > 100, "{crates} crates listed");
    h.get_by_label(&format!(
        "The licences of the {crates} libraries Fleetview is built from."
    ));
    // The first lines are in view, laid out; the rest only when scrolled to.
    h.get_by_label("Third-party licences of Fleetview");
    let last = notices
        .lines()
        .rfind(|l| l.starts_with("  - "))
        .expect("a crate listed");
    assert!(
        h.query_by_label(last).is_none(),
        "only the lines in view are laid out, not {last:?}"
    );
    // Escape closes the window on top, then the one under it.
    h.key_press(Key::Escape);
    h.run_steps(3);
    assert!(
        h.query_by_label("Third-party licences of Fleetview")
            .is_none()
    );
    assert!(
        h.query_by_label("Third-party licences…").is_some(),
        "About stays"
    );
    h.key_press(Key::Escape);
    h.run_steps(3);
    assert!(h.query_by_label("Third-party licences…").is_none());
}

#[test]
fn escape_closes_about_and_shortcuts_wait_while_a_dialog_asks() {
    let mut h = app(AppOptions::default());
    wait_until(&mut h, "the fleet", fleet_loaded);
    open_about(&mut h);
    assert!(h.query_by_label("Open the log folder").is_some());
    h.key_press(Key::Escape);
    h.run_steps(3);
    assert!(
        h.query_by_label("Open the log folder").is_none(),
        "Escape closed About"
    );

    // A confirmation open: its keys are its own.
    h.get_by_label("Integrations").click();
    wait_until(&mut h, "the integrations", |a| {
        a.state()
            .catalog()
            .integrations
            .value()
            .is_some_and(|l| !l.is_empty())
    });
    h.get_all_by_label("Delete")
        .next()
        .expect("a Delete button")
        .click();
    h.run_steps(3);
    h.get_by_label("Delete integration?");
    let preset = h.state().state().machine().preset;
    let key = if preset == Preset::Today {
        Key::Num4
    } else {
        Key::Num1
    };
    h.key_press(key);
    h.run_steps(3);
    assert_eq!(
        h.state().state().machine().preset,
        preset,
        "no window chosen behind the dialog"
    );
    h.key_press(Key::F1);
    h.run_steps(3);
    assert!(!help_shown(&h), "no overlay over the dialog");
}

#[test]
fn a_log_folder_that_cannot_be_opened_is_said() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (opener, _) = recording(true);
    let mut h = app(AppOptions {
        log_dir: Some(dir.path().to_owned()),
        folder_opener: opener,
        ..AppOptions::default()
    });
    wait_until(&mut h, "the fleet", fleet_loaded);
    open_about(&mut h);
    h.get_by_label("Open the log folder").click();
    // The title names the folder.
    let title = format!("The folder {} could not be opened", dir.path().display());
    wait_until(&mut h, "the failure said", |a| {
        a.state().notifications().iter().any(|n| n.title == title)
    });
    let n = h
        .state()
        .state()
        .notifications()
        .iter()
        .find(|n| n.title == title)
        .cloned()
        .expect("notice");
    assert!(n.detail.contains("no file manager here"), "{}", n.detail);
    assert!(
        n.detail.contains(&dir.path().display().to_string()),
        "{}",
        n.detail
    );
}

/// The number in a speed legend's name: `Speed legend, 0 to 92 km/h` ->
/// (92, "km/h").
fn legend_top(h: &Harness<'static, FleetApp>) -> (f64, String) {
    let label = common::ui::node_text(&h.get_by_label_contains("Speed legend, 0 to "));
    let top = label.trim_start_matches("Speed legend, 0 to ");
    let (n, unit) = top
        .split_once(' ')
        .unwrap_or_else(|| panic!("a number and a unit: {label:?}"));
    (n.parse().expect("a number"), unit.to_owned())
}

/// The distance of the activities' summary line, in `unit`.
fn moved(h: &Harness<'static, FleetApp>, unit: &str) -> f64 {
    let text = common::ui::node_text(&h.get_by_label_contains("of movement"));
    let (_, after) = text.split_once(", ").expect("a count, then the distance");
    let (number, rest) = after.split_once(' ').expect("a number");
    assert!(rest.starts_with(&format!("{unit} in ")), "{text}");
    number.parse().expect("a number")
}

#[test]
fn imperial_shows_the_services_kilometres_as_miles_and_the_speed_legend_in_mph() {
    let mut h = app(AppOptions::default());
    wait_until(&mut h, "the fleet", fleet_loaded);
    pick(&h, "RT-003 DAF XF 480 (Manchester)");
    h.step();
    h.get_by_label("Last 7 days").click();
    h.step();
    h.get_by_label("Daily history").click();
    wait_until(&mut h, "the daily history and the track", |a| {
        let s = a.state();
        s.history().value().is_some()
            && s.timeline()
                .track
                .value()
                .is_some_and(|t| !t.samples.is_empty())
    });
    h.run_steps(3);

    // The service's own value of a day, in its unit.
    let (id, w) = {
        let s = h.state().state();
        (
            s.selected().expect("a machine"),
            s.window().expect("a window"),
        )
    };
    let base = h.state().state().connection().base_url.clone();
    let body = common::ui::service_body(&base, id, "history", w);
    let day = body["data"]["dailyUsages"]["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| {
            r["dailyDistance"]["odometer"]
                .as_f64()
                .is_some_and(|v| v > 1.0)
        })
        .cloned()
        .expect("a day with a distance");
    assert_eq!(day["dailyDistance"]["unit"], "km", "the sandbox speaks km");
    let km = day["dailyDistance"]["odometer"].as_f64().expect("km");
    h.get_by_label("Distance (km)");
    assert!(
        h.query_all_by_label(&format!("{km:.2}")).next().is_some(),
        "{km:.2} km shown"
    );
    let (kmh_top, unit) = legend_top(&h);
    assert_eq!(unit, "km/h");
    // The activities' summary: "N activities, X km in ... of movement".
    h.get_by_label("Activities").click();
    h.run_steps(3);
    let moved_km = moved(&h, "km");
    h.get_by_label("Daily history").click();
    h.run_steps(3);

    h.get_by_label("fleetview ⏷").click();
    h.run_steps(3);
    h.get_by_label(fleetview_core::analysis::UnitSystem::Imperial.label())
        .click();
    h.run_steps(4);
    h.key_press(Key::Escape);
    h.run_steps(3);

    h.get_by_label("Distance (mi)");
    assert!(h.query_by_label("Distance (km)").is_none());
    let miles = km / 1.609_344;
    assert!(
        h.query_all_by_label(&format!("{miles:.2}"))
            .next()
            .is_some(),
        "{km} km shown as {miles:.2} mi"
    );
    let (mph_top, unit) = legend_top(&h);
    assert_eq!(unit, "mph");
    h.get_by_label("Activities").click();
    h.run_steps(3);
    let moved_mi = moved(&h, "mi");
    assert!(
        (moved_mi - moved_km / 1.609_344).abs() <= 0.006,
        "{moved_km} km moved shown as {moved_mi} mi"
    );
    // Both rounded to whole numbers from the same top speed.
    assert!(
        (mph_top - kmh_top / 1.609_344).abs() <= 1.0,
        "{kmh_top} km/h is about {} mph, not {mph_top}",
        kmh_top / 1.609_344
    );
    assert_eq!(
        h.state().state().settings().units,
        fleetview_core::analysis::UnitSystem::Imperial,
        "kept for the next start"
    );
}
