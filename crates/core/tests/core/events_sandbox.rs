//! The events (D16) on the simulator's data, read as the app and
//! `fleetview report` read them (the worker, the client, a real sandbox over
//! loopback): over 30 days of the whole default fleet, the suspected drains,
//! out-of-hours use, reporting gaps and counter resets found are exactly the
//! ones the simulator planted, and a window with none shows none.

use fleetview_testkit as common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Sandbox, now, start};
use fleetview_api::ClientConfig;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow, format_wire};
use fleetview_core::analysis::events::{EventDetail, EventKind};
use fleetview_core::analysis::{Expected, Report, WorkingHours};
use fleetview_core::worker::{Command, Event, FiguresEvent, ReportRequest, Worker, WorkerConfig};
use fleetview_sandbox::Clock;
use fleetview_sandbox::simulate::{FIRST_ID, Simulator};
use fleetview_sandbox::simulate::{Planted, PlantedKind};

const FLEET: i64 = 60;

fn worker(sb: &Sandbox) -> Worker {
    let config = WorkerConfig {
        client: Some(ClientConfig::new(sb.base.clone()).token(sb.token.clone())),
        cache: None,
        offline: false,
        save_dialog: None,
    };
    Worker::spawn(config, Arc::new(|_| {})).expect("worker")
}

