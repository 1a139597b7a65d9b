//! The cache on real SQLite files gone wrong: rows garbled in a sound file
//! are dropped and read again from the service.

use fleetview_testkit as common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fleetview_api::model::FaultRow;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_api::{ClientConfig, DataKind, RetryPolicy};
use fleetview_core::analysis::{Expected, Report, WorkingHours};
use fleetview_core::cache::{Cache, DEFAULT_CAP_BYTES};
use fleetview_core::worker::{
    Command, Event, FiguresEvent, FiguresPart, MachineEvent, OverviewEvent, ReportData,
    ReportRequest, TimelineEvent, Unread, Worker, WorkerConfig,
};
use fleetview_sandbox::chaos::ChaosConfig;
use fleetview_sandbox::simulate::FIRST_ID;

/// A worker on the sandbox with `cache`; not `online`, it reads the cache
/// alone.
fn worker_on(sb: &common::Sandbox, cache: Option<&Arc<Cache>>, online: bool) -> Worker {
    let config = WorkerConfig {
        client: Some(ClientConfig::new(sb.base.clone()).token(sb.token.clone())),
        cache: cache.cloned(),
        offline: !online,
        save_dialog: None,
    };
    Worker::spawn(config, Arc::new(|_| {})).expect("worker")
}

/// A cache in a real file in `dir`.
fn file_cache(dir: &tempfile::TempDir) -> (std::path::PathBuf, Arc<Cache>) {
    let path = dir.path().join("cache.sqlite");
    let (cache, _) = Cache::open(&path, DEFAULT_CAP_BYTES).expect("cache");
    (path, Arc::new(cache))
}

/// A sandbox, a cache in a real file, and a worker online on both. (The
/// fields drop in order: the worker first, the files last.)
struct Healing {
    worker: Worker,
    sb: common::Sandbox,
    cache: Arc<Cache>,
    path: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

async fn healing() -> Healing {
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, cache) = file_cache(&dir);
    let sb = common::start().await;
    let worker = worker_on(&sb, Some(&cache), true);
    Healing {
        _dir: dir,
        path,
        cache,
        sb,
        worker,
    }
}

/// A window settled by the sandbox's clock: everything read is cached.
fn settled_window() -> TimeWindow {
    TimeWindow {
        since: common::now() - 20 * SECS_PER_DAY,
        until: common::now() - 2 * SECS_PER_DAY,
    }
}

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
    garble_where(path, "TRUE")
}

/// Garbles the rows of the stored windows `filter` (an SQL condition)
/// picks: how many.
fn garble_where(path: &Path, filter: &str) -> usize {
    let conn = rusqlite::Connection::open(path).expect("open the file");
    conn.execute(
        &format!("UPDATE windows SET rows = CAST('xx{{' AS BLOB) WHERE {filter}"),
        [],
    )
    .expect("garble")
}

/// The settled history's pieces kept as columns.
const COLUMNS: &str = "kind LIKE 'history/columns%'";

