//! The eframe app: owns the state, the worker and (on first run) the
//! embedded sandbox. `logic` drains the worker's events once a frame; `ui`
//! draws the panels and applies the actions they return.
//!
//! This is the top of the layers: it wires `ui` (drawing) to the state here.

pub mod action;
pub mod loadable;
pub mod state;
pub mod timeline;

use std::path::PathBuf;
use std::sync::Arc;

pub use action::Action;
pub use loadable::Loadable;
pub use state::{AppState, ConnStatus, Connection, Level, Preset, Profile, Settings, Tab};
pub use timeline::{MapSettings, REPLAY_SPEEDS, Replay, TimelineState};

use crate::api::model::SecretValue;
use crate::api::time::now_secs;
use crate::api::{ClientConfig, SeriesSource};
use crate::cache::{Cache, DEFAULT_CAP_BYTES};
use crate::sandbox::embedded::EmbeddedSandbox;
use crate::sandbox::{Clock, SandboxConfig};
use crate::ui::ViewState;
use crate::worker::{Command, Worker, WorkerConfig};

const SETTINGS_KEY: &str = "fleetview-settings";

/// A real service to connect to.
#[derive(Debug, Clone)]
pub struct ServiceOptions {
    pub base_url: String,
    pub token: Option<SecretValue>,
    pub allow_insecure_http: bool,
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
    /// Settings to start from when eframe has no storage (tests, kiosks).
    pub settings: Option<Settings>,
}

impl AppOptions {
    /// The defaults of a desktop install: cache and sandbox data in the
    /// user's directories.
    pub fn desktop() -> Self {
        Self {
            cache_path: Cache::default_path(),
            sandbox_data_dir: dirs::data_dir().map(|d| d.join("fleetview").join("sandbox")),
            online_tiles: true,
            tile_cache_dir: dirs::cache_dir().map(|d| d.join("fleetview").join("tiles")),
            ..Self::default()
        }
    }
}

/// How the first connection is made.
enum Start {
    /// A token was given: go.
    Ready,
    /// The embedded sandbox: log in first.
    Login,
    /// A saved profile: its token comes from the keychain.
    Profile(ClientConfig),
}

