//! The Fleet page's attention look-back through the worker: read from the
//! service into the cache, read again from the cache alone, and what it
//! finds is what the simulator planted.

use fleetview_testkit as common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use fleetview_api::ClientConfig;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_core::analysis::{EventKind, MachineFigures};
use fleetview_core::cache::{Cache, DEFAULT_CAP_BYTES};
use fleetview_core::worker::{Command, Event, OverviewEvent, Worker, WorkerConfig};
use fleetview_sandbox::Clock;
use fleetview_sandbox::simulate::{PlantedKind, Simulator};

/// Sends a look-back and waits for its answer.
fn look_back(worker: &Worker, command: Command) -> Option<MachineFigures> {
    let id = worker.send(command);
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        match worker.recv_timeout(Duration::from_millis(50)) {
            Some(Event::Overview(OverviewEvent::LookBack {
                request, figures, ..
            })) if request == id => return figures,
            Some(Event::Failed { request, error, .. }) if request == id => {
                panic!("the look-back failed: {error}")
            }
            _ => {}
        }
    }
    panic!("no look-back answered");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_attention_look_back_is_read_through_the_cache_and_finds_the_planted_drain() {
    let sb = common::start_with(common::fixed_config().fleet_size(60)).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (cache, _) =
        Cache::open(&dir.path().join("cache.sqlite"), DEFAULT_CAP_BYTES).expect("cache");
    let now = common::now();
    let window = TimeWindow {
        since: (now.div_euclid(SECS_PER_DAY) - 29) * SECS_PER_DAY,
        until: (now.div_euclid(SECS_PER_DAY) + 1) * SECS_PER_DAY - 1,
    };
    let sim = Simulator::new(60, Clock::Fixed(now));
    let (equipment, drain) = (fleetview_sandbox::simulate::FIRST_ID..)
        .take(60)
        .find_map(|id| {
            let p = sim.planted(id, window);
            p.into_iter()
                .find(|p| p.kind == PlantedKind::Drain)
                .map(|d| (id, d))
        })
        .expect("a drain planted in 30 days");
    let config = WorkerConfig {
        client: Some(ClientConfig::new(sb.base.clone()).token(sb.token.clone())),
        cache: Some(Arc::new(cache)),
        offline: false,
        save_dialog: None,
    };
    let (online, cached) = tokio::task::spawn_blocking(move || {
        let worker = Worker::spawn(config, Arc::new(|_| {})).expect("a worker");
        let command = |offline| Command::FetchLookBack {
            equipment,
            window,
            now,
            offline,
        };
        let online = look_back(&worker, command(false));
        // The rows go to the cache just after the answer: asked again
        // from the cache alone until they are there.
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut cached = look_back(&worker, command(true));
        while cached.is_none() && Instant::now() < deadline {
            cached = look_back(&worker, command(true));
        }
        (online, cached)
    })
    .await
    .expect("join");
    let online = online.expect("read from the service");
    let drains: Vec<i64> = online
        .events
        .iter()
        .filter(|e| e.kind == EventKind::FuelDrop)
        .map(|e| e.start)
        .collect();
    assert!(drains.contains(&drain.start), "{drains:?} vs {drain:?}");
    assert!(
        online.events.iter().all(|e| {
            matches!(
                e.kind,
                EventKind::Fault | EventKind::FuelDrop | EventKind::CounterReset | EventKind::Gap
            )
        }),
        "only what can need attention is kept"
    );
    assert_eq!(
        cached,
        Some(online),
        "the cache alone answers the same look-back"
    );
}

/// Reads machine `equipment`'s figures and look-back over `window` in one
/// command; both answers.
fn figures_and_look_back(
    worker: &Worker,
    equipment: i64,
    window: TimeWindow,
    now: i64,
) -> (MachineFigures, MachineFigures) {
    let id = worker.send(Command::FetchFigures {
        equipment,
        window,
        offline: false,
        look_back_now: Some(now),
    });
    let (mut figures, mut look_back) = (None, None);
    let deadline = Instant::now() + Duration::from_secs(60);
    while (figures.is_none() || look_back.is_none()) && Instant::now() < deadline {
        match worker.recv_timeout(Duration::from_millis(50)) {
            Some(Event::Overview(OverviewEvent::Figures {
                request,
                figures: f,
                ..
            })) if request == id => figures = Some(f),
            Some(Event::Overview(OverviewEvent::LookBack {
                request,
                figures: f,
                ..
            })) if request == id => look_back = f,
            Some(Event::Failed { request, error, .. }) if request == id => {
                panic!("the figures failed: {error}")
            }
            _ => {}
        }
    }
    (
        figures.expect("the figures"),
        look_back.expect("the look-back"),
    )
}

