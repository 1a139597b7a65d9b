//! A bounded load test of the sandbox over loopback: concurrent readers of
//! the time-series, history and catalog endpoints, and catalog writers
//! (create, rename, deactivate, activate, delete), for a fixed time. Every
//! answer must be a 200 whose body agrees with itself, and every
//! acknowledged write must be in the final integration list exactly as
//! last written. Reports requests per second.
//!
//! ```sh
//! cargo run --release --example loadtest -- --secs 20 --readers 32 --writers 4
//! cargo run --release --example loadtest -- --base-url http://127.0.0.1:8080
//! ```
//!
//! Without `--base-url` it starts its own sandbox on 127.0.0.1 (a real HTTP
//! server, in this process). Only loopback addresses are accepted.
#![allow(clippy::print_stdout)] // Its report is its output.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail, ensure};
use clap::Parser;
use fleetview_api::time::format_wire;
use fleetview_sandbox::{Clock, SandboxConfig};
use serde_json::{Value, json};

#[derive(Debug, Parser)]
struct Args {
    /// How long to load the sandbox (seconds).
    #[arg(long, default_value_t = 10)]
    secs: u64,
    /// Concurrent readers.
    #[arg(long, default_value_t = 32)]
    readers: usize,
    /// Concurrent catalog writers.
    #[arg(long, default_value_t = 4)]
    writers: usize,
    /// A running sandbox on loopback (default: start one here).
    #[arg(long)]
    base_url: Option<String>,
}

/// Small deterministic generator: each task has its own sequence.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

#[derive(Default)]
struct Counters {
    requests: AtomicU64,
    errors: AtomicU64,
    /// Sum of latencies in microseconds, and the worst one.
    latency_us: AtomicU64,
    worst_us: AtomicU64,
}

impl Counters {
    fn record(&self, started: Instant, ok: bool) {
        let us = started.elapsed().as_micros() as u64;
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.latency_us.fetch_add(us, Ordering::Relaxed);
        self.worst_us.fetch_max(us, Ordering::Relaxed);
        if !ok {
            self.errors.fetch_add(1, Ordering::Relaxed);
        }
    }
}

struct Ctx {
    http: reqwest::Client,
    base: String,
    token: String,
    /// The sandbox's "now": windows are taken in the 30 days before it.
    now: i64,
    first_id: i64,
    fleet: i64,
    counters: Counters,
}

