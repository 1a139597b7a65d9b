//! What needs a fleet manager's attention on one machine: its faults by
//! their worst level, suspected drains, meter resets, silence, high idle
//! and data gaps. One definition for the Fleet page's strip and the fleet
//! report's `attention` list; pure (the caller gives `now`).

use super::events::types::{Event, EventDetail, EventKind};
use super::fleet::{MachineFigures, SILENT_AFTER_SECS, last_report};
use fleetview_api::equipment::EquipmentSnapshot;
use fleetview_api::geo::LatLon;
use fleetview_api::time::{SECS_PER_DAY, format_wire};

/// The idle share above which a machine needs attention, by default.
pub const DEFAULT_IDLE_THRESHOLD_PERCENT: u8 = 40;

/// What a machine needs attention for. The order is the strip's and the
/// sort's: the worst first. Service due is found from the service book
/// (`crate::service`), not from the window's events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AttentionKind {
    Fault,
    FuelDrop,
    CounterReset,
    ServiceDue,
    Silent,
    HighIdle,
    Gap,
}

impl AttentionKind {
    pub const ALL: [AttentionKind; 7] = [
        AttentionKind::Fault,
        AttentionKind::FuelDrop,
        AttentionKind::CounterReset,
        AttentionKind::ServiceDue,
        AttentionKind::Silent,
        AttentionKind::HighIdle,
        AttentionKind::Gap,
    ];

    /// The report's name of the kind (`kind` in JSON).
    pub fn key(self) -> &'static str {
        match self {
            AttentionKind::Fault => "fault",
            AttentionKind::FuelDrop => "fuel_drop",
            AttentionKind::CounterReset => "counter_reset",
            AttentionKind::ServiceDue => "service_due",
            AttentionKind::Silent => "silent",
            AttentionKind::HighIdle => "high_idle",
            AttentionKind::Gap => "gap",
        }
    }

    /// What the app calls the kind.
    pub fn label(self) -> &'static str {
        match self {
            AttentionKind::Fault => "Faults",
            AttentionKind::FuelDrop => "Suspected drains",
            AttentionKind::CounterReset => "Meter resets",
            AttentionKind::ServiceDue => "Service due",
            AttentionKind::Silent => "Silent > 24 h",
            AttentionKind::HighIdle => "High idle",
            AttentionKind::Gap => "Data gaps",
        }
    }
}

/// A fault's level: its severity (D9: `None` is unknown) and its label.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FaultLevel {
    pub severity: Option<i64>,
    pub label: String,
}

impl FaultLevel {
    /// Higher is worse; unknown ranks below every known level.
    pub fn rank(&self) -> i64 {
        self.severity.unwrap_or(-1)
    }
}

/// One thing a machine needs attention for.
#[derive(Debug, Clone, PartialEq)]
pub struct Attention {
    pub kind: AttentionKind,
    /// In words, for people (the report's `text`).
    pub text: String,
    /// When it happened, where it has a time (an event's start; a silent
    /// machine's last report).
    pub at: Option<i64>,
    /// Where the machine was then, if known.
    pub position: Option<LatLon>,
    /// For a fault: the worst level among the machine's faults.
    pub level: Option<FaultLevel>,
}

/// When a machine last reported, as far as is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LastReport {
    /// Not known (the snapshots were not read, or the service has none):
    /// no machine is called silent on it.
    #[default]
    Unknown,
    /// It never reported.
    Never,
    /// Its last report (`last_report` of its snapshot).
    At(i64),
}

impl LastReport {
    /// From a snapshot read; `None`: it has none, so it never reported.
    pub fn of(snapshot: Option<&EquipmentSnapshot>) -> Self {
        Self::from(snapshot.and_then(last_report))
    }
}

impl From<Option<i64>> for LastReport {
    /// Known: `None` is never.
    fn from(at: Option<i64>) -> Self {
        at.map_or(LastReport::Never, LastReport::At)
    }
}

