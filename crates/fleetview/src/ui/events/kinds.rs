//! One home per event kind (D16): its name, its nouns when counted, its
//! colour, how the plots' lane and the map draw it, where it ranks among
//! the kinds, and the sentence an event of the kind says in the Events
//! tab's Value column. The views read them here, so a kind looks and
//! reads the same on the chips, the lane, the map and in words.

use egui::Color32;
use egui_plot::MarkerShape;

use crate::ui::theme;
use fleetview_core::analysis::EventKind;

/// How an event's kind looks and reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EventStyle {
    /// What the app calls the kind (the report's name too).
    pub label: &'static str,
    /// The kind counted: `1 refuel`, `2 refuels`.
    pub one: &'static str,
    pub many: &'static str,
    /// The Events tab's chips, the plots' event lane, the map's marks.
    /// Each takes [`theme::EVENT_CHIP_TEXT`] on it at 4.5:1 or better,
    /// whatever the visuals (the chip carries its own background).
    pub color: Color32,
    /// An instant's mark on the plots' event lane.
    pub lane_mark: MarkerShape,
    /// A span's bar on the lane: its bottom and top, in lane heights.
    pub lane_bar: (f64, f64),
    /// The kind's mark on the map, for the kinds drawn there.
    pub map: Option<MapMark>,
}

/// What an event's mark on the map looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MapIcon {
    /// A dot whose size grows with the event's duration.
    Dot,
    FuelPump,
    /// A warning triangle, coloured by the fault's level.
    Warning,
}

/// A kind's mark on the map and how the map's legend names it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapMark {
    pub icon: MapIcon,
    /// The legend's word beside the icon.
    pub legend: &'static str,
    /// The legend's accessible description of the mark.
    pub described: &'static str,
}

impl MapMark {
    const fn new(icon: MapIcon, legend: &'static str, described: &'static str) -> Self {
        Self {
            icon,
            legend,
            described,
        }
    }
}

/// A bar as tall as most of the lane: a stop, under the other kinds.
const FULL_BAR: (f64, f64) = (0.15, 0.85);
/// A thinner bar, drawn over a stop at the same time.
const THIN_BAR: (f64, f64) = (0.32, 0.68);

/// How `kind` looks and reads.
/// The kind counted: `1 refuel`, `3 refuels`.
pub fn counted(kind: EventKind, n: usize) -> String {
    let style = event_style(kind);
    crate::ui::format::count(n, style.one, style.many)
}

pub fn event_style(kind: EventKind) -> EventStyle {
    // What most kinds share; each kind below says what it has of its own.
    let base = EventStyle {
        label: kind.label(),
        one: "",
        many: "",
        color: Color32::TRANSPARENT,
        lane_mark: MarkerShape::Diamond,
        lane_bar: THIN_BAR,
        map: None,
    };
    match kind {
        EventKind::Stop => EventStyle {
            one: "stop",
            many: "stops",
            color: Color32::from_rgb(0x8C, 0x7A, 0xE6),
            lane_bar: FULL_BAR,
            map: Some(MapMark::new(
                MapIcon::Dot,
                "stop",
                "stops (dots, larger the longer)",
            )),
            ..base
        },
        EventKind::Refuel => EventStyle {
            one: "refuel",
            many: "refuels",
            color: Color32::from_rgb(0x3C, 0xC8, 0x6E),
            map: Some(MapMark::new(MapIcon::FuelPump, "refuel", "refuels")),
            ..base
        },
        EventKind::FuelDrop => EventStyle {
            one: "suspected drain",
            many: "suspected drains",
            color: Color32::from_rgb(0xF0, 0x70, 0x3C),
            map: Some(MapMark::new(MapIcon::FuelPump, "drain", "suspected drains")),
            ..base
        },
        EventKind::OutOfHours => EventStyle {
            one: "out of hours",
            many: "out of hours",
            color: Color32::from_rgb(0xD9, 0x8C, 0xC8),
            ..base
        },
        EventKind::Gap => EventStyle {
            one: "reporting gap",
            many: "reporting gaps",
            color: Color32::from_rgb(0x9A, 0x9A, 0x9A),
            ..base
        },
        EventKind::CounterReset => EventStyle {
            one: "counter reset",
            many: "counter resets",
            color: Color32::from_rgb(0xE5, 0x48, 0x4D),
            ..base
        },
        EventKind::Fault => EventStyle {
            one: "fault",
            many: "faults",
            color: theme::WARNING,
            map: Some(MapMark::new(
                MapIcon::Warning,
                "fault",
                "faults (coloured by level)",
            )),
            ..base
        },
        EventKind::Check => EventStyle {
            one: "check",
            many: "checks",
            color: theme::INFO,
            ..base
        },
    }
}

/// The event kinds, the most telling first: where events coincide (a
/// suspected drain over the stop it happened in, a drain at a fault's
/// place), the first is drawn on top and said first.
pub const MOST_TELLING_FIRST: [EventKind; 8] = [
    EventKind::FuelDrop,
    EventKind::CounterReset,
    EventKind::Check,
    EventKind::Fault,
    EventKind::Refuel,
    EventKind::OutOfHours,
    EventKind::Gap,
    EventKind::Stop,
];

/// Where `kind` stands among [`MOST_TELLING_FIRST`]: the lower, the more
/// telling.
pub fn telling_rank(kind: EventKind) -> usize {
    MOST_TELLING_FIRST
        .iter()
        .position(|k| *k == kind)
        .unwrap_or(usize::MAX)
}

/// The Value column: what the event says beyond its kind, time and place,
/// in the words the reports use too.
pub use fleetview_core::report::words::summary;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::events::text::tests::event;
    use crate::ui::events::text::{duration_text, hover_text, where_text};
    use crate::ui::format;
    use fleetview_core::analysis::events::CheckKind;
    use fleetview_core::analysis::events::CheckSide;
    use fleetview_core::analysis::{EventDetail, UnitSystem};

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
            "+42 % (171.4 L), from 20 to 62 %"
        );
        assert_eq!(
            summary(&refuel, UnitSystem::Imperial),
            "+42 % (45.3 gal), from 20 to 62 %"
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
            hover_text(&drain, &crate::ui::format::Zone::utc(), UnitSystem::Metric)
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
            hover_text(&gap, &crate::ui::format::Zone::utc(), UnitSystem::Metric)
                .starts_with("Reporting gap\n1970-01-01 00:00:00 for")
        );
    }

    #[test]
    fn the_ranking_holds_each_kind_once() {
        let mut ranked = MOST_TELLING_FIRST;
        ranked.sort();
        assert_eq!(ranked, EventKind::ALL);
    }

    #[test]
    fn event_colours_read_in_both_visuals() {
        for kind in EventKind::ALL {
            let c = event_style(kind).color;
            let chip = theme::contrast_ratio(c, theme::EVENT_CHIP_TEXT);
            assert!(chip >= 4.5, "{kind:?}: text on its chip {chip:.1}:1");
            // The lane's marks are outlined in the visuals' text colour:
            // that outline stands out on either panel.
            for visuals in [egui::Visuals::dark(), egui::Visuals::light()] {
                let bg = visuals.extreme_bg_color;
                let outline = visuals.strong_text_color();
                assert!(
                    theme::contrast_ratio(outline, bg) >= 3.0,
                    "{kind:?}: outline on {bg:?}"
                );
            }
        }
        assert!((theme::contrast_ratio(Color32::BLACK, Color32::WHITE) - 21.0).abs() < 0.01);
    }
}
