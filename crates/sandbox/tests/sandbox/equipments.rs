//! The sandbox's operations beyond `fleet-service.md`, as the real service
//! has them (D1, D2): the API-key login, the fleet's identities and their
//! snapshots.

use fleetview_testkit as common;

use std::collections::BTreeSet;

use common::{Sandbox, start, window_query};
use fleetview_api::equipment::{Entreprise, EquipmentRecord, EquipmentSnapshot, LoginAnswer};
use fleetview_api::model::{Envelope, Page};
use fleetview_api::time::parse_wire;
use fleetview_sandbox::simulate::FIRST_ID;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

fn assert_message(status: StatusCode, body: &Value, expected: StatusCode, what: &str) {
    assert_eq!(status, expected, "{what}: {body}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{what}: error body must be {{message}}, got {body}"
    );
}

async fn post(sb: &Sandbox, path: &str, body: Value) -> (StatusCode, Value) {
    sb.call_as(None, Method::POST, path, Some(body)).await
}

// ------------------------------------------------------------------ login

#[tokio::test]
async fn the_demo_api_key_logs_in_and_says_who_it_is() {
    let sb = start().await;
    let (status, body) = post(&sb, "/login", json!({"name": "demo", "apiKey": "demo"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["id"], json!(1), "{body}");
    assert_eq!(body["admin"], json!(false));
    let answer: LoginAnswer = serde_json::from_value(body).expect("a LoginAnswer");
    let user = answer.user();
    assert!(
        user.name.as_deref().is_some_and(|n| n.contains(' ')),
        "a first and a last name: {user:?}"
    );
    assert!(user.email.as_deref().is_some_and(|e| e.contains('@')));
    // The token opens the other routes.
    let (status, _) = sb
        .call_as(
            Some(&answer.token),
            Method::GET,
            "/catalog/dataSources",
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_wrong_name_or_key_is_401_and_a_missing_one_400_naming_it() {
    let sb = start().await;
    for body in [
        json!({"name": "demo", "apiKey": "n0t-the-key"}),
        json!({"name": "n0t-the-name", "apiKey": "demo"}),
        json!({"name": "", "apiKey": ""}),
    ] {
        let (status, resp) = post(&sb, "/login", body.clone()).await;
        assert_message(status, &resp, StatusCode::UNAUTHORIZED, &body.to_string());
        assert!(!resp.to_string().contains("n0t-the"), "{resp}");
    }
    for (body, missing) in [
        (json!({"apiKey": "s3cret-key"}), vec!["name"]),
        (json!({"name": "s3cret-name"}), vec!["apiKey"]),
        (json!({}), vec!["name", "apiKey"]),
        (
            json!({"username": "demo", "password": "demo"}),
            vec!["name", "apiKey"],
        ),
    ] {
        let (status, resp) = post(&sb, "/login", body.clone()).await;
        assert_message(status, &resp, StatusCode::BAD_REQUEST, &body.to_string());
        let message = resp["message"].as_str().unwrap_or_default();
        for field in missing {
            assert!(message.contains(field), "{body}: {message}");
        }
        assert!(!message.contains("s3cret"), "{message}");
    }
    // Values of the wrong type are named, never echoed.
    let (status, resp) = post(&sb, "/login", json!({"name": 12345, "apiKey": "demo"})).await;
    assert_message(
        status,
        &resp,
        StatusCode::BAD_REQUEST,
        "a number for a name",
    );
    assert!(!resp.to_string().contains("12345"), "{resp}");
}

#[tokio::test]
async fn the_auth_login_alias_answers_the_same_shape() {
    let sb = start().await;
    let (status, body) = post(
        &sb,
        "/auth/login",
        json!({"username": "demo", "password": "demo"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, by_key) = post(&sb, "/login", json!({"name": "demo", "apiKey": "demo"})).await;
    let strip = |mut v: Value| {
        v.as_object_mut().map(|o| o.remove("token"));
        v
    };
    assert_eq!(strip(body.clone()), strip(by_key), "same user, same shape");
    assert!(body["token"].as_str().is_some_and(|t| !t.is_empty()));
    let (status, resp) = post(
        &sb,
        "/auth/login",
        json!({"username": "demo", "password": "nope"}),
    )
    .await;
    assert_message(status, &resp, StatusCode::UNAUTHORIZED, "bad password");
}

#[tokio::test]
async fn successful_logins_are_counted_on_both_routes() {
    let sb = start().await;
    // `start` logged in once.
    assert_eq!(sb.running.login_count(), 1);
    post(&sb, "/login", json!({"name": "demo", "apiKey": "demo"})).await;
    assert_eq!(sb.running.login_count(), 2);
    post(&sb, "/login", json!({"name": "demo", "apiKey": "nope"})).await;
    post(&sb, "/login", json!({"name": "demo"})).await;
    post(
        &sb,
        "/auth/login",
        json!({"username": "x", "password": "demo"}),
    )
    .await;
    assert_eq!(sb.running.login_count(), 2, "failures are not logins");
    post(
        &sb,
        "/auth/login",
        json!({"username": "demo", "password": "demo"}),
    )
    .await;
    assert_eq!(sb.running.login_count(), 3);
}

// ------------------------------------------------------------- identities

/// Every record matching `query`, read a page of `limit` at a time; every
/// page's `total` must be the count of them.
async fn read_all(sb: &Sandbox, query: &str, limit: usize) -> Vec<EquipmentRecord> {
    let mut all: Vec<EquipmentRecord> = Vec::new();
    let mut totals = BTreeSet::new();
    loop {
        let path = format!(
            "/v2/fleet/equipments?limit={limit}&offset={}&{query}",
            all.len()
        );
        let page: Envelope<Page<EquipmentRecord>> = sb.get_ok(&path).await;
        totals.insert(page.data.total);
        assert!(page.data.rows.len() <= limit, "{path}");
        if page.data.rows.is_empty() {
            break;
        }
        all.extend(page.data.rows);
    }
    assert_eq!(
        totals.into_iter().collect::<Vec<_>>(),
        vec![all.len() as i64],
        "{query}: every page's total is the count of matches"
    );
    all
}

fn contains(field: &Option<String>, needle: &str) -> bool {
    field
        .as_deref()
        .is_some_and(|f| f.to_lowercase().contains(&needle.to_lowercase()))
}

fn matches(r: &EquipmentRecord, needle: &str) -> bool {
    contains(&r.name, needle)
        || contains(&r.make, needle)
        || contains(&r.model, needle)
        || contains(&r.serial_number, needle)
}

#[tokio::test]
async fn paging_by_seven_reads_every_machine_once_with_its_identity() {
    let sb = start().await;
    let all = read_all(&sb, "", 7).await;
    let ids: Vec<i64> = all.iter().map(|r| r.id).collect();
    assert_eq!(ids, (FIRST_ID..FIRST_ID + 60).collect::<Vec<_>>());
    for r in &all {
        for field in [&r.name, &r.make, &r.model, &r.serial_number, &r.category] {
            assert!(field.as_deref().is_some_and(|f| !f.is_empty()), "{r:?}");
        }
        assert!(r.year.is_some_and(|y| (1995..=2024).contains(&y)), "{r:?}");
        assert!(r.entreprise.as_ref().and_then(Entreprise::name).is_some());
    }
    let categories: BTreeSet<&str> = all.iter().filter_map(|r| r.category.as_deref()).collect();
    for class in [
        "Excavator",
        "Wheel loader",
        "Road truck",
        "Crane",
        "Generator",
    ] {
        assert!(categories.contains(class), "{categories:?}");
    }
    let companies: BTreeSet<&str> = all
        .iter()
        .filter_map(|r| r.entreprise.as_ref().and_then(Entreprise::name))
        .collect();
    assert!((3..=10).contains(&companies.len()), "{companies:?}");
    // The default page is the first 20; the answer is the same every time.
    let first: Envelope<Page<EquipmentRecord>> = sb.get_ok("/v2/fleet/equipments").await;
    assert_eq!(first.data.total, 60);
    assert_eq!(first.data.rows, all[..20].to_vec());
    let again = start().await;
    assert_eq!(read_all(&again, "", 50).await, all, "deterministic");
}

#[tokio::test]
async fn search_narrows_by_make_model_or_serial_whatever_the_case() {
    let sb = start().await;
    let all = read_all(&sb, "", 50).await;
    let truck = all.iter().find(|r| r.id == FIRST_ID + 2).expect("a truck");
    let serial = truck.serial_number.clone().unwrap_or_default();
    let name = truck.name.clone().unwrap_or_default();
    let needles = [
        truck.make.clone().unwrap_or_default().to_uppercase(),
        truck.model.clone().unwrap_or_default().to_lowercase(),
        serial[3..serial.len() - 1].to_lowercase(),
        // Its site, which its name ends with.
        name.rsplit('(')
            .next()
            .unwrap_or_default()
            .trim_end_matches(')')
            .to_uppercase(),
    ];
    for needle in needles {
        let query = format!("search={}", urlencode(&needle));
        let found = read_all(&sb, &query, 3).await;
        let expected: Vec<EquipmentRecord> = all
            .iter()
            .filter(|r| matches(r, &needle))
            .cloned()
            .collect();
        assert_eq!(found, expected, "search {needle:?}");
        assert!(found.iter().any(|r| r.id == truck.id), "{needle:?}");
        assert!(found.len() < all.len(), "{needle:?} narrows");
    }
    assert!(read_all(&sb, "search=no-such-machine", 5).await.is_empty());
    assert_eq!(read_all(&sb, "search=", 50).await, all, "empty: all");
}

fn urlencode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

#[tokio::test]
async fn a_bad_page_is_400_and_no_token_401() {
    let sb = start().await;
    for query in [
        "limit=51",
        "limit=0",
        "offset=-1",
        "limit=ten",
        "offset=1.5",
    ] {
        for path in ["/v2/fleet/equipments", "/v2/fleet/equipments/snapshot"] {
            let (status, body) = sb.get(&format!("{path}?{query}")).await;
            assert_message(status, &body, StatusCode::BAD_REQUEST, query);
        }
    }
    let (status, body) = sb
        .call_as(None, Method::GET, "/v2/fleet/equipments", None)
        .await;
    assert_message(status, &body, StatusCode::UNAUTHORIZED, "no token");
    let (status, body) = sb.call(Method::POST, "/v2/fleet/equipments", None).await;
    assert_message(status, &body, StatusCode::METHOD_NOT_ALLOWED, "POST");
}

#[tokio::test]
async fn one_record_by_id_is_the_listed_one_else_404_or_400() {
    let sb = start().await;
    let all = read_all(&sb, "", 50).await;
    for r in [&all[0], &all[6], &all[59]] {
        let one: Envelope<EquipmentRecord> =
            sb.get_ok(&format!("/v2/fleet/equipments/{}", r.id)).await;
        assert_eq!(&one.data, r);
    }
    for (path, expected) in [
        ("/v2/fleet/equipments/999999", StatusCode::NOT_FOUND),
        ("/v2/fleet/equipments/1000", StatusCode::NOT_FOUND),
        ("/v2/fleet/equipments/abc", StatusCode::BAD_REQUEST),
        ("/v2/fleet/equipments/1.5", StatusCode::BAD_REQUEST),
    ] {
        let (status, body) = sb.get(path).await;
        assert_message(status, &body, expected, path);
    }
    // The fixed paths stay what they were.
    let (status, body) = sb.get("/v2/fleet/equipments/history?limit=1").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        body["data"]["since"].is_string(),
        "the fleet history: {body}"
    );
}

// -------------------------------------------------------------- snapshots

/// Each snapshot member, the single-kind endpoint it is the last row of,
/// and the members it carries beside `date`.
const MEMBERS: [(&str, &str, &[&str]); 13] = [
    ("lastPosition", "positions", &["latitude", "longitude"]),
    ("fuelRemaining", "fuelRemaining", &["percent"]),
    (
        "cumulativeOperatingHours",
        "cumulativeOperatingHours",
        &["hour", "usageHours"],
    ),
    ("cumulativeIdleHours", "cumulativeIdleHours", &["hours"]),
    (
        "cumulativeDistance",
        "cumulativeDistance",
        &["odometer", "unit"],
    ),
    (
        "cumulativeFuelUsed",
        "cumulativeFuel",
        &["fuelUsed", "unit"],
    ),
    ("cumulativeLoadCount", "cumulativeLoadCount", &["count"]),
    (
        "cumulativePayloadTotal",
        "cumulativePayloadTotal",
        &["payload", "payloadUnit"],
    ),
    ("peakDailySpeed", "peakDailySpeed", &["speed", "speedUnit"]),
    (
        "averageDailyEngineLoadFactor",
        "averageDailyEngineLoadFactor",
        &["percent"],
    ),
    ("DEFRemainingRatio", "defRemainingRatio", &["percent"]),
    (
        "cumulativeActiveRegenerationHours",
        "cumulativeActiveRegenerationHours",
        &["hours"],
    ),
    (
        "cumulativePowerTakeOffHours",
        "cumulativePowerTakeOffHours",
        &["hours"],
    ),
];

/// The last row of a kind over a window ending at the sandbox's now.
async fn last_row(sb: &Sandbox, id: i64, kind: &str, since: i64) -> Option<Value> {
    let path = format!(
        "/v2/fleet/equipments/{id}/{kind}?{}",
        window_query(since, common::now())
    );
    let (status, body) = sb.get(&path).await;
    assert_eq!(status, StatusCode::OK, "{path}: {body}");
    body["data"]["rows"].as_array()?.last().cloned()
}

#[tokio::test]
async fn each_snapshot_member_is_the_last_row_of_its_kind() {
    let sb = start().await;
    let now = common::now();
    let (excavator, loader, truck, telehandler, electric) = (
        FIRST_ID,
        FIRST_ID + 1,
        FIRST_ID + 2,
        FIRST_ID + 3,
        FIRST_ID + 6,
    );
    let mut seen = BTreeSet::new();
    for id in [excavator, loader, truck, telehandler, electric] {
        let (status, snap) = sb.get(&format!("/v2/fleet/equipments/{id}/snapshot")).await;
        assert_eq!(status, StatusCode::OK, "{snap}");
        let snap = &snap["data"];
        assert_eq!(snap["id"], json!(id));
        for (member, kind, fields) in MEMBERS {
            let Some(got) = snap.get(member) else {
                // Absent: the kind has no row in the longest window asked.
                let row = last_row(&sb, id, kind, now - 366 * 86_400).await;
                assert_eq!(row, None, "{id} {member} is absent");
                continue;
            };
            seen.insert(member);
            let date = got["date"].as_str().and_then(|d| parse_wire(d).ok());
            let date = date.unwrap_or_else(|| panic!("{id} {member}: {got}"));
            assert!(date <= now, "{id} {member}: {got}");
            let row = last_row(&sb, id, kind, date - 86_400).await;
            let row = row.unwrap_or_else(|| panic!("{id} {member}: no {kind} row"));
            assert_eq!(row["date"], got["date"], "{id} {member}: {got} vs {row}");
            let mut keys: Vec<&str> = got
                .as_object()
                .map(|o| o.keys().map(String::as_str).collect())
                .unwrap_or_default();
            keys.sort_unstable();
            let mut expected = [&["date"][..], fields].concat();
            expected.sort_unstable();
            assert_eq!(keys, expected, "{id} {member}: {got}");
            for field in fields {
                // A count is read as a number: 90002.0 is 90002.
                let same = match (got[field].as_f64(), row[field].as_f64()) {
                    (Some(a), Some(b)) => a == b,
                    _ => got[field] == row[field] && !row[field].is_null(),
                };
                assert!(same, "{id} {member}.{field}: {got} vs {row}");
            }
        }
        // Every machine was somewhere and ran at some point.
        assert!(snap.get("lastPosition").is_some(), "{id}: {snap}");
        assert!(snap.get("cumulativeOperatingHours").is_some(), "{id}");
    }
    assert_eq!(
        seen.len(),
        MEMBERS.len(),
        "every member was checked: {seen:?}"
    );
    // An electric machine has no fuel, DEF or regeneration.
    let (_, ev) = sb
        .get(&format!("/v2/fleet/equipments/{electric}/snapshot"))
        .await;
    for member in ["fuelRemaining", "cumulativeFuelUsed", "DEFRemainingRatio"] {
        assert!(ev["data"].get(member).is_none(), "{member}: {ev}");
    }
    // The typed snapshot reads the same answer.
    let typed: Envelope<EquipmentSnapshot> = sb
        .get_ok(&format!("/v2/fleet/equipments/{truck}/snapshot"))
        .await;
    assert!(
        typed
            .data
            .cumulative_distance
            .and_then(|d| d.odometer)
            .is_some()
    );
}

#[tokio::test]
async fn snapshot_pages_hold_each_machines_own_snapshot() {
    let sb = start().await;
    let mut rows: Vec<Value> = Vec::new();
    loop {
        let path = format!(
            "/v2/fleet/equipments/snapshot?limit=7&offset={}",
            rows.len()
        );
        let (status, page) = sb.get(&path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {page}");
        assert_eq!(page["data"]["total"], json!(60));
        let page_rows = page["data"]["rows"].as_array().cloned().unwrap_or_default();
        if page_rows.is_empty() {
            break;
        }
        rows.extend(page_rows);
    }
    let ids: Vec<i64> = rows.iter().filter_map(|r| r["id"].as_i64()).collect();
    assert_eq!(ids, (FIRST_ID..FIRST_ID + 60).collect::<Vec<_>>());
    for row in &rows {
        let (_, one) = sb
            .get(&format!("/v2/fleet/equipments/{}/snapshot", row["id"]))
            .await;
        assert_eq!(&one["data"], row);
    }
    // A search narrows the snapshots as it does the list.
    let list: Envelope<Page<EquipmentRecord>> = sb
        .get_ok("/v2/fleet/equipments?search=liebherr&limit=50")
        .await;
    let found: Envelope<Page<EquipmentSnapshot>> = sb
        .get_ok("/v2/fleet/equipments/snapshot?search=LIEBHERR&limit=50")
        .await;
    assert!(list.data.total > 0 && list.data.total < 60);
    assert_eq!(found.data.total, list.data.total);
    assert_eq!(
        found.data.rows.iter().map(|s| s.id).collect::<Vec<_>>(),
        list.data.rows.iter().map(|r| r.id).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn snapshot_paths_are_not_ids_or_data_kinds() {
    let sb = start().await;
    let (status, body) = sb.get("/v2/fleet/equipments/snapshot?limit=1").await;
    assert_eq!(status, StatusCode::OK, "a page, not an id: {body}");
    assert_eq!(body["data"]["rows"][0]["id"], json!(FIRST_ID));
    let (status, body) = sb
        .get(&format!("/v2/fleet/equipments/{FIRST_ID}/snapshot"))
        .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "a snapshot, not a data kind: {body}"
    );
    assert!(body["data"]["cumulativeOperatingHours"].is_object());
    for (path, expected) in [
        (
            "/v2/fleet/equipments/999999/snapshot",
            StatusCode::NOT_FOUND,
        ),
        ("/v2/fleet/equipments/abc/snapshot", StatusCode::BAD_REQUEST),
    ] {
        let (status, body) = sb.get(path).await;
        assert_message(status, &body, expected, path);
    }
    let (status, body) = sb
        .call_as(None, Method::GET, "/v2/fleet/equipments/snapshot", None)
        .await;
    assert_message(status, &body, StatusCode::UNAUTHORIZED, "no token");
}
