//! How values read on screen, everywhere alike: times in UTC or local time,
//! durations, ages, counts, numbers with their units, shares, and field
//! names as words. Colours and sizes are in `theme.rs`.

use fleetview_core::analysis::{Quantity, UnitSystem};
use fleetview_core::worker::FiguresPart;

/// What a missing value shows as.
pub const NULL: &str = "—";

/// A date-time for people: UTC, or the machine's local time.
pub fn format_time(secs: i64, local: bool) -> String {
    format_in_zone(secs, local, "%Y-%m-%d %H:%M:%S")
}

/// A date-time in UTC or local time, with a chrono format.
pub fn format_in_zone(secs: i64, local: bool, format: &str) -> String {
    let Some(utc) = chrono::DateTime::from_timestamp(secs, 0) else {
        return NULL.to_owned();
    };
    if local {
        utc.with_timezone(&chrono::Local).format(format).to_string()
    } else {
        utc.format(format).to_string()
    }
}

/// Whether `secs` is 00:00:00 in the zone shown.
pub fn is_midnight(secs: i64, local: bool) -> bool {
    format_in_zone(secs, local, "%H:%M:%S") == "00:00:00"
}

/// The zone the times are shown in: `UTC`, or this computer's zone by name
/// and offset, `local time (Europe/Paris, UTC+01:00)`. Read once: the UI
/// never does I/O per frame.
pub fn zone_label(local: bool) -> &'static str {
    static LOCAL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    if !local {
        return "UTC";
    }
    LOCAL.get_or_init(|| {
        let offset = chrono::Local::now().format("UTC%:z").to_string();
        match iana_time_zone::get_timezone() {
            Ok(name) if !name.is_empty() => format!("local time ({name}, {offset})"),
            _ => format!("local time ({offset})"),
        }
    })
}

/// A field name as people read it: `clientSecret` as "Client secret",
/// `apiKey` as "API key", `endpointUrl` as "Endpoint URL".
pub fn field_label(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in name.chars() {
        if (c.is_uppercase() && !word.is_empty()) || c == '_' || c == ' ' {
            words.push(std::mem::take(&mut word));
        }
        if c != '_' && c != ' ' {
            word.extend(c.to_lowercase());
        }
    }
    words.push(word);
    let words: Vec<String> = words
        .into_iter()
        .filter(|w| !w.is_empty())
        .map(|w| match w.as_str() {
            "api" | "url" | "id" | "pin" | "vin" => w.to_uppercase(),
            _ => w,
        })
        .collect();
    let mut out = words.join(" ");
    if let Some(first) = out.get(..1) {
        out = first.to_uppercase() + &out[1..];
    }
    out
}

