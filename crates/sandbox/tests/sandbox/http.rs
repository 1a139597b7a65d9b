//! The sandbox over HTTP: authentication, errors (D3), pagination, windows,
//! data kinds, determinism and the catalog.

use fleetview_testkit as common;

use std::collections::BTreeSet;

use common::{Sandbox, start, start_with, window_query};
use fleetview_api::DataKind;
use fleetview_api::model::*;
use fleetview_sandbox::simulate::FIRST_ID;
use fleetview_sandbox::{Clock, ManualClock};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// Every operation of the service, with a path that exists.
fn every_operation() -> Vec<(Method, String, Option<Value>)> {
    let create = json!({"integrationName": "x", "dataSourceCode": "SAMSARA",
                        "integrationCredentials": {"apiToken": "t"}});
    let mut ops = vec![
        (Method::GET, "/v2/fleet/equipments/history".to_owned(), None),
        (Method::GET, "/v2/fleet/equipments".to_owned(), None),
        (
            Method::GET,
            format!("/v2/fleet/equipments/{FIRST_ID}"),
            None,
        ),
        (
            Method::GET,
            "/v2/fleet/equipments/snapshot".to_owned(),
            None,
        ),
        (
            Method::GET,
            format!("/v2/fleet/equipments/{FIRST_ID}/snapshot"),
            None,
        ),
        (
            Method::GET,
            format!("/v2/fleet/equipments/{FIRST_ID}/activities"),
            None,
        ),
        (
            Method::GET,
            format!("/v2/fleet/equipments/{FIRST_ID}/faults"),
            None,
        ),
        (
            Method::GET,
            format!("/v2/fleet/equipments/{FIRST_ID}/positions"),
            None,
        ),
        (
            Method::GET,
            format!("/v2/fleet/equipments/{FIRST_ID}/history"),
            None,
        ),
        (Method::GET, "/catalog/dataSources".to_owned(), None),
        (Method::GET, "/catalog/integrations".to_owned(), None),
        (
            Method::POST,
            "/catalog/integrations".to_owned(),
            Some(create),
        ),
        (
            Method::PATCH,
            "/catalog/integrations/1".to_owned(),
            Some(json!({"integrationName": "y"})),
        ),
        (Method::DELETE, "/catalog/integrations/1".to_owned(), None),
        (
            Method::POST,
            "/catalog/integrations/1/activate".to_owned(),
            None,
        ),
        (
            Method::POST,
            "/catalog/integrations/1/deactivate".to_owned(),
            None,
        ),
    ];
    for kind in DataKind::ALL {
        ops.push((
            Method::GET,
            format!("/v2/fleet/equipments/{FIRST_ID}/{}", kind.path_segment()),
            None,
        ));
    }
    ops
}

fn assert_message(status: StatusCode, body: &Value, expected: StatusCode, what: &str) {
    assert_eq!(status, expected, "{what}: {body}");
    let msg = body.get("message").and_then(Value::as_str);
    assert!(
        msg.is_some_and(|m| !m.is_empty()),
        "{what}: error body must be {{message}}, got {body}"
    );
}

#[tokio::test]
async fn every_route_refuses_missing_malformed_expired_and_foreign_tokens() {
    let sb = start().await;
    // A token signed by another sandbox (another key).
    let other = start().await;
    // A token that expires: its sandbox's clock is moved past its lifetime.
    let hand = ManualClock::new(common::now());
    let expiring = start_with(
        common::fixed_config()
            .clock(Clock::Manual(hand.clone()))
            .token_ttl_secs(1),
    )
    .await;
    let (status, _) = expiring.get("/catalog/dataSources").await;
    assert_eq!(status, StatusCode::OK, "valid before it expires");
    hand.advance(2);

    for (method, path, body) in every_operation() {
        for (at, token, what) in [
            (&sb, None, "no token"),
            (&sb, Some("garbage"), "malformed token"),
            (
                &sb,
                Some(other.token.as_str()),
                "token signed by another key",
            ),
            // At the sandbox that signed it, so that expiry is what fails.
            (&expiring, Some(expiring.token.as_str()), "expired token"),
        ] {
            let (status, resp) = at.call_as(token, method.clone(), &path, body.clone()).await;
            assert_message(
                status,
                &resp,
                StatusCode::UNAUTHORIZED,
                &format!("{method} {path} with {what}"),
            );
            if what == "expired token" {
                assert_eq!(resp["message"], "the access token has expired");
            }
        }
    }
    // The expired token really was valid at its own sandbox before expiry:
    // a fresh one from the same sandbox works.
    let fresh = common::login(&expiring.http, &expiring.base).await;
    let (status, _) = expiring
        .call_as(Some(&fresh), Method::GET, "/catalog/dataSources", None)
        .await;
    assert_eq!(status, StatusCode::OK);
    // Wrong credentials do not log in.
    let (status, body) = sb
        .call_as(
            None,
            Method::POST,
            "/auth/login",
            Some(json!({"username": "demo", "password": "nope"})),
        )
        .await;
    assert_message(status, &body, StatusCode::UNAUTHORIZED, "bad password");
}