/// What a machine's attention is found from.
#[derive(Debug, Clone, Copy)]
pub struct AttentionInputs<'a> {
    pub last_report: LastReport,
    /// Its events over the window looked at (D16); those of the kinds
    /// above count, the rest are left aside.
    pub events: &'a [Event],
    /// Idle hours as a share of engine hours over that window; `None`:
    /// no engine hours (or no data) there.
    pub idle_percent: Option<f64>,
    pub idle_threshold_percent: f64,
    pub now: i64,
}

/// What the machine needs attention for, worst kind first (drains and
/// resets each on their own, in time order; faults and gaps summed up).
pub fn attention(input: &AttentionInputs<'_>) -> Vec<Attention> {
    let mut out = Vec::new();
    out.extend(faults(input.events));
    for e in input.events {
        match (&e.kind, &e.detail) {
            (
                EventKind::FuelDrop,
                EventDetail::Fuel {
                    from_percent,
                    to_percent,
                    ..
                },
            ) => out.push(from_event(
                e,
                AttentionKind::FuelDrop,
                format!(
                    "Suspected fuel drain, {from_percent:.0} % to {to_percent:.0} % with the \
                     engine off, {}",
                    when(e.start)
                ),
            )),
            (
                EventKind::CounterReset,
                EventDetail::CounterReset {
                    counter,
                    before,
                    after,
                },
            ) => out.push(from_event(
                e,
                AttentionKind::CounterReset,
                format!(
                    "Meter reset, {counter} from {before:.1} to {after:.1}, {}",
                    when(e.start)
                ),
            )),
            _ => {}
        }
    }
    out.extend(silent(input.last_report, input.now));
    if let Some(p) = input.idle_percent
        && p.is_finite()
        && p > input.idle_threshold_percent
    {
        out.push(Attention {
            kind: AttentionKind::HighIdle,
            // To 0.1, as percents are in the reports (30.4 % is not 30 %).
            text: format!(
                "Idle {} % of engine hours (above {:.0} %)",
                (p * 10.0).round() / 10.0,
                input.idle_threshold_percent
            ),
            at: None,
            position: None,
            level: None,
        });
    }
    out.extend(gaps(input.events));
    out.sort_by_key(|a| a.kind);
    out
}

/// What a machine needs attention for over its figures' window (the
/// events they hold, their idle share).
pub fn machine_attention(
    figures: &MachineFigures,
    last_report: LastReport,
    idle_threshold_percent: f64,
    now: i64,
) -> Vec<Attention> {
    attention(&AttentionInputs {
        last_report,
        events: &figures.events,
        idle_percent: figures.idle_percent(),
        idle_threshold_percent,
        now,
    })
}

/// How badly a machine needs attention; greater is worse: faults by their
/// worst level, then drains and resets, services due, silence, high idle,
/// gaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct AttentionRank {
    /// The worst fault's level rank, `i64::MIN` with no fault.
    fault: i64,
    drains_and_resets: usize,
    /// Services overdue or due soon.
    service_due: usize,
    silent: bool,
    high_idle: bool,
    gaps: usize,
}

impl AttentionRank {
    pub fn of(items: &[Attention]) -> Self {
        let has = |k: AttentionKind| items.iter().any(|a| a.kind == k);
        Self {
            fault: items
                .iter()
                .filter_map(|a| a.level.as_ref().map(FaultLevel::rank))
                .max()
                .unwrap_or(i64::MIN),
            drains_and_resets: items
                .iter()
                .filter(|a| {
                    matches!(
                        a.kind,
                        AttentionKind::FuelDrop | AttentionKind::CounterReset
                    )
                })
                .count(),
            service_due: items
                .iter()
                .filter(|a| a.kind == AttentionKind::ServiceDue)
                .count(),
            silent: has(AttentionKind::Silent),
            high_idle: has(AttentionKind::HighIdle),
            gaps: items
                .iter()
                .filter(|a| a.kind == AttentionKind::Gap)
                .count(),
        }
    }

