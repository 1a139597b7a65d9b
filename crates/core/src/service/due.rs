//! When each service is due: the rules, pure (the caller gives today).
//!
//! - A machine's plans are its own and its category's; its own plan for a
//!   task overrides its category's for the same task.
//! - Its last done is the later of the plan's own and the services
//!   recorded as done on it for that task.
//! - Meter plans: worked since last done counts across meter resets (a
//!   day whose end reading is below the one before is a reset: that
//!   day's own use counts); remaining = every − worked, next due = meter
//!   now + remaining (with no reset, last done + every).
//! - Days plans: due on last done + every (rounded to a whole day).
//! - Status: `overdue` below zero remaining, `due_soon` within the
//!   threshold (a share of the interval), else `ok`; `unknown` never done,
//!   or with no meter reading.
//! - Forecast: today + remaining ÷ the mean use per day over the 30 full
//!   days before today; none when the machine did not work then.

use super::plan::{Day, DoneRecord, LastDone, Plan, PlanScope, PlanUnit, StoredPlan};
use super::usage::{MachineUsage, UsageDay};

/// Due soon within this share of the interval, by default.
pub const DEFAULT_SOON_FRACTION: f64 = 0.10;
/// The forecast's pace: the mean over this many full days before today.
pub const FORECAST_DAYS: i64 = 30;

/// How a service stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DueStatus {
    Overdue,
    DueSoon,
    Unknown,
    Ok,
}

impl DueStatus {
    /// As the JSON writes it.
    pub fn key(self) -> &'static str {
        match self {
            DueStatus::Ok => "ok",
            DueStatus::DueSoon => "due_soon",
            DueStatus::Overdue => "overdue",
            DueStatus::Unknown => "unknown",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            DueStatus::Ok => "OK",
            DueStatus::DueSoon => "Due soon",
            DueStatus::Overdue => "Overdue",
            DueStatus::Unknown => "Unknown",
        }
    }

    /// Needs attention: overdue or due soon.
    pub fn is_due(self) -> bool {
        matches!(self, DueStatus::Overdue | DueStatus::DueSoon)
    }
}

/// Why a meter plan has no forecast date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forecast {
    /// On this day, at the machine's pace (in the past when overdue).
    On(Day),
    /// It did not work over the last 30 days.
    NotWorked,
    /// Its daily usage is not read (yet), or it has none.
    NoUsage,
    /// Never done, or no meter reading: nothing to count from.
    NoBase,
    /// A days plan: its due day is the date.
    Calendar,
}

impl Forecast {
    pub fn day(self) -> Option<Day> {
        match self {
            Forecast::On(d) => Some(d),
            _ => None,
        }
    }

    /// Why there is no date, in words (none when there is one).
    pub fn why_none(self) -> Option<&'static str> {
        match self {
            Forecast::NotWorked => Some("no use in the last 30 days"),
            Forecast::NoUsage => Some("daily usage not read"),
            Forecast::NoBase => Some("nothing to count from"),
            Forecast::On(_) | Forecast::Calendar => None,
        }
    }
}

/// One machine's plan, and where it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct DueItem {
    pub equipment: i64,
    pub plan: StoredPlan,
    /// The plan is its category's (no plan of its own for the task).
    pub from_category: bool,
    pub last_done: Option<LastDone>,
    /// The meter now (meter plans).
    pub meter_now: Option<f64>,
    pub next_due_meter: Option<f64>,
    /// In the plan's unit; negative when overdue.
    pub remaining: Option<f64>,
    /// The due day of a days plan.
    pub due_day: Option<Day>,
    pub forecast: Forecast,
    /// Meter resets seen since last done.
    pub resets: usize,
    pub status: DueStatus,
}

impl DueItem {
    /// The day it falls due: a days plan's, a meter plan's forecast.
    pub fn when(&self) -> Option<Day> {
        self.due_day.or(self.forecast.day())
    }

    /// Due within `days` of today, or overdue.
    pub fn within(&self, today: Day, days: i64) -> bool {
        self.status == DueStatus::Overdue || self.when().is_some_and(|d| d.0 <= today.0 + days)
    }
}

