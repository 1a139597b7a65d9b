//! How values read on screen, everywhere alike: times in UTC, this
//! computer's zone or each machine's own,
//! durations, ages, counts, numbers with their units, shares, and field
//! names as words. Colours and sizes are in `theme.rs`.

use crate::app::{AppState, TimesIn};
use fleetview_core::analysis::{Quantity, UnitSystem};
use fleetview_core::worker::FiguresPart;

/// What a missing value shows as.
pub const NULL: &str = "—";

/// The zone times are shown in, for one machine (or none): UTC, this
/// computer's zone, or the machine's own (the one its working hours are
/// read in, D16). Cheap to clone (a zone is shared).
#[derive(Debug, Clone, PartialEq)]
pub struct Zone {
    tz: jiff::tz::TimeZone,
    kind: ZoneKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ZoneKind {
    Utc,
    Computer,
    /// The machine's zone; its time is written with its abbreviation.
    Machine,
    /// The machine's zone was asked for but is not known (no position):
    /// UTC, said so.
    MachineUnknown,
}

impl Zone {
    pub fn utc() -> Self {
        Self {
            tz: jiff::tz::TimeZone::UTC,
            kind: ZoneKind::Utc,
        }
    }

    /// This computer's zone (read once).
    pub fn computer() -> Self {
        static TZ: std::sync::OnceLock<jiff::tz::TimeZone> = std::sync::OnceLock::new();
        Self {
            tz: TZ.get_or_init(jiff::tz::TimeZone::system).clone(),
            kind: ZoneKind::Computer,
        }
    }

    /// A machine's zone; `None` (not known) shows UTC and says so.
    pub fn machine(tz: Option<jiff::tz::TimeZone>) -> Self {
        match tz {
            Some(tz) => Self {
                tz,
                kind: ZoneKind::Machine,
            },
            None => Self {
                tz: jiff::tz::TimeZone::UTC,
                kind: ZoneKind::MachineUnknown,
            },
        }
    }

    pub fn tz(&self) -> &jiff::tz::TimeZone {
        &self.tz
    }

    /// Whether this is a machine's own zone (known or not): its times carry
    /// the zone's abbreviation, since machines differ.
    pub fn is_machine(&self) -> bool {
        matches!(self.kind, ZoneKind::Machine | ZoneKind::MachineUnknown)
    }

    /// The zone's abbreviation at `secs`: `CST`, `CEST`, `UTC`.
    pub fn abbreviation(&self, secs: i64) -> String {
        match jiff::Timestamp::from_second(secs) {
            Ok(t) => t.to_zoned(self.tz.clone()).strftime("%Z").to_string(),
            Err(_) => String::new(),
        }
    }

    /// The zone in words: `UTC`, `local time (Europe/Paris, UTC+01:00)`,
    /// `the machine's time (America/Chicago)`.
    pub fn label(&self) -> String {
        match self.kind {
            ZoneKind::Utc => "UTC".to_owned(),
            ZoneKind::Computer => computer_label().to_owned(),
            ZoneKind::Machine => match self.tz.iana_name() {
                Some(name) => format!("the machine's time ({name})"),
                None => "the machine's time".to_owned(),
            },
            ZoneKind::MachineUnknown => "UTC (the machine's zone is not known)".to_owned(),
        }
    }
}

/// `true`: this computer's zone, `false`: UTC (the two choices before the
/// machine's zone).
impl From<bool> for Zone {
    fn from(local: bool) -> Self {
        if local { Self::computer() } else { Self::utc() }
    }
}

impl From<&Zone> for Zone {
    fn from(zone: &Zone) -> Self {
        zone.clone()
    }
}

/// The zone times of `equipment` are shown in, as the user chose; the
/// machine's own zone is the one its figures' working hours were read in,
/// else the one where the snapshot places it.
pub fn zone_of(state: &AppState, equipment: Option<i64>) -> Zone {
    match state.times_in() {
        TimesIn::Utc => Zone::utc(),
        TimesIn::Computer => Zone::computer(),
        TimesIn::Machine => Zone::machine(equipment.and_then(|id| machine_tz(state, id))),
    }
}

/// The zone of the machine on screen's times.
pub fn machine_zone(state: &AppState) -> Zone {
    zone_of(state, state.selected())
}

fn machine_tz(state: &AppState, id: i64) -> Option<jiff::tz::TimeZone> {
    let from_figures = (state.selected() == Some(id))
        .then(|| state.figures().report.value())
        .flatten()
        .and_then(|r| r.time_zone.clone());
    from_figures.or_else(|| zone_at(state.overview().last_position(id)?))
}

/// The zone at a place, remembered by place (to about 100 m): finding it
/// walks the zones' boundaries, too much to do for every row every frame.
fn zone_at(p: fleetview_api::geo::LatLon) -> Option<jiff::tz::TimeZone> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Seen = Mutex<HashMap<(i64, i64), Option<jiff::tz::TimeZone>>>;
    static SEEN: OnceLock<Seen> = OnceLock::new();
    let key = ((p.lat * 1e3).round() as i64, (p.lon * 1e3).round() as i64);
    let mut seen = SEEN.get_or_init(Seen::default).lock().ok()?;
    seen.entry(key)
        .or_insert_with(|| fleetview_core::analysis::events::time_zone_at(p))
        .clone()
}

/// A date-time for people in the zone shown; in a machine's zone, with the
/// zone's abbreviation (`2026-11-14 06:29:32 CST`).
pub fn format_time(secs: i64, zone: impl Into<Zone>) -> String {
    let zone = zone.into();
    if zone.is_machine() {
        format_in_zone(secs, &zone, "%Y-%m-%d %H:%M:%S %Z")
    } else {
        format_in_zone(secs, &zone, "%Y-%m-%d %H:%M:%S")
    }
}

/// A date-time in the zone shown, with a strftime format.
pub fn format_in_zone(secs: i64, zone: impl Into<Zone>, format: &str) -> String {
    let zone = zone.into();
    match jiff::Timestamp::from_second(secs) {
        Ok(t) => t.to_zoned(zone.tz).strftime(format).to_string(),
        Err(_) => NULL.to_owned(),
    }
}

/// Whether `secs` is 00:00:00 in the zone shown.
pub fn is_midnight(secs: i64, zone: impl Into<Zone>) -> bool {
    format_in_zone(secs, zone, "%H:%M:%S") == "00:00:00"
}

/// The zone the times are shown in, in words (see [`Zone::label`]).
pub fn zone_label(zone: impl Into<Zone>) -> String {
    zone.into().label()
}

/// This computer's zone by name and offset, `local time (Europe/Paris,
/// UTC+01:00)`. Read once: the UI never does I/O per frame.
fn computer_label() -> &'static str {
    static LOCAL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LOCAL.get_or_init(|| {
        let offset = jiff::Timestamp::now()
            .to_zoned(Zone::computer().tz)
            .strftime("UTC%:z")
            .to_string();
        match Zone::computer().tz.iana_name() {
            Some(name) if !name.is_empty() => format!("local time ({name}, {offset})"),
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

/// A duration, everywhere alike (the reports' words): `3 h 05 min`,
/// `12 min`, `45 s`.
pub fn format_duration(secs: i64) -> String {
    fleetview_core::report::words::duration_words(secs)
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

/// A meter reading or an interval: to 0.1, with no trailing `.0`
/// (`250`, `1200.5`).
pub fn reading(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
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
