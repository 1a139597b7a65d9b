//! The API-key login (D1) and the equipment list (D2) through the client,
//! against the real sandbox: a refused token is renewed by one login for
//! all the requests refused together; the list is read whole, page by page.

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::common::{self, silent_service, start_with};
use super::fast_retry;
use fleetview_api::model::SecretValue;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_api::{ApiClient, ApiError, ClientConfig};
use fleetview_sandbox::simulate::FIRST_ID;
use fleetview_sandbox::{Clock, ManualClock};
use futures_util::TryStreamExt;

const TTL_SECS: i64 = 600;

fn key_client(base: &str, key: &str) -> ApiClient {
    let mut cfg = ClientConfig::new(base).api_key("demo", key);
    cfg.retry = fast_retry();
    ApiClient::new(cfg).expect("client")
}

/// A sandbox whose tokens run out when its clock is moved past TTL_SECS.
async fn expiring_sandbox() -> (common::Sandbox, ManualClock) {
    let clock = ManualClock::new(common::now());
    let sb = start_with(
        common::fixed_config()
            .clock(Clock::Manual(clock.clone()))
            .token_ttl_secs(TTL_SECS),
    )
    .await;
    (sb, clock)
}

#[tokio::test]
async fn an_expired_token_is_renewed_by_one_login_for_every_request_refused() {
    let (sb, clock) = expiring_sandbox().await;
    let logins = || sb.running.login_count();
    let before = logins();
    let client = key_client(&sb.base, "demo");
    assert_eq!(client.user(), None, "not logged in before a request");
    // No token yet: the first request logs in first.
    client.equipment(FIRST_ID).await.expect("a record");
    assert_eq!(logins(), before + 1);
    let user = client.user().expect("who logged in");
    assert!(user.label().is_some(), "{user:?}");
    let first_token = client.token().expect("a token");

    // The token runs out; a window of 8 chunks fetched 4 at a time is
    // refused at once and renewed by exactly one login.
    clock.advance(TTL_SECS + 1);
    let w = TimeWindow {
        since: common::now() - 56 * SECS_PER_DAY,
        until: common::now(),
    };
    let rows = client.positions(FIRST_ID, w).await.expect("positions");
    assert!(rows.total > 0);
    assert_eq!(logins(), before + 2, "one login for all the chunks refused");
    assert_ne!(client.token(), Some(first_token));
}

#[tokio::test]
async fn a_refused_key_or_token_is_said_and_a_token_alone_never_logs_in() {
    let (sb, clock) = expiring_sandbox().await;
    let before = sb.running.login_count();
    match key_client(&sb.base, "not-the-key").integrations().await {
        Err(ApiError::Unauthorized { endpoint, message }) => {
            assert_eq!(endpoint, "POST /login");
            assert!(!message.is_empty());
        }
        other => panic!("expected the key refused, got {other:?}"),
    }
    // A pasted token that runs out is refused: nothing to log in with.
    let mut cfg = ClientConfig::new(sb.base.clone()).token(sb.token.clone());
    cfg.retry = fast_retry();
    let token_only = ApiClient::new(cfg).expect("client");
    clock.advance(TTL_SECS + 1);
    assert!(matches!(
        token_only.integrations().await,
        Err(ApiError::Unauthorized { .. })
    ));
    assert_eq!(sb.running.login_count(), before, "no login succeeded");
    // The login itself answers who it is for, and keeps no state.
    let answer = token_only
        .login("demo", &SecretValue::new("demo"))
        .await
        .expect("login");
    assert!(answer.email.is_some() && !answer.token.is_empty());
    assert!(matches!(
        token_only.integrations().await,
        Err(ApiError::Unauthorized { .. })
    ));
}

