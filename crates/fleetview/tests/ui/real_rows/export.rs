//! `fleetview export` against the stub: instants in UTC, to the
//! millisecond where the service gave one.

use super::*;

use std::process::{Command, Output};

use fleetview_api::time::format_wire;

/// Runs `fleetview export` for the fixtures' machine and day, without a
/// cache, off the async threads (the stub serves on them).
async fn export(stub: &Stub, args: &[&str]) -> Output {
    let w = day();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fleetview"));
    cmd.args(["export", "--no-cache", "--base-url", &stub.base])
        .args(["--equipment", &ID.to_string()])
        .args([
            "--since",
            &format_wire(w.since),
            "--until",
            &format_wire(w.until),
        ])
        .args(args)
        .env("FLEETVIEW_TOKEN", "any token")
        .env("RUST_LOG", "warn");
    tokio::task::spawn_blocking(move || cmd.output().expect("fleetview export runs"))
        .await
        .expect("export finished")
}

fn lines(o: &Output) -> Vec<String> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exports_write_the_services_instants_in_utc_to_the_millisecond() {
    let stub = stub().await;

    let out = export(&stub, &["--kind", "cumulativeOperatingHours"]).await;
    assert_eq!(
        lines(&out),
        [
            "date,hour,usageHours",
            "2025-08-20T06:30:00Z,1519.25,1399.5",
            "2025-08-20T09:48:10.721Z,1520.5,1400",
            "2025-08-20T10:00:00Z,1520.75,1400.25",
        ]
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("1 rows without a readable date were left out"),
        "the placeholder-dated row is counted: {stderr}"
    );

    let faults = lines(&export(&stub, &["--kind", "faults"]).await);
    let dates: Vec<&str> = faults[1..]
        .iter()
        .filter_map(|l| l.split(',').next())
        .collect();
    assert_eq!(dates, ["2025-08-20T09:48:10.721Z", "2025-08-20T10:00:00Z"]);
    assert!(
        !faults.iter().any(|l| l.contains("missing")),
        "placeholders are no values: {faults:?}"
    );

    let gpx = lines(&export(&stub, &["--kind", "positions", "--format", "gpx"]).await).join("\n");
    let times: Vec<&str> = gpx
        .match_indices("<time>")
        .map(|(i, _)| &gpx[i + 6..i + 6 + gpx[i + 6..].find('<').unwrap_or(0)])
        .collect();
    assert_eq!(
        times,
        [
            "2025-08-20T06:30:00.125Z",
            "2025-08-20T09:48:10.721Z",
            "2025-08-20T10:00:00Z"
        ],
        "the placeholder-dated position is outside the day"
    );
}
