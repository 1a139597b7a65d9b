//! The async HTTP client: one method per operation of the service, how a
//! request is sent, retried and its body decoded, and the login (D1).
//!
//! A client made with an API key logs in before its first request when it
//! has no token, and again when the service refuses its token: once per
//! request, and once for all the requests refused together (they wait for
//! the one login and are repeated with its token).
//!
//! Bodies are read as a stream, decompressed, and given up past the body cap;
//! a redirect is followed only within the origin asked (see `limits.rs`).
//! GETs are retried with exponential backoff and jitter on network errors,
//! timeouts, 5xx, 429 and bodies cut short (bounded; a refused connection
//! once, quickly: the service is down, the cache answers; a time-out once);
//! POST, PATCH and DELETE are never retried, nor the login a GET needs
//! first. The operations live by what they reach: `fleet.rs` the
//! equipments' series over time windows (long windows fetched as
//! grid-aligned chunks with bounded concurrency, returned in order: see
//! [`ApiClient::chunk_bodies`]) and the fleet history, `catalog.rs` data
//! sources and integrations; `config.rs` holds what the client is made from.

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use bytes::Bytes;
use reqwest::{Method, StatusCode, Url, header};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::config::{ClientConfig, USER_AGENT};
use super::equipment::{LoginAnswer, UserInfo};
use super::error::{ApiError, NetworkCause};
use super::limits::{MAX_REDIRECTS, RedirectRefused, redirect_policy};
use super::model::{ErrorBody, SecretValue};
use super::service_time::ServiceTime;

mod login;

/// The wait before trying a refused connection again (once).
const REFUSED_RETRY_DELAY: Duration = Duration::from_millis(250);
/// A body's first allocation at most: the length announced is the encoded
/// one, and may be a lie.
const FIRST_BODY_CAPACITY: u64 = 1024 * 1024;

#[derive(Debug, Clone)]
pub struct ApiClient {
    http: reqwest::Client,
    base: Url,
    /// Shared by the clones of this client, so one login serves them all.
    session: Arc<Session>,
    config: ClientConfig,
}

/// The token in use and who it belongs to; changed by a login.
#[derive(Default)]
struct Session {
    token: RwLock<Option<SecretValue>>,
    user: RwLock<Option<UserInfo>>,
    /// Held while logging in, so requests refused together log in once.
    login: tokio::sync::Mutex<()>,
    /// Logins ended, and how the last one failed: requests that waited
    /// for a login that failed share its failure rather than send it again.
    /// Counted once the failure is kept, after the login's answer.
    logins: AtomicU64,
    login_failure: RwLock<Option<ApiError>>,
    /// The service's clock, as its answers tell it.
    time: ServiceTime,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("token", &"[redacted]")
            .field("user", &self.user())
            .finish()
    }
}

