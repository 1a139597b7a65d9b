//! The real service's row shapes (issue 15, item 3): answers written from
//! its documented shapes (`fixtures/real/`, see the README there), served
//! by a stub of the service; the client decodes them, the worker plots
//! them, `fleetview export` writes their instants in UTC to the
//! millisecond, and the app shows them.

use crate::common;

use common::stub::{Routes, Stub};
use fleetview_api::time::{TimeWindow, parse_wire};

/// The machine every fixture is about.
const ID: i64 = 7;
/// The fixtures' day, and "now" on it.
const DAY: &str = "2025-08-20T00:00:00Z";
const NOW: &str = "2025-08-20T15:00:00Z";

fn now() -> i64 {
    parse_wire(NOW).expect("a wire date")
}

/// The fixtures' day: one chunk of every kind's grid, so each route is
/// asked once.
fn day() -> TimeWindow {
    let since = parse_wire(DAY).expect("a wire date");
    TimeWindow {
        since,
        until: since + 86_399,
    }
}

/// Every fixture at its route.
fn routes() -> Routes {
    let eq = format!("/v2/fleet/equipments/{ID}");
    let mut routes = Routes::new()
        .fixture("/v2/fleet/equipments", "equipments.json")
        .fixture("/v2/fleet/equipments/snapshot", "snapshots.json")
        .fixture("/v2/fleet/equipments/history", "fleetHistory.json")
        .get("/catalog/dataSources", r#"{"dataSources":[]}"#)
        .get("/catalog/integrations", r#"{"integrations":[]}"#);
    for kind in [
        "cumulativeOperatingHours",
        "cumulativeIdleHours",
        "cumulativeFuel",
        "fuelRemaining",
        "engineCondition",
        "positions",
        "faults",
        "activities",
    ] {
        routes = routes.fixture(&format!("{eq}/{kind}"), &format!("{kind}.json"));
    }
    routes
}

async fn stub() -> Stub {
    Stub::start(routes()).await
}

mod client;

mod worker;

mod export;

mod plots;

mod discovery;
