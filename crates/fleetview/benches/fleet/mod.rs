//! The Fleet page's frames: synthetic fleets spread over Europe (most
//! machines at dense sites, the rest scattered), and a bench that draws a
//! part of the page frame after frame. Each goal line names the fleet.

use std::hint::black_box;
use std::time::{Duration, Instant};

use egui::{Event, PointerButton, Pos2, RawInput, Rect, pos2, vec2};

use fleetview::app::{Action, AppState, Connection};
use fleetview::ui::overview::{OverviewView, fleet_map_ui, table_ui};
use fleetview_api::equipment::{EquipmentSnapshot, SnapPercent, SnapPosition};
use fleetview_api::model::EquipmentSummary;
use fleetview_api::{TimeWindow, Timestamp};
use fleetview_core::analysis::{FaultTally, MachineFigures};
use fleetview_core::worker::FleetSource;

use fleetview_testkit::goals::{Goals, best_of};

/// The screen the page is drawn on.
const SCREEN: (f32, f32) = (1920.0, 1080.0);
/// "Now" for the fleets' reports: 2025-06-18 15:30 UTC.
const NOW: i64 = 1_750_260_600;

/// Job sites: where most machines gather.
const SITES: [(&str, f64, f64); 24] = [
    ("Rotterdam", 51.948, 4.14),
    ("Hamburg", 53.532, 9.9),
    ("Lyon", 45.73, 4.83),
    ("Madrid", 40.37, -3.615),
    ("Manchester", 53.469, -2.32),
    ("Milan", 45.46, 9.19),
    ("Warsaw", 52.23, 21.01),
    ("Munich", 48.14, 11.58),
    ("Paris", 48.86, 2.35),
    ("Barcelona", 41.39, 2.17),
    ("Vienna", 48.21, 16.37),
    ("Prague", 50.08, 14.44),
    ("Copenhagen", 55.68, 12.57),
    ("Stockholm", 59.33, 18.07),
    ("Lisbon", 38.72, -9.14),
    ("Antwerp", 51.22, 4.4),
    ("Leeds", 53.8, -1.55),
    ("Toulouse", 43.6, 1.44),
    ("Seville", 37.39, -5.98),
    ("Rome", 41.9, 12.5),
    ("Budapest", 47.5, 19.04),
    ("Berlin", 52.52, 13.4),
    ("Oslo", 59.91, 10.75),
    ("Dublin", 53.35, -6.26),
];

const CATEGORIES: [&str; 8] = [
    "Excavator",
    "Wheel loader",
    "Dump truck",
    "Telehandler",
    "Crane",
    "Generator",
    "Compact excavator",
    "Road truck",
];

/// A deterministic stream of numbers in 0..1.
struct Rand(u64);

