//! The async HTTP client: one method per operation of the service.
//!
//! GETs are retried with exponential backoff and jitter on network errors,
//! timeouts, 5xx, 429 and bodies cut short (bounded); POST, PATCH and DELETE
//! are never retried. Long windows are fetched as grid-aligned chunks with
//! bounded concurrency and returned in order (see [`ApiClient::chunk_bodies`]).

use std::net::IpAddr;
use std::time::Duration;

use bytes::Bytes;
use futures_util::stream::{self, Stream, StreamExt};
use reqwest::{Method, StatusCode, Url, header};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::DataKind;
use super::error::ApiError;
use super::model::*;
use super::time::{SECS_PER_DAY, TimeWindow, format_wire};

pub const USER_AGENT: &str = concat!(
    "fleetview/",
    env!("CARGO_PKG_VERSION"),
    " (desktop fleet telematics viewer)"
);

/// The service never returns more than this many equipments per page (D5).
pub const MAX_PAGE: i64 = 50;

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

#[derive(Debug, Clone)]
pub struct ClientConfig {
    pub base_url: String,
    pub token: Option<SecretValue>,
    /// D12: allow sending the token over plain http beyond loopback.
    pub allow_insecure_http: bool,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
    pub retry: RetryPolicy,
    /// Chunk requests in flight at once.
    pub concurrency: usize,
}

impl ClientConfig {
    pub fn new(base_url: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            token: None,
            allow_insecure_http: false,
            connect_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(60),
            retry: RetryPolicy::default(),
            concurrency: 4,
        }
    }

    pub fn token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(SecretValue::new(token));
        self
    }
}

/// One page of the deprecated fleet history, with where it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct FleetPage {
    pub offset: i64,
    pub total: i64,
    pub equipments: Vec<FleetEquipment>,
}

impl FleetPage {
    /// Equipments read so far, including this page.
    pub fn done(&self) -> i64 {
        self.offset + self.equipments.len() as i64
    }
}

/// What a chunked fetch is for: a data kind (activities and positions
/// included) or faults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SeriesSource {
    Kind(DataKind),
    Faults,
}

impl SeriesSource {
    /// The path segment after `/v2/fleet/equipments/{id}/`.
    pub fn path_segment(self) -> String {
        match self {
            SeriesSource::Kind(k) => k.path_segment(),
            SeriesSource::Faults => "faults".to_owned(),
        }
    }

    /// A stable name (the wire name), used as a cache key.
    pub fn name(self) -> &'static str {
        match self {
            SeriesSource::Kind(k) => k.wire(),
            SeriesSource::Faults => "faults",
        }
    }

    /// Chunk length: a week of dense series, a year of daily ones.
    pub fn chunk_secs(self) -> i64 {
        match self {
            SeriesSource::Kind(k) if k.is_daily() => 366 * SECS_PER_DAY,
            SeriesSource::Faults => 92 * SECS_PER_DAY,
            _ => 7 * SECS_PER_DAY,
        }
    }
}

/// Splits `w` at multiples of `chunk_secs` since the epoch, so the same
/// chunks come back for overlapping windows (and can be cached as such).
/// Windows are inclusive, so chunks never share a second.
pub fn split_window(w: TimeWindow, chunk_secs: i64) -> Vec<TimeWindow> {
    let chunk_secs = chunk_secs.max(1);
    let mut out = Vec::new();
    let mut since = w.since;
    while since <= w.until {
        let grid_end = (since.div_euclid(chunk_secs) + 1) * chunk_secs - 1;
        let until = grid_end.min(w.until);
        out.push(TimeWindow { since, until });
        if until == i64::MAX {
            break;
        }
        since = until + 1;
    }
    out
}

#[derive(Debug, Clone)]
pub struct ApiClient {
    http: reqwest::Client,
    base: Url,
    token: Option<SecretValue>,
    config: ClientConfig,
}