#[tokio::test]
async fn each_d3_error_has_its_status_and_a_message() {
    let sb = start().await;
    let eq = format!("/v2/fleet/equipments/{FIRST_ID}");
    let cases: Vec<(Method, String, Option<Value>, StatusCode)> = vec![
        (
            Method::GET,
            format!("{eq}/positions?since=2025-06-01"),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::GET,
            format!("{eq}/positions?until=2025-06-01T00:00:00.000Z"),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::GET,
            format!("{eq}/positions?since=2025-02-30T00:00:00Z"),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::GET,
            format!("{eq}/faults?since=2025-06-02T00:00:00Z&until=2025-06-01T00:00:00Z"),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::GET,
            "/v2/fleet/equipments/history?limit=0".into(),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::GET,
            "/v2/fleet/equipments/history?limit=51".into(),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::GET,
            "/v2/fleet/equipments/history?limit=ten".into(),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::GET,
            "/v2/fleet/equipments/history?offset=-1".into(),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::GET,
            "/v2/fleet/equipments/abc/positions".into(),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::GET,
            "/v2/fleet/equipments/1.5/faults".into(),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::GET,
            format!("{eq}/evEnergyUsed"),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::GET,
            format!("{eq}/fuelremaining"),
            None,
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::GET,
            "/v2/fleet/equipments/999999/positions".into(),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            Method::GET,
            "/v2/fleet/equipments/999999/history".into(),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            Method::GET,
            "/v2/fleet/nothing".into(),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            Method::GET,
            "/catalog/integrations/1/extra".into(),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            Method::DELETE,
            "/catalog/dataSources".into(),
            None,
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            Method::GET,
            "/catalog/integrations/1/activate".into(),
            None,
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            Method::POST,
            format!("{eq}/positions"),
            None,
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            Method::PATCH,
            "/catalog/integrations/abc".into(),
            Some(json!({"integrationName": "n"})),
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::DELETE,
            "/catalog/integrations/424242".into(),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            Method::POST,
            "/catalog/integrations/424242/activate".into(),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            Method::POST,
            "/catalog/integrations/424242/deactivate".into(),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            Method::PATCH,
            "/catalog/integrations/424242".into(),
            Some(json!({"integrationName": "n"})),
            StatusCode::NOT_FOUND,
        ),
        // Incomplete bodies.
        (
            Method::POST,
            "/catalog/integrations".into(),
            Some(json!({"dataSourceCode": "SAMSARA"})),
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::PATCH,
            "/catalog/integrations/1".into(),
            Some(json!({})),
            StatusCode::BAD_REQUEST,
        ),
        // Credential keys that do not match the source's list: missing, extra.
        (
            Method::POST,
            "/catalog/integrations".into(),
            Some(json!({"integrationName": "n", "dataSourceCode": "GEOTAB",
                        "integrationCredentials": {"username": "u", "password": "p"}})),
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::POST,
            "/catalog/integrations".into(),
            Some(json!({"integrationName": "n", "dataSourceCode": "SAMSARA",
                        "integrationCredentials": {"apiToken": "t", "extra": "e"}})),
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::PATCH,
            "/catalog/integrations/1".into(),
            Some(json!({"integrationName": "n", "integrationCredentials": {"apiToken": "t"}})),
            StatusCode::BAD_REQUEST,
        ),
        // Unknown data source.
        (
            Method::POST,
            "/catalog/integrations".into(),
            Some(json!({"integrationName": "n", "dataSourceCode": "NOPE",
                        "integrationCredentials": {"apiToken": "t"}})),
            StatusCode::BAD_REQUEST,
        ),
    ];
    for (method, path, body, expected) in cases {
        let (status, resp) = sb.call(method.clone(), &path, body.clone()).await;
        assert_message(
            status,
            &resp,
            expected,
            &format!("{method} {path} {body:?}"),
        );
    }

    // A malformed JSON body, sent raw.
    let resp = sb
        .http
        .post(sb.url("/catalog/integrations"))
        .header("x-access-token", &sb.token)
        .header("content-type", "application/json")
        .body("{\"integrationName\": \"n\", ")
        .send()
        .await
        .expect("sent");
    let status = resp.status();
    let body: Value = resp.json().await.unwrap_or(Value::Null);
    assert_message(status, &body, StatusCode::BAD_REQUEST, "malformed JSON");
}

