//! Errors in words a fleet manager understands: a short title saying what
//! happened to what, the technical text kept as the detail (shown on
//! demand). The same cause gives the same title, so several panels failing
//! for one reason make one notice.

use fleetview_api::ApiError;

/// A title and the detail behind it, for a failure to load `what` ("the
/// faults", "a plotted data kind").
pub fn explain(error: &ApiError, what: &str) -> (String, String) {
    let detail = error.to_string();
    let title = match error {
        ApiError::NotFound { message, .. } => {
            format!("The service does not know this: {}", sentence(message))
        }
        ApiError::BadRequest { message, .. } => {
            format!("The service refused the request: {}", sentence(message))
        }
        ApiError::Server { status: 429, .. } => {
            "The service is busy: try again in a moment".to_owned()
        }
        ApiError::Server { status, .. } if *status >= 500 => {
            format!("The service had a problem (error {status}): try again later")
        }
        ApiError::Server {
            status, message, ..
        } => {
            format!("The service answered error {status}: {}", sentence(message))
        }
        ApiError::Network { .. } => "The service cannot be reached".to_owned(),
        ApiError::Timeout { timeout_secs, .. } => {
            format!("The service did not answer within {timeout_secs} s")
        }
        ApiError::Decode { .. } => format!("The service's answer for {what} could not be read"),
        ApiError::Unauthorized { endpoint, message } => {
            let what = if endpoint == "POST /login" {
                "API key"
            } else {
                "access token"
            };
            format!("The service refused the {what}: {}", sentence(message))
        }
        ApiError::InsecureTransport { host } => format!(
            "Not sent: the token would travel unencrypted to {host} (use https, or allow insecure http)"
        ),
        ApiError::InvalidBaseUrl { url, reason } => {
            format!("'{url}' is not a service address: {reason}")
        }
        ApiError::NoToken => {
            "No API key or access token: enter one in the Connections window".to_owned()
        }
        ApiError::NotConnected => "Not connected to a service".to_owned(),
        ApiError::Redirected { location, .. } => format!(
            "Not followed: the service redirected to another address ({location}), which would get the token"
        ),
        ApiError::TooLarge { limit_bytes, .. } => format!(
            "The service's answer for {what} is larger than {}: choose a shorter window",
            fleetview_api::error::describe_bytes(*limit_bytes)
        ),
        ApiError::WindowTooLong { days, max_years } => format!(
            "The window is {days} days long: at most {max_years} years can be read at a time"
        ),
        ApiError::KeychainTimeout { .. } => {
            "The system keychain did not answer: enter the token again".to_owned()
        }
    };
    (title, detail)
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
            .map(|p| {
                let e = ApiError::NotFound {
                    endpoint: endpoint(p),
                    message: "equipment 999999 not found".into(),
                };
                explain(&e, p).0
            })
            .collect();
        assert!(titles.iter().all(|t| *t == titles[0]), "{titles:?}");
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
        };
        let (title, detail) = explain(&e, "the faults");
        assert_eq!(title, "The service cannot be reached");
        assert!(detail.contains("os error 111"));
        let e = ApiError::Server {
            endpoint: endpoint("faults"),
            status: 503,
            message: "down".into(),
            retry_after: None,
        };
        assert!(explain(&e, "the faults").0.contains("try again later"));
    }
}
