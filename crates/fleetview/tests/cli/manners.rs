//! The command line's manners: `-o -` is stdout, each kind of failure its
//! own exit status, `NO_COLOR` honoured, and a closed pipe ends a job
//! quietly.

use fleetview_testkit as common;

use std::io::{BufRead, BufReader, Read};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::binary::{output_async, output_within, signed_out, stderr};
use fleetview_api::time::format_wire;
use fleetview_sandbox::simulate::FIRST_ID;

/// The statuses `fleetview --help` lists.
const FAILED: i32 = 1;
const USAGE: i32 = 2;
const REFUSED: i32 = 3;
const UNREACHABLE: i32 = 4;
const NOT_CACHED: i32 = 5;

/// The last `days` whole days before the tests' "now".
fn days(days: i64) -> (String, String) {
    let today = common::now().div_euclid(86_400) * 86_400;
    (format_wire(today - days * 86_400), format_wire(today - 1))
}

/// `fleetview export` and `report` of one machine's window, `-o -` and to
/// a file, from the folder `cwd`: the same bytes, and no file named `-`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_dash_is_stdout_for_every_job_and_no_file_named_dash() {
    let sb = common::start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cwd = dir.path().join("cwd");
    std::fs::create_dir(&cwd).expect("mkdir");
    let (since, until) = days(3);
    let id = FIRST_ID.to_string();
    let jobs: [(&str, Vec<&str>); 3] = [
        ("export", vec!["--kind", "positions", "--format", "geojson"]),
        ("export", vec!["--kind", "events", "--format", "json"]),
        ("report", vec!["--format", "md", "--now", common::NOW]),
    ];
    for (sub, args) in jobs {
        let run = |output: &str| {
            let mut cmd = signed_out(sub, &sb.base, &dir.path().join("cache.sqlite"));
            cmd.args(["--equipment", &id, "--since", &since, "--until", &until])
                .args(&args)
                .args(["-o", output])
                .env("FLEETVIEW_TOKEN", &sb.token)
                .current_dir(&cwd);
            cmd
        };
        let file = dir.path().join("file");
        let to_file = output_async(run(file.to_str().expect("utf-8"))).await;
        assert!(to_file.status.success(), "{sub}: {}", stderr(&to_file));
        assert!(
            to_file.stdout.is_empty(),
            "{sub}: a file, nothing on stdout"
        );
        let to_stdout = output_async(run("-")).await;
        assert!(to_stdout.status.success(), "{sub}: {}", stderr(&to_stdout));
        let written = std::fs::read(&file).expect("written");
        assert!(!written.is_empty(), "{sub} {args:?}");
        assert_eq!(
            to_stdout.stdout, written,
            "{sub} {args:?}: the file's bytes"
        );
        assert!(!cwd.join("-").exists(), "{sub}: no file named -");
        assert_eq!(std::fs::read_dir(&cwd).expect("ls").count(), 0, "{sub}");
    }
}

/// Each failure a script can act on has its own status: a refused key
/// (3), a service out of reach with nothing cached (4), offline with
/// nothing cached (5), wrong usage (2), anything else (1).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_kind_of_failure_has_its_exit_status() {
    let sb = common::start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    // A port nothing listens on: bound, then let go.
    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        format!("http://{}", listener.local_addr().expect("address"))
    };
    let (since, until) = days(2);
    let id = FIRST_ID.to_string();
    let job = |sub: &str, base: &str, key: Option<&str>, extra: &[&str]| {
        let mut cmd = signed_out(sub, base, &cache);
        cmd.args(["--equipment", &id, "--since", &since, "--until", &until])
            .args(extra);
        if let Some(key) = key {
            cmd.env("FLEETVIEW_API_KEY_NAME", "demo")
                .env("FLEETVIEW_API_KEY", key);
        }
        cmd
    };
    let positions = ["--kind", "positions"];
    let cases = [
        (
            "a wrong API key",
            job("export", &sb.base, Some("wrong"), &positions),
            REFUSED,
        ),
        (
            "a report, a wrong API key",
            job("report", &sb.base, Some("wrong"), &[]),
            REFUSED,
        ),
        (
            "a closed port, with a key",
            job("export", &closed, Some("demo"), &positions),
            UNREACHABLE,
        ),
        (
            "a closed port, a token",
            {
                let mut cmd = job("export", &closed, None, &positions);
                cmd.env("FLEETVIEW_TOKEN", "any");
                cmd
            },
            UNREACHABLE,
        ),
        (
            "a report, a closed port",
            job("report", &closed, Some("demo"), &[]),
            UNREACHABLE,
        ),
        (
            "offline, nothing cached",
            job(
                "export",
                &closed,
                None,
                &["--offline", "--kind", "positions"],
            ),
            NOT_CACHED,
        ),
        (
            "a report offline, nothing cached",
            job("report", &closed, None, &["--offline"]),
            NOT_CACHED,
        ),
        (
            "an unknown option",
            job(
                "export",
                &sb.base,
                None,
                &["--kind", "positions", "--frobnicate"],
            ),
            USAGE,
        ),
        ("no kind", job("export", &sb.base, Some("demo"), &[]), USAGE),
        (
            "an unknown kind",
            job("export", &sb.base, Some("demo"), &["--kind", "nonsense"]),
            USAGE,
        ),
        (
            "a file that cannot be written",
            job(
                "export",
                &sb.base,
                Some("demo"),
                &["--kind", "positions", "-o", "/proc/no-such-folder/out.csv"],
            ),
            FAILED,
        ),
    ];
    for (what, cmd, status) in cases {
        let out = output_async(cmd).await;
        assert_eq!(out.status.code(), Some(status), "{what}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{what}: nothing written");
    }
    // The right key: done, and the window cached; the same service gone
    // (the cache is kept per service), the job reads the cache (0).
    let out = output_async(job("export", &sb.base, Some("demo"), &positions)).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let online = out.stdout;
    let base = sb.base.clone();
    sb.running.shutdown().await;
    let out = output_async(job("export", &base, Some("demo"), &positions)).await;
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, online, "from the cache");
}

