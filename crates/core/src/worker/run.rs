//! The worker's command loop. It never waits on the network or the
//! keychain itself: every command runs as a task of its own, aborted when a
//! newer command takes its target. A connection change (an API-key login,
//! a profile) sends its new client back to the loop, which puts it in place
//! for the commands after that; a new base URL with a token is put in place
//! at once.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::mpsc as tmpsc;
use tokio::task::{AbortHandle, JoinHandle};

use super::connect::{self, Connected};
use super::events::{ConnectionEvent, Event};
use super::fetch::Writes;
use super::messages::{Command, RequestId, Target};
use super::service_book;
use super::shared::{InFlight, Shared};
use super::task::TaskCtx;
use super::tokens::{TokenPlace, TokenStore};
use crate::cache::Cache;
use crate::service::change::ServiceCommand;
use fleetview_api::equipment::UserInfo;
use fleetview_api::model::SecretValue;
use fleetview_api::{ApiClient, ApiError, AuthMethod, ClientConfig};

/// What the worker starts with.
pub(crate) struct Start {
    pub(crate) client: Option<Arc<ApiClient>>,
    /// What the service's data is cached under.
    pub(crate) cache_scope: String,
    pub(crate) cache: Option<Arc<Cache>>,
}

/// The service in use.
struct Session {
    client: Option<Arc<ApiClient>>,
    cache_scope: String,
}

impl Session {
    /// Makes a new client the one in use and says so, or says why not.
    /// Failed with no client in use, or one of the same service with
    /// nothing to sign in with (started on a profile whose key is not
    /// kept), the cache of the service chosen is read alone from then on:
    /// signed out, it is shown. Failed for want of the service, the
    /// client of the key typed is kept: it signs in when the service
    /// answers (a probe).
    fn install(
        &mut self,
        chosen: Chosen,
        result: Result<Connected, ApiError>,
        token_place: Option<TokenPlace>,
        shared: &Shared,
        target: &Target,
        id: RequestId,
    ) {
        match result {
            Ok((c, user)) => {
                self.cache_scope = c.config().cache_scope().to_owned();
                let base_url = c.config().base_url.clone();
                self.client = Some(Arc::new(c));
                // In place before it is said: the reads that follow are
                // dated by this service's clock, never the last one's.
                shared.service_clock.set(self.client.clone());
                let event = ConnectionEvent::Connected {
                    request: id,
                    base_url,
                    token_place,
                    user,
                };
                shared.emit(target, id, event);
            }
            Err(error) => {
                let keyless = self.client.as_ref().is_none_or(|c| {
                    let config = c.config();
                    config.cache_scope() == chosen.scope
                        && config.token.is_none()
                        && config.api_key.is_none()
                });
                let waiting = chosen
                    .waiting
                    .filter(|_| error.is_unreachable())
                    .and_then(|config| ApiClient::new(config).ok());
                if let Some(c) = waiting {
                    self.client = Some(Arc::new(c));
                    self.cache_scope = chosen.scope;
                } else if keyless {
                    self.client = None;
                    self.cache_scope = chosen.scope;
                }
                shared.service_clock.set(self.client.clone());
                shared.emit(
                    target,
                    id,
                    Event::Failed {
                        target: target.clone(),
                        request: id,
                        error,
                    },
                );
            }
        }
    }
}

/// The service a connection command chose: its cache scope and, for a
/// login, the configuration to keep if the service cannot be reached.
struct Chosen {
    scope: String,
    waiting: Option<ClientConfig>,
}

impl Chosen {
    fn of(config: &ClientConfig, keep_if_away: bool) -> Self {
        Self {
            scope: config.cache_scope().to_owned(),
            waiting: keep_if_away.then(|| config.clone()),
        }
    }
}

/// A connection change that finished in its own task, for the loop to put
/// in place (the loop alone owns the session). Its guard keeps it counted
/// in flight until then.
struct ConnectionReady {
    id: RequestId,
    chosen: Chosen,
    result: Result<Connected, ApiError>,
    token_place: Option<TokenPlace>,
    _guard: InFlight,
}

