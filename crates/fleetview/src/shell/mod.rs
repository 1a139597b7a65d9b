//! The shell: the eframe app and its start-up. It starts the embedded
//! sandbox, opens the cache, restores the settings, spawns the worker and
//! logs in; then, each frame, `logic` drains the worker's events into the
//! model and `ui` draws the views and applies the actions they return.

use std::path::PathBuf;
use std::sync::Arc;

use crate::app::{AppState, Connection, EmbeddedLogin, Level, Settings};
use crate::ui::{InputOrder, ViewState};
use fleetview_api::model::SecretValue;
use fleetview_api::time::now_secs;
use fleetview_api::{ApiKey, AuthMethod};
use fleetview_core::cache::{Cache, DEFAULT_CAP_BYTES};
use fleetview_core::worker::{Command, SaveDialogRef, Urgency, Worker, WorkerConfig};
use fleetview_sandbox::embedded::EmbeddedSandbox;
use fleetview_sandbox::{Clock, SandboxConfig};

mod desktop;
mod save_dialog;

pub use desktop::{
    APP_ID, FOLDER, close_on_terminate, move_settings, native_options, old_settings_file,
    settings_file, settings_file_in, window_icon,
};

use save_dialog::NativeSaveDialog;

const SETTINGS_KEY: &str = "fleetview-settings";

/// A real service to connect to, with a token, an API key (logged in with,
/// and again when the token is refused), or both.
#[derive(Debug, Clone)]
pub struct ServiceOptions {
    pub base_url: String,
    pub token: Option<SecretValue>,
    pub api_key: Option<ApiKey>,
    pub allow_insecure_http: bool,
}

impl ServiceOptions {
    /// What to ask for if the service refuses what it was given.
    fn auth_method(&self) -> AuthMethod {
        match &self.api_key {
            Some(k) => AuthMethod::ApiKey {
                name: k.name.clone(),
            },
            None => AuthMethod::Token,
        }
    }
}

/// How the app starts.
#[derive(Debug, Clone, Default)]
pub struct AppOptions {
    /// `None`: start the embedded sandbox and log in to it.
    pub service: Option<ServiceOptions>,
    /// Where the embedded sandbox keeps its integrations (`None`: in memory).
    pub sandbox_data_dir: Option<PathBuf>,
    /// The local cache file (`None`: no cache).
    pub cache_path: Option<PathBuf>,
    /// The service book: plans and services done (`None`: none kept).
    pub service_book_path: Option<PathBuf>,
    /// A fixed "now" for the embedded sandbox and the window presets.
    pub clock: Option<i64>,
    /// Fleet size of the embedded sandbox (default: about 60).
    pub sandbox_fleet_size: Option<u64>,
    /// Online map tiles on at first start (the user's choice is kept after).
    pub online_tiles: bool,
    /// Where online map tiles are cached.
    pub tile_cache_dir: Option<PathBuf>,
    /// Save exports here without a dialog (`None`: ask with a dialog).
    pub export_dir: Option<PathBuf>,
    /// Where exports go when no file dialog can open (the user's Downloads).
    pub fallback_export_dir: Option<PathBuf>,
    /// Asks where to save an export (`None`: the system's dialog).
    pub save_dialog: Option<SaveDialogRef>,
    /// Settings to start from when eframe has no storage (tests, kiosks).
    pub settings: Option<Settings>,
    /// The computer's clock: ages, news going, retries.
    pub wall_clock: WallClock,
    /// Where the log files are written (shown in About; `main` writes them).
    pub log_dir: Option<PathBuf>,
    /// The folder of the settings file (shown in About).
    pub settings_dir: Option<PathBuf>,
    /// Shows a folder in the system's file manager.
    pub folder_opener: FolderOpener,
}

/// Shows a folder in the system's file manager (`xdg-open` on Linux),
/// given to the app so tests see what was asked without a desktop.
#[derive(Clone)]
pub struct FolderOpener(Arc<OpenFolderFn>);

