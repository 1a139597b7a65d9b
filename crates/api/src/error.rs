//! Errors of the HTTP client. Every variant names the endpoint (method and
//! path, never the query or a header) so a user can tell what failed.

use std::time::Duration;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// 401: the token was refused; `message` is the service's own words.
    #[error("{endpoint}: not authorised: {message}")]
    Unauthorized { endpoint: String, message: String },
    #[error("{endpoint}: not found: {message}")]
    NotFound { endpoint: String, message: String },
    #[error("{endpoint}: bad request: {message}")]
    BadRequest { endpoint: String, message: String },
    /// Any other status (5xx, 429 after retries, 405, ...).
    #[error("{endpoint}: the service answered {status}: {message}")]
    Server {
        endpoint: String,
        status: u16,
        message: String,
        /// `Retry-After` of a 429 or 503, when given.
        retry_after: Option<Duration>,
    },
    #[error("{endpoint}: network error: {message}")]
    Network {
        endpoint: String,
        message: String,
        /// Nothing answered at the address (refused, no route, no such
        /// host): the service is down, and waiting through the back-off
        /// would only keep the user from the cache.
        refused: bool,
        /// Where it was sent: `host:port` (no path, no query).
        address: String,
        /// What went wrong, as far as the error's sources tell.
        cause: NetworkCause,
    },
    #[error(
        "{endpoint}: the service at {address} {} within {timeout_secs} s",
        if *connect { "did not take the connection" } else { "did not answer" }
    )]
    Timeout {
        endpoint: String,
        timeout_secs: u64,
        /// Where it was sent: `host:port`.
        address: String,
        /// The connection was not set up in time (else: no answer came).
        connect: bool,
    },
    /// The body could not be read as the expected JSON. `transient` marks a
    /// body that was cut short or garbled (worth another try), as opposed to
    /// one of an unexpected shape.
    #[error("{endpoint}: unreadable answer: {message}")]
    Decode {
        endpoint: String,
        message: String,
        transient: bool,
    },
    /// D12: a token is never sent over plain HTTP beyond loopback unless
    /// the user allowed it.
    #[error(
        "refusing to send the access token over plain http to {host}: use https, or allow insecure http explicitly"
    )]
    InsecureTransport { host: String },
    #[error("invalid base URL '{url}': {reason}")]
    InvalidBaseUrl { url: String, reason: String },
    #[error(
        "no API key or access token: give an API key (its name and the key) or a token \
         (on the command line: --api-key-name and --api-key, or --token)"
    )]
    NoToken,
    #[error("not connected to a service (working offline)")]
    NotConnected,
    /// D15: a redirect to another scheme, host or port is not followed
    /// (the token would go with it). `location` is that address's origin.
    #[error(
        "{endpoint}: the service redirected to another address ({location}); fleetview does not send your token there"
    )]
    Redirected { endpoint: String, location: String },
    /// D13: the answer grew past the body cap (counted after gzip).
    #[error(
        "{endpoint}: the answer is larger than {}, more than fleetview reads in one answer: ask for a shorter window",
        describe_bytes(*.limit_bytes)
    )]
    TooLarge { endpoint: String, limit_bytes: u64 },
    /// D13: a window longer than the client's cap, refused before any request.
    #[error(
        "the window asked for is {days} days long; fleetview reads at most {max_years} years at a time: choose a shorter window"
    )]
    WindowTooLong { days: i64, max_years: i64 },
    /// The system keychain did not answer in time (a locked or hung
    /// Secret Service): what needed it is given up, nothing else waits.
    #[error(
        "the system keychain did not answer within {timeout_secs} s: enter the token again (it is then kept for this session)"
    )]
    KeychainTimeout { timeout_secs: u64 },
}

/// Why a request got no answer, read from the error's sources, so it can
/// be said in a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetworkCause {
    /// The host is there, but nothing listens on the port.
    Refused,
    /// The host name could not be looked up.
    NoSuchHost,
    /// No network route to the host (this computer offline, or a firewall).
    NoRoute,
    /// The secure connection was not set up (certificate, TLS).
    Tls,
    /// The connection was cut while talking.
    Dropped,
    Other,
}

/// A byte count as people read a limit: whole megabytes when it is some.
pub fn describe_bytes(bytes: u64) -> String {
    const MB: u64 = 1024 * 1024;
    if bytes >= MB && bytes.is_multiple_of(MB) {
        format!("{} MB", bytes / MB)
    } else {
        format!("{bytes} bytes")
    }
}

impl ApiError {
    /// Whether a GET may be tried again: network trouble, timeouts, 5xx,
    /// 429, and bodies cut short. Never for requests that change state.
    pub fn is_retryable(&self) -> bool {
        match self {
            ApiError::Network { .. } | ApiError::Timeout { .. } => true,
            ApiError::Server { status, .. } => *status >= 500 || *status == 429,
            ApiError::Decode { transient, .. } => *transient,
            _ => false,
        }
    }

    /// How many times a GET failing so is tried again: a service that
    /// refuses the connection once more, quickly; one that kept it waiting
    /// until a time-out once more (tens of seconds each: more would keep a
    /// person waiting minutes); other failures per policy.
    pub(crate) fn retries(&self, max_retries: u32) -> u32 {
        match self {
            ApiError::Network { refused: true, .. } | ApiError::Timeout { .. } => {
                max_retries.min(1)
            }
            _ => max_retries,
        }
    }

    pub(crate) fn is_refused(&self) -> bool {
        matches!(self, ApiError::Network { refused: true, .. })
    }

    pub(crate) fn retry_after(&self) -> Option<Duration> {
        match self {
            ApiError::Server { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    pub fn is_unauthorized(&self) -> bool {
        matches!(self, ApiError::Unauthorized { .. })
    }

    /// Whether the service could not be reached at all (as opposed to
    /// answering with an error): the app then works offline from its cache.
    pub fn is_unreachable(&self) -> bool {
        matches!(self, ApiError::Network { .. } | ApiError::Timeout { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_reads_as_megabytes_when_it_is_some() {
        assert_eq!(describe_bytes(256 * 1024 * 1024), "256 MB");
        assert_eq!(describe_bytes(1000), "1000 bytes");
        let e = ApiError::TooLarge {
            endpoint: "GET /x".into(),
            limit_bytes: 256 * 1024 * 1024,
        };
        assert!(
            e.to_string()
                .starts_with("GET /x: the answer is larger than 256 MB"),
            "{e}"
        );
        assert!(!e.is_retryable() && !e.is_unreachable());
    }
}
