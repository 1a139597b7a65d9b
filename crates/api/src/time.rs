//! The service's date-time wire format and time windows (D8).
//!
//! Times are whole UTC seconds since the Unix epoch (`i64`). The wire format is
//! exactly `YYYY-MM-DDTHH:mm:ssZ`; it is parsed by hand because it is on the
//! hot path of decoding every row, and formatted without allocation. A real
//! service's dates may carry milliseconds or an offset: a row's
//! [`Timestamp`] keeps the milliseconds (as UTC), and an instant that has
//! them is written with them ([`format_instant`]); requests still send
//! whole seconds only (D8).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub const SECS_PER_DAY: i64 = 86_400;

/// Length of the wire format, `YYYY-MM-DDTHH:mm:ssZ`.
pub(crate) const WIRE_LEN: usize = 20;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeError {
    #[error("'{0}' is not a date-time in the form YYYY-MM-DDTHH:mm:ssZ")]
    Format(String),
    #[error("'{0}' is not a valid calendar date-time")]
    OutOfRange(String),
    #[error("since ({since}) is after until ({until})")]
    Reversed { since: String, until: String },
}

/// Days from 1970-01-01 to the given civil date (proleptic Gregorian).
/// Howard Hinnant's `days_from_civil`, exact for all `i32` years.
pub const fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = month as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Civil date (year, month 1..=12, day 1..=31) of a day number since 1970-01-01.
pub const fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    (year, month, day)
}

const fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

const fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 0,
    }
}

#[inline]
fn digits(b: &[u8]) -> Option<u32> {
    let mut v = 0u32;
    for &c in b {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + d as u32;
    }
    Some(v)
}

/// Parses exactly `YYYY-MM-DDTHH:mm:ssZ` into Unix seconds.
pub fn parse_wire(s: &str) -> Result<i64, TimeError> {
    let b = s.as_bytes();
    if b.len() != WIRE_LEN
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || b[19] != b'Z'
    {
        return Err(TimeError::Format(s.to_owned()));
    }
    let fields = (
        digits(&b[0..4]),
        digits(&b[5..7]),
        digits(&b[8..10]),
        digits(&b[11..13]),
        digits(&b[14..16]),
        digits(&b[17..19]),
    );
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = fields
    else {
        return Err(TimeError::Format(s.to_owned()));
    };
    let year = i64::from(year);
    if !(1..=12).contains(&month)
        || day == 0
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return Err(TimeError::OutOfRange(s.to_owned()));
    }
    Ok(days_from_civil(year, month, day) * SECS_PER_DAY
        + i64::from(hour * 3600 + minute * 60 + second))
}

/// A wire-date parser for dates that come in order (rows of a series):
/// consecutive dates mostly share their day, so the calendar arithmetic is
/// done once a day and only the time of day is parsed (with its
/// milliseconds, `HH:mm:ss.fffZ`, too). Same results as [`parse_instant`].
#[derive(Debug, Clone, Default)]
pub struct DateParser {
    day_prefix: [u8; 10],
    day_secs: Option<i64>,
}

impl DateParser {
    pub fn parse(&mut self, s: &str) -> Result<Timestamp, TimeError> {
        let b = s.as_bytes();
        if let Some(day_secs) = self.day_secs
            && b.len() >= WIRE_LEN
            && b[..10] == self.day_prefix
            && let Some((secs, ms)) = time_of_day(b)
        {
            return Ok(Timestamp::from_parts(day_secs + i64::from(secs), ms));
        }
        let t = parse_instant(s)?;
        if b.len() >= WIRE_LEN && time_of_day(b).is_some() {
            self.day_prefix.copy_from_slice(&b[..10]);
            self.day_secs = Some(t.0.div_euclid(SECS_PER_DAY) * SECS_PER_DAY);
        }
        Ok(t)
    }
}