/// How many stored windows `filter` (an SQL condition) picks.
fn count_where(path: &Path, filter: &str) -> usize {
    let conn = rusqlite::Connection::open(path).expect("open the file");
    conn.query_row(
        &format!("SELECT COUNT(*) FROM windows WHERE {filter}"),
        [],
        |r| r.get::<_, i64>(0),
    )
    .expect("count") as usize
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

/// Garbles the window stored last (the highest id) alone: its id and kind.
fn garble_last(path: &Path) -> (i64, String) {
    let conn = rusqlite::Connection::open(path).expect("open the file");
    let (id, kind): (i64, String) = conn
        .query_row(
            "SELECT id, kind FROM windows ORDER BY id DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("a window");
    garble_where(path, &format!("id = {id}"));
    (id, kind)
}

fn has_id(path: &Path, id: i64) -> bool {
    let conn = rusqlite::Connection::open(path).expect("open the file");
    conn.query_row("SELECT COUNT(*) FROM windows WHERE id = ?1", [id], |r| {
        r.get::<_, i64>(0)
    })
    .expect("count")
        == 1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbled_cached_rows_are_dropped_and_read_again_from_the_service() {
    let Healing {
        path, sb, worker, ..
    } = &healing().await;
    let equipment = FIRST_ID + 2;
    let window = settled_window();
    let running = &sb.running;
    let (first, second, third, garbled, notices, requests) = tokio::task::block_in_place(|| {
        let first = read_page(worker, equipment, window);
        assert!(!first.faults.is_empty() && !first.track.is_empty() && !first.plot.is_empty());
        let garbled = garble(path);
        assert!(garbled >= 4, "faults, the plot, the track, the history");
        let _ = worker.cache_notices();
        let before = running.request_count();
        let second = read_page(worker, equipment, window);
        let requests = running.request_count() - before;
        let notices = worker.cache_notices();
        // Stored again: a third read asks nothing of the service.
        let before = running.request_count();
        let third = read_page(worker, equipment, window);
        assert_eq!(running.request_count(), before, "read from the cache");
        (first, second, third, garbled, notices, requests)
    });
    assert_eq!(second, first, "the same rows, read again");
    assert_eq!(third, first);
    assert!(requests >= 4, "read again from the service: {requests}");
    assert_eq!(garbled_left(path), 0, "the garbled windows are gone");
    let said: Vec<String> = notices.iter().map(ToString::to_string).collect();
    // One notice for them all, however many windows were dropped.
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("local cache"), "{said:?}");
    assert!(
        said[0].contains(&format!("{garbled} stored windows")),
        "{said:?}"
    );
}

/// The window stored last garbled alone: dropped, it is read again and
/// stored under the same id (SQLite gives a new row the highest id plus
/// one); that copy is then served from the cache, online and offline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_read_again_under_the_id_it_was_dropped_from_is_served_from_the_cache() {
    let Healing {
        path,
        cache,
        sb,
        worker,
        ..
    } = &healing().await;
    let offline = worker_on(sb, Some(cache), false);
    let equipment = FIRST_ID + 2;
    let window = settled_window();
    let running = &sb.running;
    tokio::task::block_in_place(|| {
        let first = read_page(worker, equipment, window);
        let (id, kind) = garble_last(path);
        let healed = read_page(worker, equipment, window);
        assert_eq!(healed, first, "the {kind} window read again");
        assert_eq!(garbled_left(path), 0);
        assert!(has_id(path, id), "stored again under id {id}");
        let before = running.request_count();
        let again = read_page(worker, equipment, window);
        assert_eq!(
            running.request_count(),
            before,
            "the {kind} window stored again is read from the cache"
        );
        assert_eq!(again, first);
        assert_eq!(read_page(&offline, equipment, window), first, "and offline");
    });
}

/// What the command line asks for the figures of a window.
fn report_request(equipment: i64, window: TimeWindow) -> ReportRequest {
    ReportRequest {
        equipment,
        window,
        expected: Expected::default(),
        now: common::now(),
        working_hours: WorkingHours::default(),
        tank_l: None,
    }
}

/// The figures of a window, as the command line reads them, and what of
/// them could not be read.
fn fetch_report(worker: &Worker, equipment: i64, window: TimeWindow) -> (Arc<Report>, Vec<Unread>) {
    let command = Command::FetchReport {
        request: report_request(equipment, window),
        offline: false,
    };
    match answer(worker, command) {
        Event::Figures(FiguresEvent::Report { report, unread, .. }) => (report, unread),
        other => panic!("not figures: {other:?}"),
    }
}

/// The page's figures computed twice: the second time, the history with
/// its positions (the page keeps it without them) is read again from the
/// cache, where it is garbled: dropped, read again from the service, and
/// the figures are the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_garbled_history_read_again_for_the_figures_is_dropped_and_read_from_the_service() {
    let Healing {
        path, sb, worker, ..
    } = &healing().await;
    let (equipment, window) = (FIRST_ID + 2, settled_window());
    let request = report_request(equipment, window);
    let running = &sb.running;
    tokio::task::block_in_place(|| {
        let page = read_page(worker, equipment, window);
        assert!(page.history.positions.rows.is_empty() && page.history.positions.total > 0);
        let activities = match answer(worker, Command::FetchActivities { equipment, window }) {
            Event::Machine(MachineEvent::Activities { rows, .. }) => rows,
            other => panic!("not activities: {other:?}"),
        };
        let track = match answer(worker, Command::FetchTrack { equipment, window }) {
            Event::Timeline(TimelineEvent::Track { track, .. }) => track,
            other => panic!("not a track: {other:?}"),
        };
        let history = Arc::new(page.history);
        let figures = || {
            let data = ReportData::new(
                history.clone(),
                Some(activities.clone()),
                Some(track.clone()),
            );
            match answer(worker, Command::ComputeReport { request, data }) {
                Event::Figures(FiguresEvent::Report { report, unread, .. }) => (report, unread),
                other => panic!("not figures: {other:?}"),
            }
        };
        let (first, unread) = figures();
        assert_eq!(unread, Vec::new());
        let garbled = garble_where(path, "kind LIKE 'history%'");
        // Stored in the pieces it was read in (the service's grid chunks),
        // each as the service's JSON and as columns.
        let pieces =
            fleetview_api::fleet::split_window(window, fleetview_api::fleet::HISTORY_CHUNK_SECS);
        assert_eq!(garbled, 2 * pieces.len(), "the settled history's pieces");
        let _ = worker.cache_notices();
        let before = running.request_count();
        let (again, unread) = figures();
        assert_eq!(unread, Vec::new(), "the positions read again");
        assert_eq!(again, first);
        assert!(
            running.request_count() > before,
            "the history, from the service"
        );
        assert_eq!(garbled_left(path), 0, "dropped");
        assert_eq!(worker.cache_notices().len(), 1);
    });
}

