//! Errors in words a fleet manager understands, in one place for every
//! panel, the connection, the catalog and the exports: a short line for
//! the panel that failed, a sentence for the one notice of the cause, and
//! the technical text kept as the detail (shown on demand, never as the
//! headline). The same cause gives the same sentence, so several panels
//! failing for one reason make one notice.

use fleetview_api::{ApiError, NetworkCause};

/// A failure said in words.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Problem {
    /// A few words for the panel that failed ("Not in the cache").
    pub short: String,
    /// The cause in a sentence, for its one notice.
    pub title: String,
    /// The technical text (under Details).
    pub detail: String,
}

impl Problem {
    /// The sentence said (the title).
    pub fn as_str(&self) -> &str {
        &self.title
    }

    /// The title and, under it, the technical text: a panel's hover.
    pub fn hover_text(&self) -> String {
        if self.detail.is_empty() || self.detail == self.title {
            self.title.clone()
        } else {
            format!("{}\n\nDetails: {}", self.title, self.detail)
        }
    }
}

/// A problem the app words itself (no technical text behind it).
impl From<String> for Problem {
    fn from(s: String) -> Self {
        Self {
            short: s.clone(),
            title: s,
            detail: String::new(),
        }
    }
}

impl From<&str> for Problem {
    fn from(s: &str) -> Self {
        s.to_owned().into()
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.short)
    }
}

/// A read of what the cache may hold (a panel, a plot, the track): with
/// the service out of reach, the cache was asked first and held none of it.
pub fn explain_read(error: &ApiError) -> Problem {
    let mut p = explain(error);
    if error.is_unreachable() || matches!(error, ApiError::NotConnected) {
        "Not in the cache".clone_into(&mut p.short);
    }
    p
}

/// What an error means, in words.
pub fn explain(error: &ApiError) -> Problem {
    let (short, title) = words(error);
    Problem {
        short: short.to_owned(),
        title,
        detail: error.to_string(),
    }
}

/// The service out of reach at `base_url`, when no error says more (data
/// served from the cache said it).
pub fn unreachable(base_url: &str) -> Problem {
    Problem {
        short: "Can't reach the service".to_owned(),
        title: format!("Can't reach {}", address_of(base_url)),
        detail: String::new(),
    }
}

/// `host:port` of a base URL, as the client's errors name it.
fn address_of(base_url: &str) -> String {
    reqwest::Url::parse(base_url)
        .ok()
        .and_then(|u| Some(format!("{}:{}", u.host_str()?, u.port_or_known_default()?)))
        .unwrap_or_else(|| base_url.to_owned())
}

/// The short line and the sentence of an error.
fn words(error: &ApiError) -> (&'static str, String) {
    match error {
        ApiError::NotFound { message, .. } => (
            "Not known to the service",
            format!("The service does not know this: {}", sentence(message)),
        ),
        ApiError::BadRequest { message, .. } => (
            "Refused by the service",
            format!("The service refused the request: {}", sentence(message)),
        ),
        ApiError::Server { status: 429, .. } => (
            "The service is busy",
            "The service is busy: try again in a moment".to_owned(),
        ),
        ApiError::Server { status, .. } if *status >= 500 => (
            "The service had a problem",
            format!("The service had a problem (error {status}): try again later"),
        ),
        ApiError::Server {
            status, message, ..
        } => (
            "Refused by the service",
            format!("The service answered error {status}: {}", sentence(message)),
        ),
        ApiError::Network { address, cause, .. } => {
            ("Can't reach the service", network_words(address, *cause))
        }
        ApiError::Timeout {
            timeout_secs,
            address,
            connect: true,
            ..
        } => (
            "Can't reach the service",
            format!("{address} did not take the connection within {timeout_secs} s"),
        ),
        ApiError::Timeout {
            timeout_secs,
            address,
            ..
        } => (
            "The service did not answer",
            format!("{address} did not answer within {timeout_secs} s"),
        ),
        ApiError::Decode { .. } => (
            "The answer could not be read",
            "The service's answer could not be read".to_owned(),
        ),
        ApiError::Unauthorized { endpoint, message } => {
            let what = if endpoint == "POST /login" {
                "API key"
            } else {
                "access token"
            };
            (
                "Not signed in",
                format!("The service refused the {what}: {}", sentence(message)),
            )
        }
        other => config_words(other),
    }
}