/// The time of day of `...THH:mm:ssZ` or `...THH:mm:ss.f+Z` (seconds into
/// the day, milliseconds), if that is how the date ends.
#[inline]
fn time_of_day(b: &[u8]) -> Option<(u32, u16)> {
    if b[10] != b'T' || b[13] != b':' || b[16] != b':' || b[b.len() - 1] != b'Z' {
        return None;
    }
    let ms = match b.len() {
        WIRE_LEN => 0,
        n if n > WIRE_LEN + 1 && b[19] == b'.' => fraction_ms(&b[20..n - 1])?,
        _ => return None,
    };
    let (h, m, sec) = (
        digits(&b[11..13])?,
        digits(&b[14..16])?,
        digits(&b[17..19])?,
    );
    (h < 24 && m < 60 && sec < 60).then_some((h * 3600 + m * 60 + sec, ms))
}

/// Milliseconds of a fraction of a second's digits (`7`, `721`, `721000`):
/// digits past the third are cut off.
#[inline]
fn fraction_ms(f: &[u8]) -> Option<u16> {
    if f.is_empty() || f.len() > 9 || !f.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let ms = f
        .iter()
        .chain(std::iter::repeat(&b'0'))
        .take(3)
        .fold(0u16, |v, d| v * 10 + u16::from(d - b'0'));
    Some(ms)
}

/// Parses the wire format, and failing that any RFC 3339 date-time (fractional
/// seconds, offsets), so rows from a real service that strays from the
/// documented format still decode. Fractions are truncated to whole seconds
/// (see [`parse_instant`] to keep the milliseconds).
pub fn parse_lenient(s: &str) -> Result<i64, TimeError> {
    parse_instant(s).map(|t| t.0)
}

/// Like [`parse_lenient`], keeping the milliseconds: an offset is turned
/// into UTC (`12:00:00+02:00` is `10:00:00Z`), digits past the millisecond
/// are cut off.
pub fn parse_instant(s: &str) -> Result<Timestamp, TimeError> {
    match parse_wire(s) {
        Ok(t) => Ok(Timestamp::from_secs(t)),
        Err(first) => utc_with_fraction(s)
            .or_else(|| rfc3339_fallback(s))
            .ok_or(first),
    }
}

/// `YYYY-MM-DDTHH:mm:ss.fffZ` by hand: how a real service writes
/// milliseconds, so common enough to skip the general parser for.
fn utc_with_fraction(s: &str) -> Option<Timestamp> {
    let b = s.as_bytes();
    if b.len() <= WIRE_LEN + 1 || b[19] != b'.' || b[b.len() - 1] != b'Z' {
        return None;
    }
    let ms = fraction_ms(&b[20..b.len() - 1])?;
    let mut whole = *b"0000-00-00T00:00:00Z";
    whole[..19].copy_from_slice(&b[..19]);
    let secs = parse_wire(std::str::from_utf8(&whole).ok()?).ok()?;
    Some(Timestamp::from_parts(secs, ms))
}

/// Any other RFC 3339 date-time: jiff's parser, which also reads forms RFC
/// 3339 does not (no seconds, the basic format), so the shape of
/// `YYYY-MM-DDTHH:mm:ss` is checked first and only a fraction and an
/// offset may follow. Milliseconds are floored, as before the epoch too.
fn rfc3339_fallback(s: &str) -> Option<Timestamp> {
    let b = s.as_bytes();
    let shaped = b.len() > WIRE_LEN
        && b[4] == b'-'
        && b[7] == b'-'
        && matches!(b[10], b'T' | b't' | b' ')
        && b[13] == b':'
        && b[16] == b':'
        && !b.contains(&b'[');
    if !shaped {
        return None;
    }
    let t: jiff::Timestamp = s.parse().ok()?;
    let ms = i64::try_from(t.as_nanosecond().div_euclid(1_000_000)).ok()?;
    Some(Timestamp::from_millis(ms))
}