/// Whether a URL's host is this machine (`localhost`, 127.0.0.0/8, `::1`).
pub fn is_loopback_host(host: &str) -> bool {
    let trimmed = host.trim_start_matches('[').trim_end_matches(']');
    trimmed.eq_ignore_ascii_case("localhost")
        || trimmed.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

impl ApiClient {
    pub fn new(config: ClientConfig) -> Result<Self, ApiError> {
        let invalid = |reason: &str| ApiError::InvalidBaseUrl {
            url: config.base_url.clone(),
            reason: reason.into(),
        };
        let mut base = Url::parse(config.base_url.trim()).map_err(|e| invalid(&e.to_string()))?;
        if !matches!(base.scheme(), "http" | "https") {
            return Err(invalid("the scheme must be http or https"));
        }
        let host = base
            .host_str()
            .ok_or_else(|| invalid("no host"))?
            .to_owned();
        let loopback = is_loopback_host(&host);
        if base.scheme() == "http"
            && config.token.is_some()
            && !loopback
            && !config.allow_insecure_http
        {
            return Err(ApiError::InsecureTransport { host });
        }
        // Paths are joined below the base path.
        if !base.path().ends_with('/') {
            let path = format!("{}/", base.path());
            base.set_path(&path);
        }
        let mut builder = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .connect_timeout(config.connect_timeout)
            .timeout(config.request_timeout)
            .gzip(true);
        if loopback {
            builder = builder.no_proxy();
        }
        let http = builder.build().map_err(|e| invalid(&e.to_string()))?;
        Ok(Self {
            http,
            base,
            token: config.token.clone(),
            config,
        })
    }

    pub fn base_url(&self) -> &str {
        self.base.as_str()
    }

    pub fn config(&self) -> &ClientConfig {
        &self.config
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

    /// Sends one request and reads the whole body of a 2xx answer.
    async fn send_once(
        &self,
        method: Method,
        url: Url,
        body: Option<Vec<u8>>,
        endpoint: &str,
        needs_token: bool,
    ) -> Result<Bytes, ApiError> {
        let mut req = self.http.request(method, url);
        if needs_token {
            let token = self.token.as_ref().ok_or(ApiError::NoToken)?;
            req = req.header("x-access-token", token.expose());
        }
        if let Some(b) = body {
            req = req.header(header::CONTENT_TYPE, "application/json").body(b);
        }
        let resp = req
            .send()
            .await
            .map_err(|e| self.transport_error(endpoint, &e))?;
        let status = resp.status();
        let retry_after = resp
            .headers()
            .get(header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let bytes = resp
            .bytes()
            .await
            .map_err(|e| self.transport_error(endpoint, &e))?;
        if status.is_success() {
            return Ok(bytes);
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

    fn transport_error(&self, endpoint: &str, e: &reqwest::Error) -> ApiError {
        if e.is_timeout() {
            ApiError::Timeout {
                endpoint: endpoint.to_owned(),
                timeout_secs: self.config.request_timeout.as_secs(),
            }
        } else {
            // reqwest's message may hold the URL; ours have no secrets in it.
            ApiError::Network {
                endpoint: endpoint.to_owned(),
                message: error_chain(e),
            }
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
    async fn get_with<T>(
        &self,
        path: &str,
        query: &[(&str, String)],
        decode: impl Fn(&[u8], &str) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let endpoint = format!("GET /{}", path.trim_start_matches('/'));
        let url = self.url(path, query)?;
        let mut attempt = 0;
        loop {
            let result = match self
                .send_once(Method::GET, url.clone(), None, &endpoint, true)
                .await
            {
                Ok(bytes) => decode(&bytes, &endpoint),
                Err(e) => Err(e),
            };
            match result {
                Err(e) if e.is_retryable() && attempt < self.config.retry.max_retries => {
                    let delay = self.backoff(attempt, e.retry_after());
                    tracing::debug!(%endpoint, attempt, ?delay, "retrying: {e}");
                    tokio::time::sleep(delay).await;
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    async fn get_json<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<T, ApiError> {
        self.get_with(path, query, decode_json).await
    }

    /// A request that changes state: sent once, never retried.
    async fn write<T: DeserializeOwned>(
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
        let bytes = self.send_once(method, url, body, &endpoint, true).await?;
        decode_json(&bytes, &endpoint)
    }

    // ---------------------------------------------------------------- auth

    /// The sandbox's login (D1); the real service's login is not described.
    pub async fn login(&self, username: &str, password: &str) -> Result<String, ApiError> {
        let endpoint = "POST /auth/login";
        let body = serde_json::to_vec(&LoginRequest {
            username: username.into(),
            password: password.into(),
        })
        .unwrap_or_default();
        let bytes = self
            .send_once(
                Method::POST,
                self.url("auth/login", &[])?,
                Some(body),
                endpoint,
                false,
            )
            .await?;
        let resp: LoginResponse = decode_json(&bytes, endpoint)?;
        Ok(resp.token)
    }

    // ---------------------------------------------------------- time series

    fn window_query(w: TimeWindow) -> Vec<(&'static str, String)> {
        vec![
            ("since", format_wire(w.since)),
            ("until", format_wire(w.until)),
        ]
    }

    fn equipment_path(id: i64, segment: &str) -> String {
        format!("v2/fleet/equipments/{id}/{segment}")
    }

    pub async fn activities(
        &self,
        id: i64,
        w: TimeWindow,
    ) -> Result<SeriesData<ActivityRow>, ApiError> {
        let env: Envelope<_> = self
            .get_json(
                &Self::equipment_path(id, "activities"),
                &Self::window_query(w),
            )
            .await?;
        Ok(env.data)
    }

    pub async fn faults(&self, id: i64, w: TimeWindow) -> Result<SeriesData<FaultRow>, ApiError> {
        let env: Envelope<_> = self
            .get_json(&Self::equipment_path(id, "faults"), &Self::window_query(w))
            .await?;
        Ok(env.data)
    }

    pub async fn positions(
        &self,
        id: i64,
        w: TimeWindow,
    ) -> Result<SeriesData<PositionRow>, ApiError> {
        let env: Envelope<_> = self
            .get_json(
                &Self::equipment_path(id, "positions"),
                &Self::window_query(w),
            )
            .await?;
        Ok(env.data)
    }

    pub async fn history(&self, id: i64, w: TimeWindow) -> Result<EquipmentHistory, ApiError> {
        let env: Envelope<_> = self
            .get_json(&Self::equipment_path(id, "history"), &Self::window_query(w))
            .await?;
        Ok(env.data)
    }

    /// The raw body of `/{id}/history` (checked to be whole JSON).
    pub async fn history_body(&self, id: i64, w: TimeWindow) -> Result<Bytes, ApiError> {
        self.get_with(
            &Self::equipment_path(id, "history"),
            &Self::window_query(w),
            |b, endpoint| {
                check_json(b, endpoint)?;
                Ok(Bytes::copy_from_slice(b))
            },
        )
        .await
    }

    /// The raw body of `/{id}/{source}` for a window (an envelope).
    pub async fn series_body(
        &self,
        id: i64,
        source: SeriesSource,
        w: TimeWindow,
    ) -> Result<Bytes, ApiError> {
        self.get_with(
            &Self::equipment_path(id, &source.path_segment()),
            &Self::window_query(w),
            |b, endpoint| {
                // Check it is whole JSON now, so a body cut short is retried.
                check_json(b, endpoint)?;
                Ok(Bytes::copy_from_slice(b))
            },
        )
        .await
    }

    /// Bodies of the given chunks, fetched `concurrency` at a time and
    /// yielded in chunk order.
    pub fn chunk_bodies(
        &self,
        id: i64,
        source: SeriesSource,
        chunks: Vec<TimeWindow>,
    ) -> impl Stream<Item = (TimeWindow, Result<Bytes, ApiError>)> + '_ {
        let concurrency = self.config.concurrency.max(1);
        stream::iter(chunks)
            .map(move |w| async move { (w, self.series_body(id, source, w).await) })
            .buffered(concurrency)
    }

    // ------------------------------------------------------ fleet (deprecated)

    pub async fn fleet_history_page(
        &self,
        w: TimeWindow,
        limit: i64,
        offset: i64,
    ) -> Result<FleetHistory, ApiError> {
        let mut query = Self::window_query(w);
        query.push(("limit", limit.clamp(1, MAX_PAGE).to_string()));
        query.push(("offset", offset.max(0).to_string()));
        let env: Envelope<FleetHistory> =
            self.get_json("v2/fleet/equipments/history", &query).await?;
        Ok(env.data)
    }

    /// Every page of the deprecated fleet history, 50 at a time, as a stream:
    /// each item tells how far the reading has come.
    pub fn fleet_history(
        &self,
        w: TimeWindow,
    ) -> impl Stream<Item = Result<FleetPage, ApiError>> + '_ {
        stream::try_unfold(Some((0i64, None::<i64>)), move |state| async move {
            let Some((offset, total)) = state else {
                return Ok(None);
            };
            if total.is_some_and(|t| offset >= t) {
                return Ok(None);
            }
            let page = self.fleet_history_page(w, MAX_PAGE, offset).await?;
            let total = i64::from(page.total);
            let count = page.rows.len() as i64;
            let next = if count == 0 {
                None
            } else {
                Some((offset + count, Some(total)))
            };
            Ok(Some((
                FleetPage {
                    offset,
                    total,
                    equipments: page.rows,
                },
                next,
            )))
        })
    }

    // -------------------------------------------------------------- catalog

    pub async fn data_sources(&self) -> Result<Vec<DataSource>, ApiError> {
        let list: DataSourceList = self.get_json("catalog/dataSources", &[]).await?;
        Ok(list.data_sources)
    }

    pub async fn integrations(&self) -> Result<Vec<Integration>, ApiError> {
        let list: IntegrationList = self.get_json("catalog/integrations", &[]).await?;
        Ok(list.integrations)
    }

    pub async fn create_integration(
        &self,
        body: &CreateIntegration,
    ) -> Result<CreateIntegrationResponse, ApiError> {
        self.write(Method::POST, "catalog/integrations", Some(body))
            .await
    }

    pub async fn update_integration(
        &self,
        id: i64,
        body: &UpdateIntegration,
    ) -> Result<UpdateIntegrationResponse, ApiError> {
        self.write(
            Method::PATCH,
            &format!("catalog/integrations/{id}"),
            Some(body),
        )
        .await
    }

    pub async fn delete_integration(&self, id: i64) -> Result<IntegrationIdResponse, ApiError> {
        self.write(
            Method::DELETE,
            &format!("catalog/integrations/{id}"),
            None::<&()>,
        )
        .await
    }

    pub async fn activate_integration(&self, id: i64) -> Result<IntegrationIdResponse, ApiError> {
        self.write(
            Method::POST,
            &format!("catalog/integrations/{id}/activate"),
            None::<&()>,
        )
        .await
    }

    pub async fn deactivate_integration(&self, id: i64) -> Result<IntegrationIdResponse, ApiError> {
        self.write(
            Method::POST,
            &format!("catalog/integrations/{id}/deactivate"),
            None::<&()>,
        )
        .await
    }
}

fn check_json(bytes: &[u8], endpoint: &str) -> Result<(), ApiError> {
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
    fn windows_split_on_a_fixed_grid_without_overlap() {
        let day = SECS_PER_DAY;
        let w = TimeWindow {
            since: 3 * day + 100,
            until: 10 * day + 5,
        };
        let chunks = split_window(w, 2 * day);
        assert_eq!(chunks.first().map(|c| c.since), Some(w.since));
        assert_eq!(chunks.last().map(|c| c.until), Some(w.until));
        for pair in chunks.windows(2) {
            assert_eq!(pair[0].until + 1, pair[1].since);
            assert_eq!(pair[1].since % (2 * day), 0);
        }
        assert_eq!(
            split_window(TimeWindow { since: 5, until: 5 }, day).len(),
            1
        );
    }

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