#[tokio::test]
async fn error_messages_never_echo_credential_values() {
    let sb = start().await;
    let secret = "sup3r-s3cret-value";
    for body in [
        json!({"integrationName": "n", "dataSourceCode": "SAMSARA", "integrationCredentials": secret}),
        json!({"integrationName": "n", "dataSourceCode": "SAMSARA", "integrationCredentials": {"apiToken": secret, "x": secret}}),
        json!({"integrationName": "n", "dataSourceCode": "NOPE", "integrationCredentials": {"apiToken": secret}}),
    ] {
        let (status, resp) = sb
            .call(Method::POST, "/catalog/integrations", Some(body))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(!resp.to_string().contains(secret), "{resp}");
    }
}

#[tokio::test]
async fn fleet_history_pages_by_limit_and_offset() {
    let sb = start().await;
    let w = window_query(common::now() - 3600, common::now());
    let page: Envelope<FleetHistory> = sb
        .get_ok(&format!(
            "/v2/fleet/equipments/history?limit=10&offset=10&{w}"
        ))
        .await;
    let ids: Vec<i64> = page.data.rows.iter().map(|r| r.id).collect();
    let expected: Vec<i64> = (FIRST_ID + 10..FIRST_ID + 20).collect();
    assert_eq!(ids, expected, "limit 10 offset 10 returns items 11-20");
    assert_eq!(page.data.total, 60);

    // Paging with limit 10 reads every equipment exactly once.
    let mut seen = Vec::new();
    let mut offset = 0;
    loop {
        let page: Envelope<FleetHistory> = sb
            .get_ok(&format!(
                "/v2/fleet/equipments/history?limit=10&offset={offset}&{w}"
            ))
            .await;
        if page.data.rows.is_empty() {
            break;
        }
        seen.extend(page.data.rows.iter().map(|r| r.id));
        offset += 10;
    }
    let unique: BTreeSet<i64> = seen.iter().copied().collect();
    assert_eq!(seen.len(), 60);
    assert_eq!(unique.len(), 60);

    // Defaults: limit 20, offset 0.
    let page: Envelope<FleetHistory> = sb
        .get_ok(&format!("/v2/fleet/equipments/history?{w}"))
        .await;
    assert_eq!(page.data.rows.len(), 20);
    assert_eq!(page.data.rows[0].id, FIRST_ID);
    let page: Envelope<FleetHistory> = sb
        .get_ok(&format!(
            "/v2/fleet/equipments/history?limit=50&offset=55&{w}"
        ))
        .await;
    assert_eq!(page.data.rows.len(), 5);
}

