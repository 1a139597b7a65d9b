//! A fast JSON writer for the sandbox's largest answer, positions, and the
//! series envelope around any rows.
//!
//! serde_json formats every float as its shortest round-trip form, which is
//! most of the cost of a positions response. The simulator rounds every
//! value to a fixed number of decimals (coordinates to 6, the rest to 1), so
//! they are written here as fixed-point integers instead: the same numbers,
//! decoded to the same `f64`, several times faster.

use std::io::Write as _;

use fleetview_api::model::PositionRow;
use fleetview_api::time::{TimeWindow, format_wire_buf};

/// Writes `v`, which must already be rounded to `decimals` places, as a
/// fixed-point JSON number (`null` if it is not finite).
fn fixed(out: &mut Vec<u8>, v: f64, decimals: u32) {
    if !v.is_finite() {
        out.extend_from_slice(b"null");
        return;
    }
    let scale = 10i64.pow(decimals);
    let n = (v * scale as f64).round() as i64;
    if n < 0 {
        out.push(b'-');
    }
    let n = n.unsigned_abs();
    let mut ibuf = itoa::Buffer::new();
    out.extend_from_slice(ibuf.format(n / scale as u64).as_bytes());
    if decimals > 0 {
        out.push(b'.');
        let frac = n % scale as u64;
        let digits = ibuf.format(frac).as_bytes();
        out.extend(std::iter::repeat_n(b'0', decimals as usize - digits.len()));
        out.extend_from_slice(digits);
    }
}

fn opt_fixed(out: &mut Vec<u8>, v: Option<f64>, decimals: u32) {
    match v {
        Some(v) => fixed(out, v, decimals),
        None => out.extend_from_slice(b"null"),
    }
}

/// Writes position rows as JSON objects, remembering the day of the last
/// one: rows come in time order, so the calendar arithmetic is done once a
/// day.
#[derive(Debug)]
pub(crate) struct PositionEncoder {
    day: i64,
    /// `"YYYY-MM-DDT` of `day`.
    day_prefix: [u8; 12],
}

impl Default for PositionEncoder {
    fn default() -> Self {
        Self::new()
    }
}

impl PositionEncoder {
    pub(crate) fn new() -> Self {
        Self {
            day: i64::MIN,
            day_prefix: [0; 12],
        }
    }

    fn date(&mut self, out: &mut Vec<u8>, secs: i64) {
        let day = secs.div_euclid(86_400);
        if day != self.day {
            let full = format_wire_buf(secs);
            self.day_prefix[0] = b'"';
            self.day_prefix[1..].copy_from_slice(&full[..11]);
            self.day = day;
        }
        let rem = secs.rem_euclid(86_400) as u32;
        let (h, m, s) = (rem / 3600, rem / 60 % 60, rem % 60);
        out.extend_from_slice(&self.day_prefix);
        out.extend_from_slice(&[
            b'0' + (h / 10) as u8,
            b'0' + (h % 10) as u8,
            b':',
            b'0' + (m / 10) as u8,
            b'0' + (m % 10) as u8,
            b':',
            b'0' + (s / 10) as u8,
            b'0' + (s % 10) as u8,
            b'Z',
            b'"',
        ]);
    }

    /// Writes one row as a JSON object.
    pub(crate) fn row(&mut self, out: &mut Vec<u8>, r: &PositionRow) {
        out.extend_from_slice(b"{\"date\":");
        self.date(out, r.date.0);
        out.extend_from_slice(b",\"latitude\":");
        fixed(out, r.latitude, 6);
        out.extend_from_slice(b",\"longitude\":");
        fixed(out, r.longitude, 6);
        out.extend_from_slice(b",\"altitude\":");
        opt_fixed(out, r.altitude, 1);
        out.extend_from_slice(b",\"speed\":");
        opt_fixed(out, r.speed, 1);
        out.extend_from_slice(b",\"heading\":");
        opt_fixed(out, r.heading, 1);
        out.push(b'}');
    }
}

/// The start of a series envelope, up to its first row.
pub(crate) fn series_head(out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"data\":{\"rows\":[");
}

