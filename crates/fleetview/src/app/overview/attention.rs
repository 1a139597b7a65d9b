//! The Fleet page's "needs attention" strip: every machine's figures over
//! a look-back of its own (the last 30 days by default, whatever the
//! figures' window), read in the background through the worker and the
//! cache as the figures are, and what each machine needs attention for
//! (the core's definition) with the strip's counts.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::app::loadable::Loadable;
use fleetview_api::equipment::EquipmentSnapshot;
use fleetview_api::model::EquipmentSummary;
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_core::analysis::attention::DEFAULT_IDLE_THRESHOLD_PERCENT;
use fleetview_core::analysis::{
    Attention, AttentionInputs, AttentionKind, AttentionRank, FaultLevel, LastReport,
    MachineFigures, attention, machine_attention,
};
use fleetview_core::worker::{Command, Target};

/// The look-backs offered beside the strip, in days.
pub const LOOK_BACK_CHOICES_DAYS: [u16; 3] = [7, 30, 90];

/// How many machines' look-backs are read at once.
const LOOK_BACK_AT_ONCE: usize = 4;

/// The strip's settings, kept across restarts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AttentionSettings {
    /// The flags look back this many whole UTC days, today included.
    pub look_back_days: u16,
    /// Idle above this share of engine hours needs attention.
    pub idle_threshold_percent: u8,
}

impl Default for AttentionSettings {
    fn default() -> Self {
        Self {
            look_back_days: 30,
            idle_threshold_percent: DEFAULT_IDLE_THRESHOLD_PERCENT,
        }
    }
}

impl AttentionSettings {
    /// The look-back at `now`: whole UTC days, as the window presets are.
    pub fn window(&self, now: i64) -> TimeWindow {
        let today = now.div_euclid(SECS_PER_DAY);
        let days = i64::from(self.look_back_days.max(1));
        TimeWindow {
            since: (today - days + 1) * SECS_PER_DAY,
            until: (today + 1) * SECS_PER_DAY - 1,
        }
    }
}

/// What a count of the strip filters the table on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AttentionFilter {
    /// Machines whose worst fault is of this level (its label).
    Fault(String),
    /// Machines with any item of this kind (not `Fault`).
    Kind(AttentionKind),
}

impl AttentionFilter {
    pub fn matches(&self, items: &[Attention]) -> bool {
        match self {
            AttentionFilter::Fault(label) => worst_fault(items).is_some_and(|l| l.label == *label),
            AttentionFilter::Kind(k) => items.iter().any(|a| a.kind == *k),
        }
    }
}

/// The worst fault level among a machine's items.
pub fn worst_fault(items: &[Attention]) -> Option<&FaultLevel> {
    items
        .iter()
        .filter_map(|a| a.level.as_ref())
        .max_by_key(|l| l.rank())
}

/// One machine's attention: its items (worst kind first) and their rank.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MachineAttention {
    pub rank: AttentionRank,
    pub items: Vec<Attention>,
}

/// The look-back's reads and what they found.
#[derive(Debug, Default)]
pub struct LookBack {
    /// The period the flags are for.
    pub window: Option<TimeWindow>,
    pub figures: HashMap<i64, Loadable<MachineFigures>>,
    in_flight: HashSet<i64>,
    /// Machines read by the window's figures' task, the look-back being
    /// that very window: said by it, never read twice.
    riding: HashSet<i64>,
    /// Every machine was asked for (see `OverviewState::pump`).
    drained: bool,
    /// Each machine's attention, as of the rows last computed.
    pub machines: HashMap<i64, MachineAttention>,
    /// The strip's counts (machines), in its order: fault levels worst
    /// first, then the other kinds.
    pub counts: Vec<(AttentionFilter, usize)>,
}

impl LookBack {
    /// Another look-back: the last one's figures go and their reads stop.
    pub fn set_window(&mut self, window: TimeWindow) -> Vec<Command> {
        if self.window == Some(window) {
            return Vec::new();
        }
        self.window = Some(window);
        self.figures.clear();
        self.riding.clear();
        self.drained = false;
        self.in_flight
            .drain()
            .map(|id| Command::Cancel(Target::LookBack(id)))
            .collect()
    }

    /// Whether the machine's look-back is still to be asked for.
    pub fn wants(&self, id: i64) -> bool {
        match self.figures.get(&id) {
            None => true,
            Some(Loadable::Pending { .. }) => {
                !self.in_flight.contains(&id) && !self.riding.contains(&id)
            }
            Some(_) => false,
        }
    }

