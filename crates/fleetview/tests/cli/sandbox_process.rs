//! The `fleetview sandbox` command as a separate process: its memory under
//! heavy requests (D13: windows refused over the limits, long answers
//! streamed) and where it agrees to listen.

use common::login;
use fleetview_testkit as common;

use std::io::{BufRead as _, BufReader, Read as _};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use fleetview_api::model::{Envelope, PositionRow, SeriesData};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow, format_wire, parse_wire};
use fleetview_sandbox::Clock;
use fleetview_sandbox::simulate::catalogue::models::Class;
use fleetview_sandbox::simulate::{Machine, Simulator};
use serde_json::Value;

const NOW: &str = "2025-06-18T15:30:00Z";
const PEAK_LIMIT_KB: u64 = 512 * 1024;
/// Concurrent in-limit requests: enough that building each answer whole
/// (about 86 MB, more while it grows) goes past the limit; four would not.
const HEAVY_REQUESTS: usize = 8;

/// A `fleetview sandbox` child, killed when dropped.
struct SandboxProcess {
    child: Arc<Mutex<Child>>,
    pid: u32,
    base: String,
    _dir: tempfile::TempDir,
}

impl Drop for SandboxProcess {
    fn drop(&mut self) {
        let mut child = self.child.lock().unwrap_or_else(|e| e.into_inner());
        let _ = child.kill();
        let _ = child.wait();
    }
}

fn fleetview(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fleetview"));
    cmd.args(args).env("RUST_LOG", "warn");
    cmd
}

/// The child's first line of output, when it comes.
fn first_line(child: &mut Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    rx
}

/// Starts the sandbox and waits (with a deadline) for its "listening on URL".
fn spawn_sandbox(extra: &[&str]) -> SandboxProcess {
    let dir = tempfile::tempdir().expect("tempdir");
    let data_dir = dir.path().join("data");
    let data_dir = data_dir.to_str().expect("utf-8 path");
    let mut args = vec!["sandbox", "--data-dir", data_dir, "--now", NOW];
    args.extend_from_slice(extra);
    let mut child = fleetview(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the sandbox starts");
    let rx = first_line(&mut child);
    let line = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("'listening on URL' within a minute");
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("first line: {line:?}"))
        .to_owned();
    SandboxProcess {
        pid: child.id(),
        child: Arc::new(Mutex::new(child)),
        base,
        _dir: dir,
    }
}

