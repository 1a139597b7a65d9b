//! The background worker with a real sandbox and a real SQLite cache file.
//! Over 700 lines: one file per worker, each test a whole flow through it
//! (commands in, events out), sharing the set-up helpers at the top.

use fleetview_testkit as common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::{Sandbox, start, start_with};
use fleetview_api::model::{CreateIntegration, Credentials, FaultRow, PositionRow, SecretValue};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_api::{ApiError, AuthMethod, ClientConfig, DataKind, SeriesSource};
use fleetview_core::cache::{Cache, DEFAULT_CAP_BYTES};
use fleetview_core::worker::{
    CatalogChange, CatalogEvent, Command, ConnectionEvent, Event, Fetched, FiguresEvent,
    FleetEvent, MachineEvent, OverviewEvent, Target, TimelineEvent, Worker, WorkerConfig,
};
use fleetview_sandbox::chaos::ChaosConfig;
use fleetview_sandbox::simulate::FIRST_ID;

struct Setup {
    worker: Worker,
    wakes: Arc<AtomicUsize>,
}

fn worker_for(sb: &Sandbox, cache: Option<Arc<Cache>>) -> Setup {
    let wakes = Arc::new(AtomicUsize::new(0));
    let w = wakes.clone();
    let config = WorkerConfig {
        client: Some(ClientConfig::new(sb.base.clone()).token(sb.token.clone())),
        cache,
        offline: false,
        save_dialog: None,
    };
    let worker = Worker::spawn(
        config,
        Arc::new(move |_| {
            w.fetch_add(1, Ordering::Relaxed);
        }),
    )
    .expect("worker");
    Setup { worker, wakes }
}

/// A worker on a service (the sandbox, or where it was) with a cache.
fn worker_with_cache(base: String, token: String, cache: Arc<Cache>) -> Worker {
    let config = WorkerConfig {
        client: Some(ClientConfig::new(base).token(token)),
        cache: Some(cache),
        offline: false,
        save_dialog: None,
    };
    Worker::spawn(config, Arc::new(|_| {})).expect("worker")
}

/// Events until `done` says so (or a timeout, which fails the test).
fn collect_until(
    worker: &Worker,
    timeout: Duration,
    mut done: impl FnMut(&Event) -> bool,
) -> Vec<Event> {
    let deadline = Instant::now() + timeout;
    let mut events = Vec::new();
    while Instant::now() < deadline {
        if let Some(e) = worker.recv_timeout(Duration::from_millis(50)) {
            let stop = done(&e);
            events.push(e);
            if stop {
                return events;
            }
        }
    }
    panic!("timed out; events so far: {events:?}");
}

fn series_of(events: &[Event], request: u64) -> Option<Arc<Fetched>> {
    events.iter().find_map(|e| match e {
        Event::Machine(MachineEvent::Series {
            request: r,
            fetched,
            ..
        }) if *r == request => Some(fetched.clone()),
        _ => None,
    })
}

/// A cache in a file of a directory of its own, removed with it.
fn temp_cache() -> (tempfile::TempDir, Arc<Cache>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (cache, _) =
        Cache::open(&dir.path().join("cache.sqlite"), DEFAULT_CAP_BYTES).expect("cache");
    (dir, Arc::new(cache))
}

/// The sandbox at the tests' fixed time, every answer `latency_ms` late.
fn slow_service(latency_ms: u64) -> fleetview_sandbox::SandboxConfig {
    let chaos = ChaosConfig::parse(&format!("latency_ms={latency_ms},latency=1")).expect("spec");
    common::fixed_config().chaos(chaos)
}

