//! A day without a restart, shortened (`cargo bench --bench soak -- --warmup-mins 5
//! --mins 20`): the real app (`FleetApp::new` on its embedded sandbox, the
//! computer's clock, a cache file and online map tiles as a desktop install
//! has them) driven through egui_kittest as the e2e bench drives it
//! (`../e2e/driver.rs`), over and over: machines one after another, each
//! over a window preset (today, yesterday, 7 days, 30 days, this month, a
//! custom year), its tabs, Refresh, the Integrations page, the Connections
//! window, Reload fleet, and the Fleet page.
//!
//! The bench starts itself again with the app's malloc settings, as the
//! app's binary does (`shell::with_malloc_settings`).
//!
//! Every minute it prints the live heap (counted by the global allocator
//! below, over jemalloc as in the app's binary) and the resident set (`/proc/self/status`). The growth is
//! measured at the end of a cycle, where the app is always in the same
//! state (the same reference machine and window loaded, the Fleet page
//! shown, the worker at rest): from the first such point after the
//! warm-up to the last. Goal: under 5 % for the heap and for the resident
//! set. Without arguments it runs a 1-minute warm-up and 1 minute, so that
//! `cargo bench` stays short; the goal is stated for 5 and 20.
//!
//! Ends with `N passed, M failed`.
#![allow(clippy::print_stdout)] // The report is the output.

#[path = "../e2e/driver.rs"]
#[allow(dead_code)] // Shared with the e2e bench, which uses all of it.
mod driver;

use std::time::{Duration, Instant};

use cap::Cap;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

use driver::{Driver, complete, settled};
use fleetview::app::{AppState, Connection, Preset, Settings, Tab};
use fleetview::shell::{AppOptions, FleetApp};
use fleetview_api::time::{SECS_PER_DAY, now_secs};
use fleetview_testkit::goals::Goals;

#[global_allocator]
static ALLOC: Cap<tikv_jemallocator::Jemalloc> = Cap::new(tikv_jemallocator::Jemalloc, usize::MAX);

/// Growth allowed after the warm-up, in percent.
const GOAL_PERCENT: f64 = 5.0;

/// The window presets cycled through, by their button's label (Custom is
/// the year before today, set in the settings the app starts from).
const PRESETS: [&str; 6] = [
    "Last 7 days",
    "Last 30 days",
    "Custom",
    "Yesterday",
    "This month",
    "Today",
];

/// The machine page's tables, by their tab's label.
const TABLES: [&str; 4] = ["Faults", "Activities", "Daily history", "Events"];

/// How long a page may take to load (a cold year on a busy machine).
const LOAD_LIMIT: Duration = Duration::from_secs(120);

struct Args {
    warmup: Duration,
    run: Duration,
}

/// `--warmup-mins X --mins Y` (fractions allowed); cargo's own `--bench`
/// and anything else are ignored.
fn args() -> Args {
    let mut a = Args {
        warmup: Duration::from_secs(60),
        run: Duration::from_secs(60),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let slot = match arg.as_str() {
            "--warmup-mins" => &mut a.warmup,
            "--mins" => &mut a.run,
            _ => continue,
        };
        let mins: f64 = it
            .next()
            .and_then(|v| v.parse().ok())
            .filter(|m: &f64| m.is_finite() && *m >= 0.0)
            .unwrap_or_else(|| panic!("{arg} takes a number of minutes"));
        *slot = Duration::from_secs_f64(mins * 60.0);
    }
    a
}

/// The resident set, from `/proc/self/status` (0 where there is none).
fn rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

fn mb(bytes: f64) -> String {
    format!("{:.1} MB", bytes / 1e6)
}

fn growth_percent(from: f64, to: f64) -> f64 {
    (to - from) / from.max(1.0) * 100.0
}

/// The heap and the resident set at the end of a cycle.
#[derive(Debug, Clone, Copy)]
struct Sample {
    heap: usize,
    rss: u64,
}

impl Sample {
    fn now() -> Self {
        Self {
            heap: ALLOC.allocated(),
            rss: rss_bytes(),
        }
    }
}

struct Soak {
    d: Driver,
    /// The machines listed (id, name), in the list's order.
    machines: Vec<(i64, String)>,
    cycles: usize,
    actions: u64,
}

impl Soak {
    /// A frame, the costs the driver keeps dropped (a day of them would
    /// be the harness's own growth).
    fn frames(&mut self, n: usize) {
        for _ in 0..n {
            self.d.frame();
        }
        self.d.take_costs();
    }

    fn click(&mut self, label: &str) {
        self.d.h.get_by_label(label).click();
        self.actions += 1;
        self.frames(3);
    }

    fn click_button(&mut self, label: &str) {
        self.d.h.get_by_role_and_label(Role::Button, label).click();
        self.actions += 1;
        self.frames(3);
    }

    /// Every panel of machine `id` over the window shown loaded.
    fn wait_complete(&mut self, id: i64) {
        self.d
            .until_for("the page complete", LOAD_LIMIT, |app: &FleetApp| {
                app.state().window().is_some_and(|w| complete(app, id, w))
            });
        self.d.take_costs();
    }

    /// Types `text` over what the equipment list's search holds (empty:
    /// the search cleared).
    fn search(&mut self, text: &str) {
        self.d
            .h
            .get_by_role_and_label(Role::TextInput, "Search")
            .focus();
        self.frames(1);
        self.d
            .h
            .key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        self.frames(1);
        if text.is_empty() {
            self.d.h.key_press(egui::Key::Backspace);
        } else {
            self.d
                .h
                .get_by_role_and_label(Role::TextInput, "Search")
                .type_text(text);
        }
        self.actions += 1;
        self.frames(2);
    }

