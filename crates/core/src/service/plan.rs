//! Service plans as the manager writes them: a task, an interval in engine
//! hours, kilometres or days, for one machine or a category, and the last
//! time it was done; and the services recorded as done since.

use std::fmt;

use fleetview_api::time::{civil_from_days, days_from_civil};

/// What a plan's interval is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlanUnit {
    /// Engine hours, on the hour meter (`cumulativeOperatingHours`).
    Hours,
    /// Kilometres, on the odometer (`cumulativeDistance`).
    Km,
    /// Calendar days.
    Days,
}

impl PlanUnit {
    pub const ALL: [PlanUnit; 3] = [PlanUnit::Hours, PlanUnit::Km, PlanUnit::Days];

    /// As written in the CSV and the JSON: `h`, `km`, `days`.
    pub fn key(self) -> &'static str {
        match self {
            PlanUnit::Hours => "h",
            PlanUnit::Km => "km",
            PlanUnit::Days => "days",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|u| u.key() == key.trim())
    }

    /// What the app calls it.
    pub fn label(self) -> &'static str {
        match self {
            PlanUnit::Hours => "engine hours",
            PlanUnit::Km => "kilometres",
            PlanUnit::Days => "days",
        }
    }

    /// Read on a meter (hours, km), not on the calendar.
    pub fn is_meter(self) -> bool {
        self != PlanUnit::Days
    }
}

/// What a plan applies to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlanScope {
    /// One machine, by its equipment id.
    Machine(i64),
    /// Every machine of a category, named as the service writes it.
    Category(String),
}

impl PlanScope {
    /// As written in the CSV's `scope`: the id, or the category's name.
    pub fn key(&self) -> String {
        match self {
            PlanScope::Machine(id) => id.to_string(),
            PlanScope::Category(c) => c.clone(),
        }
    }
}

/// A day: days since 1970-01-01 (UTC), written `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Day(pub i64);

impl Day {
    /// The UTC day of an instant.
    pub fn of_secs(secs: i64) -> Self {
        Day(secs.div_euclid(fleetview_api::time::SECS_PER_DAY))
    }

    /// Exactly `YYYY-MM-DD`, a real date.
    pub fn parse(s: &str) -> Option<Self> {
        let b = s.trim().as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let digits = |r: std::ops::Range<usize>| -> Option<i64> {
            let part = &b[r];
            part.iter()
                .all(u8::is_ascii_digit)
                .then(|| std::str::from_utf8(part).ok()?.parse().ok())?
        };
        let (y, m, d) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
        if !(1..=12).contains(&m) || d < 1 {
            return None;
        }
        let day = days_from_civil(y, m as u32, d as u32);
        // 2026-02-30 is no date: it must come back as written.
        (civil_from_days(day) == (y, m as u32, d as u32)).then_some(Day(day))
    }

    pub fn plus_days(self, n: i64) -> Self {
        Day(self.0 + n)
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = civil_from_days(self.0);
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// When a service was last done: the day and, for a meter plan, the
/// meter's reading then.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LastDone {
    pub day: Day,
    pub meter: Option<f64>,
}

impl LastDone {
    /// The later of two: by day, then by meter reading.
    pub fn later(a: Option<LastDone>, b: Option<LastDone>) -> Option<LastDone> {
        match (a, b) {
            (Some(a), Some(b)) => {
                let key = |l: &LastDone| (l.day, l.meter.unwrap_or(f64::NEG_INFINITY));
                Some(
                    if key(&b).partial_cmp(&key(&a)) == Some(std::cmp::Ordering::Greater) {
                        b
                    } else {
                        a
                    },
                )
            }
            (a, b) => a.or(b),
        }
    }
}

/// A plan's identity in the service book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlanId(pub i64);

/// A service plan.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub scope: PlanScope,
    /// Free text ("Engine oil and filter"); two plans name the same task
    /// when their names match, ignoring case and surrounding spaces.
    pub task: String,
    /// A positive interval, in `unit`.
    pub every: f64,
    pub unit: PlanUnit,
    /// As the plan was written (a category's plan may have none).
    pub last_done: Option<LastDone>,
}

impl Plan {
    /// Whether it is the same task as `task`.
    pub fn is_task(&self, task: &str) -> bool {
        same_task(&self.task, task)
    }
}

/// Task names compared as people read them.
pub fn same_task(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// A plan kept in the service book.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredPlan {
    pub id: PlanId,
    pub plan: Plan,
}

/// A service recorded as done on one machine (*Mark done*, or imported).
#[derive(Debug, Clone, PartialEq)]
pub struct DoneRecord {
    pub equipment: i64,
    pub task: String,
    pub unit: PlanUnit,
    pub done: LastDone,
    /// When it was recorded (UTC seconds).
    pub recorded_at: i64,
}

/// What the service book holds for one service (the one signed in to:
/// equipment ids are the service's own).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServiceBook {
    pub plans: Vec<StoredPlan>,
    /// Oldest first.
    pub done: Vec<DoneRecord>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_read_and_write_as_dates() {
        let d = Day::parse("2026-03-01").unwrap();
        assert_eq!(d.to_string(), "2026-03-01");
        assert_eq!(Day::parse("2026-02-28").unwrap().plus_days(1), d);
        for bad in [
            "2026-02-30",
            "2026-13-01",
            "26-03-01",
            "2026/03/01",
            "",
            "2026-3-1x",
        ] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn units_and_tasks_read_as_written() {
        assert_eq!(PlanUnit::from_key("km"), Some(PlanUnit::Km));
        assert_eq!(PlanUnit::from_key("hours"), None);
        assert!(same_task(" Engine oil ", "engine OIL"));
        assert!(!same_task("Engine oil", "Engine oil filter"));
    }

    #[test]
    fn the_later_done_wins() {
        let a = LastDone {
            day: Day(10),
            meter: Some(5.0),
        };
        let b = LastDone {
            day: Day(12),
            meter: None,
        };
        assert_eq!(LastDone::later(Some(a), Some(b)), Some(b));
        assert_eq!(LastDone::later(Some(b), Some(a)), Some(b));
        assert_eq!(LastDone::later(None, Some(a)), Some(a));
    }
}