/// Writes the wire format of `secs` into a fixed buffer (no allocation).
/// Years outside 0..=9999 are clamped to that range's ends, which the wire
/// format cannot express.
pub fn format_wire_buf(secs: i64) -> [u8; WIRE_LEN] {
    const MIN: i64 = days_from_civil(0, 1, 1) * SECS_PER_DAY;
    const MAX: i64 = days_from_civil(9999, 12, 31) * SECS_PER_DAY + SECS_PER_DAY - 1;
    let secs = secs.clamp(MIN, MAX);
    let days = secs.div_euclid(SECS_PER_DAY);
    let rem = secs.rem_euclid(SECS_PER_DAY) as u32;
    let (year, month, day) = civil_from_days(days);
    let mut out = *b"0000-00-00T00:00:00Z";
    let put = |out: &mut [u8; WIRE_LEN], at: usize, v: u32, width: usize| {
        let mut v = v;
        for i in (0..width).rev() {
            out[at + i] = b'0' + (v % 10) as u8;
            v /= 10;
        }
    };
    put(&mut out, 0, year as u32, 4);
    put(&mut out, 5, month, 2);
    put(&mut out, 8, day, 2);
    put(&mut out, 11, rem / 3600, 2);
    put(&mut out, 14, rem / 60 % 60, 2);
    put(&mut out, 17, rem % 60, 2);
    out
}

pub fn format_wire(secs: i64) -> String {
    let buf = format_wire_buf(secs);
    // The buffer holds ASCII digits and separators only.
    String::from_utf8_lossy(&buf).into_owned()
}

/// Length of an instant with milliseconds, `YYYY-MM-DDTHH:mm:ss.fffZ`.
const INSTANT_MS_LEN: usize = WIRE_LEN + 4;

/// An instant in UTC as the service gave it: the wire format when it is on a
/// whole second (`2025-08-20T10:00:00Z`), else with its milliseconds
/// (`2025-08-20T09:48:10.721Z`). No allocation; `len` bytes of the buffer
/// are the text.
fn format_instant_buf(secs: i64, subsec_ms: u16) -> ([u8; INSTANT_MS_LEN], usize) {
    let mut out = [0u8; INSTANT_MS_LEN];
    out[..WIRE_LEN].copy_from_slice(&format_wire_buf(secs));
    if subsec_ms == 0 {
        return (out, WIRE_LEN);
    }
    let ms = subsec_ms.min(999);
    out[19] = b'.';
    out[20] = b'0' + (ms / 100) as u8;
    out[21] = b'0' + (ms / 10 % 10) as u8;
    out[22] = b'0' + (ms % 10) as u8;
    out[23] = b'Z';
    (out, INSTANT_MS_LEN)
}

/// See [`format_instant_buf`]: what exports write for a row's instant.
pub fn format_instant(secs: i64, subsec_ms: u16) -> String {
    let (buf, len) = format_instant_buf(secs, subsec_ms);
    String::from_utf8_lossy(&buf[..len]).into_owned()
}

mod instant {
    /// A point in time on the wire: whole UTC seconds (`.0`, what the app
    /// computes with and all that a request sends, D8), and the
    /// milliseconds within that second when the service gave any (kept to
    /// show and export its instant). (De)serialised in the wire format, with
    /// the milliseconds when there are some; deserialisation is lenient (see
    /// [`super::parse_instant`]). Ordered by seconds, then milliseconds.
    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
    pub struct Timestamp(pub i64, u16);

    impl Timestamp {
        /// A whole second.
        pub const fn from_secs(secs: i64) -> Self {
            Self(secs, 0)
        }

        /// A second and the milliseconds into it (999 at most).
        pub const fn from_parts(secs: i64, subsec_ms: u16) -> Self {
            Self(secs, if subsec_ms > 999 { 999 } else { subsec_ms })
        }

        pub const fn from_millis(ms: i64) -> Self {
            Self(ms.div_euclid(1000), ms.rem_euclid(1000) as u16)
        }

        /// Whole seconds (the milliseconds cut off, towards the past).
        pub const fn secs(self) -> i64 {
            self.0
        }

        /// The milliseconds into the second, 0..=999.
        pub const fn subsec_millis(self) -> u16 {
            self.1
        }

        /// Milliseconds since the epoch.
        pub const fn millis(self) -> i64 {
            self.0.saturating_mul(1000).saturating_add(self.1 as i64)
        }
    }
}