/// The report of one machine over `w`, as `fleetview report` computes it.
fn report(worker: &Worker, equipment: i64, w: TimeWindow) -> Arc<Report> {
    let id = worker.send(Command::FetchReport {
        request: ReportRequest {
            equipment,
            window: w,
            expected: Expected::default(),
            now: now(),
            working_hours: WorkingHours::default(),
            tank_l: None,
        },
        offline: false,
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        match worker.recv_timeout(Duration::from_millis(50)) {
            Some(Event::Figures(FiguresEvent::Report {
                request, report, ..
            })) if request == id => return report,
            Some(Event::Failed { request, error, .. }) if request == id => {
                panic!("report of {equipment}: {error}")
            }
            _ => {}
        }
    }
    panic!("no report of {equipment} in time");
}

/// What the simulator planted and the app looks for: (kind, start, end).
type Found = BTreeSet<(&'static str, i64, i64)>;

fn planted_set(planted: &[Planted]) -> Found {
    planted
        .iter()
        .map(|p| {
            let kind = match p.kind {
                PlantedKind::Drain => "fuel_drop",
                PlantedKind::OutOfHours => "out_of_hours",
                PlantedKind::Gap => "gap",
                PlantedKind::CounterReset => "counter_reset",
            };
            // A reset is found at the first reading on the new meter.
            match p.kind {
                PlantedKind::CounterReset => (kind, p.end, p.end),
                _ => (kind, p.start, p.end),
            }
        })
        .collect()
}

/// The planted kinds among the report's events; a gap once, whichever of
/// its kinds' rows (positions, fuel, hours) fell silent.
fn found_set(report: &Report) -> Found {
    report
        .events
        .iter()
        .filter_map(|e| {
            let key = e.kind.key();
            match e.kind {
                EventKind::FuelDrop | EventKind::OutOfHours | EventKind::Gap => {
                    Some((key, e.start, e.end.unwrap_or(e.start)))
                }
                EventKind::CounterReset => Some((key, e.start, e.start)),
                _ => None,
            }
        })
        .collect()
}

/// The simulator's series agree with each other: no cross-check fires.
fn assert_no_finding(equipment: i64, report: &Report) {
    let checks: Vec<_> = report
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Check)
        .collect();
    assert!(checks.is_empty(), "equipment {equipment}: {checks:?}");
}

fn show(set: &Found) -> Vec<String> {
    set.iter()
        .map(|(k, a, b)| format!("{k} {} .. {}", format_wire(*a), format_wire(*b)))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_30_days_of_the_fleet_the_events_found_are_those_planted() {
    let sb = start().await;
    let sim = Simulator::new(FLEET as u64, Clock::Fixed(now()));
    let today = now().div_euclid(SECS_PER_DAY);
    let w = TimeWindow::new((today - 30) * SECS_PER_DAY, today * SECS_PER_DAY - 1).expect("window");
    let worker = worker(&sb);
    let (tally, resets_before_after) = tokio::task::spawn_blocking(move || {
        let mut tally = BTreeMap::<&'static str, usize>::new();
        let mut resets = Vec::new();
        for equipment in FIRST_ID..FIRST_ID + FLEET {
            let report = report(&worker, equipment, w);
            let planted = sim.planted(equipment, w);
            let (want, got) = (planted_set(&planted), found_set(&report));
            assert_eq!(
                show(&got),
                show(&want),
                "equipment {equipment}: found (left) and planted (right)"
            );
            for (kind, ..) in &want {
                *tally.entry(kind).or_default() += 1;
            }
            // The simulator's series agree with each other: no finding.
            assert_no_finding(equipment, &report);
            // A reset says the readings on both meters, as planted.
            for p in planted
                .iter()
                .filter(|p| p.kind == PlantedKind::CounterReset)
            {
                let e = report
                    .events
                    .iter()
                    .find(|e| e.kind == EventKind::CounterReset && e.start == p.end)
                    .expect("the reset");
                let EventDetail::CounterReset { before, after, .. } = &e.detail else {
                    panic!("a reset's detail: {e:?}");
                };
                resets.push(((*before, *after), (p.before, p.after)));
            }
        }
        (tally, resets)
    })
    .await
    .expect("the fleet's reports");
    // Something of each kind was planted, so the comparison says something.
    for kind in ["fuel_drop", "out_of_hours", "gap", "counter_reset"] {
        assert!(
            tally.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} planted: {tally:?}"
        );
    }
    for ((before, after), (want_before, want_after)) in resets_before_after {
        assert_eq!(Some(before), want_before);
        assert_eq!(Some(after), want_after);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_reaching_now_finds_no_disagreement_in_the_simulators_series() {
    let sb = start().await;
    let today = now().div_euclid(SECS_PER_DAY);
    // Yesterday and today so far, as the app opens: today's figures are the
    // hours so far, and an engine still running has run until now only.
    let w = TimeWindow::new((today - 1) * SECS_PER_DAY, (today + 1) * SECS_PER_DAY - 1)
        .expect("window");
    let worker = worker(&sb);
    tokio::task::spawn_blocking(move || {
        let mut worked = 0;
        for equipment in FIRST_ID..FIRST_ID + FLEET {
            let report = report(&worker, equipment, w);
            assert_no_finding(equipment, &report);
            worked += usize::from(
                report
                    .events
                    .iter()
                    .any(|e| e.kind == EventKind::Stop && e.end.is_some_and(|t| t < now())),
            );
        }
        assert!(worked > 0, "some machine worked");
    })
    .await
    .expect("the fleet's reports");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_with_nothing_planted_shows_none() {
    let sb = start().await;
    let sim = Simulator::new(FLEET as u64, Clock::Fixed(now()));
    let today = now().div_euclid(SECS_PER_DAY);
    // The first machine and weekday window (Monday to Friday of a past week)
    // in which nothing was planted, but the machine worked.
    let monday = today - (today + 3).rem_euclid(7) - 7;
    let (equipment, w) = (0..8)
        .flat_map(|week| {
            (FIRST_ID..FIRST_ID + FLEET).map(move |id| {
                let first = monday - 7 * week;
                let w = TimeWindow::new(first * SECS_PER_DAY, (first + 5) * SECS_PER_DAY - 1)
                    .expect("window");
                (id, w)
            })
        })
        .find(|(id, w)| {
            let worked = sim.machine(*id).is_some_and(|m| {
                (w.since / SECS_PER_DAY..=w.until / SECS_PER_DAY).any(|d| m.is_working_day(d))
            });
            worked && sim.planted(*id, *w).is_empty()
        })
        .expect("a quiet working week somewhere");
    let worker = worker(&sb);
    let report = tokio::task::spawn_blocking(move || report(&worker, equipment, w))
        .await
        .expect("report");
    assert!(
        found_set(&report).is_empty(),
        "{equipment} {w}: {:?}",
        show(&found_set(&report))
    );
    assert!(
        report.events.iter().any(|e| e.kind == EventKind::Stop),
        "it worked, so it stopped: {:?}",
        report.events
    );
}