    /// Nothing needs attention.
    pub fn is_none(&self) -> bool {
        *self == Self::default()
    }
}

impl Default for AttentionRank {
    /// Nothing: below any fault, unknown level included.
    fn default() -> Self {
        Self {
            fault: i64::MIN,
            drains_and_resets: 0,
            service_due: 0,
            silent: false,
            high_idle: false,
            gaps: 0,
        }
    }
}

/// `2025-06-02 04:10 UTC`.
fn when(secs: i64) -> String {
    let w = format_wire(secs);
    match (w.get(..10), w.get(11..16)) {
        (Some(day), Some(time)) => format!("{day} {time} UTC"),
        _ => w,
    }
}

fn from_event(e: &Event, kind: AttentionKind, text: String) -> Attention {
    Attention {
        kind,
        text,
        at: Some(e.start),
        position: e.position,
        level: None,
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The faults summed up: how many, the worst level; at the latest of the
/// worst.
fn faults(events: &[Event]) -> Option<Attention> {
    let levelled = events.iter().filter_map(|e| match &e.detail {
        EventDetail::Fault {
            severity, level, ..
        } if e.kind == EventKind::Fault => Some((
            e,
            FaultLevel {
                severity: *severity,
                label: level.clone(),
            },
        )),
        _ => None,
    });
    let (n, worst) = levelled.fold((0, None::<(&Event, FaultLevel)>), |(n, worst), (e, l)| {
        let worse = worst
            .as_ref()
            .is_none_or(|(w, wl)| (l.rank(), e.start) > (wl.rank(), w.start));
        (n + 1, if worse { Some((e, l)) } else { worst })
    });
    let (e, level) = worst?;
    Some(Attention {
        kind: AttentionKind::Fault,
        text: format!(
            "{}, the worst {}, the latest of them {}",
            plural(n, "fault", "faults"),
            level.label,
            when(e.start)
        ),
        at: Some(e.start),
        position: e.position,
        level: Some(level),
    })
}

/// Silent for more than 24 h, or never reported (the snapshot's daily
/// members, dated at midnight, are no report: `last_report`); nothing
/// while that is not known.
fn silent(last_report: LastReport, now: i64) -> Option<Attention> {
    let last = match last_report {
        LastReport::Unknown => return None,
        LastReport::At(last) => last,
        LastReport::Never => {
            return Some(Attention {
                kind: AttentionKind::Silent,
                text: "Never reported".to_owned(),
                at: None,
                position: None,
                level: None,
            });
        }
    };
    let age = now - last;
    (age > SILENT_AFTER_SECS).then(|| Attention {
        kind: AttentionKind::Silent,
        text: format!(
            "Silent for {}, last report {}",
            if age >= 2 * SECS_PER_DAY {
                plural((age / SECS_PER_DAY) as usize, "day", "days")
            } else {
                plural((age / 3600) as usize, "hour", "hours")
            },
            when(last)
        ),
        at: Some(last),
        position: None,
        level: None,
    })
}

/// The gaps summed up: how many, the longest; at the latest.
fn gaps(events: &[Event]) -> Option<Attention> {
    let gaps: Vec<&Event> = events.iter().filter(|e| e.kind == EventKind::Gap).collect();
    let latest = gaps.iter().max_by_key(|e| e.start)?;
    let longest_secs = gaps
        .iter()
        .filter_map(|e| e.duration_secs())
        .max()
        .unwrap_or(0);
    let h = longest_secs / 3600;
    let m = (longest_secs % 3600) / 60;
    Some(from_event(
        latest,
        AttentionKind::Gap,
        format!(
            "{}, the longest {h} h {m:02} min, the latest {}",
            plural(gaps.len(), "data gap", "data gaps"),
            when(latest.start)
        ),
    ))
}

#[cfg(test)]
#[path = "attention_tests.rs"]
mod tests;
