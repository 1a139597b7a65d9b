//! The real app as the shell builds it, driven as eframe drives it: a frame
//! when input arrives or a repaint is asked for (the worker's wake-ups
//! included), once the last frame has been presented: a 60 Hz display
//! presents at its vertical blanks, every [`VSYNC`], and eframe (vsync on)
//! starts no frame before the last one is shown. Each frame's
//! cost is logic + ui (timed around the app) + tessellation. With
//! `E2E_TRACE` set, each frame of a wait prints what the page holds.
//! Textures are kept as a GPU keeps them (`Textures`): egui_kittest's
//! default renderer, never initialised here, keeps every texture ever set
//! (a tile's a quarter of a megabyte), which a long run would count as the
//! app's.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use egui_kittest::kittest::Queryable;
use egui_kittest::{Harness, TestRenderer};
use fleetview::app::Loadable;
use fleetview::shell::{AppOptions, FleetApp};
use fleetview_api::TimeWindow;
use fleetview_core::worker::Target;

/// A 60 Hz display's frame.
pub const VSYNC: Duration = Duration::from_micros(16_667);

/// The app, with the time of its passes kept.
pub struct Timed {
    pub app: FleetApp,
    logic: Duration,
    /// logic + ui of each pass since the driver last took them.
    passes: Vec<Duration>,
    pub first_frame_at: Option<Instant>,
}

impl eframe::App for Timed {
    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        let t = Instant::now();
        eframe::App::logic(&mut self.app, ctx, frame);
        self.logic = t.elapsed();
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let t = Instant::now();
        eframe::App::ui(&mut self.app, ui, frame);
        self.passes.push(self.logic + t.elapsed());
        self.first_frame_at.get_or_insert_with(Instant::now);
    }
}

/// The textures the app has set and not yet freed, with their pixels, as
/// a GPU (a software one in RAM) holds them.
#[derive(Default)]
struct Textures {
    kept: HashMap<egui::TextureId, egui::ImageData>,
    /// Their pixels' bytes, for the driver to tell.
    bytes: Arc<AtomicUsize>,
}

impl TestRenderer for Textures {
    fn handle_delta(&mut self, delta: &mut egui::TexturesDelta) {
        for (id, updates) in delta.set.drain() {
            // A patch (the font atlas growing) changes a kept texture in
            // place.
            for update in updates {
                if update.pos.is_none() {
                    self.kept.insert(id, update.image);
                }
            }
        }
        for id in delta.free.drain() {
            self.kept.remove(&id);
        }
        let bytes = self.kept.values().map(|i| i.width() * i.height() * 4).sum();
        self.bytes.store(bytes, Ordering::Relaxed);
    }
}

pub struct Driver {
    pub h: Harness<'static, Timed>,
    /// When each repaint asked for is due.
    wakes: Receiver<Instant>,
    /// The display's first vertical blank; the others follow every VSYNC.
    epoch: Instant,
    /// When the last frame is (or was) on screen: the next may start then.
    presented: Instant,
    /// Costs of the frames since the last `take_costs`.
    costs: Vec<Duration>,
    /// The bytes of the textures kept.
    texture_bytes: Arc<AtomicUsize>,
}

impl Driver {
    /// Builds the app (its first frame included, as kittest runs one).
    pub fn new(options: AppOptions) -> Self {
        let textures = Textures::default();
        let texture_bytes = Arc::clone(&textures.bytes);
        let h = Harness::builder()
            .with_size(egui::vec2(1400.0, 900.0))
            .with_step_dt(1.0 / 60.0)
            .renderer(textures)
            .build_eframe(move |cc| Timed {
                app: FleetApp::new(cc, options),
                logic: Duration::ZERO,
                passes: Vec::new(),
                first_frame_at: None,
            });
        let (tx, wakes) = channel();
        h.ctx.set_request_repaint_callback(move |info| {
            let _ = tx.send(Instant::now() + info.delay);
        });
        let now = Instant::now();
        let mut d = Self {
            h,
            wakes,
            epoch: now,
            presented: now,
            costs: Vec::new(),
            texture_bytes,
        };
        // The frames kittest ran while building asked for more.
        d.frame();
        d
    }

    /// The bytes of the textures the app has set and not freed.
    pub fn texture_bytes(&self) -> usize {
        self.texture_bytes.load(Ordering::Relaxed)
    }

    pub fn app(&self) -> &FleetApp {
        &self.h.state().app
    }

