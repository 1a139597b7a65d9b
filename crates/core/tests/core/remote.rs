//! A machine's page from a service far away (every answer late): its reads
//! go out at once, as many together as the client allows for each source,
//! and nothing is asked twice, so the page takes as few round trips as a
//! bare client would.

use fleetview_testkit as common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fleetview_api::time::{SECS_PER_DAY, TimeWindow, parse_wire};
use fleetview_api::{ClientConfig, DataKind};
use fleetview_core::analysis::{Expected, WorkingHours};
use fleetview_core::cache::{Cache, DEFAULT_CAP_BYTES};
use fleetview_core::worker::{
    Command, Event, FiguresEvent, MachineEvent, ReportRequest, Worker, WorkerConfig,
};
use fleetview_sandbox::chaos::ChaosConfig;

/// Long enough that requests sent together are surely in flight together
/// on a busy machine, short enough for a quick test.
const LATENCY_MS: u64 = 200;

/// Each source's chunks at most this many at once (the client's default).
const PER_SOURCE: usize = 4;

/// The page's commands as the app sends them at a click: its reads, the
/// figures' reads ahead, its figures.
fn page(equipment: i64, window: TimeWindow) -> Vec<Command> {
    let mut out = vec![
        Command::FetchHistory {
            equipment,
            window,
            keep_body: false,
            offline: false,
        },
        Command::FetchFaults { equipment, window },
        Command::FetchActivities { equipment, window },
        Command::FetchTrack { equipment, window },
    ];
    out.extend(
        [DataKind::FuelRemaining, DataKind::EngineCondition].map(|kind| Command::FetchPlot {
            equipment,
            kind,
            window,
        }),
    );
    out.push(Command::ReadAhead { equipment, window });
    out.push(Command::PageReport {
        request: ReportRequest {
            equipment,
            window,
            expected: Expected::default(),
            now: window.until,
            working_hours: WorkingHours::default(),
            tank_l: None,
        },
    });
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_far_pages_reads_go_out_together_and_none_twice() {
    let chaos = ChaosConfig::parse(&format!("latency_ms={LATENCY_MS},latency=1")).expect("spec");
    let sb = common::start_with(common::fixed_config().chaos(chaos).record_requests(true)).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (cache, _) =
        Cache::open(&dir.path().join("cache.sqlite"), DEFAULT_CAP_BYTES).expect("cache");
    let worker = Worker::spawn(
        WorkerConfig {
            client: Some(ClientConfig::new(sb.base.clone()).token(sb.token.clone())),
            cache: Some(Arc::new(cache)),
            offline: false,
            save_dialog: None,
        },
        Arc::new(|_| {}),
    )
    .expect("worker");
    // A month up to now: its last part is never settled, so never cached.
    let window = TimeWindow {
        since: common::now() - 30 * SECS_PER_DAY,
        until: common::now(),
    };
    let equipment = fleetview_sandbox::simulate::FIRST_ID;
    sb.running.take_recorded();
    sb.running.take_peak_in_flight();
    let running = &sb.running;
    tokio::task::spawn_blocking(move || {
        let mut figures = 0;
        for command in page(equipment, window) {
            figures = worker.send(command);
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        while worker.in_flight() > 0 {
            assert!(Instant::now() < deadline, "the page still loads");
            std::thread::sleep(Duration::from_millis(10));
        }
        let events = worker.drain();
        for e in &events {
            if let Event::Failed { error, .. } = e {
                panic!("failed: {error}");
            }
        }
        assert!(
            events.iter().any(|e| e.request() == figures
                && matches!(e, Event::Figures(FiguresEvent::Report { .. }))),
            "the figures came"
        );
    })
    .await
    .expect("join");

    let asked: Vec<String> = running
        .take_recorded()
        .into_iter()
        .filter_map(|r| r.strip_prefix("GET ").map(str::to_owned))
        .collect();
    let mut by_path: BTreeMap<&str, Vec<&String>> = BTreeMap::new();
    for target in &asked {
        by_path
            .entry(target.split('?').next().unwrap_or_default())
            .or_default()
            .push(target);
    }
    // A part of the window asked again (the figures reading what the page
    // read ahead for them) is another round trip.
    let again: Vec<(&String, &String)> = by_path
        .values()
        .flat_map(|targets| {
            targets.iter().enumerate().flat_map(move |(i, a)| {
                targets[..i]
                    .iter()
                    .filter(move |b| overlap(window_of(a), window_of(b)))
                    .map(move |b| (*b, *a))
            })
        })
        .collect();
    assert!(again.is_empty(), "asked again: {again:?}");
    for kind in [
        "dailyIdleFuel",
        "cumulativeOperatingHours",
        "history",
        "positions",
    ] {
        assert!(
            by_path.keys().any(|p| p.ends_with(kind)),
            "{kind} was read: {asked:?}"
        );
    }
    // Every source's first chunks were out at once: as many at once as a
    // client sending them all together could have.
    let together: usize = by_path.values().map(|t| t.len().min(PER_SOURCE)).sum();
    assert_eq!(
        running.take_peak_in_flight(),
        together,
        "requests in flight at once, of {asked:?}"
    );
}

/// The `since..=until` of a recorded request.
fn window_of(target: &str) -> (i64, i64) {
    let query = target.split_once('?').map_or("", |(_, q)| q);
    let at = |key: &str| {
        let value = query
            .split('&')
            .find_map(|kv| kv.strip_prefix(key))
            .unwrap_or_else(|| panic!("{key} in {target}"));
        parse_wire(&value.replace("%3A", ":")).expect("a wire date")
    };
    (at("since="), at("until="))
}

fn overlap(a: (i64, i64), b: (i64, i64)) -> bool {
    a.0 <= b.1 && b.0 <= a.1
}

/// A service answering each chunk of `chunks` with its index as its one
/// row, the first only once every chunk has been asked for: a client that
/// sends the next chunk only once the earliest is in never gets it.
async fn first_chunk_held(chunks: Vec<TimeWindow>) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let asked = Arc::new(tokio::sync::Semaphore::new(0));
    let sinces: Arc<Vec<String>> = Arc::new(
        chunks
            .iter()
            .map(|c| fleetview_api::time::format_wire(c.since).replace(':', "%3A"))
            .collect(),
    );
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let (asked, sinces) = (asked.clone(), sinces.clone());
            tokio::spawn(async move {
                let mut head = vec![0u8; 8192];
                let n = sock.read(&mut head).await.unwrap_or(0);
                let head = String::from_utf8_lossy(&head[..n]).into_owned();
                let Some(i) = sinces
                    .iter()
                    .position(|s| head.contains(&format!("since={s}")))
                else {
                    return;
                };
                asked.add_permits(1);
                if i == 0 {
                    let all = u32::try_from(sinces.len()).expect("a few");
                    drop(asked.acquire_many(all).await);
                }
                let body = format!(r#"{{"data":{{"rows":[{{"chunk":{i}}}],"total":1}}}}"#);
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = sock.write_all(answer.as_bytes()).await;
                let _ = sock.shutdown().await;
            });
        }
    });
    base
}

