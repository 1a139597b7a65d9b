//! What the client may ask for in one request and read in one answer
//! (D13), and where it follows a redirect (D15).
//!
//! A window longer than [`MAX_WINDOW_SECS`] is refused before anything is
//! sent; shorter ones are cut into chunks the service accepts (366 days per
//! equipment, 31 days of the fleet history). A body is read as a stream and
//! given up once it passes `ClientConfig::max_body_bytes`. A redirect is
//! followed only to the origin the request went to, a few times at most.

use reqwest::Url;
use reqwest::redirect::{Attempt, Policy};

use super::error::ApiError;
use super::time::{SECS_PER_DAY, TimeWindow};

/// The longest window the client reads, in years.
pub(crate) const MAX_WINDOW_YEARS: i64 = 10;
/// Ten years of days, leap days included: any ten calendar years fit. The
/// app's date pickers refuse a longer custom window with the same cap.
pub const MAX_WINDOW_DAYS: i64 = 3653;
/// [`MAX_WINDOW_DAYS`] in seconds.
pub(crate) const MAX_WINDOW_SECS: i64 = MAX_WINDOW_DAYS * SECS_PER_DAY;
/// The longest window the service accepts for one equipment (the sandbox
/// refuses a longer one with these very numbers).
pub const MAX_EQUIPMENT_WINDOW_DAYS: i64 = 366;
/// [`MAX_EQUIPMENT_WINDOW_DAYS`] in seconds.
pub const MAX_EQUIPMENT_WINDOW_SECS: i64 = MAX_EQUIPMENT_WINDOW_DAYS * SECS_PER_DAY;
/// The longest window the service accepts for the deprecated fleet history.
pub const MAX_FLEET_WINDOW_DAYS: i64 = 31;
/// [`MAX_FLEET_WINDOW_DAYS`] in seconds.
pub(crate) const MAX_FLEET_WINDOW_SECS: i64 = MAX_FLEET_WINDOW_DAYS * SECS_PER_DAY;
/// The largest answer read by default, counted after decompression.
pub(crate) const DEFAULT_MAX_BODY_BYTES: u64 = 256 * 1024 * 1024;
/// Same-origin redirects followed for one request, at most.
pub(crate) const MAX_REDIRECTS: usize = 5;

/// Refuses a window longer than [`MAX_WINDOW_SECS`] (windows are inclusive).
pub fn check_window(w: TimeWindow) -> Result<(), ApiError> {
    let len_secs = w.until.saturating_sub(w.since).saturating_add(1);
    if len_secs <= MAX_WINDOW_SECS {
        return Ok(());
    }
    Err(ApiError::WindowTooLong {
        days: len_secs.div_euclid(SECS_PER_DAY) + i64::from(len_secs % SECS_PER_DAY != 0),
        max_years: MAX_WINDOW_YEARS,
    })
}

/// Why a redirect was not followed; found again in reqwest's error chain.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RedirectRefused {
    #[error("redirect to another origin: {0}")]
    OtherOrigin(String),
    #[error("more than {MAX_REDIRECTS} redirects")]
    TooMany,
}

/// Scheme, host and port (the default one when none is written).
fn origin(url: &Url) -> (&str, Option<&str>, Option<u16>) {
    (url.scheme(), url.host_str(), url.port_or_known_default())
}

/// `scheme://host:port` of a URL, never its path, query or user info.
pub(crate) fn origin_text(url: &Url) -> String {
    let host = url.host_str().unwrap_or("");
    match url.port_or_known_default() {
        Some(port) => format!("{}://{host}:{port}", url.scheme()),
        None => format!("{}://{host}", url.scheme()),
    }
}

/// D15: follows a redirect only to the origin of the first request.
pub(crate) fn redirect_policy() -> Policy {
    Policy::custom(|attempt: Attempt<'_>| {
        let Some(first) = attempt.previous().first() else {
            return attempt.follow();
        };
        if origin(attempt.url()) != origin(first) {
            let to = origin_text(attempt.url());
            return attempt.error(RedirectRefused::OtherOrigin(to));
        }
        if attempt.previous().len() > MAX_REDIRECTS {
            return attempt.error(RedirectRefused::TooMany);
        }
        attempt.follow()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::days_from_civil;

    #[test]
    fn ten_calendar_years_pass_and_a_second_more_does_not() {
        let since = days_from_civil(2015, 1, 1) * SECS_PER_DAY;
        let until = days_from_civil(2025, 1, 1) * SECS_PER_DAY - 1;
        assert_eq!(check_window(TimeWindow { since, until }), Ok(()));
        let w = TimeWindow {
            since,
            until: since + MAX_WINDOW_SECS,
        };
        assert_eq!(
            check_window(w),
            Err(ApiError::WindowTooLong {
                days: 3654,
                max_years: 10
            })
        );
        let eleven = TimeWindow {
            since,
            until: days_from_civil(2026, 1, 1) * SECS_PER_DAY - 1,
        };
        assert!(
            check_window(eleven)
                .expect_err("11 years")
                .to_string()
                .contains("4018 days long; fleetview reads at most 10 years"),
        );
    }

    #[test]
    fn an_origin_is_scheme_host_and_port() {
        let u = |s: &str| Url::parse(s).expect("url");
        assert_eq!(
            origin(&u("http://127.0.0.1/a")),
            origin(&u("http://127.0.0.1:80/b?c"))
        );
        assert_ne!(
            origin(&u("http://127.0.0.1:8080/")),
            origin(&u("http://[::ffff:127.0.0.1]:8080/"))
        );
        assert_ne!(
            origin(&u("http://h.example/")),
            origin(&u("https://h.example/"))
        );
        assert_eq!(
            origin_text(&u("https://user:pw@h.example/p?token=x")),
            "https://h.example:443"
        );
    }
}
