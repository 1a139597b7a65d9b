//! Colours, spacing and formats, in one place.

use egui::Color32;

/// Space between groups of controls.
pub const GAP: f32 = 6.0;
/// Height of a table or list row.
pub const ROW_HEIGHT: f32 = 22.0;
/// What a missing value shows as.
pub const NULL: &str = "—";

pub const ERROR: Color32 = Color32::from_rgb(0xE5, 0x48, 0x4D);
pub const WARNING: Color32 = Color32::from_rgb(0xF5, 0xA5, 0x24);
pub const INFO: Color32 = Color32::from_rgb(0x4C, 0x9A, 0xFF);
pub const UNKNOWN: Color32 = Color32::from_rgb(0x9A, 0x9A, 0x9A);
pub const CRITICAL: Color32 = Color32::from_rgb(0xC0, 0x3A, 0xE0);
pub const OFFLINE: Color32 = Color32::from_rgb(0xF5, 0xA5, 0x24);

/// The colour of a fault level label (D9: any label may come; unknown ones
/// are grey).
pub fn level_color(label: &str) -> Color32 {
    match label.to_ascii_lowercase().as_str() {
        "critical" => CRITICAL,
        "error" => ERROR,
        "warning" => WARNING,
        "information" | "info" => INFO,
        _ => UNKNOWN,
    }
}

/// A date-time for people: UTC, or the machine's local time.
pub fn format_time(secs: i64, local: bool) -> String {
    let Some(utc) = chrono::DateTime::from_timestamp(secs, 0) else {
        return NULL.to_owned();
    };
    if local {
        utc.with_timezone(&chrono::Local)
            .format("%Y-%m-%d %H:%M:%S")
            .to_string()
    } else {
        utc.format("%Y-%m-%d %H:%M:%S").to_string()
    }
}

/// The zone the times are shown in.
pub fn zone_label(local: bool) -> &'static str {
    if local { "local time" } else { "UTC" }
}

/// A duration as `3 h 05 min` or `12 min 30 s`.
pub fn format_duration(secs: i64) -> String {
    let secs = secs.max(0);
    if secs >= 3600 {
        format!("{} h {:02} min", secs / 3600, secs / 60 % 60)
    } else {
        format!("{} min {:02} s", secs / 60, secs % 60)
    }
}

/// A number with a fixed number of decimals, or the null dash.
pub fn number(v: Option<f64>, decimals: usize) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:.decimals$}"),
        _ => NULL.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_for_people() {
        assert_eq!(format_time(0, false), "1970-01-01 00:00:00");
        assert_eq!(format_duration(3 * 3600 + 5 * 60), "3 h 05 min");
        assert_eq!(format_duration(750), "12 min 30 s");
        assert_eq!(number(Some(f64::NAN), 1), NULL);
        assert_eq!(number(None, 1), NULL);
        assert_eq!(number(Some(2.345), 1), "2.3");
        assert_eq!(level_color("Critical"), CRITICAL);
        assert_eq!(level_color("whatever"), UNKNOWN);
    }
}
