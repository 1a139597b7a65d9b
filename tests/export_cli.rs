//! `fleetview export`: the binary against a real sandbox, through a real
//! cache file, with and without the service.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::start;
use fleetview::api::time::format_wire;
use fleetview::sandbox::simulate::FIRST_ID;
use serde_json::Value;

fn export(base: &str, token: Option<&str>, cache: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fleetview"));
    cmd.arg("export")
        .arg("--base-url")
        .arg(base)
        .arg("--cache-file")
        .arg(cache)
        .args(args);
    cmd.env_remove("FLEETVIEW_TOKEN").env("RUST_LOG", "warn");
    if let Some(t) = token {
        cmd.env("FLEETVIEW_TOKEN", t);
    }
    cmd.output().expect("fleetview export runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csv_and_json_exports_match_the_service_and_work_offline() {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let since = format_wire(common::now() - 10 * 86_400);
    let until = format_wire(common::now() - 86_400);
    let id = (FIRST_ID + 2).to_string();
    let window = ["--since", since.as_str(), "--until", until.as_str()];

    // The service's own count for the window.
    let (_, body) = sb
        .get(&format!(
            "/v2/fleet/equipments/{id}/positions?since={since}&until={until}"
        ))
        .await;
    let total = body["data"]["total"].as_u64().expect("total") as usize;
    assert!(total > 1000);

    let csv_path = dir.path().join("positions.csv");
    let (base, token) = (sb.base.clone(), sb.token.clone());
    let (c, p) = (cache.clone(), csv_path.clone());
    let args: Vec<String> = [
        &["--equipment", &id, "--kind", "positions", "--output"][..],
        &[p.to_str().unwrap_or_default()],
        &window[..],
    ]
    .concat()
    .into_iter()
    .map(str::to_owned)
    .collect();
    let out = tokio::task::spawn_blocking(move || {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        export(&base, Some(&token), &c, &refs)
    })
    .await
    .expect("join");
    let (_, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("chunks fetched"), "progress on stderr: {err}");
    let csv = std::fs::read_to_string(&csv_path).expect("csv written");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "date,latitude,longitude,altitude,speed,heading");
    assert_eq!(lines.len() - 1, total, "one CSV row per row of the service");

    // JSON of a daily kind with units and estimated flags, on stdout.
    let (base, token, c) = (sb.base.clone(), sb.token.clone(), cache.clone());
    let (s2, u2) = (since.clone(), until.clone());
    let out = tokio::task::spawn_blocking(move || {
        export(
            &base,
            Some(&token),
            &c,
            &[
                "--equipment",
                &FIRST_ID.to_string(),
                "--kind",
                "dailyFuel",
                "--format",
                "json",
                "--since",
                &s2,
                "--until",
                &u2,
            ],
        )
    })
    .await
    .expect("join");
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    let rows: Vec<Value> = serde_json::from_str(&stdout).expect("JSON array");
    assert_eq!(rows.len(), 9, "one row per day");
    assert!(
        rows.iter()
            .all(|r| r["unit"] == "L" && r["estimated"].is_boolean())
    );

    let (base, token, c) = (sb.base.clone(), sb.token.clone(), cache.clone());
    let (s2, u2) = (since.clone(), until.clone());
    let out = tokio::task::spawn_blocking(move || {
        export(
            &base,
            Some(&token),
            &c,
            &[
                "--equipment",
                &FIRST_ID.to_string(),
                "--kind",
                "dailyFuel",
                "--since",
                &s2,
                "--until",
                &u2,
            ],
        )
    })
    .await
    .expect("join");
    let (stdout, _) = text(&out);
    assert_eq!(stdout.lines().next(), Some("date,fuelUsed (L),estimated"));

    // The service goes away: the cached window is still exported, same bytes.
    sb.running.shutdown().await;
    let offline_path = dir.path().join("offline.csv");
    let (base, c, p) = (sb.base.clone(), cache.clone(), offline_path.clone());
    let (s2, u2, id2) = (since.clone(), until.clone(), id.clone());
    let out = tokio::task::spawn_blocking(move || {
        export(
            &base,
            None,
            &c,
            &[
                "--equipment",
                &id2,
                "--kind",
                "positions",
                "--offline",
                "--output",
                p.to_str().unwrap_or_default(),
                "--since",
                &s2,
                "--until",
                &u2,
            ],
        )
    })
    .await
    .expect("join");
    let (_, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("0 requests"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&offline_path).expect("written"),
        csv
    );

    // What was never fetched cannot be exported offline: a clear error, no file.
    let missing_path = dir.path().join("missing.csv");
    let (base, c, p) = (sb.base.clone(), cache.clone(), missing_path.clone());
    let out = tokio::task::spawn_blocking(move || {
        export(
            &base,
            None,
            &c,
            &[
                "--equipment",
                &FIRST_ID.to_string(),
                "--kind",
                "temperature",
                "--offline",
                "--output",
                p.to_str().unwrap_or_default(),
            ],
        )
    })
    .await
    .expect("join");
    let (_, err) = text(&out);
    assert!(!out.status.success());
    assert!(err.contains("not everything asked for is cached"), "{err}");
    assert!(!missing_path.exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_faults_and_clear_errors() {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let since = format_wire(common::now() - 5 * 86_400);
    let until = format_wire(common::now() - 86_400);
    let run = |args: Vec<String>, token: Option<String>| {
        let (base, c) = (sb.base.clone(), cache.clone());
        tokio::task::spawn_blocking(move || {
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            export(&base, token.as_deref(), &c, &refs)
        })
    };
    let own = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let id = FIRST_ID.to_string();

    let out = run(
        own(&[
            "--equipment",
            &id,
            "--kind",
            "history",
            "--format",
            "json",
            "--since",
            &since,
            "--until",
            &until,
        ]),
        Some(sb.token.clone()),
    )
    .await
    .expect("join");
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    let history: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(history["id"].as_i64(), Some(FIRST_ID));
    assert_eq!(
        history["dailyUsages"]["rows"].as_array().map(Vec::len),
        Some(4)
    );

    let out = run(
        own(&[
            "--equipment",
            &id,
            "--kind",
            "history",
            "--since",
            &since,
            "--until",
            &until,
        ]),
        Some(sb.token.clone()),
    )
    .await
    .expect("join");
    let (stdout, err) = text(&out);
    assert!(err.contains("served from the cache"), "{err}");
    assert!(
        stdout.starts_with("date,operatingHours.hour (h)")
            || stdout.starts_with("date,operatingHours.hour"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().count(), 5);

    let out = run(
        own(&[
            "--equipment",
            &id,
            "--kind",
            "faults",
            "--since",
            &since,
            "--until",
            &until,
        ]),
        Some(sb.token.clone()),
    )
    .await
    .expect("join");
    assert!(out.status.success(), "{}", text(&out).1);

    for (args, token, expected) in [
        (
            own(&["--equipment", &id, "--kind", "nonsense"]),
            Some(sb.token.clone()),
            "unknown kind 'nonsense'",
        ),
        (
            own(&[
                "--equipment",
                &id,
                "--kind",
                "positions",
                "--since",
                "yesterday",
            ]),
            Some(sb.token.clone()),
            "--since/--until",
        ),
        (
            own(&["--equipment", &id, "--kind", "positions"]),
            Some("bad".to_owned()),
            "not authorised",
        ),
        (
            own(&["--equipment", "999999", "--kind", "positions"]),
            Some(sb.token.clone()),
            "not found",
        ),
        (
            own(&["--equipment", &id, "--kind", "positions"]),
            None,
            "no access token",
        ),
    ] {
        let out = run(args, token).await.expect("join");
        let (_, err) = text(&out);
        assert!(!out.status.success());
        assert!(err.contains(expected), "expected '{expected}' in: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn plain_http_to_a_remote_host_is_refused_before_anything_is_sent() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = export(
        "http://fleet.example.com",
        Some("t0k3n"),
        &dir.path().join("c.sqlite"),
        &["--equipment", "1", "--kind", "positions"],
    );
    let (_, err) = text(&out);
    assert!(!out.status.success());
    assert!(
        err.contains("refusing to send the access token over plain http"),
        "{err}"
    );
    assert!(!err.contains("t0k3n"));
}
