//! What events say in words: the Events tab's Where and Duration, the
//! lane's and the map's hover, the kinds counted and named in labels
//! (each kind's own words, and the Value column's sentence, are in
//! `kinds.rs`). Pure, so each is tested.

use super::kinds::{self, event_style};
use crate::ui::format;
use fleetview_core::analysis::UnitSystem;
use fleetview_core::analysis::{Event, EventDetail, EventKind};

/// `2 refuels · 1 suspected drain`, in the kinds' order; `None events`
/// as "none".
pub fn counts_text(counts: &[(EventKind, usize)]) -> String {
    if counts.is_empty() {
        return "none".to_owned();
    }
    counts
        .iter()
        .map(|(k, n)| kinds::counted(*k, *n))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The figures strip's short line of counts: the kinds but stops (the
/// strip counts those beside activities), the most telling first (a drain
/// before refuels), as many as `fits`, then `…`; `only stops` when there
/// is nothing else, `none` when nothing at all.
pub fn counts_short(counts: &[(EventKind, usize)], fits: impl Fn(&str) -> bool) -> String {
    let mut out = String::new();
    let telling = kinds::MOST_TELLING_FIRST
        .iter()
        .filter(|k| **k != EventKind::Stop)
        .filter_map(|k| counts.iter().find(|(c, _)| c == k));
    for (k, n) in telling {
        let part = kinds::counted(*k, *n);
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
    let kinds: Vec<&str> = counts.iter().map(|(k, _)| event_style(*k).many).collect();
    format!("Events: {}", kinds.join(", "))
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
pub fn hover_text(e: &Event, zone: &format::Zone, units: UnitSystem) -> String {
    let mut out = format!(
        "{}\n{}",
        event_style(e.kind).label,
        format::format_time(e.start, zone)
    );
    if let Some(d) = e.duration_secs() {
        let d = format::format_duration(d);
        match e.detail {
            EventDetail::Fuel { .. } => out.push_str(&format!(", between samples {d} apart")),
            _ => out.push_str(&format!(" for {d}")),
        }
    }
    out.push('\n');
    out.push_str(&kinds::summary(e, units));
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use fleetview_api::geo::LatLon;

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
