//! Where access tokens are kept: the OS keychain when there is one
//! (`keyring`), otherwise in memory for this session only. Calls may block
//! (D-Bus), so they run on the worker's blocking threads with a timeout
//! (`connect.rs`), never on the UI's.

use std::collections::HashMap;
use std::sync::Mutex;

use fleetview_api::model::SecretValue;

const KEYRING_SERVICE: &str = "fleetview";

/// Where a token ended up, for the UI to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenPlace {
    Keychain,
    /// In memory until the app closes; why the keychain could not be used.
    SessionOnly(String),
}

impl TokenPlace {
    /// Where the secret (`what`: "access token", "API key") is kept.
    pub fn describe(&self, what: &str) -> String {
        match self {
            TokenPlace::Keychain => format!("The {what} is kept in the system keychain."),
            // Why the keychain failed is in the log, not in the sentence.
            TokenPlace::SessionOnly(_) => format!(
                "No keychain on this computer: the {what} is kept in memory for this session only."
            ),
        }
    }
}

#[derive(Debug, Default)]
pub struct TokenStore {
    memory: Mutex<HashMap<String, SecretValue>>,
}

impl TokenStore {
    fn memory(&self) -> std::sync::MutexGuard<'_, HashMap<String, SecretValue>> {
        self.memory.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps `token` for `key` in memory, for this session.
    pub(crate) fn remember(&self, key: &str, token: &SecretValue) {
        self.memory().insert(key.to_owned(), token.clone());
    }

    /// The token kept in memory for `key` this session.
    pub(crate) fn remembered(&self, key: &str) -> Option<SecretValue> {
        self.memory().get(key).cloned()
    }

    /// Keeps `token` for `key` (a profile's base URL): in the keychain if
    /// possible, in memory otherwise (and in memory anyway, for this session).
    pub(crate) fn save(&self, key: &str, token: &SecretValue) -> TokenPlace {
        self.remember(key, token);
        match keyring::Entry::new(KEYRING_SERVICE, key).and_then(|e| e.set_password(token.expose()))
        {
            Ok(()) => TokenPlace::Keychain,
            Err(e) => {
                tracing::info!("no keychain, the secret kept for this session: {e}");
                TokenPlace::SessionOnly(e.to_string())
            }
        }
    }

    /// The token for `key`, from memory or the keychain.
    pub(crate) fn load(&self, key: &str) -> (Option<SecretValue>, TokenPlace) {
        let keychain = keyring::Entry::new(KEYRING_SERVICE, key).and_then(|e| e.get_password());
        match keychain {
            Ok(t) => (Some(SecretValue::new(t)), TokenPlace::Keychain),
            Err(e) => (self.remembered(key), TokenPlace::SessionOnly(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_always_found_again_in_this_session() {
        let store = TokenStore::default();
        let key = format!("http://127.0.0.1:1/test-{}", std::process::id());
        let place = store.save(&key, &SecretValue::new("s3cr3t-XYZ-42"));
        let (found, _) = store.load(&key);
        assert_eq!(
            found.map(|t| t.expose().to_owned()),
            Some("s3cr3t-XYZ-42".to_owned()),
            "{place:?}"
        );
        assert!(!place.describe("access token").contains("s3cr3t"));
    }
}