/// A settled history read for the figures is kept as columns too, and
/// read so the next time; a garbled copy is dropped, the piece read from
/// its JSON in the cache (no request) and kept as columns again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_garbled_history_kept_as_columns_is_read_from_its_json_and_kept_again() {
    let Healing {
        path, sb, worker, ..
    } = &healing().await;
    let (equipment, window) = (FIRST_ID + 1, settled_window());
    let figures = || {
        let command = Command::FetchFigures {
            equipment,
            window,
            offline: false,
            look_back_now: None,
        };
        match answer(worker, command) {
            Event::Overview(OverviewEvent::Figures { figures, .. }) => figures,
            other => panic!("not figures: {other:?}"),
        }
    };
    tokio::task::block_in_place(|| {
        // The service's clock known, as after the app's first list.
        answer(worker, Command::FetchSnapshots);
        let cold = figures();
        let pieces =
            fleetview_api::fleet::split_window(window, fleetview_api::fleet::HISTORY_CHUNK_SECS)
                .len();
        assert!(pieces >= 1);
        assert_eq!(count_where(path, COLUMNS), pieces, "each piece as columns");
        let before = sb.running.request_count();
        assert_eq!(figures(), cold, "the same figures from the columns");
        assert_eq!(sb.running.request_count(), before, "all from the cache");

        assert_eq!(garble_where(path, COLUMNS), pieces);
        let _ = worker.cache_notices();
        assert_eq!(figures(), cold, "the same figures from the JSON");
        assert_eq!(sb.running.request_count(), before, "still from the cache");
        assert_eq!(garbled_left(path), 0, "dropped");
        assert_eq!(count_where(path, COLUMNS), pieces, "kept as columns again");
        assert_eq!(worker.cache_notices().len(), 1, "told once");
    });
}

/// The figures' own cached reads (idle fuel, operating hours) garbled:
/// dropped, read again from the service, and the figures are whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbled_idle_fuel_and_operating_hours_are_read_again_for_the_figures() {
    let Healing {
        path, sb, worker, ..
    } = &healing().await;
    let equipment = FIRST_ID + 2;
    let window = settled_window();
    let running = &sb.running;
    tokio::task::block_in_place(|| {
        let (first, unread) = fetch_report(worker, equipment, window);
        assert_eq!(unread, Vec::new());
        let garbled = garble_where(
            path,
            "kind IN ('dailyIdleFuel', 'cumulativeOperatingHours')",
        );
        assert!(garbled >= 2, "both kinds were cached: {garbled}");
        let before = running.request_count();
        let (again, unread) = fetch_report(worker, equipment, window);
        assert_eq!(unread, Vec::new(), "read again, nothing unread");
        assert_eq!(again, first, "the same figures");
        assert!(running.request_count() > before, "from the service");
        assert_eq!(garbled_left(path), 0);
        let notices = worker.cache_notices();
        assert_eq!(notices.len(), 1, "{notices:?}");
        // Stored again: the next figures ask nothing of the service.
        let before = running.request_count();
        let (third, unread) = fetch_report(worker, equipment, window);
        assert_eq!((third, unread), (first, Vec::new()));
        assert_eq!(running.request_count(), before);
    });
}

/// The daily idle fuel's reads time out (the service out of reach for
/// them alone, nothing cached): the figures say it was not read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_fuel_out_of_reach_is_said_with_the_figures() {
    let chaos = ChaosConfig::parse("latency_ms=5000,latency=1,path=dailyIdleFuel").expect("spec");
    let sb = common::start_with(common::fixed_config().chaos(chaos)).await;
    let mut client = ClientConfig::new(sb.base.clone()).token(sb.token.clone());
    client.read_timeout = Duration::from_millis(300);
    client.retry = RetryPolicy {
        max_retries: 0,
        ..RetryPolicy::default()
    };
    let config = WorkerConfig {
        client: Some(client),
        cache: None,
        offline: false,
        save_dialog: None,
    };
    let worker = Worker::spawn(config, Arc::new(|_| {})).expect("worker");
    let (_, unread) =
        tokio::task::block_in_place(|| fetch_report(&worker, FIRST_ID + 2, settled_window()));
    assert_eq!(unread.len(), 1, "{unread:?}");
    assert_eq!(unread[0].part, FiguresPart::IdleFuel);
    assert!(unread[0].error.is_unreachable(), "{:?}", unread[0].error);
}
