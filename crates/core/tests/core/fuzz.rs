//! Fuzz targets, as property tests (proptest): inputs that are real
//! service bodies and requests, mutated (values swapped for any JSON, bytes
//! flipped, bodies cut short), must give an answer or a clear error, never
//! a panic:
//!
//! - every endpoint's body through the client's decoders, the worker's row
//!   cutter, the series extractor, the min/max index, the map track and
//!   the export writers;
//! - the sandbox's request parsing (paths, ids, query strings, JSON bodies,
//!   methods, tokens) over HTTP on loopback: never a 5xx, never a dropped
//!   connection, every error a JSON `{message}` (D3).
//!
//! CI runs proptest's default 256 cases per target; a long run is
//! `PROPTEST_CASES=20000 cargo test --release --test fuzz` (see README).

use fleetview_testkit as common;

use fleetview_core::analysis::UnitSystem;
use fleetview_core::export::in_units;
use std::sync::{Arc, OnceLock};

use fleetview_api::RowsChunk;
use fleetview_api::client::{decode_json, error_message};
use fleetview_api::model::*;
use fleetview_api::time::{TimeWindow, format_wire};
use fleetview_core::export::shown::{ExportContent, GeoFormat};
use fleetview_core::export::write_csv;
use fleetview_core::series::{PlotSeries, Track, TrackSample, decode_envelope, decode_rows};
use fleetview_core::worker::Fetched;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Real bodies of every endpoint, read once from a sandbox on loopback.
fn bodies() -> &'static Vec<(&'static str, Vec<u8>)> {
    static BODIES: OnceLock<Vec<(&'static str, Vec<u8>)>> = OnceLock::new();
    BODIES.get_or_init(|| {
        let rt = tokio::runtime::Runtime::new().expect("runtime");
        rt.block_on(async {
            let sb = common::start().await;
            let now = common::now();
            let day = common::window_query(now - 86_400, now);
            let month = common::window_query(now - 30 * 86_400, now);
            let paths: Vec<(&'static str, String)> = vec![
                (
                    "positions",
                    format!("/v2/fleet/equipments/1003/positions?{day}"),
                ),
                (
                    "faults",
                    format!("/v2/fleet/equipments/1002/faults?{month}"),
                ),
                (
                    "activities",
                    format!("/v2/fleet/equipments/1003/activities?{day}"),
                ),
                (
                    "history",
                    format!("/v2/fleet/equipments/1001/history?{month}"),
                ),
                (
                    "fleet",
                    format!("/v2/fleet/equipments/history?limit=2&{day}"),
                ),
                (
                    "fuelRemaining",
                    format!("/v2/fleet/equipments/1001/fuelRemaining?{day}"),
                ),
                (
                    "dailyUsages",
                    format!("/v2/fleet/equipments/1001/dailyUsages?{month}"),
                ),
                (
                    "engineCondition",
                    format!("/v2/fleet/equipments/1001/engineCondition?{day}"),
                ),
                (
                    "dailyFuel",
                    format!("/v2/fleet/equipments/1004/dailyFuel?{month}"),
                ),
                (
                    "evChargingState",
                    format!("/v2/fleet/equipments/1007/evChargingState?{day}"),
                ),
                ("dataSources", "/catalog/dataSources".to_owned()),
                ("integrations", "/catalog/integrations".to_owned()),
            ];
            let mut out = Vec::new();
            for (name, path) in paths {
                out.push((name, sb.raw_bytes(&path).await));
            }
            let (_, error) = sb
                .call_as(
                    Some("not-a-token"),
                    reqwest::Method::GET,
                    "/catalog/integrations",
                    None,
                )
                .await;
            out.push(("error", serde_json::to_vec(&error).expect("error body")));
            out
        })
    })
}

/// Any JSON value, with the awkward ones often: nulls, huge and negative
/// numbers, empty and odd strings, dates that are not dates.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        Just(json!(1e308)),
        Just(json!(-0.0)),
        Just(json!(u64::MAX)),
        prop_oneof![
            Just(String::new()),
            Just("2025-13-45T99:99:99Z".to_owned()),
            Just("2025-06-18T15:30:00Z".to_owned()),
            Just("-0001-01-01T00:00:00Z".to_owned()),
            Just("ünïcødé ☃ \u{0}".to_owned()),
            "[a-zA-Z0-9 :.-]{0,12}",
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map("[a-zA-Z]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    /// Replace the n-th node (depth first, modulo the count) by a value.
    Replace(usize, Value),
    /// Cut the bytes at a fraction of their length.
    Truncate(f64),
    /// Flip a byte at a fraction of the length.
    Flip(f64, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        6 => (any::<usize>(), json_value()).prop_map(|(n, v)| Mutation::Replace(n, v)),
        1 => (0.0f64..1.0).prop_map(Mutation::Truncate),
        1 => (0.0f64..1.0, any::<u8>()).prop_map(|(at, b)| Mutation::Flip(at, b)),
    ]
}

fn count_nodes(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count_nodes).sum(),
        Value::Object(o) => o.values().map(count_nodes).sum(),
        _ => 0,
    }
}

