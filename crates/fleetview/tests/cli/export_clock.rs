//! `fleetview export` against a service whose clock is behind this
//! computer's: what it had not lived yet is not kept as final, so an
//! export once its clock has moved on has the rows it has by then.

use fleetview_testkit as common;

use std::path::Path;
use std::process::Command;

use fleetview_api::time::{SECS_PER_DAY, format_wire, now_secs};
use fleetview_sandbox::simulate::FIRST_ID;
use fleetview_sandbox::{Clock, ManualClock};
use serde_json::Value;

/// Exports a machine's positions over `since..until` as JSON rows, through
/// the cache file, off the async threads (the sandbox serves on them).
async fn positions(base: &str, token: &str, cache: &Path, since: i64, until: i64) -> Vec<Value> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fleetview"));
    cmd.arg("export")
        .args(["--base-url", base, "--cache-file"])
        .arg(cache)
        .args(["--equipment", &(FIRST_ID + 2).to_string()])
        .args(["--kind", "positions", "--format", "json"])
        .args([
            "--since",
            &format_wire(since),
            "--until",
            &format_wire(until),
        ])
        .env("FLEETVIEW_TOKEN", token)
        .env("RUST_LOG", "warn");
    let out = tokio::task::spawn_blocking(move || cmd.output().expect("fleetview export runs"))
        .await
        .expect("export finished");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    serde_json::from_slice(&out.stdout).expect("JSON rows")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_past_the_services_now_has_its_new_rows_once_its_clock_moves_on() {
    let service_now = common::now();
    assert!(
        service_now < now_secs() - 30 * SECS_PER_DAY,
        "the service is behind"
    );
    let hand = ManualClock::new(service_now);
    let sb = common::start_with(common::fixed_config().clock(Clock::Manual(hand.clone()))).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let (since, until) = (service_now - SECS_PER_DAY, service_now + 6 * 3600);

    let before = positions(&sb.base, &sb.token, &cache, since, until).await;
    hand.advance(4 * 3600);
    let after = positions(&sb.base, &sb.token, &cache, since, until).await;

    let (_, body) = sb
        .get(&format!(
            "/v2/fleet/equipments/{}/positions?{}",
            FIRST_ID + 2,
            common::window_query(since, until)
        ))
        .await;
    let total = body["data"]["total"].as_u64().expect("total") as usize;
    assert!(
        total > before.len(),
        "the service has rows of the hours since"
    );
    assert_eq!(
        after.len(),
        total,
        "the export has them (it had {} before)",
        before.len()
    );
}