impl Rand {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The app's state with a fleet of `n` machines, their snapshots and
/// figures read: four in five at the sites (within a few hundred metres),
/// the rest scattered from Portugal to Poland; reports from minutes to
/// days old; one in ten with faults in the window.
pub fn fleet_state(n: usize) -> AppState {
    let mut state = AppState::new(
        Connection::embedded("http://127.0.0.1:0", "demo"),
        Some(NOW),
    );
    let mut rand = Rand(0x9E37_79B9_7F4A_7C15);
    let mut equipments = Vec::with_capacity(n);
    let mut snapshots = Vec::with_capacity(n);
    for i in 0..n {
        let id = 1000 + i as i64;
        let category = CATEGORIES[i % CATEGORIES.len()];
        let (site, lat, lon) = if i % 5 == 4 {
            let k = (rand.next() * SITES.len() as f64) as usize % SITES.len();
            (
                SITES[k].0,
                37.0 + 17.0 * rand.next(),
                -9.0 + 32.0 * rand.next(),
            )
        } else {
            let (name, lat, lon) = SITES[i % SITES.len()];
            (
                name,
                lat + 0.008 * (rand.next() - 0.5),
                lon + 0.012 * (rand.next() - 0.5),
            )
        };
        equipments.push(EquipmentSummary {
            id,
            name: format!("M-{i:05} Volvo EC220E ({site})"),
            make: "Volvo".into(),
            model: "EC220E".into(),
            serial_number: format!("SN{id}"),
            category: Some(category.into()),
            year: Some(2022),
            entreprise: Some(format!("{site} Works")),
        });
        let last = NOW - (rand.next() * rand.next() * 3.0 * 86_400.0) as i64;
        snapshots.push(EquipmentSnapshot {
            id,
            last_position: Some(SnapPosition {
                date: Some(Timestamp::from_secs(last)),
                latitude: Some(lat),
                longitude: Some(lon),
            }),
            fuel_remaining: Some(SnapPercent {
                date: Some(Timestamp::from_secs(last)),
                percent: Some(100.0 * rand.next()),
            }),
            ..Default::default()
        });
    }
    let total = n as i64;
    state
        .fleet_mut()
        .on_page(equipments, (total, total), true, FleetSource::List);
    state
        .overview_mut()
        .on_snapshot_page(snapshots, (total, total), true);
    let window = TimeWindow {
        since: NOW - 7 * 86_400,
        until: NOW,
    };
    let _ = state.overview_mut().set_window(window);
    for i in (0..n).step_by(10) {
        let figures = MachineFigures {
            faults: FaultTally {
                count: 1 + i % 3,
                worst_severity: Some(1),
                worst_label: Some("warning".into()),
            },
            ..MachineFigures::default()
        };
        state
            .overview_mut()
            .on_figures(1000 + i as i64, window, figures);
    }
    state.refresh_overview_rows(NOW);
    state
}

/// What a bench draws of the page, inside a central panel.
pub type Part = fn(&mut egui::Ui, &AppState, &mut OverviewView, &mut Vec<Action>);

/// The fleet map alone.
pub fn map_part(ui: &mut egui::Ui, state: &AppState, view: &mut OverviewView, a: &mut Vec<Action>) {
    fleet_map_ui(ui, state, &mut view.map, a);
}

/// The fleet table alone.
pub fn table_part(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut OverviewView,
    a: &mut Vec<Action>,
) {
    table_ui(ui, state, &mut view.table, a);
}

/// Frames of a part of the Fleet page over one state.
pub struct PageBench {
    ctx: egui::Context,
    state: AppState,
    view: OverviewView,
    frames: u64,
}

fn input(events: Vec<Event>) -> RawInput {
    RawInput {
        screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(SCREEN.0, SCREEN.1))),
        events,
        ..RawInput::default()
    }
}

impl PageBench {
    pub fn new(state: AppState) -> Self {
        Self {
            ctx: egui::Context::default(),
            state,
            view: OverviewView::default(),
            frames: 0,
        }
    }

    pub fn view(&self) -> &OverviewView {
        &self.view
    }

    pub fn view_mut(&mut self) -> &mut OverviewView {
        &mut self.view
    }

    /// One frame with these input events.
    pub fn frame(&mut self, part: Part, events: Vec<Event>) {
        self.frames += 1;
        let (state, view) = (&self.state, &mut self.view);
        let output = self.ctx.run_ui(input(events), |ui| {
            egui::CentralPanel::default().show(ui, |ui| {
                let mut actions = Vec::new();
                part(ui, state, view, &mut actions);
                black_box(actions);
            });
        });
        black_box(self.ctx.tessellate(output.shapes, output.pixels_per_point));
    }

    /// The pointer held down on the map at `from`, then dragged back and
    /// forth by up to 60 points a frame: the view pans every frame.
    fn pan_events(&self, from: Pos2) -> Vec<Event> {
        let k = self.frames;
        let dx = ((k % 40) as f32 - 20.0).abs() * 3.0;
        let at = from + vec2(dx, dx / 3.0);
        let mut events = vec![Event::PointerMoved(at)];
        if k == 0 {
            events.push(Event::PointerButton {
                pos: at,
                button: PointerButton::Primary,
                pressed: true,
                modifiers: egui::Modifiers::default(),
            });
        }
        events
    }