/// A field of `/proc/<pid>/status`, in kB.
fn proc_status(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// Samples the child's resident memory until stopped; kills it if it goes
/// past the limit, so a failing run cannot take the machine's memory.
struct Sampler {
    stop: Arc<AtomicBool>,
    killed_at_kb: Arc<AtomicU64>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Sampler {
    fn start(sb: &SandboxProcess) -> Self {
        let (stop, killed_at_kb) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicU64::new(0)),
        );
        let (pid, child) = (sb.pid, sb.child.clone());
        let (s, k) = (stop.clone(), killed_at_kb.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                let rss = proc_status(pid, "VmRSS").unwrap_or(0);
                if rss > PEAK_LIMIT_KB {
                    k.store(rss, Ordering::Relaxed);
                    let _ = child.lock().unwrap_or_else(|e| e.into_inner()).kill();
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        Self {
            stop,
            killed_at_kb,
            thread: Some(thread),
        }
    }

    fn finish(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.assert_alive();
    }

    fn assert_alive(&self) {
        let killed = self.killed_at_kb.load(Ordering::Relaxed);
        assert!(
            killed == 0,
            "the sandbox reached {} MB resident (limit {} MB) and was stopped",
            killed / 1024,
            PEAK_LIMIT_KB / 1024
        );
    }
}

/// The road truck with the most positions in a week: the longest answer.
fn busiest_road_truck(now: i64) -> i64 {
    let sim = Simulator::new(60, Clock::Fixed(now));
    let week = TimeWindow {
        since: now - 7 * SECS_PER_DAY,
        until: now,
    };
    (0..60)
        .map(Machine::at_index)
        .filter(|m| m.class() == Class::RoadTruck)
        .max_by_key(|m| sim.positions(m, week).len())
        .map(|m| m.id)
        .expect("the fleet has road trucks")
}

/// Status and whole body, or the error of a sandbox that broke off.
async fn get(
    http: &reqwest::Client,
    url: String,
    token: &str,
) -> Result<(reqwest::StatusCode, Vec<u8>), reqwest::Error> {
    let resp = http.get(url).header("x-access-token", token).send().await?;
    let status = resp.status();
    Ok((status, resp.bytes().await?.to_vec()))
}

/// The answers, once the sampler has said whether the sandbox was stopped
/// for its memory (which is why an answer would be missing).
fn answered(
    sampler: &Sampler,
    answers: Vec<Result<(reqwest::StatusCode, Vec<u8>), reqwest::Error>>,
) -> Vec<(reqwest::StatusCode, Vec<u8>)> {
    sampler.assert_alive();
    answers
        .into_iter()
        .map(|a| a.unwrap_or_else(|e| panic!("no whole answer: {e}")))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heavy_requests_at_once_stay_under_512_mb() {
    let sb = spawn_sandbox(&["--listen", "127.0.0.1:0"]);
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(300))
        .build()
        .expect("client");
    let token = login(&http, &sb.base).await;
    let now = parse_wire(NOW).expect("NOW");
    let truck = busiest_road_truck(now);
    let sampler = Sampler::start(&sb);

    // Two hundred years: refused, naming the limit, whatever the operation.
    let ages = "since=1900-01-01T00:00:00Z&until=2100-01-01T00:00:00Z";
    let refused = [
        (
            format!("/v2/fleet/equipments/history?limit=50&{ages}"),
            "31 days",
        ),
        (
            format!("/v2/fleet/equipments/{truck}/positions?{ages}"),
            "366 days",
        ),
        (
            format!("/v2/fleet/equipments/{truck}/history?{ages}"),
            "366 days",
        ),
        (
            format!("/v2/fleet/equipments/{truck}/dailyUsages?{ages}"),
            "366 days",
        ),
    ];
    let answers = futures_util::future::join_all(
        refused
            .iter()
            .map(|(path, _)| get(&http, format!("{}{path}", sb.base), &token)),
    )
    .await;
    for ((path, limit), (status, body)) in refused.iter().zip(answered(&sampler, answers)) {
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        assert_eq!(status, reqwest::StatusCode::BAD_REQUEST, "{path}: {body}");
        let msg = body["message"].as_str().unwrap_or_default();
        assert!(msg.contains(limit), "{path}: {msg:?} names {limit}");
    }

    // A year of a truck's positions, many times at once: all answered in full.
    let w = TimeWindow {
        since: now - 366 * SECS_PER_DAY,
        until: now,
    };
    let path = format!(
        "{}/v2/fleet/equipments/{truck}/positions?since={}&until={}",
        sb.base,
        format_wire(w.since),
        format_wire(w.until)
    );
    let started = Instant::now();
    let answers = futures_util::future::join_all(
        (0..HEAVY_REQUESTS).map(|_| get(&http, path.clone(), &token)),
    )
    .await;
    let answers = answered(&sampler, answers);
    sampler.finish();
    let mut sizes = Vec::new();
    for (status, body) in answers {
        assert_eq!(
            status,
            reqwest::StatusCode::OK,
            "{}",
            String::from_utf8_lossy(&body[..body.len().min(300)])
        );
        let env: Envelope<SeriesData<PositionRow>> =
            serde_json::from_slice(&body).expect("a valid positions answer");
        assert_eq!(env.data.total as usize, env.data.rows.len());
        assert!(
            env.data.rows.len() > 100_000,
            "{} rows",
            env.data.rows.len()
        );
        sizes.push(body.len());
    }
    let peak_kb = proc_status(sb.pid, "VmHWM").expect("VmHWM");
    eprintln!(
        "{HEAVY_REQUESTS} x {} MB answered in {:?}; peak resident {} MB",
        sizes[0] / 1_000_000,
        started.elapsed(),
        peak_kb / 1024
    );
    assert!(
        peak_kb < PEAK_LIMIT_KB,
        "peak resident memory {} MB (limit {} MB)",
        peak_kb / 1024,
        PEAK_LIMIT_KB / 1024
    );
}

#[test]
fn listening_beyond_loopback_needs_public() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = fleetview(&["sandbox", "--listen", "0.0.0.0:0", "--data-dir"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let rx = first_line(&mut child);
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        let listening = rx
            .recv_timeout(Duration::from_millis(50))
            .is_ok_and(|l| l.starts_with("listening"));
        if listening || Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the sandbox listened on 0.0.0.0 without --public");
        }
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr read");
    assert!(!status.success(), "exit status {status}");
    assert!(
        stderr.contains("--public") && stderr.contains("demo"),
        "says why and what to do: {stderr}"
    );

    // With --public it listens there.
    let sb = spawn_sandbox(&["--listen", "0.0.0.0:0", "--public"]);
    assert!(sb.base.starts_with("http://0.0.0.0:"), "{}", sb.base);
}

/// glibc's malloc gives threads allocating at once arenas of their own (up
/// to 8 per core), serves blocks up to the largest freed so far from them,
/// and gives back what they free from the top of the main one only: over
/// hours the resident set grew with the live heap flat
/// (docs/performance.md, the soak). The binary runs with two arenas and
/// large blocks mapped on their own.
#[test]
fn the_binary_runs_with_malloc_settings_that_give_memory_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data_dir = dir.path().join("data");
    let mut child = fleetview(&["sandbox", "--now", NOW, "--data-dir"])
        .arg(&data_dir)
        .env_remove("MALLOC_ARENA_MAX")
        .env_remove("MALLOC_MMAP_THRESHOLD_")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the sandbox starts");
    let listening = first_line(&mut child).recv_timeout(Duration::from_secs(60));
    let environ = std::fs::read(format!("/proc/{}/environ", child.id())).unwrap_or_default();
    let _ = child.kill();
    let _ = child.wait();
    assert!(listening.is_ok_and(|l| l.starts_with("listening on")));
    for setting in ["MALLOC_ARENA_MAX=2", "MALLOC_MMAP_THRESHOLD_=131072"] {
        assert!(
            environ
                .split(|b| *b == 0)
                .any(|var| var == setting.as_bytes()),
            "{setting} in the process's environment"
        );
    }
}
