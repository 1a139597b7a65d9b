//! The sandbox's answers are dated by its own clock, so a client can tell
//! what is final by the service's time rather than its own.

use fleetview_testkit as common;

use fleetview_api::service_time::parse_http_date;
use fleetview_sandbox::simulate::FIRST_ID;
use fleetview_sandbox::{Clock, ManualClock};

/// The `Date` of the answer to a GET (with the sandbox's token or none).
async fn date_of(sb: &common::Sandbox, path: &str, token: bool) -> Option<i64> {
    let mut req = sb.http.get(sb.url(path));
    if token {
        req = req.header("x-access-token", &sb.token);
    }
    let resp = req.send().await.expect("sent");
    resp.headers()
        .get(reqwest::header::DATE)
        .and_then(|v| v.to_str().ok())
        .and_then(parse_http_date)
}

#[tokio::test]
async fn the_date_header_follows_the_sandboxs_clock() {
    let hand = ManualClock::new(common::now());
    let sb = common::start_with(common::fixed_config().clock(Clock::Manual(hand.clone()))).await;
    let faults = format!("/v2/fleet/equipments/{FIRST_ID}/faults");
    assert_eq!(date_of(&sb, &faults, true).await, Some(common::now()));
    // Refusals too.
    assert_eq!(date_of(&sb, &faults, false).await, Some(common::now()));
    hand.advance(3 * 3600 + 7);
    assert_eq!(
        date_of(&sb, "/v2/fleet/equipments", true).await,
        Some(common::now() + 3 * 3600 + 7)
    );

    // A fixed clock dates every answer at its instant.
    let fixed = common::start().await;
    assert_eq!(date_of(&fixed, &faults, true).await, Some(common::now()));
}
