//! The sandbox's operations beyond `fleet-service.md`, as the real service
//! has them (D1, D2): the API-key login, the fleet's identities and their
//! snapshots.

mod common;

use common::{Sandbox, start};
use fleetview::api::equipment::LoginAnswer;
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
