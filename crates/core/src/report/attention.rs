//! What needs a manager's attention on a machine over a report's window:
//! one entry per kind, with its count or its figure in words. The kinds
//! and their keys are fixed (scripts read them from the fleet report's
//! JSON): `fault`, `fuel_drop`, `counter_reset`, `silent`, `high_idle`,
//! `gap`.

use crate::analysis::events::EventKind;
use crate::analysis::{Event, EventDetail};
use fleetview_api::time::SECS_PER_DAY;

/// Silent: no report for longer than this before the report was made.
pub const SILENT_AFTER_SECS: i64 = SECS_PER_DAY;
/// Idle above this share of engine hours needs attention, by default.
pub const DEFAULT_HIGH_IDLE_PERCENT: f64 = 40.0;

/// Why a machine needs attention, most pressing first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AttentionKind {
    Fault,
    FuelDrop,
    CounterReset,
    Silent,
    HighIdle,
    Gap,
}

impl AttentionKind {
    pub const ALL: [AttentionKind; 6] = [
        AttentionKind::Fault,
        AttentionKind::FuelDrop,
        AttentionKind::CounterReset,
        AttentionKind::Silent,
        AttentionKind::HighIdle,
        AttentionKind::Gap,
    ];

    /// Its key in the report (`kind`).
    pub fn key(self) -> &'static str {
        match self {
            AttentionKind::Fault => "fault",
            AttentionKind::FuelDrop => "fuel_drop",
            AttentionKind::CounterReset => "counter_reset",
            AttentionKind::Silent => "silent",
            AttentionKind::HighIdle => "high_idle",
            AttentionKind::Gap => "gap",
        }
    }
}

/// One reason a machine needs attention, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Attention {
    pub kind: AttentionKind,
    pub text: String,
}

/// What attention is judged from.
#[derive(Debug, Clone, Copy)]
pub struct AttentionInput<'a> {
    /// The window's events and findings (D16); `None`: no data read.
    pub events: Option<&'a [Event]>,
    /// The machine's last report (the newest dated reading of its
    /// snapshot, `analysis::last_report`); `None`: it never reported.
    pub last_report: Option<i64>,
    /// Whether `last_report` is known at all (the snapshots were read).
    pub last_report_known: bool,
    /// When the report is made: silence is counted up to then.
    pub generated_at: i64,
    /// Idle hours as a share of engine hours over the window.
    pub idle_percent: Option<f64>,
    pub high_idle_percent: f64,
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The machine's reasons for attention, in [`AttentionKind`] order.
pub fn report_attention(input: &AttentionInput<'_>) -> Vec<Attention> {
    let events = input.events.unwrap_or_default();
    let of = |k: EventKind| events.iter().filter(move |e| e.kind == k);
    let mut out = Vec::new();
    let mut push = |kind, text: String| out.push(Attention { kind, text });
    let faults = of(EventKind::Fault).count();
    if faults > 0 {
        push(
            AttentionKind::Fault,
            fault_text(of(EventKind::Fault), faults),
        );
    }
    let drains = of(EventKind::FuelDrop).count();
    if drains > 0 {
        push(
            AttentionKind::FuelDrop,
            count(drains, "suspected fuel drain", "suspected fuel drains"),
        );
    }
    let resets = of(EventKind::CounterReset).count();
    if resets > 0 {
        push(
            AttentionKind::CounterReset,
            count(resets, "meter reset", "meter resets"),
        );
    }
    if let Some(text) = silent_text(input) {
        push(AttentionKind::Silent, text);
    }
    if let Some(p) = input
        .idle_percent
        .filter(|p| p.is_finite() && *p > input.high_idle_percent)
    {
        push(
            AttentionKind::HighIdle,
            format!(
                "idle {p:.1} % of engine hours (above {:.0} %)",
                input.high_idle_percent
            ),
        );
    }
    let gaps = of(EventKind::Gap).count();
    if gaps > 0 {
        push(AttentionKind::Gap, count(gaps, "data gap", "data gaps"));
    }
    out
}