    /// The best frame time of `part` while the wheel scrolls it down and
    /// up again by turns (a few rows a frame), after `warm` of frames.
    pub fn time_scrolling(&mut self, part: Part, warm: Duration) -> Duration {
        let at = pos2(SCREEN.0 * 0.5, SCREEN.1 * 0.5);
        let wheel = |frames: u64| {
            let down = (frames / 30).is_multiple_of(2);
            vec![
                Event::PointerMoved(at),
                Event::MouseWheel {
                    unit: egui::MouseWheelUnit::Point,
                    delta: vec2(0.0, if down { -66.0 } else { 66.0 }),
                    phase: egui::TouchPhase::Move,
                    source: egui::MouseWheelSource::Unknown,
                    modifiers: egui::Modifiers::default(),
                },
            ]
        };
        let start = Instant::now();
        while start.elapsed() < warm {
            let events = wheel(self.frames);
            self.frame(part, events);
        }
        best_of(Duration::from_millis(1500), || {
            let events = wheel(self.frames);
            self.frame(part, events);
        })
    }

    /// The best frame time of `part` while panning, after `warm` of
    /// frames (layout, fonts, the offline basemap's tiles).
    pub fn time_panning(&mut self, part: Part, warm: Duration) -> Duration {
        let from = pos2(SCREEN.0 * 0.4, SCREEN.1 * 0.5);
        let start = Instant::now();
        while start.elapsed() < warm {
            let events = self.pan_events(from);
            self.frame(part, events);
            std::thread::sleep(Duration::from_millis(2));
        }
        best_of(Duration::from_millis(1500), || {
            let events = self.pan_events(from);
            self.frame(part, events);
        })
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

pub fn goals(goals: &mut Goals) {
    let warm = Duration::from_secs(3);
    let mut small = PageBench::new(fleet_state(100));
    let t_small = small.time_panning(map_part, warm);
    let t = Instant::now();
    let big_state = fleet_state(10_000);
    println!(
        "built a fleet of 10,000 machines with snapshots and rows in {:.0} ms",
        ms(t.elapsed())
    );
    let mut big = PageBench::new(big_state);
    let t_big = big.time_panning(map_part, warm);
    for (n, bench, t) in [(100, &small, t_small), (10_000, &big, t_big)] {
        let m = bench.view().map.markers();
        println!(
            "  fleet of {n}: {:.3} ms a frame, {} markers in view standing for {} machines, zoom {:.1}",
            ms(t),
            m.len(),
            m.iter().map(|m| m.count as usize).sum::<usize>(),
            bench.view().map.zoom()
        );
    }
    goals.check(
        t_big.as_secs_f64() <= 2.0 * t_small.as_secs_f64(),
        format!(
            "fleet map frame with 10,000 machines {:.3} ms <= 2x with 100 {:.3} ms ({:.2}x)",
            ms(t_big),
            ms(t_small),
            t_big.as_secs_f64() / t_small.as_secs_f64()
        ),
    );
    // The table: virtualised rows, so 10,000 cost what 100 do.
    let warm_table = Duration::from_millis(800);
    let mut small_table = PageBench::new(fleet_state(100));
    let t_small_table = small_table.time_scrolling(table_part, warm_table);
    let mut big_table = PageBench::new(fleet_state(10_000));
    let t_big_table = big_table.time_scrolling(table_part, warm_table);
    goals.check(
        t_big_table.as_secs_f64() <= 1.5 * t_small_table.as_secs_f64(),
        format!(
            "fleet table frame with 10,000 rows {:.3} ms <= 1.5x with 100 rows {:.3} ms ({:.2}x)",
            ms(t_big_table),
            ms(t_small_table),
            t_big_table.as_secs_f64() / t_small_table.as_secs_f64()
        ),
    );
    // Each frame at another quarter zoom level (in and out by turns, so
    // the view stays over the fleet): clustered afresh every frame.
    let base = big.view().map.zoom();
    let mut k = 0u32;
    let zooming = best_of(Duration::from_millis(1500), || {
        k += 1;
        let step = f64::from(k % 8).min(f64::from(8 - k % 8));
        big.view_mut().map.zoom_to(base + 0.25 * step + 0.01);
        big.frame(map_part, Vec::new());
    });
    goals.check(
        zooming <= Duration::from_millis(16),
        format!(
            "fleet map frame clustering 10,000 machines afresh (zooming) {:.2} ms <= 16 ms",
            ms(zooming)
        ),
    );
}