    /// The machine's look-back comes with its window's figures (read by
    /// that task).
    pub fn ride(&mut self, id: i64) {
        self.riding.insert(id);
        self.figures.entry(id).or_default().start();
    }

    /// The figures' task that was to bring the machine's look-back ended
    /// without it (stopped, or failed): it is read on its own.
    pub fn release(&mut self, id: i64) {
        if self.riding.remove(&id) {
            self.drained = false;
            if self.figures.get(&id).is_some_and(|f| f.value().is_none()) {
                self.figures.remove(&id);
            }
        }
    }

    /// More machines may be there to read (the fleet changed).
    pub fn wake(&mut self) {
        self.drained = false;
    }

    /// Machines whose look-back is still to come.
    pub fn loading(&self, fleet_len: usize) -> usize {
        let done = self
            .figures
            .values()
            .filter(|f| matches!(f, Loadable::Ready(_) | Loadable::Failed { .. }))
            .count();
        fleet_len.saturating_sub(done)
    }

    /// A machine's look-back came (`None`: not in the cache); whether it
    /// is for the look-back in use.
    pub fn on_figures(
        &mut self,
        equipment: i64,
        window: TimeWindow,
        figures: Option<MachineFigures>,
    ) -> bool {
        if self.window != Some(window) {
            return false;
        }
        self.in_flight.remove(&equipment);
        self.riding.remove(&equipment);
        let entry = self.figures.entry(equipment).or_default();
        match figures {
            Some(f) => *entry = Loadable::Ready(f),
            None => entry.fail("Not in the cache"),
        }
        true
    }

    /// A machine's look-back could not be read; out of reach, it is asked
    /// again (from the cache) at the next pump.
    pub fn on_failed(&mut self, equipment: i64, message: String, unreachable: bool) {
        self.in_flight.remove(&equipment);
        self.drained = false;
        if unreachable {
            if self
                .figures
                .get(&equipment)
                .is_some_and(|f| f.value().is_none())
            {
                self.figures.remove(&equipment);
            }
            return;
        }
        self.figures.entry(equipment).or_default().fail(message);
    }

    /// Reads every machine's look-back again, keeping what is shown.
    pub fn refresh(&mut self) -> Vec<Command> {
        self.drained = false;
        self.riding.clear();
        for f in self.figures.values_mut() {
            f.start();
        }
        self.in_flight
            .drain()
            .map(|id| Command::Cancel(Target::LookBack(id)))
            .collect()
    }

    /// The next machines to read, in `order` (those in view first), a few
    /// at a time.
    pub fn pump(
        &mut self,
        order: impl Iterator<Item = i64>,
        now: i64,
        offline: bool,
    ) -> Vec<Command> {
        let Some(window) = self.window else {
            return Vec::new();
        };
        let free = LOOK_BACK_AT_ONCE.saturating_sub(self.in_flight.len());
        if free == 0 || self.drained {
            return Vec::new();
        }
        let mut next: Vec<i64> = Vec::with_capacity(free);
        for id in order {
            if next.len() == free {
                break;
            }
            if self.wants(id) && !next.contains(&id) {
                next.push(id);
            }
        }
        self.drained = next.len() < free;
        next.into_iter()
            .map(|equipment| {
                self.in_flight.insert(equipment);
                self.figures.entry(equipment).or_default().start();
                Command::FetchLookBack {
                    equipment,
                    window,
                    now,
                    offline,
                }
            })
            .collect()
    }

    /// Each machine's attention and the strip's counts, again. `silence`:
    /// whether the snapshots say who is silent (not while they are read,
    /// nor from a service that has none).
    pub fn assess(
        &mut self,
        fleet: &[EquipmentSummary],
        snapshots: &HashMap<i64, EquipmentSnapshot>,
        settings: AttentionSettings,
        silence: bool,
        service: &HashMap<i64, Vec<Attention>>,
        now: i64,
    ) {
        let threshold = f64::from(settings.idle_threshold_percent);
        self.machines = fleet
            .iter()
            .map(|e| {
                let last_report = if silence {
                    LastReport::of(snapshots.get(&e.id))
                } else {
                    LastReport::Unknown
                };
                let items = match self.figures.get(&e.id).and_then(Loadable::value) {
                    Some(f) => machine_attention(f, last_report, threshold, now),
                    None => attention(&AttentionInputs {
                        last_report,
                        events: &[],
                        idle_percent: None,
                        idle_threshold_percent: threshold,
                        now,
                    }),
                };
                let mut items = items;
                if let Some(due) = service.get(&e.id) {
                    items.extend(due.iter().cloned());
                    items.sort_by_key(|a| a.kind);
                }
                let rank = AttentionRank::of(&items);
                (e.id, MachineAttention { rank, items })
            })
            .collect();
        self.counts = counts(self.machines.values());
    }

