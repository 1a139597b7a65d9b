//! One machine's line in the fleet overview: what its snapshot says now
//! (last report, state) and what its window's `/history` and `/faults` add
//! (hours and idle in the window, faults by worst level, the engine now).

use serde::{Deserialize, Serialize};

use super::events::HistorySeries;
use super::events::checks::OPERATING_HOURS_COUNTER;
use super::events::detect::detect;
use super::events::timeline::position_at;
use super::events::types::{CounterSeries, Event, EventDetail, EventInputs, EventKind};
use fleetview_api::equipment::EquipmentSnapshot;
use fleetview_api::model::{EngineEvent, EquipmentHistory, FaultRow};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};

/// Silent: no report for longer than this.
pub(crate) const SILENT_AFTER_SECS: i64 = SECS_PER_DAY;

/// The faults of a window: how many, and the worst level among them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FaultTally {
    pub count: usize,
    /// The highest severity seen (D9: -1 is unknown, ranked lowest).
    pub worst_severity: Option<i64>,
    /// The level label of the worst fault, as shown (`unknown` if none).
    pub worst_label: Option<String>,
}

impl FaultTally {
    pub(crate) fn of(rows: &[FaultRow]) -> Self {
        let worst = rows.iter().max_by_key(|r| r.severity.unwrap_or(i64::MIN));
        Self {
            count: rows.len(),
            worst_severity: worst.and_then(|r| r.severity),
            worst_label: worst.map(|r| r.level().to_owned()),
        }
    }

    /// Sort key: more severe first, then more faults.
    pub fn rank(&self) -> (i64, usize) {
        match self.count {
            0 => (i64::MIN, 0),
            n => (self.worst_severity.unwrap_or(-1), n),
        }
    }
}

/// How a machine reports, as far as its identity tells: a PIN is an OEM
/// (ISO 15143-3) feed, a VIN a tracker on a road vehicle. The service names
/// no source per machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedKind {
    Oem,
    Tracker,
}

impl FeedKind {
    pub fn label(self) -> &'static str {
        match self {
            FeedKind::Oem => "OEM feed (PIN)",
            FeedKind::Tracker => "Tracker (VIN)",
        }
    }
}

/// A machine's figures over a window, from its `/history` and `/faults`.
/// A figure the data do not give is `None`, never 0.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MachineFigures {
    /// Sum of the daily operating hours inside the window.
    pub engine_hours_h: Option<f64>,
    /// Sum of the daily idle hours inside the window.
    pub idle_hours_h: Option<f64>,
    pub faults: FaultTally,
    /// The engine's state after the window's last D10 event, and when.
    pub engine: Option<(EngineEvent, i64)>,
    pub feed: Option<FeedKind>,
    /// Suspected drains and counter resets in the window (D16).
    pub flags: Flags,
    /// The window's events that can need attention (faults, drains,
    /// resets; gaps where `compute_at` was given now), in time order.
    pub events: Vec<Event>,
}

/// What flags a machine in the overview (D16): suspected fuel drains and
/// counter resets in the window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flags {
    pub fuel_drops: usize,
    pub counter_resets: usize,
}

impl Flags {
    pub(crate) fn of(events: &[Event]) -> Self {
        let n = |k: EventKind| events.iter().filter(|e| e.kind == k).count();
        Self {
            fuel_drops: n(EventKind::FuelDrop),
            counter_resets: n(EventKind::CounterReset),
        }
    }

    pub fn count(&self) -> usize {
        self.fuel_drops + self.counter_resets
    }

    /// `1 suspected drain · 1 counter reset`; empty for none.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        if self.fuel_drops > 0 {
            parts.push(plural(
                self.fuel_drops,
                "suspected drain",
                "suspected drains",
            ));
        }
        if self.counter_resets > 0 {
            parts.push(plural(
                self.counter_resets,
                "counter reset",
                "counter resets",
            ));
        }
        parts.join(" · ")
    }
}

