//! D2: the fleet's identities (`/v2/fleet/equipments`, `/{id}`) and their
//! snapshots (`/snapshot`, `/{id}/snapshot`), as the real service has
//! them: paged like the fleet history, filtered by `search`, in id order.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;

use super::http::{
    ApiError, ApiResult, blocking, heavy_turn, json_response, page_params, parse_id, path_error,
    query_map,
};
use super::shared::Shared;
use super::simulate::{Machine, Simulator};
use fleetview_api::equipment::{Entreprise, EquipmentRecord};
use fleetview_api::model::{Envelope, Page};

/// `GET /v2/fleet/equipments`: a page of the machines `search` matches.
pub(super) async fn list(State(shared): State<Arc<Shared>>, RawQuery(raw): RawQuery) -> ApiResult {
    let q = query_map(raw.as_deref());
    let (limit, offset) = page_params(&q)?;
    let search = Search::new(q.get("search").map(String::as_str));
    // A search reads every machine's identity: off the async threads.
    let page = blocking(move || page_of(&shared.sim, &search, offset, limit, record)).await?;
    Ok(json_response(StatusCode::OK, &Envelope { data: page }))
}

/// `GET /v2/fleet/equipments/{id}`.
pub(super) async fn one(
    State(shared): State<Arc<Shared>>,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let Path(raw) = path.map_err(path_error)?;
    let m = machine(&shared.sim, &raw)?;
    Ok(json_response(
        StatusCode::OK,
        &Envelope { data: record(&m) },
    ))
}

/// `GET /v2/fleet/equipments/snapshot`: the snapshots of a page of the
/// machines `search` matches. Like the series, a turn of the heavy work.
pub(super) async fn snapshots(
    State(shared): State<Arc<Shared>>,
    RawQuery(raw): RawQuery,
) -> ApiResult {
    let q = query_map(raw.as_deref());
    let (limit, offset) = page_params(&q)?;
    let search = Search::new(q.get("search").map(String::as_str));
    let turn = heavy_turn(&shared).await?;
    let page = blocking(move || {
        let _turn = turn;
        page_of(&shared.sim, &search, offset, limit, |m| {
            shared.sim.snapshot(m)
        })
    })
    .await?;
    Ok(json_response(StatusCode::OK, &Envelope { data: page }))
}

/// `GET /v2/fleet/equipments/{id}/snapshot`.
pub(super) async fn one_snapshot(
    State(shared): State<Arc<Shared>>,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let Path(raw) = path.map_err(path_error)?;
    let m = machine(&shared.sim, &raw)?;
    let turn = heavy_turn(&shared).await?;
    let snapshot = blocking(move || {
        let _turn = turn;
        shared.sim.snapshot(&m)
    })
    .await?;
    Ok(json_response(StatusCode::OK, &Envelope { data: snapshot }))
}

/// The machine a path's id names: 400 for an id that is not an integer,
/// 404 for one not in the fleet (D3).
fn machine(sim: &Simulator, raw: &str) -> Result<Machine, ApiError> {
    let id = parse_id(raw, "equipment id")?;
    sim.machine(id)
        .ok_or_else(|| ApiError::not_found(format!("equipment {id} not found")))
}

fn record(m: &Machine) -> EquipmentRecord {
    EquipmentRecord {
        id: m.id,
        name: Some(m.name.clone()),
        make: Some(m.model.make.to_owned()),
        model: Some(m.model.model.to_owned()),
        serial_number: Some(m.serial_number.clone()),
        category: Some(m.category().to_owned()),
        year: Some(m.year()),
        entreprise: Some(Entreprise::Name(m.entreprise().to_owned())),
    }
}

/// A `search`: a case-insensitive piece of a name, make, model or serial
/// number; blank matches every machine.
#[derive(Debug, Clone)]
struct Search(Option<String>);

impl Search {
    fn new(raw: Option<&str>) -> Self {
        Self(
            raw.map(|s| s.trim().to_lowercase())
                .filter(|s| !s.is_empty()),
        )
    }

    fn matches(&self, m: &Machine) -> bool {
        let Some(needle) = &self.0 else {
            return true;
        };
        [
            m.name.as_str(),
            m.model.make,
            m.model.model,
            m.serial_number.as_str(),
        ]
        .iter()
        .any(|field| field.to_lowercase().contains(needle))
    }
}

/// Machines `offset..offset + limit` of those `search` matches, in id
/// order, made into rows; `total` counts every match. Only the page's rows
/// are ever held (D13).
fn page_of<R>(
    sim: &Simulator,
    search: &Search,
    offset: i64,
    limit: i64,
    row: impl Fn(&Machine) -> R,
) -> Page<R> {
    let size = i64::try_from(sim.fleet_size()).unwrap_or(i64::MAX);
    let wanted = offset..offset.saturating_add(limit);
    if search.0.is_none() {
        // Every machine matches: the page is known without reading the rest.
        let rows = (wanted.start.min(size)..wanted.end.min(size))
            .map(|i| row(&Machine::at_index(i as u64)))
            .collect();
        return Page { total: size, rows };
    }
    let mut total = 0;
    let mut rows = Vec::new();
    for i in 0..size {
        let m = Machine::at_index(i as u64);
        if !search.matches(&m) {
            continue;
        }
        if wanted.contains(&total) {
            rows.push(row(&m));
        }
        total += 1;
    }
    Page { total, rows }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Clock;

    #[test]
    fn a_search_matching_every_machine_pages_as_no_search_does() {
        let sim = Simulator::new(45, Clock::Fixed(1_750_000_000));
        // Every name has a dash ("EX-001 ...").
        let (all, dash) = (Search::new(Some("  ")), Search::new(Some("-")));
        assert!(all.0.is_none() && dash.0.is_some());
        for (offset, limit) in [(0, 20), (40, 20), (44, 1), (45, 5), (1000, 50)] {
            let ids = |s: &Search| page_of(&sim, s, offset, limit, |m| m.id);
            assert_eq!(ids(&all), ids(&dash), "offset {offset} limit {limit}");
            assert_eq!(ids(&all).total, 45);
        }
        let none = page_of(&sim, &Search::new(Some("no such")), 0, 50, |m| m.id);
        assert_eq!((none.total, none.rows.len()), (0, 0));
    }
}