pub use instant::Timestamp;

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// The instant in UTC, with its milliseconds when it has some.
impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (buf, len) = format_instant_buf(self.0, self.subsec_millis());
        f.write_str(std::str::from_utf8(&buf[..len]).map_err(|_| fmt::Error)?)
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (buf, len) = format_instant_buf(self.0, self.subsec_millis());
        s.serialize_str(std::str::from_utf8(&buf[..len]).map_err(serde::ser::Error::custom)?)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Timestamp;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a date-time string YYYY-MM-DDTHH:mm:ssZ")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Timestamp, E> {
                parse_instant(v).map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

/// An inclusive time window `[since, until]` in UTC seconds (D8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TimeWindow {
    pub since: i64,
    pub until: i64,
}

impl TimeWindow {
    pub fn new(since: i64, until: i64) -> Result<Self, TimeError> {
        if since > until {
            return Err(TimeError::Reversed {
                since: format_wire(since),
                until: format_wire(until),
            });
        }
        Ok(Self { since, until })
    }

    /// D8 defaults relative to `now`: yesterday 00:00:00Z to today 23:59:59Z.
    pub fn default_at(now_secs: i64) -> Self {
        let today = now_secs.div_euclid(SECS_PER_DAY) * SECS_PER_DAY;
        Self {
            since: today - SECS_PER_DAY,
            until: today + SECS_PER_DAY - 1,
        }
    }

    /// Parses optional wire strings, filling the D8 defaults for missing ends.
    /// Anything but the exact wire format is rejected.
    pub fn parse(
        since: Option<&str>,
        until: Option<&str>,
        now_secs: i64,
    ) -> Result<Self, TimeError> {
        let default = Self::default_at(now_secs);
        let since = since.map(parse_wire).transpose()?.unwrap_or(default.since);
        let until = until.map(parse_wire).transpose()?.unwrap_or(default.until);
        Self::new(since, until)
    }

    pub fn contains(&self, t: i64) -> bool {
        self.since <= t && t <= self.until
    }

    pub fn duration_secs(&self) -> i64 {
        self.until - self.since
    }

    pub fn since_wire(&self) -> String {
        format_wire(self.since)
    }

    pub fn until_wire(&self) -> String {
        format_wire(self.until)
    }
}

impl fmt::Display for TimeWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} .. {}",
            Timestamp::from_secs(self.since),
            Timestamp::from_secs(self.until)
        )
    }
}