impl MachineFigures {
    /// `operating_hours`: the `cumulativeOperatingHours` samples of the
    /// window (counter resets), empty if not read.
    pub fn compute(
        history: &EquipmentHistory,
        faults: &[FaultRow],
        operating_hours: &[(i64, f64)],
        window: TimeWindow,
    ) -> Self {
        Self::compute_inner(history, faults, operating_hours, window, None)
    }

    /// As `compute`, and the gaps of the positions, the fuel level and the
    /// hour meter up to `now` (a feed silent until the window's end would
    /// read as a gap without it).
    pub fn compute_at(
        history: &EquipmentHistory,
        faults: &[FaultRow],
        operating_hours: &[(i64, f64)],
        window: TimeWindow,
        now: i64,
    ) -> Self {
        Self::compute_inner(history, faults, operating_hours, window, Some(now))
    }

    /// The window's figures and its look-back up to `now` from one pass:
    /// the same as `compute` and `compute_at` apart. Only gaps depend on
    /// now (drains, resets and faults do not), so the window's figures are
    /// the look-back's without its gaps.
    pub fn compute_with_look_back(
        history: &EquipmentHistory,
        faults: &[FaultRow],
        operating_hours: &[(i64, f64)],
        window: TimeWindow,
        now: i64,
    ) -> (Self, Self) {
        let look_back = Self::compute_at(history, faults, operating_hours, window, now);
        let mut figures = look_back.clone();
        figures.events.retain(|e| e.kind != EventKind::Gap);
        (figures, look_back)
    }

    fn compute_inner(
        history: &EquipmentHistory,
        faults: &[FaultRow],
        operating_hours: &[(i64, f64)],
        window: TimeWindow,
        now: Option<i64>,
    ) -> Self {
        let inside = |t: i64| t >= window.since && t <= window.until;
        let days = history
            .daily_usages
            .rows
            .iter()
            .filter(|d| inside(d.date.0));
        let (mut engine, mut idle) = (None::<f64>, None::<f64>);
        for d in days {
            if let Some(h) = d.operating_hours.as_ref().and_then(|h| h.hour) {
                *engine.get_or_insert(0.0) += h;
            }
            if let Some(h) = d.idle_hours.as_ref().and_then(|h| h.hour) {
                *idle.get_or_insert(0.0) += h;
            }
        }
        let last_event = history
            .engine_conditions
            .rows
            .iter()
            .filter(|e| inside(e.date.0))
            .max_by_key(|e| e.date)
            .map(|e| (e.event(), e.date.0));
        let feed = match (&history.pin, &history.vin) {
            (_, Some(v)) if !v.trim().is_empty() => Some(FeedKind::Tracker),
            (Some(p), _) if !p.trim().is_empty() => Some(FeedKind::Oem),
            _ => None,
        };
        let events = flag_events(history, faults, operating_hours, window, now);
        let flags = Flags::of(&events);
        Self {
            engine_hours_h: engine,
            idle_hours_h: idle,
            faults: FaultTally::of(faults),
            engine: last_event,
            feed,
            flags,
            events,
        }
    }

    /// Idle hours as a share of engine hours; none without engine hours.
    pub fn idle_percent(&self) -> Option<f64> {
        match (self.engine_hours_h, self.idle_hours_h) {
            (Some(e), Some(i)) if e > 0.0 => Some(100.0 * i / e),
            _ => None,
        }
    }
}

