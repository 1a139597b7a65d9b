//! A stand-in for the real service in tests: fixed bodies served by route on
//! 127.0.0.1 (a free port), with the requests counted per path.
//!
//! Any `x-access-token` is accepted (a request without one gets 401);
//! `POST /login` (and the sandbox's `/auth/login`) answer a login as the
//! real service does; a route not given answers the fallback, 404
//! `{message}` unless told otherwise. Routes can be changed while it runs
//! (`set`), e.g. to make an endpoint answer 404.
//!
//! ```ignore
//! let stub = Stub::start(
//!     Routes::new()
//!         .fixture("/v2/fleet/equipments/7/positions", "positions.json")
//!         .not_found("/v2/fleet/equipments"),
//! )
//! .await;
//! // ... point a client at stub.base ...
//! assert_eq!(stub.hits("/v2/fleet/equipments/7/positions"), 1);
//! ```

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A status and a JSON body.
pub type Answer = (StatusCode, Vec<u8>);

/// The token every login answers.
pub const TOKEN: &str = "stub-token";

/// What the stub answers, by method and path (the query is not looked at).
#[derive(Debug, Clone)]
pub struct Routes {
    answers: HashMap<(Method, String), Answer>,
    fallback: Answer,
}

impl Default for Routes {
    fn default() -> Self {
        Self::new()
    }
}

impl Routes {
    /// The login routes, and 404 `{message}` for everything else.
    pub fn new() -> Self {
        let login = serde_json::to_vec(&json!({
            "id": 42,
            "email": "fleet.manager@example.com",
            "admin": false,
            "firstName": "Ana",
            "lastName": "Silva",
            "token": TOKEN,
        }))
        .expect("a login answer");
        Self {
            answers: HashMap::new(),
            fallback: message(StatusCode::NOT_FOUND, "no such path"),
        }
        .route(Method::POST, "/login", StatusCode::OK, login.clone())
        .route(Method::POST, "/auth/login", StatusCode::OK, login)
    }

    pub fn route(
        mut self,
        method: Method,
        path: &str,
        status: StatusCode,
        body: impl Into<Vec<u8>>,
    ) -> Self {
        self.insert(method, path, (status, body.into()));
        self
    }

    fn insert(&mut self, method: Method, path: &str, answer: Answer) {
        self.answers.insert((method, path.to_owned()), answer);
    }

    /// `GET path` answers 200 with `body`.
    pub fn get(self, path: &str, body: impl Into<Vec<u8>>) -> Self {
        self.route(Method::GET, path, StatusCode::OK, body)
    }

    /// `GET path` answers 200 with the fixture file `name` (see [`fixture`]).
    pub fn fixture(self, path: &str, name: &str) -> Self {
        self.get(path, fixture(name))
    }

    /// `GET path` answers 404 `{message}`.
    pub fn not_found(self, path: &str) -> Self {
        let (status, body) = message(StatusCode::NOT_FOUND, "not found");
        self.route(Method::GET, path, status, body)
    }

    /// What a route not given answers.
    pub fn fallback(mut self, status: StatusCode, body: impl Into<Vec<u8>>) -> Self {
        self.fallback = (status, body.into());
        self
    }

    fn answer(&self, method: &Method, path: &str) -> Answer {
        self.answers
            .get(&(method.clone(), path.to_owned()))
            .cloned()
            .unwrap_or_else(|| self.fallback.clone())
    }
}

/// An error body as the service writes them (D3).
pub fn message(status: StatusCode, text: &str) -> Answer {
    (
        status,
        serde_json::to_vec(&json!({ "message": text })).expect("a message"),
    )
}

/// The bytes of `fixtures/real/{name}` (in this crate).
pub fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/real")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("fixture {}: {e}", path.display()))
}

/// A running stub; it stops when dropped.
#[derive(Debug)]
pub struct Stub {
    /// `http://127.0.0.1:PORT`, no trailing slash.
    pub base: String,
    routes: Arc<Mutex<Routes>>,
    hits: Arc<Mutex<HashMap<String, usize>>>,
    server: tokio::task::JoinHandle<()>,
}

impl Stub {
    /// Starts serving on the current tokio runtime (a multi-thread runtime
    /// keeps serving while a test's thread does other things).
    pub async fn start(routes: Routes) -> Stub {
        let routes = Arc::new(Mutex::new(routes));
        let hits = Arc::new(Mutex::new(HashMap::<String, usize>::new()));
        let (shared_routes, shared_hits) = (routes.clone(), hits.clone());
        let handler = move |method: Method, uri: Uri, headers: HeaderMap| {
            let (routes, hits) = (shared_routes.clone(), shared_hits.clone());
            async move {
                let path = uri.path().to_owned();
                *hits.lock().expect("hits").entry(path.clone()).or_default() += 1;
                let login = method == Method::POST && (path == "/login" || path == "/auth/login");
                let (status, body) = if login || headers.contains_key("x-access-token") {
                    routes.lock().expect("routes").answer(&method, &path)
                } else {
                    message(StatusCode::UNAUTHORIZED, "missing x-access-token")
                };
                let mut resp: Response = (status, body).into_response();
                resp.headers_mut().insert(
                    header::CONTENT_TYPE,
                    "application/json".parse().expect("a header value"),
                );
                resp
            }
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback port");
        let base = format!("http://{}", listener.local_addr().expect("an address"));
        let app = axum::Router::new().fallback(handler);
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Stub {
            base,
            routes,
            hits,
            server,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Requests received for `path` (any method, any query).
    pub fn hits(&self, path: &str) -> usize {
        self.hits
            .lock()
            .expect("hits")
            .get(path)
            .copied()
            .unwrap_or(0)
    }

    /// Changes what `method path` answers from now on.
    pub fn set(&self, method: Method, path: &str, status: StatusCode, body: impl Into<Vec<u8>>) {
        self.routes
            .lock()
            .expect("routes")
            .insert(method, path, (status, body.into()));
    }
}

impl Drop for Stub {
    fn drop(&mut self) {
        self.server.abort();
    }
}