/// Errors of the app's settings rather than the service's answers.
fn config_words(error: &ApiError) -> (&'static str, String) {
    match error {
        ApiError::InsecureTransport { host } => (
            "Not sent over plain http",
            format!(
                "Not sent: the token would travel unencrypted to {host} (use https, or allow insecure http)"
            ),
        ),
        ApiError::InvalidBaseUrl { url, reason } => (
            "Not a service address",
            format!("'{url}' is not a service address: {reason}"),
        ),
        ApiError::NoToken => (
            "No API key or token",
            "No API key or access token: enter one in the Connections window".to_owned(),
        ),
        ApiError::NotConnected => ("Not connected", "Not connected to a service".to_owned()),
        ApiError::Redirected { location, .. } => (
            "Redirected: not followed",
            format!(
                "Not followed: the service redirected to another address ({location}), which would get the token"
            ),
        ),
        ApiError::TooLarge { limit_bytes, .. } => (
            "Too large: choose a shorter window",
            format!(
                "The service's answer is larger than {}: choose a shorter window",
                fleetview_api::error::describe_bytes(*limit_bytes)
            ),
        ),
        ApiError::WindowTooLong { days, max_years } => (
            "The window is too long",
            format!(
                "The window is {days} days long: at most {max_years} years can be read at a time"
            ),
        ),
        ApiError::KeychainTimeout { .. } => (
            "The keychain did not answer",
            "The system keychain did not answer: enter the token again".to_owned(),
        ),
        other => ("Failed", sentence(&other.to_string())),
    }
}

/// Why `address` could not be reached, in a sentence.
fn network_words(address: &str, cause: NetworkCause) -> String {
    match cause {
        NetworkCause::Refused => format!("Can't reach {address}: nothing is listening there"),
        NetworkCause::NoSuchHost => {
            format!("Can't reach {address}: no computer has that name (check the address)")
        }
        NetworkCause::NoRoute => {
            format!("Can't reach {address}: no network route to it (is this computer online?)")
        }
        NetworkCause::Tls => {
            format!("Can't reach {address} securely: its certificate was not accepted")
        }
        NetworkCause::Dropped => format!("{address} cut the connection"),
        NetworkCause::Other => format!("Can't reach {address}"),
    }
}

/// The service's message as the end of a sentence (trimmed, no final dot
/// doubled).
fn sentence(message: &str) -> String {
    message.trim().trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(path: &str) -> String {
        format!("GET /v2/fleet/equipments/999999/{path}")
    }

    #[test]
    fn one_cause_one_title_whatever_failed() {
        let titles: Vec<String> = ["faults", "activities", "history"]
            .iter()
            .flat_map(|p| {
                let missing = ApiError::NotFound {
                    endpoint: endpoint(p),
                    message: "equipment 999999 not found".into(),
                };
                let garbled = ApiError::Decode {
                    endpoint: endpoint(p),
                    message: "expected value".into(),
                    transient: false,
                };
                [explain(&missing).title, explain(&garbled).title]
            })
            .collect();
        assert!(
            titles.iter().step_by(2).all(|t| *t == titles[0]),
            "{titles:?}"
        );
        assert!(titles.iter().skip(1).step_by(2).all(|t| *t == titles[1]));
        assert_eq!(
            titles[0],
            "The service does not know this: equipment 999999 not found"
        );
    }

    #[test]
    fn raw_text_stays_in_the_detail_only() {
        let e = ApiError::Network {
            endpoint: endpoint("faults"),
            message: "client error (Connect): tcp connect error (os error 111)".into(),
            refused: true,
            address: "127.0.0.1:18089".into(),
            cause: NetworkCause::Refused,
        };
        let p = explain_read(&e);
        assert_eq!(
            p.title,
            "Can't reach 127.0.0.1:18089: nothing is listening there"
        );
        assert_eq!(p.short, "Not in the cache");
        assert!(p.detail.contains("os error 111"));
        assert!(!p.title.contains("GET") && !p.short.contains("GET"));
        let e = ApiError::Server {
            endpoint: endpoint("faults"),
            status: 503,
            message: "down".into(),
            retry_after: None,
        };
        assert!(explain(&e).title.contains("try again later"));
    }

    #[test]
    fn a_refused_login_names_the_key_not_the_request() {
        let e = ApiError::Unauthorized {
            endpoint: "POST /login".into(),
            message: "invalid API key.".into(),
        };
        let p = explain(&e);
        assert_eq!(p.title, "The service refused the API key: invalid API key");
        assert!(p.detail.contains("POST /login"));
    }

    #[test]
    fn an_address_without_an_error_is_host_and_port() {
        assert_eq!(
            unreachable("http://127.0.0.1:18089").title,
            "Can't reach 127.0.0.1:18089"
        );
        assert_eq!(
            unreachable("https://fleet.example.com/api").title,
            "Can't reach fleet.example.com:443"
        );
    }
}
