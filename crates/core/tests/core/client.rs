//! The HTTP client against real sandboxes on loopback: every method, every
//! error, retries under chaos, gzip, and chunked fetches.

use fleetview_testkit as common;

use std::time::Duration;

use common::{Sandbox, start, start_with};
use fleetview_api::RowsChunk;
use fleetview_api::fleet::{FleetPage, split_window};
use fleetview_api::model::*;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_api::{ApiClient, ApiError, ClientConfig, DataKind, RetryPolicy, SeriesSource};
use fleetview_core::series::{EnvelopeInfo, Series, decode_envelope};
use fleetview_core::worker::Fetched;
use fleetview_sandbox::chaos::ChaosConfig;
use fleetview_sandbox::simulate::FIRST_ID;
use futures_util::StreamExt;

fn fast_retry() -> RetryPolicy {
    RetryPolicy {
        max_retries: 12,
        base_delay: Duration::from_millis(2),
        max_delay: Duration::from_millis(20),
    }
}

fn client_for(sb: &Sandbox) -> ApiClient {
    let mut cfg = ClientConfig::new(sb.base.clone()).token(sb.token.clone());
    cfg.retry = fast_retry();
    ApiClient::new(cfg).expect("client")
}

fn week() -> TimeWindow {
    TimeWindow {
        since: common::now() - 7 * SECS_PER_DAY,
        until: common::now(),
    }
}

/// One data kind over a window, as the worker reads it: the body the
/// client returns, decoded into columns by the series layer.
async fn data_kind(
    c: &ApiClient,
    id: i64,
    kind: DataKind,
    w: TimeWindow,
) -> Result<(EnvelopeInfo, Series), String> {
    let body = c
        .series_body(id, SeriesSource::Kind(kind), w)
        .await
        .map_err(|e| e.to_string())?;
    decode_envelope(&body).map_err(|e| e.to_string())
}

async fn raw<T: serde::de::DeserializeOwned>(sb: &Sandbox, path: &str, w: TimeWindow) -> T {
    sb.get_ok(&format!(
        "{path}?{}",
        common::window_query(w.since, w.until)
    ))
    .await
}

#[tokio::test]
async fn every_read_method_returns_what_the_service_sends() {
    let sb = start().await;
    let c = client_for(&sb);
    let w = week();
    let id = FIRST_ID + 2;
    let eq = format!("/v2/fleet/equipments/{id}");

    assert_eq!(
        c.positions(id, w).await.expect("positions"),
        raw::<Envelope<_>>(&sb, &format!("{eq}/positions"), w)
            .await
            .data
    );
    assert_eq!(
        c.activities(id, w).await.expect("activities"),
        raw::<Envelope<_>>(&sb, &format!("{eq}/activities"), w)
            .await
            .data
    );
    assert_eq!(
        c.faults(id, w).await.expect("faults"),
        raw::<Envelope<_>>(&sb, &format!("{eq}/faults"), w)
            .await
            .data
    );
    assert_eq!(
        c.history(id, w).await.expect("history"),
        raw::<Envelope<_>>(&sb, &format!("{eq}/history"), w)
            .await
            .data
    );

    for kind in [
        DataKind::FuelRemaining,
        DataKind::DailyUsages,
        DataKind::EvEnergyUsedFaults,
        DataKind::EngineCondition,
    ] {
        let (info, series) = data_kind(&c, id, kind, w).await.expect("data kind");
        assert_eq!(info.id, Some(id));
        assert_eq!(info.total, Some(series.len() as i64), "{kind}");
        assert_eq!((info.since, info.until), (Some(w.since), Some(w.until)));
    }
    let body = c
        .series_body(id, SeriesSource::Faults, w)
        .await
        .expect("body");
    assert_eq!(
        body.to_vec(),
        sb.raw_bytes(&format!(
            "{eq}/faults?{}",
            common::window_query(w.since, w.until)
        ))
        .await
    );

    let sources = c.data_sources().await.expect("sources");
    assert!(sources.len() >= 8);
    let page = c.fleet_history_page(w, 10, 10).await.expect("page");
    assert_eq!(page.rows.first().map(|r| r.id), Some(FIRST_ID + 10));
}