fn days(n: i64) -> TimeWindow {
    TimeWindow {
        since: common::now() - n * SECS_PER_DAY,
        until: common::now(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newer_command_cancels_the_older_and_no_stale_data_arrives() {
    let sb = start_with(slow_service(400)).await;
    let s = worker_for(&sb, None);
    let source = SeriesSource::Kind(DataKind::Temperature);
    let old = s.worker.send(Command::FetchSeries {
        equipment: FIRST_ID,
        source,
        window: days(2),
        offline: false,
    });
    let new = s.worker.send(Command::FetchSeries {
        equipment: FIRST_ID + 1,
        source,
        window: days(2),
        offline: false,
    });
    let events = tokio::task::spawn_blocking(move || {
        let ev = collect_until(&s.worker, Duration::from_secs(10), |e| {
            matches!(e, Event::Machine(MachineEvent::Series { .. }))
        });
        // Until no task runs: the old request was aborted and can say
        // nothing more; it must have stayed silent.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while s.worker.in_flight() > 0 {
            assert!(std::time::Instant::now() < deadline, "tasks still running");
            std::thread::yield_now();
        }
        let mut all = ev;
        all.extend(s.worker.drain());
        (all, s.wakes.load(Ordering::Relaxed))
    })
    .await
    .expect("join");
    let (events, wakes) = events;
    // The old request may have reported progress before the new command
    // existed; it must deliver no data, and nothing at all after the new one.
    assert!(
        !events
            .iter()
            .any(|e| e.request() == old && matches!(e, Event::Machine(MachineEvent::Series { .. }))),
        "stale data: {events:?}"
    );
    let first_new = events
        .iter()
        .position(|e| e.request() == new)
        .expect("new events");
    assert!(
        events[first_new..].iter().all(|e| e.request() != old),
        "stale events: {events:?}"
    );
    assert!(matches!(series_of(&events, new), Some(f) if f.series().is_ok_and(|s| !s.is_empty())));
    assert!(wakes >= events.len(), "every event wakes the UI");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_failing_kind_does_not_fail_the_others() {
    let sb = start().await;
    let s = worker_for(&sb, None);
    let bad = s.worker.send(Command::FetchSeries {
        equipment: 999_999,
        source: SeriesSource::Kind(DataKind::FuelRemaining),
        window: days(3),
        offline: false,
    });
    let good = s.worker.send(Command::FetchSeries {
        equipment: FIRST_ID,
        source: SeriesSource::Kind(DataKind::EngineLoadPercentage),
        window: days(3),
        offline: false,
    });
    let faults = s.worker.send(Command::FetchSeries {
        equipment: FIRST_ID,
        source: SeriesSource::Faults,
        window: days(30),
        offline: false,
    });
    let mut pending = 3;
    let events = tokio::task::spawn_blocking(move || {
        collect_until(&s.worker, Duration::from_secs(10), |e| {
            if matches!(
                e,
                Event::Machine(MachineEvent::Series { .. }) | Event::Failed { .. }
            ) {
                pending -= 1;
            }
            pending == 0
        })
    })
    .await
    .expect("join");
    assert!(events.iter().any(|e| matches!(e,
        Event::Failed { request, error: ApiError::NotFound { .. }, target: Target::Series(_) } if *request == bad)));
    let fetched = series_of(&events, good).expect("the good kind arrives");
    assert!(!fetched.series().expect("series").is_empty());
    let f = series_of(&events, faults).expect("faults arrive");
    let rows: Vec<FaultRow> = f.typed().expect("typed faults");
    assert!(rows.iter().all(|r| days(30).contains(r.date.0)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_identical_request_is_answered_from_the_cache_even_offline() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("cache.sqlite");
    let (cache, warning) = Cache::open(&path, DEFAULT_CAP_BYTES).expect("cache");
    assert!(warning.is_none());
    let cache = Arc::new(cache);
    let sb = start().await;
    let s = worker_for(&sb, Some(cache.clone()));
    let source = SeriesSource::Kind(DataKind::Positions);
    // The sandbox's clock is long past, so every chunk is settled and cached.
    let window = TimeWindow {
        since: common::now() - 20 * SECS_PER_DAY,
        until: common::now() - 2 * SECS_PER_DAY,
    };
    let fetch = move |worker: &Worker, offline: bool| {
        let id = worker.send(Command::FetchSeries {
            equipment: FIRST_ID + 2,
            source,
            window,
            offline,
        });
        let events = collect_until(worker, Duration::from_secs(10), |e| {
            e.request() == id && !matches!(e, Event::Progress { .. })
        });
        // The rows are handed on first, then stored: stored when the
        // task has ended.
        let deadline = Instant::now() + Duration::from_secs(10);
        while worker.in_flight() > 0 {
            assert!(Instant::now() < deadline, "still storing");
            std::thread::yield_now();
        }
        series_of(&events, id).unwrap_or_else(|| panic!("no series: {events:?}"))
    };

    let before = sb.running.request_count();
    let (first, worker) = tokio::task::spawn_blocking(move || (fetch(&s.worker, false), s.worker))
        .await
        .expect("join");
    let used = sb.running.request_count() - before;
    assert!(
        used >= 3,
        "a 18-day window is fetched in weekly chunks, got {used} requests"
    );
    assert_eq!(first.requests as u64, used);

    let (second, worker) = tokio::task::spawn_blocking(move || (fetch(&worker, false), worker))
        .await
        .expect("join");
    assert_eq!(
        sb.running.request_count() - before,
        used,
        "the second request reached the sandbox"
    );
    assert_eq!(second.requests, 0);
    let a: Vec<PositionRow> = first.typed().expect("typed");
    let b: Vec<PositionRow> = second.typed().expect("typed");
    assert!(!a.is_empty());
    assert_eq!(a, b);

    // A bigger window: only the missing part is fetched.
    let before = sb.running.request_count();
    let wider = TimeWindow {
        since: window.since - 7 * SECS_PER_DAY,
        until: window.until,
    };
    let id = worker.send(Command::FetchSeries {
        equipment: FIRST_ID + 2,
        source,
        window: wider,
        offline: false,
    });
    let (events, worker) = tokio::task::spawn_blocking(move || {
        (
            collect_until(&worker, Duration::from_secs(10), |e| {
                e.request() == id && matches!(e, Event::Machine(MachineEvent::Series { .. }))
            }),
            worker,
        )
    })
    .await
    .expect("join");
    let wide = series_of(&events, id).expect("series");
    assert!(
        sb.running.request_count() - before <= 2,
        "only the new week is fetched"
    );
    assert!(wide.typed::<PositionRow>().expect("typed").len() > a.len());

    // The cache file holds rows, never the token.
    let bytes = std::fs::read(&path).expect("cache file");
    let wal = std::fs::read(path.with_extension("sqlite-wal")).unwrap_or_default();
    for hay in [&bytes, &wal] {
        assert!(
            !hay.windows(sb.token.len())
                .any(|w| w == sb.token.as_bytes()),
            "the token is in the cache"
        );
    }

    // The sandbox stops; the cache still answers, and a restart keeps it.
    sb.running.shutdown().await;
    drop(worker);
    drop(cache);
    let (cache, _) = Cache::open(&path, DEFAULT_CAP_BYTES).expect("reopen");
    let config = WorkerConfig {
        client: Some(ClientConfig::new(sb.base.clone()).token(sb.token.clone())),
        cache: Some(Arc::new(cache)),
        offline: false,
        save_dialog: None,
    };
    let worker = Worker::spawn(config, Arc::new(|_| {})).expect("worker");
    let (offline, worker) = tokio::task::spawn_blocking(move || (fetch(&worker, false), worker))
        .await
        .expect("join");
    assert_eq!(offline.typed::<PositionRow>().expect("typed"), a);
    assert!(offline.missing.is_empty());
    // A window reaching past what is cached: the cached part, marked offline.
    let part = TimeWindow {
        since: window.since,
        until: window.until + 3 * SECS_PER_DAY,
    };
    let id = worker.send(Command::FetchSeries {
        equipment: FIRST_ID + 2,
        source,
        window: part,
        offline: false,
    });
    let events = tokio::task::spawn_blocking(move || {
        collect_until(&worker, Duration::from_secs(30), |e| {
            e.request() == id && !matches!(e, Event::Progress { .. })
        })
    })
    .await
    .expect("join");
    let partial = series_of(&events, id).unwrap_or_else(|| panic!("served offline: {events:?}"));
    assert!(partial.offline);
    assert!(!partial.missing.is_empty());
    assert_eq!(partial.typed::<PositionRow>().expect("typed"), a);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_discovery_reports_progress_page_by_page() {
    let sb = start_with(common::fixed_config().fleet_size(120)).await;
    let s = worker_for(&sb, None);
    let id = s.worker.send(Command::DiscoverFleet {
        window: TimeWindow {
            since: common::now() - 3600,
            until: common::now(),
        },
    });
    let events = tokio::task::spawn_blocking(move || {
        collect_until(&s.worker, Duration::from_secs(20), |e| {
            matches!(e, Event::Fleet(FleetEvent::Page { finished: true, .. }))
        })
    })
    .await
    .expect("join");
    let pages: Vec<(i64, i64)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Fleet(FleetEvent::Page {
                request,
                done,
                total,
                ..
            }) if *request == id => Some((*done, *total)),
            _ => None,
        })
        .collect();
    assert_eq!(pages, vec![(50, 120), (100, 120), (120, 120)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catalog_through_the_worker() {
    let sb = start().await;
    let s = worker_for(&sb, None);
    let load = s.worker.send(Command::LoadCatalog);
    let mut creds = Credentials::new();
    creds.insert("apiKey".into(), SecretValue::new("k"));
    creds.insert("customerId".into(), SecretValue::new("c"));
    let create = s.worker.send(Command::CreateIntegration(CreateIntegration {
        integration_credentials: creds,
        integration_name: "Volvo".into(),
        data_source_code: "VOLVO_ACTIVECARE".into(),
    }));
    let mut waiting = 2;
    let events = tokio::task::spawn_blocking(move || {
        collect_until(&s.worker, Duration::from_secs(10), |e| {
            if matches!(
                e,
                Event::Catalog(CatalogEvent::Loaded { .. })
                    | Event::Catalog(CatalogEvent::Changed { .. })
                    | Event::Failed { .. }
            ) {
                waiting -= 1;
            }
            waiting == 0
        })
    })
    .await
    .expect("join");
    assert!(events.iter().any(|e| matches!(e, Event::Catalog(CatalogEvent::Loaded { request, sources, .. }) if *request == load && sources.len() >= 8)));
    assert!(events.iter().any(|e| matches!(e,
        Event::Catalog(CatalogEvent::Changed { request, change: CatalogChange::Created { id: Some(_) } }) if *request == create)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_is_in_flight_from_the_moment_it_is_sent() {
    // A service slow to answer: the read is still on its way when counted.
    let sb = start_with(slow_service(2000)).await;
    let s = worker_for(&sb, None);
    // Before the worker's thread has even seen it: "nothing in flight"
    // promises that no event can come, so a sent command must count.
    s.worker.send(Command::FetchSeries {
        equipment: FIRST_ID,
        source: SeriesSource::Kind(DataKind::Temperature),
        window: days(1),
        offline: false,
    });
    assert_eq!(s.worker.in_flight(), 1, "counted as it is sent");
    // Cancelled: the read and the cancel are both released, no more.
    s.worker
        .send(Command::Cancel(Target::Series(SeriesSource::Kind(
            DataKind::Temperature,
        ))));
    tokio::task::spawn_blocking(move || {
        let deadline = Instant::now() + Duration::from_secs(10);
        while s.worker.in_flight() > 0 {
            assert!(Instant::now() < deadline, "a command never ended");
            std::thread::yield_now();
        }
    })
    .await
    .expect("join");
}

#[test]
fn the_worker_shuts_down_cleanly_with_work_in_flight() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let sb = rt.block_on(start_with(slow_service(2000)));
    let s = worker_for(&sb, None);
    s.worker.send(Command::FetchSeries {
        equipment: FIRST_ID,
        source: SeriesSource::Kind(DataKind::Positions),
        window: days(1),
        offline: false,
    });
    let started = Instant::now();
    drop(s.worker);
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "shutdown waited {:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_service_gone_the_last_history_and_fleet_are_served_marked_offline() {
    // The sandbox's clock is the real one: today's history is not settled,
    // so only a snapshot of it can be kept.
    let sb = start_with(fleetview_sandbox::SandboxConfig::default().fleet_size(7)).await;
    let (_dir, cache) = temp_cache();
    let now = fleetview_api::time::now_secs();
    let today = TimeWindow {
        since: now - SECS_PER_DAY,
        until: now,
    };
    let s = worker_for(&sb, Some(cache.clone()));
    let ask = move |worker: Worker| {
        let history = worker.send(Command::FetchHistory {
            equipment: FIRST_ID,
            window: today,
            keep_body: false,
            offline: false,
        });
        let fleet = worker.send(Command::DiscoverFleet { window: today });
        let events = collect_until(&worker, Duration::from_secs(60), {
            let mut answered = 0;
            move |e| {
                answered += usize::from(matches!(
                    e,
                    Event::Machine(MachineEvent::History { .. })
                        | Event::Fleet(FleetEvent::Page { finished: true, .. })
                        | Event::Fleet(FleetEvent::Cached { .. })
                        | Event::Failed { .. }
                ));
                answered == 2
            }
        });
        (events, history, fleet, worker)
    };
    let (online, h1, _, _) = tokio::task::spawn_blocking(move || ask(s.worker))
        .await
        .expect("join");
    let served = |events: &[Event], request: u64| {
        events.iter().find_map(|e| match e {
            Event::Machine(MachineEvent::History {
                request: r,
                history,
                offline,
                ..
            }) if *r == request => Some((history.clone(), *offline)),
            _ => None,
        })
    };
    let (fresh, offline) = served(&online, h1).expect("the history");
    assert_eq!(offline, None);

    let Sandbox {
        running,
        base,
        token,
        ..
    } = sb;
    running.shutdown().await;
    let worker = worker_with_cache(base, token, cache);
    let s = Setup {
        worker,
        wakes: Arc::default(),
    };
    let (gone, h2, f2, _) = tokio::task::spawn_blocking(move || ask(s.worker))
        .await
        .expect("join");
    let (kept, offline) = served(&gone, h2).unwrap_or_else(|| panic!("{gone:?}"));
    assert_eq!(kept, fresh, "the same history, from the snapshot");
    let fetched_at = offline.expect("marked offline with its age");
    assert!((now - 5..=fleetview_api::time::now_secs()).contains(&fetched_at));
    let fleet = gone.iter().find_map(|e| match e {
        Event::Fleet(FleetEvent::Cached {
            request,
            equipments,
            ..
        }) if *request == f2 => Some(equipments.len()),
        _ => None,
    });
    assert_eq!(fleet, Some(7), "the fleet as last discovered");
}

/// With nothing to sign in with, the fleet and its snapshots as last read
/// come from the cache alone (the service is not asked), those of the
/// service asked for (not the one the worker last connected to); with none
/// kept, nothing is said.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_kept_fleet_is_read_from_the_cache_alone() {
    let sb = start_with(common::fixed_config().fleet_size(7)).await;
    let (_dir, cache) = temp_cache();
    let scope = sb.base.clone();
    let kept = move |worker: Worker| {
        worker.send(Command::KeptFleet {
            scope: scope.clone(),
        });
        worker.send(Command::KeptSnapshots {
            scope: scope.clone(),
        });
        let deadline = Instant::now() + Duration::from_secs(2);
        let mut events = Vec::new();
        while Instant::now() < deadline {
            events.extend(worker.recv_timeout(Duration::from_millis(50)));
        }
        events
    };
    let signed_out = |cache: &Arc<Cache>| {
        let config = WorkerConfig {
            client: Some(ClientConfig::new("http://127.0.0.1:9")),
            cache: Some(cache.clone()),
            offline: false,
            save_dialog: None,
        };
        Worker::spawn(config, Arc::new(|_| {})).expect("worker")
    };
    let none = tokio::task::spawn_blocking({
        let (worker, kept) = (signed_out(&cache), kept.clone());
        move || kept(worker)
    })
    .await
    .expect("join");
    assert!(none.is_empty(), "nothing kept, nothing said: {none:?}");

    let s = worker_for(&sb, Some(cache.clone()));
    tokio::task::spawn_blocking(move || {
        s.worker.send(Command::FetchSnapshots);
        collect_until(&s.worker, Duration::from_secs(30), |e| {
            matches!(
                e,
                Event::Overview(OverviewEvent::SnapshotPage { finished: true, .. })
            )
        });
        s.worker.send(Command::DiscoverFleet { window: days(1) });
        collect_until(&s.worker, Duration::from_secs(30), |e| {
            matches!(e, Event::Fleet(FleetEvent::Page { finished: true, .. }))
        });
    })
    .await
    .expect("join");
    let asked = sb.running.request_count();
    let events = tokio::task::spawn_blocking({
        let worker = signed_out(&cache);
        move || kept(worker)
    })
    .await
    .expect("join");
    let fleet = events.iter().find_map(|e| match e {
        Event::Fleet(FleetEvent::Cached { equipments, .. }) => Some(equipments.len()),
        _ => None,
    });
    let snapshots = events.iter().find_map(|e| match e {
        Event::Overview(OverviewEvent::SnapshotsCached { snapshots, .. }) => Some(snapshots.len()),
        _ => None,
    });
    assert_eq!((fleet, snapshots), (Some(7), Some(7)), "{events:?}");
    assert_eq!(
        sb.running.request_count(),
        asked,
        "the service was not asked"
    );
}

/// Switching service drops what the last one was still answering: a slow
/// fleet discovery of the first service delivers nothing once the second is
/// chosen (it used to fill the new service's empty list with the old fleet).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_connection_drops_the_last_services_answers() {
    let chaos = ChaosConfig::parse("latency_ms=300,latency=1").expect("spec");
    let slow = start_with(common::fixed_config().chaos(chaos)).await;
    let other = start_with(common::fixed_config().fleet_size(3)).await;
    let s = worker_for(&slow, None);
    let now = common::now();
    s.worker.send(Command::DiscoverFleet {
        window: TimeWindow {
            since: now - 3600,
            until: now,
        },
    });
    // What the app sends on switching service.
    s.worker.send(Command::CancelReads);
    s.worker.send(Command::Connect(
        ClientConfig::new(other.base.clone()).token(other.token.clone()),
    ));
    let events = collect_until(&s.worker, Duration::from_secs(20), |e| {
        matches!(e, Event::Connection(ConnectionEvent::Connected { .. }))
    });
    // Long enough for the slow service's pages to come, were they let through.
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut late = Vec::new();
    while Instant::now() < deadline {
        if let Some(e) = s.worker.recv_timeout(Duration::from_millis(50)) {
            late.push(e);
        }
    }
    let pages = events
        .iter()
        .chain(&late)
        .filter(|e| matches!(e, Event::Fleet(FleetEvent::Page { .. })))
        .count();
    assert_eq!(pages, 0, "no page of the last service: {late:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pending_login_holds_up_no_other_command_and_can_be_cancelled() {
    use fleetview_api::model::SecretValue;
    let sb = start().await;
    // A service that accepts connections and never answers: a login to it
    // waits for the time-out with no bytes coming (30 s).
    let (silent_addr, accepted) = common::silent_service().await;
    let worker = Worker::spawn(
        WorkerConfig {
            client: None,
            cache: None,
            offline: false,
            save_dialog: None,
        },
        Arc::new(|_| {}),
    )
    .expect("worker");
    let sandbox = ClientConfig::new(sb.base.clone());
    let token = SecretValue::new(sb.token.clone());
    let silent_login = ClientConfig::new(format!("http://{silent_addr}")).api_key("demo", "demo");

    let (login, events) = tokio::task::spawn_blocking(move || {
        let login = worker.send(Command::Connect(silent_login));
        let deadline = Instant::now() + Duration::from_secs(10);
        while accepted.load(Ordering::SeqCst) == 0 {
            assert!(Instant::now() < deadline, "the login never reached the server");
            std::thread::yield_now();
        }
        // The login hangs: another command is answered meanwhile.
        let test = worker.send(Command::TestConnection {
            config: sandbox.clone(),
            method: AuthMethod::Token,
            secret: Some(token.clone()),
        });
        let mut events = collect_until(&worker, Duration::from_secs(5), |e| {
            matches!(e, Event::Connection(ConnectionEvent::Tested { request, .. }) if *request == test)
        });
        assert!(
            matches!(events.last(), Some(Event::Connection(ConnectionEvent::Tested { result: Ok(_), .. }))),
            "{events:?}"
        );
        // A cancel ends it at once: nothing runs any more, nothing comes.
        worker.send(Command::Cancel(Target::Connection));
        let deadline = Instant::now() + Duration::from_secs(5);
        while worker.in_flight() > 0 {
            assert!(Instant::now() < deadline, "the login still runs");
            std::thread::yield_now();
        }
        events.extend(worker.drain());
        // A login that answers still puts its client in place for what
        // comes next.
        let again = worker.send(Command::Connect(sandbox.api_key("demo", "demo")));
        events.extend(collect_until(&worker, Duration::from_secs(10), |e| {
            matches!(e, Event::Connection(ConnectionEvent::Connected { request, .. }) if *request == again)
        }));
        assert!(
            matches!(events.last(), Some(Event::Connection(ConnectionEvent::Connected { user: Some(_), .. }))),
            "the login says who it is for: {events:?}"
        );
        let fetch = worker.send(Command::FetchSeries {
            equipment: FIRST_ID,
            source: SeriesSource::Faults,
            window: days(3),
            offline: false,
        });
        events.extend(collect_until(&worker, Duration::from_secs(10), |e| {
            matches!(e, Event::Machine(MachineEvent::Series { request, .. }) | Event::Failed { request, .. } if *request == fetch)
        }));
        (login, events)
    })
    .await
    .expect("join");
    assert!(
        events.iter().all(|e| e.request() != login),
        "the cancelled login said something: {events:?}"
    );
    assert!(
        matches!(
            events.last(),
            Some(Event::Machine(MachineEvent::Series { .. }))
        ),
        "the logged-in client fetched: {events:?}"
    );
}

/// The fleet overview's reads: the snapshots page by page with their
/// progress, kept for a start with the service away; and one machine's
/// figures, which are what its own `/history` and `/faults` say.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snapshots_come_page_by_page_and_are_kept_and_figures_follow_the_history() {
    let sb = start_with(common::fixed_config().fleet_size(70)).await;
    let (_dir, cache) = temp_cache();
    let s = worker_for(&sb, Some(cache.clone()));
    let window = days(6);
    let read = s.worker.send(Command::FetchSnapshots);
    let figures = s.worker.send(Command::FetchFigures {
        equipment: FIRST_ID + 2,
        window,
        offline: false,
        look_back_now: None,
    });
    let (events, worker) = tokio::task::spawn_blocking(move || {
        let mut answered = 0;
        let events = collect_until(&s.worker, Duration::from_secs(60), |e| {
            answered += usize::from(matches!(
                e,
                Event::Overview(OverviewEvent::SnapshotPage { finished: true, .. })
                    | Event::Overview(OverviewEvent::Figures { .. })
                    | Event::Failed { .. }
            ));
            answered == 2
        });
        (events, s.worker)
    })
    .await
    .expect("join");
    let pages: Vec<(usize, i64, i64)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Overview(OverviewEvent::SnapshotPage {
                request,
                snapshots,
                done,
                total,
                ..
            }) if *request == read => Some((snapshots.len(), *done, *total)),
            _ => None,
        })
        .collect();
    assert_eq!(pages, vec![(50, 50, 70), (20, 70, 70)]);
    let got = events
        .iter()
        .find_map(|e| match e {
            Event::Overview(OverviewEvent::Figures {
                request,
                equipment,
                figures: f,
                ..
            }) if *request == figures && *equipment == FIRST_ID + 2 => Some(f.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("the figures: {events:?}"));
    // What the service itself says of that machine and window.
    let path = |segment: &str| {
        format!(
            "/v2/fleet/equipments/{}/{segment}?{}",
            FIRST_ID + 2,
            common::window_query(window.since, window.until)
        )
    };
    let history: fleetview_api::model::Envelope<fleetview_api::model::EquipmentHistory> =
        sb.get_ok(&path("history")).await;
    let faults: fleetview_api::model::Envelope<fleetview_api::model::Page<FaultRow>> =
        sb.get_ok(&path("faults")).await;
    let hours: fleetview_api::model::Envelope<fleetview_api::model::Page<serde_json::Value>> =
        sb.get_ok(&path("cumulativeOperatingHours")).await;
    let hours: Vec<(i64, f64)> = hours
        .data
        .rows
        .iter()
        .map(|r| {
            let t =
                fleetview_api::time::parse_wire(r["date"].as_str().expect("date")).expect("a date");
            (t, r["hour"].as_f64().expect("hour"))
        })
        .collect();
    assert!(!hours.is_empty(), "the machine ran in the window");
    let expected = fleetview_core::analysis::MachineFigures::compute(
        &history.data,
        &faults.data.rows,
        &hours,
        window,
    );
    assert_eq!(got, expected);
    assert!(got.engine_hours_h.is_some(), "{got:?}");

    // The service goes away: the snapshots as last read, marked so.
    drop(worker);
    let Sandbox {
        running,
        base,
        token,
        ..
    } = sb;
    running.shutdown().await;
    let worker = worker_with_cache(base, token, cache);
    let again = worker.send(Command::FetchSnapshots);
    let events = tokio::task::spawn_blocking(move || {
        collect_until(&worker, Duration::from_secs(60), |e| {
            matches!(
                e,
                Event::Overview(OverviewEvent::SnapshotsCached { .. }) | Event::Failed { .. }
            )
        })
    })
    .await
    .expect("join");
    let kept = events.iter().find_map(|e| match e {
        Event::Overview(OverviewEvent::SnapshotsCached {
            request, snapshots, ..
        }) if *request == again => Some(snapshots.len()),
        _ => None,
    });
    assert_eq!(kept, Some(70), "{events:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_track_partly_cached_is_the_rows_of_its_window_in_order() {
    let (_dir, cache) = temp_cache();
    let sb = start().await;
    let s = worker_for(&sb, Some(cache));
    let equipment = FIRST_ID + 2;
    let source = SeriesSource::Kind(DataKind::Positions);
    // The middle of the window is cached first; its ends come from the
    // service, cut mid-chunk on both sides.
    let window = TimeWindow {
        since: common::now() - 30 * SECS_PER_DAY + 3_600,
        until: common::now() - 2 * SECS_PER_DAY - 3_600,
    };
    let middle = TimeWindow {
        since: window.since + 9 * SECS_PER_DAY,
        until: window.until - 9 * SECS_PER_DAY,
    };
    let (track, rows) = tokio::task::spawn_blocking(move || {
        let worker = &s.worker;
        let series = |w: TimeWindow| {
            let id = worker.send(Command::FetchSeries {
                equipment,
                source,
                window: w,
                offline: false,
            });
            let events = collect_until(worker, Duration::from_secs(10), |e| {
                e.request() == id && !matches!(e, Event::Progress { .. })
            });
            series_of(&events, id).unwrap_or_else(|| panic!("no series: {events:?}"))
        };
        series(middle);
        let id = worker.send(Command::FetchTrack { equipment, window });
        let events = collect_until(worker, Duration::from_secs(10), |e| {
            e.request() == id && !matches!(e, Event::Progress { .. })
        });
        let track = events
            .iter()
            .find_map(|e| match e {
                Event::Timeline(TimelineEvent::Track { track, .. }) => Some(track.clone()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no track: {events:?}"));
        let rows: Vec<PositionRow> = series(window).typed().expect("typed");
        (track, rows)
    })
    .await
    .expect("join");
    assert!(rows.len() > 100, "a month of positions: {}", rows.len());
    let times: Vec<i64> = track.samples.iter().map(|s| s.time).collect();
    let expected: Vec<i64> = rows.iter().map(|r| r.date.0).collect();
    assert_eq!(times, expected, "every row of the window, once, in order");
    assert!(
        times
            .iter()
            .all(|t| (window.since..=window.until).contains(t))
    );
}

/// The event answering `request`, progress aside (a failure fails the
/// test).
fn answer_to(worker: &Worker, request: u64) -> Event {
    let events = collect_until(worker, Duration::from_secs(60), |e| {
        e.request() == request && !matches!(e, Event::Progress { .. })
    });
    match events.into_iter().last() {
        Some(Event::Failed { error, .. }) => panic!("request {request} failed: {error}"),
        Some(e) => e,
        None => unreachable!("collect_until returns the answer"),
    }
}

/// A year of positions is megabytes the page would hold twice (its track,
/// and the history's positions that only the figures read): the page's
/// history comes without them, and the figures still use them, kept since
/// the page read them or, for figures computed again, read from the cache.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_keeps_its_history_without_positions_and_the_figures_use_them_all() {
    use fleetview_core::analysis::{Expected, WorkingHours};
    use fleetview_core::worker::{ReportData, ReportRequest};

    // Its warnings, to see that reading the history again says nothing
    // of working offline (the service is there).
    let logs = fleetview_testkit::logs::Logs::default();
    let _ = tracing::subscriber::set_global_default(logs.subscriber(tracing::Level::WARN));
    // The real clock: a window up to now is not settled, so the cache
    // keeps only the last history seen of it, as for a person's "last 30
    // days".
    let sb = start_with(fleetview_sandbox::SandboxConfig::default().fleet_size(7)).await;
    let (_dir, cache) = temp_cache();
    let s = worker_for(&sb, Some(cache));
    let now = fleetview_api::time::now_secs();
    let window = TimeWindow {
        since: now - 30 * SECS_PER_DAY,
        until: now,
    };
    let equipment = FIRST_ID;
    let request = ReportRequest {
        equipment,
        window,
        expected: Expected::default(),
        now,
        working_hours: WorkingHours::default(),
        tank_l: None,
    };
    let reports = tokio::task::spawn_blocking(move || {
        let worker = s.worker;
        // What the machine page reads.
        let id = worker.send(Command::FetchHistory {
            equipment,
            window,
            keep_body: false,
            offline: false,
        });
        let Event::Machine(MachineEvent::History { history: page, .. }) = answer_to(&worker, id)
        else {
            panic!("a history")
        };
        assert!(
            page.positions.rows.is_empty() && page.positions.total > 0,
            "the page's history has no position rows, and says how many there were: {}",
            page.positions.total
        );
        let id = worker.send(Command::FetchActivities { equipment, window });
        let Event::Machine(MachineEvent::Activities { rows, .. }) = answer_to(&worker, id) else {
            panic!("activities")
        };
        let id = worker.send(Command::FetchTrack { equipment, window });
        let Event::Timeline(TimelineEvent::Track { track, .. }) = answer_to(&worker, id) else {
            panic!("a track")
        };
        let data = |history: Arc<fleetview_api::model::EquipmentHistory>| {
            ReportData::new(history, Some(rows.clone()), Some(track.clone()))
        };
        let report = |command: Command| {
            let id = worker.send(command);
            match answer_to(&worker, id) {
                Event::Figures(FiguresEvent::Report { report, .. }) => report,
                other => panic!("a report: {other:?}"),
            }
        };
        let first = report(Command::ComputeReport {
            request,
            data: data(page.clone()),
        });
        // Computed again (new settings would do this): the history kept
        // for the first was taken, so it is read again, from the cache.
        let again = report(Command::ComputeReport {
            request,
            data: data(page.clone()),
        });
        // Everything read through the cache, the history whole.
        let whole = report(Command::FetchReport {
            request,
            offline: false,
        });
        // A history that truly has no positions.
        let mut none = (*page).clone();
        none.positions.total = 0;
        let without = report(Command::ComputeReport {
            request,
            data: data(Arc::new(none)),
        });
        (first, again, whole, without)
    })
    .await
    .expect("join");
    let (first, again, whole, without) = reports;
    assert_eq!(first, whole, "the figures of the page, from every position");
    assert_eq!(again, whole, "computed again, from the cache's history");
    let logged = logs.text();
    assert!(
        !logged.contains("cached history") && !logged.contains("offline"),
        "nothing said of working offline: {logged}"
    );
    assert_ne!(
        without, whole,
        "the positions change this window's figures (the test can tell)"
    );
}

/// The page's figures are asked with its reads and computed as soon as
/// those are in, from the very values the page was sent (no trip through
/// the UI); without a history there are none, and the request ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_figures_come_with_its_reads_from_what_it_was_sent() {
    use fleetview_core::analysis::{Expected, WorkingHours};
    use fleetview_core::worker::{ReportData, ReportRequest};
    let sb = start_with(fleetview_sandbox::SandboxConfig::default().fleet_size(7)).await;
    let (_dir, cache) = temp_cache();
    let s = worker_for(&sb, Some(cache));
    let window = days(30);
    let request = move |equipment| ReportRequest {
        equipment,
        window,
        expected: Expected::default(),
        now: window.until,
        working_hours: WorkingHours::default(),
        tank_l: None,
    };
    tokio::task::spawn_blocking(move || {
        let worker = s.worker;
        // As the page sends them: its reads, the read ahead, its figures.
        let page = |equipment| {
            worker.send(Command::FetchHistory {
                equipment,
                window,
                keep_body: false,
                offline: false,
            });
            worker.send(Command::FetchActivities { equipment, window });
            worker.send(Command::FetchTrack { equipment, window });
            worker.send(Command::ReadAhead { equipment, window });
            worker.send(Command::PageReport {
                request: request(equipment),
            })
        };
        let asked = page(FIRST_ID);
        let events = collect_until(&worker, Duration::from_secs(60), |e| {
            e.request() == asked && !matches!(e, Event::Progress { .. })
        });
        let (mut history, mut activities, mut track) = (None, None, None);
        for e in &events {
            match e {
                Event::Machine(MachineEvent::History { history: h, .. }) => {
                    history = Some(h.clone())
                }
                Event::Machine(MachineEvent::Activities { rows, .. }) => {
                    activities = Some(rows.clone())
                }
                Event::Timeline(TimelineEvent::Track { track: t, .. }) => track = Some(t.clone()),
                Event::Failed { error, .. } => panic!("failed: {error}"),
                _ => {}
            }
        }
        let history = history.expect("the history came before the figures");
        let engine = !history.engine_conditions.rows.is_empty();
        assert!(
            engine || track.is_some(),
            "without engine events the track came before the figures"
        );
        let sent = ReportData::new(history, activities, track);
        let Some(Event::Figures(FiguresEvent::Report {
            report, sources, ..
        })) = events.last()
        else {
            panic!("figures: {:?}", events.last())
        };
        assert_eq!(
            *sources,
            Some(sent.sources()),
            "computed from what the page was sent"
        );
        let id = worker.send(Command::FetchReport {
            request: request(FIRST_ID),
            offline: false,
        });
        let Event::Figures(FiguresEvent::Report { report: read, .. }) = answer_to(&worker, id)
        else {
            panic!("a report")
        };
        assert_eq!(*report, read, "the same figures as read whole");

        // A machine the service does not know: no history, no figures,
        // and nothing left waiting.
        let asked = page(FIRST_ID + 9_999);
        let deadline = Instant::now() + Duration::from_secs(30);
        while worker.in_flight() > 0 {
            assert!(Instant::now() < deadline, "the figures still wait");
            std::thread::yield_now();
        }
        assert!(
            !worker.drain().iter().any(|e| e.request() == asked
                && matches!(e, Event::Figures(FiguresEvent::Report { .. }))),
            "no figures without a history"
        );
    })
    .await
    .expect("join");
}
