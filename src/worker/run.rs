//! The worker's command loop: connection changes run on the loop itself,
//! so the commands after them use the new client; everything else runs as
//! a task of its own, aborted when a newer command takes its target.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::mpsc as tmpsc;
use tokio::task::AbortHandle;

use super::events::Event;
use super::messages::{Command, RequestId, Target};
use super::shared::{InFlight, Shared};
use super::task::TaskCtx;
use super::tokens::{TokenPlace, TokenStore};
use crate::api::{ApiClient, ApiError, ClientConfig};
use crate::cache::Cache;

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
        result: Result<ApiClient, ApiError>,
        token_place: Option<TokenPlace>,
        shared: &Shared,
        target: &Target,
        id: RequestId,
    ) {
        match result {
            Ok(c) => {
                self.cache_scope = c.config().cache_scope().to_owned();
                let base_url = c.config().base_url.clone();
                self.client = Some(Arc::new(c));
                let event = Event::Connected {
                    request: id,
                    base_url,
                    token_place,
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

    while let Some((id, command)) = commands.recv().await {
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
        match command {
            Command::Cancel(_) | Command::CancelReads => {}
            Command::Connect(cfg) => {
                session.install(ApiClient::new(cfg), None, &shared, &target, id)
            }
            Command::UseProfile { config, token } => {
                let key = config.base_url.clone();
                let store = tokens.clone();
                // The keychain may block (D-Bus): off the async threads.
                let found = tokio::task::spawn_blocking(move || match token {
                    Some(t) => {
                        let place = store.save(&key, &t);
                        (Some(t), place)
                    }
                    None => store.load(&key),
                })
                .await;
                let (token, place) =
                    found.unwrap_or_else(|e| (None, TokenPlace::SessionOnly(e.to_string())));
                let result = match token {
                    None => Err(ApiError::NoToken),
                    Some(t) => ApiClient::new(ClientConfig {
                        token: Some(t),
                        ..config
                    }),
                };
                session.install(result, Some(place), &shared, &target, id);
            }
            Command::StoreToken { config, token } => {
                let store = tokens.clone();
                let key = config.base_url;
                // The keychain may block (D-Bus): off the async threads.
                let place = tokio::task::spawn_blocking(move || store.save(&key, &token))
                    .await
                    .unwrap_or_else(|e| TokenPlace::SessionOnly(e.to_string()));
                let event = Event::TokenStored {
                    request: id,
                    token_place: place,
                };
                shared.emit(&target, id, event);
            }
            Command::TestConnection { config, token } => {
                let store = tokens.clone();
                let key = config.base_url.clone();
                let shared = shared.clone();
                let target = target.clone();
                let guard = InFlight::new(&shared.in_flight);
                let handle = tokio::spawn(async move {
                    let _guard = guard;
                    let token = match token {
                        Some(t) => Some(t),
                        None => tokio::task::spawn_blocking(move || store.load(&key).0)
                            .await
                            .ok()
                            .flatten(),
                    };
                    let result = match ApiClient::new(ClientConfig { token, ..config }) {
                        Ok(c) => c.integrations().await.map(|list| list.len()),
                        Err(e) => Err(e),
                    };
                    shared.emit(
                        &target,
                        id,
                        Event::ConnectionTested {
                            request: id,
                            result,
                        },
                    );
                });
                tasks.insert(Target::ConnectionTest, handle.abort_handle());
            }
            Command::Login { username, password } => {
                let result = match session.client.clone() {
                    Some(current) => current
                        .login(&username, password.expose())
                        .await
                        .and_then(|t| current.with_token(t)),
                    None => Err(ApiError::NotConnected),
                };
                session.install(result, None, &shared, &target, id);
            }
            command => {
                let ctx = TaskCtx {
                    client: session.client.clone(),
                    cache: cache.clone(),
                    cache_scope: session.cache_scope.clone(),
                    shared: shared.clone(),
                    target: target.clone(),
                    id,
                };
                let guard = InFlight::new(&shared.in_flight);
                let handle = tokio::spawn(async move {
                    let _guard = guard;
                    ctx.run(command).await;
                });
                tasks.insert(target, handle.abort_handle());
            }
        }
    }
    for (_, t) in tasks {
        t.abort();
    }
}