impl Ctx {
    async fn send(&self, req: reqwest::RequestBuilder, what: &str) -> anyhow::Result<Value> {
        let started = Instant::now();
        let result = async {
            let resp = req
                .header("x-access-token", &self.token)
                .send()
                .await
                .with_context(|| format!("{what}: no answer"))?;
            let status = resp.status();
            let body: Value = resp
                .json()
                .await
                .with_context(|| format!("{what}: body is not JSON"))?;
            ensure!(status.is_success(), "{what}: {status} {body}");
            Ok(body)
        }
        .await;
        self.counters.record(started, result.is_ok());
        result
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

/// Reads until the deadline; every answer must agree with itself.
async fn reader(ctx: Arc<Ctx>, seed: u64, deadline: Instant) -> anyhow::Result<()> {
    const KINDS: [&str; 8] = [
        "positions",
        "faults",
        "activities",
        "history",
        "fuelRemaining",
        "engineCondition",
        "dailyUsages",
        "catalog",
    ];
    let mut rng = Rng(seed | 1);
    while Instant::now() < deadline {
        let kind = KINDS[rng.below(KINDS.len() as u64) as usize];
        if kind == "catalog" {
            let body = ctx
                .send(ctx.http.get(ctx.url("/catalog/integrations")), "list")
                .await?;
            ensure!(body["integrations"].is_array(), "list: {body}");
            continue;
        }
        let id = ctx.first_id + rng.below(ctx.fleet as u64) as i64;
        let days = 1 + rng.below(7) as i64;
        let until = ctx.now - rng.below(23) as i64 * 86_400;
        let since = until - days * 86_400 + 1;
        let url = ctx.url(&format!(
            "/v2/fleet/equipments/{id}/{kind}?since={}&until={}",
            format_wire(since),
            format_wire(until)
        ));
        let body = ctx.send(ctx.http.get(url), kind).await?;
        let data = &body["data"];
        if kind == "history" {
            let usages = &data["dailyUsages"];
            ensure!(
                usages["total"].as_u64() == usages["rows"].as_array().map(|r| r.len() as u64),
                "history of {id}: total disagrees with rows"
            );
        } else {
            ensure!(
                data["total"].as_u64() == data["rows"].as_array().map(|r| r.len() as u64),
                "{kind} of {id}: total disagrees with rows"
            );
        }
    }
    Ok(())
}

/// What a writer last did to an integration it created.
#[derive(Debug, Clone, PartialEq)]
enum Expected {
    Present { name: String, status: &'static str },
    Deleted,
}

/// Writes until the deadline; returns what each acknowledged write implies.
async fn writer(
    ctx: Arc<Ctx>,
    index: usize,
    sources: Arc<Vec<(String, Vec<String>)>>,
    deadline: Instant,
) -> anyhow::Result<HashMap<i64, Expected>> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ index as u64);
    let mut mine: HashMap<i64, Expected> = HashMap::new();
    let mut live: Vec<i64> = Vec::new();
    let mut n = 0u64;
    while Instant::now() < deadline {
        n += 1;
        let op = if live.is_empty() { 0 } else { rng.below(5) };
        match op {
            0 => {
                let (code, keys) = &sources[rng.below(sources.len() as u64) as usize];
                let credentials: serde_json::Map<String, Value> = keys
                    .iter()
                    .map(|k| (k.clone(), json!(format!("load-{index}-{n}"))))
                    .collect();
                let name = format!("load {index}-{n}");
                let body = ctx
                    .send(
                        ctx.http
                            .post(ctx.url("/catalog/integrations"))
                            .json(&json!({
                                "integrationName": name,
                                "dataSourceCode": code,
                                "integrationCredentials": credentials,
                            })),
                        "create",
                    )
                    .await?;
                let id = body["integrationId"]
                    .as_i64()
                    .with_context(|| format!("create answered no id: {body}"))?;
                mine.insert(
                    id,
                    Expected::Present {
                        name,
                        status: "running",
                    },
                );
                live.push(id);
            }
            1 => {
                let id = live[rng.below(live.len() as u64) as usize];
                let name = format!("renamed {index}-{n}");
                ctx.send(
                    ctx.http
                        .patch(ctx.url(&format!("/catalog/integrations/{id}")))
                        .json(&json!({ "integrationName": name })),
                    "rename",
                )
                .await?;
                if let Some(Expected::Present { name: old, .. }) = mine.get_mut(&id) {
                    *old = name;
                }
            }
            2 | 3 => {
                let id = live[rng.below(live.len() as u64) as usize];
                let (verb, new_status) = if op == 2 {
                    ("deactivate", "stopped")
                } else {
                    ("activate", "running")
                };
                ctx.send(
                    ctx.http
                        .post(ctx.url(&format!("/catalog/integrations/{id}/{verb}"))),
                    verb,
                )
                .await?;
                if let Some(Expected::Present { status, .. }) = mine.get_mut(&id) {
                    *status = new_status;
                }
            }
            _ => {
                let at = rng.below(live.len() as u64) as usize;
                let id = live.swap_remove(at);
                ctx.send(
                    ctx.http
                        .delete(ctx.url(&format!("/catalog/integrations/{id}"))),
                    "delete",
                )
                .await?;
                mine.insert(id, Expected::Deleted);
            }
        }
    }
    Ok(mine)
}

fn is_loopback(base: &str) -> bool {
    reqwest::Url::parse(base)
        .ok()
        .and_then(|u| u.host_str().map(fleetview_api::config::is_loopback_host))
        .unwrap_or(false)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let data_dir = tempfile::tempdir()?;
    let (base, now, own) = match &args.base_url {
        Some(base) => {
            ensure!(
                is_loopback(base),
                "{base} is not a loopback address: this load test only targets this machine"
            );
            (
                base.trim_end_matches('/').to_owned(),
                fleetview_api::time::now_secs(),
                None,
            )
        }
        None => {
            let now = fleetview_api::time::parse_wire("2025-06-18T15:30:00Z")?;
            let sandbox = SandboxConfig::default()
                .clock(Clock::Fixed(now))
                .data_dir(data_dir.path())
                .start()
                .await?;
            (sandbox.base_url(), now, Some(sandbox))
        }
    };
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(args.readers + args.writers)
        .timeout(Duration::from_secs(30))
        .build()?;
    let login: Value = http
        .post(format!("{base}/auth/login"))
        .json(&json!({"username": "demo", "password": "demo"}))
        .send()
        .await
        .context("login")?
        .json()
        .await?;
    let token = login["token"]
        .as_str()
        .context("the login answered no token")?
        .to_owned();
    let ctx = Arc::new(Ctx {
        http,
        base,
        token,
        now,
        first_id: fleetview_sandbox::simulate::FIRST_ID,
        fleet: 60,
        counters: Counters::default(),
    });
    let sources: Value = ctx
        .send(
            ctx.http.get(ctx.url("/catalog/dataSources")),
            "data sources",
        )
        .await?;
    let sources: Arc<Vec<(String, Vec<String>)>> = Arc::new(
        sources["dataSources"]
            .as_array()
            .context("no data sources")?
            .iter()
            .map(|s| {
                let keys = s["credentials"]
                    .as_array()
                    .map(|k| {
                        k.iter()
                            .filter_map(|k| k.as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default();
                (s["code"].as_str().unwrap_or_default().to_owned(), keys)
            })
            .collect(),
    );

    println!(
        "loading {} for {} s: {} readers, {} writers",
        ctx.base, args.secs, args.readers, args.writers
    );
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.secs);
    let readers: Vec<_> = (0..args.readers)
        .map(|i| tokio::spawn(reader(ctx.clone(), 0x1234_5678 + i as u64 * 7919, deadline)))
        .collect();
    let writers: Vec<_> = (0..args.writers)
        .map(|i| tokio::spawn(writer(ctx.clone(), i, sources.clone(), deadline)))
        .collect();
    let mut failures = Vec::new();
    for r in readers {
        if let Err(e) = r.await? {
            failures.push(e.to_string());
        }
    }
    let mut expected: HashMap<i64, Expected> = HashMap::new();
    for w in writers {
        match w.await? {
            Ok(m) => expected.extend(m),
            Err(e) => failures.push(e.to_string()),
        }
    }
    let elapsed = started.elapsed().as_secs_f64();

    // Every acknowledged write, as last written.
    let list = ctx
        .send(ctx.http.get(ctx.url("/catalog/integrations")), "final list")
        .await?;
    let found: HashMap<i64, (String, String)> = list["integrations"]
        .as_array()
        .context("final list")?
        .iter()
        .filter_map(|i| {
            Some((
                i["id"].as_i64()?,
                (
                    i["name"].as_str()?.to_owned(),
                    i["status"].as_str()?.to_owned(),
                ),
            ))
        })
        .collect();
    let lost: Vec<String> = expected
        .iter()
        .filter_map(|(id, e)| {
            let ok = match (e, found.get(id)) {
                (Expected::Deleted, None) => true,
                (Expected::Present { name, status }, Some((n, s))) => n == name && s == status,
                _ => false,
            };
            (!ok).then(|| {
                format!(
                    "integration {id}: expected {e:?}, found {:?}",
                    found.get(id)
                )
            })
        })
        .collect();

    let c = &ctx.counters;
    let requests = c.requests.load(Ordering::Relaxed);
    let errors = c.errors.load(Ordering::Relaxed);
    println!(
        "{requests} requests in {elapsed:.1} s: {:.0} requests/s, mean latency {:.2} ms, worst {:.1} ms",
        requests as f64 / elapsed,
        c.latency_us.load(Ordering::Relaxed) as f64 / requests.max(1) as f64 / 1000.0,
        c.worst_us.load(Ordering::Relaxed) as f64 / 1000.0
    );
    println!(
        "{} integrations written and checked, {} errors, {} lost writes",
        expected.len(),
        errors,
        lost.len()
    );
    for f in failures.iter().chain(&lost).take(10) {
        eprintln!("  {f}");
    }
    if let Some(s) = own {
        s.shutdown().await;
    }
    if !failures.is_empty() || !lost.is_empty() || errors > 0 {
        bail!("the load test failed");
    }
    println!("load test OK");
    Ok(())
}
