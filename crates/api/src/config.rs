//! How to reach the service: the base URL and its checks (D12: no token or
//! key over plain http beyond this machine), how to sign in (a token, or
//! an API key the client logs in with, D1), timeouts, retries, how many
//! chunk requests may be in flight and how large an answer may be.

use std::net::IpAddr;
use std::time::Duration;

use reqwest::Url;
use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::limits::DEFAULT_MAX_BODY_BYTES;
use super::model::SecretValue;

pub(crate) const USER_AGENT: &str = concat!(
    "fleetview/",
    env!("CARGO_PKG_VERSION"),
    " (desktop fleet telematics viewer)"
);

/// How long a connection may take to be set up, by default.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request may wait with no bytes coming, by default.
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    pub max_retries: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 4,
            base_delay: Duration::from_millis(250),
            max_delay: Duration::from_secs(8),
        }
    }
}

/// An API key: its name and the key (D1). `Debug` hides the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKey {
    pub name: String,
    pub(crate) key: SecretValue,
}

impl ApiKey {
    pub fn new(name: impl Into<String>, key: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            key: SecretValue::new(key),
        }
    }
}

/// How a user signs in to a service: an API key's name (the key itself is
/// kept in the keychain, never in settings), or a pasted token.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum AuthMethod {
    ApiKey {
        name: String,
    },
    #[default]
    Token,
}

impl AuthMethod {
    /// What the secret is called in the UI.
    pub fn secret_label(&self) -> &'static str {
        match self {
            AuthMethod::ApiKey { .. } => "API key",
            AuthMethod::Token => "access token",
        }
    }
}

#[derive(Debug, Clone)]
pub struct ClientConfig {
    pub base_url: String,
    pub token: Option<SecretValue>,
    /// Logged in with when there is no token, and again (once per request)
    /// when the service refuses the token (D1).
    pub api_key: Option<ApiKey>,
    /// D12: allow sending the token over plain http beyond loopback.
    pub allow_insecure_http: bool,
    /// How long a connection may take to be set up.
    pub connect_timeout: Duration,
    /// How long a request may wait with no bytes coming (for the answer
    /// to start, or between two parts of it): a service that accepts the
    /// connection and says nothing is given up after this.
    pub read_timeout: Duration,
    /// How long a whole request may take, answer read.
    pub request_timeout: Duration,
    pub retry: RetryPolicy,
    /// Chunk requests in flight at once.
    pub(crate) concurrency: usize,
    /// The largest answer read, counted after decompression (D13).
    pub max_body_bytes: u64,
    /// The name this service's data is kept under in the local cache
    /// (`None`: its base URL). A service whose address changes from run to
    /// run (the embedded sandbox's port) gives a stable one.
    pub cache_scope: Option<String>,
}

impl ClientConfig {
    /// How many chunks of one read are fetched at once.
    pub fn concurrency(&self) -> usize {
        self.concurrency.max(1)
    }

    pub fn new(base_url: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            token: None,
            api_key: None,
            allow_insecure_http: false,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            read_timeout: DEFAULT_READ_TIMEOUT,
            request_timeout: Duration::from_secs(60),
            retry: RetryPolicy::default(),
            concurrency: 4,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            cache_scope: None,
        }
    }

    /// What this service's data is kept under in the local cache.
    pub fn cache_scope(&self) -> &str {
        self.cache_scope.as_deref().unwrap_or(&self.base_url)
    }

    pub fn token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(SecretValue::new(token));
        self
    }

    pub fn api_key(mut self, name: impl Into<String>, key: impl Into<String>) -> Self {
        self.api_key = Some(ApiKey::new(name, key));
        self
    }

    /// These options signed in as `method` says with `secret`: a token, or
    /// the key of the API key named; the other kind of secret is dropped.
    pub fn with_secret(self, method: &AuthMethod, secret: SecretValue) -> Self {
        match method {
            AuthMethod::Token => ClientConfig {
                token: Some(secret),
                api_key: None,
                ..self
            },
            AuthMethod::ApiKey { name } => ClientConfig {
                token: None,
                api_key: Some(ApiKey {
                    name: name.clone(),
                    key: secret,
                }),
                ..self
            },
        }
    }

    /// Whether a secret (token or API key) would be sent.
    pub(crate) fn has_secret(&self) -> bool {
        self.token.is_some() || self.api_key.is_some()
    }

    /// The base URL, checked (D12): http or https, with a host; a token or
    /// an API key is sent over plain http to this machine only, unless
    /// allowed. Returned
    /// ending in `/`, so paths are joined below it, with whether its host is
    /// loopback.
    pub(super) fn checked_base(&self) -> Result<(Url, bool), ApiError> {
        let invalid = |reason: &str| self.invalid_base(reason);
        let mut base = Url::parse(self.base_url.trim()).map_err(|e| invalid(&e.to_string()))?;
        if !matches!(base.scheme(), "http" | "https") {
            return Err(invalid("the scheme must be http or https"));
        }
        let host = base
            .host_str()
            .ok_or_else(|| invalid("no host"))?
            .to_owned();
        let loopback = is_loopback_host(&host);
        if base.scheme() == "http" && self.has_secret() && !loopback && !self.allow_insecure_http {
            return Err(ApiError::InsecureTransport { host });
        }
        // Paths are joined below the base path.
        if !base.path().ends_with('/') {
            let path = format!("{}/", base.path());
            base.set_path(&path);
        }
        Ok((base, loopback))
    }

    pub(super) fn invalid_base(&self, reason: &str) -> ApiError {
        ApiError::InvalidBaseUrl {
            url: self.base_url.clone(),
            reason: reason.into(),
        }
    }
}

/// Whether a URL's host is this machine (`localhost`, 127.0.0.0/8, `::1`).
pub fn is_loopback_host(host: &str) -> bool {
    let trimmed = host.trim_start_matches('[').trim_end_matches(']');
    trimmed.eq_ignore_ascii_case("localhost")
        || trimmed.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}
