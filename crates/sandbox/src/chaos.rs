//! Fault injection for client tests: latency, 500/503, 429, and truncated or
//! malformed JSON bodies at given rates. Applies to GET requests only unless
//! `writes` is set, so catalog writes stay exact by default.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::body::to_bytes;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::simulate::machine::{mix, unit};
use fleetview_api::model::ErrorBody;

/// Rates are probabilities in 0..=1 per request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChaosConfig {
    pub latency_ms: u64,
    pub latency_rate: f64,
    pub error_500_rate: f64,
    pub error_503_rate: f64,
    pub rate_limit_rate: f64,
    pub truncate_rate: f64,
    pub malformed_rate: f64,
    pub seed: u64,
    /// Also disturb POST, PATCH and DELETE.
    pub include_writes: bool,
    /// Leave GETs alone (with `writes`: disturb writes only).
    pub skip_reads: bool,
    /// Disturb only requests whose path contains this (e.g. one data kind).
    pub path_contains: Option<String>,
}

impl ChaosConfig {
    pub(crate) fn is_active(&self) -> bool {
        self.latency_rate > 0.0
            || self.error_500_rate > 0.0
            || self.error_503_rate > 0.0
            || self.rate_limit_rate > 0.0
            || self.truncate_rate > 0.0
            || self.malformed_rate > 0.0
    }

    /// Parses `key=value` pairs separated by commas, e.g.
    /// `latency_ms=200,latency=0.3,500=0.1,503=0.05,429=0.05,truncate=0.05,malformed=0.05,seed=7,writes=1,reads=0,path=dailyIdleFuel`.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let mut c = ChaosConfig::default();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("'{part}' is not key=value"))?;
            let rate = || -> Result<f64, String> {
                let r: f64 = v.parse().map_err(|_| format!("'{v}' is not a number"))?;
                if (0.0..=1.0).contains(&r) {
                    Ok(r)
                } else {
                    Err(format!("rate {r} is not within 0..1"))
                }
            };
            match k {
                "latency_ms" => {
                    c.latency_ms = v
                        .parse()
                        .map_err(|_| format!("'{v}' is not a number of ms"))?
                }
                "latency" => c.latency_rate = rate()?,
                "500" => c.error_500_rate = rate()?,
                "503" => c.error_503_rate = rate()?,
                "429" => c.rate_limit_rate = rate()?,
                "truncate" => c.truncate_rate = rate()?,
                "malformed" => c.malformed_rate = rate()?,
                "seed" => c.seed = v.parse().map_err(|_| format!("'{v}' is not a seed"))?,
                "writes" => c.include_writes = matches!(v, "1" | "true" | "yes"),
                "reads" => c.skip_reads = matches!(v, "0" | "false" | "no"),
                "path" => c.path_contains = Some(v.to_owned()),
                other => return Err(format!("unknown chaos key '{other}'")),
            }
        }
        Ok(c)
    }
}

#[derive(Debug)]
pub(crate) struct Chaos {
    config: ChaosConfig,
    counter: AtomicU64,
}

enum Fault {
    None,
    Status(StatusCode),
    Truncate,
    Malformed,
}

impl Chaos {
    pub(crate) fn new(config: ChaosConfig) -> Self {
        Self {
            config,
            counter: AtomicU64::new(0),
        }
    }

    /// Whether a request with this method and path is disturbed.
    pub(crate) fn applies_to(&self, method: &axum::http::Method, path: &str) -> bool {
        if let Some(part) = &self.config.path_contains
            && !path.contains(part.as_str())
        {
            return false;
        }
        if method == axum::http::Method::GET {
            !self.config.skip_reads
        } else {
            self.config.include_writes
        }
    }

    fn draw(&self) -> (bool, Fault) {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let c = &self.config;
        let u = unit(mix(c.seed ^ mix(n)));
        let slow = unit(mix(c.seed.wrapping_add(1) ^ mix(n))) < c.latency_rate;
        let mut edge = 0.0;
        let mut hit = |rate: f64| {
            edge += rate;
            u < edge
        };
        let fault = if hit(c.error_500_rate) {
            Fault::Status(StatusCode::INTERNAL_SERVER_ERROR)
        } else if hit(c.error_503_rate) {
            Fault::Status(StatusCode::SERVICE_UNAVAILABLE)
        } else if hit(c.rate_limit_rate) {
            Fault::Status(StatusCode::TOO_MANY_REQUESTS)
        } else if hit(c.truncate_rate) {
            Fault::Truncate
        } else if hit(c.malformed_rate) {
            Fault::Malformed
        } else {
            Fault::None
        };
        (slow, fault)
    }

    pub(crate) async fn apply(&self, inner: impl Future<Output = Response>) -> Response {
        let (slow, fault) = self.draw();
        if slow && self.config.latency_ms > 0 {
            tokio::time::sleep(Duration::from_millis(self.config.latency_ms)).await;
        }
        match fault {
            Fault::None => inner.await,
            Fault::Status(status) => {
                let body = serde_json::to_vec(&ErrorBody {
                    message: format!("chaos: injected {status}"),
                })
                .unwrap_or_default();
                let mut resp = (status, body).into_response();
                resp.headers_mut().insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
                if status == StatusCode::TOO_MANY_REQUESTS {
                    resp.headers_mut()
                        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
                }
                resp
            }
            Fault::Truncate | Fault::Malformed => {
                let resp = inner.await;
                let (parts, body) = resp.into_parts();
                let bytes = to_bytes(body, usize::MAX).await.unwrap_or_default();
                let broken: Vec<u8> = if matches!(fault, Fault::Truncate) {
                    bytes[..bytes.len() / 2].to_vec()
                } else {
                    let mut b = bytes.to_vec();
                    b.splice(0..0, b"{\"data\": ]".iter().copied());
                    b
                };
                let mut resp = Response::from_parts(parts, axum::body::Body::from(broken));
                resp.headers_mut().remove(header::CONTENT_LENGTH);
                resp
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_spec_and_rejects_nonsense() {
        let c =
            ChaosConfig::parse("latency_ms=50,latency=0.5,500=0.1,429=0.2,seed=3").expect("parses");
        assert_eq!(c.latency_ms, 50);
        assert_eq!(c.error_500_rate, 0.1);
        assert!(c.is_active());
        assert!(ChaosConfig::parse("500=2").is_err());
        assert!(ChaosConfig::parse("bogus=1").is_err());
        let one = Chaos::new(ChaosConfig::parse("500=1,path=dailyIdleFuel").expect("parses"));
        let get = axum::http::Method::GET;
        assert!(one.applies_to(&get, "/v2/fleet/equipments/1/dailyIdleFuel"));
        assert!(!one.applies_to(&get, "/v2/fleet/equipments/1/faults"));
        assert!(!ChaosConfig::parse("").expect("empty is fine").is_active());
    }

    #[test]
    fn draws_follow_the_rates() {
        let chaos = Chaos::new(ChaosConfig {
            error_500_rate: 0.25,
            seed: 9,
            ..Default::default()
        });
        let hits = (0..4000)
            .filter(|_| matches!(chaos.draw().1, Fault::Status(_)))
            .count();
        assert!((800..1200).contains(&hits), "{hits}");
    }
}
