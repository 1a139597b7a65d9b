//! The bare client the app is measured against: reqwest and a serde typed
//! decode of exactly the requests the app sent (as the sandbox recorded
//! them), each path's requests four at a time as the app's client does,
//! every path at once.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use futures_util::{StreamExt, future, stream};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use fleetview_api::Timestamp;
use fleetview_api::equipment::{EquipmentRecord, EquipmentSnapshot};
use fleetview_api::model::{
    ActivityRow, EngineConditionRow, Envelope, EquipmentHistory, FaultRow, FuelRemainingRow, Page,
    PositionRow, SeriesData,
};

/// The app's client: chunks of one source this many at a time.
const CONCURRENCY: usize = 4;

/// `cumulativeOperatingHours` (no row type in the app: it plots any kind
/// through one generic decoder).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)] // Decoded to be measured, not read.
struct OperatingHoursRow {
    date: Timestamp,
    hour: Option<f64>,
    usage_hours: Option<f64>,
}

/// `cumulativeFuel` and `dailyIdleFuel`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct FuelUsedRow {
    date: Timestamp,
    fuel_used: Option<f64>,
    unit: String,
}

/// What one replay took and what it decoded.
#[derive(Debug, Default)]
pub struct Replayed {
    pub elapsed: Duration,
    pub requests: usize,
    pub bytes: usize,
    /// Rows decoded, by the path's last segment.
    pub rows: BTreeMap<String, usize>,
    /// Bytes of the decoded values as columns (8 per time and per number,
    /// 1 per flag), by the path's last segment.
    pub column_bytes: BTreeMap<String, usize>,
}

/// A logged-in bare client.
#[derive(Debug)]
pub struct Bare {
    pub http: reqwest::Client,
    pub token: String,
}

pub async fn login(base: &str) -> Bare {
    let http = reqwest::Client::new();
    let body: serde_json::Value = http
        .post(format!("{base}/auth/login"))
        .json(&serde_json::json!({"username": "demo", "password": "demo"}))
        .send()
        .await
        .expect("login sent")
        .json()
        .await
        .expect("login answer");
    let token = body["token"].as_str().expect("a token").to_owned();
    Bare { http, token }
}

/// The GET requests of a recording (`METHOD /path?query`), as targets.
pub fn gets(recorded: &[String]) -> Vec<String> {
    recorded
        .iter()
        .filter_map(|r| r.strip_prefix("GET "))
        .map(str::to_owned)
        .collect()
}

fn path_of(target: &str) -> &str {
    target.split_once('?').map_or(target, |(p, _)| p)
}

fn segment_of(target: &str) -> &str {
    path_of(target).rsplit('/').next().unwrap_or_default()
}

/// Downloads and decodes `targets` against `base`.
pub async fn replay(bare: &Bare, base: &str, targets: &[String]) -> Replayed {
    let start = Instant::now();
    let mut by_path: BTreeMap<&str, Vec<&String>> = BTreeMap::new();
    for t in targets {
        by_path.entry(path_of(t)).or_default().push(t);
    }
    let groups = by_path.into_values().map(|group| {
        stream::iter(group)
            .map(|t| fetch_and_decode(bare, base, t))
            .buffer_unordered(CONCURRENCY)
            .collect::<Vec<_>>()
    });
    let answers: Vec<Vec<(String, usize, usize, usize)>> = future::join_all(groups).await;
    let mut out = Replayed {
        elapsed: start.elapsed(),
        ..Replayed::default()
    };
    for (segment, bytes, rows, columns) in answers.into_iter().flatten() {
        out.requests += 1;
        out.bytes += bytes;
        *out.rows.entry(segment.clone()).or_default() += rows;
        *out.column_bytes.entry(segment).or_default() += columns;
    }
    out
}

async fn fetch_and_decode(bare: &Bare, base: &str, target: &str) -> (String, usize, usize, usize) {
    let body = bare
        .http
        .get(format!("{base}{target}"))
        .header("x-access-token", &bare.token)
        .send()
        .await
        .expect("sent")
        .error_for_status()
        .expect("a success")
        .bytes()
        .await
        .expect("a body");
    let segment = segment_of(target).to_owned();
    let (rows, columns) = decode(&segment, &body);
    (segment, body.len(), rows, columns)
}

fn series<R: DeserializeOwned>(body: &[u8]) -> usize {
    serde_json::from_slice::<Envelope<SeriesData<R>>>(body)
        .expect("a typed series")
        .data
        .rows
        .len()
}

fn page<R: DeserializeOwned>(body: &[u8]) -> usize {
    serde_json::from_slice::<Envelope<Page<R>>>(body)
        .expect("a typed page")
        .data
        .rows
        .len()
}

/// Rows decoded and the bytes of their values as columns.
fn decode(segment: &str, body: &[u8]) -> (usize, usize) {
    let (rows, row_bytes) = match segment {
        // time, latitude, longitude, altitude, speed, heading
        "positions" => (series::<PositionRow>(body), 48),
        "fuelRemaining" => (series::<FuelRemainingRow>(body), 16),
        "engineCondition" => (series::<EngineConditionRow>(body), 9),
        "cumulativeOperatingHours" => (series::<OperatingHoursRow>(body), 24),
        "cumulativeFuel" | "dailyIdleFuel" => (series::<FuelUsedRow>(body), 16),
        "faults" => (series::<FaultRow>(body), 0),
        "activities" => (series::<ActivityRow>(body), 0),
        "history" => {
            let h = serde_json::from_slice::<Envelope<EquipmentHistory>>(body)
                .expect("a typed history");
            (h.data.daily_usages.rows.len(), 0)
        }
        "equipments" => (page::<EquipmentRecord>(body), 0),
        "snapshot" => (page::<EquipmentSnapshot>(body), 0),
        other => panic!("the bare client has no type for /{other}: add one"),
    };
    (rows, rows * row_bytes)
}
