//! The slow parts of connecting: a login (an HTTP round trip, up to the
//! request timeout) and the system keychain (D-Bus, which may hang). They
//! run as tasks of their own with timeouts, so the command loop keeps
//! answering (a cancel, another command) while they wait.

use std::sync::Arc;
use std::time::Duration;

use super::tokens::{TokenPlace, TokenStore};
use fleetview_api::equipment::UserInfo;
use fleetview_api::model::SecretValue;
use fleetview_api::{ApiClient, ApiError, AuthMethod, ClientConfig};

/// How long a keychain read or write may take before it is given up.
pub(crate) const KEYCHAIN_TIMEOUT: Duration = Duration::from_secs(5);

/// Runs blocking work on a blocking thread; `None` if it has not returned
/// within `timeout` (it is left to finish on its own) or panicked.
pub(crate) async fn blocking_within<T: Send + 'static>(
    timeout: Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    tokio::time::timeout(timeout, tokio::task::spawn_blocking(work))
        .await
        .ok()?
        .ok()
}

fn keychain_silent() -> TokenPlace {
    TokenPlace::SessionOnly(format!(
        "the system keychain did not answer within {} s",
        KEYCHAIN_TIMEOUT.as_secs()
    ))
}

/// Keeps a token for `key`: in memory at once, in the keychain if it
/// answers in time.
pub(crate) async fn save_token(
    store: Arc<TokenStore>,
    key: String,
    token: SecretValue,
) -> TokenPlace {
    store.remember(&key, &token);
    blocking_within(KEYCHAIN_TIMEOUT, move || store.save(&key, &token))
        .await
        .unwrap_or_else(keychain_silent)
}

/// The token kept for `key`: the keychain's, else the one remembered in
/// this session; a keychain that does not answer in time is said so.
pub(crate) async fn load_token(
    store: Arc<TokenStore>,
    key: String,
) -> (Result<SecretValue, ApiError>, TokenPlace) {
    let keychain = {
        let (store, key) = (store.clone(), key.clone());
        blocking_within(KEYCHAIN_TIMEOUT, move || store.load(&key)).await
    };
    match keychain {
        Some((Some(token), place)) => (Ok(token), place),
        Some((None, place)) => (Err(ApiError::NoToken), place),
        None => match store.remembered(&key) {
            Some(token) => (Ok(token), keychain_silent()),
            None => (
                Err(ApiError::KeychainTimeout {
                    timeout_secs: KEYCHAIN_TIMEOUT.as_secs(),
                }),
                keychain_silent(),
            ),
        },
    }
}

/// A client now usable, and who its API key belongs to (if it has one).
pub(crate) type Connected = (ApiClient, Option<UserInfo>);

/// The client for `config`, logged in first when it has an API key.
pub(crate) async fn connect(config: ClientConfig) -> Result<Connected, ApiError> {
    let client = ApiClient::new(config)?;
    let user = client.log_in_with_key().await?;
    Ok((client, user))
}

/// Where a profile's secret is kept: a token under its address, an API
/// key under its address and the key's name.
pub(crate) fn keychain_entry(base_url: &str, method: &AuthMethod) -> String {
    match method {
        AuthMethod::Token => base_url.to_owned(),
        AuthMethod::ApiKey { name } => format!("{base_url} api-key:{name}"),
    }
}

/// A saved profile's client: its secret given (then kept) or the one kept,
/// logged in when it is an API key.
pub(crate) async fn use_profile(
    store: Arc<TokenStore>,
    config: ClientConfig,
    method: AuthMethod,
    secret: Option<SecretValue>,
) -> (Result<Connected, ApiError>, TokenPlace) {
    let key = keychain_entry(&config.base_url, &method);
    let (secret, place) = match secret {
        Some(t) => {
            let place = save_token(store, key, t.clone()).await;
            (Ok(t), place)
        }
        None => load_token(store, key).await,
    };
    let connected = match secret {
        Ok(s) => connect(config.with_secret(&method, s)).await,
        Err(e) => Err(e),
    };
    (connected, place)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn blocking_work_that_does_not_return_is_given_up_in_time() {
        let (release, blocked) = std::sync::mpsc::channel::<()>();
        let started = std::time::Instant::now();
        let answer =
            blocking_within(Duration::from_millis(100), move || blocked.recv().is_ok()).await;
        assert_eq!(answer, None);
        assert!(started.elapsed() < Duration::from_secs(5));
        // Lets the blocked thread end, so the runtime can stop.
        drop(release);
        assert_eq!(
            blocking_within(Duration::from_secs(5), || 42).await,
            Some(42)
        );
    }
}