/// The plans that apply to a machine: its own, and its category's for the
/// tasks it has no plan of its own for.
pub fn plans_for<'a>(
    equipment: i64,
    category: Option<&str>,
    plans: &'a [StoredPlan],
) -> Vec<(&'a StoredPlan, bool)> {
    let own: Vec<&StoredPlan> = plans
        .iter()
        .filter(|p| p.plan.scope == PlanScope::Machine(equipment))
        .collect();
    let mut out: Vec<(&StoredPlan, bool)> = own.iter().map(|p| (*p, false)).collect();
    if let Some(category) = category.map(str::trim) {
        out.extend(
            plans
                .iter()
                .filter(|p| matches!(&p.plan.scope, PlanScope::Category(c) if c.trim() == category))
                .filter(|p| !own.iter().any(|o| o.plan.is_task(&p.plan.task)))
                .map(|p| (p, true)),
        );
    }
    out
}

/// The last time the task was done on the machine: the plan's own, or a
/// later service recorded.
pub fn last_done_for(equipment: i64, plan: &Plan, done: &[DoneRecord]) -> Option<LastDone> {
    done.iter()
        .filter(|r| r.equipment == equipment && plan.is_task(&r.task) && r.unit == plan.unit)
        .fold(plan.last_done, |best, r| {
            LastDone::later(best, Some(r.done))
        })
}

/// The first day of a machine's daily usage the due rules read: the
/// earliest last done of its meter plans, or the forecast's days before
/// today if earlier; none without a meter plan (days plans read no usage).
pub fn usage_from(
    equipment: i64,
    category: Option<&str>,
    plans: &[StoredPlan],
    done: &[DoneRecord],
    today: Day,
) -> Option<Day> {
    let meter: Vec<_> = plans_for(equipment, category, plans)
        .into_iter()
        .filter(|(p, _)| p.plan.unit.is_meter())
        .collect();
    if meter.is_empty() {
        return None;
    }
    let since = meter
        .iter()
        .filter_map(|(p, _)| last_done_for(equipment, &p.plan, done))
        .map(|l| l.day)
        .fold(today.plus_days(-FORECAST_DAYS), Day::min);
    Some(since)
}

/// Every plan of the machine, and where each stands.
pub fn machine_due(
    equipment: i64,
    category: Option<&str>,
    plans: &[StoredPlan],
    done: &[DoneRecord],
    usage: &MachineUsage,
    today: Day,
    soon_fraction: f64,
) -> Vec<DueItem> {
    plans_for(equipment, category, plans)
        .into_iter()
        .map(|(p, from_category)| {
            let last_done = last_done_for(equipment, &p.plan, done);
            let mut item = due(&p.plan, last_done, usage, today, soon_fraction);
            item.equipment = equipment;
            item.plan = p.clone();
            item.from_category = from_category;
            item
        })
        .collect()
}

/// Where one plan stands on a machine, done last at `last_done`.
pub fn due(
    plan: &Plan,
    last_done: Option<LastDone>,
    usage: &MachineUsage,
    today: Day,
    soon_fraction: f64,
) -> DueItem {
    let mut item = DueItem {
        equipment: 0,
        plan: StoredPlan {
            id: super::plan::PlanId(0),
            plan: plan.clone(),
        },
        from_category: false,
        last_done,
        meter_now: usage.meters.get(plan.unit),
        next_due_meter: None,
        remaining: None,
        due_day: None,
        forecast: Forecast::NoBase,
        resets: 0,
        status: DueStatus::Unknown,
    };
    let Some(last) = last_done else {
        if plan.unit == PlanUnit::Days {
            item.forecast = Forecast::Calendar;
        }
        return item;
    };
    if plan.unit == PlanUnit::Days {
        let due_day = last.day.plus_days(plan.every.round() as i64);
        item.due_day = Some(due_day);
        item.forecast = Forecast::Calendar;
        item.remaining = Some((due_day.0 - today.0) as f64);
    } else {
        let (Some(now), Some(from)) = (item.meter_now, last.meter) else {
            return item;
        };
        let Some(worked) = worked_since(plan.unit, from, last.day, &usage.days, now) else {
            return item;
        };
        let remaining = plan.every - worked.amount;
        item.resets = worked.resets;
        item.remaining = Some(remaining);
        item.next_due_meter = Some(now + remaining);
        item.forecast = forecast(plan.unit, remaining, usage, today);
    }
    item.status = status(item.remaining, plan.every, soon_fraction);
    item
}

