//! The service's operations over HTTP (axum): the router and its token
//! check, the series, the fleet history and the catalog; the logins are in
//! `login`, the equipment list and snapshots in `equipments`, D3's errors
//! and the reading of requests in `http`.

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{DefaultBodyLimit, Path, RawQuery, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};

use super::answers::{self, Operation};
use super::catalog::data_sources;
use super::equipments;
use super::http::*;
use super::login::{self, LOGIN_PATHS};
use super::shared::Shared;
use super::stream::streamed;
use fleetview_api::limits::{MAX_EQUIPMENT_WINDOW_DAYS, MAX_FLEET_WINDOW_DAYS};
use fleetview_api::model::*;
use fleetview_api::service_time::format_http_date;

/// Header carrying the JWT on every request.
pub(crate) const TOKEN_HEADER: &str = "x-access-token";
/// The longest `integrationName`, in characters.
pub(crate) const MAX_NAME_CHARS: usize = 200;

/// The routes. A static segment wins over a parameter in the same place:
/// `/equipments/snapshot` and `/equipments/history` are not ids, and
/// `/{id}/snapshot` is not a data kind.
pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/login", post(login::api_key_login))
        .route("/auth/login", post(login::password_login))
        .route("/v2/fleet/equipments", get(equipments::list))
        .route("/v2/fleet/equipments/history", get(fleet_history))
        .route("/v2/fleet/equipments/snapshot", get(equipments::snapshots))
        .route("/v2/fleet/equipments/{id}", get(equipments::one))
        .route(
            "/v2/fleet/equipments/{id}/snapshot",
            get(equipments::one_snapshot),
        )
        .route("/v2/fleet/equipments/{id}/{kind}", get(equipment_series))
        .route("/catalog/dataSources", get(list_data_sources))
        .route(
            "/catalog/integrations",
            get(list_integrations).post(create_integration),
        )
        .route(
            "/catalog/integrations/{integration_id}",
            patch(update_integration).delete(delete_integration),
        )
        .route(
            "/catalog/integrations/{integration_id}/activate",
            post(activate),
        )
        .route(
            "/catalog/integrations/{integration_id}/deactivate",
            post(deactivate),
        )
        .fallback(unknown_route)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(
            shared.clone(),
            authenticate_and_log,
        ))
        .with_state(shared)
}

async fn unknown_route(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!("no operation at {} {}", method, uri.path()))
}

async fn wrong_method(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("method {} is not allowed on {}", method, uri.path()),
    )
}

/// Every route but the logins needs a valid token; every request is logged by
/// method, path and status only (never headers, query values or bodies).
async fn authenticate_and_log(
    State(shared): State<Arc<Shared>>,
    req: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let chaos = shared.chaos.clone();
    let _in_flight = shared.in_flight.enter();
    shared
        .requests
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if let Some(recorded) = &shared.recorded {
        let target = req
            .uri()
            .path_and_query()
            .map_or(path.as_str(), |p| p.as_str());
        recorded
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(format!("{method} {target}"));
    }
    let resp = if LOGIN_PATHS.contains(&path.as_str()) {
        next.run(req).await
    } else {
        match req.headers().get(TOKEN_HEADER).map(|v| v.to_str()) {
            None => {
                ApiError::unauthorized(format!("missing {TOKEN_HEADER} header")).into_response()
            }
            Some(Err(_)) => ApiError::unauthorized("the access token is malformed").into_response(),
            Some(Ok(token)) => match shared.auth.verify(token) {
                Err(msg) => ApiError::unauthorized(msg).into_response(),
                Ok(()) => match chaos.as_ref() {
                    Some(c) if c.applies_to(&method, &path) => c.apply(next.run(req)).await,
                    _ => next.run(req).await,
                },
            },
        }
    };
    let mut resp = resp;
    // The answer's date by the sandbox's clock (hyper would give the
    // computer's): clients decide what is final by it.
    if let Ok(date) = HeaderValue::from_str(&format_http_date(shared.sim.now())) {
        resp.headers_mut().insert(header::DATE, date);
    }
    tracing::debug!(%method, %path, status = resp.status().as_u16(), elapsed_ms = started.elapsed().as_millis() as u64, "request");
    resp
}

// ------------------------------------------------------------------- fleet

async fn equipment_series(
    State(shared): State<Arc<Shared>>,
    path: Result<Path<(String, String)>, PathRejection>,
    RawQuery(raw): RawQuery,
) -> ApiResult {
    let Path((id, kind)) = path.map_err(path_error)?;
    let id = parse_id(&id, "equipment id")?;
    // activities, positions and history are their own operations; the
    // first two answer exactly as the data kinds of the same name.
    let op =
        match kind.as_str() {
            "faults" => Operation::Faults,
            "history" => Operation::History,
            other => Operation::Kind(other.parse().map_err(|e| {
                ApiError::bad_request(format!("{e}: not a data kind of this service"))
            })?),
        };
    let sim_now = shared.sim.now();
    let w = window(&query_map(raw.as_deref()), sim_now)?;
    within_limit(w, MAX_EQUIPMENT_WINDOW_DAYS, "for one machine")?;
    let m = shared
        .sim
        .machine(id)
        .ok_or_else(|| ApiError::not_found(format!("equipment {id} not found")))?;
    let turn = heavy_turn(&shared).await?;
    Ok(streamed(turn, move |out| {
        answers::equipment(&shared.sim, &m, op, w, out)
    }))
}