type OpenFolderFn = dyn Fn(&std::path::Path) -> std::io::Result<()> + Send + Sync;

/// A folder that could not be opened, and why.
type OpenFailure = (PathBuf, String);

impl FolderOpener {
    pub fn new(
        open: impl Fn(&std::path::Path) -> std::io::Result<()> + Send + Sync + 'static,
    ) -> Self {
        Self(Arc::new(open))
    }
}

impl Default for FolderOpener {
    fn default() -> Self {
        Self::new(|path| {
            std::fs::create_dir_all(path)?;
            open::that_detached(path)
        })
    }
}

impl std::fmt::Debug for FolderOpener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FolderOpener")
    }
}

/// What glibc's malloc reads, at start-up only: at most two arenas, and
/// blocks of 128 KiB and more always mapped on their own (so given back
/// when freed; by default the threshold rises to the largest block freed).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MALLOC_SETTINGS: [(&str, &str); 2] = [
    ("MALLOC_ARENA_MAX", "2"),
    ("MALLOC_MMAP_THRESHOLD_", "131072"),
];

/// Starts this process again with [`MALLOC_SETTINGS`], unless set already
/// (by an earlier start, or by the user). glibc gives threads allocating
/// at once arenas of their own (up to 8 per core), and serves blocks up to
/// the largest one freed so far from them; what is freed there is given
/// back to the system only from the top of the main one. So the worker's
/// and the sandbox's threads decoding and encoding windows all day grew
/// the resident set by tens of megabytes an hour with the live heap flat
/// (docs/performance.md, the soak). Returns only if the process could not
/// be started again (it then goes on as it is).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn with_malloc_settings() {
    use std::os::unix::process::CommandExt as _;
    if MALLOC_SETTINGS
        .iter()
        .any(|(var, _)| std::env::var_os(var).is_some())
    {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut args = std::env::args_os();
    let mut again = std::process::Command::new(exe);
    if let Some(arg0) = args.next() {
        again.arg0(arg0);
    }
    // `exec` returns only on failure.
    let _failed = again.args(args).envs(MALLOC_SETTINGS).exec();
}

/// Other allocators give back what is freed.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn with_malloc_settings() {}

/// Where a desktop install writes its logs: the user's state folder
/// (`~/.local/state/fleetview/logs` on Linux), else its local data folder.
pub fn default_log_dir() -> Option<PathBuf> {
    dirs::state_dir()
        .or_else(dirs::data_local_dir)
        .map(|d| d.join(FOLDER).join("logs"))
}

/// The computer's clock (Unix seconds), given to the app so tests drive
/// time passing rather than wait for it.
#[derive(Clone)]
pub struct WallClock(Arc<dyn Fn() -> i64 + Send + Sync>);

impl WallClock {
    pub fn new(now: impl Fn() -> i64 + Send + Sync + 'static) -> Self {
        Self(Arc::new(now))
    }

    pub fn now(&self) -> i64 {
        (self.0)()
    }
}

impl Default for WallClock {
    fn default() -> Self {
        Self::new(now_secs)
    }
}

impl std::fmt::Debug for WallClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WallClock")
    }
}

impl AppOptions {
    /// The defaults of a desktop install: cache and sandbox data in the
    /// user's directories.
    pub fn desktop() -> Self {
        Self {
            cache_path: Cache::default_path(),
            service_book_path: fleetview_core::service::store::ServiceStore::default_path(),
            sandbox_data_dir: crate::app::sandbox_data_dir(),
            online_tiles: true,
            tile_cache_dir: dirs::cache_dir().map(|d| d.join(FOLDER).join("tiles")),
            log_dir: default_log_dir(),
            settings_dir: settings_file().and_then(|f| f.parent().map(PathBuf::from)),
            fallback_export_dir: dirs::download_dir()
                .or_else(|| dirs::data_dir().map(|d| d.join(FOLDER).join("exports"))),
            ..Self::default()
        }
    }
}