#[tokio::test]
async fn the_fleet_pager_reads_every_equipment_once_50_at_a_time() {
    let sb = start_with(common::fixed_config().fleet_size(137)).await;
    let c = client_for(&sb);
    let before = sb.running.request_count();
    let w = TimeWindow {
        since: common::now() - 3600,
        until: common::now(),
    };
    let pages: Vec<FleetPage> = c.fleet_history(w).map(|p| p.expect("page")).collect().await;
    assert_eq!(
        pages.iter().map(|p| p.rows.len()).collect::<Vec<_>>(),
        vec![50, 50, 37]
    );
    assert_eq!(
        pages.iter().map(FleetPage::done).collect::<Vec<_>>(),
        vec![50, 100, 137]
    );
    assert!(pages.iter().all(|p| p.total == 137));
    let mut ids: Vec<i64> = pages
        .iter()
        .flat_map(|p| p.rows.iter().map(|e| e.id))
        .collect();
    ids.dedup();
    assert_eq!(ids.len(), 137);
    assert_eq!(
        sb.running.request_count() - before,
        3,
        "three pages, no more"
    );
}

#[tokio::test]
async fn catalog_writes_round_trip() {
    let sb = start().await;
    let c = client_for(&sb);
    let mut creds = Credentials::new();
    creds.insert("apiToken".into(), SecretValue::new("tok-1"));
    let created = c
        .create_integration(&CreateIntegration {
            integration_credentials: creds.clone(),
            integration_name: "Trucks".into(),
            data_source_code: "SAMSARA".into(),
        })
        .await
        .expect("create");
    let id = created.integration_id.expect("id");
    let find = |list: Vec<Integration>| list.into_iter().find(|i| i.id == id);
    assert_eq!(
        find(c.integrations().await.expect("list")).map(|i| i.status),
        Some("running".into())
    );
    let updated = c
        .update_integration(
            id,
            &UpdateIntegration {
                integration_credentials: Some(creds),
                integration_name: "Trucks EU".into(),
            },
        )
        .await
        .expect("update");
    assert_eq!(updated.integration_name.as_deref(), Some("Trucks EU"));
    assert_eq!(
        c.deactivate_integration(id)
            .await
            .expect("deactivate")
            .integration_id,
        id
    );
    assert_eq!(
        find(c.integrations().await.expect("list")).map(|i| i.status),
        Some("stopped".into())
    );
    c.activate_integration(id).await.expect("activate");
    assert_eq!(
        find(c.integrations().await.expect("list")).map(|i| i.status),
        Some("running".into())
    );
    c.delete_integration(id).await.expect("delete");
    assert_eq!(find(c.integrations().await.expect("list")), None);
}