/// The end of a series envelope after its `count` rows: `total` follows
/// the rows (JSON members are unordered), since it is only known at the end.
pub(crate) fn series_tail(
    out: &mut Vec<u8>,
    count: usize,
    id: i64,
    serial_number: &str,
    w: TimeWindow,
) {
    let mut ibuf = itoa::Buffer::new();
    out.extend_from_slice(b"],\"total\":");
    out.extend_from_slice(ibuf.format(count).as_bytes());
    out.extend_from_slice(b",\"id\":");
    out.extend_from_slice(ibuf.format(id).as_bytes());
    out.extend_from_slice(b",\"serialNumber\":");
    // Escaped by serde; writing into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, serial_number);
    out.extend_from_slice(b",\"since\":\"");
    out.extend_from_slice(&format_wire_buf(w.since));
    out.extend_from_slice(b"\",\"until\":\"");
    out.extend_from_slice(&format_wire_buf(w.until));
    let _ = out.write_all(b"\"}}");
}

/// A whole `/positions` envelope in memory, rows written as the simulator
/// makes them (benches and tests; the sandbox streams, see `answers`).
#[derive(Debug)]
pub struct PositionsWriter {
    out: Vec<u8>,
    count: usize,
    encoder: PositionEncoder,
}

impl Default for PositionsWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl PositionsWriter {
    pub fn new() -> Self {
        let mut out = Vec::with_capacity(64 * 1024);
        series_head(&mut out);
        Self {
            out,
            count: 0,
            encoder: PositionEncoder::new(),
        }
    }

    pub fn push(&mut self, r: &PositionRow) {
        if self.count > 0 {
            self.out.push(b',');
        }
        self.count += 1;
        self.encoder.row(&mut self.out, r);
    }

    pub fn finish(mut self, id: i64, serial_number: &str, w: TimeWindow) -> Vec<u8> {
        series_tail(&mut self.out, self.count, id, serial_number, w);
        self.out
    }
}

/// The `/positions` envelope of a list of rows (see [`PositionsWriter`]).
pub fn positions_envelope(
    id: i64,
    serial_number: &str,
    w: TimeWindow,
    rows: &[PositionRow],
) -> Vec<u8> {
    let mut writer = PositionsWriter::new();
    for r in rows {
        writer.push(r);
    }
    writer.finish(id, serial_number, w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::machine::round_to;
    use fleetview_api::model::{Envelope, SeriesData, Timestamp};
    use proptest::prelude::*;

    fn row() -> impl Strategy<Value = PositionRow> {
        (
            -10_000_000_000i64..10_000_000_000,
            -90.0f64..90.0,
            -180.0f64..180.0,
            proptest::option::of(-500.0f64..9000.0),
            proptest::option::of(0.0f64..300.0),
            proptest::option::of(0.0f64..360.0),
        )
            .prop_map(|(t, lat, lon, alt, speed, heading)| PositionRow {
                date: Timestamp::from_secs(t),
                latitude: round_to(lat, 1e6),
                longitude: round_to(lon, 1e6),
                altitude: alt.map(|v| round_to(v, 10.0)),
                speed: speed.map(|v| round_to(v, 10.0)),
                heading: heading.map(|v| round_to(v, 10.0)),
            })
    }

    proptest! {
        #[test]
        fn decodes_to_exactly_what_serde_would_write(rows in proptest::collection::vec(row(), 0..40)) {
            let w = TimeWindow { since: 0, until: 86_399 };
            let fast = positions_envelope(1001, "SER\"1", w, &rows);
            let decoded: Envelope<SeriesData<PositionRow>> =
                serde_json::from_slice(&fast).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let expected = Envelope { data: SeriesData {
                total: rows.len() as i64, rows, id: 1001, serial_number: "SER\"1".into(),
                since: Timestamp::from_secs(0), until: Timestamp::from_secs(86_399) } };
            prop_assert_eq!(&decoded, &expected);
            // And the same JSON value as serde's own output.
            let a: serde_json::Value = serde_json::from_slice(&fast).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let b = serde_json::to_value(&expected).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn fixed_point_edge_cases() {
        let mut out = Vec::new();
        for (v, d, s) in [
            (-2.499245, 6, "-2.499245"),
            (0.05, 6, "0.050000"),
            (-0.0, 1, "0.0"),
            (12.0, 1, "12.0"),
            (-0.3, 1, "-0.3"),
            (f64::NAN, 1, "null"),
        ] {
            out.clear();
            fixed(&mut out, v, d);
            assert_eq!(String::from_utf8_lossy(&out), s, "{v}");
        }
    }
}