pub struct FleetApp {
    state: AppState,
    view: ViewState,
    worker: Worker,
    title: String,
    wall_clock: WallClock,
    /// The theme last handed to egui.
    theme: Option<crate::app::ThemeChoice>,
    /// Keys and clicks of one slow frame, taken in their order.
    input_order: InputOrder,
    folder_opener: FolderOpener,
    /// Asks for a frame (from another thread: a folder that could not be
    /// opened is said at once, not at the next mouse move).
    wake: fleetview_core::worker::Wake,
    /// Folders that could not be opened, from the threads opening them.
    open_failures: (
        std::sync::mpsc::Sender<OpenFailure>,
        std::sync::mpsc::Receiver<OpenFailure>,
    ),
    /// The cache, until its whole file's check starts (after the first
    /// frame: up to 512 MB read).
    cache_to_check: Option<Arc<Cache>>,
    // Dropped last: the worker may still talk to it while stopping.
    _sandbox: Option<EmbeddedSandbox>,
}

impl std::fmt::Debug for FleetApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FleetApp")
            .field("title", &self.title)
            .finish_non_exhaustive()
    }
}

/// Opens the cache; a problem is said, never fatal.
/// The whole file is checked after the first frame ([`FleetApp::ui`]).
fn open_cache(path: Option<&PathBuf>, problems: &mut Vec<(String, String)>) -> Option<Arc<Cache>> {
    match Cache::open_check_later(path?, DEFAULT_CAP_BYTES) {
        Ok((cache, warning)) => {
            if let Some(w) = warning {
                problems.push(("The local cache was rebuilt".into(), w));
            }
            Some(Arc::new(cache))
        }
        Err(e) => {
            problems.push(("Working without a local cache".into(), e.to_string()));
            None
        }
    }
}

/// Starts the worker; one that cannot talk to its service is said, and a
/// worker without one started instead (the user can fix the connection).
fn spawn_worker(
    config: WorkerConfig,
    wake: &fleetview_core::worker::Wake,
    problems: &mut Vec<(String, String)>,
) -> Worker {
    let offline = WorkerConfig {
        client: None,
        offline: true,
        ..config.clone()
    };
    match Worker::spawn(config, wake.clone()) {
        Ok(w) => w,
        Err(e) => {
            let said = match &e {
                fleetview_core::worker::WorkerError::Client(api) => {
                    crate::app::errors::explain(api).hover_text()
                }
                other => other.to_string(),
            };
            problems.push(("Could not connect".into(), said));
            match Worker::spawn(offline, wake.clone()) {
                Ok(w) => w,
                Err(e) => panic!("the background worker cannot start: {e}"),
            }
        }
    }
}

/// Starts the embedded sandbox; it always runs, so switching to it is
/// instant.
fn start_sandbox(
    options: &AppOptions,
    problems: &mut Vec<(String, String)>,
) -> Option<EmbeddedSandbox> {
    let mut config = SandboxConfig::default()
        .clock(options.clock.map_or(Clock::System, Clock::Fixed))
        .fleet_size(
            options
                .sandbox_fleet_size
                .unwrap_or(fleetview_sandbox::DEFAULT_FLEET_SIZE),
        );
    if let Some(dir) = &options.sandbox_data_dir {
        config = config.data_dir(dir);
    }
    EmbeddedSandbox::start(config)
        .inspect_err(|e| {
            problems.push(("The embedded sandbox did not start".into(), e.to_string()));
        })
        .ok()
}

