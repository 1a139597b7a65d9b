//! The service's own time, as its answers tell it: what is final in a
//! window is decided by the service's clock, never by this computer's
//! alone. Each answer's `Date` header is recorded; a service that
//! sends none is at least as late as the newest row it returned.

use std::sync::atomic::{AtomicI64, Ordering};

use super::time::parse_lenient;

/// Nothing recorded yet.
const UNKNOWN: i64 = i64::MIN;

/// The service's clock as last read from its answers.
#[derive(Debug)]
pub(crate) struct ServiceTime {
    /// The `Date` of the last answer that had one.
    date_secs: AtomicI64,
    /// The newest row returned so far.
    newest_row_secs: AtomicI64,
}

impl Default for ServiceTime {
    fn default() -> Self {
        Self {
            date_secs: AtomicI64::new(UNKNOWN),
            newest_row_secs: AtomicI64::new(UNKNOWN),
        }
    }
}

impl ServiceTime {
    /// Records an answer's `Date` header, if it has a readable one, and
    /// returns it.
    pub(crate) fn saw_headers(&self, headers: &reqwest::header::HeaderMap) -> Option<i64> {
        let secs = headers
            .get(reqwest::header::DATE)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_http_date)?;
        self.date_secs.store(secs, Ordering::Relaxed);
        Some(secs)
    }

    /// Records the newest row of a list of rows in time order.
    pub(crate) fn saw_rows(&self, rows: &[u8]) {
        if let Some(secs) = newest_row_secs(rows) {
            self.newest_row_secs.fetch_max(secs, Ordering::Relaxed);
        }
    }

    /// Now by the service: its last `Date`, else the newest row it
    /// returned; `None` when it has told neither.
    pub(crate) fn now_secs(&self) -> Option<i64> {
        [&self.date_secs, &self.newest_row_secs]
            .into_iter()
            .map(|t| t.load(Ordering::Relaxed))
            .find(|&t| t != UNKNOWN)
    }
}

/// An HTTP date (`Tue, 15 Nov 1994 08:12:31 GMT`), in seconds.
pub fn parse_http_date(s: &str) -> Option<i64> {
    static PARSER: jiff::fmt::rfc2822::DateTimeParser = jiff::fmt::rfc2822::DateTimeParser::new();
    PARSER.parse_timestamp(s.trim()).ok().map(|t| t.as_second())
}

/// `secs` as an HTTP date (`Tue, 15 Nov 1994 08:12:31 GMT`).
/// Outside jiff's years (-9999..=9999) it is the epoch's.
pub fn format_http_date(secs: i64) -> String {
    jiff::Timestamp::from_second(secs)
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
        .strftime("%a, %d %b %Y %H:%M:%S GMT")
        .to_string()
}

/// The date of the last row of a JSON array of rows in time order: the
/// last `date…` key's value (`date`, `dateStart`, `dateEnd`), found by a
/// scan back from the end, never a decoding of the whole array.
fn newest_row_secs(rows: &[u8]) -> Option<i64> {
    const KEY: &[u8] = b"\"date";
    let mut end = rows.len();
    while let Some(at) = rows[..end].windows(KEY.len()).rposition(|w| w == KEY) {
        if let Some(secs) = date_value_after_key(&rows[at + 1..]) {
            return Some(secs);
        }
        end = at;
    }
    None
}

/// `dateXxx": "2025-06-18T15:30:00Z"` (the key's text after its opening
/// quote): the value, if it is a date.
fn date_value_after_key(text: &[u8]) -> Option<i64> {
    let close = text.iter().position(|&b| b == b'"')?;
    let rest = &text[close + 1..];
    let open = rest.iter().position(|&b| !b.is_ascii_whitespace())?;
    let rest = rest[open..].strip_prefix(b":")?;
    let start = rest.iter().position(|&b| !b.is_ascii_whitespace())?;
    let value = rest[start..].strip_prefix(b"\"")?;
    let len = value.iter().position(|&b| b == b'"')?;
    parse_lenient(std::str::from_utf8(&value[..len]).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_wire;

    #[test]
    fn http_dates_go_both_ways() {
        let t = parse_wire("2025-06-18T15:30:00Z").expect("wire");
        assert_eq!(format_http_date(t), "Wed, 18 Jun 2025 15:30:00 GMT");
        assert_eq!(parse_http_date("Wed, 18 Jun 2025 15:30:00 GMT"), Some(t));
        assert_eq!(parse_http_date("yesterday"), None);
    }

    #[test]
    fn the_newest_row_is_the_last_dated_one() {
        let rows = br#"[{"date":"2025-06-18T10:00:00Z","v":1},{"date" : "2025-06-18T11:00:00Z","note":"date"}]"#;
        assert_eq!(
            newest_row_secs(rows),
            parse_wire("2025-06-18T11:00:00Z").ok()
        );
        let activities =
            br#"[{"dateStart":"2025-06-18T10:00:00Z","dateEnd":"2025-06-18T12:00:00Z"}]"#;
        assert_eq!(
            newest_row_secs(activities),
            parse_wire("2025-06-18T12:00:00Z").ok()
        );
        assert_eq!(newest_row_secs(b"[]"), None);
    }

    #[test]
    fn the_date_header_wins_over_rows_and_nothing_told_is_none() {
        let time = ServiceTime::default();
        assert_eq!(time.now_secs(), None);
        time.saw_rows(br#"[{"date":"2025-06-18T11:00:00Z"}]"#);
        assert_eq!(time.now_secs(), parse_wire("2025-06-18T11:00:00Z").ok());
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(
            reqwest::header::DATE,
            "Wed, 18 Jun 2025 15:30:00 GMT".parse().expect("header"),
        );
        time.saw_headers(&headers);
        assert_eq!(time.now_secs(), parse_wire("2025-06-18T15:30:00Z").ok());
    }
}
