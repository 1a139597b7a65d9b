//! The app's state: what is selected and what has been loaded. It turns
//! panel actions and worker events into commands for the worker; it does no
//! I/O itself, so it can be tested without a window.

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::loadable::Loadable;
use super::timeline::{MapSettings, Replay, TimelineState};
use crate::api::model::{
    ActivityRow, DataSource, EquipmentHistory, FaultRow, Integration, SecretValue,
};
use crate::api::time::{SECS_PER_DAY, TimeWindow, civil_from_days, days_from_civil, now_secs};
use crate::api::{ApiError, ClientConfig, DataKind, SeriesSource};
use crate::export::shown::ExportContent;
use crate::worker::{
    CatalogChange, Command, Event, ExportJob, ExportOutcome, Progress, RequestId, Target,
};

/// How long ago the fleet is looked at to discover it (D2): short, so the
/// deprecated endpoint's pages stay small.
const DISCOVERY_WINDOW_SECS: i64 = 3600;
/// Recently viewed equipments kept.
const RECENT_MAX: usize = 8;
/// Offline, the service is tried again after this, then twice as long each
/// time, up to the maximum.
const RETRY_FIRST_SECS: i64 = 5;
const RETRY_MAX_SECS: i64 = 60;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Preset {
    Today,
    Yesterday,
    Last7Days,
    Last30Days,
    ThisMonth,
    Custom,
}