    /// Opens machine `id` as a person finds one in a long list: its code
    /// typed in the search, its row clicked, the search cleared.
    fn open(&mut self, id: i64, name: &str, preset: &str) {
        let code = name.split_whitespace().next().unwrap_or(name).to_owned();
        self.search(&code);
        self.d.click_machine(name);
        self.actions += 1;
        self.frames(2);
        self.search("");
        self.click(preset);
        self.wait_complete(id);
    }

    /// One cycle: a machine over a preset, its tables, now and then
    /// Refresh, the other pages and windows; then the reference page.
    fn cycle(&mut self) -> Sample {
        let n = self.cycles;
        let (id, name) = self.machines[(n * 7) % self.machines.len()].clone();
        // Each machine comes back with another preset.
        let preset = PRESETS[(n + n / self.machines.len()) % PRESETS.len()];
        self.open(id, &name, preset);
        for table in TABLES {
            self.click(table);
        }
        if n.is_multiple_of(3) {
            self.click_button("Refresh");
            self.wait_complete(id);
        }
        if n.is_multiple_of(5) {
            self.click("Integrations");
            self.d
                .until_for("the catalog", LOAD_LIMIT, |app| app.tasks_in_flight() == 0);
            self.click("Machine history");
        }
        if n.is_multiple_of(7) {
            self.click_button("Connections");
            self.click_button("Connections");
        }
        self.reference(n.is_multiple_of(11))
    }

    /// The state every cycle ends in: the first machine over 7 days, then
    /// the Fleet page (its list loaded again if `reload`), the worker at
    /// rest.
    fn reference(&mut self, reload: bool) -> Sample {
        let (id, name) = self.machines[0].clone();
        self.open(id, &name, "Last 7 days");
        self.click("Fleet");
        if reload {
            self.click_button("Reload fleet");
        }
        self.d.until_for("the fleet settled", LOAD_LIMIT, settled);
        self.d.until_idle();
        self.frames(5);
        self.cycles += 1;
        Sample::now()
    }
}

/// What a person left: the window presets with a custom year.
fn settings(now: i64) -> Settings {
    let today = now.div_euclid(SECS_PER_DAY);
    let mut s = AppState::new(Connection::embedded("http://127.0.0.1:0", "demo"), None).settings();
    s.base_url = None;
    s.preset = Preset::Last7Days;
    s.custom_days = (today - 364, today);
    s.tab = Tab::Fleet;
    s
}

fn main() -> std::process::ExitCode {
    // As the app's binary does at start-up.
    fleetview::shell::with_malloc_settings();
    let args = args();
    let dir = tempfile::tempdir().expect("a temporary directory");
    println!(
        "soak: {} cores, the app at 1400x900 on its embedded sandbox, {:.1} min warm-up then {:.1} min",
        std::thread::available_parallelism().map_or(0, usize::from),
        args.warmup.as_secs_f64() / 60.0,
        args.run.as_secs_f64() / 60.0
    );
    let d = Driver::new(AppOptions {
        cache_path: Some(dir.path().join("cache.sqlite")),
        online_tiles: true,
        tile_cache_dir: Some(dir.path().join("tiles")),
        export_dir: Some(dir.path().join("exports")),
        settings: Some(settings(now_secs())),
        ..AppOptions::default()
    });
    let mut soak = Soak {
        d,
        machines: Vec::new(),
        cycles: 0,
        actions: 0,
    };
    soak.d.until_for("the fleet settled", LOAD_LIMIT, settled);
    soak.machines = soak
        .d
        .app()
        .state()
        .fleet()
        .equipments
        .iter()
        .map(|e| (e.id, e.name.clone()))
        .collect();

    let start = Instant::now();
    let end = args.warmup + args.run;
    let mut next_minute = Duration::from_secs(60);
    let mut after_warmup: Option<(Duration, Sample)> = None;
    let mut last = Sample::now();
    println!("minute  phase    cycles  actions  heap now   heap at rest  RSS       textures");
    while start.elapsed() < end {
        last = soak.cycle();
        let at = start.elapsed();
        if after_warmup.is_none() && at >= args.warmup {
            after_warmup = Some((at, last));
        }
        while at >= next_minute {
            println!(
                "{:>6}  {:<7}  {:>6}  {:>7}  {:>9}  {:>12}  {:>8}  {}",
                next_minute.as_secs() / 60,
                if next_minute <= args.warmup {
                    "warm-up"
                } else {
                    "run"
                },
                soak.cycles,
                soak.actions,
                mb(ALLOC.allocated() as f64),
                mb(last.heap as f64),
                mb(last.rss as f64),
                mb(soak.d.texture_bytes() as f64)
            );
            next_minute += Duration::from_secs(60);
        }
    }
    let mut goals = Goals::default();
    let (since, base) = after_warmup.unwrap_or((Duration::ZERO, last));
    let over = (start.elapsed() - since).as_secs_f64() / 60.0;
    for (what, from, to) in [
        ("heap", base.heap as f64, last.heap as f64),
        ("resident set", base.rss as f64, last.rss as f64),
    ] {
        let g = growth_percent(from, to);
        goals.check(
            g < GOAL_PERCENT,
            format!(
                "{what} after warm-up: {} -> {} over {over:.1} min, {} cycles, {} actions: {g:+.1} % (goal < {GOAL_PERCENT} %)",
                mb(from),
                mb(to),
                soak.cycles,
                soak.actions
            ),
        );
    }
    if std::env::var_os("SOAK_STOP").is_some() {
        // For a heap profiler: everything still held at exit (`exit` runs
        // no destructor), the cache removed first.
        if let Err(e) = dir.close() {
            eprintln!("could not remove the cache: {e}");
        }
        std::process::exit(0);
    }
    drop(soak);
    goals.finish()
}
