//! Sandbox speed, as ratios measured in one run (`cargo bench --bench sandbox`):
//! - positions of a 1-per-minute machine over 30 days are generated and
//!   serialised far faster than a client can decode them;
//! - `fleetview sandbox --fleet-size 100000` answers in under a second, about
//!   as fast as a 60-machine fleet.
//!
//! Ends with `N passed, M failed`.

#![allow(clippy::print_stdout)] // The report is the output.

use fleetview_testkit::goals as common;

use std::hint::black_box;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Goals, best_of};

use fleetview_api::DataKind;
use fleetview_api::model::{Envelope, PositionRow, SeriesData};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow, parse_wire};
use fleetview_sandbox::Clock;
use fleetview_sandbox::answers::{Operation, equipment};
use fleetview_sandbox::encode::positions_envelope;
use fleetview_sandbox::simulate::machine::Feed;
use fleetview_sandbox::simulate::{FIRST_ID, Machine, Simulator};

/// What the sandbox's `/positions` handler does: generate and write the
/// rows as they come (here into memory rather than into pieces on their
/// way to the connection).
fn generate_and_serialise(sim: &Simulator, m: &Machine, w: TimeWindow) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = equipment(sim, m, Operation::Kind(DataKind::Positions), w, &mut out);
    out
}

fn generation_vs_decode(goals: &mut Goals) {
    let now = parse_wire("2025-06-18T15:30:00Z").unwrap_or_default();
    let sim = Simulator::new(60, Clock::Fixed(now));
    let m = (0..60)
        .map(Machine::at_index)
        .find(|m| {
            matches!(
                m.feed,
                Feed::Tracker {
                    moving_secs: 60,
                    ..
                }
            )
        })
        .expect("the default fleet has a 1-per-minute tracker");
    let w = TimeWindow {
        since: now - 30 * SECS_PER_DAY,
        until: now,
    };
    let bytes = generate_and_serialise(&sim, &m, w);
    let rows = sim.positions(&m, w).len();

    let generate = best_of(Duration::from_secs(2), || {
        black_box(generate_and_serialise(&sim, &m, w));
    });
    let decode = best_of(Duration::from_secs(2), || {
        let env: Envelope<SeriesData<PositionRow>> =
            serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{e}"));
        black_box(env);
    });
    let only_generate = best_of(Duration::from_secs(1), || {
        black_box(sim.positions(&m, w));
    });
    let prepared = sim.positions(&m, w);
    let only_serialise = best_of(Duration::from_secs(1), || {
        black_box(positions_envelope(m.id, &m.serial_number, w, &prepared));
    });
    println!(
        "  of which generate {:.2} M rows/s, serialise {:.2} M rows/s",
        rows as f64 / only_generate.as_secs_f64() / 1e6,
        rows as f64 / only_serialise.as_secs_f64() / 1e6
    );
    let gen_rate = rows as f64 / generate.as_secs_f64();
    let dec_rate = rows as f64 / decode.as_secs_f64();
    println!(
        "positions of {} over 30 days: {rows} rows, {:.1} MB; generate+serialise {:.2} M rows/s, typed decode {:.2} M rows/s",
        m.name,
        bytes.len() as f64 / 1e6,
        gen_rate / 1e6,
        dec_rate / 1e6
    );
    let ratio = gen_rate / dec_rate;
    goals.check(
        ratio >= 1.5,
        format!("generate+serialise / client decode = {ratio:.2}x (goal >= 1.5x)"),
    );
}

/// Time from spawning the sandbox to its first answer for the fleet's last
/// machine.
fn startup(fleet_size: u64) -> Duration {
    let started = Instant::now();
    let dir = std::env::temp_dir().join(format!(
        "fleetview-bench-{}-{fleet_size}",
        std::process::id()
    ));
    let mut child = Command::new(env!("CARGO_BIN_EXE_fleetview"))
        .args([
            "sandbox",
            "--listen",
            "127.0.0.1:0",
            "--fleet-size",
            &fleet_size.to_string(),
            "--data-dir",
        ])
        .arg(&dir)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sandbox starts");
    let mut line = String::new();
    if let Some(out) = child.stdout.take() {
        let _ = BufReader::new(out).read_line(&mut line);
    }
    let base = line.trim().trim_start_matches("listening on ").to_owned();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let answered = rt.block_on(async {
        let http = reqwest::Client::new();
        let login: serde_json::Value = http
            .post(format!("{base}/auth/login"))
            .json(&serde_json::json!({"username": "demo", "password": "demo"}))
            .send()
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        let token = login["token"].as_str()?.to_owned();
        let last = FIRST_ID + fleet_size as i64 - 1;
        let resp = http
            .get(format!("{base}/v2/fleet/equipments/{last}/positions"))
            .header("x-access-token", token)
            .send()
            .await
            .ok()?;
        resp.status().is_success().then_some(())
    });
    let elapsed = started.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    if answered.is_none() {
        return Duration::MAX;
    }
    elapsed
}

fn large_fleet_startup(goals: &mut Goals) {
    let small = (0..3).map(|_| startup(60)).min().unwrap_or(Duration::MAX);
    let large = (0..3)
        .map(|_| startup(100_000))
        .min()
        .unwrap_or(Duration::MAX);
    println!("start and first answer: 60 machines {small:?}, 100000 machines {large:?}");
    goals.check(
        large < Duration::from_secs(1),
        format!("--fleet-size 100000 answers in {large:?} (goal < 1 s)"),
    );
    let ratio = large.as_secs_f64() / small.as_secs_f64();
    goals.check(
        ratio <= 2.0,
        format!("100000 vs 60 machines start-up = {ratio:.2}x (goal <= 2x)"),
    );
}

fn main() -> std::process::ExitCode {
    // `cargo bench` passes `--bench`; nothing to parse.
    let mut goals = Goals::default();
    generation_vs_decode(&mut goals);
    large_fleet_startup(&mut goals);
    goals.finish()
}
