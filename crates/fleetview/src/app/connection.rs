//! The service the app talks to: the connection in use and its state, who
//! is logged in, the saved profiles (each signing in with an API key or a
//! token), the embedded sandbox's login, the offline mark with its
//! back-off, and what a refused token or key does (one notice, a field for
//! a new one; nothing else stops working).

use serde::{Deserialize, Serialize};

use super::errors::{Problem, explain, unreachable};
use super::failure::Failure;
use fleetview_api::address::host_label;
use fleetview_api::equipment::UserInfo;
use fleetview_api::model::SecretValue;
use fleetview_api::{ApiError, ApiKey, AuthMethod, ClientConfig};
use fleetview_core::worker::{Command, ConnectionEvent, Target, TokenPlace};

/// Offline, the service is tried again after this, then twice as long each
/// time, up to the maximum (each try draws a few frames: a laptop offline
/// for hours tries every 5 minutes, or at once with *Retry now*).
const RETRY_FIRST_SECS: i64 = 5;
const RETRY_MAX_SECS: i64 = 300;
const EMBEDDED_LABEL: &str = "Embedded sandbox";
/// What the embedded sandbox's data is cached under: its port changes at
/// each start, its data only with the app's version.
const EMBEDDED_CACHE_SCOPE: &str =
    concat!("fleetview-embedded-sandbox:", env!("CARGO_PKG_VERSION"));

#[derive(Debug, Clone, PartialEq)]
pub enum ConnStatus {
    Connecting,
    Connected,
    /// The service refused the token (or the API key); its message.
    Unauthorized(String),
    /// No token or API key is kept for this service on this computer (one
    /// kept for a session only, after a restart): asked for as a refused
    /// one is.
    NoSecret,
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct Connection {
    /// What the user calls it: "Embedded sandbox" or the service's host.
    pub label: String,
    pub base_url: String,
    pub embedded: bool,
    pub status: ConnStatus,
    /// Options to rebuild the client with a new token or key (no secret
    /// inside).
    pub config: ClientConfig,
    /// How the user signs in to it: what to ask for when it is refused.
    pub auth: AuthMethod,
}

impl Connection {
    fn new(label: String, config: ClientConfig, embedded: bool, auth: AuthMethod) -> Self {
        Self {
            label,
            base_url: config.base_url.clone(),
            embedded,
            status: ConnStatus::Connecting,
            config,
            auth,
        }
    }

    /// The embedded sandbox at `base_url`, signed in to with its API key.
    pub fn embedded(base_url: &str, key_name: &str) -> Self {
        let mut config = ClientConfig::new(base_url);
        config.cache_scope = Some(EMBEDDED_CACHE_SCOPE.to_owned());
        let auth = AuthMethod::ApiKey {
            name: key_name.to_owned(),
        };
        Self::new(EMBEDDED_LABEL.into(), config, true, auth)
    }

    /// A service given on the command line.
    pub fn service(base_url: &str, allow_insecure_http: bool, auth: AuthMethod) -> Self {
        let mut config = ClientConfig::new(base_url);
        config.allow_insecure_http = allow_insecure_http;
        Self::new(host_label(base_url), config, false, auth)
    }

    /// A saved profile's service (or its sandbox address).
    pub fn profile(p: &Profile) -> Self {
        Self::new(p.name.clone(), p.client_config(), false, p.auth.clone())
    }

    /// The options with this secret in place of the one refused.
    fn with_secret(&self, secret: SecretValue) -> ClientConfig {
        self.config.clone().with_secret(&self.auth, secret)
    }
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
    /// An API key's name, or a token (profiles saved before API keys).
    #[serde(default)]
    pub auth: AuthMethod,
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

    /// Connecting to it, with `secret` if one was typed (else the one kept).
    pub fn use_command(&self, secret: Option<SecretValue>) -> Command {
        Command::UseProfile {
            config: self.client_config(),
            method: self.auth.clone(),
            secret,
        }
    }
}

/// How to log in to the embedded sandbox (its built-in API key, given by
/// whoever started it).
#[derive(Debug, Clone)]
pub struct EmbeddedLogin {
    pub base_url: String,
    pub api_key: ApiKey,
}

impl EmbeddedLogin {
    /// The embedded sandbox as a connection.
    pub fn connection(&self) -> Connection {
        Connection::embedded(&self.base_url, &self.api_key.name)
    }

