//! Plans and services done read from CSV, each row checked; one bad row
//! refuses the whole file (`line N: reason`, the header being line 1).
//!
//! Plans: `scope,task,every,unit,last_done_date,last_done_meter`.
//! Services done: `equipment,task,unit,date,meter`.

use std::collections::HashMap;

use super::plan::{Day, DoneRecord, LastDone, Plan, PlanScope, PlanUnit};
use super::usage::MetersNow;

pub const PLAN_HEADER: [&str; 6] = [
    "scope",
    "task",
    "every",
    "unit",
    "last_done_date",
    "last_done_meter",
];
pub const DONE_HEADER: [&str; 5] = ["equipment", "task", "unit", "date", "meter"];

/// A row refused, and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct ImportError {
    pub line: u64,
    pub reason: String,
}

fn refuse<T>(line: u64, reason: impl Into<String>) -> Result<T, ImportError> {
    Err(ImportError {
        line,
        reason: reason.into(),
    })
}

/// What a file holds: plans, or services done (told by its header).
#[derive(Debug, Clone, PartialEq)]
pub enum Imported {
    Plans(Vec<(u64, Plan)>),
    Done(Vec<(u64, DoneRecord)>),
}

/// What rows are checked against: the fleet as the service lists it.
pub struct FleetCheck<'a> {
    /// Each machine's category (`None`: it has none).
    pub machines: &'a HashMap<i64, Option<String>>,
    /// Each machine's meters now.
    pub meters: &'a HashMap<i64, MetersNow>,
    /// Whether the machine's meter in that unit was reset from that day
    /// on (a reading above the meter now is then fine).
    pub reset_since: &'a dyn Fn(i64, PlanUnit, Day) -> bool,
    pub today: Day,
}

impl std::fmt::Debug for FleetCheck<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FleetCheck")
            .field("machines", &self.machines.len())
            .field("today", &self.today)
            .finish_non_exhaustive()
    }
}

/// Reads a file of plans or of services done; `recorded_at` dates the
/// services done read.
pub fn read_csv(bytes: &[u8], recorded_at: i64) -> Result<Imported, ImportError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(bytes);
    let header: Vec<String> = match reader.headers() {
        Ok(h) => h
            .iter()
            .map(|c| c.trim_start_matches('\u{feff}').to_owned())
            .collect(),
        Err(e) => return refuse(1, format!("not CSV: {e}")),
    };
    let is_done = header.iter().any(|h| h == "equipment");
    let wanted: &[&'static str] = if is_done { &DONE_HEADER } else { &PLAN_HEADER };
    let mut column: HashMap<&'static str, usize> = HashMap::new();
    for name in wanted {
        match header.iter().position(|h| h == name) {
            Some(i) => column.insert(*name, i),
            None => {
                return refuse(
                    1,
                    format!(
                        "missing column {name} (the header must be {})",
                        wanted.join(",")
                    ),
                );
            }
        };
    }
    let mut plans = Vec::new();
    let mut done = Vec::new();
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                return refuse(line, format!("not CSV: {e}"));
            }
        };
        let line = record.position().map_or(0, |p| p.line());
        if record.iter().all(str::is_empty) {
            continue;
        }
        let cells = Cells {
            record: &record,
            column: &column,
        };
        if is_done {
            done.push((line, done_row(line, &cells, recorded_at)?));
        } else {
            plans.push((line, plan_row(line, &cells)?));
        }
    }
    Ok(if is_done {
        Imported::Done(done)
    } else {
        Imported::Plans(plans)
    })
}

/// One row's cells, by column name.
struct Cells<'a> {
    record: &'a csv::StringRecord,
    column: &'a HashMap<&'static str, usize>,
}

impl Cells<'_> {
    fn get(&self, name: &str) -> &str {
        self.column
            .get(name)
            .and_then(|i| self.record.get(*i))
            .unwrap_or("")
    }
}

fn unit_of(line: u64, s: &str) -> Result<PlanUnit, ImportError> {
    PlanUnit::from_key(s).map_or_else(
        || refuse(line, format!("unknown unit {s:?} (h, km or days)")),
        Ok,
    )
}

fn task_of(line: u64, s: &str) -> Result<String, ImportError> {
    if s.is_empty() {
        return refuse(line, "no task named");
    }
    Ok(s.to_owned())
}

fn day_of(line: u64, what: &str, s: &str) -> Result<Day, ImportError> {
    Day::parse(s).map_or_else(
        || refuse(line, format!("{what} {s:?} is not a date (YYYY-MM-DD)")),
        Ok,
    )
}

fn meter_of(line: u64, s: &str) -> Result<f64, ImportError> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => refuse(
            line,
            format!("meter reading {s:?} is not a number of 0 or more"),
        ),
    }
}