/// The Fleet page's figures over the last 30 days, its look-back being the
/// same window: one read gives both, and read again from a warm cache,
/// only what has not settled (today's history, the open chunks of the
/// faults and the counter) is asked for, with the same answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn figures_from_a_warm_cache_ask_only_for_what_has_not_settled() {
    let sb = common::start_with(common::fixed_config().fleet_size(3).record_requests(true)).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let (cache, _) =
        Cache::open(&dir.path().join("cache.sqlite"), DEFAULT_CAP_BYTES).expect("cache");
    let now = common::now();
    let today = now.div_euclid(SECS_PER_DAY);
    let window = TimeWindow {
        since: (today - 29) * SECS_PER_DAY,
        until: (today + 1) * SECS_PER_DAY - 1,
    };
    let equipment = fleetview_sandbox::simulate::FIRST_ID;
    let config = WorkerConfig {
        client: Some(ClientConfig::new(sb.base.clone()).token(sb.token.clone())),
        cache: Some(Arc::new(cache)),
        offline: false,
        save_dialog: None,
    };
    let running = &sb.running;
    let asked = |what: &str| -> Vec<String> {
        running
            .take_recorded()
            .into_iter()
            .filter(|r| r.contains(&format!("/{equipment}/{what}")))
            .collect()
    };
    let worker = tokio::task::spawn_blocking(move || {
        let worker = Worker::spawn(config, Arc::new(|_| {})).expect("a worker");
        // The app lists the fleet first: the service's time is known.
        worker.send(Command::FetchSnapshots);
        let deadline = Instant::now() + Duration::from_secs(20);
        while worker.service_now().is_none() && Instant::now() < deadline {
            let _ = worker.recv_timeout(Duration::from_millis(20));
        }
        worker
    })
    .await
    .expect("join");
    running.take_recorded();
    let (worker, cold) = tokio::task::spawn_blocking(move || {
        let cold = figures_and_look_back(&worker, equipment, window, now);
        (worker, cold)
    })
    .await
    .expect("join");
    let cold_history = asked("history");
    assert!(cold_history.len() >= 2, "{cold_history:?}");
    // Stored: every task, its cache writes included, ended.
    let worker = tokio::task::spawn_blocking(move || {
        let deadline = Instant::now() + Duration::from_secs(20);
        while worker.in_flight() > 0 && Instant::now() < deadline {
            let _ = worker.recv_timeout(Duration::from_millis(20));
        }
        worker
    })
    .await
    .expect("join");
    running.take_recorded();
    let (worker, warm) = tokio::task::spawn_blocking(move || {
        let warm = figures_and_look_back(&worker, equipment, window, now);
        (worker, warm)
    })
    .await
    .expect("join");
    let recorded = running.take_recorded();
    let today_start = fleetview_api::time::format_wire(today * SECS_PER_DAY);
    let history: Vec<&String> = recorded.iter().filter(|r| r.contains("/history")).collect();
    assert_eq!(history.len(), 1, "only today's history: {history:?}");
    assert!(
        history[0].contains(&format!("since={}", today_start.replace(':', "%3A"))),
        "{history:?}"
    );
    let settled: Vec<&String> = recorded
        .iter()
        .filter(|r| {
            let until = r
                .split_once("until=")
                .map(|(_, u)| u.split('&').next().unwrap_or_default().replace("%3A", ":"));
            until
                .and_then(|u| fleetview_api::time::parse_wire(&u).ok())
                .is_some_and(|u| u <= now - fleetview_core::cache::SETTLE_SECS)
        })
        .collect();
    assert!(settled.is_empty(), "settled data asked again: {settled:?}");
    assert_eq!(warm, cold, "the cache gives the same figures and look-back");
    tokio::task::spawn_blocking(move || drop(worker))
        .await
        .expect("join");
}