impl Session {
    fn token(&self) -> Option<SecretValue> {
        self.token.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn user(&self) -> Option<UserInfo> {
        self.user.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn logged_in(&self, answer: &LoginAnswer) -> SecretValue {
        let token = SecretValue::new(answer.token.clone());
        *self.token.write().unwrap_or_else(|e| e.into_inner()) = Some(token.clone());
        *self.user.write().unwrap_or_else(|e| e.into_inner()) = Some(answer.user());
        token
    }
}

impl ApiClient {
    pub fn new(config: ClientConfig) -> Result<Self, ApiError> {
        let (base, loopback) = config.checked_base()?;
        let mut builder = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .connect_timeout(config.connect_timeout)
            .read_timeout(config.read_timeout)
            .timeout(config.request_timeout)
            .redirect(redirect_policy())
            .gzip(true);
        if loopback {
            builder = builder.no_proxy();
        }
        let http = builder
            .build()
            .map_err(|e| config.invalid_base(&e.to_string()))?;
        let session = Session::default();
        *session.token.write().unwrap_or_else(|e| e.into_inner()) = config.token.clone();
        Ok(Self {
            http,
            base,
            session: Arc::new(session),
            config,
        })
    }

    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// Now by the service's clock, as its last answers told it.
    pub fn service_now(&self) -> Option<i64> {
        self.session.time.now_secs()
    }

    pub(super) fn service_time(&self) -> &ServiceTime {
        &self.session.time
    }

    /// Who the last login was for (`None`: not logged in with an API key).
    pub fn user(&self) -> Option<UserInfo> {
        self.session.user()
    }

    /// The token in use: given, or from the last login.
    pub fn token(&self) -> Option<SecretValue> {
        self.session.token()
    }

    /// A copy of this client using another token.
    pub fn with_token(&self, token: impl Into<String>) -> Result<Self, ApiError> {
        let mut config = self.config.clone();
        config.token = Some(SecretValue::new(token));
        Self::new(config)
    }

    fn url(&self, path: &str, query: &[(&str, String)]) -> Result<Url, ApiError> {
        let mut url =
            self.base
                .join(path.trim_start_matches('/'))
                .map_err(|e| ApiError::InvalidBaseUrl {
                    url: self.base.to_string(),
                    reason: e.to_string(),
                })?;
        if !query.is_empty() {
            let mut pairs = url.query_pairs_mut();
            for (k, v) in query {
                pairs.append_pair(k, v);
            }
        }
        Ok(url)
    }

    /// Sends one request and reads the whole body of a 2xx answer, with the
    /// answer's `Date` (see [`Dated`]).
    async fn send_once(
        &self,
        method: Method,
        url: Url,
        body: Option<Vec<u8>>,
        endpoint: &str,
        token: Option<&SecretValue>,
    ) -> Result<Dated<Bytes>, ApiError> {
        let started = Instant::now();
        let mut req = self.http.request(method, url);
        if let Some(token) = token {
            req = req.header("x-access-token", token.expose());
        }
        if let Some(b) = body {
            req = req.header(header::CONTENT_TYPE, "application/json").body(b);
        }
        let resp = req
            .send()
            .await
            .map_err(|e| self.transport_error(endpoint, &e, started))?;
        let status = resp.status();
        let date_secs = self.session.time.saw_headers(resp.headers());
        let retry_after = resp
            .headers()
            .get(header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let bytes = self.read_body(resp, endpoint, started).await?;
        if status.is_success() {
            return Ok((bytes, date_secs));
        }
        let message = error_message(status, &bytes);
        let endpoint = endpoint.to_owned();
        Err(match status {
            StatusCode::UNAUTHORIZED => ApiError::Unauthorized { endpoint, message },
            StatusCode::NOT_FOUND => ApiError::NotFound { endpoint, message },
            StatusCode::BAD_REQUEST => ApiError::BadRequest { endpoint, message },
            s => ApiError::Server {
                endpoint,
                status: s.as_u16(),
                message,
                retry_after,
            },
        })
    }

    /// The body, decompressed, as it streams in: given up as soon as it
    /// would pass the cap, so the buffer never grows beyond it.
    async fn read_body(
        &self,
        mut resp: reqwest::Response,
        endpoint: &str,
        started: Instant,
    ) -> Result<Bytes, ApiError> {
        let limit = self.config.max_body_bytes;
        let too_large = || ApiError::TooLarge {
            endpoint: endpoint.to_owned(),
            limit_bytes: limit,
        };
        let announced = resp.content_length().unwrap_or(0);
        if announced > limit {
            return Err(too_large());
        }
        let mut body: Vec<u8> = Vec::with_capacity(announced.min(FIRST_BODY_CAPACITY) as usize);
        while let Some(chunk) = resp
            .chunk()
            .await
            .map_err(|e| self.transport_error(endpoint, &e, started))?
        {
            let needed = body.len() + chunk.len();
            if needed as u64 > limit {
                return Err(too_large());
            }
            if needed > body.capacity() {
                // Doubling, but never past the cap.
                let grown = (body.capacity() * 2).max(needed).min(limit as usize);
                body.reserve_exact(grown - body.len());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Bytes::from(body))
    }

    /// Sends a request with the token; with an API key, logs in first if
    /// there is no token, and again once if the token is refused, then
    /// sends the request again. A failed login is said so: it is a write,
    /// which a GET's retries must not send again.
    async fn send_authed(
        &self,
        method: Method,
        url: Url,
        body: Option<Vec<u8>>,
        endpoint: &str,
    ) -> Result<Dated<Bytes>, Failed> {
        let used = match self.session.token() {
            Some(t) => t,
            None => self.log_in_again(None).await.map_err(Failed::login)?,
        };
        let first = self
            .send_once(
                method.clone(),
                url.clone(),
                body.clone(),
                endpoint,
                Some(&used),
            )
            .await;
        match first {
            Err(ApiError::Unauthorized { .. }) if self.config.api_key.is_some() => {
                tracing::info!(%endpoint, "the token was refused; logging in again");
                let fresh = self
                    .log_in_again(Some(&used))
                    .await
                    .map_err(Failed::login)?;
                self.send_once(method, url, body, endpoint, Some(&fresh))
                    .await
                    .map_err(Failed::request)
            }
            other => other.map_err(Failed::request),
        }
    }

    /// Whether the service takes this client's key or token, asked once
    /// and never retried: with a key and no token, a login; else one small
    /// request (the data sources), which a key renews a refused token for.
    /// For a job that would otherwise trust its cache without asking.
    pub async fn check_sign_in(&self) -> Result<(), ApiError> {
        if self.config.api_key.is_some() && self.session.token().is_none() {
            return self.log_in_with_key().await.map(|_| ());
        }
        let endpoint = "GET /catalog/dataSources";
        let url = self.url("catalog/dataSources", &[])?;
        self.send_authed(Method::GET, url, None, endpoint)
            .await
            .map(|_| ())
            .map_err(|f| f.error)
    }

    /// What went wrong on the way, in the client's terms; `started`, when
    /// the request was sent, tells which time-out ran out.
    fn transport_error(&self, endpoint: &str, e: &reqwest::Error, started: Instant) -> ApiError {
        if let Some(refused) = source_of::<RedirectRefused>(e) {
            return match refused {
                RedirectRefused::OtherOrigin(location) => ApiError::Redirected {
                    endpoint: endpoint.to_owned(),
                    location: location.clone(),
                },
                RedirectRefused::TooMany => ApiError::Network {
                    endpoint: endpoint.to_owned(),
                    message: format!("more than {MAX_REDIRECTS} redirects"),
                    refused: false,
                    address: self.address(e),
                    cause: NetworkCause::Other,
                },
            };
        }
        if e.is_timeout() {
            let connect = e.is_connect();
            let limit = if connect {
                self.config.connect_timeout
            } else if started.elapsed() >= self.config.request_timeout {
                self.config.request_timeout
            } else {
                self.config.read_timeout
            };
            ApiError::Timeout {
                endpoint: endpoint.to_owned(),
                timeout_secs: limit.as_secs_f64().round() as u64,
                address: self.address(e),
                connect,
            }
        } else {
            // reqwest's message may hold the URL; ours have no secrets in it.
            ApiError::Network {
                endpoint: endpoint.to_owned(),
                message: error_chain(e),
                refused: e.is_connect(),
                address: self.address(e),
                cause: network_cause(e),
            }
        }
    }

    /// `host:port` of the request that failed (else of the base URL).
    fn address(&self, e: &reqwest::Error) -> String {
        let url = e
            .url()
            .cloned()
            .or_else(|| reqwest::Url::parse(&self.config.base_url).ok());
        match url {
            Some(u) => match (u.host_str(), u.port_or_known_default()) {
                (Some(host), Some(port)) => format!("{host}:{port}"),
                (Some(host), None) => host.to_owned(),
                _ => self.config.base_url.clone(),
            },
            None => self.config.base_url.clone(),
        }
    }

    fn backoff(&self, attempt: u32, hint: Option<Duration>) -> Duration {
        let policy = &self.config.retry;
        let exp = policy
            .base_delay
            .saturating_mul(1u32 << attempt.min(16))
            .min(policy.max_delay);
        // Full jitter in [exp/2, exp): spreads retries of many clients.
        let jitter = getrandom::u64().unwrap_or(0x5EED) % 1000;
        let delay = exp / 2 + exp.mul_f64(jitter as f64 / 2000.0);
        match hint {
            Some(h) => h.min(policy.max_delay).max(delay),
            None => delay,
        }
    }

    /// GET with retries; `decode` turns the body into the result.
    pub(super) async fn get_with<T>(
        &self,
        path: &str,
        query: &[(&str, String)],
        decode: impl Fn(&Bytes, &str) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        self.get_dated_with(path, query, decode)
            .await
            .map(|(t, _)| t)
    }

    /// [`ApiClient::get_with`], with the `Date` of the answer decoded.
    pub(super) async fn get_dated_with<T>(
        &self,
        path: &str,
        query: &[(&str, String)],
        decode: impl Fn(&Bytes, &str) -> Result<T, ApiError>,
    ) -> Result<Dated<T>, ApiError> {
        let endpoint = format!("GET /{}", path.trim_start_matches('/'));
        let url = self.url(path, query)?;
        let mut attempt = 0;
        loop {
            let result = match self
                .send_authed(Method::GET, url.clone(), None, &endpoint)
                .await
            {
                Ok((bytes, date_secs)) => decode(&bytes, &endpoint).map(|t| (t, date_secs)),
                Err(Failed { error, login: true }) => return Err(error),
                Err(Failed { error, .. }) => Err(error),
            };
            match result {
                Err(e)
                    if e.is_retryable() && attempt < e.retries(self.config.retry.max_retries) =>
                {
                    let delay = if e.is_refused() {
                        // A restart in progress gets one quick second chance.
                        self.config.retry.base_delay.min(REFUSED_RETRY_DELAY)
                    } else {
                        self.backoff(attempt, e.retry_after())
                    };
                    tracing::debug!(%endpoint, attempt, ?delay, "retrying: {e}");
                    tokio::time::sleep(delay).await;
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    pub(super) async fn get_json<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<T, ApiError> {
        self.get_with(path, query, |b, endpoint| decode_json(b, endpoint))
            .await
    }

    /// A request that changes state: sent once, never retried.
    pub(super) async fn write<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<&impl Serialize>,
    ) -> Result<T, ApiError> {
        let endpoint = format!("{method} /{}", path.trim_start_matches('/'));
        let url = self.url(path, &[])?;
        let body = match body {
            Some(b) => Some(serde_json::to_vec(b).map_err(|e| ApiError::Decode {
                endpoint: endpoint.clone(),
                message: format!("could not encode the request: {e}"),
                transient: false,
            })?),
            None => None,
        };
        let (bytes, _) = self
            .send_authed(method, url, body, &endpoint)
            .await
            .map_err(|f| f.error)?;
        decode_json(&bytes, &endpoint)
    }
}

/// What an answer said, with its `Date` header in seconds (when it had a
/// readable one): the service's clock as it answered, which may differ from
/// its clock as later answers tell it.
pub(super) type Dated<T> = (T, Option<i64>);

/// A request that failed, and whether it was the login before it.
struct Failed {
    error: ApiError,
    login: bool,
}

impl Failed {
    fn login(error: ApiError) -> Self {
        Self { error, login: true }
    }

    fn request(error: ApiError) -> Self {
        Self {
            error,
            login: false,
        }
    }
}

/// A series answer's rows, checked whole by a structural scan (much
/// cheaper than validating: the typed decoding of the rows validates them);
/// one cut short or broken around them is a transient error.
pub(super) fn rows_chunk(bytes: &Bytes, endpoint: &str) -> Result<super::RowsChunk, ApiError> {
    match super::RowsChunk::of(bytes) {
        Some(chunk) => Ok(chunk),
        None => Err(decode_error(
            endpoint,
            "the answer has no whole list of rows (cut short or malformed)",
            true,
        )),
    }
}

/// Checks a body is whole JSON: one cut short is a transient error.
pub(super) fn check_json(bytes: &[u8], endpoint: &str) -> Result<(), ApiError> {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
        .map(|_| ())
        .map_err(|e| decode_error(endpoint, &e.to_string(), true))
}

fn decode_error(endpoint: &str, message: &str, transient: bool) -> ApiError {
    ApiError::Decode {
        endpoint: endpoint.to_owned(),
        message: message.to_owned(),
        transient,
    }
}

/// Decodes a body as the client does for every endpoint: a typed value, or
/// a `Decode` error naming the endpoint (transient when the JSON is cut
/// short or garbled, so that GETs are retried).
pub fn decode_json<T: DeserializeOwned>(bytes: &[u8], endpoint: &str) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        use serde_json::error::Category;
        let transient = matches!(e.classify(), Category::Eof | Category::Syntax);
        decode_error(endpoint, &e.to_string(), transient)
    })
}

/// The service's `{message}`, or the start of whatever the body was.
pub fn error_message(status: StatusCode, body: &[u8]) -> String {
    if let Ok(e) = serde_json::from_slice::<ErrorBody>(body) {
        return e.message;
    }
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_owned()
    } else {
        text.chars().take(200).collect()
    }
}

/// The first error of type `T` in `e`'s chain of sources.
fn source_of<'a, T: std::error::Error + 'static>(
    e: &'a (dyn std::error::Error + 'static),
) -> Option<&'a T> {
    let mut next = Some(e);
    while let Some(err) = next {
        if let Some(found) = err.downcast_ref::<T>() {
            return Some(found);
        }
        next = err.source();
    }
    None
}

/// Why nothing answered: the system's error where there is one (refused,
/// no route); the connector's own words where there is none (a failed
/// name lookup, a certificate refused).
fn network_cause(e: &reqwest::Error) -> NetworkCause {
    use std::io::ErrorKind;
    if let Some(io) = source_of::<std::io::Error>(e) {
        match io.kind() {
            ErrorKind::ConnectionRefused => return NetworkCause::Refused,
            ErrorKind::HostUnreachable | ErrorKind::NetworkUnreachable => {
                return NetworkCause::NoRoute;
            }
            ErrorKind::ConnectionReset
            | ErrorKind::ConnectionAborted
            | ErrorKind::BrokenPipe
            | ErrorKind::UnexpectedEof => return NetworkCause::Dropped,
            _ => {}
        }
    }
    let chain = error_chain(e).to_ascii_lowercase();
    if chain.contains("dns error") || chain.contains("failed to lookup address") {
        NetworkCause::NoSuchHost
    } else if chain.contains("certificate") || chain.contains("tls") {
        NetworkCause::Tls
    } else {
        NetworkCause::Other
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_with_a_token_is_refused_beyond_loopback() {
        let remote = ClientConfig::new("http://fleet.example.com/api").token("t");
        assert!(matches!(
            ApiClient::new(remote.clone()),
            Err(ApiError::InsecureTransport { .. })
        ));
        let allowed = ClientConfig {
            allow_insecure_http: true,
            ..remote
        };
        assert!(ApiClient::new(allowed).is_ok());
        for ok in [
            "http://127.0.0.1:8080",
            "http://localhost:1",
            "http://[::1]:9",
            "https://fleet.example.com",
        ] {
            assert!(
                ApiClient::new(ClientConfig::new(ok).token("t")).is_ok(),
                "{ok}"
            );
        }
        assert!(matches!(
            ApiClient::new(ClientConfig::new("ftp://x")),
            Err(ApiError::InvalidBaseUrl { .. })
        ));
        assert!(matches!(
            ApiClient::new(ClientConfig::new("not a url")),
            Err(ApiError::InvalidBaseUrl { .. })
        ));
    }

    #[test]
    fn a_base_path_is_kept() {
        let c = ApiClient::new(ClientConfig::new("https://h.example/api/v1")).expect("client");
        let url = c
            .url("v2/fleet/equipments/1/faults", &[("since", "x y".into())])
            .expect("url");
        assert_eq!(
            url.as_str(),
            "https://h.example/api/v1/v2/fleet/equipments/1/faults?since=x+y"
        );
    }

    #[test]
    fn the_token_is_not_in_debug_output() {
        let c = ApiClient::new(ClientConfig::new("http://127.0.0.1:1").token("eyJ-secret-token"))
            .expect("client");
        assert!(!format!("{c:?}").contains("eyJ-secret-token"));
    }
}