/// Replaces the n-th node of `v` (depth first); `n` counts down.
fn replace_nth(v: &mut Value, n: &mut usize, with: &Value) -> bool {
    if *n == 0 {
        *v = with.clone();
        return true;
    }
    *n -= 1;
    match v {
        Value::Array(a) => a.iter_mut().any(|c| replace_nth(c, n, with)),
        Value::Object(o) => o.values_mut().any(|c| replace_nth(c, n, with)),
        _ => false,
    }
}

fn mutate(body: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut bytes = body.to_vec();
    for m in mutations {
        match m {
            Mutation::Replace(n, with) => {
                if let Ok(mut v) = serde_json::from_slice::<Value>(&bytes) {
                    let mut n = n % count_nodes(&v);
                    replace_nth(&mut v, &mut n, with);
                    bytes = serde_json::to_vec(&v).unwrap_or_default();
                }
            }
            Mutation::Truncate(at) => bytes.truncate((bytes.len() as f64 * at) as usize),
            Mutation::Flip(at, b) => {
                if !bytes.is_empty() {
                    let i = ((bytes.len() as f64 * at) as usize).min(bytes.len() - 1);
                    bytes[i] ^= b | 1;
                }
            }
        }
    }
    bytes
}

/// Every decoder the app has, on any bytes: each answers or errs.
fn decode_everything(bytes: &[u8]) {
    let e = "fuzz";
    let _ = decode_json::<Envelope<SeriesData<FaultRow>>>(bytes, e);
    let _ = decode_json::<Envelope<SeriesData<ActivityRow>>>(bytes, e);
    let _ = decode_json::<Envelope<SeriesData<PositionRow>>>(bytes, e);
    let _ = decode_json::<Envelope<EquipmentHistory>>(bytes, e);
    let _ = decode_json::<Envelope<FleetHistory>>(bytes, e);
    let _ = decode_json::<DataSourceList>(bytes, e);
    let _ = decode_json::<IntegrationList>(bytes, e);
    let _ = decode_json::<CreateIntegrationResponse>(bytes, e);
    let _ = decode_json::<UpdateIntegrationResponse>(bytes, e);
    let _ = decode_json::<IntegrationIdResponse>(bytes, e);
    let _ = decode_json::<LoginResponse>(bytes, e);
    let _ = error_message(StatusCode::BAD_REQUEST, bytes);
    let _ = decode_envelope(bytes);

    // The worker's path: rows cut out of the envelope, then every reading
    // of them the app makes, then the files it writes of them.
    let Some(RowsChunk { rows, .. }) = RowsChunk::of(&bytes::Bytes::copy_from_slice(bytes)) else {
        return;
    };
    let fetched = Fetched {
        window: TimeWindow {
            since: 1_749_000_000,
            until: 1_751_000_000,
        },
        pieces: vec![(
            TimeWindow {
                since: 1_749_000_000,
                until: 1_751_000_000,
            },
            rows.clone(),
        )],
        ..Fetched::default()
    };
    let _ = fetched.typed::<FaultRow>();
    let _ = fetched.typed::<ActivityRow>();
    let _ = fetched.json_rows();
    if let Ok(positions) = fetched.typed::<PositionRow>() {
        let track = Arc::new(Track::new(
            positions.iter().map(TrackSample::from).collect(),
        ));
        for format in [GeoFormat::Gpx, GeoFormat::GeoJson] {
            let content = ExportContent::Positions {
                track: track.clone(),
                format,
                name: "fuzz".into(),
            };
            content
                .write(std::io::sink(), UnitSystem::Imperial)
                .expect("positions always write");
        }
    }
    if let Ok(series) = decode_rows(&rows) {
        write_csv(&series, std::io::sink()).expect("CSV always writes");
        // Any unit the rows claim, converted or kept: never a panic.
        write_csv(&in_units(&series, UnitSystem::Imperial), std::io::sink())
            .expect("CSV in imperial always writes");
        let series = Arc::new(PlotSeries::new(series));
        for channel in 0..series.series.channels.len() {
            for units in UnitSystem::ALL {
                ExportContent::Channel {
                    kind: fleetview_api::DataKind::EngineCondition,
                    series: series.clone(),
                    channel,
                    unit: series.shown_unit(channel, "u").to_owned(),
                }
                .write(std::io::sink(), units)
                .expect("a channel always writes");
            }
        }
    }
}