#[tokio::test]
async fn each_error_type_is_told_apart() {
    let sb = start().await;
    let good = client_for(&sb);

    let bad = good.with_token("not-a-token").expect("client");
    match bad.faults(FIRST_ID, week()).await {
        Err(ApiError::Unauthorized { message, endpoint }) => {
            assert!(message.contains("malformed"), "{message}");
            assert_eq!(
                endpoint,
                format!("GET /v2/fleet/equipments/{FIRST_ID}/faults")
            );
        }
        other => panic!("expected Unauthorized, got {other:?}"),
    }
    assert!(matches!(
        good.positions(999_999, week()).await,
        Err(ApiError::NotFound { .. })
    ));
    let wrong = CreateIntegration {
        integration_credentials: Credentials::new(),
        integration_name: "x".into(),
        data_source_code: "NOPE".into(),
    };
    match good.create_integration(&wrong).await {
        Err(ApiError::BadRequest { message, .. }) => assert!(message.contains("NOPE")),
        other => panic!("expected BadRequest, got {other:?}"),
    }
    let anonymous = ApiClient::new(ClientConfig::new(sb.base.clone())).expect("client");
    assert!(matches!(
        anonymous.integrations().await,
        Err(ApiError::NoToken)
    ));
    let answer = anonymous
        .login("demo", &"demo".into())
        .await
        .expect("the demo API key logs in");
    assert!(!answer.token.is_empty());
    assert!(answer.user().label().is_some(), "{answer:?}");
    assert!(matches!(
        anonymous.login("demo", &"wrong".into()).await,
        Err(ApiError::Unauthorized { .. })
    ));

    // Nothing listening: a network error (after bounded retries).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    let mut cfg = ClientConfig::new(format!("http://127.0.0.1:{port}")).token("t");
    cfg.retry = RetryPolicy {
        max_retries: 2,
        ..fast_retry()
    };
    let nobody = ApiClient::new(cfg).expect("client");
    let err = nobody.integrations().await.expect_err("no server");
    assert!(
        matches!(err, ApiError::Network { refused: true, .. }) && err.is_unreachable(),
        "{err:?}"
    );
    // Why, and where, so the app can say it in words.
    let ApiError::Network { address, cause, .. } = &err else {
        unreachable!("matched above")
    };
    assert_eq!(
        (address.as_str(), *cause),
        (
            format!("127.0.0.1:{port}").as_str(),
            fleetview_api::NetworkCause::Refused
        )
    );
    // A name nobody has: a failed lookup, told apart from a refusal.
    let mut cfg = ClientConfig::new("https://no-such-host.invalid:8443").token("t");
    cfg.retry = RetryPolicy {
        max_retries: 0,
        ..fast_retry()
    };
    let unnamed = ApiClient::new(cfg).expect("client");
    let err = unnamed.integrations().await.expect_err("no such host");
    assert!(
        matches!(
            &err,
            ApiError::Network { address, cause: fleetview_api::NetworkCause::NoSuchHost, .. }
                if address == "no-such-host.invalid:8443"
        ),
        "{err:?}"
    );
    // A refused connection is tried once more, not through the whole
    // back-off: with minutes of back-off it still answers at once (it kept
    // the app from its cache for seconds when the service died).
    let mut cfg = ClientConfig::new(format!("http://127.0.0.1:{port}")).token("t");
    cfg.retry = RetryPolicy {
        max_retries: 4,
        base_delay: std::time::Duration::from_secs(20),
        max_delay: std::time::Duration::from_secs(600),
    };
    let nobody = ApiClient::new(cfg).expect("client");
    let quick = tokio::time::timeout(std::time::Duration::from_secs(8), nobody.integrations())
        .await
        .expect("no wait through the back-off");
    assert!(quick.is_err());

    // Always 500, 429, slow, or garbled: each is its own error.
    for (spec, check) in [
        (
            "500=1",
            Box::new(|e: &ApiError| matches!(e, ApiError::Server { status: 500, .. }))
                as Box<dyn Fn(&ApiError) -> bool>,
        ),
        (
            "503=1",
            Box::new(|e: &ApiError| matches!(e, ApiError::Server { status: 503, .. })),
        ),
        (
            "429=1",
            Box::new(|e: &ApiError| {
                matches!(
                    e,
                    ApiError::Server {
                        status: 429,
                        retry_after: Some(_),
                        ..
                    }
                )
            }),
        ),
        (
            "malformed=1",
            Box::new(|e: &ApiError| {
                matches!(
                    e,
                    ApiError::Decode {
                        transient: true,
                        ..
                    }
                )
            }),
        ),
        (
            "truncate=1",
            Box::new(|e: &ApiError| {
                matches!(
                    e,
                    ApiError::Decode {
                        transient: true,
                        ..
                    }
                )
            }),
        ),
        (
            "latency_ms=1500,latency=1",
            Box::new(|e: &ApiError| matches!(e, ApiError::Timeout { .. })),
        ),
    ] {
        let chaos =
            start_with(common::fixed_config().chaos(ChaosConfig::parse(spec).expect("spec"))).await;
        let mut cfg = ClientConfig::new(chaos.base.clone()).token(chaos.token.clone());
        cfg.retry = RetryPolicy {
            max_retries: 1,
            ..fast_retry()
        };
        cfg.request_timeout = Duration::from_millis(400);
        let c = ApiClient::new(cfg).expect("client");
        let before = chaos.running.request_count();
        let err = c.faults(FIRST_ID, week()).await.expect_err(spec);
        assert!(check(&err), "{spec}: {err:?}");
        assert!(!err.to_string().is_empty());
        assert_eq!(
            chaos.running.request_count() - before,
            2,
            "{spec}: one try and one retry"
        );
    }
}

