//! The cache on real SQLite files gone wrong: rows garbled in a sound file
//! are dropped and read again from the service.

use fleetview_testkit as common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fleetview_api::ClientConfig;
use fleetview_api::DataKind;
use fleetview_api::model::FaultRow;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_core::cache::{Cache, DEFAULT_CAP_BYTES};
use fleetview_core::worker::{Command, Event, MachineEvent, TimelineEvent, Worker, WorkerConfig};
use fleetview_sandbox::simulate::FIRST_ID;

/// The answer to a command (progress aside), its rows stored once it ends.
fn answer(worker: &Worker, command: Command) -> Event {
    let id = worker.send(command);
    let deadline = Instant::now() + Duration::from_secs(60);
    let answer = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match worker.recv_timeout(left) {
            Some(Event::Progress { .. }) => {}
            Some(e) if e.request() == id => break e,
            Some(_) => {}
            None => panic!("no answer to request {id}"),
        }
    };
    while worker.in_flight() > 0 {
        assert!(Instant::now() < deadline, "still storing");
        std::thread::sleep(Duration::from_millis(5));
    }
    if let Event::Failed { error, .. } = &answer {
        panic!("request {id} failed: {error}");
    }
    answer
}

/// What a machine's page shows of a window: its faults, a plot's times,
/// its track's times and its history.
#[derive(Debug, PartialEq)]
struct Page {
    faults: Vec<FaultRow>,
    plot: Vec<i64>,
    track: Vec<i64>,
    history: fleetview_api::model::EquipmentHistory,
}

fn read_page(worker: &Worker, equipment: i64, window: TimeWindow) -> Page {
    let faults = match answer(worker, Command::FetchFaults { equipment, window }) {
        Event::Machine(MachineEvent::Faults { rows, .. }) => rows,
        other => panic!("not faults: {other:?}"),
    };
    let kind = DataKind::Temperature;
    let plot = match answer(
        worker,
        Command::FetchPlot {
            equipment,
            kind,
            window,
        },
    ) {
        Event::Timeline(TimelineEvent::Plot { series, .. }) => series.series.times.clone(),
        other => panic!("not a plot: {other:?}"),
    };
    let track = match answer(worker, Command::FetchTrack { equipment, window }) {
        Event::Timeline(TimelineEvent::Track { track, .. }) => {
            track.samples.iter().map(|s| s.time).collect()
        }
        other => panic!("not a track: {other:?}"),
    };
    let history = Command::FetchHistory {
        equipment,
        window,
        keep_body: false,
        offline: false,
    };
    let history = match answer(worker, history) {
        Event::Machine(MachineEvent::History { history, .. }) => (*history).clone(),
        other => panic!("not a history: {other:?}"),
    };
    Page {
        faults,
        plot,
        track,
        history,
    }
}

/// Garbles every stored window's rows, the file's structure intact (as a
/// bad sector or another program would).
fn garble(path: &Path) -> usize {
    let conn = rusqlite::Connection::open(path).expect("open the file");
    conn.execute("UPDATE windows SET rows = CAST('xx{' AS BLOB)", [])
        .expect("garble")
}

fn garbled_left(path: &Path) -> i64 {
    let conn = rusqlite::Connection::open(path).expect("open the file");
    conn.query_row(
        "SELECT COUNT(*) FROM windows WHERE rows = CAST('xx{' AS BLOB)",
        [],
        |r| r.get(0),
    )
    .expect("count")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbled_cached_rows_are_dropped_and_read_again_from_the_service() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("cache.sqlite");
    let (cache, _) = Cache::open(&path, DEFAULT_CAP_BYTES).expect("cache");
    let cache = Arc::new(cache);
    let sb = common::start().await;
    let config = WorkerConfig {
        client: Some(ClientConfig::new(sb.base.clone()).token(sb.token.clone())),
        cache: Some(cache.clone()),
        offline: false,
        save_dialog: None,
    };
    let worker = Worker::spawn(config, Arc::new(|| {})).expect("worker");
    let equipment = FIRST_ID + 2;
    // Settled by the sandbox's clock: every window is cached.
    let window = TimeWindow {
        since: common::now() - 20 * SECS_PER_DAY,
        until: common::now() - 2 * SECS_PER_DAY,
    };
    let running = &sb.running;
    let (first, second, third, notices, requests) = tokio::task::block_in_place(|| {
        let first = read_page(&worker, equipment, window);
        assert!(!first.faults.is_empty() && !first.track.is_empty() && !first.plot.is_empty());
        assert!(
            garble(&path) >= 4,
            "faults, the plot, the track, the history"
        );
        let _ = worker.cache_notices();
        let before = running.request_count();
        let second = read_page(&worker, equipment, window);
        let requests = running.request_count() - before;
        let notices = worker.cache_notices();
        // Stored again: a third read asks nothing of the service.
        let before = running.request_count();
        let third = read_page(&worker, equipment, window);
        assert_eq!(running.request_count(), before, "read from the cache");
        (first, second, third, notices, requests)
    });
    assert_eq!(second, first, "the same rows, read again");
    assert_eq!(third, first);
    assert!(requests >= 4, "read again from the service: {requests}");
    assert_eq!(garbled_left(&path), 0, "the garbled windows are gone");
    let said: Vec<String> = notices.iter().map(ToString::to_string).collect();
    assert!(
        !said.is_empty() && said.iter().all(|n| n.contains("local cache")),
        "{said:?}"
    );
}
