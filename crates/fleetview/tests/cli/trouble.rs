//! `fleetview export` and `report` when something is wrong: a refused key
//! or token though the window is cached, a service that accepts connections
//! and never answers, an output that is not a regular file.

use fleetview_testkit as common;

use std::io::Read;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::binary::{output_async, output_within, signed_out, stderr};
use common::start;
use fleetview_api::time::format_wire;
use fleetview_sandbox::chaos::ChaosConfig;
use fleetview_sandbox::simulate::FIRST_ID;

/// The exit status of a refused API key or token (`fleetview --help`).
const REFUSED: i32 = 3;

/// A wrong key or token is refused with its own exit status even
/// when every window asked for is in the cache; `--offline` needs none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_key_or_token_fails_though_the_window_is_cached() {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let today = common::now().div_euclid(86_400) * 86_400;
    let (since, until) = (format_wire(today - 4 * 86_400), format_wire(today - 1));
    let id = FIRST_ID.to_string();
    let export = |token: Option<&str>, key: Option<&str>, extra: &[&str]| {
        let mut cmd = signed_out("export", &sb.base, &cache);
        cmd.args(["--equipment", &id, "--kind", "dailyFuel"])
            .args(["--since", &since, "--until", &until])
            .args(extra);
        if let Some(t) = token {
            cmd.env("FLEETVIEW_TOKEN", t);
        }
        if let Some(k) = key {
            cmd.env("FLEETVIEW_API_KEY_NAME", "demo")
                .env("FLEETVIEW_API_KEY", k);
        }
        cmd
    };
    let report = |token: &str| {
        let mut cmd = signed_out("report", &sb.base, &cache);
        cmd.args(["--equipment", &id])
            .args(["--since", &since, "--until", &until])
            .env("FLEETVIEW_TOKEN", token);
        cmd
    };
    // Cached once with the right token.
    for cmd in [export(Some(&sb.token), None, &[]), report(&sb.token)] {
        let out = output_async(cmd).await;
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let cached = output_async(export(Some(&sb.token), None, &[])).await;
    assert!(
        stderr(&cached).contains("0 requests"),
        "{}",
        stderr(&cached)
    );
    assert!(
        !stderr(&cached).contains("waiting for"),
        "a quick answer says nothing: {}",
        stderr(&cached)
    );

    for (what, cmd) in [
        ("a wrong token", export(Some("wrong"), None, &[])),
        ("a wrong API key", export(None, Some("wrong"), &[])),
        ("a report with a wrong token", report("wrong")),
    ] {
        let out = output_async(cmd).await;
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(REFUSED), "{what}: {err}");
        assert!(err.contains("not authorised"), "{what}: {err}");
        assert!(out.stdout.is_empty(), "{what}: nothing written");
    }
    // The right key: logged in once, the cache then trusted.
    let logins = sb.running.login_count();
    let out = output_async(export(None, Some("demo"), &[])).await;
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("0 requests"), "{}", stderr(&out));
    assert_eq!(sb.running.login_count(), logins + 1, "one login");
    // Offline, no key at all.
    let out = output_async(export(None, None, &["--offline"])).await;
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A listener on loopback that accepts connections, counts them, and never
/// answers.
fn silent_service() -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("addr").to_string();
    let accepted = Arc::new(AtomicUsize::new(0));
    let counted = accepted.clone();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for sock in listener.incoming() {
            counted.fetch_add(1, Ordering::SeqCst);
            held.push(sock);
        }
    });
    (address, accepted)
}

/// A service that accepts connections and never answers: the
/// login is sent once, given up after the time-out without bytes, said in
/// words with the host, and what is waited for is said meanwhile.
#[test]
fn a_service_that_never_answers_is_given_up_in_time_with_one_login() {
    let (address, accepted) = silent_service();
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let mut cmd = signed_out("export", &format!("http://{address}"), &cache);
    cmd.args(["--equipment", "1001", "--kind", "positions"])
        .env("FLEETVIEW_API_KEY_NAME", "demo")
        .env("FLEETVIEW_API_KEY", "demo")
        .env("FLEETVIEW_READ_TIMEOUT_S", "5");
    let (out, took) = output_within(cmd, Duration::from_secs(40));
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(took < Duration::from_secs(20), "took {took:?}: {err}");
    assert!(
        err.contains(&format!(
            "the service at {address} did not answer within 5 s"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("waiting for {address} (logging in)")),
        "{err}"
    );
    assert_eq!(accepted.load(Ordering::SeqCst), 1, "one login: {err}");

    // A report with a token: its one request is not repeated either.
    let (address, accepted) = silent_service();
    let mut cmd = signed_out("report", &format!("http://{address}"), &cache);
    cmd.args(["--equipment", "1001"])
        .env("FLEETVIEW_TOKEN", "t0k3n")
        .env("FLEETVIEW_READ_TIMEOUT_S", "2");
    let (out, took) = output_within(cmd, Duration::from_secs(40));
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(took < Duration::from_secs(15), "took {took:?}: {err}");
    assert!(
        err.contains(&format!(
            "the service at {address} did not answer within 2 s"
        )),
        "{err}"
    );
    assert_eq!(accepted.load(Ordering::SeqCst), 1, "one request: {err}");
}

/// A listener on loopback that answers every request 500 and counts them.
fn failing_service() -> (String, Arc<AtomicUsize>) {
    use std::io::Write as _;
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let address = listener.local_addr().expect("addr").to_string();
    let answered = Arc::new(AtomicUsize::new(0));
    let counted = answered.clone();
    std::thread::spawn(move || {
        for mut sock in listener.incoming().flatten() {
            // The request's head; the body (a login's) is small enough to
            // come with it and is not needed.
            let mut head = [0u8; 4096];
            if sock.read(&mut head).unwrap_or(0) == 0 {
                continue;
            }
            counted.fetch_add(1, Ordering::SeqCst);
            let _ = sock.write_all(
                b"HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
            );
        }
    });
    (address, answered)
}

/// A login the service fails (500) fails the job with the service's words,
/// and is not sent again by the job afterwards.
#[test]
fn a_failed_login_fails_the_job_and_is_sent_once() {
    let (address, answered) = failing_service();
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let mut cmd = signed_out("export", &format!("http://{address}"), &cache);
    cmd.args(["--equipment", "1001", "--kind", "positions"])
        .env("FLEETVIEW_API_KEY_NAME", "demo")
        .env("FLEETVIEW_API_KEY", "demo");
    let (out, _) = output_within(cmd, Duration::from_secs(40));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("POST /login") && err.contains("500"), "{err}");
    assert!(out.stdout.is_empty(), "nothing written: {err}");
    assert_eq!(answered.load(Ordering::SeqCst), 1, "one login: {err}");
}