#[tokio::test]
async fn writes_are_never_retried() {
    let sb = start_with(
        common::fixed_config().chaos(ChaosConfig::parse("500=1,writes=1").expect("spec")),
    )
    .await;
    let c = client_for(&sb);
    let before = sb.running.request_count();
    let mut creds = Credentials::new();
    creds.insert("apiToken".into(), SecretValue::new("t"));
    let err = c
        .create_integration(&CreateIntegration {
            integration_credentials: creds,
            integration_name: "n".into(),
            data_source_code: "SAMSARA".into(),
        })
        .await
        .expect_err("500");
    assert!(matches!(err, ApiError::Server { status: 500, .. }));
    assert_eq!(
        sb.running.request_count() - before,
        1,
        "a POST is sent once"
    );
    let before = sb.running.request_count();
    assert!(c.delete_integration(1).await.is_err());
    assert!(c.deactivate_integration(1).await.is_err());
    assert_eq!(sb.running.request_count() - before, 2);
}

#[tokio::test]
async fn under_chaos_every_get_ends_in_the_right_data_or_a_clear_error() {
    let calm = start().await;
    let spec =
        "500=0.15,503=0.1,429=0.1,truncate=0.1,malformed=0.1,latency_ms=30,latency=0.2,seed=11";
    let wild =
        start_with(common::fixed_config().chaos(ChaosConfig::parse(spec).expect("spec"))).await;
    let reference = client_for(&calm);
    let c = client_for(&wild);
    let w = week();
    let mut answered = 0;
    for i in 0..20 {
        let id = FIRST_ID + i;
        match c.positions(id, w).await {
            Ok(p) => {
                assert_eq!(p, reference.positions(id, w).await.expect("reference"));
                answered += 1;
            }
            Err(e) => assert!(!e.to_string().is_empty(), "a clear error"),
        }
        match data_kind(&c, id, DataKind::CumulativeOperatingHours, w).await {
            Ok((_, s)) => {
                let (_, r) = data_kind(&reference, id, DataKind::CumulativeOperatingHours, w)
                    .await
                    .expect("reference");
                assert_same_series(&s, &r);
                answered += 1;
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
    // With 12 fast retries, chaos at these rates practically never wins.
    assert!(answered >= 38, "{answered} of 40 answered");
}

#[tokio::test]
async fn gzip_answers_are_compressed_and_decoded() {
    let sb = start_with(common::fixed_config().gzip(true)).await;
    let path = format!("{}/v2/fleet/equipments/{}/positions", sb.base, FIRST_ID + 2);
    let plain = reqwest::Client::builder().no_gzip().build().expect("http");
    let resp = plain
        .get(&path)
        .header("x-access-token", &sb.token)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .expect("sent");
    assert_eq!(
        resp.headers()
            .get("content-encoding")
            .and_then(|v| v.to_str().ok()),
        Some("gzip")
    );
    let c = client_for(&sb);
    let w = TimeWindow::default_at(common::now());
    assert!(
        !c.positions(FIRST_ID + 2, w)
            .await
            .expect("decoded")
            .rows
            .is_empty()
    );
}

/// Series equality where NaN equals NaN.
fn assert_same_series(a: &Series, b: &Series) {
    assert_eq!(a.times, b.times);
    assert_eq!(a.channels.len(), b.channels.len());
    // Channels are matched by name: their order follows first appearance.
    for x in &a.channels {
        let y = b
            .channel(&x.name)
            .unwrap_or_else(|| panic!("channel {} on both sides", x.name));
        assert_eq!((&x.name, &x.unit, x.kind), (&y.name, &y.unit, y.kind));
        assert_eq!(x.values.len(), y.values.len(), "{}", x.name);
        for (i, (p, q)) in x.values.iter().zip(&y.values).enumerate() {
            if x.labels.is_empty() {
                assert!(
                    p == q || (p.is_nan() && q.is_nan()),
                    "{} row {i}: {p} vs {q}",
                    x.name
                );
            } else {
                assert_eq!(x.label_at(i), y.label_at(i), "{} row {i}", x.name);
            }
        }
        for i in 0..x.values.len() {
            assert_eq!(x.estimated_at(i), y.estimated_at(i), "{} row {i}", x.name);
        }
    }
}

mod chunking {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};

    #[test]
    fn a_chunked_fetch_equals_a_single_fetch() {
        let rt = tokio::runtime::Runtime::new().expect("runtime");
        let sb = rt.block_on(start());
        let c = client_for(&sb);
        let kinds = [
            DataKind::Positions,
            DataKind::Activities,
            DataKind::DailyUsages,
            DataKind::EvChargingState,
            DataKind::FuelRemaining,
            DataKind::EngineCondition,
        ];
        let strategy = (
            0usize..kinds.len(),
            0i64..60,
            0i64..400 * 86_400,
            3_600i64..20 * 86_400,
            600i64..4 * 86_400,
        );
        let mut runner = TestRunner::new(Config {
            cases: 24,
            failure_persistence: None,
            ..Config::default()
        });
        let result = runner.run(&strategy, |(k, index, back, len, chunk)| {
            let kind = kinds[k];
            let until = common::now() - back;
            let w = TimeWindow {
                since: until - len,
                until,
            };
            let id = FIRST_ID + index;
            rt.block_on(async {
                let (_, single) = data_kind(&c, id, kind, w).await.expect("single");
                let chunks = split_window(w, chunk);
                let mut bodies: Vec<_> = c
                    .chunk_rows(id, SeriesSource::Kind(kind), chunks)
                    .collect()
                    .await;
                // Yielded as answered: put back in order.
                bodies.sort_by_key(|(cw, _)| cw.since);
                let pieces = bodies
                    .into_iter()
                    .map(|(cw, b)| (cw, b.expect("chunk").rows))
                    .collect();
                let fetched = Fetched {
                    window: w,
                    pieces,
                    ..Fetched::default()
                };
                let chunked = fetched.series().expect("series");
                prop_assert_eq!(
                    chunked.times.len(),
                    single.times.len(),
                    "{} {:?} chunk {}",
                    kind,
                    w,
                    chunk
                );
                assert_same_series(&chunked, &single);
                Ok(())
            })
        });
        if let Err(e) = result {
            panic!("{e}");
        }
    }
}

#[tokio::test]
async fn requests_name_fleetview_and_accept_gzip() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    // Read what the client sends on the wire.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let server = tokio::spawn(async move {
        let (mut sock, _) = listener.accept().await.expect("accept");
        let mut buf = vec![0u8; 4096];
        let n = sock.read(&mut buf).await.expect("read");
        let body = br#"{"dataSources":[]}"#;
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            body.len()
        );
        sock.write_all(head.as_bytes()).await.expect("write");
        sock.write_all(body).await.expect("write");
        String::from_utf8_lossy(&buf[..n]).to_lowercase()
    });
    let c = ApiClient::new(ClientConfig::new(format!("http://{addr}")).token("tok-xyz"))
        .expect("client");
    assert_eq!(c.data_sources().await.expect("answer"), vec![]);
    let request = server.await.expect("server");
    assert!(
        request.starts_with("get /catalog/datasources http/1.1"),
        "{request}"
    );
    assert!(request.contains("user-agent: fleetview/"), "{request}");
    assert!(request.contains("x-access-token: tok-xyz"), "{request}");
    assert!(request.contains("accept-encoding: gzip"), "{request}");
}

mod redirects;

mod limits;

mod login;