/// The chunk indexes of joined rows, in order.
fn chunk_order(rows: &[u8]) -> Vec<u64> {
    let body: serde_json::Value = serde_json::from_slice(rows).expect("JSON");
    let rows = body.pointer("/data/rows").unwrap_or(&body);
    rows.as_array()
        .expect("rows")
        .iter()
        .map(|r| r["chunk"].as_u64().expect("a chunk index"))
        .collect()
}

/// A slow answer holds no other request back: the next chunk of a source
/// goes out as soon as any is in, not once the earliest is; the rows still
/// come in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_chunk_holds_back_no_other() {
    use fleetview_api::fleet::{HISTORY_CHUNK_SECS, split_window};
    use fleetview_api::{ApiClient, SeriesSource};
    let limit = Duration::from_secs(20);
    let until = common::now() - 30 * SECS_PER_DAY;

    // The history's quarters, joined in one answer.
    let year = TimeWindow {
        since: until - 364 * SECS_PER_DAY,
        until,
    };
    let quarters = split_window(year, HISTORY_CHUNK_SECS);
    assert!(quarters.len() > PER_SOURCE, "more chunks than at once");
    let base = first_chunk_held(quarters.clone()).await;
    let client = ApiClient::new(ClientConfig::new(base).token("t0k3n")).expect("client");
    let body = tokio::time::timeout(limit, client.history_body(1, year))
        .await
        .expect("the fifth quarter asked for while the first was held")
        .expect("the history");
    let in_order: Vec<u64> = (0..quarters.len() as u64).collect();
    assert_eq!(chunk_order(&body), in_order, "joined in order");

    // A series' weeks, through the worker.
    let weeks = TimeWindow {
        since: until - 34 * SECS_PER_DAY,
        until,
    };
    let source = SeriesSource::Kind(DataKind::Positions);
    let chunks = split_window(weeks, source.chunk_secs());
    assert!(chunks.len() > PER_SOURCE, "more chunks than at once");
    let base = first_chunk_held(chunks.clone()).await;
    let worker = Worker::spawn(
        WorkerConfig {
            client: Some(ClientConfig::new(base).token("t0k3n")),
            cache: None,
            offline: false,
            save_dialog: None,
        },
        Arc::new(|_| {}),
    )
    .expect("worker");
    let fetched = tokio::task::spawn_blocking(move || {
        let asked = worker.send(Command::FetchSeries {
            equipment: 1,
            source,
            window: weeks,
            offline: false,
        });
        let deadline = Instant::now() + limit;
        loop {
            assert!(
                Instant::now() < deadline,
                "the fifth week asked for while the first was held"
            );
            let Some(e) = worker.recv_timeout(Duration::from_millis(50)) else {
                continue;
            };
            match e {
                Event::Machine(MachineEvent::Series {
                    request, fetched, ..
                }) if request == asked => return fetched,
                Event::Failed { error, .. } => panic!("failed: {error}"),
                _ => {}
            }
        }
    })
    .await
    .expect("join");
    let order: Vec<u64> = fetched
        .pieces
        .iter()
        .flat_map(|(_, rows)| chunk_order(rows))
        .collect();
    let in_order: Vec<u64> = (0..chunks.len() as u64).collect();
    assert_eq!(order, in_order, "the pieces in order");
}
