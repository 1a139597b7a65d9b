//! What an event says in words: the Events tab's Value and Where, the
//! lane's and the map's hover, the names of the kinds in counts and
//! labels. Pure, so each is tested.

use crate::ui::format;
use crate::ui::theme;
use fleetview_core::analysis::events::CheckSide;
use fleetview_core::analysis::{Conversion, Quantity, UnitSystem};
use fleetview_core::analysis::{Event, EventDetail, EventKind};

/// A kind as counted: `1 refuel`, `2 refuels`.
pub fn kind_nouns(kind: EventKind) -> (&'static str, &'static str) {
    match kind {
        EventKind::Stop => ("stop", "stops"),
        EventKind::Refuel => ("refuel", "refuels"),
        EventKind::FuelDrop => ("suspected drain", "suspected drains"),
        EventKind::OutOfHours => ("out of hours", "out of hours"),
        EventKind::Gap => ("reporting gap", "reporting gaps"),
        EventKind::CounterReset => ("counter reset", "counter resets"),
        EventKind::Fault => ("fault", "faults"),
        EventKind::Check => ("check", "checks"),
    }
}

/// `2 refuels · 1 suspected drain`, in the kinds' order; `None events`
/// as "none".
pub fn counts_text(counts: &[(EventKind, usize)]) -> String {
    if counts.is_empty() {
        return "none".to_owned();
    }
    counts
        .iter()
        .map(|(k, n)| {
            let (one, many) = kind_nouns(*k);
            format::count(*n, one, many)
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The figures strip's short line of counts: the kinds but stops (the
/// strip counts those beside activities), the most telling first (a drain
/// before refuels), as many as `fits`, then `…`; `only stops` when there
/// is nothing else, `none` when nothing at all.
pub fn counts_short(counts: &[(EventKind, usize)], fits: impl Fn(&str) -> bool) -> String {
    let mut out = String::new();
    let telling = theme::EVENT_KINDS_MOST_TELLING_FIRST
        .iter()
        .filter(|k| **k != EventKind::Stop)
        .filter_map(|k| counts.iter().find(|(c, _)| c == k));
    for (k, n) in telling {
        let (one, many) = kind_nouns(*k);
        let part = format::count(*n, one, many);
        let next = if out.is_empty() {
            part
        } else {
            format!("{out} · {part}")
        };
        if !fits(&next) && !out.is_empty() {
            out.push_str(" · …");
            return out;
        }
        out = next;
    }
    match (out.is_empty(), counts.is_empty()) {
        (false, _) => out,
        (true, false) => "only stops".to_owned(),
        (true, true) => "none".to_owned(),
    }
}

/// The event lane's name: `Events: stops, refuels, faults` (the kinds
/// present, in their order), or `Events: none`.
pub fn lane_label(counts: &[(EventKind, usize)]) -> String {
    if counts.is_empty() {
        return "Events: none".to_owned();
    }
    let kinds: Vec<&str> = counts.iter().map(|(k, _)| kind_nouns(*k).1).collect();
    format!("Events: {}", kinds.join(", "))
}

/// A signed number with a real minus sign: `+42`, `−18`.
fn signed(v: f64, decimals: usize) -> String {
    let n = format!("{:.decimals$}", v.abs());
    if v < 0.0 && n.chars().any(|c| c.is_ascii_digit() && c != '0') {
        format!("−{n}")
    } else {
        format!("+{n}")
    }
}

fn with_unit(v: f64, unit: &str) -> String {
    let n = format::number(Some(v), 1);
    if unit.is_empty() {
        n
    } else {
        format!("{n} {unit}")
    }
}

fn side(s: &CheckSide, unit: &str, units: UnitSystem) -> String {
    let (v, unit) = units.from_service(s.value, unit);
    format!("{} {}", s.series, with_unit(v, &unit))
}

/// The Value column: what the event says beyond its kind, time and place.
pub fn summary(e: &Event, units: UnitSystem) -> String {
    match &e.detail {
        EventDetail::Stop => match e.end {
            Some(_) => "stopped".to_owned(),
            None => "stopped, still at the window's end".to_owned(),
        },
        EventDetail::Fuel {
            from_percent,
            to_percent,
            litres,
        } => {
            let change = to_percent - from_percent;
            let litres = litres
                .filter(|l| l.is_finite())
                .map(|l| {
                    format!(
                        " ({})",
                        format::measure(units, Quantity::Volume, Some(l.abs()), 0)
                    )
                })
                .unwrap_or_default();
            format!(
                "{} %{litres}, from {:.0} to {:.0} %",
                signed(change, 0),
                from_percent,
                to_percent
            )
        }
        EventDetail::OutOfHours => "engine running outside the working hours".to_owned(),
        EventDetail::Gap {
            series,
            median_interval_secs,
        } => {
            let silent = e
                .duration_secs()
                .map_or_else(String::new, |d| format!("{} ", format::format_duration(d)));
            format!(
                "{silent}silent ({series}, usual {})",
                format::format_duration(*median_interval_secs)
            )
        }
        EventDetail::CounterReset {
            counter,
            before,
            after,
        } => {
            // The hour meters are the counters the app reads; another counter
            // goes without a unit rather than a wrong one.
            let unit = if counter.ends_with("hours") { " h" } else { "" };
            format!(
                "{counter} {}{unit} to {}{unit}",
                format::number(Some(*before), 1),
                format::number(Some(*after), 1)
            )
        }
        EventDetail::Fault {
            identifier,
            description,
            level,
            ..
        } => [identifier.as_str(), description.as_str(), level.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" · "),
        EventDetail::Check {
            unit,
            first,
            second,
            ..
        } => {
            // First less second: "41.2 h vs 48.0 h: −6.8 h", the first
            // figure short of the second by 6.8 h.
            // In the units chosen: a difference converts as the values do
            // (their offset, for °F, cancels out).
            let (conversion, shown_unit) = match units.conversion(unit) {
                Some((c, u)) => (c, u.to_owned()),
                None => (Conversion::SAME, unit.to_string()),
            };
            let diff = conversion.apply_to_change(first.value - second.value);
            let (service_unit, unit) = (unit, shown_unit.as_str());
            let percent =
                fleetview_core::analysis::events::difference_percent(first.value, second.value)
                    .map(|p| format!(" ({p:.0} %)"))
                    .unwrap_or_default();
            let diff = if unit.is_empty() {
                signed(diff, 1)
            } else {
                format!("{} {unit}", signed(diff, 1))
            };
            format!(
                "{} vs {}: {diff}{percent}",
                side(first, service_unit, units),
                side(second, service_unit, units)
            )
        }
    }
}

/// The Where column: the position, short (about 10 m).
pub fn where_text(e: &Event) -> String {
    e.position.map_or_else(
        || format::NULL.to_owned(),
        |p| format!("{:.4}, {:.4}", p.lat, p.lon),
    )
}

/// The Duration column: a span's length, or a dash for an instant.
pub fn duration_text(e: &Event) -> String {
    match (e.duration_secs(), &e.detail) {
        // A refuel or a drain is found between two samples: it happened
        // within their interval, it did not last it.
        (Some(d), EventDetail::Fuel { .. }) => format!("within {}", format::format_duration(d)),
        (Some(d), _) => format::format_duration(d),
        (None, _) => format::NULL.to_owned(),
    }
}

/// What hovering an event says: its kind, time, duration and value.
pub fn hover_text(e: &Event, local: bool, units: UnitSystem) -> String {
    let mut out = format!(
        "{}\n{}",
        e.kind.label(),
        format::format_time(e.start, local)
    );
    if let Some(d) = e.duration_secs() {
        let d = format::format_duration(d);
        match e.detail {
            EventDetail::Fuel { .. } => out.push_str(&format!(", between samples {d} apart")),
            _ => out.push_str(&format!(" for {d}")),
        }
    }
    out.push('\n');
    out.push_str(&summary(e, units));
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use fleetview_api::geo::LatLon;
    use fleetview_core::analysis::events::{CheckKind, CheckSide};

    pub(crate) fn event(
        kind: EventKind,
        start: i64,
        end: Option<i64>,
        detail: EventDetail,
    ) -> Event {
        Event {
            kind,
            start,
            end,
            position: Some(LatLon::new(51.92441, 4.47773)),
            detail,
        }
    }

    #[test]
    fn each_kind_reads_as_a_sentence_fragment() {
        let refuel = event(
            EventKind::Refuel,
            0,
            None,
            EventDetail::Fuel {
                from_percent: 20.0,
                to_percent: 62.0,
                litres: Some(171.4),
            },
        );
        assert_eq!(
            summary(&refuel, UnitSystem::Metric),
            "+42 % (171 L), from 20 to 62 %"
        );
        assert_eq!(
            summary(&refuel, UnitSystem::Imperial),
            "+42 % (45 gal), from 20 to 62 %"
        );
        let drain = event(
            EventKind::FuelDrop,
            0,
            Some(3600),
            EventDetail::Fuel {
                from_percent: 58.0,
                to_percent: 40.0,
                litres: None,
            },
        );
        assert_eq!(
            summary(&drain, UnitSystem::Metric),
            "−18 %, from 58 to 40 %"
        );
        assert_eq!(duration_text(&drain), "within 1 h 00 min");
        assert!(
            hover_text(&drain, false, UnitSystem::Metric)
                .contains(", between samples 1 h 00 min apart\n")
        );
        let gap = event(
            EventKind::Gap,
            0,
            Some(3 * 3600 + 600),
            EventDetail::Gap {
                series: "positions".into(),
                median_interval_secs: 900,
            },
        );
        assert_eq!(
            summary(&gap, UnitSystem::Metric),
            "3 h 10 min silent (positions, usual 15 min)"
        );
        let reset = event(
            EventKind::CounterReset,
            0,
            None,
            EventDetail::CounterReset {
                counter: "operating hours".into(),
                before: 412.5,
                after: 0.0,
            },
        );
        assert_eq!(
            summary(&reset, UnitSystem::Metric),
            "operating hours 412.5 h to 0.0 h"
        );
        let fault = event(
            EventKind::Fault,
            0,
            None,
            EventDetail::Fault {
                identifier: "SPN 100 FMI 1".into(),
                description: "low oil pressure".into(),
                severity: Some(2),
                level: "error".into(),
            },
        );
        assert_eq!(
            summary(&fault, UnitSystem::Metric),
            "SPN 100 FMI 1 · low oil pressure · error"
        );
        let check = event(
            EventKind::Check,
            0,
            Some(86_400),
            EventDetail::Check {
                check: CheckKind::OperatingHours,
                unit: "h",
                first: CheckSide {
                    series: "rise of cumulative operating hours".into(),
                    value: 41.2,
                },
                second: CheckSide {
                    series: "daily operating hours".into(),
                    value: 48.0,
                },
            },
        );
        assert_eq!(
            summary(&check, UnitSystem::Metric),
            "rise of cumulative operating hours 41.2 h vs daily operating hours 48.0 h: \
             −6.8 h (14 %)"
        );
        assert_eq!(where_text(&check), "51.9244, 4.4777");
        // A distance check in miles: both sides and the difference.
        let distance = event(
            EventKind::Check,
            0,
            Some(86_400),
            EventDetail::Check {
                check: CheckKind::OperatingHours,
                unit: "km",
                first: CheckSide {
                    series: "odometer".into(),
                    value: 160.9344,
                },
                second: CheckSide {
                    series: "track".into(),
                    value: 80.4672,
                },
            },
        );
        assert_eq!(
            summary(&distance, UnitSystem::Imperial),
            "odometer 100.0 mi vs track 50.0 mi: +50.0 mi (50 %)"
        );
        assert_eq!(duration_text(&reset), format::NULL);
        assert_eq!(duration_text(&gap), "3 h 10 min");
        assert!(
            hover_text(&gap, false, UnitSystem::Metric)
                .starts_with("Reporting gap\n1970-01-01 00:00:00 for")
        );
    }

    #[test]
    fn counts_and_the_lane_name_the_kinds_present() {
        let counts = [
            (EventKind::Stop, 1),
            (EventKind::Refuel, 2),
            (EventKind::OutOfHours, 3),
        ];
        assert_eq!(counts_text(&counts), "1 stop · 2 refuels · 3 out of hours");
        assert_eq!(lane_label(&counts), "Events: stops, refuels, out of hours");
        assert_eq!(lane_label(&[]), "Events: none");
        assert_eq!(counts_text(&[]), "none");
        assert_eq!(signed(-0.04, 1), "+0.0", "no minus zero");
        let chars = |n: usize| move |s: &str| s.chars().count() <= n;
        assert_eq!(
            counts_short(&counts, chars(40)),
            "2 refuels · 3 out of hours"
        );
        assert_eq!(counts_short(&counts, chars(12)), "2 refuels · …");
        assert_eq!(counts_short(&counts[..1], chars(40)), "only stops");
        assert_eq!(counts_short(&[], chars(40)), "none");
        // The most telling first: a drain is never cut for the refuels.
        let many = [
            (EventKind::Refuel, 10),
            (EventKind::FuelDrop, 1),
            (EventKind::Fault, 3),
        ];
        assert_eq!(counts_short(&many, chars(20)), "1 suspected drain · …");
    }
}
