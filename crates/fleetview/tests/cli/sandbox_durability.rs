//! Durability: what the sandbox acknowledged survives `kill -9` and a restart.
//! The sandbox runs as its own process (the real binary) so it can be killed.

use common::login;
use fleetview_testkit as common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use fleetview_api::model::{CreateIntegrationResponse, Integration, IntegrationList};
use reqwest::StatusCode;
use serde_json::json;

struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(dir: &Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fleetview"))
            .args(["sandbox", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(dir)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("sandbox process starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut first = String::new();
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("first line");
        let base = first
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("first line names the address, got {first:?}"))
            .to_owned();
        Self { child, base }
    }

    /// SIGKILL: no shutdown, no flush, nothing.
    fn kill_hard(mut self) {
        self.child.kill().expect("kill -9");
        self.child.wait().expect("reaped");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn list(http: &reqwest::Client, base: &str, token: &str) -> BTreeMap<i64, Integration> {
    let resp = http
        .get(format!("{base}/catalog/integrations"))
        .header("x-access-token", token)
        .send()
        .await
        .expect("list");
    assert_eq!(resp.status(), StatusCode::OK);
    let list: IntegrationList = resp.json().await.expect("list body");
    list.integrations.into_iter().map(|i| (i.id, i)).collect()
}

async fn send(
    http: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    token: &str,
    body: Option<serde_json::Value>,
) -> Result<reqwest::Response, reqwest::Error> {
    let mut req = http.request(method, url).header("x-access-token", token);
    if let Some(b) = body {
        req = req.json(&b);
    }
    req.send().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_catalog_writes_survive_kill_9() {
    let dir = tempfile::tempdir().expect("tempdir");
    let http = reqwest::Client::new();
    let server = Server::start(dir.path());
    let token = login(&http, &server.base).await;
    let base = server.base.clone();

    let mut created = Vec::new();
    for i in 0..12 {
        let resp = send(
            &http,
            reqwest::Method::POST,
            format!("{base}/catalog/integrations"),
            &token,
            Some(json!({"integrationName": format!("site {i}"), "dataSourceCode": "KOMATSU_KOMTRAX",
                        "integrationCredentials": {"username": "u", "password": "p", "customerNumber": "42"}})),
        )
        .await
        .expect("create");
        assert_eq!(resp.status(), StatusCode::OK);
        let body: CreateIntegrationResponse = resp.json().await.expect("body");
        created.push(body.integration_id.expect("id"));
    }
    let ok =
        |r: Result<reqwest::Response, reqwest::Error>| r.expect("sent").status() == StatusCode::OK;
    assert!(ok(send(
        &http,
        reqwest::Method::PATCH,
        format!("{base}/catalog/integrations/{}", created[0]),
        &token,
        Some(json!({"integrationName": "renamed"}))
    )
    .await));
    assert!(ok(send(
        &http,
        reqwest::Method::POST,
        format!("{base}/catalog/integrations/{}/deactivate", created[1]),
        &token,
        None
    )
    .await));
    assert!(ok(send(
        &http,
        reqwest::Method::DELETE,
        format!("{base}/catalog/integrations/{}", created[2]),
        &token,
        None
    )
    .await));
    let before = list(&http, &base, &token).await;
    server.kill_hard();

    let server = Server::start(dir.path());
    // The signing key is durable too: the old token still works.
    let after = list(&http, &server.base, &token).await;
    assert_eq!(
        after, before,
        "the catalog after kill -9 is exactly what was acknowledged"
    );
    assert_eq!(after[&created[0]].name, "renamed");
    assert_eq!(after[&created[1]].status, "stopped");
    assert!(!after.contains_key(&created[2]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn creates_in_flight_when_killed_lose_nothing_acknowledged() {
    let dir = tempfile::tempdir().expect("tempdir");
    let http = reqwest::Client::new();
    let server = Server::start(dir.path());
    let token = login(&http, &server.base).await;
    let stop = Arc::new(AtomicBool::new(false));
    let acked = Arc::new(std::sync::Mutex::new(Vec::<(i64, String)>::new()));

    let mut writers = Vec::new();
    for w in 0..4 {
        let (http, url, token) = (
            http.clone(),
            format!("{}/catalog/integrations", server.base),
            token.clone(),
        );
        let (stop, acked) = (stop.clone(), acked.clone());
        writers.push(tokio::spawn(async move {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                let name = format!("writer {w} item {n}");
                n += 1;
                let body = json!({"integrationName": name, "dataSourceCode": "SAMSARA",
                                  "integrationCredentials": {"apiToken": "t"}});
                let Ok(resp) = send(
                    &http,
                    reqwest::Method::POST,
                    url.clone(),
                    &token,
                    Some(body),
                )
                .await
                else {
                    break; // the server is gone
                };
                if resp.status() != StatusCode::OK {
                    break;
                }
                if let Ok(CreateIntegrationResponse {
                    integration_id: Some(id),
                }) = resp.json().await
                {
                    acked.lock().expect("lock").push((id, name));
                }
            }
        }));
    }
    // Let writes flow, then pull the plug while they are in flight.
    while acked.lock().expect("lock").len() < 60 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    server.kill_hard();
    stop.store(true, Ordering::Relaxed);
    for w in writers {
        w.await.expect("writer");
    }

    let server = Server::start(dir.path());
    let after = list(&http, &server.base, &token).await;
    let acked = acked.lock().expect("lock").clone();
    eprintln!("{} creates acknowledged before kill -9", acked.len());
    assert!(acked.len() >= 60);
    for (id, name) in &acked {
        assert_eq!(
            after.get(id).map(|i| i.name.as_str()),
            Some(name.as_str()),
            "acknowledged create {id} survives"
        );
    }
}
