//! The command line on a cache file gone wrong: rows garbled in a sound
//! file are read again from the service, and the cache is blamed.

use fleetview_testkit as common;

use std::path::Path;
use std::process::Output;

use crate::binary::fleetview;
use fleetview_api::time::format_wire;
use fleetview_sandbox::simulate::FIRST_ID;

/// `fleetview export` run off the async threads (the sandbox serves on them).
async fn export(base: &str, token: &str, cache: &Path, args: &[&str]) -> Output {
    let mut cmd = fleetview("export", base, cache);
    cmd.args(args)
        .env("FLEETVIEW_TOKEN", token)
        .env("RUST_LOG", "off");
    tokio::task::spawn_blocking(move || cmd.output().expect("fleetview export runs"))
        .await
        .expect("export finished")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_over_garbled_cached_rows_reads_them_again_and_says_so() {
    let sb = common::start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let since = format_wire(common::now() - 10 * 86_400);
    let until = format_wire(common::now() - 86_400);
    let id = (FIRST_ID + 2).to_string();
    let args = [
        "--equipment",
        &id,
        "--kind",
        "positions",
        "--format",
        "json",
        "--since",
        &since,
        "--until",
        &until,
    ];
    let first = export(&sb.base, &sb.token, &cache, &args).await;
    assert!(first.status.success(), "{first:?}");
    let rows: serde_json::Value = serde_json::from_slice(&first.stdout).expect("json");
    assert!(rows.as_array().is_some_and(|r| r.len() > 1000));

    let conn = rusqlite::Connection::open(&cache).expect("the cache file");
    let garbled = conn
        .execute("UPDATE windows SET rows = CAST('xx{' AS BLOB)", [])
        .expect("garble");
    assert!(garbled >= 2, "weekly windows were cached: {garbled}");
    drop(conn);

    let before = sb.running.request_count();
    let again = export(&sb.base, &sb.token, &cache, &args).await;
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "exit {:?}: {stderr}", again.status);
    assert_eq!(again.stdout, first.stdout, "the same rows, read again");
    assert!(sb.running.request_count() > before, "from the service");
    // One line for every window dropped, not one each.
    let told: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("local cache"))
        .collect();
    assert_eq!(told.len(), 1, "{stderr}");
    assert!(told[0].contains("read again"), "{stderr}");
    assert!(
        told[0].contains(&format!("{garbled} stored windows")),
        "{stderr}"
    );
    assert!(!stderr.contains("reading what was fetched"), "{stderr}");

    // Repaired: the third export reads the cache alone.
    let offline = [&args[..], &["--offline"]].concat();
    let third = export(&sb.base, &sb.token, &cache, &offline).await;
    assert!(third.status.success(), "{third:?}");
    assert_eq!(third.stdout, first.stdout);
}