    /// Connecting to it: a login with its key.
    pub fn command(&self) -> Command {
        let mut config = self.connection().config;
        config.api_key = Some(self.api_key.clone());
        Command::Connect(config)
    }
}

/// The service could not be reached: what is shown comes from the cache.
#[derive(Debug, Clone, PartialEq)]
pub struct Offline {
    /// When the oldest data shown was fetched (`None`: none cached shown).
    pub data_fetched_at: Option<i64>,
    /// The last error met.
    pub reason: String,
    /// The last error met, in words (`None`: data was served from the
    /// cache, no error said why).
    pub problem: Option<Problem>,
    /// When the service is tried next (wall clock; `None`: at the next tick).
    pub next_retry: Option<i64>,
    pub retries: u32,
    /// A probe is in flight.
    pub probing: bool,
}

impl Offline {
    pub fn backoff_secs(retries: u32) -> i64 {
        (RETRY_FIRST_SECS << retries.min(8)).min(RETRY_MAX_SECS)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ConnectionAction {
    /// Offline: try the service now rather than at the next retry.
    RetryNow,
    /// Connect to the embedded sandbox.
    UseEmbedded,
    /// Connect to a saved profile, keeping `secret` (its token or API key)
    /// if one was typed.
    UseProfile {
        index: usize,
        secret: Option<SecretValue>,
    },
    /// Add (`index: None`) or change a profile, keeping `secret` for it if
    /// one was typed.
    SaveProfile {
        index: Option<usize>,
        profile: Profile,
        secret: Option<SecretValue>,
    },
    DeleteProfile(usize),
    /// Try a profile's address with one authenticated request.
    TestProfile {
        profile: Profile,
        secret: Option<SecretValue>,
    },
    /// Use a new access token (or API key, as the service in use signs in)
    /// for the current service.
    UseSecret(SecretValue),
}

/// What a connection action asks of the rest of the app.
#[derive(Debug, Default)]
pub struct ConnectionOutcome {
    pub commands: Vec<Command>,
    /// Another service is now in use: nothing of the last one may show.
    pub switched: bool,
    /// Something to tell the user (an error).
    pub error: Option<String>,
}

/// What a connection event asks of the rest of the app.
#[derive(Debug, PartialEq, Eq)]
pub enum ConnectionNews {
    Nothing,
    /// The worker now talks to the service: load what is not shown yet,
    /// and dismiss the notice of an earlier failure to connect.
    Connected {
        failure_note: Option<u64>,
    },
    /// The service answers again after being away: refresh in place.
    BackOnline,
}

#[derive(Debug)]
pub struct ConnectionState {
    pub current: Connection,
    /// Set while the service cannot be reached.
    pub offline: Option<Offline>,
    pub profiles: Vec<Profile>,
    pub active_profile: Option<usize>,
    /// The embedded sandbox's login, when it runs.
    pub embedded: Option<EmbeddedLogin>,
    /// Where the token or API key of the current profile is kept.
    pub token_note: Option<String>,
    /// Who is logged in (from the API-key login's answer).
    pub user: Option<UserInfo>,
    /// The last connection test: what the service said, or the error.
    pub test_result: Option<Result<String, Problem>>,
    /// The notice of the last failure to connect, dismissed once connected.
    pub failure_note: Option<u64>,
    /// The connection failed for want of the service: the worker keeps
    /// its client (with the key typed), which signs in once the service
    /// answers; that answer is then the connection's.
    sign_in_waits: bool,
}

impl ConnectionState {
    pub fn new(current: Connection) -> Self {
        Self {
            current,
            offline: None,
            profiles: Vec::new(),
            active_profile: None,
            embedded: None,
            token_note: None,
            user: None,
            test_result: None,
            failure_note: None,
            sign_in_waits: false,
        }
    }

    pub fn on_action(&mut self, action: ConnectionAction) -> ConnectionOutcome {
        let mut out = ConnectionOutcome::default();
        match action {
            ConnectionAction::RetryNow => {
                if let Some(o) = &mut self.offline
                    && !o.probing
                {
                    o.probing = true;
                    out.commands.push(Command::Probe);
                }
            }
            ConnectionAction::UseEmbedded => {
                let Some(login) = self.embedded.clone() else {
                    out.error = Some("The embedded sandbox is not running".into());
                    return out;
                };
                self.switch_to(login.connection());
                self.active_profile = None;
                self.token_note = None;
                out.switched = true;
                out.commands = vec![login.command()];
            }
            ConnectionAction::UseProfile { index, secret } => {
                let Some(p) = self.profiles.get(index).cloned() else {
                    return out;
                };
                self.switch_to(Connection::profile(&p));
                self.active_profile = Some(index);
                out.switched = true;
                out.commands.push(p.use_command(secret));
            }
            ConnectionAction::SaveProfile {
                index,
                profile,
                secret,
            } => {
                if let Some(token) = secret {
                    out.commands.push(Command::StoreToken {
                        config: profile.client_config(),
                        method: profile.auth.clone(),
                        token,
                    });
                }
                match index.filter(|i| *i < self.profiles.len()) {
                    Some(i) => self.profiles[i] = profile,
                    None => self.profiles.push(profile),
                }
            }
            ConnectionAction::DeleteProfile(index) => {
                if index < self.profiles.len() {
                    self.profiles.remove(index);
                    self.active_profile = match self.active_profile {
                        Some(a) if a == index => None,
                        Some(a) if a > index => Some(a - 1),
                        other => other,
                    };
                }
            }
            ConnectionAction::TestProfile { profile, secret } => {
                self.test_result = None;
                out.commands.push(Command::TestConnection {
                    config: profile.client_config(),
                    method: profile.auth.clone(),
                    secret,
                });
            }
            ConnectionAction::UseSecret(secret) => {
                self.current.status = ConnStatus::Connecting;
                // The profile in use keeps what was typed for it, so the
                // one refused does not come back with the profile.
                if let Some(p) = self.active_profile.and_then(|i| self.profiles.get(i))
                    && !self.current.embedded
                    && p.auth == self.current.auth
                {
                    out.commands.push(Command::StoreToken {
                        config: p.client_config(),
                        method: p.auth.clone(),
                        token: secret.clone(),
                    });
                }
                out.commands
                    .push(Command::Connect(self.current.with_secret(secret)));
            }
        }
        out
    }

    fn switch_to(&mut self, connection: Connection) {
        self.current = connection;
        self.offline = None;
        self.user = None;
        // A test of another service's address says nothing of this one.
        self.test_result = None;
    }

    /// Takes in an event of the connection.
    pub fn on_event(&mut self, event: ConnectionEvent) -> ConnectionNews {
        match event {
            ConnectionEvent::Tested { result, .. } => {
                self.tested(
                    result
                        .map(|(n, user)| match user.and_then(|u| u.label()) {
                            Some(who) => {
                                format!(
                                    "Signed in as {who}. The service answered: {n} integrations."
                                )
                            }
                            None => format!("The service answered: {n} integrations."),
                        })
                        .map_err(|e| explain(&e)),
                );
            }
            ConnectionEvent::TokenStored {
                token_place,
                method,
                ..
            } => self.token_stored(token_place, &method),
            ConnectionEvent::Connected {
                token_place, user, ..
            } => {
                let failure_note = self.connected(token_place, user);
                return ConnectionNews::Connected { failure_note };
            }
            ConnectionEvent::Reachable { .. } => {
                if self.back_online() {
                    if std::mem::take(&mut self.sign_in_waits) {
                        let failure_note = self.connected(None, None);
                        return ConnectionNews::Connected { failure_note };
                    }
                    return ConnectionNews::BackOnline;
                }
            }
        }
        ConnectionNews::Nothing
    }

    /// A connection (or a probe of the service) failed.
    pub fn on_failed(&mut self, target: &Target, error: &ApiError) -> Failure {
        if *target == Target::Probe {
            self.probe_failed(error.to_string());
            if let Some(o) = &mut self.offline {
                o.problem = Some(explain(error));
            }
            return Failure::Said;
        }
        self.sign_in_waits = *target == Target::Connection && error.is_unreachable();
        self.current.status = if self.sign_in_waits {
            // Offline says it; the probes sign in once it answers.
            ConnStatus::Connecting
        } else {
            ConnStatus::Failed(explain(error).title)
        };
        Failure::Notice
    }

    /// The worker now talks to the service; the notice of an earlier
    /// failure to connect, to dismiss.
    pub fn connected(
        &mut self,
        token_place: Option<TokenPlace>,
        user: Option<UserInfo>,
    ) -> Option<u64> {
        if let Some(p) = token_place {
            self.token_note = Some(p.describe(self.current.auth.secret_label()));
        }
        if user.is_some() {
            self.user = user;
        }
        self.current.status = ConnStatus::Connected;
        self.failure_note.take()
    }

    /// A profile's token or API key was kept.
    pub fn token_stored(&mut self, place: TokenPlace, method: &AuthMethod) {
        self.token_note = Some(place.describe(method.secret_label()));
    }

    pub fn tested(&mut self, result: Result<String, Problem>) {
        self.test_result = Some(result);
    }

    /// The service refused the token: whether this is news (to say once).
    pub fn refused(&mut self, service_message: &str) -> bool {
        let news = !matches!(self.current.status, ConnStatus::Unauthorized(_));
        self.current.status = ConnStatus::Unauthorized(service_message.to_owned());
        news
    }

    /// Nothing to sign in with: whether this is news (to say once).
    pub fn no_secret(&mut self) -> bool {
        let news = self.current.status != ConnStatus::NoSecret;
        self.current.status = ConnStatus::NoSecret;
        news
    }

    /// The service needs a token or key from the user (refused, or none).
    pub fn needs_secret(&self) -> bool {
        matches!(
            self.current.status,
            ConnStatus::Unauthorized(_) | ConnStatus::NoSecret
        )
    }

    /// Something was shown from the cache, read at `fetched_at`, for want
    /// of an answer: offline, unless the service needs a token or key from
    /// the user (it was not the service that was away).
    pub fn shown_from_cache(&mut self, fetched_at: i64, reason: &str) {
        if !self.needs_secret() {
            self.went_offline(Some(fetched_at), reason.to_owned());
        }
    }

    /// Notes that the service could not be reached; `fetched_at` is when
    /// the cached data now shown was fetched.
    pub fn went_offline(&mut self, fetched_at: Option<i64>, reason: String) {
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
                    problem: None,
                    next_retry: None,
                    retries: 0,
                    probing: false,
                });
            }
        }
    }

    /// The service could not be reached: offline, for this reason.
    pub fn cannot_reach(&mut self, problem: Problem) {
        self.went_offline(None, problem.detail.clone());
        if let Some(o) = &mut self.offline {
            o.problem = Some(problem);
        }
    }

    /// Why the service is out of reach, in words: the last error met, else
    /// its address.
    pub fn offline_problem(&self) -> Option<Problem> {
        let o = self.offline.as_ref()?;
        Some(o.problem.clone().unwrap_or_else(|| Problem {
            detail: o.reason.clone(),
            ..unreachable(&self.current.base_url)
        }))
    }

    /// A probe failed: still offline, for this reason.
    pub fn probe_failed(&mut self, reason: String) {
        if let Some(o) = &mut self.offline {
            o.probing = false;
            o.reason = reason;
        }
    }

    /// The service answers again: whether it was offline.
    pub fn back_online(&mut self) -> bool {
        self.offline.take().is_some()
    }

    /// Called every frame with the wall clock: offline, tries the service
    /// again when it is time (5 s, then twice as long, up to a minute).
    pub fn tick(&mut self, now: i64) -> Option<Command> {
        let o = self.offline.as_mut()?;
        match o.next_retry {
            _ if o.probing => None,
            None => {
                o.next_retry = Some(now + Offline::backoff_secs(o.retries));
                None
            }
            Some(t) if now >= t => {
                o.retries += 1;
                o.next_retry = Some(now + Offline::backoff_secs(o.retries));
                o.probing = true;
                Some(Command::Probe)
            }
            Some(_) => None,
        }
    }

    /// The service answered: it is online (until then, connecting).
    pub fn answered(&mut self) {
        if self.current.status == ConnStatus::Connecting {
            self.current.status = ConnStatus::Connected;
        }
    }

    pub fn title(&self) -> String {
        let status = match &self.current.status {
            ConnStatus::Connecting | ConnStatus::Connected if self.offline.is_some() => {
                " (offline)"
            }
            ConnStatus::Connecting => " (connecting)",
            ConnStatus::Connected => "",
            ConnStatus::Unauthorized(_) => match self.current.auth {
                AuthMethod::ApiKey { .. } => " (API key refused)",
                AuthMethod::Token => " (token refused)",
            },
            ConnStatus::NoSecret => match self.current.auth {
                AuthMethod::ApiKey { .. } => " (no API key)",
                AuthMethod::Token => " (no access token)",
            },
            ConnStatus::Failed(_) => " (not connected)",
        };
        format!("Fleetview: {}{status}", self.current.label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_stops_at_a_minute() {
        assert_eq!(Offline::backoff_secs(0), 5);
        assert_eq!(Offline::backoff_secs(1), 10);
        assert_eq!(Offline::backoff_secs(3), 40);
        assert_eq!(Offline::backoff_secs(5), 160);
        assert_eq!(Offline::backoff_secs(6), 300);
        assert_eq!(Offline::backoff_secs(u32::MAX), 300);
    }

    #[test]
    fn switching_service_forgets_the_last_test() {
        let mut s = ConnectionState::new(Connection::service(
            "http://127.0.0.1:9",
            false,
            AuthMethod::Token,
        ));
        s.embedded = Some(EmbeddedLogin {
            base_url: "http://127.0.0.1:1".into(),
            api_key: ApiKey::new("demo", "demo"),
        });
        s.tested(Err("refused".into()));
        let out = s.on_action(ConnectionAction::UseEmbedded);
        assert!(out.switched);
        assert_eq!(s.test_result, None);
    }

    #[test]
    fn a_key_typed_after_a_refusal_is_kept_for_the_profile_in_use() {
        let mut s = ConnectionState::new(Connection::service(
            "http://127.0.0.1:9",
            false,
            AuthMethod::Token,
        ));
        let profile = Profile {
            name: "Prod".into(),
            base_url: "https://a.example".into(),
            sandbox_url: String::new(),
            use_sandbox: false,
            allow_insecure_http: false,
            auth: AuthMethod::ApiKey { name: "ops".into() },
        };
        s.on_action(ConnectionAction::SaveProfile {
            index: None,
            profile,
            secret: None,
        });
        s.on_action(ConnectionAction::UseProfile {
            index: 0,
            secret: None,
        });
        let out = s.on_action(ConnectionAction::UseSecret(SecretValue::new("k2")));
        match out.commands.as_slice() {
            [
                Command::StoreToken { method, token, .. },
                Command::Connect(config),
            ] => {
                assert_eq!(*method, AuthMethod::ApiKey { name: "ops".into() });
                assert_eq!(token.expose(), "k2");
                assert_eq!(
                    config.api_key.as_ref().map(|k| k.name.as_str()),
                    Some("ops")
                );
            }
            other => panic!("expected the key kept, then a login: {other:?}"),
        }
    }

    #[test]
    fn each_kind_of_connection_is_built_one_way() {
        let e = Connection::embedded("http://127.0.0.1:9", "demo");
        assert!(e.embedded && e.label == EMBEDDED_LABEL && e.base_url == "http://127.0.0.1:9");
        let s = Connection::service("https://fleet.example.com", true, AuthMethod::Token);
        assert!(!s.embedded && s.label == "fleet.example.com" && s.config.allow_insecure_http);
        let p = Profile {
            name: "Prod".into(),
            base_url: "https://a.example".into(),
            sandbox_url: "https://b.example".into(),
            use_sandbox: true,
            allow_insecure_http: false,
            auth: AuthMethod::Token,
        };
        let c = Connection::profile(&p);
        assert_eq!(
            (c.label.as_str(), c.base_url.as_str()),
            ("Prod", "https://b.example")
        );
        assert_eq!(c.status, ConnStatus::Connecting);
    }
}
