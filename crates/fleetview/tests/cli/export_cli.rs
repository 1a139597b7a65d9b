//! `fleetview export`: the binary against a real sandbox, through a real
//! cache file, with and without the service.

use fleetview_testkit as common;

use std::path::Path;
use std::process::{Command, Output};

use crate::binary::fleetview;
use common::start;
use fleetview_api::time::format_wire;
use fleetview_sandbox::simulate::FIRST_ID;
use serde_json::Value;

fn export(base: &str, token: Option<&str>, cache: &Path, args: &[&str]) -> Output {
    let mut cmd = fleetview("export", base, cache);
    cmd.args(args);
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

/// Runs the export off the async threads (the sandbox serves on them).
async fn export_async(base: &str, token: Option<&str>, cache: &Path, args: &[&str]) -> Output {
    let (base, token, cache) = (base.to_owned(), token.map(str::to_owned), cache.to_owned());
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    tokio::task::spawn_blocking(move || {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        export(&base, token.as_deref(), &cache, &refs)
    })
    .await
    .expect("export finished")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csv_and_json_exports_match_the_service_and_work_offline() {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let since = format_wire(common::now() - 10 * 86_400);
    let until = format_wire(common::now() - 86_400);
    let id = (FIRST_ID + 2).to_string();
    let first = FIRST_ID.to_string();
    let window = ["--since", since.as_str(), "--until", until.as_str()];
    let token = Some(sb.token.as_str());

    // The service's own count for the window.
    let (_, body) = sb
        .get(&format!(
            "/v2/fleet/equipments/{id}/positions?since={since}&until={until}"
        ))
        .await;
    let total = body["data"]["total"].as_u64().expect("total") as usize;
    assert!(total > 1000);

    let csv_path = dir.path().join("positions.csv");
    let csv_arg = csv_path.to_str().expect("utf-8 path");
    let args = [
        &[
            "--equipment",
            &id,
            "--kind",
            "positions",
            "--output",
            csv_arg,
        ][..],
        &window[..],
    ]
    .concat();
    let out = export_async(&sb.base, token, &cache, &args).await;
    let (_, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("chunks fetched"), "progress on stderr: {err}");
    let csv = std::fs::read_to_string(&csv_path).expect("csv written");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "date,latitude,longitude,altitude,speed,heading");
    assert_eq!(lines.len() - 1, total, "one CSV row per row of the service");

    // JSON of a daily kind with units and estimated flags, on stdout.
    let args = [
        &[
            "--equipment",
            &first,
            "--kind",
            "dailyFuel",
            "--format",
            "json",
        ][..],
        &window[..],
    ]
    .concat();
    let out = export_async(&sb.base, token, &cache, &args).await;
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    let rows: Vec<Value> = serde_json::from_str(&stdout).expect("JSON array");
    assert_eq!(rows.len(), 9, "one row per day");
    assert!(
        rows.iter()
            .all(|r| r["unit"] == "L" && r["estimated"].is_boolean())
    );

    let args = [
        &["--equipment", &first, "--kind", "dailyFuel"][..],
        &window[..],
    ]
    .concat();
    let (stdout, _) = text(&export_async(&sb.base, token, &cache, &args).await);
    assert_eq!(stdout.lines().next(), Some("date,fuelUsed (L),estimated"));

    // The service goes away: the cached window is still exported, same bytes.
    sb.running.shutdown().await;
    let offline_path = dir.path().join("offline.csv");
    let offline_arg = offline_path.to_str().expect("utf-8 path");
    let args = [
        &[
            "--equipment",
            &id,
            "--kind",
            "positions",
            "--offline",
            "--output",
            offline_arg,
        ][..],
        &window[..],
    ]
    .concat();
    let out = export_async(&sb.base, None, &cache, &args).await;
    let (_, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("0 requests"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&offline_path).expect("written"),
        csv
    );

    // What was never fetched cannot be exported offline: a clear error, no file.
    let missing_path = dir.path().join("missing.csv");
    let missing_arg = missing_path.to_str().expect("utf-8 path");
    let args = [
        "--equipment",
        &first,
        "--kind",
        "temperature",
        "--offline",
        "--output",
        missing_arg,
    ];
    let out = export_async(&sb.base, None, &cache, &args).await;
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
    let id = FIRST_ID.to_string();
    let window = ["--since", since.as_str(), "--until", until.as_str()];
    let token = Some(sb.token.as_str());

    let args = [
        &["--equipment", &id, "--kind", "history", "--format", "json"][..],
        &window[..],
    ]
    .concat();
    let out = export_async(&sb.base, token, &cache, &args).await;
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    let history: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(history["id"].as_i64(), Some(FIRST_ID));
    assert_eq!(
        history["dailyUsages"]["rows"].as_array().map(Vec::len),
        Some(4)
    );

    // The second time, the same window comes from the cache, as a CSV table
    // of the daily usage rows in the service's field order, each column
    // named as people read it, with its unit.
    let args = [&["--equipment", &id, "--kind", "history"][..], &window[..]].concat();
    let out = export_async(&sb.base, token, &cache, &args).await;
    let (stdout, err) = text(&out);
    assert!(err.contains("served from the cache"), "{err}");
    assert!(
        stdout
            .starts_with("date,Operating hours (h),Idle hours (h),Working hours (h),Fuel used (L)"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().count(), 5);

    let args = [&["--equipment", &id, "--kind", "faults"][..], &window[..]].concat();
    let out = export_async(&sb.base, token, &cache, &args).await;
    assert!(out.status.success(), "{}", text(&out).1);

    let cases: [(&[&str], Option<&str>, &str); 5] = [
        (
            &["--equipment", &id, "--kind", "nonsense"],
            token,
            "unknown kind 'nonsense'",
        ),
        (
            &[
                "--equipment",
                &id,
                "--kind",
                "positions",
                "--since",
                "yesterday",
            ],
            token,
            "--since/--until",
        ),
        (
            &["--equipment", &id, "--kind", "positions"],
            Some("bad"),
            "not authorised",
        ),
        (
            &["--equipment", "999999", "--kind", "positions"],
            token,
            "not found",
        ),
        (
            &["--equipment", &id, "--kind", "positions"],
            None,
            "no API key or access token",
        ),
    ];
    for (args, token, expected) in cases {
        let out = export_async(&sb.base, token, &cache, args).await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_export_as_gpx_and_geojson_that_other_tools_read() {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let since = format_wire(common::now() - 3 * 86_400);
    let until = format_wire(common::now() - 86_400);
    let id = (FIRST_ID + 2).to_string();
    let window = ["--since", since.as_str(), "--until", until.as_str()];
    let token = Some(sb.token.as_str());
    let (_, body) = sb
        .get(&format!(
            "/v2/fleet/equipments/{id}/positions?since={since}&until={until}"
        ))
        .await;
    let total = body["data"]["total"].as_u64().expect("total") as usize;
    assert!(total > 100);

    // GPX: well-formed, one trkpt per position of the service.
    let args = [
        &["--equipment", &id, "--kind", "positions", "--format", "gpx"][..],
        &window[..],
    ]
    .concat();
    let out = export_async(&sb.base, token, &cache, &args).await;
    let (gpx, err) = text(&out);
    assert!(out.status.success(), "{err}");
    let mut reader = quick_xml::Reader::from_str(&gpx);
    let (mut trkpts, mut times) = (0, 0);
    loop {
        match reader.read_event().expect("well-formed GPX") {
            quick_xml::events::Event::Start(e) => {
                trkpts += usize::from(e.name().as_ref() == b"trkpt");
                times += usize::from(e.name().as_ref() == b"time");
            }
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(trkpts, total, "one trkpt per position");
    assert_eq!(times, total, "each with its time");

    // GeoJSON: a FeatureCollection of timed Points, one per position.
    let args = [
        &[
            "--equipment",
            &id,
            "--kind",
            "positions",
            "--format",
            "geojson",
        ][..],
        &window[..],
    ]
    .concat();
    let out = export_async(&sb.base, token, &cache, &args).await;
    let (geojson, err) = text(&out);
    assert!(out.status.success(), "{err}");
    let doc: Value = serde_json::from_str(&geojson).expect("GeoJSON is JSON");
    assert_eq!(doc["type"], "FeatureCollection");
    let features = doc["features"].as_array().expect("features");
    assert_eq!(features.len(), total);
    for f in features {
        assert_eq!(f["type"], "Feature");
        assert_eq!(f["geometry"]["type"], "Point");
        let c = f["geometry"]["coordinates"]
            .as_array()
            .expect("coordinates");
        let (lon, lat) = (c[0].as_f64().expect("lon"), c[1].as_f64().expect("lat"));
        assert!((-180.0..=180.0).contains(&lon) && (-90.0..=90.0).contains(&lat));
        assert!(f["properties"]["time"].as_str().is_some());
    }

    // Streamed into a device that fills mid-file: a clear error naming it.
    assert!(
        geojson.len() > 64 << 10,
        "more than the write buffer: {}",
        geojson.len()
    );
    let args = [&args[..], &["-o", "/dev/full"][..]].concat();
    let out = export_async(&sb.base, token, &cache, &args).await;
    let (_, err) = text(&out);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("/dev/full: No space left on device"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    // Other kinds: a clear refusal, before anything is fetched.
    let args = [
        &["--equipment", &id, "--kind", "faults", "--format", "gpx"][..],
        &window[..],
    ]
    .concat();
    let out = export_async(&sb.base, token, &cache, &args).await;
    let (_, err) = text(&out);
    assert!(!out.status.success());
    assert!(err.contains("GPX applies to positions only"), "{err}");
}

mod limits {
    //! D13 from the command line: a gzip bomb and an eleven-year window.
    use super::*;
    use std::convert::Infallible;
    use std::io::Read as _;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    use axum::body::{Body, Bytes};
    use axum::http::header;
    use axum::response::Response;
    use flate2::{Compress, Compression, Crc, FlushCompress};

    const MB: usize = 1024 * 1024;

    /// A gzip body of `blocks` MB of spaces: one compressed megabyte
    /// repeated (each ends in a full flush, so each is the same bytes).
    #[derive(Clone)]
    struct GzipBomb {
        head: Bytes,
        block: Bytes,
        blocks: usize,
        tail: Bytes,
    }

    impl GzipBomb {
        fn new(blocks: usize) -> Self {
            let plain = vec![b' '; MB];
            let mut deflate = Compress::new(Compression::best(), false);
            let mut step = |input: &[u8], flush: FlushCompress| {
                let mut out = Vec::with_capacity(64 * 1024);
                let start = deflate.total_in();
                deflate
                    .compress_vec(input, &mut out, flush)
                    .expect("deflate");
                assert_eq!(deflate.total_in() - start, input.len() as u64);
                out
            };
            let block = step(&plain, FlushCompress::Full);
            assert_eq!(step(&plain, FlushCompress::Full), block, "blocks repeat");
            let end = step(&[], FlushCompress::Finish);
            let mut one = Crc::new();
            one.update(&plain);
            let mut crc = Crc::new();
            for _ in 0..blocks {
                crc.combine(&one);
            }
            let mut tail = end;
            tail.extend_from_slice(&crc.sum().to_le_bytes());
            tail.extend_from_slice(&((blocks * MB) as u32).to_le_bytes());
            Self {
                head: Bytes::from_static(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]),
                block: Bytes::from(block),
                blocks,
                tail: Bytes::from(tail),
            }
        }

        fn parts(&self) -> Vec<Bytes> {
            let mut parts = vec![self.head.clone()];
            parts.extend(std::iter::repeat_n(self.block.clone(), self.blocks));
            parts.push(self.tail.clone());
            parts
        }

        fn encoded_len(&self) -> usize {
            self.parts().iter().map(Bytes::len).sum()
        }
    }

    /// Peak resident memory of a running process (kB), if it still runs.
    fn peak_kb(pid: u32) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    }

    #[test]
    fn the_bomb_is_a_valid_gzip_of_spaces() {
        let bomb = GzipBomb::new(3);
        let mut inflated = Vec::new();
        flate2::read::GzDecoder::new(&bomb.parts().concat()[..])
            .read_to_end(&mut inflated)
            .expect("valid gzip");
        assert_eq!(inflated.len(), 3 * MB);
        assert!(inflated.iter().all(|b| *b == b' '));
        assert!(GzipBomb::new(1024).encoded_len() < 4 * MB);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_gzip_bomb_ends_in_a_clear_error_with_memory_bounded() {
        let bomb = GzipBomb::new(1024);
        let app = axum::Router::new().fallback(move || {
            let parts = bomb.parts();
            async move {
                let stream = futures_util::stream::iter(parts.into_iter().map(Ok::<_, Infallible>));
                let mut resp = Response::new(Body::from_stream(stream));
                let headers = resp.headers_mut();
                headers.insert(header::CONTENT_TYPE, "application/json".parse().expect("v"));
                headers.insert(header::CONTENT_ENCODING, "gzip".parse().expect("v"));
                resp
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = dir.path().join("cache.sqlite");
        // One day inside one chunk: one request.
        let week = 7 * 86_400;
        let since = (common::now().div_euclid(week) - 1) * week;
        let (since, until) = (format_wire(since), format_wire(since + 86_399));

        let (status, stderr, peak_kb) = tokio::task::spawn_blocking(move || {
            let mut child = Command::new(env!("CARGO_BIN_EXE_fleetview"))
                .args(["export", "--base-url", &base, "--cache-file"])
                .arg(&cache)
                .args(["--equipment", "1001", "--kind", "positions"])
                .args(["--since", &since, "--until", &until])
                .env("FLEETVIEW_TOKEN", "t0k3n")
                .env("RUST_LOG", "warn")
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("fleetview export starts");
            let mut pipe = child.stderr.take().expect("stderr");
            let reader = std::thread::spawn(move || {
                let mut text = String::new();
                let _ = pipe.read_to_string(&mut text);
                text
            });
            let pid = child.id();
            let deadline = Instant::now() + Duration::from_secs(300);
            let mut peak = 0;
            let status = loop {
                if let Some(kb) = peak_kb(pid) {
                    peak = peak.max(kb);
                }
                if let Some(status) = child.try_wait().expect("wait") {
                    break status;
                }
                if Instant::now() > deadline {
                    let _ = child.kill();
                    panic!("fleetview export still runs after 5 min (peak {peak} kB)");
                }
                std::thread::sleep(Duration::from_millis(5));
            };
            (status, reader.join().expect("stderr read"), peak)
        })
        .await
        .expect("export ran");

        assert!(!status.success(), "a 1 GB answer must not pass: {stderr}");
        assert!(
            stderr.contains("the answer is larger than 256 MB"),
            "a clear error: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(peak_kb > 0, "memory was sampled");
        assert!(
            peak_kb < 512 * 1024,
            "peak memory {} MB while reading a gzip bomb",
            peak_kb / 1024
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_eleven_year_window_is_refused_before_any_request() {
        let sb = start().await;
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = dir.path().join("cache.sqlite");
        let since = format_wire(common::now() - 11 * 365 * 86_400);
        let until = format_wire(common::now());
        let id = FIRST_ID.to_string();
        let before = sb.running.request_count();
        for kind in ["positions", "faults", "history", "dailyUsages"] {
            let args = [
                "--equipment",
                &id,
                "--kind",
                kind,
                "--since",
                &since,
                "--until",
                &until,
            ];
            let out = export_async(&sb.base, Some(&sb.token), &cache, &args).await;
            let (_, err) = text(&out);
            assert!(!out.status.success(), "{kind}");
            assert!(
                err.contains("days long; fleetview reads at most 10 years at a time"),
                "{kind}: {err}"
            );
        }
        assert_eq!(sb.running.request_count(), before, "nothing was sent");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_history_export_over_two_years_is_fetched_in_chunks() {
        use fleetview_api::fleet::{HISTORY_CHUNK_SECS, split_window};
        use fleetview_api::time::TimeWindow;
        let sb = start().await;
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = dir.path().join("cache.sqlite");
        let today = common::now().div_euclid(86_400) * 86_400;
        let w = TimeWindow {
            since: today - 730 * 86_400,
            until: today - 1,
        };
        let (since, until) = (format_wire(w.since), format_wire(w.until));
        let id = FIRST_ID.to_string();
        let args = [
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
        ];
        let before = sb.running.request_count();
        let out = export_async(&sb.base, Some(&sb.token), &cache, &args).await;
        let (stdout, err) = text(&out);
        assert!(out.status.success(), "{err}");
        assert_eq!(
            (sb.running.request_count() - before) as usize,
            1 + split_window(w, HISTORY_CHUNK_SECS).len(),
            "the token checked, then one request per chunk"
        );
        let history: Value = serde_json::from_str(&stdout).expect("json");
        assert_eq!(history["id"].as_i64(), Some(FIRST_ID));
        let days = history["dailyUsages"]["rows"].as_array().expect("rows");
        assert_eq!(days.len(), 730, "one row per day, none twice");
        assert_eq!(history["dailyUsages"]["total"].as_u64(), Some(730));
    }
}