/// A service slow to answer each read (4 s): what the job waits for is said
/// once, not again at each slow answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_job_waits_for_is_said_once() {
    let chaos = ChaosConfig::parse("latency_ms=4000,latency=1,path=positions").expect("chaos");
    let sb = common::start_with(common::fixed_config().chaos(chaos)).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let today = common::now().div_euclid(86_400) * 86_400;
    // 5 weeks: chunks of 7 days on the grid (5 or 6), 4 at a time, so two
    // slow answers one after the other.
    let (since, until) = (format_wire(today - 35 * 86_400), format_wire(today - 1));
    let mut cmd = signed_out("export", &sb.base, &cache);
    cmd.args(["--equipment", &FIRST_ID.to_string(), "--kind", "positions"])
        .args(["--since", &since, "--until", &until])
        .env("FLEETVIEW_TOKEN", &sb.token);
    let out = output_async(cmd).await;
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("5/5 chunks") || err.contains("6/6 chunks"),
        "{err}"
    );
    let address = sb.base.trim_start_matches("http://").trim_end_matches('/');
    let said = format!("waiting for {address} (positions of equipment {FIRST_ID})");
    assert_eq!(err.matches(&said).count(), 1, "{said}: {err}");
    assert_eq!(err.matches("waiting for").count(), 1, "{err}");
}

/// An export of the embedded test data to `output`, offline from a cache
/// filled first.
async fn cached_export(output: &str, cwd: &Path) -> (Output, Vec<u8>) {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let today = common::now().div_euclid(86_400) * 86_400;
    let (since, until) = (format_wire(today - 4 * 86_400), format_wire(today - 1));
    let export = |out: &str| {
        let mut cmd = signed_out("export", &sb.base, &cache);
        cmd.args(["--equipment", &FIRST_ID.to_string(), "--kind", "dailyFuel"])
            .args(["--since", &since, "--until", &until, "-o", out])
            .env("FLEETVIEW_TOKEN", &sb.token)
            .current_dir(cwd);
        cmd
    };
    let first = output_async(export("-")).await;
    assert!(first.status.success(), "{}", stderr(&first));
    (output_async(export(output)).await, first.stdout)
}

/// `-o` onto a named pipe writes into the pipe (no file beside it,
/// no rename over it); `-o -` is stdout; an error names the path given.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_output_onto_a_pipe_writes_into_it_and_errors_name_the_path_given() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("out.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    // A reader that blocks until a writer opens the pipe; never joined, so
    // a pipe nobody writes into fails the test instead of hanging it.
    let (sent, reading) = std::sync::mpsc::channel();
    {
        let fifo = fifo.clone();
        std::thread::spawn(move || sent.send(std::fs::read(&fifo).expect("the pipe is read")));
    }
    let (out, stdout) = cached_export(fifo.to_str().expect("utf-8"), dir.path()).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let read = reading
        .recv_timeout(Duration::from_secs(10))
        .expect("bytes came through the pipe");
    assert!(stdout.starts_with(b"date,"), "`-o -` is stdout");
    assert_eq!(read, stdout, "the export's bytes came through the pipe");
    use std::os::unix::fs::FileTypeExt as _;
    let kind = std::fs::symlink_metadata(&fifo)
        .expect("still there")
        .file_type();
    assert!(kind.is_fifo(), "the pipe is still a pipe: {kind:?}");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, ["out.fifo"], "nothing left beside it");

    let missing = dir.path().join("no-such-dir").join("out.csv");
    let (out, _) = cached_export(missing.to_str().expect("utf-8"), dir.path()).await;
    let err = stderr(&out);
    assert!(!out.status.success());
    assert!(err.contains(&missing.display().to_string()), "{err}");
    assert!(!err.contains(".partial"), "no temporary file named: {err}");
    assert!(!dir.path().join("-").exists(), "no file named -");
}
