//! A window's `/history` kept in pieces (the service's grid chunks, the
//! one holding today cut at its start): a window ending now reads its
//! settled pieces from the cache and asks the service only for today's,
//! the answer joined is the service's own, and offline the pieces as last
//! seen are served.

use std::sync::Arc;
use std::time::{Duration, Instant};

use fleetview_api::fleet::{HISTORY_CHUNK_SECS, split_window};
use fleetview_api::model::EquipmentHistory;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_api::{ApiClient, ClientConfig};
use fleetview_core::cache::{Cache, DEFAULT_CAP_BYTES};
use fleetview_core::worker::{Command, Event, MachineEvent, Worker, WorkerConfig};
use fleetview_sandbox::simulate::FIRST_ID;
use fleetview_testkit as common;

/// The history the worker sends for `window`, and the requests it says
/// it made, once its answer is stored.
fn history_of(worker: &Worker, window: TimeWindow) -> (Arc<EquipmentHistory>, usize) {
    let (history, requests, _) = history_offline(worker, window, false);
    (history, requests)
}

/// As [`history_of`], `offline` or not, with when it was fetched if it was
/// served offline.
fn history_offline(
    worker: &Worker,
    window: TimeWindow,
    offline: bool,
) -> (Arc<EquipmentHistory>, usize, Option<i64>) {
    let id = worker.send(Command::FetchHistory {
        equipment: FIRST_ID,
        window,
        keep_body: false,
        offline,
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut found = None;
    while found.is_none() {
        assert!(Instant::now() < deadline, "no history came");
        match worker.recv_timeout(Duration::from_millis(50)) {
            Some(Event::Machine(MachineEvent::History {
                request,
                history,
                requests,
                offline,
                ..
            })) if request == id => found = Some((history, requests, offline)),
            Some(Event::Failed { request, error, .. }) if request == id => {
                panic!("the history failed: {error}")
            }
            _ => {}
        }
    }
    // Stored after it is handed on: stored when nothing is in flight.
    while worker.in_flight() > 0 {
        assert!(Instant::now() < deadline, "still storing");
        std::thread::yield_now();
    }
    found.expect("found")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_up_to_now_reads_its_settled_history_pieces_from_the_cache() {
    let sb = common::start_with(common::fixed_config().fleet_size(3)).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (cache, _) =
        Cache::open(&dir.path().join("cache.sqlite"), DEFAULT_CAP_BYTES).expect("cache");
    let now = common::now();
    // Ten days before the grid line before now, up to now: two chunks, the
    // first settled, the second not (until today's start).
    let line = now.div_euclid(HISTORY_CHUNK_SECS) * HISTORY_CHUNK_SECS;
    let window = TimeWindow {
        since: line - 10 * SECS_PER_DAY,
        until: now,
    };
    assert_eq!(split_window(window, HISTORY_CHUNK_SECS).len(), 2);
    let cache = Arc::new(cache);
    let worker_on = |offline| {
        let config = WorkerConfig {
            client: Some(ClientConfig::new(sb.base.clone()).token(sb.token.clone())),
            cache: Some(cache.clone()),
            offline,
            save_dialog: None,
        };
        Worker::spawn(config, Arc::new(|_| {})).expect("worker")
    };
    let worker = worker_on(false);

    let before = sb.running.request_count();
    let (first, worker) =
        tokio::task::spawn_blocking(move || (history_of(&worker, window), worker))
            .await
            .expect("join");
    assert!(first.1 >= 2, "one request a piece: {}", first.1);
    assert_eq!(sb.running.request_count() - before, first.1 as u64);

    // The first read may have been cut before the service's time was
    // known; once it is, every piece but today's settles and is kept.
    let (_, worker) = tokio::task::spawn_blocking(move || (history_of(&worker, window), worker))
        .await
        .expect("join");
    let before = sb.running.request_count();
    let (second, _worker) =
        tokio::task::spawn_blocking(move || (history_of(&worker, window), worker))
            .await
            .expect("join");
    assert_eq!(
        (second.1, sb.running.request_count() - before),
        (1, 1),
        "the settled pieces are read from the cache, today's asked again"
    );
    assert_eq!(
        second.0.daily_usages.rows.len(),
        first.0.daily_usages.rows.len()
    );

    // What the service itself answers over the whole window.
    let client = ApiClient::new(ClientConfig::new(sb.base.clone()).token(sb.token.clone()))
        .expect("a client");
    let service = client.history(FIRST_ID, window).await.expect("the history");
    let days = |h: &EquipmentHistory| -> Vec<String> {
        h.daily_usages
            .rows
            .iter()
            .map(|r| serde_json::to_string(r).expect("a row"))
            .collect()
    };
    assert_eq!(days(&second.0), days(&service));
    assert!(days(&service).len() > 10, "the window has its days");
    // Every table, its pieces decoded apart and joined: the service's
    // (the page's copy holds no position rows, their total kept).
    let mut whole = service.clone();
    whole.positions.rows.clear();
    assert_eq!(
        *second.0, whole,
        "the pieces joined as the service joins them"
    );
    assert!(!whole.fuel_remainings.rows.is_empty() && whole.positions.total > 0);

    // Offline: the settled chunk and the other as last seen.
    let offline = worker_on(true);
    let before = sb.running.request_count();
    let (kept, requests, since) =
        tokio::task::spawn_blocking(move || history_offline(&offline, window, true))
            .await
            .expect("join");
    assert_eq!((requests, sb.running.request_count() - before), (0, 0));
    assert!(since.is_some(), "marked as read offline");
    assert_eq!(days(&kept), days(&service));
}
