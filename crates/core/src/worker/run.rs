//! The worker's command loop. It never waits on the network or the
//! keychain itself: every command runs as a task of its own, aborted when a
//! newer command takes its target. A connection change (an API-key login,
//! a profile) sends its new client back to the loop, which puts it in place
//! for the commands after that; a new base URL with a token is put in place
//! at once.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::mpsc as tmpsc;
use tokio::task::AbortHandle;

use super::connect::{self, Connected};
use super::events::{ConnectionEvent, Event};
use super::fetch::Writes;
use super::messages::{Command, RequestId, Target};
use super::shared::{InFlight, Shared};
use super::task::TaskCtx;
use super::tokens::{TokenPlace, TokenStore};
use crate::cache::Cache;
use fleetview_api::{ApiClient, ApiError};

/// What the worker starts with.
pub struct Start {
    pub client: Option<Arc<ApiClient>>,
    /// What the service's data is cached under.
    pub cache_scope: String,
    pub cache: Option<Arc<Cache>>,
}

/// The service in use.
struct Session {
    client: Option<Arc<ApiClient>>,
    cache_scope: String,
}

impl Session {
    /// Makes a new client the one in use and says so, or says why not.
    fn install(
        &mut self,
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
                let event = ConnectionEvent::Connected {
                    request: id,
                    base_url,
                    token_place,
                    user,
                };
                shared.emit(target, id, event);
            }
            Err(error) => shared.emit(
                target,
                id,
                Event::Failed {
                    target: target.clone(),
                    request: id,
                    error,
                },
            ),
        }
    }
}

/// A connection change that finished in its own task, for the loop to put
/// in place (the loop alone owns the session). Its guard keeps it counted
/// in flight until then.
struct ConnectionReady {
    id: RequestId,
    result: Result<Connected, ApiError>,
    token_place: Option<TokenPlace>,
    _guard: InFlight,
}

pub async fn run(
    start: Start,
    mut commands: tmpsc::UnboundedReceiver<(RequestId, Command)>,
    shared: Shared,
) {
    let Start {
        client,
        cache_scope,
        cache,
    } = start;
    let mut session = Session {
        client,
        cache_scope,
    };
    let tokens = Arc::new(TokenStore::default());
    let mut tasks: HashMap<Target, AbortHandle> = HashMap::new();
    let (connected_tx, mut connected_rx) = tmpsc::unbounded_channel::<ConnectionReady>();
    // The zone finder takes a while to build: not on the first machine's
    // figures, which a person waits for.
    tokio::task::spawn_blocking(crate::analysis::events::prepare_time_zones);

    loop {
        let (id, command) = tokio::select! {
            biased;
            Some(done) = connected_rx.recv() => {
                // Put in place unless a newer connection command (or a
                // cancel) was sent meanwhile.
                if shared.current.is(&Target::Connection, done.id) {
                    session.install(done.result, done.token_place, &shared, &Target::Connection, done.id);
                }
                continue;
            }
            next = commands.recv() => match next {
                Some(next) => next,
                None => break,
            },
        };
        let guard = InFlight::sent(&shared.in_flight);
        if matches!(command, Command::CancelReads) {
            tasks.retain(|t, h| {
                let keep = !t.is_read();
                if !keep {
                    h.abort();
                }
                keep
            });
            continue;
        }
        let target = command.target();
        if let Some(old) = tasks.remove(&target) {
            old.abort();
        }
        tasks.retain(|_, h| !h.is_finished());
        let handle = match command {
            Command::Cancel(_) | Command::CancelReads => continue,
            Command::Connect(cfg) if cfg.api_key.is_none() => {
                let result = ApiClient::new(cfg).map(|c| (c, None));
                session.install(result, None, &shared, &target, id);
                continue;
            }
            // The login and the keychain may take long: in tasks of their
            // own, their outcome sent back to this loop.
            Command::Connect(cfg) => {
                let done = connected_tx.clone();
                tokio::spawn(async move {
                    let result = connect::connect(cfg).await;
                    let _ = done.send(ConnectionReady {
                        id,
                        result,
                        token_place: None,
                        _guard: guard,
                    });
                })
            }
            Command::UseProfile {
                config,
                method,
                secret,
            } => {
                let store = tokens.clone();
                let done = connected_tx.clone();
                tokio::spawn(async move {
                    let (result, place) = connect::use_profile(store, config, method, secret).await;
                    let _ = done.send(ConnectionReady {
                        id,
                        result,
                        token_place: Some(place),
                        _guard: guard,
                    });
                })
            }
            Command::StoreToken {
                config,
                method,
                token,
            } => {
                let store = tokens.clone();
                let shared = shared.clone();
                let target = target.clone();
                tokio::spawn(async move {
                    let _guard = guard;
                    let key = connect::keychain_entry(&config.base_url, &method);
                    let token_place = connect::save_token(store, key, token).await;
                    let event = ConnectionEvent::TokenStored {
                        request: id,
                        method,
                        token_place,
                    };
                    shared.emit(&target, id, event);
                })
            }
            Command::TestConnection {
                config,
                method,
                secret,
            } => {
                let store = tokens.clone();
                let shared = shared.clone();
                let target = target.clone();
                tokio::spawn(async move {
                    let _guard = guard;
                    let secret = match secret {
                        Some(t) => Ok(Some(t)),
                        None => {
                            let key = connect::keychain_entry(&config.base_url, &method);
                            match connect::load_token(store, key).await.0 {
                                Ok(t) => Ok(Some(t)),
                                Err(ApiError::NoToken) => Ok(None),
                                Err(e) => Err(e),
                            }
                        }
                    };
                    // Without a secret the request goes without one, and
                    // the service's refusal is the answer.
                    let client = secret.and_then(|secret| {
                        ApiClient::new(match secret {
                            Some(s) => config.with_secret(&method, s),
                            None => config,
                        })
                    });
                    let result = match client {
                        Ok(c) => c.integrations().await.map(|list| (list.len(), c.user())),
                        Err(e) => Err(e),
                    };
                    let event = ConnectionEvent::Tested {
                        request: id,
                        result,
                    };
                    shared.emit(&target, id, event);
                })
            }
            command => {
                shared.page.starting(&command);
                let ctx = TaskCtx {
                    client: session.client.clone(),
                    cache: cache.clone(),
                    cache_scope: session.cache_scope.clone(),
                    shared: shared.clone(),
                    target: target.clone(),
                    id,
                    writes: Writes::new(shared.storer.clone()),
                };
                tokio::spawn(async move {
                    let _guard = guard;
                    ctx.run(command).await;
                })
            }
        };
        tasks.insert(target, handle.abort_handle());
    }
    for (_, t) in tasks {
        t.abort();
    }
}