/// A field's label inside a sentence: "API key", "client secret".
pub fn field_in_sentence(name: &str) -> String {
    let label = field_label(name);
    let first_word = label.split(' ').next().unwrap_or_default();
    if first_word.len() > 1 && first_word.chars().all(|c| c.is_uppercase()) {
        label
    } else {
        label
            .to_lowercase()
            .split(' ')
            .zip(label.split(' '))
            .map(|(low, orig)| {
                if orig.len() > 1 && orig.chars().all(|c| c.is_uppercase()) {
                    orig.to_owned()
                } else {
                    low.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Whether a credential field holds a secret (masked when typed): a
/// password, secret, key or token; names and numbers are shown.
pub fn is_secret_field(name: &str) -> bool {
    let n = name.to_lowercase();
    ["password", "secret", "key", "token"]
        .iter()
        .any(|s| n.contains(s))
}

/// `1 fault`, `3 faults`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A duration, everywhere alike: `3 h 05 min`, `12 min`, `45 s`.
pub fn format_duration(secs: i64) -> String {
    let secs = secs.max(0);
    if secs >= 3600 {
        format!("{} h {:02} min", secs / 3600, secs / 60 % 60)
    } else if secs >= 60 {
        format!("{} min", secs / 60)
    } else {
        format!("{secs} s")
    }
}

/// How long ago, roughly: `just now`, `12 min`, `3 h`, `2 days`.
pub fn format_age(secs: i64) -> String {
    match secs.max(0) {
        s if s < 60 => "just now".to_owned(),
        s if s < 3600 => format!("{} min ago", s / 60),
        s if s < 2 * 86_400 => format!("{} h ago", s / 3600),
        s => format!("{} days ago", s / 86_400),
    }
}

/// A figure's value with its decimals and unit (`5.20 h`), or the null
/// dash.
pub fn figure_value(
    figure: fleetview_core::analysis::Figure,
    v: Option<f64>,
    units: UnitSystem,
) -> String {
    let n = number(v.map(|v| figure.value_in(units, v)), figure.decimals());
    let unit = figure.unit_in(units);
    if n == NULL || unit.is_empty() {
        n
    } else {
        format!("{n} {unit}")
    }
}

/// A metric value in the chosen units, with its unit (`12.4 mi`), or the
/// null dash.
pub fn measure(units: UnitSystem, q: Quantity, metric: Option<f64>, decimals: usize) -> String {
    match metric.filter(|v| v.is_finite()) {
        Some(v) => format!(
            "{} {}",
            number(Some(units.from_metric(q, v)), decimals),
            units.unit(q)
        ),
        None => NULL.to_owned(),
    }
}

/// A value in the service's `unit`, as a number in the chosen units of
/// `q` (the column's header says which); in a unit the app does not know
/// as a quantity, it keeps that unit beside it rather than pass under the
/// header's.
pub fn service_number(
    units: UnitSystem,
    q: Quantity,
    value: Option<f64>,
    unit: &str,
    decimals: usize,
) -> String {
    let Some(v) = value.filter(|v| v.is_finite()) else {
        return NULL.to_owned();
    };
    match q.from_service(v, unit) {
        Some(metric) => number(Some(units.from_metric(q, metric)), decimals),
        None => format!("{} {}", number(Some(v), decimals), unit.trim()),
    }
}

/// A number with a fixed number of decimals, or the null dash.
pub fn number(v: Option<f64>, decimals: usize) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:.decimals$}"),
        _ => NULL.to_owned(),
    }
}

/// A share in percent, whole: `35 %`, and `<1 %` for a small one that is
/// not nothing.
pub fn percent_share(p: f64) -> String {
    if p > 0.0 && p < 1.0 {
        "<1 %".to_owned()
    } else {
        format!("{p:.0} %")
    }
}

/// What a part of the figures' reads is, as a sentence starts with it.
pub fn figures_part(part: FiguresPart) -> &'static str {
    match part {
        FiguresPart::IdleFuel => "The daily idle fuel",
        FiguresPart::OperatingHours => "The operating hours",
        FiguresPart::Positions => "The positions",
    }
}

/// A part that could not be read, why (the problem's short line, in the
/// sentence) and what goes without it: "`what` could not be read (why):
/// `loss`."
pub fn unread(what: &str, problem: &crate::app::Problem, loss: &str) -> String {
    format!(
        "{what} could not be read ({}): {loss}.",
        problem.short.to_lowercase()
    )
}

/// What the figures go without when a part could not be read.
pub fn figures_part_loss(part: FiguresPart) -> &'static str {
    match part {
        FiguresPart::IdleFuel => "fuel is not split into working and idle",
        FiguresPart::OperatingHours => "counter resets are not flagged",
        FiguresPart::Positions => "no events are found from positions",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_read_as_words() {
        assert_eq!(field_label("clientSecret"), "Client secret");
        assert_eq!(field_label("apiKey"), "API key");
        assert_eq!(field_label("endpointUrl"), "Endpoint URL");
        assert_eq!(field_label("username"), "Username");
        assert_eq!(field_label("customer_number"), "Customer number");
        assert_eq!(field_label(""), "");
        assert_eq!(field_in_sentence("apiToken"), "API token");
        assert_eq!(field_in_sentence("clientSecret"), "client secret");
        assert_eq!(field_in_sentence("endpointUrl"), "endpoint URL");
    }

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(count(0, "fault", "faults"), "0 faults");
        assert_eq!(count(1, "fault", "faults"), "1 fault");
        assert_eq!(count(2, "activity", "activities"), "2 activities");
    }

    #[test]
    fn only_secrets_are_masked() {
        for f in ["password", "clientSecret", "apiKey", "apiToken"] {
            assert!(is_secret_field(f), "{f}");
        }
        for f in [
            "username",
            "server",
            "database",
            "clientId",
            "dealerCode",
            "endpointUrl",
        ] {
            assert!(!is_secret_field(f), "{f}");
        }
    }

    #[test]
    fn formats_for_people() {
        assert_eq!(format_time(0, false), "1970-01-01 00:00:00");
        assert_eq!(format_duration(3 * 3600 + 5 * 60), "3 h 05 min");
        assert_eq!(format_duration(750), "12 min");
        assert_eq!(format_duration(45), "45 s");
        assert_eq!(number(Some(f64::NAN), 1), NULL);
        assert_eq!(number(None, 1), NULL);
        assert_eq!(number(Some(2.345), 1), "2.3");
        assert_eq!(format_in_zone(3600, false, "%H:%M"), "01:00");
        assert!(is_midnight(86400, false) && !is_midnight(3600, false));
    }
}
