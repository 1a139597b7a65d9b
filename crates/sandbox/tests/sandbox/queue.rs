//! Heavy requests (the series and history operations) beyond the bound on
//! how many are worked on at once wait their turn, and are answered in full
//! once they have it (D13): none is refused for load.

use fleetview_testkit as common;

use std::time::{Duration, Instant};

use common::start;
use fleetview_api::time::TimeWindow;
use fleetview_sandbox::Clock;
use fleetview_sandbox::simulate::{FIRST_ID, Machine, Simulator};
use reqwest::StatusCode;
use serde_json::Value;

/// A year of the positions of the machine that reports most: a long answer.
fn a_year_of_positions() -> String {
    let now = common::now();
    let sim = Simulator::new(60, Clock::Fixed(now));
    let day = TimeWindow {
        since: now - 86_400,
        until: now,
    };
    let busiest = (0..60)
        .map(Machine::at_index)
        .max_by_key(|m| sim.positions(m, day).len())
        .map_or(FIRST_ID, |m| m.id);
    format!(
        "/v2/fleet/equipments/{busiest}/positions?{}",
        common::window_query(now - 366 * 86_400, now)
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heavy_requests_beyond_the_bound_wait_their_turn() {
    let sb = start().await;
    let turns = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .max(2);
    // As many long answers as there are turns, their readers stalled: each
    // keeps its turn while it waits for its reader.
    let mut stalled = Vec::new();
    for _ in 0..turns {
        let resp = sb
            .http
            .get(sb.url(&a_year_of_positions()))
            .header("x-access-token", &sb.token)
            .send()
            .await
            .expect("answered");
        assert_eq!(resp.status(), StatusCode::OK);
        stalled.push(resp);
    }
    // One more heavy request, however short, waits for a turn.
    let received = sb.running.request_count();
    let (http, url, token) = (
        sb.http.clone(),
        sb.url(&format!(
            "/v2/fleet/equipments/1001/faults?{}",
            common::window_query(common::now() - 86_400, common::now())
        )),
        sb.token.clone(),
    );
    let mut waiting = tokio::spawn(async move {
        let resp = http
            .get(url)
            .header("x-access-token", token)
            .send()
            .await
            .expect("answered");
        (
            resp.status(),
            resp.json::<Value>().await.unwrap_or(Value::Null),
        )
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    while sb.running.request_count() == received {
        assert!(Instant::now() < deadline, "the request arrives");
        tokio::task::yield_now().await;
    }
    let early = tokio::time::timeout(Duration::from_millis(500), &mut waiting).await;
    assert!(
        early.is_err(),
        "answered while all {turns} turns were taken: {early:?}"
    );
    // A stalled reader leaves: its turn goes to the one waiting, which is
    // answered in full (not refused for load).
    drop(stalled.pop());
    let (status, body) = tokio::time::timeout(Duration::from_secs(60), waiting)
        .await
        .expect("answered once a turn is free")
        .expect("the task ran");
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["data"]["rows"].is_array(), "{body}");
}