/// The events that can flag a machine: drains and resets from the fuel,
/// the engine and the counter; faults from `/faults`; with `now`, gaps.
fn flag_events(
    history: &EquipmentHistory,
    faults: &[FaultRow],
    operating_hours: &[(i64, f64)],
    window: TimeWindow,
    now: Option<i64>,
) -> Vec<Event> {
    let counters = [CounterSeries {
        name: OPERATING_HOURS_COUNTER,
        samples: operating_hours,
    }];
    let series = HistorySeries::of(history, operating_hours);
    let positions = &series.positions;
    let rows = series.gap_rows();
    let mut events: Vec<Event> = detect(&EventInputs {
        now: now.unwrap_or(window.until),
        engine: &history.engine_conditions.rows,
        fuel: &history.fuel_remainings.rows,
        positions,
        counters: &counters,
        rows: if now.is_some() { &rows } else { &[] },
        ..EventInputs::nothing_in(window)
    })
    .into_iter()
    .filter(|e| e.kind.flags_machine() || e.kind == EventKind::Gap)
    .collect();
    let inside = |t: i64| t >= window.since && t <= window.until;
    events.extend(faults.iter().filter(|f| inside(f.date.0)).map(|f| Event {
        kind: EventKind::Fault,
        start: f.date.0,
        end: None,
        position: position_at(positions, f.date.0),
        detail: EventDetail::Fault {
            identifier: f.identifier.clone(),
            description: f.description.clone(),
            severity: f.severity,
            level: f.level().to_owned(),
        },
    }));
    events.sort_by_key(|e| (e.start, e.kind));
    events
}

/// The latest date of any member of a snapshot: when the machine last
/// reported anything.
pub fn last_report(s: &EquipmentSnapshot) -> Option<i64> {
    [
        s.last_position.as_ref().and_then(|m| m.date),
        s.fuel_remaining.as_ref().and_then(|m| m.date),
        s.cumulative_operating_hours.as_ref().and_then(|m| m.date),
        s.cumulative_idle_hours.as_ref().and_then(|m| m.date),
        s.cumulative_distance.as_ref().and_then(|m| m.date),
        s.cumulative_fuel_used.as_ref().and_then(|m| m.date),
        s.cumulative_load_count.as_ref().and_then(|m| m.date),
        s.cumulative_payload_total.as_ref().and_then(|m| m.date),
        // Not the daily members (peak speed, load factor): they are dated
        // at their day's 00:00, a day's figure rather than a report, and a
        // machine silent since yesterday read "reported today".
        s.def_remaining_ratio.as_ref().and_then(|m| m.date),
        s.cumulative_active_regeneration_hours
            .as_ref()
            .and_then(|m| m.date),
        s.cumulative_power_take_off_hours
            .as_ref()
            .and_then(|m| m.date),
    ]
    .into_iter()
    .flatten()
    .map(|t| t.0)
    .max()
}

/// What a machine is doing, as far as is known: the marker's colour and
/// the state filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MachineState {
    /// The engine's last event (in a window reaching now) is a start.
    Running,
    /// Reported since midnight (UTC), engine not known to run.
    ReportedToday,
    /// Reported within the last 24 h, but not today.
    Recent,
    /// Nothing for more than 24 h.
    Silent,
    /// No report known at all.
    Unknown,
    /// Its snapshot is still being read.
    Pending,
}

impl MachineState {
    /// The states a machine can be filtered on (not `Pending`).
    pub const ALL: [MachineState; 5] = [
        MachineState::Running,
        MachineState::ReportedToday,
        MachineState::Recent,
        MachineState::Silent,
        MachineState::Unknown,
    ];

    pub fn label(self) -> &'static str {
        match self {
            MachineState::Running => "Engine running",
            MachineState::ReportedToday => "Reported today",
            MachineState::Recent => "Reported in 24 h",
            MachineState::Silent => "Silent > 24 h",
            MachineState::Unknown => "Never reported",
            MachineState::Pending => "Loading…",
        }
    }
}