/// `3 faults, worst critical`.
fn fault_text<'a>(faults: impl Iterator<Item = &'a Event>, n: usize) -> String {
    let worst = faults
        .filter_map(|e| match &e.detail {
            EventDetail::Fault {
                severity, level, ..
            } => Some((severity.unwrap_or(-1), level.as_str())),
            _ => None,
        })
        .max_by_key(|(severity, _)| *severity)
        .map(|(_, level)| level)
        .filter(|l| !l.is_empty());
    match worst {
        Some(level) => format!("{}, worst {level}", count(n, "fault", "faults")),
        None => count(n, "fault", "faults"),
    }
}

/// `no report for 3 days` (over 24 h before the report), `never reported`.
fn silent_text(input: &AttentionInput<'_>) -> Option<String> {
    if !input.last_report_known {
        return None;
    }
    let Some(last) = input.last_report else {
        return Some("never reported".to_owned());
    };
    let silent = input.generated_at - last;
    (silent > SILENT_AFTER_SECS).then(|| {
        let hours = silent / 3600;
        if hours < 48 {
            format!("no report for {hours} h")
        } else {
            format!("no report for {} days", silent / SECS_PER_DAY)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(kind: EventKind, detail: EventDetail) -> Event {
        Event {
            kind,
            start: 0,
            end: None,
            position: None,
            detail,
        }
    }

    fn fault(severity: i64, level: &str) -> Event {
        event(
            EventKind::Fault,
            EventDetail::Fault {
                identifier: "SPN 100".into(),
                description: String::new(),
                severity: Some(severity),
                level: level.into(),
            },
        )
    }

    fn input(events: Option<&[Event]>) -> AttentionInput<'_> {
        AttentionInput {
            events,
            last_report: Some(1_000_000),
            last_report_known: true,
            generated_at: 1_000_000 + 3600,
            idle_percent: Some(12.0),
            high_idle_percent: DEFAULT_HIGH_IDLE_PERCENT,
        }
    }

    #[test]
    fn nothing_to_say_says_nothing() {
        assert!(report_attention(&input(Some(&[]))).is_empty());
        assert!(report_attention(&input(None)).is_empty());
    }

    #[test]
    fn each_kind_is_one_entry_in_order_with_its_count() {
        let reset = EventDetail::CounterReset {
            counter: "operating hours".into(),
            before: 10.0,
            after: 0.0,
        };
        let events = [
            event(
                EventKind::Gap,
                EventDetail::OutOfHours {
                    reason: String::new(),
                },
            ),
            fault(1, "warning"),
            event(EventKind::CounterReset, reset),
            fault(2, "critical"),
            event(EventKind::Stop, EventDetail::Stop),
            event(EventKind::FuelDrop, EventDetail::Stop),
            event(EventKind::FuelDrop, EventDetail::Stop),
        ];
        let mut i = input(Some(&events));
        i.idle_percent = Some(52.34);
        i.generated_at = 1_000_000 + 3 * SECS_PER_DAY + 5;
        let got = report_attention(&i);
        let kinds: Vec<&str> = got.iter().map(|a| a.kind.key()).collect();
        assert_eq!(
            kinds,
            [
                "fault",
                "fuel_drop",
                "counter_reset",
                "silent",
                "high_idle",
                "gap"
            ]
        );
        assert_eq!(got[0].text, "2 faults, worst critical");
        assert_eq!(got[1].text, "2 suspected fuel drains");
        assert_eq!(got[2].text, "1 meter reset");
        assert_eq!(got[3].text, "no report for 3 days");
        assert_eq!(got[4].text, "idle 52.3 % of engine hours (above 40 %)");
        assert_eq!(got[5].text, "1 data gap");
    }

    #[test]
    fn silent_is_over_24_hours_or_never_and_only_when_known() {
        let mut i = input(Some(&[]));
        i.generated_at = 1_000_000 + SILENT_AFTER_SECS;
        assert!(
            report_attention(&i).is_empty(),
            "24 h exactly is not silent"
        );
        i.generated_at += 1;
        assert_eq!(report_attention(&i)[0].text, "no report for 24 h");
        i.last_report = None;
        assert_eq!(report_attention(&i)[0].text, "never reported");
        i.last_report_known = false;
        assert!(report_attention(&i).is_empty(), "unknown is not silent");
        i.last_report_known = true;
        i.idle_percent = Some(40.0);
        assert_eq!(report_attention(&i).len(), 1, "40 % is not above 40 %");
    }
}
