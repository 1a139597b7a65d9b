//! What the sandbox refuses or keeps private whatever it is sent: bodies
//! over 2 MB, credential values in error messages, odd integration names,
//! a token at its expiry second, and its files' modes (D13, D14, D11).

use fleetview_testkit as common;

use common::{Sandbox, start, start_with};
use fleetview_sandbox::{Clock, ManualClock};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

fn assert_message(status: StatusCode, body: &Value, expected: StatusCode, what: &str) -> String {
    assert_eq!(status, expected, "{what}: {body}");
    let msg = body.get("message").and_then(Value::as_str).unwrap_or("");
    assert!(
        !msg.is_empty(),
        "{what}: error body must be {{message}}, got {body}"
    );
    msg.to_owned()
}

/// Sends a raw body and returns status, content type and the body as JSON.
async fn post_raw(sb: &Sandbox, path: &str, body: Vec<u8>) -> (StatusCode, String, Value) {
    let resp = sb
        .http
        .post(sb.url(path))
        .header("x-access-token", &sb.token)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("sent");
    let status = resp.status();
    let kind = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let bytes = resp.bytes().await.expect("body read");
    (
        status,
        kind,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn a_body_over_2_mb_gets_413_with_a_json_message() {
    let sb = start().await;
    let name = "n".repeat(3 * 1024 * 1024);
    let big = serde_json::to_vec(
        &json!({"integrationName": name, "dataSourceCode": "SAMSARA",
                                         "integrationCredentials": {"apiToken": "t"}}),
    )
    .expect("json");
    for path in ["/catalog/integrations", "/auth/login", "/login"] {
        let (status, kind, body) = post_raw(&sb, path, big.clone()).await;
        let msg = assert_message(status, &body, StatusCode::PAYLOAD_TOO_LARGE, path);
        assert_eq!(kind, "application/json", "{path}");
        assert!(msg.contains("2 MB"), "{path}: names the limit: {msg}");
    }
    // Just under the limit is read (and refused for its name, not its size).
    let under = serde_json::to_vec(&json!({"integrationName": "n".repeat(1_900_000),
        "dataSourceCode": "SAMSARA", "integrationCredentials": {"apiToken": "t"}}))
    .expect("json");
    let (status, _, body) = post_raw(&sb, "/catalog/integrations", under).await;
    assert_message(status, &body, StatusCode::BAD_REQUEST, "1.9 MB name");
}

#[tokio::test]
async fn credential_values_that_are_not_strings_are_never_echoed() {
    let sb = start().await;
    let secret = "98765432123";
    let bodies = [
        format!(
            r#"{{"integrationName":"n","dataSourceCode":"SAMSARA","integrationCredentials":{{"apiToken":{secret}}}}}"#
        ),
        format!(
            r#"{{"integrationName":"n","dataSourceCode":"SAMSARA","integrationCredentials":{{"apiToken":{secret}.5}}}}"#
        ),
        format!(
            r#"{{"integrationName":"n","dataSourceCode":"SAMSARA","integrationCredentials":{{"apiToken":-{secret}}}}}"#
        ),
        // A string with an escaped quote in it, where a map was expected.
        format!(
            r#"{{"integrationName":"n","dataSourceCode":"SAMSARA","integrationCredentials":"a\"{secret}\"b"}}"#
        ),
    ];
    for body in bodies {
        let (status, _, resp) = post_raw(&sb, "/catalog/integrations", body.clone().into()).await;
        let msg = assert_message(status, &resp, StatusCode::BAD_REQUEST, &body);
        assert!(!msg.contains(secret), "{body} -> {msg}");
        assert!(
            msg.contains("invalid type"),
            "still says what is wrong: {msg}"
        );
    }
    let resp = sb
        .http
        .patch(sb.url("/catalog/integrations/1"))
        .header("x-access-token", &sb.token)
        .header("content-type", "application/json")
        .body(format!(
            r#"{{"integrationName":"n","integrationCredentials":{{"apiKey":"k","customerId":{secret}}}}}"#
        ))
        .send()
        .await
        .expect("sent");
    let status = resp.status();
    let resp: Value = resp.json().await.unwrap_or(Value::Null);
    let msg = assert_message(status, &resp, StatusCode::BAD_REQUEST, "PATCH");
    assert!(!msg.contains(secret), "{msg}");
    // A password that is a number, at login.
    for password in [secret.to_owned(), format!("{secret}e3"), "true".to_owned()] {
        let (status, _, resp) = post_raw(
            &sb,
            "/auth/login",
            format!(r#"{{"username":"demo","password":{password}}}"#).into(),
        )
        .await;
        let msg = assert_message(status, &resp, StatusCode::BAD_REQUEST, &password);
        assert!(!msg.contains(&password), "{password} -> {msg}");
    }
}

#[tokio::test]
async fn integration_names_are_limited_and_have_no_control_characters() {
    let sb = start().await;
    let body = |name: &str| {
        json!({"integrationName": name, "dataSourceCode": "SAMSARA",
               "integrationCredentials": {"apiToken": "t"}})
    };
    let (status, ok) = sb
        .call(
            Method::POST,
            "/catalog/integrations",
            Some(body(&"é".repeat(200))),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "200 characters are fine: {ok}");
    let id = ok["integrationId"].as_i64().expect("id");
    for (name, what) in [
        ("x".repeat(201), "201 characters"),
        ("x".repeat(1_000_000), "a megabyte"),
        ("bell\u{7}".to_owned(), "a control character"),
        ("two\nlines".to_owned(), "a line break"),
        ("esc\u{1b}[31m".to_owned(), "an escape sequence"),
        ("nul\u{0}".to_owned(), "a NUL"),
        ("c1\u{85}".to_owned(), "a C1 control"),
    ] {
        let (status, resp) = sb
            .call(Method::POST, "/catalog/integrations", Some(body(&name)))
            .await;
        let msg = assert_message(status, &resp, StatusCode::BAD_REQUEST, what);
        assert!(msg.contains("integrationName"), "{what}: {msg}");
        let (status, resp) = sb
            .call(
                Method::PATCH,
                &format!("/catalog/integrations/{id}"),
                Some(json!({ "integrationName": name })),
            )
            .await;
        assert_message(
            status,
            &resp,
            StatusCode::BAD_REQUEST,
            &format!("rename: {what}"),
        );
    }
}

#[tokio::test]
async fn a_token_is_expired_at_its_exp_second() {
    let hand = ManualClock::new(common::now());
    let sb = start_with(
        common::fixed_config()
            .clock(Clock::Manual(hand.clone()))
            .token_ttl_secs(60),
    )
    .await;
    hand.advance(59);
    let (status, body) = sb.get("/catalog/dataSources").await;
    assert_eq!(status, StatusCode::OK, "a second before exp: {body}");
    hand.advance(1);
    let (status, body) = sb.get("/catalog/dataSources").await;
    let msg = assert_message(status, &body, StatusCode::UNAUTHORIZED, "at exp");
    assert_eq!(msg, "the access token has expired");
}

#[cfg(unix)]
mod modes {
    use std::os::unix::fs::PermissionsExt as _;
    use std::path::Path;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .permissions()
            .mode()
            & 0o777
    }

    fn set_mode(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    /// The directory and every file in it, with their modes.
    fn modes(dir: &Path) -> Vec<(String, u32)> {
        let mut out = vec![(".".to_owned(), mode(dir))];
        for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
            out.push((
                entry.file_name().to_string_lossy().into_owned(),
                mode(&entry.path()),
            ));
        }
        out.sort();
        out
    }

    async fn assert_private(dir: &Path) {
        let sb = start_with(common::fixed_config().data_dir(dir)).await;
        // A write, so the WAL holds something while the sandbox runs.
        let (status, _) = sb
            .call(
                Method::POST,
                "/catalog/integrations",
                Some(json!({"integrationName": "n", "dataSourceCode": "SAMSARA",
                            "integrationCredentials": {"apiToken": "t"}})),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let found = modes(dir);
        let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
        for name in ["catalog.sqlite", "catalog.sqlite-wal", "catalog.sqlite-shm"] {
            assert!(names.contains(&name), "{name} in {found:?}");
        }
        for (name, m) in &found {
            let want = if name == "." { 0o700 } else { 0o600 };
            assert_eq!(*m, want, "{name}: {m:o} in {found:?}");
        }
        sb.running.shutdown().await;
    }

    #[tokio::test]
    async fn the_data_dir_is_0700_and_its_files_0600() {
        let root = tempfile::tempdir().expect("tempdir");
        set_mode(root.path(), 0o755);
        let dir = root.path().join("new").join("sandbox");
        assert_private(&dir).await;

        // An existing directory and files with wider modes are tightened,
        // also the WAL and shared memory a killed sandbox leaves behind.
        set_mode(&dir, 0o755);
        for name in ["catalog.sqlite-wal", "catalog.sqlite-shm"] {
            let path = dir.join(name);
            if !path.exists() {
                std::fs::write(&path, b"").expect("write");
            }
        }
        for entry in std::fs::read_dir(&dir).expect("read dir").flatten() {
            set_mode(&entry.path(), 0o644);
        }
        assert_private(&dir).await;
    }
}