    /// The first vertical blank after `t`.
    fn vblank_after(&self, t: Instant) -> Instant {
        let n = t.duration_since(self.epoch).as_nanos() / VSYNC.as_nanos() + 1;
        self.epoch + VSYNC * u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// One frame, as soon as the last one has been presented: what input
    /// does.
    pub fn frame(&mut self) {
        // Paced as a display paces frames: unpaced, the UI thread would take
        // a core from the worker on every progress event.
        if let Some(wait) = self.presented.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        self.h.step();
        let shapes = self.h.output().shapes.clone();
        let ppp = self.h.ctx.pixels_per_point();
        let t = Instant::now();
        let _ = std::hint::black_box(self.h.ctx.tessellate(shapes, ppp));
        let tessellate = t.elapsed();
        // Shown at the next vertical blank.
        self.presented = self.vblank_after(Instant::now());
        let passes = std::mem::take(&mut self.h.state_mut().passes);
        let last = passes.len().saturating_sub(1);
        for (i, pass) in passes.into_iter().enumerate() {
            self.costs.push(
                pass + if i == last {
                    tessellate
                } else {
                    Duration::ZERO
                },
            );
        }
    }

    /// Waits for the next repaint asked for (by the app, egui or the
    /// worker), then runs that frame.
    pub fn next_frame(&mut self) {
        let mut due: Option<Instant> = None;
        loop {
            // A repaint asked for far ahead (a retry minutes away) is no
            // reason to wait longer than with none asked for.
            let timeout = due.map_or(Duration::from_secs(5), |d| {
                d.saturating_duration_since(Instant::now())
                    .min(Duration::from_secs(5))
            });
            match self.wakes.recv_timeout(timeout) {
                Ok(at) => due = Some(due.map_or(at, |d| d.min(at))),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
            if due.is_some_and(|d| d <= Instant::now()) {
                break;
            }
        }
        self.frame();
    }

    /// Runs frames as they are asked for until `cond` holds after one;
    /// returns when that frame ended.
    pub fn until(&mut self, what: &str, cond: impl Fn(&FleetApp) -> bool) -> Instant {
        self.until_for(what, Duration::from_secs(20), cond)
    }

    /// As `until`, waiting at most `limit`.
    pub fn until_for(
        &mut self,
        what: &str,
        limit: Duration,
        cond: impl Fn(&FleetApp) -> bool,
    ) -> Instant {
        let deadline = Instant::now() + limit;
        let start = Instant::now();
        while !cond(self.app()) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {}",
                describe(self.app())
            );
            self.next_frame();
            if std::env::var_os("E2E_TRACE").is_some() {
                println!(
                    "{:?} {} (asked for by {:?})",
                    start.elapsed(),
                    describe(self.app()),
                    self.h.ctx.repaint_causes()
                );
            }
        }
        Instant::now()
    }

    /// Clicks a machine in the equipment list (the leftmost node with its
    /// name) and runs the frame that takes the click: as a person's click,
    /// the pointer is on it and the button pressed frames before; the
    /// click is its release.
    pub fn click_machine(&mut self, name: &str) -> Instant {
        let pos = self
            .h
            .get_all_by_label(name)
            .min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
            .unwrap_or_else(|| panic!("{name} is listed"))
            .rect()
            .center();
        let button = |pressed| egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        };
        self.h.event(egui::Event::PointerMoved(pos));
        self.frame();
        self.h.event(button(true));
        self.frame();
        // A person clicks when the app is idle, its last frame shown, at any
        // moment between two vertical blanks: half-way, the mean (the
        // click's frame then runs at once, and is shown at the next).
        let idle = self.presented.max(Instant::now());
        let mut at = self.vblank_after(idle) - VSYNC / 2;
        if at < idle {
            at += VSYNC;
        }
        if let Some(wait) = at.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        self.h.event(button(false));
        let clicked = Instant::now();
        self.frame();
        if std::env::var_os("E2E_TRACE").is_some() {
            println!(
                "the click's frame ended {:?} after the click (the next asked for by {:?})",
                clicked.elapsed(),
                self.h.ctx.repaint_causes()
            );
        }
        clicked
    }

    /// Runs frames until the worker has no task left.
    pub fn until_idle(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.app().tasks_in_flight() > 0 {
            assert!(Instant::now() < deadline, "the worker is still busy");
            self.frame();
        }
    }

    /// The costs of the frames since the last `take_costs`.
    pub fn costs(&self) -> &[Duration] {
        &self.costs
    }

    pub fn take_costs(&mut self) -> Vec<Duration> {
        std::mem::take(&mut self.costs)
    }
}

/// The equipment list and the overview's snapshots are shown.
pub fn populated(app: &FleetApp) -> bool {
    let s = app.state();
    !s.fleet().loading
        && !s.fleet().equipments.is_empty()
        && !s.overview().status.loading
        && s.overview().snapshots.len() >= s.fleet().equipments.len()
}

/// Populated, and nothing else under way (the overview's figures done).
pub fn settled(app: &FleetApp) -> bool {
    let s = app.state();
    populated(app)
        && s.progress().is_empty()
        && s.overview().figures_loading(s.fleet().equipments.len()) == 0
}

/// Every panel of machine `id` over `w` loaded (and, after the frame that
/// found it so, drawn).
pub fn complete(app: &FleetApp, id: i64, w: TimeWindow) -> bool {
    let s = app.state();
    fn ready<T>(l: &Loadable<T>) -> bool {
        matches!(l, Loadable::Ready(_))
    }
    s.selected() == Some(id)
        && s.window() == Some(w)
        && ready(&s.timeline().track)
        && ready(s.faults())
        && ready(s.activities())
        && ready(s.history())
        && s.timeline()
            .plot_kinds
            .iter()
            .all(|k| s.timeline().plots.get(k).is_some_and(ready))
        && matches!(&s.figures().report, Loadable::Ready(r) if r.window == Some(w))
        && !s.progress().keys().any(Target::is_page)
}

/// What the app shows, for a wait that timed out.
fn describe(app: &FleetApp) -> String {
    fn status<T>(l: &Loadable<T>) -> &'static str {
        match l {
            Loadable::Idle => "idle",
            Loadable::Pending { .. } => "pending",
            Loadable::Ready(_) => "ready",
            Loadable::Failed { .. } => "failed",
        }
    }
    let s = app.state();
    format!(
        "selected {:?}, window {:?}, track {}, faults {}, activities {}, history {}, plots {:?}, report {} for {:?}, fetches {:?}, notifications {:?}",
        s.selected(),
        s.window(),
        status(&s.timeline().track),
        status(s.faults()),
        status(s.activities()),
        status(s.history()),
        s.timeline()
            .plot_kinds
            .iter()
            .map(|k| (k, s.timeline().plots.get(k).map(status)))
            .collect::<Vec<_>>(),
        status(&s.figures().report),
        s.figures().report.value().map(|r| r.window),
        s.fetches(),
        s.notifications()
    )
}