/// `fleetview sandbox` (which logs as it starts) under `script`, so its
/// stderr is a terminal; the log lines up to the second, then killed.
fn sandbox_log_on_a_terminal(no_color: Option<&str>, data: &Path) -> String {
    let bin = env!("CARGO_BIN_EXE_fleetview");
    let line = format!(
        "'{bin}' sandbox --listen 127.0.0.1:0 --fleet-size 3 --data-dir '{}'",
        data.display()
    );
    let mut cmd = Command::new("script");
    cmd.args(["-qec", &line, "/dev/null"])
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    match no_color {
        Some(v) => cmd.env("NO_COLOR", v),
        None => cmd.env_remove("NO_COLOR"),
    };
    let mut child = cmd.spawn().expect("script (util-linux) runs");
    let (sent, lines) = std::sync::mpsc::channel();
    let out = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if sent.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut log = String::new();
    while log.matches("INFO").count() < 2 {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                log.push_str(&line);
                log.push('\n');
            }
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    log
}

/// On a terminal the log is coloured, unless `NO_COLOR` is set and not
/// empty (no-color.org); off a terminal it never is.
#[test]
fn no_color_turns_the_logs_colours_off_even_on_a_terminal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let coloured = sandbox_log_on_a_terminal(None, &dir.path().join("a"));
    assert!(coloured.contains("INFO"), "{coloured}");
    assert!(
        coloured.contains("\x1b["),
        "coloured on a terminal: {coloured:?}"
    );
    let empty = sandbox_log_on_a_terminal(Some(""), &dir.path().join("b"));
    assert!(
        empty.contains("\x1b["),
        "an empty NO_COLOR is unset: {empty:?}"
    );
    let plain = sandbox_log_on_a_terminal(Some("1"), &dir.path().join("c"));
    assert!(plain.contains("INFO"), "{plain}");
    assert!(!plain.contains('\x1b'), "NO_COLOR=1: {plain:?}");
    // clap's own words (a usage error) follow it too.
    let usage = |no_color: &str| {
        let line = format!("'{}' --frobnicate", env!("CARGO_BIN_EXE_fleetview"));
        let mut cmd = Command::new("script");
        cmd.args(["-qec", &line, "/dev/null"])
            .env("NO_COLOR", no_color)
            .stdin(Stdio::null());
        let out = output_within(cmd, Duration::from_secs(60)).0;
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let coloured = usage("");
    assert!(
        coloured.contains("--frobnicate") && coloured.contains("\x1b["),
        "{coloured:?}"
    );
    let plain = usage("1");
    assert!(
        plain.contains("--frobnicate") && !plain.contains('\x1b'),
        "{plain:?}"
    );
}

/// A reader that goes away after a few bytes (`| head -c 64`): the export
/// ends with status 0 and no error said.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_pipe_ends_the_export_quietly() {
    let sb = common::start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    // A week of a machine reporting every minute: far more than a pipe holds.
    let (since, until) = days(7);
    let mut cmd = signed_out("export", &sb.base, &dir.path().join("cache.sqlite"));
    cmd.args([
        "--equipment",
        &(FIRST_ID + 2).to_string(),
        "--kind",
        "positions",
    ])
    .args(["--since", &since, "--until", &until])
    .env("FLEETVIEW_TOKEN", &sb.token)
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let (status, head, err) = tokio::task::spawn_blocking(move || {
        let mut child = cmd.spawn().expect("fleetview starts");
        let mut head = [0u8; 64];
        let mut out = child.stdout.take().expect("stdout");
        out.read_exact(&mut head).expect("the first bytes");
        drop(out);
        let mut err = String::new();
        let mut pipe = child.stderr.take().expect("stderr");
        // Ends when the process does (it holds the only writer).
        pipe.read_to_string(&mut err).expect("stderr");
        let deadline = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            assert!(Instant::now() < deadline, "still running: {err}");
            std::thread::yield_now();
        };
        (status, head, err)
    })
    .await
    .expect("finished");
    assert!(
        head.starts_with(b"date,"),
        "{}",
        String::from_utf8_lossy(&head)
    );
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(
        !err.contains("rror") && !err.contains("pipe"),
        "nothing said: {err}"
    );
    assert!(!err.contains("rows written"), "not done either: {err}");
}
