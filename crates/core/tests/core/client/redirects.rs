//! D15: a redirect is followed within the origin asked only; the token
//! never reaches another scheme, host or port.

use super::*;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const LIST: &str = r#"{"dataSources":[]}"#;

/// A listener that keeps the head of every request it receives (in
/// lower case) and answers each with an empty list of data sources.
async fn recorder() -> (SocketAddr, Arc<Mutex<Vec<String>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let seen = Arc::new(Mutex::new(Vec::new()));
    let kept = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let kept = kept.clone();
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut buf = [0u8; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match sock.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let text = String::from_utf8_lossy(&head).to_lowercase();
                kept.lock().expect("lock").push(text);
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{LIST}",
                    LIST.len()
                );
                let _ = sock.write_all(answer.as_bytes()).await;
            });
        }
    });
    (addr, seen)
}

/// A service that redirects by the first segment of the path: to the
/// recorder through an IPv4-mapped IPv6 address, to the recorder's
/// port on 127.0.0.1, within itself, or to itself for ever.
async fn redirector(to: SocketAddr) -> (SocketAddr, Arc<Mutex<Vec<Option<String>>>>) {
    let tokens = Arc::new(Mutex::new(Vec::new()));
    let kept = tokens.clone();
    let handler = move |uri: Uri, headers: HeaderMap| {
        let kept = kept.clone();
        async move {
            let token = headers
                .get("x-access-token")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            kept.lock().expect("lock").push(token);
            let path = uri.path();
            let port = to.port();
            let location = match path.split('/').nth(1).unwrap_or("") {
                "mapped" => format!("http://[::ffff:127.0.0.1]:{port}/catalog/dataSources"),
                "other-port" => format!("http://127.0.0.1:{port}/catalog/dataSources"),
                "other-scheme" => format!("https://127.0.0.1:{port}/catalog/dataSources"),
                "same" => "/ok/catalog/dataSources".to_owned(),
                "loop" => path.to_owned(),
                _ => {
                    return ([(header::CONTENT_TYPE, "application/json")], LIST).into_response();
                }
            };
            let mut resp: Response = StatusCode::TEMPORARY_REDIRECT.into_response();
            resp.headers_mut().insert(
                header::LOCATION,
                location.parse().expect("a location header"),
            );
            resp
        }
    };
    let app = axum::Router::new().fallback(handler);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (addr, tokens)
}

#[tokio::test]
async fn a_redirect_elsewhere_is_refused_and_never_gets_the_token() {
    let (elsewhere, seen) = recorder().await;
    let (service, tokens) = redirector(elsewhere).await;
    let client = |first: &str| {
        let mut cfg =
            ClientConfig::new(format!("http://{service}/{first}")).token("tok-redirected");
        cfg.retry = fast_retry();
        ApiClient::new(cfg).expect("client")
    };

    for (first, shown) in [
        (
            "mapped",
            format!("http://[::ffff:7f00:1]:{}", elsewhere.port()),
        ),
        (
            "other-port",
            format!("http://127.0.0.1:{}", elsewhere.port()),
        ),
        (
            "other-scheme",
            format!("https://127.0.0.1:{}", elsewhere.port()),
        ),
    ] {
        let err = client(first).data_sources().await.expect_err(first);
        match &err {
            ApiError::Redirected { endpoint, location } => {
                assert_eq!(endpoint, "GET /catalog/dataSources");
                assert_eq!(location, &shown);
            }
            other => panic!("{first}: expected a refused redirect, got {other:?}"),
        }
        let text = err.to_string();
        assert!(
            text.contains("redirected to another address")
                && text.contains("does not send your token there"),
            "{text}"
        );
    }
    let received = seen.lock().expect("lock").clone();
    assert!(
        received.iter().all(|head| !head.contains("x-access-token")),
        "the token reached another port: {received:?}"
    );
    assert!(received.is_empty(), "nothing was sent there: {received:?}");

    // Within the same origin a redirect is followed, token and all; a
    // loop is given up after a few.
    assert_eq!(client("same").data_sources().await, Ok(vec![]));
    let looped = client("loop").data_sources().await.expect_err("a loop");
    assert!(looped.to_string().contains("redirects"), "{looped}");
    assert!(
        tokens
            .lock()
            .expect("lock")
            .iter()
            .all(|t| t.as_deref() == Some("tok-redirected"))
    );
}