#[tokio::test]
async fn default_windows_are_yesterday_to_end_of_today_and_echoed() {
    let sb = start().await;
    for path in [
        format!("/v2/fleet/equipments/{FIRST_ID}/positions"),
        format!("/v2/fleet/equipments/{FIRST_ID}/cumulativeOperatingHours"),
        "/v2/fleet/equipments/history?limit=1".to_owned(),
    ] {
        let (_, body) = sb.get(&path).await;
        assert_eq!(body["data"]["since"], "2025-06-17T00:00:00Z", "{path}");
        assert_eq!(body["data"]["until"], "2025-06-18T23:59:59Z", "{path}");
    }
    // One end given: the other is defaulted; the given one is echoed as is.
    let (_, body) = sb
        .get(&format!(
            "/v2/fleet/equipments/{FIRST_ID}/faults?since=2025-06-01T06:00:00Z"
        ))
        .await;
    assert_eq!(body["data"]["since"], "2025-06-01T06:00:00Z");
    assert_eq!(body["data"]["until"], "2025-06-18T23:59:59Z");
    // Rows fall inside the window actually used and nothing is after "now".
    let s: Envelope<SeriesData<PositionRow>> = sb
        .get_ok(&format!("/v2/fleet/equipments/{}/positions", FIRST_ID + 2))
        .await;
    assert!(!s.data.rows.is_empty());
    assert!(
        s.data
            .rows
            .iter()
            .all(|r| r.date.0 >= s.data.since.0 && r.date.0 <= common::now())
    );
    assert!(!s.data.serial_number.is_empty());
}

/// Ids of one machine of each kind in the default fleet (by index).
const DIESEL_EXCAVATOR: i64 = FIRST_ID;
const ELECTRIC: i64 = FIRST_ID + 6;

#[tokio::test]
async fn every_data_kind_answers_and_some_machine_reports_it() {
    let sb = start().await;
    let w = window_query(common::now() - 7 * 86_400, common::now());
    let fleet: Vec<i64> = (FIRST_ID..FIRST_ID + 20).collect();
    for kind in DataKind::ALL {
        let mut reported = false;
        for id in &fleet {
            let path = format!("/v2/fleet/equipments/{id}/{}?{w}", kind.path_segment());
            let (status, body) = sb.get(&path).await;
            assert_eq!(status, StatusCode::OK, "{path}: {body}");
            let rows = body["data"]["rows"].as_array().expect("rows array");
            assert_eq!(
                body["data"]["total"].as_u64(),
                Some(rows.len() as u64),
                "{path}"
            );
            assert_eq!(body["data"]["id"].as_i64(), Some(*id));
            for row in rows {
                let has_date = row.get("date").or_else(|| row.get("dateStart")).is_some();
                assert!(has_date, "{path}: every row has a date: {row}");
            }
            if kind.is_ev() && *id == DIESEL_EXCAVATOR {
                assert!(rows.is_empty(), "{kind} on a diesel machine has no rows");
            }
            reported |= !rows.is_empty();
        }
        assert!(reported, "some machine in the fleet reports {kind}");
    }
    // The kind with a space in its name, URL-encoded, answers energy rows.
    let (_, body) = sb
        .get(&format!(
            "/v2/fleet/equipments/{ELECTRIC}/evEnergyUsed%20faults?{w}"
        ))
        .await;
    let first = &body["data"]["rows"][0];
    assert!(
        first["energy"].is_number() && first["unit"] == "kWh",
        "{body}"
    );
}

#[tokio::test]
async fn same_request_same_bytes_across_sandbox_instances() {
    let a = start().await;
    let b = start().await;
    let w = window_query(common::now() - 3 * 86_400, common::now());
    for path in [
        format!("/v2/fleet/equipments/{}/positions?{w}", FIRST_ID + 2),
        format!("/v2/fleet/equipments/{FIRST_ID}/history?{w}"),
        format!("/v2/fleet/equipments/{}/dailyUsages?{w}", FIRST_ID + 1),
        format!("/v2/fleet/equipments/{}/activities?{w}", FIRST_ID + 4),
        format!("/v2/fleet/equipments/history?limit=5&offset=3&{w}"),
    ] {
        let first = a.raw_bytes(&path).await;
        assert_eq!(
            first,
            a.raw_bytes(&path).await,
            "{path} twice on one sandbox"
        );
        assert_eq!(first, b.raw_bytes(&path).await, "{path} on two sandboxes");
    }
}

#[tokio::test]
async fn data_sources_list_credential_names_only() {
    let sb = start().await;
    let list: DataSourceList = sb.get_ok("/catalog/dataSources").await;
    assert!(list.data_sources.len() >= 8);
    let distinct: BTreeSet<Vec<String>> = list
        .data_sources
        .iter()
        .map(|s| s.credentials.clone())
        .collect();
    assert!(
        distinct.len() >= 5,
        "sources have their own credential fields"
    );
}