/// A machine's state at `now`, from its last report and, where its window
/// reaches now, the engine's last event.
pub fn machine_state(
    last_report: Option<i64>,
    engine: Option<(EngineEvent, i64)>,
    window_reaches_now: bool,
    now: i64,
) -> MachineState {
    let Some(last) = last_report else {
        return match engine {
            Some((EngineEvent::Started, _)) if window_reaches_now => MachineState::Running,
            _ => MachineState::Unknown,
        };
    };
    let last = engine.map_or(last, |(_, t)| last.max(t));
    if now - last > SILENT_AFTER_SECS {
        return MachineState::Silent;
    }
    if window_reaches_now && matches!(engine, Some((EngineEvent::Started, _))) {
        return MachineState::Running;
    }
    if last.div_euclid(SECS_PER_DAY) == now.div_euclid(SECS_PER_DAY) {
        MachineState::ReportedToday
    } else {
        MachineState::Recent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::equipment::{SnapHours, SnapPosition};
    use fleetview_api::model::{DailyUsageRow, EngineConditionRow, Hours, Page};
    use fleetview_api::time::Timestamp;

    const DAY: i64 = SECS_PER_DAY;

    fn day(n: i64, operating: Option<f64>, idle: Option<f64>) -> DailyUsageRow {
        let mut row: DailyUsageRow = serde_json::from_value(serde_json::json!({
            "date": Timestamp::from_secs(n * DAY).to_string()
        }))
        .expect("a bare daily row");
        row.operating_hours = operating.map(|h| Hours { hour: Some(h) });
        row.idle_hours = idle.map(|h| Hours { hour: Some(h) });
        row
    }

    fn history(days: Vec<DailyUsageRow>, engine: Vec<EngineConditionRow>) -> EquipmentHistory {
        EquipmentHistory {
            id: 1,
            name: "M".into(),
            make: String::new(),
            model: String::new(),
            serial_number: String::new(),
            pin: Some("PIN1".into()),
            vin: None,
            positions: Page::of(Vec::new()),
            fault_codes: Page::of(Vec::new()),
            fuel_remainings: Page::of(Vec::new()),
            engine_conditions: Page::of(engine),
            daily_usages: Page::of(days),
        }
    }

    fn fault(severity: Option<i64>, label: &str) -> FaultRow {
        FaultRow {
            date: Timestamp::from_secs(DAY),
            description: "d".into(),
            identifier: "SPN 100 FMI 1".into(),
            severity,
            level_label: Some(label.into()),
        }
    }

    #[test]
    fn a_drain_or_a_reset_in_the_window_flags_the_machine() {
        use fleetview_api::model::FuelRemainingRow;
        let window = TimeWindow {
            since: 10 * DAY,
            until: 12 * DAY - 1,
        };
        // Runs 08:00-16:00 on day 10, parked overnight, runs again on day 11.
        let engine = vec![
            EngineConditionRow::started_at(10 * DAY + 8 * 3600),
            EngineConditionRow::stopped_at(10 * DAY + 16 * 3600),
            EngineConditionRow::started_at(11 * DAY + 8 * 3600),
            EngineConditionRow::stopped_at(11 * DAY + 16 * 3600),
        ];
        let fuel = |pairs: &[(i64, f64)]| {
            pairs
                .iter()
                .map(|&(t, percent)| FuelRemainingRow {
                    percent,
                    date: Timestamp::from_secs(t),
                })
                .collect::<Vec<_>>()
        };
        let mut h = history(Vec::new(), engine);
        // Burnt while running, then 20 points gone overnight.
        h.fuel_remainings = Page::of(fuel(&[
            (10 * DAY + 8 * 3600, 80.0),
            (10 * DAY + 16 * 3600, 70.0),
            (11 * DAY + 8 * 3600, 50.0),
            (11 * DAY + 16 * 3600, 42.0),
        ]));
        let hours = [
            (10 * DAY + 8 * 3600, 1000.0),
            (10 * DAY + 16 * 3600, 1008.0),
            (11 * DAY + 8 * 3600, 2.0),
        ];
        let f = MachineFigures::compute(&h, &[], &hours, window);
        assert_eq!(
            f.flags,
            Flags {
                fuel_drops: 1,
                counter_resets: 1
            }
        );
        assert_eq!(f.flags.describe(), "1 suspected drain · 1 counter reset");
        // The same burn with the engine running all along flags nothing.
        h.engine_conditions = Page::of(vec![EngineConditionRow::started_at(10 * DAY + 8 * 3600)]);
        let f = MachineFigures::compute(&h, &[], &hours[..2], window);
        assert_eq!(f.flags, Flags::default());
        assert_eq!(f.flags.describe(), "");
    }

    /// The overview asks for both over the same window: one pass must
    /// give what the two computed apart give, gaps only in the look-back.
    #[test]
    fn figures_and_look_back_from_one_pass_equal_those_computed_apart() {
        use fleetview_api::model::{FuelRemainingRow, HistoryPositionRow};
        let window = TimeWindow {
            since: 10 * DAY,
            until: 12 * DAY - 1,
        };
        let engine = vec![
            EngineConditionRow::started_at(10 * DAY + 8 * 3600),
            EngineConditionRow::stopped_at(10 * DAY + 16 * 3600),
            EngineConditionRow::started_at(11 * DAY + 8 * 3600),
            EngineConditionRow::stopped_at(11 * DAY + 16 * 3600),
        ];
        let mut h = history(vec![day(10, Some(8.0), Some(1.0))], engine);
        h.fuel_remainings = Page::of(
            [(8, 80.0), (16, 70.0), (32, 50.0), (40, 42.0)]
                .iter()
                .map(|&(hour, percent)| FuelRemainingRow {
                    percent,
                    date: Timestamp::from_secs(10 * DAY + hour * 3600),
                })
                .collect(),
        );
        // Every 10 minutes while it runs on day 10, silent on day 11.
        h.positions = Page::of(
            (0..48)
                .map(|i| HistoryPositionRow {
                    latitude: 45.0 + f64::from(i) * 1e-3,
                    longitude: 6.0,
                    date: Timestamp::from_secs(10 * DAY + 8 * 3600 + i64::from(i) * 600),
                })
                .collect(),
        );
        let hours = [
            (10 * DAY + 8 * 3600, 1000.0),
            (10 * DAY + 16 * 3600, 1008.0),
            (11 * DAY + 8 * 3600, 2.0),
        ];
        let mut faulty = fault(Some(2), "Critical");
        faulty.date = Timestamp::from_secs(10 * DAY + 12 * 3600);
        let faults = [faulty];
        let now = 11 * DAY + 20 * 3600;
        let (figures, look_back) =
            MachineFigures::compute_with_look_back(&h, &faults, &hours, window, now);
        assert_eq!(
            figures,
            MachineFigures::compute(&h, &faults, &hours, window)
        );
        assert_eq!(
            look_back,
            MachineFigures::compute_at(&h, &faults, &hours, window, now)
        );
        let kinds = |f: &MachineFigures| f.events.iter().map(|e| e.kind).collect::<Vec<_>>();
        assert!(
            kinds(&look_back).contains(&EventKind::Gap),
            "{:?}",
            kinds(&look_back)
        );
        assert!(!kinds(&figures).contains(&EventKind::Gap));
        for kind in [
            EventKind::FuelDrop,
            EventKind::CounterReset,
            EventKind::Fault,
        ] {
            assert!(
                kinds(&figures).contains(&kind),
                "{kind:?} in {:?}",
                kinds(&figures)
            );
        }
    }

    #[test]
    fn window_hours_sum_the_days_inside_and_idle_is_a_share_of_them() {
        let window = TimeWindow {
            since: 10 * DAY,
            until: 12 * DAY - 1,
        };
        let h = history(
            vec![
                day(9, Some(5.0), Some(1.0)),
                day(10, Some(6.0), Some(1.5)),
                day(11, Some(2.0), Some(0.5)),
                day(12, Some(8.0), Some(2.0)),
            ],
            Vec::new(),
        );
        let f = MachineFigures::compute(&h, &[], &[], window);
        assert_eq!(f.engine_hours_h, Some(8.0));
        assert_eq!(f.idle_hours_h, Some(2.0));
        assert_eq!(f.idle_percent(), Some(25.0));
        assert_eq!(f.feed, Some(FeedKind::Oem));
        assert_eq!(f.faults.count, 0);
    }

    #[test]
    fn missing_hours_are_no_figure_not_zero() {
        let window = TimeWindow {
            since: 0,
            until: 20 * DAY,
        };
        let f = MachineFigures::compute(
            &history(vec![day(3, None, None)], Vec::new()),
            &[],
            &[],
            window,
        );
        assert_eq!((f.engine_hours_h, f.idle_percent()), (None, None));
        let zero = MachineFigures::compute(
            &history(vec![day(3, Some(0.0), Some(0.0))], Vec::new()),
            &[],
            &[],
            window,
        );
        assert_eq!(zero.engine_hours_h, Some(0.0));
        assert_eq!(zero.idle_percent(), None, "no share of nothing");
    }

    #[test]
    fn the_worst_fault_is_the_highest_severity_and_unknown_ranks_lowest() {
        let t = FaultTally::of(&[
            fault(Some(-1), "unknown"),
            fault(Some(2), "Critical"),
            fault(Some(1), "Warning"),
        ]);
        assert_eq!(
            (t.count, t.worst_severity, t.worst_label.as_deref()),
            (3, Some(2), Some("Critical"))
        );
        let unknown = FaultTally::of(&[fault(None, "missing")]);
        assert_eq!(unknown.worst_label.as_deref(), Some("unknown"));
        assert!(t.rank() > unknown.rank());
        assert!(unknown.rank() > FaultTally::default().rank());
    }

    #[test]
    fn the_engine_state_is_its_last_event_in_the_window() {
        let window = TimeWindow {
            since: 0,
            until: 2 * DAY,
        };
        // The last engine event of the window, a start, is the engine now.
        let h = history(
            Vec::new(),
            vec![
                EngineConditionRow::started_at(100),
                EngineConditionRow::stopped_at(200),
                EngineConditionRow::started_at(300),
            ],
        );
        let f = MachineFigures::compute(&h, &[], &[], window);
        assert_eq!(f.engine, Some((EngineEvent::Started, 300)));
    }

    #[test]
    fn states_follow_the_last_report_and_the_engine() {
        let now = 100 * DAY + 10 * 3600;
        let started = Some((EngineEvent::Started, now - 600));
        assert_eq!(
            machine_state(Some(now - 600), started, true, now),
            MachineState::Running
        );
        assert_eq!(
            machine_state(Some(now - 600), started, false, now),
            MachineState::ReportedToday,
            "a window that ends before now says nothing of the engine now"
        );
        assert_eq!(
            machine_state(Some(now - 12 * 3600), None, true, now),
            MachineState::Recent
        );
        assert_eq!(
            machine_state(Some(now - DAY - 1), None, true, now),
            MachineState::Silent
        );
        assert_eq!(
            machine_state(Some(now - DAY), None, true, now),
            MachineState::Recent,
            "exactly 24 h is not more than 24 h"
        );
        assert_eq!(machine_state(None, None, true, now), MachineState::Unknown);
    }

    #[test]
    fn the_last_report_is_the_latest_member_date() {
        let s = EquipmentSnapshot {
            id: 1,
            last_position: Some(SnapPosition {
                date: Some(Timestamp::from_secs(500)),
                latitude: Some(1.0),
                longitude: Some(2.0),
            }),
            cumulative_idle_hours: Some(SnapHours {
                date: Some(Timestamp::from_secs(900)),
                hours: Some(3.0),
            }),
            ..EquipmentSnapshot::default()
        };
        assert_eq!(last_report(&s), Some(900));
        assert_eq!(last_report(&EquipmentSnapshot::default()), None);
    }

    /// Found by using the app just after midnight: every machine read
    /// "reported today" by its daily members, dated at today's 00:00.
    #[test]
    fn daily_members_are_no_report() {
        let s: EquipmentSnapshot = serde_json::from_value(serde_json::json!({
            "id": 1,
            "cumulativeIdleHours": {"date": "2026-11-23T13:18:00Z", "hours": 3.0},
            "peakDailySpeed": {"date": "2026-11-24T00:00:00Z", "speed": 0.0, "speedUnit": "km/h"},
        }))
        .expect("a snapshot");
        assert_eq!(
            last_report(&s)
                .map(fleetview_api::time::format_wire)
                .as_deref(),
            Some("2026-11-23T13:18:00Z")
        );
    }
}