#[test]
fn the_real_bodies_decode_as_their_endpoints() {
    let b = bodies();
    let get = |name: &str| &b.iter().find(|(n, _)| *n == name).expect(name).1;
    assert!(decode_json::<Envelope<SeriesData<PositionRow>>>(get("positions"), "p").is_ok());
    assert!(decode_json::<Envelope<SeriesData<FaultRow>>>(get("faults"), "f").is_ok());
    assert!(decode_json::<Envelope<SeriesData<ActivityRow>>>(get("activities"), "a").is_ok());
    assert!(decode_json::<Envelope<EquipmentHistory>>(get("history"), "h").is_ok());
    assert!(decode_json::<Envelope<FleetHistory>>(get("fleet"), "fl").is_ok());
    assert!(decode_json::<DataSourceList>(get("dataSources"), "d").is_ok());
    assert!(decode_json::<IntegrationList>(get("integrations"), "i").is_ok());
    assert!(!error_message(StatusCode::UNAUTHORIZED, get("error")).is_empty());
    for kind in [
        "fuelRemaining",
        "dailyUsages",
        "engineCondition",
        "dailyFuel",
        "evChargingState",
    ] {
        let rows = RowsChunk::of(&bytes::Bytes::copy_from_slice(get(kind)))
            .unwrap_or_else(|| panic!("{kind}: an envelope"))
            .rows;
        let series = decode_rows(&rows).expect("rows");
        assert!(!series.is_empty(), "{kind} has rows to fuzz");
    }
    // Clean bodies go through every reader too.
    for (_, body) in b {
        decode_everything(body);
    }
}

proptest! {
    #[test]
    fn mutated_bodies_of_every_endpoint_never_panic(
        which in any::<prop::sample::Index>(),
        mutations in proptest::collection::vec(mutation(), 1..4),
    ) {
        let b = bodies();
        let (_, body) = &b[which.index(b.len())];
        decode_everything(&mutate(body, &mutations));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        decode_everything(&bytes);
    }
}

// ------------------------------------------------------------ the sandbox

#[derive(Debug, Clone)]
struct Request {
    method: reqwest::Method,
    path: String,
    query: Vec<(String, String)>,
    body: Option<Vec<u8>>,
    token: u8,
}

fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (1001i64..1061).prop_map(|i| i.to_string()),
        1 => Just("0".to_owned()),
        1 => Just("-1".to_owned()),
        1 => Just("99999999999999999999".to_owned()),
        1 => Just("1e3".to_owned()),
        1 => Just("%20".to_owned()),
        1 => Just("%FF%FE".to_owned()),
        1 => Just("history".to_owned()),
        1 => "[a-zA-Z0-9._~-]{0,10}",
    ]
}

fn kind_segment() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(fleetview_api::DataKind::ALL.to_vec())
            .prop_map(|k| k.path_segment()),
        1 => Just("faults".to_owned()),
        1 => Just("snapshot".to_owned()),
        1 => Just("evEnergyUsed faults".to_owned()),
        1 => "[a-zA-Z%0-9]{0,12}",
    ]
}

fn path() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (segment(), kind_segment()).prop_map(|(id, k)| format!("/v2/fleet/equipments/{id}/{k}")),
        2 => Just("/v2/fleet/equipments/history".to_owned()),
        1 => Just("/v2/fleet/equipments".to_owned()),
        1 => Just("/v2/fleet/equipments/snapshot".to_owned()),
        1 => segment().prop_map(|id| format!("/v2/fleet/equipments/{id}")),
        2 => Just("/catalog/integrations".to_owned()),
        2 => segment().prop_map(|id| format!("/catalog/integrations/{id}")),
        2 => (segment(), prop_oneof![Just("activate"), Just("deactivate"), Just("x")])
            .prop_map(|(id, v)| format!("/catalog/integrations/{id}/{v}")),
        1 => Just("/catalog/dataSources".to_owned()),
        1 => Just("/auth/login".to_owned()),
        1 => Just("/login".to_owned()),
        1 => "/[a-zA-Z0-9/._-]{0,30}",
    ]
}

