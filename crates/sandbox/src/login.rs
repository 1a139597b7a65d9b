//! D1's two logins, the only routes without a token: `POST /login` with an
//! API key (`{"name","apiKey"}`), as the real service has it, and the older
//! `POST /auth/login` (`{"username","password"}`). Both answer who logged in
//! and a token.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use serde::Deserialize;

use super::auth::{Auth, DEMO_USER};
use super::http::{ApiError, ApiResult, json_body, json_response};
use super::shared::Shared;
use fleetview_api::equipment::LoginAnswer;
use fleetview_api::model::{LoginRequest, SecretValue};

/// The routes that take no token.
pub(crate) const LOGIN_PATHS: [&str; 2] = ["/login", "/auth/login"];

/// `/login`'s body with every member optional, so that a missing one is
/// named rather than reported by serde one at a time.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ApiKeyBody {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    api_key: Option<SecretValue>,
}

pub(super) async fn api_key_login(
    State(shared): State<Arc<Shared>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let req: ApiKeyBody = json_body(body)?;
    let missing: Vec<&str> = [
        ("name", req.name.is_none()),
        ("apiKey", req.api_key.is_none()),
    ]
    .into_iter()
    .filter_map(|(field, absent)| absent.then_some(field))
    .collect();
    let (Some(name), Some(key)) = (req.name, req.api_key) else {
        return Err(ApiError::bad_request(format!(
            "the login body needs {}",
            missing.join(" and ")
        )));
    };
    if !Auth::check_api_key(&name, key.expose()) {
        return Err(ApiError::unauthorized("invalid API key name or key"));
    }
    logged_in(&shared)
}

pub(super) async fn password_login(
    State(shared): State<Arc<Shared>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let req: LoginRequest = json_body(body)?;
    if !Auth::check_password(&req.username, req.password.expose()) {
        return Err(ApiError::unauthorized("invalid username or password"));
    }
    logged_in(&shared)
}

/// The demo user's answer with a new token, counted.
fn logged_in(shared: &Shared) -> ApiResult {
    let token = shared.auth.issue(DEMO_USER).map_err(|e| {
        tracing::error!("signing a token: {e}");
        ApiError::internal("could not issue a token")
    })?;
    shared.logins.fetch_add(1, Ordering::Relaxed);
    Ok(json_response(StatusCode::OK, &demo_user(token)))
}

/// The one user of the sandbox: a fleet manager, not an administrator.
fn demo_user(token: String) -> LoginAnswer {
    LoginAnswer {
        id: Some("1".into()),
        email: Some("claire.durand@demo-fleet.example".into()),
        admin: Some(false),
        first_name: Some("Claire".into()),
        last_name: Some("Durand".into()),
        token,
    }
}
