//! The command line's exit statuses: one per thing a script can act on
//! (sign in again, wait for the network, go online once), told from the
//! jobs' typed errors. `--help` and the man page list them.

use fleetview_api::ApiError;

/// Failed otherwise (the error on stderr).
pub const FAILED: u8 = 1;
/// Wrong usage: clap's own status, and ours for a value it cannot check
/// (an unknown data kind).
pub const USAGE: u8 = 2;
/// The service refused the API key or token (401 or 403).
pub const REFUSED: u8 = 3;
/// The service could not be reached (refused connection, no such host, no
/// route, a time-out), and the cache did not hold what was asked for.
pub const UNREACHABLE: u8 = 4;
/// Offline (`--offline`), the cache lacks what the job needs.
pub const NOT_CACHED: u8 = 5;

/// The `Exit status:` section of `--help` (and so of the man page).
pub const EXIT_STATUS_HELP: &str = "\
Exit status:
  0  done
  1  failed (the error on stderr)
  2  wrong usage (an unknown option or kind, a missing argument)
  3  the service refused the API key or token
  4  the service could not be reached, nor the cache serve the job
  5  offline, the cache lacks what the job needs

A closed output pipe (`fleetview export ... | head`) ends the job quietly
with status 0.";

/// What an [`ApiError`] says to a script.
pub fn api_status(e: &ApiError) -> u8 {
    match e {
        ApiError::Unauthorized { .. } | ApiError::Server { status: 403, .. } => REFUSED,
        e if e.is_unreachable() => UNREACHABLE,
        // The worker's answer offline where the cache holds nothing.
        ApiError::NotConnected => NOT_CACHED,
        _ => FAILED,
    }
}

/// A job's error that can say the service was out of reach: a job goes
/// offline when the service cannot be reached, and if the cache then
/// lacks what it needs, the cause to tell is the service (status 4), not
/// the cache (5).
pub(crate) trait OfflineJobError: Sized {
    /// The exit status it ends the command with.
    fn status(&self) -> u8;
    /// `then`, because the service could not be reached (`cause`).
    fn unreachable(cause: ApiError, then: Box<Self>) -> Self;

    /// `self`, or, when the job went offline because the service could
    /// not be reached (`cause`) and the cache then lacked what it
    /// needed, that the service could not be reached.
    fn after(self, cause: Option<ApiError>) -> Self {
        match cause {
            Some(cause) if self.status() == NOT_CACHED => Self::unreachable(cause, Box::new(self)),
            _ => self,
        }
    }
}

/// Whether `e`, or any error it came from, is a write to a reader that went
/// away (`fleetview export | head`): not a failure of the job.
pub fn is_closed_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(e);
    while let Some(e) = next {
        if io_kind(e) == Some(std::io::ErrorKind::BrokenPipe) {
            return true;
        }
        next = e.source();
    }
    false
}

/// The I/O error kind `e` stands for: the CSV and JSON writers' errors
/// hold their I/O error without giving it as their source.
fn io_kind(e: &(dyn std::error::Error + 'static)) -> Option<std::io::ErrorKind> {
    if let Some(io) = e.downcast_ref::<std::io::Error>() {
        return Some(io.kind());
    }
    if let Some(json) = e.downcast_ref::<serde_json::Error>() {
        return json.io_error_kind();
    }
    match e.downcast_ref::<csv::Error>()?.kind() {
        csv::ErrorKind::Io(io) => Some(io.kind()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Error, ErrorKind};

    fn server(status: u16) -> ApiError {
        ApiError::Server {
            endpoint: "POST /login".into(),
            status,
            message: String::new(),
            retry_after: None,
        }
    }

    #[test]
    fn a_refused_login_is_3_whether_401_or_403_and_a_5xx_is_1() {
        let unauthorized = ApiError::Unauthorized {
            endpoint: "POST /login".into(),
            message: String::new(),
        };
        assert_eq!(api_status(&unauthorized), REFUSED);
        assert_eq!(api_status(&server(403)), REFUSED);
        assert_eq!(api_status(&server(500)), FAILED);
        assert_eq!(api_status(&ApiError::NotConnected), NOT_CACHED);
        let timeout = ApiError::Timeout {
            endpoint: "GET /x".into(),
            timeout_secs: 10,
            address: "127.0.0.1:1".into(),
            connect: true,
        };
        assert_eq!(api_status(&timeout), UNREACHABLE);
    }

    #[test]
    fn a_broken_pipe_is_found_inside_the_writers_errors() {
        let pipe = || Error::from(ErrorKind::BrokenPipe);
        let csv = fleetview_core::export::ExportError::Csv(csv::Error::from(pipe()));
        assert!(is_closed_pipe(&csv));
        let csv = fleetview_core::export::ExportError::Csv(csv::Error::from(pipe()));
        let json = fleetview_core::export::ExportError::Json(serde_json::Error::io(pipe()));
        assert!(is_closed_pipe(&json));
        // As `write_output` wraps a document's failure.
        let wrapped = Error::other(fleetview_core::export::ExportError::Io(pipe()));
        assert!(is_closed_pipe(&wrapped));
        let full = fleetview_core::export::ExportError::Io(Error::from(ErrorKind::StorageFull));
        assert!(!is_closed_pipe(&full));
        // As the job returns it (`#[error(transparent)]` skips a level).
        assert!(is_closed_pipe(
            &super::super::export::CliExportError::Write(csv)
        ));
    }
}