/// Seconds since the epoch now, from the system clock.
pub fn now_secs() -> i64 {
    jiff::Timestamp::now().as_second()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_formats_known_instants() {
        assert_eq!(parse_wire("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(parse_wire("2024-02-29T12:34:56Z"), Ok(1_709_210_096));
        assert_eq!(format_wire(1_709_210_096), "2024-02-29T12:34:56Z");
        assert_eq!(format_wire(-1), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn rejects_everything_but_the_wire_format() {
        for bad in [
            "",
            "2024-02-29",
            "2024-02-29T12:34:56",
            "2024-02-29T12:34:56+00:00",
            "2024-02-29T12:34:56.000Z",
            "2024-02-29 12:34:56Z",
            "2024-2-29T12:34:56Z ",
            "20a4-02-29T12:34:56Z",
            "+024-02-29T12:34:56Z",
        ] {
            assert!(
                matches!(parse_wire(bad), Err(TimeError::Format(_))),
                "{bad}"
            );
        }
        for bad in [
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-00-01T00:00:00Z",
            "2024-04-31T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01T00:60:00Z",
            "2024-01-01T00:00:60Z",
        ] {
            assert!(
                matches!(parse_wire(bad), Err(TimeError::OutOfRange(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn lenient_parse_accepts_rfc3339_variants_in_whole_seconds() {
        assert_eq!(parse_lenient("2024-01-01T00:00:00.250Z"), Ok(1_704_067_200));
        assert_eq!(
            parse_lenient("2024-01-01T01:00:00+01:00"),
            Ok(1_704_067_200)
        );
        assert!(parse_lenient("yesterday").is_err());
        assert_eq!(
            parse_instant("2024-01-01 00:00:00.5z").map(|t| t.millis()),
            Ok(1_704_067_200_500)
        );
        assert_eq!(
            parse_instant("1969-12-31T23:59:59.9995Z").map(|t| t.millis()),
            Ok(-1),
            "milliseconds floored before the epoch too"
        );
        // Forms jiff reads that RFC 3339 does not.
        for bad in [
            "2024-01-01T00:00Z",
            "20240101T000000Z",
            "2024-01-01T00:00:00Z[UTC]",
            "2024-01-01T00:00:00",
        ] {
            assert!(parse_instant(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_day_caching_parser_agrees_with_the_plain_one() {
        let mut p = DateParser::default();
        for s in [
            "2024-02-29T12:34:56Z",
            "2024-02-29T12:34:57Z",
            "2024-02-29T24:00:00Z",
            "2024-02-29T23:59:59Z",
            "2024-02-29T23:59:5xZ",
            "2024-03-01T00:00:00Z",
            "2024-03-01T00:00:00.5Z",
            "2024-03-01T01:00:00+01:00",
            "2024-03-01T01:00:00Z",
            "garbage",
            "2024-03-01T01:00:00.721Z",
            "2024-03-01T01:00:00.7Z",
            "2024-03-01T01:00:00.123456789Z",
            "2024-03-01T01:00:00.Z",
            "2024-03-01T01:00:00.72xZ",
            "2024-03-01T25:00:00.721Z",
            "2024-03-02T00:00:00.001Z",
        ] {
            assert_eq!(p.parse(s), parse_instant(s), "{s}");
        }
    }

    #[test]
    fn instants_keep_their_milliseconds_in_utc() {
        let t = parse_instant("2025-08-20T09:48:10.721Z").expect("a date");
        assert_eq!((t.secs(), t.subsec_millis()), (1_755_683_290, 721));
        assert_eq!(t.millis(), 1_755_683_290_721);
        assert_eq!(t.to_string(), "2025-08-20T09:48:10.721Z");
        // An offset becomes UTC; a whole second is written as on the wire.
        let offset = parse_instant("2025-08-20T12:00:00+02:00").expect("a date");
        assert_eq!(offset.to_string(), "2025-08-20T10:00:00Z");
        assert_eq!(
            parse_instant("2025-08-20T12:00:00.5+02:00").map(|t| t.to_string()),
            Ok("2025-08-20T10:00:00.500Z".to_owned())
        );
        assert_eq!(
            parse_instant("2025-08-20T09:48:10.7219Z").map(|t| t.subsec_millis()),
            Ok(721),
            "digits past the millisecond are cut off"
        );
        assert_eq!(
            Timestamp::from_millis(-1).to_string(),
            "1969-12-31T23:59:59.999Z"
        );
        assert_eq!(Timestamp::from_secs(5), Timestamp::from_secs(5));
        assert!(Timestamp::from_parts(5, 1) > Timestamp::from_secs(5));
        assert_eq!(format_instant(0, 0), "1970-01-01T00:00:00Z");
        assert_eq!(format_instant(0, 7), "1970-01-01T00:00:00.007Z");
        let json = serde_json::to_string(&t).unwrap_or_default();
        assert_eq!(json, "\"2025-08-20T09:48:10.721Z\"");
        assert_eq!(serde_json::from_str::<Timestamp>(&json).ok(), Some(t));
    }

    #[test]
    fn civil_round_trip_over_many_years() {
        for days in (-800_000..800_000).step_by(97) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn default_window_is_yesterday_to_end_of_today() {
        let now = parse_wire("2026-11-21T15:04:05Z").unwrap_or_default();
        let w = TimeWindow::default_at(now);
        assert_eq!(w.since_wire(), "2026-11-20T00:00:00Z");
        assert_eq!(w.until_wire(), "2026-11-21T23:59:59Z");
        assert_eq!(TimeWindow::parse(None, None, now), Ok(w));
    }

    #[test]
    fn window_rejects_reversed_and_malformed_ends() {
        let now = 1_700_000_000;
        assert!(matches!(
            TimeWindow::parse(
                Some("2024-01-02T00:00:00Z"),
                Some("2024-01-01T00:00:00Z"),
                now
            ),
            Err(TimeError::Reversed { .. })
        ));
        assert!(TimeWindow::parse(Some("2024-01-02"), None, now).is_err());
        let one = TimeWindow::parse(
            Some("2024-01-01T00:00:00Z"),
            Some("2024-01-01T00:00:00Z"),
            now,
        );
        assert!(one.is_ok_and(|w| w.duration_secs() == 0));
    }

    #[test]
    fn timestamp_serde_round_trip() {
        let t = Timestamp::from_secs(1_709_210_096);
        let json = serde_json::to_string(&t).unwrap_or_default();
        assert_eq!(json, "\"2024-02-29T12:34:56Z\"");
        let back: Result<Timestamp, _> = serde_json::from_str(&json);
        assert_eq!(back.ok(), Some(t));
        assert!(serde_json::from_str::<Timestamp>("\"nope\"").is_err());
        assert!(serde_json::from_str::<Timestamp>("12").is_err());
    }
}

/// `parse_wire` against jiff's own parser: the hand-written one is kept for
/// speed only (the ingest bench), so it must read what jiff reads.
#[cfg(test)]
mod agrees_with_jiff {
    use super::*;
    use proptest::prelude::*;

    /// jiff's reading of a wire date: its parser reads more forms than the
    /// wire format (offsets, fractions, lowercase `t` and `z`), so only
    /// strings of the wire's shape are given to it; a leap second (`:60`),
    /// which jiff reads as `:59`, is not a wire date.
    fn jiff_wire(s: &str) -> Option<i64> {
        let b = s.as_bytes();
        let shaped = b.len() == WIRE_LEN
            && b[10] == b'T'
            && b[19] == b'Z'
            && b[..4].iter().all(u8::is_ascii_digit)
            && &b[17..19] != b"60";
        if !shaped {
            return None;
        }
        s.parse::<jiff::Timestamp>().ok().map(|t| t.as_second())
    }

    fn wire_of(secs: i64) -> String {
        jiff::Timestamp::from_second(secs)
            .map(|t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
            .unwrap_or_default()
    }

    /// Years 0000..=9999, the wire format's.
    const MIN_SECS: i64 = -62_167_219_200;
    const MAX_SECS: i64 = 253_402_300_799;

    proptest! {
        #[test]
        fn valid_dates_read_alike(secs in MIN_SECS..=MAX_SECS) {
            let s = wire_of(secs);
            prop_assert_eq!(parse_wire(&s).ok(), Some(secs));
            prop_assert_eq!(jiff_wire(&s), Some(secs));
            prop_assert_eq!(format_wire(secs), s);
        }

        #[test]
        fn damaged_dates_read_alike(
            secs in MIN_SECS..=MAX_SECS,
            edits in proptest::collection::vec(
                (0usize..WIRE_LEN, proptest::sample::select(b"0123456789-:TZtz +.x".to_vec())),
                1..3,
            ),
        ) {
            let mut b = wire_of(secs).into_bytes();
            for (at, c) in edits {
                b[at] = c;
            }
            let s = String::from_utf8(b).unwrap_or_default();
            prop_assert_eq!(parse_wire(&s).ok(), jiff_wire(&s), "{}", s);
        }

        #[test]
        fn any_text_reads_alike(s in "[0-9T:Z-]{0,22}|\\PC{0,24}") {
            prop_assert_eq!(parse_wire(&s).ok(), jiff_wire(&s), "{}", s);
        }
    }

    #[test]
    fn out_of_range_fields_are_rejected_by_both() {
        for s in [
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-04-31T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01T00:60:00Z",
        ] {
            assert_eq!((parse_wire(s).ok(), jiff_wire(s)), (None, None), "{s}");
        }
        assert_eq!(
            parse_wire("2024-02-29T00:00:00Z").ok(),
            jiff_wire("2024-02-29T00:00:00Z")
        );
        // The one shape jiff reads and the wire format does not: a leap second.
        let leap = "2024-01-01T00:00:60Z".parse::<jiff::Timestamp>();
        assert_eq!(
            leap.map(|t| t.as_second()).ok(),
            parse_wire("2024-01-01T00:00:59Z").ok()
        );
        assert!(parse_wire("2024-01-01T00:00:60Z").is_err());
    }
}