/// The command loop's own state: the service in use, the task running for
/// each target, where connection changes come back.
struct CommandLoop {
    session: Session,
    cache: Option<Arc<Cache>>,
    shared: Shared,
    tokens: Arc<TokenStore>,
    tasks: HashMap<Target, AbortHandle>,
    connected: tmpsc::UnboundedSender<ConnectionReady>,
    /// The service book's thread, started on its first command.
    book: Option<std::sync::mpsc::Sender<service_book::BookJob>>,
}

pub(crate) async fn run(
    start: Start,
    mut commands: tmpsc::UnboundedReceiver<(RequestId, Command)>,
    shared: Shared,
) {
    let Start {
        client,
        cache_scope,
        cache,
    } = start;
    let (connected, mut connected_rx) = tmpsc::unbounded_channel::<ConnectionReady>();
    let mut state = CommandLoop {
        session: Session {
            client,
            cache_scope,
        },
        cache,
        shared,
        tokens: Arc::new(TokenStore::default()),
        tasks: HashMap::new(),
        connected,
        book: None,
    };
    // The zone finder takes a while to build: not on the first machine's
    // figures, which a person waits for.
    tokio::task::spawn_blocking(crate::analysis::events::prepare_time_zones);

    loop {
        tokio::select! {
            biased;
            Some(done) = connected_rx.recv() => state.connection_ready(done),
            next = commands.recv() => match next {
                Some((id, command)) => state.take(id, command),
                None => break,
            },
        }
    }
    for (_, t) in state.tasks {
        t.abort();
    }
}

impl CommandLoop {
    /// Puts a connection change in place unless a newer connection command
    /// (or a cancel) was sent meanwhile.
    fn connection_ready(&mut self, done: ConnectionReady) {
        if self.shared.current.is(&Target::Connection, done.id) {
            let (result, place) = (done.result, done.token_place);
            let target = Target::Connection;
            self.session
                .install(done.chosen, result, place, &self.shared, &target, done.id);
        }
    }

    /// Starts a command's work; what ran for its target is stopped.
    fn take(&mut self, id: RequestId, command: Command) {
        let guard = InFlight::sent(&self.shared.in_flight);
        if matches!(command, Command::CancelReads) {
            self.tasks.retain(|t, h| {
                let keep = !t.is_read();
                if !keep {
                    h.abort();
                }
                keep
            });
            return;
        }
        let target = command.target();
        if let Some(old) = self.tasks.remove(&target) {
            old.abort();
        }
        self.tasks.retain(|_, h| !h.is_finished());
        if let Some(handle) = self.start(id, &target, command, guard) {
            self.tasks.insert(target, handle.abort_handle());
        }
    }

    /// The task doing a command's work, if it needs one.
    fn start(
        &mut self,
        id: RequestId,
        target: &Target,
        command: Command,
        guard: InFlight,
    ) -> Option<JoinHandle<()>> {
        let store = self.tokens.clone();
        let handle = match command {
            Command::Cancel(_) | Command::CancelReads => return None,
            Command::Service { command, .. } => {
                self.send_to_book(id, target, command, guard);
                return None;
            }
            Command::Connect(cfg) if cfg.api_key.is_none() => {
                let chosen = Chosen::of(&cfg, false);
                let result = ApiClient::new(cfg).map(|c| (c, None));
                self.session
                    .install(chosen, result, None, &self.shared, target, id);
                return None;
            }
            // The login and the keychain may take long: in tasks of their
            // own, their outcome sent back to this loop.
            Command::Connect(cfg) => {
                self.connecting(id, Chosen::of(&cfg, true), guard, async move {
                    (connect::connect(cfg).await, None)
                })
            }
            Command::UseProfile {
                config,
                method,
                secret,
            } => self.connecting(id, Chosen::of(&config, false), guard, async move {
                let (result, place) = connect::use_profile(store, config, method, secret).await;
                (result, Some(place))
            }),
            Command::StoreToken {
                config,
                method,
                token,
            } => self.answering(id, target, guard, async move {
                let key = connect::keychain_entry(&config.base_url, &method);
                let token_place = connect::save_token(store, key, token).await;
                ConnectionEvent::TokenStored {
                    request: id,
                    method,
                    token_place,
                }
            }),
            Command::TestConnection {
                config,
                method,
                secret,
            } => self.answering(id, target, guard, async move {
                let result = test_connection(store, config, method, secret).await;
                ConnectionEvent::Tested {
                    request: id,
                    result,
                }
            }),
            command => self.task(id, target, command, guard),
        };
        Some(handle)
    }