fn plan_row(line: u64, cells: &Cells<'_>) -> Result<Plan, ImportError> {
    let scope = match cells.get("scope") {
        "" => return refuse(line, "no scope (an equipment id or a category)"),
        s => match s.parse::<i64>() {
            Ok(id) => PlanScope::Machine(id),
            Err(_) => PlanScope::Category(s.to_owned()),
        },
    };
    let task = task_of(line, cells.get("task"))?;
    let unit = unit_of(line, cells.get("unit"))?;
    let every = match cells.get("every").parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => v,
        _ => {
            return refuse(
                line,
                format!("interval {:?} is not a positive number", cells.get("every")),
            );
        }
    };
    let (date, meter) = (cells.get("last_done_date"), cells.get("last_done_meter"));
    let last_done = match (date, meter) {
        ("", "") => {
            if matches!(scope, PlanScope::Machine(_)) {
                return refuse(
                    line,
                    "a machine's plan needs last_done_date (when it was last done)",
                );
            }
            None
        }
        ("", _) => return refuse(line, "last_done_meter without last_done_date"),
        (d, m) => {
            let day = day_of(line, "last_done_date", d)?;
            let meter = match (unit, m) {
                (PlanUnit::Days, "") => None,
                (PlanUnit::Days, _) => return refuse(line, "a days plan has no last_done_meter"),
                (_, "") => return refuse(line, "last_done_meter is needed for an h or km plan"),
                (_, m) => Some(meter_of(line, m)?),
            };
            Some(LastDone { day, meter })
        }
    };
    Ok(Plan {
        scope,
        task,
        every,
        unit,
        last_done,
    })
}

fn done_row(line: u64, cells: &Cells<'_>, recorded_at: i64) -> Result<DoneRecord, ImportError> {
    let equipment = match cells.get("equipment").parse::<i64>() {
        Ok(id) => id,
        Err(_) => {
            return refuse(
                line,
                format!("equipment {:?} is not an id", cells.get("equipment")),
            );
        }
    };
    let task = task_of(line, cells.get("task"))?;
    let unit = unit_of(line, cells.get("unit"))?;
    let day = day_of(line, "date", cells.get("date"))?;
    let meter = match (unit, cells.get("meter")) {
        (PlanUnit::Days, "") => None,
        (PlanUnit::Days, _) => return refuse(line, "a days service has no meter reading"),
        (_, "") => return refuse(line, "a meter reading is needed for an h or km service"),
        (_, m) => Some(meter_of(line, m)?),
    };
    Ok(DoneRecord {
        equipment,
        task,
        unit,
        done: LastDone { day, meter },
        recorded_at,
    })
}

/// Checks what was read against the fleet: known machines and
/// categories, no date after today, no reading above the meter now
/// unless the meter was reset since.
pub fn check(imported: &Imported, fleet: &FleetCheck<'_>) -> Result<(), ImportError> {
    match imported {
        Imported::Plans(rows) => {
            for (line, p) in rows {
                let equipment = match &p.scope {
                    PlanScope::Machine(id) => Some(*id),
                    PlanScope::Category(c) => {
                        let known = fleet
                            .machines
                            .values()
                            .flatten()
                            .any(|k| k.trim() == c.trim());
                        if !known {
                            return refuse(
                                *line,
                                format!("no machine of the fleet is of category {c:?}"),
                            );
                        }
                        None
                    }
                };
                check_done(*line, equipment, p.unit, p.last_done, fleet)?;
            }
        }
        Imported::Done(rows) => {
            for (line, r) in rows {
                check_done(*line, Some(r.equipment), r.unit, Some(r.done), fleet)?;
            }
        }
    }
    Ok(())
}

/// A last done on a machine (or a category: `None`), checked.
pub fn check_done(
    line: u64,
    equipment: Option<i64>,
    unit: PlanUnit,
    done: Option<LastDone>,
    fleet: &FleetCheck<'_>,
) -> Result<(), ImportError> {
    if let Some(id) = equipment
        && !fleet.machines.contains_key(&id)
    {
        return refuse(line, format!("equipment {id} is not in the fleet"));
    }
    let Some(done) = done else { return Ok(()) };
    if done.day > fleet.today {
        return refuse(
            line,
            format!("{} is in the future (today is {})", done.day, fleet.today),
        );
    }
    if let (Some(id), Some(reading)) = (equipment, done.meter) {
        let now = fleet.meters.get(&id).and_then(|m| m.get(unit));
        if let Some(now) = now
            && reading > now
            && !(fleet.reset_since)(id, unit, done.day)
        {
            return refuse(
                line,
                format!(
                    "meter reading {reading} is above the meter now ({now} {}) with no reset since {}",
                    unit.key(),
                    done.day
                ),
            );
        }
    }
    Ok(())
}