async fn create(sb: &Sandbox, name: &str) -> i64 {
    let (status, body) = sb
        .call(
            Method::POST,
            "/catalog/integrations",
            Some(
                json!({"integrationName": name, "dataSourceCode": "VOLVO_ACTIVECARE",
                        "integrationCredentials": {"apiKey": "k-123", "customerId": "c-9"}}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["integrationId"].as_i64().expect("integrationId")
}

async fn integration(sb: &Sandbox, id: i64) -> Option<Integration> {
    let list: IntegrationList = sb.get_ok("/catalog/integrations").await;
    list.integrations.into_iter().find(|i| i.id == id)
}

#[tokio::test]
async fn integration_lifecycle_follows_d4() {
    let sb = start().await;
    let id = create(&sb, "Quarry loaders").await;
    let it = integration(&sb, id).await.expect("listed");
    assert_eq!(
        (
            it.name.as_str(),
            it.status.as_str(),
            it.data_source_code.as_str()
        ),
        ("Quarry loaders", "running", "VOLVO_ACTIVECARE")
    );

    for _ in 0..2 {
        let (status, body) = sb
            .call(
                Method::POST,
                &format!("/catalog/integrations/{id}/deactivate"),
                None,
            )
            .await;
        assert_eq!(
            (status, body["integrationId"].as_i64()),
            (StatusCode::OK, Some(id))
        );
        assert_eq!(
            integration(&sb, id).await.map(|i| i.status),
            Some("stopped".into())
        );
    }
    for _ in 0..2 {
        let (status, _) = sb
            .call(
                Method::POST,
                &format!("/catalog/integrations/{id}/activate"),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            integration(&sb, id).await.map(|i| i.status),
            Some("running".into())
        );
    }

    let (status, body) = sb
        .call(
            Method::PATCH,
            &format!("/catalog/integrations/{id}"),
            Some(json!({"integrationName": "Quarry"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body,
        json!({"integrationId": id, "integrationName": "Quarry"})
    );
    let (status, _) = sb
        .call(
            Method::PATCH,
            &format!("/catalog/integrations/{id}"),
            Some(json!({"integrationName": "Quarry", "integrationCredentials": {"apiKey": "k2", "customerId": "c2"}})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        integration(&sb, id).await.map(|i| i.name),
        Some("Quarry".into())
    );

    // Credential values are never returned.
    let (_, all) = sb.get("/catalog/integrations").await;
    assert!(!all.to_string().contains("k-123") && !all.to_string().contains("k2\""));

    let (status, body) = sb
        .call(Method::DELETE, &format!("/catalog/integrations/{id}"), None)
        .await;
    assert_eq!(
        (status, body["integrationId"].as_i64()),
        (StatusCode::OK, Some(id))
    );
    assert!(integration(&sb, id).await.is_none());
    let (status, _) = sb
        .call(Method::DELETE, &format!("/catalog/integrations/{id}"), None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "delete is irreversible");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn forty_concurrent_creates_get_distinct_ids() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sb = start_with(common::fixed_config().data_dir(dir.path())).await;
    let before = sb
        .get_ok::<IntegrationList>("/catalog/integrations")
        .await
        .integrations
        .len();
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..40 {
        let (http, url, token) = (
            sb.http.clone(),
            sb.url("/catalog/integrations"),
            sb.token.clone(),
        );
        tasks.spawn(async move {
            let resp = http
                .post(url)
                .header("x-access-token", token)
                .json(&json!({"integrationName": format!("concurrent {i}"), "dataSourceCode": "SAMSARA",
                              "integrationCredentials": {"apiToken": "t"}}))
                .send()
                .await
                .expect("sent");
            assert_eq!(resp.status(), StatusCode::OK);
            let body: CreateIntegrationResponse = resp.json().await.expect("body");
            body.integration_id.expect("id")
        });
    }
    let ids: Vec<i64> = tasks.join_all().await;
    let unique: BTreeSet<i64> = ids.iter().copied().collect();
    assert_eq!(unique.len(), 40, "{ids:?}");
    let list: IntegrationList = sb.get_ok("/catalog/integrations").await;
    assert_eq!(list.integrations.len(), before + 40);
    for id in &ids {
        assert!(
            list.integrations
                .iter()
                .any(|i| i.id == *id && i.status == "running")
        );
    }
}