    /// Hands a command to the service book's thread (started now if not
    /// yet), for the service in use.
    fn send_to_book(
        &mut self,
        id: RequestId,
        target: &Target,
        command: ServiceCommand,
        guard: InFlight,
    ) {
        if self.book.is_none() {
            match service_book::spawn_book(self.shared.clone()) {
                Ok(tx) => self.book = Some(tx),
                Err(e) => {
                    tracing::error!(error = %e, "the service book's thread did not start");
                    return;
                }
            }
        }
        let job = service_book::BookJob {
            id,
            target: target.clone(),
            service: self.session.cache_scope.clone(),
            command,
            guard,
        };
        if let Some(tx) = &self.book {
            let _ = tx.send(job);
        }
    }

    /// A connection change in a task of its own, its outcome sent back to
    /// the loop, which alone puts it in place.
    fn connecting(
        &self,
        id: RequestId,
        chosen: Chosen,
        guard: InFlight,
        work: impl Future<Output = (Result<Connected, ApiError>, Option<TokenPlace>)> + Send + 'static,
    ) -> JoinHandle<()> {
        let done = self.connected.clone();
        tokio::spawn(async move {
            let (result, token_place) = work.await;
            let _ = done.send(ConnectionReady {
                id,
                chosen,
                result,
                token_place,
                _guard: guard,
            });
        })
    }

    /// Work on the connection in a task of its own, which says what came
    /// of it.
    fn answering(
        &self,
        id: RequestId,
        target: &Target,
        guard: InFlight,
        work: impl Future<Output = ConnectionEvent> + Send + 'static,
    ) -> JoinHandle<()> {
        let shared = self.shared.clone();
        let target = target.clone();
        tokio::spawn(async move {
            let _guard = guard;
            let event = work.await;
            shared.emit(&target, id, event);
        })
    }

    /// Any other command, as a task of its own with the service in use.
    fn task(
        &self,
        id: RequestId,
        target: &Target,
        command: Command,
        guard: InFlight,
    ) -> JoinHandle<()> {
        self.shared.page.starting(&command);
        let ctx = TaskCtx {
            client: self.session.client.clone(),
            cache: self.cache.clone(),
            cache_scope: self.session.cache_scope.clone(),
            shared: self.shared.clone(),
            target: target.clone(),
            id,
            writes: Writes::new(self.shared.storer.clone()),
        };
        let page = target.is_page().then(|| self.shared.page_in_flight.start());
        tokio::spawn(async move {
            // Dropped in reverse: the count of all tasks is down by the
            // time the page's guard wakes the UI.
            let _page = page;
            let _guard = guard;
            ctx.run(command).await;
        })
    }
}

/// One authenticated request with `secret`, else the one kept for the
/// service: integrations counted and who an API key signed in as.
async fn test_connection(
    store: Arc<TokenStore>,
    config: ClientConfig,
    method: AuthMethod,
    secret: Option<SecretValue>,
) -> Result<(usize, Option<UserInfo>), ApiError> {
    let secret = match secret {
        Some(t) => Some(t),
        None => {
            let key = connect::keychain_entry(&config.base_url, &method);
            match connect::load_token(store, key).await.0 {
                Ok(t) => Some(t),
                Err(ApiError::NoToken) => None,
                Err(e) => return Err(e),
            }
        }
    };
    // Without a secret the request goes without one, and the service's
    // refusal is the answer.
    let client = ApiClient::new(match secret {
        Some(s) => config.with_secret(&method, s),
        None => config,
    })?;
    let list = client.integrations().await?;
    Ok((list.len(), client.user()))
}