async fn fleet_history(State(shared): State<Arc<Shared>>, RawQuery(raw): RawQuery) -> ApiResult {
    let q = query_map(raw.as_deref());
    let w = window(&q, shared.sim.now())?;
    within_limit(w, MAX_FLEET_WINDOW_DAYS, "for the fleet's history")?;
    let (limit, offset) = page_params(&q)?;
    let turn = heavy_turn(&shared).await?;
    Ok(streamed(turn, move |out| {
        answers::fleet_history(&shared.sim, w, offset, limit, out)
    }))
}

// ----------------------------------------------------------------- catalog

async fn list_data_sources() -> Response {
    json_response(
        StatusCode::OK,
        &DataSourceList {
            data_sources: data_sources(),
        },
    )
}

async fn list_integrations(State(shared): State<Arc<Shared>>) -> ApiResult {
    let integrations = blocking(move || shared.store.list()).await??;
    Ok(json_response(
        StatusCode::OK,
        &IntegrationList { integrations },
    ))
}

fn check_credentials(source: &DataSource, creds: &Credentials) -> Result<(), ApiError> {
    let missing: Vec<&str> = source
        .credentials
        .iter()
        .filter(|k| !creds.contains_key(*k))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Err(ApiError::bad_request(format!(
            "missing credential fields for {}: {}",
            source.code,
            missing.join(", ")
        )));
    }
    let unknown: Vec<&str> = creds
        .keys()
        .filter(|k| !source.credentials.contains(k))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        return Err(ApiError::bad_request(format!(
            "unknown credential fields for {}: {} (expected {})",
            source.code,
            unknown.join(", "),
            source.credentials.join(", ")
        )));
    }
    let blank: Vec<&str> = creds
        .iter()
        .filter(|(_, v)| v.is_blank())
        .map(|(k, _)| k.as_str())
        .collect();
    if !blank.is_empty() {
        return Err(ApiError::bad_request(format!(
            "empty credential fields: {}",
            blank.join(", ")
        )));
    }
    Ok(())
}

fn check_name(name: &str) -> Result<(), ApiError> {
    if name.trim().is_empty() {
        return Err(ApiError::bad_request("integrationName must not be empty"));
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(ApiError::bad_request(format!(
            "integrationName must be at most {MAX_NAME_CHARS} characters, got {chars}"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "integrationName must not contain control characters",
        ));
    }
    Ok(())
}

fn source_by_code(code: &str) -> Result<DataSource, ApiError> {
    data_sources()
        .into_iter()
        .find(|s| s.code == code)
        .ok_or_else(|| ApiError::bad_request(format!("unknown dataSourceCode '{code}'")))
}

async fn create_integration(
    State(shared): State<Arc<Shared>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let req: CreateIntegration = json_body(body)?;
    check_name(&req.integration_name)?;
    let source = source_by_code(&req.data_source_code)?;
    check_credentials(&source, &req.integration_credentials)?;
    let id = blocking(move || {
        shared.store.create(
            req.integration_name.trim(),
            &req.data_source_code,
            &req.integration_credentials,
        )
    })
    .await??;
    tracing::info!(integration_id = id, source = %source.code, "integration created");
    Ok(json_response(
        StatusCode::OK,
        &CreateIntegrationResponse {
            integration_id: Some(id),
        },
    ))
}

async fn update_integration(
    State(shared): State<Arc<Shared>>,
    path: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let Path(raw) = path.map_err(path_error)?;
    let id = parse_id(&raw, "integrationId")?;
    let req: UpdateIntegration = json_body(body)?;
    check_name(&req.integration_name)?;
    let name = req.integration_name.trim().to_owned();
    let store_name = name.clone();
    blocking(move || {
        let current = shared.store.get(id)?;
        if let Some(creds) = &req.integration_credentials {
            let source = source_by_code(&current.data_source_code)?;
            check_credentials(&source, creds)?;
        }
        shared
            .store
            .update(id, &store_name, req.integration_credentials.as_ref())?;
        Ok::<_, ApiError>(())
    })
    .await??;
    tracing::info!(integration_id = id, "integration updated");
    Ok(json_response(
        StatusCode::OK,
        &UpdateIntegrationResponse {
            integration_id: Some(id),
            integration_name: Some(name),
        },
    ))
}

async fn delete_integration(
    State(shared): State<Arc<Shared>>,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let Path(raw) = path.map_err(path_error)?;
    let id = parse_id(&raw, "integrationId")?;
    blocking(move || shared.store.delete(id)).await??;
    tracing::info!(integration_id = id, "integration deleted");
    Ok(json_response(
        StatusCode::OK,
        &IntegrationIdResponse { integration_id: id },
    ))
}

async fn set_status(shared: Arc<Shared>, raw: &str, status: &'static str) -> ApiResult {
    let id = parse_id(raw, "integrationId")?;
    blocking(move || shared.store.set_status(id, status)).await??;
    tracing::info!(integration_id = id, status, "integration status set");
    Ok(json_response(
        StatusCode::OK,
        &IntegrationIdResponse { integration_id: id },
    ))
}

async fn activate(
    State(shared): State<Arc<Shared>>,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let Path(raw) = path.map_err(path_error)?;
    set_status(shared, &raw, status::RUNNING).await
}

async fn deactivate(
    State(shared): State<Arc<Shared>>,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let Path(raw) = path.map_err(path_error)?;
    set_status(shared, &raw, status::STOPPED).await
}