fn status(remaining: Option<f64>, every: f64, soon_fraction: f64) -> DueStatus {
    match remaining {
        None => DueStatus::Unknown,
        Some(r) if r < 0.0 => DueStatus::Overdue,
        Some(r) if r <= every * soon_fraction => DueStatus::DueSoon,
        Some(_) => DueStatus::Ok,
    }
}

/// Use counted on a meter since a service.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Worked {
    pub amount: f64,
    pub resets: usize,
}

/// What the meter counted since it read `from` on `since` (the days' end
/// readings from that day on, then `now`). A reading below the one before
/// is a reset: that day's own use counts (or, unknown, the reading itself,
/// a meter started again from zero). `None`: the meter is below `from`
/// and no day read says how (a reset the daily usage, not read, would
/// show).
pub fn worked_since(
    unit: PlanUnit,
    from: f64,
    since: Day,
    days: &[UsageDay],
    now: f64,
) -> Option<Worked> {
    let mut prev = from;
    let mut out = Worked {
        amount: 0.0,
        resets: 0,
    };
    // One reading after `prev`: what it adds; false if it cannot be told.
    let step = |prev: &mut f64, reading: f64, used: Option<f64>, out: &mut Worked| -> bool {
        if reading >= *prev {
            out.amount += reading - *prev;
        } else {
            let Some(used) = used.or((reading >= 0.0).then_some(reading)) else {
                return false;
            };
            out.resets += 1;
            out.amount += used.max(0.0);
        }
        *prev = reading;
        true
    };
    let mut any_day = false;
    for d in days.iter().filter(|d| d.day >= since.0) {
        if let Some(reading) = d.meter(unit) {
            // A day's end on the service's own day below the reading
            // written down: the service was done at most there (a reading
            // mistyped or rounded up), not before a reset.
            if d.day == since.0 && reading < prev {
                prev = reading;
                continue;
            }
            any_day = true;
            if !step(&mut prev, reading, d.used(unit), &mut out) {
                return None;
            }
        }
    }
    if now < prev && !any_day {
        return None;
    }
    step(&mut prev, now, None, &mut out).then_some(out)
}

/// The day `remaining` runs out at the machine's mean pace over the 30
/// full days before today.
fn forecast(unit: PlanUnit, remaining: f64, usage: &MachineUsage, today: Day) -> Forecast {
    let Some(per_day) = mean_per_day(unit, &usage.days, today) else {
        return Forecast::NoUsage;
    };
    if per_day <= 0.0 {
        return Forecast::NotWorked;
    }
    let days = remaining / per_day;
    // Due within today counts as today; overdue, the day it was passed.
    let offset = if days >= 0.0 {
        days.ceil()
    } else {
        days.floor()
    };
    Forecast::On(today.plus_days(offset as i64))
}

/// Mean use per day over the 30 full days before `today` (days with no
/// row count as no use); `None` when no day of them has a row.
pub fn mean_per_day(unit: PlanUnit, days: &[UsageDay], today: Day) -> Option<f64> {
    let first = today.0 - FORECAST_DAYS;
    let mut seen = false;
    let mut sum = 0.0;
    for d in days.iter().filter(|d| (first..today.0).contains(&d.day)) {
        seen = true;
        sum += d.used(unit).unwrap_or(0.0).max(0.0);
    }
    seen.then_some(sum / FORECAST_DAYS as f64)
}

/// Whether the meter went down (was reset) on a day from `since` on.
pub fn reset_since(unit: PlanUnit, since: Day, days: &[UsageDay]) -> bool {
    let readings: Vec<f64> = days
        .iter()
        .filter(|d| d.day >= since.0)
        .filter_map(|d| d.meter(unit))
        .collect();
    readings.windows(2).any(|w| w[1] < w[0])
}
