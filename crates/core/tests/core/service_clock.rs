//! What is final in the cache is decided by the service's clock: against a
//! service whose clock is behind this computer's, a window reaching past
//! the service's now is not stored as settled, and once the service's
//! clock has moved on the rows it had not yet are there.

use fleetview_testkit as common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use fleetview_api::model::PositionRow;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow, now_secs};
use fleetview_api::{ClientConfig, DataKind, SeriesSource};
use fleetview_core::cache::{Cache, DEFAULT_CAP_BYTES};
use fleetview_core::worker::{Command, Event, Fetched, MachineEvent, Worker, WorkerConfig};
use fleetview_sandbox::simulate::FIRST_ID;
use fleetview_sandbox::{Clock, ManualClock};

/// Fetches positions of a window through the worker, waiting until what
/// it read is stored.
fn fetch(worker: &Worker, window: TimeWindow) -> Arc<Fetched> {
    let id = worker.send(Command::FetchSeries {
        equipment: FIRST_ID + 2,
        source: SeriesSource::Kind(DataKind::Positions),
        window,
        offline: false,
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut fetched = None;
    while fetched.is_none() || worker.in_flight() > 0 {
        assert!(Instant::now() < deadline, "no answer");
        match worker.recv_timeout(Duration::from_millis(50)) {
            Some(Event::Machine(MachineEvent::Series {
                request,
                fetched: f,
                ..
            })) if request == id => fetched = Some(f),
            Some(Event::Failed { request, error, .. }) if request == id => {
                panic!("the fetch failed: {error}")
            }
            _ => {}
        }
    }
    fetched.unwrap_or_else(|| unreachable!())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_past_the_services_now_is_asked_again_once_its_clock_moves_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (cache, _) =
        Cache::open(&dir.path().join("cache.sqlite"), DEFAULT_CAP_BYTES).expect("cache");
    let cache = Arc::new(cache);
    // The service's clock is more than a year behind this computer's.
    let service_now = common::now();
    assert!(service_now < now_secs() - 30 * SECS_PER_DAY);
    let hand = ManualClock::new(service_now);
    let sb = common::start_with(common::fixed_config().clock(Clock::Manual(hand.clone()))).await;
    let worker = Worker::spawn(
        WorkerConfig {
            client: Some(ClientConfig::new(sb.base.clone()).token(sb.token.clone())),
            cache: Some(cache),
            offline: false,
            save_dialog: None,
        },
        Arc::new(|_| {}),
    )
    .expect("worker");
    // A window reaching six hours past the service's now, long before
    // this computer's.
    let window = TimeWindow {
        since: service_now - 2 * SECS_PER_DAY,
        until: service_now + 6 * 3600,
    };
    let (first, worker) = tokio::task::spawn_blocking(move || (fetch(&worker, window), worker))
        .await
        .expect("join");
    let before: Vec<PositionRow> = first.typed().expect("typed");
    assert!(before.iter().all(|r| r.date.0 <= service_now));

    // The service's clock moves on: the hours it had not lived yet have rows.
    hand.advance(4 * 3600);
    let (again, _worker) = tokio::task::spawn_blocking(move || (fetch(&worker, window), worker))
        .await
        .expect("join");
    let after: Vec<PositionRow> = again.typed().expect("typed");
    let expected: Vec<PositionRow> = {
        let body: serde_json::Value = sb
            .get_ok(&format!(
                "/v2/fleet/equipments/{}/positions?{}",
                FIRST_ID + 2,
                common::window_query(window.since, window.until)
            ))
            .await;
        serde_json::from_value(body["data"]["rows"].clone()).expect("rows")
    };
    assert!(
        expected.iter().any(|r| r.date.0 > service_now + 3600),
        "the service has rows of the hours since"
    );
    assert!(
        again.requests > 0,
        "the part past the service's now was asked again"
    );
    assert_eq!(
        after.len(),
        expected.len(),
        "the rows the service has now, newest {:?} (before: {})",
        after.last().map(|r| r.date.0 - service_now),
        before.len()
    );
    assert_eq!(after, expected);
}

/// Each chunk carries the service's clock as its own answer told it: a
/// chunk answered early is not dated by an answer that came after it (which
/// has moved the client's clock on by the time the chunk leaves the
/// ordered stream).
#[tokio::test]
async fn each_chunk_is_dated_by_its_own_answer() {
    use fleetview_api::ApiClient;
    use fleetview_api::service_time::format_http_date;
    use futures_util::StreamExt;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let first_since = now_secs() - 14 * SECS_PER_DAY;
    let (early, late) = (first_since, first_since + 3600);
    // The second chunk is answered at once, dated `early`; the first only
    // after it, dated `late`.
    let second_answered = Arc::new(tokio::sync::Notify::new());
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let second_answered = second_answered.clone();
            tokio::spawn(async move {
                let mut head = vec![0u8; 8192];
                let n = sock.read(&mut head).await.unwrap_or(0);
                let head = String::from_utf8_lossy(&head[..n]).into_owned();
                let since = fleetview_api::time::format_wire(first_since);
                let first = [since.clone(), since.replace(':', "%3A")]
                    .iter()
                    .any(|s| head.contains(&format!("since={s}")));
                let date = if first {
                    second_answered.notified().await;
                    late
                } else {
                    early
                };
                let body = r#"{"data":{"rows":[{"date":"2020-01-01T00:00:00Z"}],"total":1}}"#;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ndate: {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    format_http_date(date),
                    body.len()
                );
                let _ = sock.write_all(answer.as_bytes()).await;
                let _ = sock.shutdown().await;
                if !first {
                    second_answered.notify_one();
                }
            });
        }
    });
    let client = ApiClient::new(ClientConfig::new(base).token("t0k3n")).expect("client");
    let chunks = vec![
        TimeWindow {
            since: first_since,
            until: first_since + 7 * SECS_PER_DAY,
        },
        TimeWindow {
            since: first_since + 7 * SECS_PER_DAY,
            until: first_since + 14 * SECS_PER_DAY,
        },
    ];
    let source = SeriesSource::Kind(DataKind::Positions);
    // Yielded as answered: put back in the chunks' order.
    let mut answered: Vec<(i64, Option<i64>)> = client
        .chunk_rows(FIRST_ID, source, chunks)
        .map(|(w, rows)| (w.since, rows.expect("rows").service_now))
        .collect()
        .await;
    answered.sort_by_key(|(since, _)| *since);
    let dated: Vec<Option<i64>> = answered.into_iter().map(|(_, d)| d).collect();
    assert_eq!(dated, [Some(late), Some(early)], "each by its own answer");
    assert_eq!(
        client.service_now(),
        Some(late),
        "the client's clock moved on"
    );
}
