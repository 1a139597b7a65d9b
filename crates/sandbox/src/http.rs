//! What every route shares: D3's error answer, JSON answers, and reading
//! queries, windows, pages, ids and bodies.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::catalog::StoreError;
use super::shared::Shared;
use fleetview_api::model::ErrorBody;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};

/// The largest request body read.
pub(crate) const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;

/// An error answer: a status and `{message}` (D3).
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    pub(super) fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }
    pub(super) fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
    pub(super) fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }
    pub(super) fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, message)
    }
    pub(super) fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        json_response(
            self.status,
            &ErrorBody {
                message: self.message,
            },
        )
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound(id) => ApiError::not_found(format!("integration {id} not found")),
            StoreError::Db(e) => {
                tracing::error!("catalog store: {e}");
                ApiError::internal("the catalog store failed")
            }
        }
    }
}

pub(super) type ApiResult = Result<Response, ApiError>;

pub(super) fn json_response<T: Serialize>(status: StatusCode, body: &T) -> Response {
    match serde_json::to_vec(body) {
        Ok(bytes) => bytes_response(status, bytes),
        Err(e) => {
            tracing::error!("serialising a response: {e}");
            (StatusCode::INTERNAL_SERVER_ERROR, "serialisation failed").into_response()
        }
    }
}

pub(super) fn bytes_response(status: StatusCode, bytes: Vec<u8>) -> Response {
    let mut resp = (status, bytes).into_response();
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    resp
}

// ------------------------------------------------------------------ parsing

pub(super) fn query_map(raw: Option<&str>) -> HashMap<String, String> {
    let mut map = HashMap::new();
    for (k, v) in form_urlencoded::parse(raw.unwrap_or_default().as_bytes()) {
        // The first occurrence of a parameter wins.
        map.entry(k.into_owned()).or_insert_with(|| v.into_owned());
    }
    map
}

pub(super) fn window(q: &HashMap<String, String>, now: i64) -> Result<TimeWindow, ApiError> {
    TimeWindow::parse(
        q.get("since").map(String::as_str),
        q.get("until").map(String::as_str),
        now,
    )
    .map_err(|e| ApiError::bad_request(format!("invalid time window: {e}")))
}

/// Refuses a window longer than `days`, the most `what` may cover.
pub(super) fn within_limit(w: TimeWindow, days: i64, what: &str) -> Result<(), ApiError> {
    if w.until - w.since > days * SECS_PER_DAY {
        return Err(ApiError::bad_request(format!(
            "the window is longer than {days} days, the most one request {what} may cover: \
             ask for it in pieces of at most {days} days"
        )));
    }
    Ok(())
}

pub(super) fn int_param(
    q: &HashMap<String, String>,
    name: &str,
    default: i64,
) -> Result<i64, ApiError> {
    match q.get(name) {
        None => Ok(default),
        Some(v) => v
            .parse::<i32>()
            .map(i64::from)
            .map_err(|_| ApiError::bad_request(format!("{name} must be an integer, got '{v}'"))),
    }
}

/// `limit` (1..=50, default 20) and `offset` (0 or more, default 0) of a
/// paged operation (D3, D5).
pub(super) fn page_params(q: &HashMap<String, String>) -> Result<(i64, i64), ApiError> {
    let limit = int_param(q, "limit", 20)?;
    let offset = int_param(q, "offset", 0)?;
    if !(1..=50).contains(&limit) {
        return Err(ApiError::bad_request(format!(
            "limit must be between 1 and 50, got {limit}"
        )));
    }
    if offset < 0 {
        return Err(ApiError::bad_request(format!(
            "offset must not be negative, got {offset}"
        )));
    }
    Ok((limit, offset))
}

pub(super) fn parse_id(raw: &str, what: &str) -> Result<i64, ApiError> {
    raw.parse::<i32>()
        .map(i64::from)
        .map_err(|_| ApiError::bad_request(format!("{what} must be an integer, got '{raw}'")))
}

pub(super) fn path_error(e: PathRejection) -> ApiError {
    ApiError::bad_request(format!("invalid path: {e}"))
}

/// The body, or 413 `{message}` when it is over [`MAX_BODY_BYTES`].
pub(super) fn body_bytes(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request body is larger than the {} MB this service reads",
                    MAX_BODY_BYTES / (1024 * 1024)
                ),
            )
        } else {
            ApiError::new(e.status(), "the request body could not be read")
        }
    })
}

/// Parses a JSON body. The error names what is wrong but never repeats
/// values from the body: they may be credentials (D11).
pub(super) fn json_body<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    serde_json::from_slice(&body_bytes(body)?).map_err(|e| {
        ApiError::bad_request(format!(
            "malformed or incomplete JSON body: {}",
            redact_values(&e.to_string())
        ))
    })
}

/// Serde's message without the values it quotes: strings (`"..."`, with
/// escapes) and numbers, booleans and characters (`` `...` ``). Field names
/// (`` field `name` ``) and the punctuation JSON expects stay.
fn redact_values(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push_str("\"…\"");
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '`' => {
                let inner: String = chars.by_ref().take_while(|c| *c != '`').collect();
                let punctuation = matches!(inner.as_str(), "," | ":" | "]" | "}" | "[" | "{");
                out.push('`');
                out.push_str(if out.ends_with("field `") || punctuation {
                    &inner
                } else {
                    "…"
                });
                out.push('`');
            }
            c => out.push(c),
        }
    }
    out
}

/// Runs blocking work (simulation, SQLite) off the async threads.
pub(super) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        tracing::error!("worker task failed: {e}");
        ApiError::internal("the request could not be completed")
    })
}

/// Waits for a turn of the heavy work: requests beyond the bound queue.
pub(super) async fn heavy_turn(
    shared: &Shared,
) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    shared.heavy.turn().await.map_err(|e| {
        tracing::error!("heavy work queue: {e}");
        ApiError::internal("the request could not be queued")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_redacted_from_errors() {
        for (serde_says, secret) in [
            (
                r#"invalid type: string "hunter2", expected a map at line 1 column 30"#,
                "hunter2",
            ),
            (
                r#"invalid type: string "a\"hunter2\"b", expected a map at line 1 column 30"#,
                "hunter2",
            ),
            (
                "invalid type: integer `12345`, expected a string at line 1 column 9",
                "12345",
            ),
            (
                "invalid type: floating point `1.5e300`, expected a string",
                "1.5e300",
            ),
            ("invalid type: boolean `true`, expected a string", "true"),
            ("invalid value: character `x`, expected a digit", "`x`"),
        ] {
            let msg = redact_values(serde_says);
            assert!(!msg.contains(secret), "{serde_says} -> {msg}");
            assert!(msg.starts_with("invalid"), "{msg}");
            assert!(msg.contains("expected a"), "{msg}");
        }
        // What is not a value stays.
        for plain in [
            "missing field `integrationName`",
            "duplicate field `password` at line 1 column 40",
            "expected `,` or `}` at line 1 column 12",
            "EOF while parsing an object at line 1 column 5",
        ] {
            assert_eq!(redact_values(plain), plain);
        }
    }
}