impl Preset {
    pub const ALL: [Preset; 6] = [
        Preset::Today,
        Preset::Yesterday,
        Preset::Last7Days,
        Preset::Last30Days,
        Preset::ThisMonth,
        Preset::Custom,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Preset::Today => "Today",
            Preset::Yesterday => "Yesterday",
            Preset::Last7Days => "Last 7 days",
            Preset::Last30Days => "Last 30 days",
            Preset::ThisMonth => "This month",
            Preset::Custom => "Custom",
        }
    }

    /// The window, in whole UTC days, relative to `now`.
    pub fn window(self, now: i64, custom: (i64, i64)) -> TimeWindow {
        let today = now.div_euclid(SECS_PER_DAY);
        let (first, last) = match self {
            Preset::Today => (today, today),
            Preset::Yesterday => (today - 1, today - 1),
            Preset::Last7Days => (today - 6, today),
            Preset::Last30Days => (today - 29, today),
            Preset::ThisMonth => {
                let (y, m, _) = civil_from_days(today);
                (days_from_civil(y, m, 1), today)
            }
            Preset::Custom => (custom.0.min(custom.1), custom.0.max(custom.1)),
        };
        TimeWindow {
            since: first * SECS_PER_DAY,
            until: (last + 1) * SECS_PER_DAY - 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tab {
    Faults,
    Activities,
    History,
    /// The integration catalog: data sources and integrations.
    Catalog,
}

/// The integration catalog as the app knows it.
#[derive(Debug, Default)]
pub struct CatalogState {
    pub sources: Vec<DataSource>,
    pub integrations: Loadable<Vec<Integration>>,
    pub selected: Option<i64>,
    /// Writes in flight per integration: what is being done.
    pub busy: HashMap<i64, &'static str>,
    pub creating: bool,
    /// The service's answer to the last create that failed.
    pub create_error: Option<String>,
    /// The service's answer to the last write on an integration that failed.
    pub write_error: Option<(i64, String)>,
    /// Counts successful creates and updates: a form seeing it change
    /// clears (and wipes) what was typed.
    pub created: u64,
    pub updated: u64,
}

impl CatalogState {
    pub fn source_label(&self, code: &str) -> String {
        self.sources
            .iter()
            .find(|s| s.code == code)
            .map_or_else(|| code.to_owned(), |s| s.label.clone())
    }
}

pub use crate::worker::EquipmentSummary;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct FleetState {
    pub equipments: Vec<EquipmentSummary>,
    pub done: i64,
    pub total: i64,
    pub loading: bool,
    pub error: Option<String>,
    /// Shown from the cache (service away): when it was discovered.
    pub cached_at: Option<i64>,
    /// The list shown stays until the first page of a new discovery.
    replace_on_page: bool,
}

/// The service could not be reached: what is shown comes from the cache.
#[derive(Debug, Clone, PartialEq)]
pub struct Offline {
    /// When the oldest data shown was fetched (`None`: none cached shown).
    pub data_fetched_at: Option<i64>,
    /// The last error met.
    pub reason: String,
    /// When the service is tried next (wall clock; `None`: at the next tick).
    pub next_retry: Option<i64>,
    pub retries: u32,
    /// A probe is in flight.
    pub probing: bool,
}

impl Offline {
    fn backoff_secs(retries: u32) -> i64 {
        (RETRY_FIRST_SECS << retries.min(8)).min(RETRY_MAX_SECS)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ConnStatus {
    Connecting,
    Connected,
    /// The service refused the token; its message.
    Unauthorized(String),
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct Connection {
    /// What the user calls it: "Embedded sandbox" or the service's host.
    pub label: String,
    pub base_url: String,
    pub embedded: bool,
    pub status: ConnStatus,
    /// Options to rebuild the client with a new token (no token inside).
    pub config: ClientConfig,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warning,
    Error,
}

/// A dismissable message, with detail for those who want it.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    pub id: u64,
    pub level: Level,
    pub title: String,
    pub detail: String,
}

/// A saved service: its address and its separate sandbox address.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub name: String,
    pub base_url: String,
    pub sandbox_url: String,
    /// Talk to the sandbox address instead of the service's.
    pub use_sandbox: bool,
    #[serde(default)]
    pub allow_insecure_http: bool,
}

impl Profile {
    /// The address in use.
    pub fn url(&self) -> &str {
        if self.use_sandbox && !self.sandbox_url.trim().is_empty() {
            self.sandbox_url.trim()
        } else {
            self.base_url.trim()
        }
    }

    pub fn client_config(&self) -> ClientConfig {
        let mut c = ClientConfig::new(self.url().to_owned());
        c.allow_insecure_http = self.allow_insecure_http;
        c
    }
}

/// What survives a restart (no secrets: the token is never in here).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub base_url: Option<String>,
    #[serde(default)]
    pub profiles: Vec<Profile>,
    /// The profile in use; `None` for the embedded sandbox.
    #[serde(default)]
    pub active_profile: Option<usize>,
    pub selected: Option<i64>,
    pub recent: Vec<i64>,
    pub preset: Preset,
    pub custom_days: (i64, i64),
    pub tab: Tab,
    pub local_time: bool,
    /// `None`: the default kinds (an emptied list stays empty).
    #[serde(default)]
    pub plot_kinds: Option<Vec<DataKind>>,
    #[serde(default)]
    pub map: MapSettings,
    #[serde(default)]
    pub replay: Replay,
}

#[derive(Debug)]
pub struct AppState {
    clock: Option<i64>,
    pub connection: Connection,
    pub fleet: FleetState,
    pub selected: Option<i64>,
    pub recent: Vec<i64>,
    pub preset: Preset,
    pub custom_days: (i64, i64),
    pub local_time: bool,
    pub tab: Tab,
    /// The window of the data shown (as sent to the service).
    pub window: Option<TimeWindow>,
    pub faults: Loadable<Vec<FaultRow>>,
    pub activities: Loadable<Vec<ActivityRow>>,
    pub history: Loadable<Arc<EquipmentHistory>>,
    pub progress: HashMap<Target, Progress>,
    pub notifications: Vec<Notification>,
    next_notification: u64,
    /// The newest request per target: events of older ones are ignored.
    requests: HashMap<Target, RequestId>,
    /// Set while the service cannot be reached.
    pub offline: Option<Offline>,
    pub profiles: Vec<Profile>,
    pub active_profile: Option<usize>,
    /// The embedded sandbox's address, when it runs.
    pub embedded_url: Option<String>,
    /// Where the token of the current profile is kept.
    pub token_note: Option<String>,
    /// The last connection test: what the service said, or the error.
    pub test_result: Option<Result<String, String>>,
    pub catalog: CatalogState,
    /// Map, plots and the time cursor they share.
    pub timeline: TimelineState,
    pub map: MapSettings,
    /// Where online map tiles are cached (`None`: not on disk).
    pub tile_cache_dir: Option<std::path::PathBuf>,
    /// Exports are saved here without a dialog (`--export-dir`).
    pub export_dir: Option<std::path::PathBuf>,
    /// Exports under way (waiting for a file name, or being written).
    pub exporting: Vec<String>,
}

impl AppState {
    pub fn new(connection: Connection, clock: Option<i64>) -> Self {
        let today = clock.unwrap_or_else(now_secs).div_euclid(SECS_PER_DAY);
        Self {
            clock,
            connection,
            fleet: FleetState::default(),
            selected: None,
            recent: Vec::new(),
            preset: Preset::Last7Days,
            custom_days: (today - 6, today),
            local_time: false,
            tab: Tab::Faults,
            window: None,
            faults: Loadable::Idle,
            activities: Loadable::Idle,
            history: Loadable::Idle,
            progress: HashMap::new(),
            notifications: Vec::new(),
            next_notification: 1,
            requests: HashMap::new(),
            offline: None,
            profiles: Vec::new(),
            active_profile: None,
            embedded_url: None,
            token_note: None,
            test_result: None,
            catalog: CatalogState::default(),
            timeline: TimelineState {
                plot_kinds: TimelineState::default_kinds(),
                ..TimelineState::default()
            },
            map: MapSettings::default(),
            tile_cache_dir: None,
            export_dir: None,
            exporting: Vec::new(),
        }
    }

    /// "Now": the clock, or a fixed instant (tests, demos on a fixed sandbox).
    pub fn now(&self) -> i64 {
        self.clock.unwrap_or_else(now_secs)
    }

    /// Restores settings; the selection only when it was made on this same
    /// service.
    pub fn restore(&mut self, s: Settings) {
        self.map = s.map;
        self.timeline.replay = Replay {
            playing: false,
            ..s.replay
        };
        if let Some(kinds) = s.plot_kinds {
            self.timeline.plot_kinds = kinds;
        }
        self.profiles = s.profiles;
        self.active_profile = s.active_profile.filter(|i| *i < self.profiles.len());
        let here = (!self.connection.embedded).then(|| self.connection.base_url.clone());
        if s.base_url != here {
            return;
        }
        self.selected = s.selected;
        self.recent = s.recent;
        self.preset = s.preset;
        self.custom_days = s.custom_days;
        self.tab = s.tab;
        self.local_time = s.local_time;
    }

    pub fn settings(&self) -> Settings {
        Settings {
            base_url: (!self.connection.embedded).then(|| self.connection.base_url.clone()),
            profiles: self.profiles.clone(),
            active_profile: self.active_profile,
            selected: self.selected,
            recent: self.recent.clone(),
            preset: self.preset,
            custom_days: self.custom_days,
            tab: self.tab,
            local_time: self.local_time,
            plot_kinds: Some(self.timeline.plot_kinds.clone()),
            map: self.map.clone(),
            replay: self.timeline.replay,
        }
    }

    pub fn title(&self) -> String {
        let status = match &self.connection.status {
            ConnStatus::Connecting => " (connecting)",
            ConnStatus::Connected if self.offline.is_some() => " (offline)",
            ConnStatus::Connected => "",
            ConnStatus::Unauthorized(_) => " (token refused)",
            ConnStatus::Failed(_) => " (not connected)",
        };
        format!("fleetview: {}{status}", self.connection.label)
    }

    pub fn selected_window(&self) -> TimeWindow {
        self.preset.window(self.now(), self.custom_days)
    }

    pub fn notify(&mut self, level: Level, title: impl Into<String>, detail: impl Into<String>) {
        let id = self.next_notification;
        self.next_notification += 1;
        self.notifications.push(Notification {
            id,
            level,
            title: title.into(),
            detail: detail.into(),
        });
        // Keep the list short: the oldest go first.
        if self.notifications.len() > 6 {
            self.notifications.remove(0);
        }
    }

    /// Records which request is the newest for its target.
    pub fn sent(&mut self, target: Target, id: RequestId) {
        self.requests.insert(target, id);
    }

    fn is_current(&self, target: &Target, id: RequestId) -> bool {
        self.requests.get(target) == Some(&id)
    }

    /// Commands to start with: discover the fleet (after logging in to the
    /// embedded sandbox), and load the restored selection.
    pub fn start(&mut self, login: Option<(String, SecretValue)>) -> Vec<Command> {
        match login {
            Some((username, password)) => vec![Command::Login { username, password }],
            None => {
                self.connection.status = ConnStatus::Connected;
                let mut out = self.discover();
                out.extend(self.fetch_selected());
                out
            }
        }
    }

    /// Discovers the fleet again, keeping the list shown until the new one
    /// comes (it is then replaced).
    fn discover_keeping_list(&mut self) -> Vec<Command> {
        let now = self.now();
        self.fleet.loading = true;
        self.fleet.error = None;
        self.fleet.replace_on_page = true;
        vec![Command::DiscoverFleet {
            window: TimeWindow {
                since: now - DISCOVERY_WINDOW_SECS,
                until: now,
            },
        }]
    }

    fn discover(&mut self) -> Vec<Command> {
        self.fleet = FleetState {
            loading: true,
            ..FleetState::default()
        };
        let now = self.now();
        vec![Command::DiscoverFleet {
            window: TimeWindow {
                since: now - DISCOVERY_WINDOW_SECS,
                until: now,
            },
        }]
    }

    fn fetch_selected(&mut self) -> Vec<Command> {
        let Some(equipment) = self.selected else {
            return Vec::new();
        };
        let window = self.selected_window();
        self.window = Some(window);
        self.faults.start();
        self.activities.start();
        self.history.start();
        self.timeline.track.start();
        let mut out = vec![Command::FetchTrack { equipment, window }];
        for kind in self.timeline.plot_kinds.clone() {
            out.push(self.fetch_plot(equipment, kind, window));
        }
        out.extend([
            Command::FetchSeries {
                equipment,
                source: SeriesSource::Faults,
                window,
                offline: false,
            },
            Command::FetchSeries {
                equipment,
                source: SeriesSource::Kind(DataKind::Activities),
                window,
                offline: false,
            },
            Command::FetchHistory { equipment, window },
        ]);
        out
    }

    fn fetch_plot(&mut self, equipment: i64, kind: DataKind, window: TimeWindow) -> Command {
        self.timeline.plots.entry(kind).or_default().start();
        Command::FetchPlot {
            equipment,
            kind,
            window,
        }
    }

    pub fn on_action(&mut self, action: Action) -> Vec<Command> {
        match action {
            Action::SelectEquipment(id) => {
                if self.selected != Some(id) {
                    // Another machine: nothing of the last one may show.
                    self.faults.clear();
                    self.activities.clear();
                    self.history.clear();
                    self.timeline.clear_data();
                }
                self.selected = Some(id);
                self.recent.retain(|r| *r != id);
                self.recent.insert(0, id);
                self.recent.truncate(RECENT_MAX);
                self.fetch_selected()
            }
            Action::SetPreset(p) => {
                self.preset = p;
                self.fetch_selected()
            }
            Action::SetCustomDays {
                first_day,
                last_day,
            } => {
                self.preset = Preset::Custom;
                self.custom_days = (first_day.min(last_day), first_day.max(last_day));
                self.fetch_selected()
            }
            Action::SetTab(t) => {
                self.tab = t;
                if t == Tab::Catalog && matches!(self.catalog.integrations, Loadable::Idle) {
                    return self.load_catalog();
                }
                Vec::new()
            }
            Action::LoadCatalog => self.load_catalog(),
            Action::SelectIntegration(id) => {
                self.catalog.selected = Some(id);
                Vec::new()
            }
            Action::CreateIntegration(body) => {
                self.catalog.creating = true;
                self.catalog.create_error = None;
                vec![Command::CreateIntegration(body)]
            }
            Action::UpdateIntegration { id, body } => {
                self.catalog.busy.insert(id, "saving");
                self.catalog.write_error = None;
                vec![Command::UpdateIntegration { id, body }]
            }
            Action::DeleteIntegration(id) => {
                self.catalog.busy.insert(id, "deleting");
                self.catalog.write_error = None;
                vec![Command::DeleteIntegration { id }]
            }
            Action::SetIntegrationActive { id, active } => {
                self.catalog
                    .busy
                    .insert(id, if active { "activating" } else { "deactivating" });
                self.catalog.write_error = None;
                vec![Command::SetIntegrationActive { id, active }]
            }
            Action::SetPlotKind { kind, on } => {
                self.timeline.plot_kinds.retain(|k| *k != kind);
                if !on {
                    self.timeline.plots.remove(&kind);
                    return vec![Command::Cancel(Target::Plot(kind))];
                }
                self.timeline.plot_kinds.push(kind);
                match (self.selected, self.window) {
                    (Some(equipment), Some(window)) => {
                        vec![self.fetch_plot(equipment, kind, window)]
                    }
                    _ => Vec::new(),
                }
            }
            Action::HoverTime(t) => {
                // Hovering only moves a cursor that is not replaying.
                if !self.timeline.replay.playing {
                    self.timeline.cursor = t.or(self.timeline.cursor);
                }
                Vec::new()
            }
            Action::SeekTo(t) => {
                self.timeline.seek_to(t);
                Vec::new()
            }
            Action::SelectActivity(i) => {
                self.timeline.selected_activity = i;
                let start = i.and_then(|i| {
                    let rows = self.activities.value()?;
                    rows.get(i).map(|a| a.date_start.0)
                });
                if let Some(t) = start {
                    self.timeline.seek_to(t);
                }
                Vec::new()
            }
            Action::SetReplay(replay) => {
                if replay.playing && !self.timeline.replay.playing {
                    // Starting over from the end: back to the beginning.
                    let window = self.window.unwrap_or_else(|| self.selected_window());
                    if self.timeline.cursor.is_none_or(|c| c >= window.until) {
                        self.timeline.cursor = Some(window.since);
                    }
                }
                self.timeline.replay = replay;
                Vec::new()
            }
            Action::SetMapSettings(map) => {
                self.map = map;
                Vec::new()
            }
            Action::SetLocalTime(on) => {
                self.local_time = on;
                Vec::new()
            }
            Action::Refresh => self.fetch_selected(),
            Action::Export(content) => {
                let what = content.describe();
                if self.exporting.contains(&what) {
                    // Its dialog is open: one at a time (a second would
                    // cancel the first, whose end would then never come).
                    return Vec::new();
                }
                let file_name = self.export_file_name(&content);
                self.exporting.push(what);
                vec![Command::Export(ExportJob {
                    content,
                    file_name,
                    directory: self.export_dir.clone(),
                })]
            }
            Action::RetryNow => match &mut self.offline {
                Some(o) if !o.probing => {
                    o.probing = true;
                    vec![Command::Probe]
                }
                _ => Vec::new(),
            },
            Action::ReloadFleet => self.discover(),
            Action::DismissNotification(id) => {
                self.notifications.retain(|n| n.id != id);
                Vec::new()
            }
            Action::UseEmbedded => {
                let Some(url) = self.embedded_url.clone() else {
                    self.notify(Level::Error, "The embedded sandbox is not running", "");
                    return Vec::new();
                };
                self.switch_to(Connection {
                    label: "Embedded sandbox".into(),
                    base_url: url.clone(),
                    embedded: true,
                    status: ConnStatus::Connecting,
                    config: ClientConfig::new(url.clone()),
                });
                self.active_profile = None;
                self.token_note = None;
                vec![
                    Command::Connect(ClientConfig::new(url)),
                    Command::Login {
                        username: crate::sandbox::auth::DEMO_USER.into(),
                        password: SecretValue::new(crate::sandbox::auth::DEMO_PASSWORD),
                    },
                ]
            }
            Action::UseProfile { index, token } => {
                let Some(p) = self.profiles.get(index).cloned() else {
                    return Vec::new();
                };
                self.switch_to(Connection {
                    label: p.name.clone(),
                    base_url: p.url().to_owned(),
                    embedded: false,
                    status: ConnStatus::Connecting,
                    config: p.client_config(),
                });
                self.active_profile = Some(index);
                vec![Command::UseProfile {
                    config: p.client_config(),
                    token,
                }]
            }
            Action::SaveProfile { index, profile } => {
                match index.filter(|i| *i < self.profiles.len()) {
                    Some(i) => self.profiles[i] = profile,
                    None => self.profiles.push(profile),
                }
                Vec::new()
            }
            Action::DeleteProfile(index) => {
                if index < self.profiles.len() {
                    self.profiles.remove(index);
                    self.active_profile = match self.active_profile {
                        Some(a) if a == index => None,
                        Some(a) if a > index => Some(a - 1),
                        other => other,
                    };
                }
                Vec::new()
            }
            Action::TestProfile { profile, token } => {
                self.test_result = None;
                vec![Command::TestConnection {
                    config: profile.client_config(),
                    token,
                }]
            }
            Action::UseToken(token) => {
                self.connection.status = ConnStatus::Connecting;
                let mut config = self.connection.config.clone();
                config.token = Some(token);
                vec![Command::Connect(config)]
            }
        }
    }

    /// `1003-faults-2025-06-12_2025-06-18.csv`: the machine, what, the window.
    fn export_file_name(&self, content: &ExportContent) -> String {
        let window = self.window.unwrap_or_else(|| self.selected_window());
        let day = |t: i64| {
            crate::api::time::format_wire(t)
                .chars()
                .take(10)
                .collect::<String>()
        };
        format!(
            "{}-{}-{}_{}.{}",
            self.selected
                .map_or_else(|| "fleet".to_owned(), |id| id.to_string()),
            content.stem(),
            day(window.since),
            day(window.until),
            content.extension()
        )
    }

    fn load_catalog(&mut self) -> Vec<Command> {
        self.catalog.integrations.start();
        vec![Command::LoadCatalog]
    }

    /// Another service: nothing of the last one may show.
    fn switch_to(&mut self, connection: Connection) {
        self.connection = connection;
        self.fleet = FleetState::default();
        self.selected = None;
        self.recent.clear();
        self.window = None;
        self.faults.clear();
        self.activities.clear();
        self.history.clear();
        self.progress.clear();
        self.offline = None;
        self.catalog = CatalogState::default();
        self.timeline.clear_data();
    }

    /// Moves a playing replay on by `dt_secs` of wall time; whether it still
    /// plays (and so wants another frame).
    pub fn advance_replay(&mut self, dt_secs: f64) -> bool {
        let Some(window) = self.window else {
            return false;
        };
        let empty = Vec::new();
        let engine = self
            .history
            .value()
            .map_or(&empty, |h| &h.engine_conditions.rows);
        self.timeline
            .advance_replay(dt_secs, window.since, window.until, engine)
    }

    /// Notes that the service could not be reached; `fetched_at` is when
    /// the cached data now shown was fetched.
    fn went_offline(&mut self, fetched_at: Option<i64>, reason: String) {
        match &mut self.offline {
            Some(o) => {
                o.data_fetched_at = match (o.data_fetched_at, fetched_at) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                o.reason = reason;
            }
            None => {
                tracing::warn!("the service cannot be reached: {reason}");
                self.offline = Some(Offline {
                    data_fetched_at: fetched_at,
                    reason,
                    next_retry: None,
                    retries: 0,
                    probing: false,
                });
            }
        }
    }

    /// Called every frame with the wall clock: offline, tries the service
    /// again when it is time (5 s, then twice as long, up to a minute).
    pub fn tick(&mut self, now: i64) -> Vec<Command> {
        let Some(o) = &mut self.offline else {
            return Vec::new();
        };
        match o.next_retry {
            _ if o.probing => Vec::new(),
            None => {
                o.next_retry = Some(now + Offline::backoff_secs(o.retries));
                Vec::new()
            }
            Some(t) if now >= t => {
                o.retries += 1;
                o.next_retry = Some(now + Offline::backoff_secs(o.retries));
                o.probing = true;
                vec![Command::Probe]
            }
            Some(_) => Vec::new(),
        }
    }

    pub fn on_event(&mut self, event: Event) -> Vec<Command> {
        match event {
            Event::ConnectionTested { request, result } => {
                if self.is_current(&Target::ConnectionTest, request) {
                    self.test_result = Some(
                        result
                            .map(|n| format!("The service answered: {n} integrations."))
                            .map_err(|e| e.to_string()),
                    );
                }
                Vec::new()
            }
            Event::Connected {
                request,
                token_place,
                ..
            } => {
                if !self.is_current(&Target::Connection, request) {
                    return Vec::new();
                }
                self.token_note = token_place.map(|p| p.describe());
                self.connection.status = ConnStatus::Connected;
                let mut out = Vec::new();
                if self.fleet.equipments.is_empty() {
                    out.extend(self.discover());
                }
                out.extend(self.fetch_selected());
                // Restarted on the integrations tab: show them.
                if self.tab == Tab::Catalog {
                    out.extend(self.load_catalog());
                }
                out
            }
            Event::Progress {
                target,
                request,
                progress,
            } => {
                if self.is_current(&target, request) {
                    self.progress.insert(target, progress);
                }
                Vec::new()
            }
            Event::FleetPage {
                request,
                equipments,
                done,
                total,
                finished,
            } => {
                if !self.is_current(&Target::Fleet, request) {
                    return Vec::new();
                }
                if std::mem::take(&mut self.fleet.replace_on_page) {
                    self.fleet.equipments.clear();
                    self.fleet.cached_at = None;
                }
                self.fleet.equipments.extend(equipments);
                self.fleet.done = done;
                self.fleet.total = total;
                self.fleet.loading = !finished;
                Vec::new()
            }
            Event::FleetCached {
                request,
                equipments,
                fetched_at,
            } => {
                if !self.is_current(&Target::Fleet, request) {
                    return Vec::new();
                }
                let n = equipments.len() as i64;
                self.fleet = FleetState {
                    equipments,
                    done: n,
                    total: n,
                    loading: false,
                    error: None,
                    cached_at: Some(fetched_at),
                    replace_on_page: false,
                };
                self.went_offline(Some(fetched_at), "the fleet could not be discovered".into());
                Vec::new()
            }
            Event::Exported { what, outcome, .. } => {
                if let Some(i) = self.exporting.iter().position(|w| *w == what) {
                    self.exporting.remove(i);
                }
                match outcome {
                    ExportOutcome::Saved { path, rows } => self.notify(
                        Level::Info,
                        format!("Exported {what}"),
                        format!("{rows} rows written to {}", path.display()),
                    ),
                    ExportOutcome::Cancelled => self.notify(
                        Level::Info,
                        format!("No file chosen: {what} not exported"),
                        "Where no file dialog can open, start fleetview with --export-dir DIR to save exports there.",
                    ),
                    ExportOutcome::Failed(e) => {
                        self.notify(Level::Error, format!("Could not export {what}"), e)
                    }
                }
                Vec::new()
            }
            Event::Reachable { request } => {
                if !self.is_current(&Target::Probe, request) || self.offline.is_none() {
                    return Vec::new();
                }
                self.offline = None;
                self.notify(
                    Level::Info,
                    "Back online",
                    "The service answers again: the view was refreshed.",
                );
                // Refreshed in place: what is shown stays until the new data.
                let mut out = self.discover_keeping_list();
                out.extend(self.fetch_selected());
                if self.tab == Tab::Catalog {
                    out.extend(self.load_catalog());
                }
                out
            }
            Event::Series {
                request,
                source,
                fetched,
                ..
            } => {
                let target = Target::Series(source);
                if !self.is_current(&target, request) {
                    return Vec::new();
                }
                self.progress.remove(&target);
                if let Some(t) = fetched.offline_since() {
                    self.went_offline(Some(t), format!("{} served from the cache", source.name()));
                }
                match source {
                    SeriesSource::Faults => match fetched.typed::<FaultRow>() {
                        Ok(rows) => self.faults = Loadable::Ready(rows),
                        Err(e) => self
                            .faults
                            .fail(format!("the faults could not be read: {e}")),
                    },
                    SeriesSource::Kind(DataKind::Activities) => {
                        match fetched.typed::<ActivityRow>() {
                            Ok(rows) => self.activities = Loadable::Ready(rows),
                            Err(e) => self
                                .activities
                                .fail(format!("the activities could not be read: {e}")),
                        }
                    }
                    SeriesSource::Kind(_) => {}
                }
                Vec::new()
            }
            Event::Plot {
                request,
                kind,
                series,
                offline,
                ..
            } => {
                let target = Target::Plot(kind);
                if self.is_current(&target, request) {
                    self.progress.remove(&target);
                    if let Some(t) = offline {
                        self.went_offline(
                            Some(t),
                            format!("{} served from the cache", kind.wire()),
                        );
                    }
                    self.timeline.plots.insert(kind, Loadable::Ready(series));
                }
                Vec::new()
            }
            Event::Track {
                request,
                track,
                offline,
                ..
            } => {
                if self.is_current(&Target::Track, request) {
                    self.progress.remove(&Target::Track);
                    if let Some(t) = offline {
                        self.went_offline(Some(t), "positions served from the cache".into());
                    }
                    self.timeline.track = Loadable::Ready(track);
                }
                Vec::new()
            }
            Event::History {
                request,
                history,
                offline,
                ..
            } => {
                if self.is_current(&Target::History, request) {
                    if let Some(t) = offline {
                        self.went_offline(Some(t), "daily history served from the cache".into());
                    }
                    self.history = Loadable::Ready(history);
                    self.progress.remove(&Target::History);
                }
                Vec::new()
            }
            Event::Failed {
                target,
                request,
                error,
            } => {
                if !self.is_current(&target, request) {
                    return Vec::new();
                }
                self.progress.remove(&target);
                self.failed(&target, &error);
                Vec::new()
            }
            Event::Catalog {
                request,
                sources,
                integrations,
            } => {
                if self.is_current(&Target::Catalog, request) {
                    self.catalog.sources = sources;
                    self.catalog.integrations = Loadable::Ready(integrations);
                }
                Vec::new()
            }
            Event::CatalogChanged { change, .. } => {
                match change {
                    CatalogChange::Created { id } => {
                        self.catalog.creating = false;
                        self.catalog.created += 1;
                        self.catalog.selected = id;
                    }
                    CatalogChange::Updated { id } => {
                        self.catalog.busy.remove(&id);
                        self.catalog.updated += 1;
                    }
                    CatalogChange::Deleted { id } => {
                        self.catalog.busy.remove(&id);
                        if self.catalog.selected == Some(id) {
                            self.catalog.selected = None;
                        }
                    }
                    CatalogChange::StatusSet { id, .. } => {
                        self.catalog.busy.remove(&id);
                    }
                }
                // Every change is followed by a fresh list.
                self.load_catalog()
            }
        }
    }

    fn failed(&mut self, target: &Target, error: &ApiError) {
        let message = error.to_string();
        if let Target::Probe = target {
            if let Some(o) = &mut self.offline {
                o.probing = false;
                o.reason = message;
            }
            return;
        }
        match target {
            Target::Fleet => {
                self.fleet.loading = false;
                self.fleet.error = Some(message.clone());
            }
            Target::Series(SeriesSource::Faults) => self.faults.fail(message.clone()),
            Target::Series(SeriesSource::Kind(DataKind::Activities)) => {
                self.activities.fail(message.clone())
            }
            Target::History => self.history.fail(message.clone()),
            Target::Plot(kind) => self
                .timeline
                .plots
                .entry(*kind)
                .or_default()
                .fail(message.clone()),
            Target::Track => self.timeline.track.fail(message.clone()),
            Target::Connection => self.connection.status = ConnStatus::Failed(message.clone()),
            Target::Catalog => self.catalog.integrations.fail(message.clone()),
            Target::CatalogWrite(key) => {
                let service_message = match error {
                    ApiError::BadRequest { message, .. }
                    | ApiError::NotFound { message, .. }
                    | ApiError::Server { message, .. } => message.clone(),
                    other => other.to_string(),
                };
                match key.parse::<i64>() {
                    Ok(id) => {
                        self.catalog.busy.remove(&id);
                        self.catalog.write_error = Some((id, service_message));
                    }
                    Err(_) => {
                        self.catalog.creating = false;
                        self.catalog.create_error = Some(service_message);
                    }
                }
                // Shown beside the form, not as a notification.
                if !error.is_unauthorized() {
                    return;
                }
            }
            _ => {}
        }
        if let ApiError::Unauthorized {
            message: service, ..
        } = error
        {
            // Ask once for a new token; nothing else breaks.
            if !matches!(self.connection.status, ConnStatus::Unauthorized(_)) {
                self.notify(
                    Level::Error,
                    format!("The service refused the access token: {service}"),
                    "Enter a new token in the connection panel.",
                );
            }
            self.connection.status = ConnStatus::Unauthorized(service.clone());
            return;
        }
        if error.is_unreachable() && !matches!(target, Target::CatalogWrite(_)) {
            // The offline mark says it (and retries), not one note per panel.
            self.went_offline(None, message);
            return;
        }
        let title = match target {
            Target::Fleet => "Could not discover the fleet",
            Target::Series(SeriesSource::Faults) => "Could not load the faults",
            Target::Series(_) => "Could not load the activities",
            Target::History => "Could not load the daily history",
            Target::Plot(_) => "Could not load a plotted data kind",
            Target::Track => "Could not load the positions",
            Target::Connection => "Could not connect",
            Target::Catalog => "Could not load the integrations",
            _ => "A request failed",
        };
        self.notify(Level::Error, title, message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::time::parse_wire;

    #[test]
    fn presets_are_whole_utc_days() {
        let now = parse_wire("2025-06-18T15:30:00Z").unwrap_or_default();
        let w = Preset::Last7Days.window(now, (0, 0));
        assert_eq!(
            (w.since_wire(), w.until_wire()),
            ("2025-06-12T00:00:00Z".into(), "2025-06-18T23:59:59Z".into())
        );
        let w = Preset::Yesterday.window(now, (0, 0));
        assert_eq!(
            (w.since_wire(), w.until_wire()),
            ("2025-06-17T00:00:00Z".into(), "2025-06-17T23:59:59Z".into())
        );
        let w = Preset::ThisMonth.window(now, (0, 0));
        assert_eq!(w.since_wire(), "2025-06-01T00:00:00Z");
        let d = days_from_civil(2025, 1, 10);
        let w = Preset::Custom.window(now, (d, d - 2));
        assert_eq!(
            (w.since_wire(), w.until_wire()),
            ("2025-01-08T00:00:00Z".into(), "2025-01-10T23:59:59Z".into())
        );
    }

    fn connection(embedded: bool, url: &str) -> Connection {
        Connection {
            label: "x".into(),
            base_url: url.into(),
            embedded,
            status: ConnStatus::Connected,
            config: ClientConfig::new(url),
        }
    }

    #[test]
    fn settings_survive_a_restart_without_secrets() {
        let mut a = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
        a.on_action(Action::SelectEquipment(1003));
        a.on_action(Action::SetPreset(Preset::Last30Days));
        a.on_action(Action::SetTab(Tab::History));
        a.on_action(Action::SetLocalTime(true));
        a.on_action(Action::SaveProfile {
            index: None,
            profile: Profile {
                name: "Prod".into(),
                base_url: "https://fleet.example".into(),
                sandbox_url: "https://sandbox.fleet.example".into(),
                use_sandbox: true,
                allow_insecure_http: false,
            },
        });
        a.on_action(Action::UseToken(SecretValue::new("tok-secret-123")));
        let saved = serde_json::to_string(&a.settings()).unwrap_or_default();
        assert!(!saved.contains("tok-secret-123"));
        let settings: Settings = serde_json::from_str(&saved).expect("settings read back");

        // Same (embedded) service: everything comes back.
        let mut b = AppState::new(connection(true, "http://127.0.0.1:2"), Some(1_750_000_000));
        b.restore(settings.clone());
        assert_eq!(
            (b.selected, b.preset, b.tab, b.local_time),
            (Some(1003), Preset::Last30Days, Tab::History, true)
        );
        assert_eq!(b.recent, vec![1003]);
        assert_eq!(b.profiles.len(), 1);
        assert_eq!(b.profiles[0].url(), "https://sandbox.fleet.example");
        // Another service: the profiles, not the machine of the other one.
        let mut c = AppState::new(
            connection(false, "https://other.example"),
            Some(1_750_000_000),
        );
        c.restore(settings);
        assert_eq!((c.selected, c.profiles.len()), (None, 1));
    }

    #[test]
    fn connecting_on_the_integrations_tab_loads_them() {
        let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
        s.tab = Tab::Catalog;
        s.sent(Target::Connection, 7);
        let commands = s.on_event(Event::Connected {
            request: 7,
            base_url: "x".into(),
            token_place: None,
        });
        assert!(commands.iter().any(|c| matches!(c, Command::LoadCatalog)));
        assert!(
            commands
                .iter()
                .any(|c| matches!(c, Command::DiscoverFleet { .. }))
        );
        // A stale connection event does nothing.
        assert!(
            s.on_event(Event::Connected {
                request: 3,
                base_url: "x".into(),
                token_place: None
            })
            .is_empty()
        );
    }

    #[test]
    fn search_matches_every_word_anywhere() {
        let e = EquipmentSummary {
            id: 1001,
            name: "EX-001 Volvo EC220E (Rotterdam)".into(),
            make: "Volvo".into(),
            model: "EC220E".into(),
            serial_number: "VCE0EX52047".into(),
        };
        assert!(e.matches("volvo rotter"));
        assert!(e.matches("vce0ex"));
        assert!(e.matches("1001"));
        assert!(!e.matches("volvo hamburg"));
    }

    #[test]
    fn offline_retries_back_off_and_a_reachable_service_refreshes_in_place() {
        let mut s = AppState::new(connection(false, "http://127.0.0.1:1"), Some(1_750_000_000));
        s.on_action(Action::SelectEquipment(1001));
        s.faults = Loadable::Ready(Vec::new());
        s.sent(Target::Series(SeriesSource::Faults), 1);
        s.on_event(Event::Failed {
            target: Target::Series(SeriesSource::Faults),
            request: 1,
            error: ApiError::Network {
                endpoint: "GET /x".into(),
                message: "connection refused".into(),
            },
        });
        assert!(s.offline.is_some());
        assert!(s.notifications.is_empty(), "the offline mark says it, once");
        assert!(s.title().ends_with("(offline)"));
        // First tick schedules, then tries at 5 s, then 10 s after that.
        assert!(s.tick(100).is_empty());
        assert!(s.tick(104).is_empty());
        assert!(matches!(s.tick(105).as_slice(), [Command::Probe]));
        assert!(s.tick(200).is_empty(), "one probe at a time");
        s.sent(Target::Probe, 2);
        s.on_event(Event::Failed {
            target: Target::Probe,
            request: 2,
            error: ApiError::Timeout {
                endpoint: "GET /catalog/dataSources".into(),
                timeout_secs: 60,
            },
        });
        assert!(s.tick(114).is_empty());
        assert!(matches!(s.tick(115).as_slice(), [Command::Probe]));
        // The service answers: a refresh that keeps what is shown meanwhile.
        s.sent(Target::Probe, 3);
        let commands = s.on_event(Event::Reachable { request: 3 });
        assert!(s.offline.is_none());
        assert!(
            commands
                .iter()
                .any(|c| matches!(c, Command::DiscoverFleet { .. }))
        );
        assert!(commands.iter().any(|c| matches!(
            c,
            Command::FetchSeries {
                source: SeriesSource::Faults,
                ..
            }
        )));
        assert_eq!(
            s.faults.value().map(Vec::len),
            Some(0),
            "kept while refreshing"
        );
        assert!(s.tick(1_000).is_empty());
    }

    #[test]
    fn the_backoff_stops_at_a_minute() {
        assert_eq!(Offline::backoff_secs(0), 5);
        assert_eq!(Offline::backoff_secs(1), 10);
        assert_eq!(Offline::backoff_secs(3), 40);
        assert_eq!(Offline::backoff_secs(4), 60);
        assert_eq!(Offline::backoff_secs(u32::MAX), 60);
    }

    #[test]
    fn an_export_under_way_is_not_asked_for_twice() {
        let mut s = AppState::new(connection(true, "http://127.0.0.1:1"), Some(1_750_000_000));
        s.on_action(Action::SelectEquipment(1003));
        let faults = || Action::Export(ExportContent::Faults(Vec::new()));
        let first = s.on_action(faults());
        assert!(matches!(
            first.as_slice(),
            [Command::Export(job)] if job.file_name.starts_with("1003-faults-")
                && job.file_name.ends_with(".csv")
        ));
        assert!(s.on_action(faults()).is_empty(), "its dialog is still open");
        assert_eq!(s.exporting, vec!["faults (CSV)".to_owned()]);
        s.on_event(Event::Exported {
            request: 1,
            what: "faults (CSV)".into(),
            outcome: ExportOutcome::Cancelled,
        });
        assert!(s.exporting.is_empty());
        assert_eq!(s.on_action(faults()).len(), 1, "and can be asked for again");
    }
}
