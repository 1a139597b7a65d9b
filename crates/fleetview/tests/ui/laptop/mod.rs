//! A laptop on battery, offline, in a hurry: idle CPU, keystrokes that
//! reach their field, shortcuts that wait while typing, errors in plain
//! words, pages that keep what the cache holds, files written somewhere
//! when there is no dialog, a layout that fits a small screen, and maps
//! that read in both themes. `cargo test -- laptop` runs them all.

mod desktop;
mod idle;
mod layout;
mod maps;
mod pages;
mod typing;
mod words;

/// A loopback address where nothing listens.
fn closed_address() -> std::net::SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
}

/// A service where nothing listens, with a token (offline from the start).
fn closed_service() -> fleetview::shell::ServiceOptions {
    fleetview::shell::ServiceOptions {
        base_url: format!("http://{}/", closed_address()),
        token: Some(fleetview_api::model::SecretValue::new("a token".to_owned())),
        api_key: None,
        allow_insecure_http: true,
    }
}
