//! AEMP placeholders (ISO 15143-3 feeds): values a real feed sends where it
//! knows nothing (a date `0001-01-01T00:00:00Z`, a tank capacity `0`, a
//! model `missing`). They are read as unknown, never as values.

use serde::{Deserialize, Deserializer};

use super::time::days_from_civil;

/// Dates before this (1900-01-01T00:00:00Z) are placeholders: no machine
/// reported then, and year 1 is the feeds' "no date".
pub(crate) const FIRST_REAL_DATE_SECS: i64 = days_from_civil(1900, 1, 1) * 86_400;

/// Whether a date (UTC seconds) is a placeholder.
pub fn is_placeholder_date(secs: i64) -> bool {
    secs < FIRST_REAL_DATE_SECS
}

/// The text, unless it is blank or a word feeds put for "no value".
pub fn known_text(s: &str) -> Option<&str> {
    let t = s.trim();
    let placeholder = t.is_empty()
        || ["missing", "unknown", "n/a", "na", "null", "none", "-"]
            .iter()
            .any(|p| t.eq_ignore_ascii_case(p));
    (!placeholder).then_some(t)
}

/// A tank capacity, unless it is a placeholder (`0`, negative, not finite).
pub fn known_capacity(v: f64) -> Option<f64> {
    (v.is_finite() && v > 0.0).then_some(v)
}

/// Whether a field's name says it holds a capacity (`capacity`,
/// `tankCapacity`, `FuelTankCapacity`, ...), whose `0` means unknown.
pub fn is_capacity_field(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with("capacity")
}

/// A fault's severity: a number, or a string holding one. Real feeds send
/// an OEM's own string (`CodeSeverity`), often a placeholder such as
/// `missing`: whatever is not a whole number is no severity, never an
/// error that would lose the answer's other faults.
pub(crate) fn severity<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Ok(match Option::<serde_json::Value>::deserialize(d)? {
        Some(serde_json::Value::Number(n)) => n.as_i64(),
        Some(serde_json::Value::String(s)) => known_text(&s).and_then(|t| t.parse().ok()),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::parse_lenient;

    #[test]
    fn feed_placeholders_are_unknown() {
        let year_one = parse_lenient("0001-01-01T00:00:00Z").expect("a date");
        assert!(is_placeholder_date(year_one));
        assert!(!is_placeholder_date(
            parse_lenient("2025-08-20T09:48:10Z").expect("a date")
        ));
        assert!(!is_placeholder_date(0), "1970 is a real date");
        assert_eq!(known_text("missing"), None);
        assert_eq!(known_text(" MISSING "), None);
        assert_eq!(known_text(""), None);
        assert_eq!(known_text(" EC220E "), Some("EC220E"));
        assert_eq!(known_capacity(0.0), None);
        assert_eq!(known_capacity(f64::NAN), None);
        assert_eq!(known_capacity(410.0), Some(410.0));
        assert!(is_capacity_field("tankCapacity") && is_capacity_field("FuelTankCapacity"));
        assert!(!is_capacity_field("capacityUnit"));
    }

    #[test]
    fn a_severity_is_a_whole_number_or_none() {
        #[derive(Deserialize)]
        struct F {
            #[serde(default, deserialize_with = "severity")]
            severity: Option<i64>,
        }
        let read = |json: &str| serde_json::from_str::<F>(json).map(|f| f.severity).ok();
        assert_eq!(read(r#"{"severity": 2}"#), Some(Some(2)));
        assert_eq!(read(r#"{"severity": " 3 "}"#), Some(Some(3)));
        for none in [
            r#"{"severity": "missing"}"#,
            r#"{"severity": "High"}"#,
            r#"{"severity": 1.5}"#,
            r#"{"severity": null}"#,
            r#"{"severity": [1]}"#,
            "{}",
        ] {
            assert_eq!(read(none), Some(None), "{none}");
        }
    }
}
