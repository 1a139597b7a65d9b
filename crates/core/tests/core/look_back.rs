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
        let worker = Worker::spawn(config, Arc::new(|| {})).expect("a worker");
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
