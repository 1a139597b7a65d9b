//! Helpers for the workspace's tests and benchmarks: sandboxes on loopback
//! with a client logged in (this file), a stub of the real service
//! (`stub.rs`), goals measured as ratios (`goals.rs`), files made
//! read-only (`files.rs`), and log lines kept to be read (`logs.rs`).

#[cfg(unix)]
pub mod files;
pub mod goals;
pub mod logs;
pub mod stub;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use fleetview_api::time::parse_wire;
use fleetview_sandbox::{Clock, RunningSandbox, SandboxConfig};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// The instant the tests' sandboxes believe is "now": a Wednesday afternoon.
pub const NOW: &str = "2025-06-18T15:30:00Z";

pub fn now() -> i64 {
    parse_wire(NOW).expect("NOW is a wire date")
}

pub fn fixed_config() -> SandboxConfig {
    SandboxConfig::default().clock(Clock::Fixed(now()))
}

#[derive(Debug)]
pub struct Sandbox {
    pub running: RunningSandbox,
    pub base: String,
    pub token: String,
    pub http: reqwest::Client,
}

pub async fn start() -> Sandbox {
    start_with(fixed_config()).await
}

pub async fn start_with(config: SandboxConfig) -> Sandbox {
    let running = config.start().await.expect("sandbox starts");
    let base = running.base_url();
    let http = reqwest::Client::new();
    let token = login(&http, &base).await;
    Sandbox {
        running,
        base,
        token,
        http,
    }
}

pub async fn login(http: &reqwest::Client, base: &str) -> String {
    let resp = http
        .post(format!("{base}/auth/login"))
        .json(&json!({"username": "demo", "password": "demo"}))
        .send()
        .await
        .expect("login request");
    assert_eq!(resp.status(), StatusCode::OK);
    let body: Value = resp.json().await.expect("login body");
    body["token"].as_str().expect("token").to_owned()
}

/// A service that accepts connections (holding them) and never answers:
/// its address, and how many connections it has accepted. On the current
/// tokio runtime.
pub async fn silent_service() -> (String, Arc<AtomicUsize>) {
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = silent.local_addr().expect("addr").to_string();
    let accepted = Arc::new(AtomicUsize::new(0));
    let counted = accepted.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((sock, _)) = silent.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            held.push(sock);
        }
    });
    (address, accepted)
}

impl Sandbox {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// Sends a request with the given token (or none) and returns status and
    /// JSON body (`Value::Null` when the body is not JSON).
    pub async fn call_as(
        &self,
        token: Option<&str>,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self.http.request(method, self.url(path));
        if let Some(t) = token {
            req = req.header("x-access-token", t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.expect("request sent");
        let status = resp.status();
        let bytes = resp.bytes().await.expect("body read");
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    pub async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        self.call_as(Some(&self.token.clone()), method, path, body)
            .await
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.call(Method::GET, path, None).await
    }

    /// GET that must answer 200, decoded into a typed body.
    pub async fn get_ok<T: DeserializeOwned>(&self, path: &str) -> T {
        let (status, body) = self.get(path).await;
        assert_eq!(status, StatusCode::OK, "GET {path}: {body}");
        serde_json::from_value(body).unwrap_or_else(|e| panic!("GET {path} decodes: {e}"))
    }

    pub async fn raw_bytes(&self, path: &str) -> Vec<u8> {
        let resp = self
            .http
            .get(self.url(path))
            .header("x-access-token", &self.token)
            .send()
            .await
            .expect("request sent");
        assert_eq!(resp.status(), StatusCode::OK, "GET {path}");
        resp.bytes().await.expect("body").to_vec()
    }
}

/// A query string for a window.
pub fn window_query(since: i64, until: i64) -> String {
    use fleetview_api::time::format_wire;
    format!("since={}&until={}", format_wire(since), format_wire(until))
}
