//! How soon the worker wakes the UI: the parts of a machine page soon (a
//! frame for each would hold back the one completing the page), its last
//! read's end at once, anything else at once.

use fleetview_testkit as common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::start;
use fleetview_api::ClientConfig;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_core::worker::{Command, Urgency, Worker, WorkerConfig};
use fleetview_sandbox::simulate::FIRST_ID;

type Wakes = Arc<Mutex<Vec<Urgency>>>;

fn worker(sb: &common::Sandbox) -> (Worker, Wakes) {
    let wakes: Wakes = Arc::default();
    let w = wakes.clone();
    let config = WorkerConfig {
        client: Some(ClientConfig::new(sb.base.clone()).token(sb.token.clone())),
        cache: None,
        offline: false,
        save_dialog: None,
    };
    let worker = Worker::spawn(
        config,
        Arc::new(move |u| w.lock().unwrap_or_else(|e| e.into_inner()).push(u)),
    )
    .expect("worker");
    (worker, wakes)
}

/// Waits until no task runs, then takes what woke the UI meanwhile.
fn when_idle(worker: &Worker, wakes: &Wakes) -> Vec<Urgency> {
    let deadline = Instant::now() + Duration::from_secs(20);
    while worker.in_flight() > 0 {
        assert!(Instant::now() < deadline, "tasks still running");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::mem::take(&mut *wakes.lock().unwrap_or_else(|e| e.into_inner()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pages_parts_wake_the_ui_soon_and_its_last_read_at_once() {
    let sb = start().await;
    let (worker, wakes) = worker(&sb);
    let window = TimeWindow {
        since: common::now() - 3 * SECS_PER_DAY,
        until: common::now(),
    };
    let equipment = FIRST_ID;
    worker.send(Command::FetchFaults { equipment, window });
    worker.send(Command::FetchActivities { equipment, window });
    worker.send(Command::FetchTrack { equipment, window });
    let seen = tokio::task::spawn_blocking(move || {
        let seen = when_idle(&worker, &wakes);
        (seen, worker.drain().len())
    })
    .await
    .expect("joined");
    let (seen, events) = seen;
    assert!(events >= 3, "each read answered: {events} events");
    assert!(
        seen.len() > events,
        "every event woke the UI, and the page's end: {seen:?}"
    );
    assert_eq!(
        seen.last(),
        Some(&Urgency::Now),
        "the last read's end wakes at once: {seen:?}"
    );
    assert_eq!(
        seen.iter().filter(|u| **u == Urgency::Now).count(),
        1,
        "only the end of the last read wakes at once: {seen:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fleets_answers_wake_the_ui_at_once() {
    let sb = start().await;
    let (worker, wakes) = worker(&sb);
    worker.send(Command::FetchSnapshots);
    let (seen, events) = tokio::task::spawn_blocking(move || {
        let seen = when_idle(&worker, &wakes);
        (seen, worker.drain())
    })
    .await
    .expect("joined");
    assert!(!events.is_empty(), "the snapshots came");
    assert!(
        seen.contains(&Urgency::Now),
        "a page of the fleet's snapshots wakes at once: {seen:?}"
    );
}