impl FleetApp {
    pub fn new(cc: &eframe::CreationContext<'_>, options: AppOptions) -> Self {
        let ctx = cc.egui_ctx.clone();
        // A machine's name can be in any script: what the bundled fonts
        // lack comes from the system's fonts (looked up on a thread of
        // their own, and only for a character missing).
        ctx.add_font_provider(Arc::new(
            egui_system_font_provider::SystemFontProvider::new(),
        ));
        let wake: fleetview_core::worker::Wake = Arc::new(move |urgency| match urgency {
            Urgency::Now => ctx.request_repaint(),
            Urgency::Soon => ctx.request_repaint_after(crate::ui::theme::PROGRESS_FRAME),
        });
        let mut problems: Vec<(String, String)> = Vec::new();
        let cache = open_cache(options.cache_path.as_ref(), &mut problems);
        let sandbox = start_sandbox(&options, &mut problems);
        let embedded = sandbox.as_ref().map(|s| EmbeddedLogin {
            base_url: s.base_url(),
            api_key: ApiKey::new(
                fleetview_sandbox::auth::DEMO_API_KEY_NAME,
                fleetview_sandbox::auth::DEMO_API_KEY,
            ),
        });
        let settings: Option<Settings> = cc
            .storage
            .and_then(|s| eframe::get_value(s, SETTINGS_KEY))
            .or_else(|| options.settings.clone());

        // Where to start: the command line's service, else the last profile
        // used, else the embedded sandbox.
        let profile = settings
            .as_ref()
            .filter(|_| options.service.is_none())
            .and_then(|s| s.active_profile.and_then(|i| s.profiles.get(i).cloned()));
        let (connection, secrets) = match (&options.service, &profile, &embedded) {
            (Some(s), _, _) => (
                Connection::service(&s.base_url, s.allow_insecure_http, s.auth_method()),
                (s.token.clone(), s.api_key.clone()),
            ),
            (None, Some(p), _) => (Connection::profile(p), (None, None)),
            (None, None, Some(e)) => (e.connection(), (None, None)),
            (None, None, None) => (
                Connection::embedded(
                    "http://127.0.0.1:0",
                    fleetview_sandbox::auth::DEMO_API_KEY_NAME,
                ),
                (None, None),
            ),
        };

        let mut client = connection.config.clone();
        (client.token, client.api_key) = secrets;
        let config = WorkerConfig {
            client: Some(client),
            cache,
            offline: false,
            save_dialog: Some(
                options
                    .save_dialog
                    .clone()
                    .unwrap_or_else(|| Arc::new(NativeSaveDialog)),
            ),
        };
        let cache_to_check = config.cache.clone();
        let worker = spawn_worker(config, &wake, &mut problems);

        let mut state = AppState::new(connection, options.clock);
        state.set_up(crate::app::Setup {
            embedded,
            online_tiles: options.online_tiles,
            tile_cache_dir: options.tile_cache_dir.clone(),
            export_dir: options.export_dir.clone(),
            fallback_export_dir: options.fallback_export_dir.clone(),
            places: crate::app::Places {
                settings: options.settings_dir.clone(),
                cache: options.cache_path.clone(),
                logs: options.log_dir.clone(),
                service_book: options.service_book_path.clone(),
            },
        });
        if let Some(s) = settings {
            state.restore(s);
        }
        for (title, detail) in problems {
            state.notify(Level::Error, title, detail);
        }
        let first = match (&options.service, &profile, &state.conn().embedded) {
            // With an API key, a login first: it says who is logged in,
            // and the fleet is discovered once it is done.
            (Some(s), _, _) if s.api_key.is_some() => {
                let mut config = state.connection().config.clone();
                (config.token, config.api_key) = (s.token.clone(), s.api_key.clone());
                vec![Command::Connect(config)]
            }
            (Some(_), _, _) => state.start(),
            (None, Some(p), _) => vec![p.use_command(None)],
            (None, None, Some(login)) => vec![login.command()],
            // No sandbox: the error is said; the user picks a connection.
            (None, None, None) => Vec::new(),
        };
        let mut app = Self {
            title: String::new(),
            wall_clock: options.wall_clock.clone(),
            theme: None,
            input_order: InputOrder::default(),
            folder_opener: options.folder_opener.clone(),
            wake,
            open_failures: std::sync::mpsc::channel(),
            view: ViewState::default(),
            worker,
            state,
            cache_to_check,
            _sandbox: sandbox,
        };
        app.send(first);
        app
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Tasks the worker still runs (storing what it fetched included).
    pub fn tasks_in_flight(&self) -> usize {
        self.worker.in_flight()
    }

    /// What the views remember between frames (the map's zoom, ...).
    pub fn view(&self) -> &ViewState {
        &self.view
    }

    fn send(&mut self, commands: Vec<Command>) {
        for c in commands {
            self.worker.send(c);
        }
    }

    fn apply(&mut self, actions: Vec<crate::app::Action>) {
        self.state.set_service_now(self.worker.service_now());
        for action in actions {
            if let crate::app::Action::OpenFolder(path) = &action {
                self.open_folder(path.clone());
            }
            let commands = self.state.on_action(action);
            self.send(commands);
        }
    }

    /// Applies whatever the worker has said since the last frame.
    pub fn poll_worker(&mut self) {
        // The reads the events lead to are dated with it.
        self.state.set_service_now(self.worker.service_now());
        for event in self.worker.drain() {
            let commands = self.state.on_event(event);
            self.send(commands);
        }
        for notice in self.worker.cache_notices() {
            self.state.on_cache_notice(&notice);
        }
        while let Ok((path, error)) = self.open_failures.1.try_recv() {
            self.state.notify(
                Level::Error,
                format!("The folder {} could not be opened", path.display()),
                format!("{}: {error}", path.display()),
            );
        }
    }

    /// Shows `path` in the file manager, off the UI thread (starting a
    /// program can take a while); a failure comes back as a notice.
    fn open_folder(&self, path: PathBuf) {
        let (open, failed) = (self.folder_opener.clone(), self.open_failures.0.clone());
        let wake = self.wake.clone();
        let spawned = std::thread::Builder::new()
            .name("open-folder".into())
            .spawn(move || {
                if let Err(e) = (open.0)(&path) {
                    tracing::warn!(path = %path.display(), "opening a folder: {e}");
                    let _ = failed.send((path, e.to_string()));
                    wake(Urgency::Now);
                }
            });
        if let Err(e) = spawned {
            tracing::warn!("opening a folder: {e}");
        }
    }
}

impl eframe::App for FleetApp {
    fn raw_input_hook(&mut self, _ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        self.input_order.order(raw_input);
    }

    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        if self.input_order.holds() {
            // The rest of a slow frame's input, in the next frame.
            ctx.request_repaint();
        }
        self.poll_worker();
        let now = self.wall_clock.now();
        let commands = self.state.tick(now);
        self.send(commands);
        if let Some(at) = self.state.next_wake() {
            // Not sooner than a second: the wall clock counts seconds.
            let secs = u64::try_from((at - now).max(1)).unwrap_or(1);
            ctx.request_repaint_after(std::time::Duration::from_secs(secs));
        }
        let dt_secs = ctx.input(|i| i.stable_dt);
        if self.state.advance_replay(f64::from(dt_secs)) {
            ctx.request_repaint();
        }
        if self.theme != Some(self.state.theme()) {
            use crate::app::ThemeChoice;
            ctx.set_theme(match self.state.theme() {
                ThemeChoice::System => egui::ThemePreference::System,
                ThemeChoice::Light => egui::ThemePreference::Light,
                ThemeChoice::Dark => egui::ThemePreference::Dark,
            });
            self.theme = Some(self.state.theme());
        }
        let title = self.state.title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let chrome = crate::ui::chrome_ui(ui, &self.state, &mut self.view, self.wall_clock.now());
        let shown = (self.state.selected(), self.state.tab());
        self.apply(chrome);
        if (self.state.selected(), self.state.tab()) != shown {
            // The list, drawn before the pick, is drawn again with it in a
            // second pass of this frame (the reads are already sent).
            ui.ctx()
                .request_discard("another machine or tab was picked");
            if ui.ctx().will_discard() {
                return;
            }
        }
        let page = crate::ui::page_ui(ui, &self.state, &mut self.view, self.wall_clock.now());
        self.apply(page);
        if let Some(cache) = self.cache_to_check.take() {
            cache.check_in_background();
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, SETTINGS_KEY, &self.state.settings());
    }
}