fn query_value() -> impl Strategy<Value = String> {
    let now = common::now();
    prop_oneof![
        3 => (0i64..20 * 86_400).prop_map(move |d| format_wire(now - d)),
        1 => Just("2025-06-18T15:30:00".to_owned()),
        1 => Just("2025-02-30T00:00:00Z".to_owned()),
        1 => Just("99999-01-01T00:00:00Z".to_owned()),
        2 => (-100i64..100).prop_map(|n| n.to_string()),
        1 => Just("2147483648".to_owned()),
        1 => Just(String::new()),
        1 => ".{0,12}",
    ]
}

fn query() -> impl Strategy<Value = Vec<(String, String)>> {
    proptest::collection::vec(
        (
            prop_oneof![
                Just("since".to_owned()),
                Just("until".to_owned()),
                Just("limit".to_owned()),
                Just("offset".to_owned()),
                Just("search".to_owned()),
                "[a-z]{1,6}",
            ],
            query_value(),
        ),
        0..5,
    )
}

fn body() -> impl Strategy<Value = Option<Vec<u8>>> {
    let valid = prop_oneof![
        Just(json!({
            "integrationName": "fuzz",
            "dataSourceCode": "VOLVO_ACTIVECARE",
            "integrationCredentials": {"apiKey": "k", "customerId": "c"},
        })),
        Just(json!({"integrationName": "renamed"})),
        Just(json!({"username": "demo", "password": "demo"})),
        Just(json!({"name": "demo", "apiKey": "demo"})),
    ];
    prop_oneof![
        2 => Just(None),
        3 => (valid, proptest::collection::vec(mutation(), 0..3)).prop_map(|(v, m)| {
            Some(mutate(&serde_json::to_vec(&v).unwrap_or_default(), &m))
        }),
        1 => proptest::collection::vec(any::<u8>(), 0..64).prop_map(Some),
    ]
}

fn request() -> impl Strategy<Value = Request> {
    (
        prop::sample::select(vec![
            reqwest::Method::GET,
            reqwest::Method::GET,
            reqwest::Method::POST,
            reqwest::Method::PATCH,
            reqwest::Method::DELETE,
            reqwest::Method::PUT,
        ]),
        path(),
        query(),
        body(),
        0u8..4,
    )
        .prop_map(|(method, path, query, body, token)| Request {
            method,
            path,
            query,
            body,
            token,
        })
}

#[test]
fn the_sandbox_answers_any_request_with_a_status_and_a_message() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let data = tempfile::tempdir().expect("tempdir");
    let sb = rt.block_on(common::start_with(
        common::fixed_config().data_dir(data.path()),
    ));
    let http = reqwest::Client::new();
    let mut runner = TestRunner::new(Config::default());
    let result = runner.run(&proptest::collection::vec(request(), 1..6), |requests| {
        rt.block_on(async {
            for r in &requests {
                let mut url = reqwest::Url::parse(&sb.url(&r.path))
                    .map_err(|e| TestCaseError::reject(e.to_string()))?;
                url.query_pairs_mut()
                    .extend_pairs(r.query.iter().map(|(k, v)| (k.as_str(), v.as_str())));
                let mut req = http.request(r.method.clone(), url.clone());
                match r.token {
                    0 => {}
                    1 => req = req.header("x-access-token", "garbage.token.here"),
                    _ => req = req.header("x-access-token", &sb.token),
                }
                if let Some(b) = &r.body {
                    req = req
                        .header("content-type", "application/json")
                        .body(b.clone());
                }
                let resp = req.send().await.map_err(|e| {
                    TestCaseError::fail(format!("{} {url}: no answer ({e})", r.method))
                })?;
                let status = resp.status();
                let bytes = resp.bytes().await.map_err(|e| {
                    TestCaseError::fail(format!("{} {url}: body cut ({e})", r.method))
                })?;
                prop_assert!(
                    status.is_success() || status.is_client_error(),
                    "{} {url}: {status} {}",
                    r.method,
                    String::from_utf8_lossy(&bytes)
                );
                if status.is_client_error() {
                    let body: Value = serde_json::from_slice(&bytes).map_err(|_| {
                        TestCaseError::fail(format!(
                            "{} {url}: {status} without a JSON body: {}",
                            r.method,
                            String::from_utf8_lossy(&bytes)
                        ))
                    })?;
                    prop_assert!(
                        body["message"].as_str().is_some_and(|m| !m.is_empty()),
                        "{} {url}: {status} {body}",
                        r.method
                    );
                }
            }
            Ok(())
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