#[tokio::test]
async fn the_list_is_read_whole_once_and_search_narrows_it() {
    let sb = start_with(common::fixed_config().fleet_size(120)).await;
    let client = key_client(&sb.base, "demo");
    let pages: Vec<_> = client.equipments("").try_collect().await.expect("pages");
    assert!(pages.len() >= 3, "120 machines come in pages of 50");
    let ids: Vec<i64> = pages
        .iter()
        .flat_map(|p| p.rows.iter().map(|r| r.id))
        .collect();
    let unique: HashSet<i64> = ids.iter().copied().collect();
    assert_eq!((ids.len(), unique.len()), (120, 120), "each machine once");
    assert_eq!(pages.last().map(|p| (p.done(), p.total)), Some((120, 120)));

    let first = client.equipment(FIRST_ID).await.expect("a record");
    let make = first.make.clone().expect("a make");
    let found: Vec<_> = client
        .equipments(&make.to_uppercase())
        .try_collect()
        .await
        .expect("search");
    let found: Vec<_> = found.into_iter().flat_map(|p| p.rows).collect();
    assert!(!found.is_empty() && found.len() < 120, "{}", found.len());
    assert!(found.iter().any(|r| r.id == FIRST_ID));
    assert!(matches!(
        client.equipment(999_999).await,
        Err(ApiError::NotFound { .. })
    ));
    // One machine's snapshot is its row of the fleet's.
    let one = client.snapshot(FIRST_ID).await.expect("a snapshot");
    let page = client.snapshots_page("", 50, 0).await.expect("snapshots");
    assert_eq!(page.rows.iter().find(|s| s.id == FIRST_ID), Some(&one));
}

#[tokio::test]
async fn a_token_given_with_a_key_is_used_until_it_is_refused() {
    let (sb, clock) = expiring_sandbox().await;
    let before = sb.running.login_count();
    let mut cfg = ClientConfig::new(sb.base.clone())
        .token(sb.token.clone())
        .api_key("demo", "demo");
    cfg.retry = fast_retry();
    let client = ApiClient::new(cfg).expect("client");
    assert_eq!(client.log_in_with_key().await.expect("nothing to do"), None);
    client.integrations().await.expect("with the token given");
    assert_eq!(sb.running.login_count(), before, "no login while it works");
    clock.advance(TTL_SECS + 1);
    client.integrations().await.expect("with a new token");
    assert_eq!(sb.running.login_count(), before + 1);
}

/// A client logging in with a key at `address`, giving up a read after
/// a second with no bytes coming.
fn impatient_client(address: &str) -> ApiClient {
    let mut cfg = ClientConfig::new(format!("http://{address}")).api_key("demo", "demo");
    cfg.retry = fast_retry();
    cfg.read_timeout = Duration::from_secs(1);
    ApiClient::new(cfg).expect("client")
}

/// A service that accepts connections and never answers: the login a GET
/// needs first is sent once (the GET's retries do not send it again), given
/// up after the time-out with no bytes coming, and said with the host.
#[tokio::test]
async fn a_login_with_no_answer_is_sent_once_and_said_with_the_host() {
    let (address, accepted) = silent_service().await;
    let client = impatient_client(&address);
    let started = Instant::now();
    let err = client.data_sources().await.expect_err("no answer");
    assert!(matches!(err, ApiError::Timeout { .. }), "{err:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(accepted.load(Ordering::SeqCst), 1, "one login");
    assert_eq!(
        err.to_string(),
        format!("POST /login: the service at {address} did not answer within 1 s")
    );
}

/// Requests that need a login while one is out wait for it and share its
/// failure: against a service that never answers, five GETs at once send
/// one login between them, not one each after the other (5 × the time-out);
/// so does a login asked for on its own meanwhile (as a worker connecting).
#[tokio::test]
async fn requests_waiting_on_a_login_with_no_answer_share_its_failure() {
    let (address, accepted) = silent_service().await;
    let client = impatient_client(&address);
    let started = Instant::now();
    let gets = futures_util::future::join_all((0..5).map(|_| client.data_sources()));
    let (answers, alone) = tokio::join!(gets, client.log_in_with_key());
    let mut said: Vec<String> = answers
        .into_iter()
        .map(|a| a.expect_err("no answer").to_string())
        .collect();
    said.push(alone.expect_err("no answer").to_string());
    let expected = format!("POST /login: the service at {address} did not answer within 1 s");
    assert!(said.iter().all(|s| *s == expected), "{said:?}");
    assert_eq!(accepted.load(Ordering::SeqCst), 1, "one login for all six");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}