pub struct FleetApp {
    state: AppState,
    view: ViewState,
    worker: Worker,
    title: String,
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

impl FleetApp {
    pub fn new(cc: &eframe::CreationContext<'_>, options: AppOptions) -> Self {
        let ctx = cc.egui_ctx.clone();
        let wake = Arc::new(move || ctx.request_repaint());
        let mut startup_errors: Vec<(String, String)> = Vec::new();

        let cache = options.cache_path.as_ref().and_then(|path| {
            match Cache::open(path, DEFAULT_CAP_BYTES) {
                Ok((cache, warning)) => {
                    if let Some(w) = warning {
                        startup_errors.push(("The local cache was rebuilt".into(), w));
                    }
                    Some(Arc::new(cache))
                }
                Err(e) => {
                    startup_errors.push(("Working without a local cache".into(), e.to_string()));
                    None
                }
            }
        });

        // The embedded sandbox always runs, so switching to it is instant.
        let mut config = SandboxConfig::default()
            .clock(options.clock.map_or(Clock::System, Clock::Fixed))
            .fleet_size(
                options
                    .sandbox_fleet_size
                    .unwrap_or(crate::sandbox::DEFAULT_FLEET_SIZE),
            );
        if let Some(dir) = &options.sandbox_data_dir {
            config = config.data_dir(dir);
        }
        let sandbox = match EmbeddedSandbox::start(config) {
            Ok(s) => Some(s),
            Err(e) => {
                startup_errors.push(("The embedded sandbox did not start".into(), e.to_string()));
                None
            }
        };
        let embedded_url = sandbox.as_ref().map(EmbeddedSandbox::base_url);
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
        let embedded = Connection {
            label: "Embedded sandbox".into(),
            base_url: embedded_url
                .clone()
                .unwrap_or_else(|| "http://127.0.0.1:0".into()),
            embedded: true,
            status: ConnStatus::Connecting,
            config: ClientConfig::new(
                embedded_url
                    .clone()
                    .unwrap_or_else(|| "http://127.0.0.1:0".into()),
            ),
        };
        let (connection, first, token) = match (&options.service, &profile) {
            (Some(s), _) => {
                let mut config = ClientConfig::new(s.base_url.clone());
                config.allow_insecure_http = s.allow_insecure_http;
                let conn = Connection {
                    label: host_label(&s.base_url),
                    base_url: s.base_url.clone(),
                    embedded: false,
                    status: ConnStatus::Connecting,
                    config,
                };
                (conn, Start::Ready, s.token.clone())
            }
            (None, Some(p)) => {
                let conn = Connection {
                    label: p.name.clone(),
                    base_url: p.url().to_owned(),
                    embedded: false,
                    status: ConnStatus::Connecting,
                    config: p.client_config(),
                };
                (conn, Start::Profile(p.client_config()), None)
            }
            (None, None) => (embedded, Start::Login, None),
        };

        let mut client = connection.config.clone();
        client.token = token;
        let worker = match Worker::spawn(
            WorkerConfig {
                client: Some(client),
                cache: cache.clone(),
                offline: false,
            },
            wake.clone(),
        ) {
            Ok(w) => w,
            Err(e) => {
                startup_errors.push(("Could not connect".into(), e.to_string()));
                // Still run, without a service: the user can fix the connection.
                match Worker::spawn(
                    WorkerConfig {
                        client: None,
                        cache,
                        offline: true,
                    },
                    wake,
                ) {
                    Ok(w) => w,
                    Err(e) => panic!("the background worker cannot start: {e}"),
                }
            }
        };

        let mut state = AppState::new(connection, options.clock);
        state.embedded_url = embedded_url;
        state.map.online_tiles = options.online_tiles;
        state.tile_cache_dir = options.tile_cache_dir.clone();
        state.export_dir = options.export_dir.clone();
        if let Some(s) = settings {
            state.restore(s);
        }
        for (title, detail) in startup_errors {
            state.notify(Level::Error, title, detail);
        }
        let mut app = Self {
            title: String::new(),
            view: ViewState::default(),
            worker,
            state,
            _sandbox: sandbox,
        };
        let commands = match first {
            Start::Ready => app.state.start(None),
            Start::Login => app.state.start(Some((
                crate::sandbox::auth::DEMO_USER.to_owned(),
                SecretValue::new(crate::sandbox::auth::DEMO_PASSWORD),
            ))),
            Start::Profile(config) => vec![Command::UseProfile {
                config,
                token: None,
            }],
        };
        app.send(commands);
        app
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    fn send(&mut self, commands: Vec<Command>) {
        for c in commands {
            let target = c.target();
            let id = self.worker.send(c);
            self.state.sent(target, id);
        }
    }

    /// Applies whatever the worker has said since the last frame.
    pub fn poll_worker(&mut self) {
        for event in self.worker.drain() {
            let commands = self.state.on_event(event);
            self.send(commands);
        }
    }
}

fn host_label(base_url: &str) -> String {
    reqwest::Url::parse(base_url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| base_url.to_owned())
}

impl eframe::App for FleetApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.poll_worker();
        let commands = self.state.tick(now_secs());
        self.send(commands);
        if self.state.offline.is_some() {
            // The retry countdown and the next try need frames.
            ctx.request_repaint_after(std::time::Duration::from_secs(1));
        }
        let dt_secs = ctx.input(|i| i.stable_dt);
        if self.state.advance_replay(f64::from(dt_secs)) {
            ctx.request_repaint();
        }
        let title = self.state.title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let actions = crate::ui::app_ui(ui, &self.state, &mut self.view, now_secs());
        for action in actions {
            let commands = self.state.on_action(action);
            self.send(commands);
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, SETTINGS_KEY, &self.state.settings());
    }
}

/// Which series the app itself shows (for the status bar's labels).
pub fn source_label(source: SeriesSource) -> &'static str {
    match source {
        SeriesSource::Faults => "faults",
        SeriesSource::Kind(k) => k.display_name(),
    }
}