    /// A machine's attention items (none known: empty).
    pub fn items_of(&self, id: i64) -> &[Attention] {
        self.machines.get(&id).map_or(&[], |m| &m.items)
    }
}

/// The strip's counts: machines by their worst fault's level (worst
/// first, only the levels present), then machines with each other kind.
fn counts<'a>(
    machines: impl Iterator<Item = &'a MachineAttention> + Clone,
) -> Vec<(AttentionFilter, usize)> {
    let mut levels: HashMap<FaultLevel, usize> = HashMap::new();
    for m in machines.clone() {
        if let Some(l) = worst_fault(&m.items) {
            *levels.entry(l.clone()).or_default() += 1;
        }
    }
    let mut levels: Vec<(FaultLevel, usize)> = levels.into_iter().collect();
    levels.sort_by(|(a, _), (b, _)| b.rank().cmp(&a.rank()).then(a.label.cmp(&b.label)));
    let mut out: Vec<(AttentionFilter, usize)> = levels
        .into_iter()
        .map(|(l, n)| (AttentionFilter::Fault(l.label), n))
        .collect();
    for kind in AttentionKind::ALL {
        if kind == AttentionKind::Fault {
            continue;
        }
        let filter = AttentionFilter::Kind(kind);
        let n = machines
            .clone()
            .filter(|m| filter.matches(&m.items))
            .count();
        out.push((filter, n));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_core::analysis::{Event, EventDetail, EventKind};

    fn fault(severity: i64, label: &str) -> Event {
        Event {
            kind: EventKind::Fault,
            start: 10,
            end: None,
            position: None,
            detail: EventDetail::Fault {
                identifier: "x".into(),
                description: "y".into(),
                severity: Some(severity),
                level: label.into(),
            },
        }
    }

    #[test]
    fn the_look_back_is_whole_days_today_included() {
        let s = AttentionSettings::default();
        let now = 100 * SECS_PER_DAY + 3600;
        let w = s.window(now);
        assert_eq!(w.since, 71 * SECS_PER_DAY);
        assert_eq!(w.until, 101 * SECS_PER_DAY - 1);
    }

    #[test]
    fn machines_count_once_by_their_worst_fault_and_each_other_kind() {
        let fleet: Vec<EquipmentSummary> = (1..=3)
            .map(|id| EquipmentSummary {
                id,
                ..Default::default()
            })
            .collect();
        let mut lb = LookBack::default();
        let w = AttentionSettings::default().window(1000 * SECS_PER_DAY);
        lb.set_window(w);
        let figures = |events: Vec<Event>| MachineFigures {
            events,
            ..Default::default()
        };
        lb.on_figures(
            1,
            w,
            Some(figures(vec![fault(1, "Warning"), fault(2, "Critical")])),
        );
        lb.on_figures(2, w, Some(figures(vec![fault(1, "Warning")])));
        assert!(!lb.on_figures(3, TimeWindow { since: 0, until: 1 }, None));
        lb.assess(
            &fleet,
            &HashMap::new(),
            AttentionSettings::default(),
            true,
            &HashMap::new(),
            0,
        );
        let n = |lb: &LookBack, f: AttentionFilter| {
            lb.counts.iter().find(|(g, _)| *g == f).map(|c| c.1)
        };
        assert_eq!(lb.counts[0], (AttentionFilter::Fault("Critical".into()), 1));
        assert_eq!(lb.counts[1], (AttentionFilter::Fault("Warning".into()), 1));
        let silent = AttentionFilter::Kind(AttentionKind::Silent);
        assert_eq!(n(&lb, silent.clone()), Some(3), "no snapshots");
        assert_eq!(
            n(&lb, AttentionFilter::Kind(AttentionKind::FuelDrop)),
            Some(0)
        );
        lb.assess(
            &fleet,
            &HashMap::new(),
            AttentionSettings::default(),
            false,
            &HashMap::new(),
            0,
        );
        assert_eq!(n(&lb, silent), Some(0), "not known");
    }
}
