//! What the due rules read of a machine: its meters now (its snapshot, as
//! the service has it) and its daily usage (the days' hours and distance,
//! the meters at each day's end), in hours and kilometres.

use super::plan::{Day, PlanUnit};
use fleetview_api::equipment::EquipmentSnapshot;
use fleetview_api::model::DailyUsageRow;
use fleetview_api::units::kilometres;

/// One day of a machine's daily usage, as the due rules read it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct UsageDay {
    pub day: i64,
    /// Engine hours worked that day (`operatingHours.hour`).
    pub hours_h: Option<f64>,
    /// The hour meter at the day's end (`cumulativeOperatingHours.hour`).
    pub hour_meter_h: Option<f64>,
    /// Kilometres travelled that day (`dailyDistance`).
    pub distance_km: Option<f64>,
    /// The odometer at the day's end (`cumulativeDistance`).
    pub odometer_km: Option<f64>,
}

impl UsageDay {
    /// A daily usage row read (a value in a unit not understood is left
    /// out).
    pub fn from_row(row: &DailyUsageRow) -> Self {
        let finite = |v: Option<f64>| v.filter(|v| v.is_finite());
        Self {
            day: Day::of_secs(row.date.0).0,
            hours_h: finite(row.operating_hours.as_ref().and_then(|h| h.hour)),
            hour_meter_h: finite(row.cumulative_operating_hours.as_ref().and_then(|h| h.hour)),
            distance_km: row
                .daily_distance
                .as_ref()
                .and_then(|d| kilometres(d.odometer?, &d.unit)),
            odometer_km: row
                .cumulative_distance
                .as_ref()
                .and_then(|d| kilometres(d.odometer, &d.unit)),
        }
    }

    /// The day's use in `unit` (none for days).
    pub fn used(&self, unit: PlanUnit) -> Option<f64> {
        match unit {
            PlanUnit::Hours => self.hours_h,
            PlanUnit::Km => self.distance_km,
            PlanUnit::Days => None,
        }
    }

    /// The meter at the day's end in `unit` (none for days).
    pub fn meter(&self, unit: PlanUnit) -> Option<f64> {
        match unit {
            PlanUnit::Hours => self.hour_meter_h,
            PlanUnit::Km => self.odometer_km,
            PlanUnit::Days => None,
        }
    }
}

/// A machine's meters now, as its snapshot gives them.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MetersNow {
    /// `cumulativeOperatingHours.hour`.
    pub hours_h: Option<f64>,
    /// `cumulativeDistance.odometer`, in km.
    pub odometer_km: Option<f64>,
}

impl MetersNow {
    pub fn of(snapshot: &EquipmentSnapshot) -> Self {
        Self {
            hours_h: snapshot
                .cumulative_operating_hours
                .as_ref()
                .and_then(|h| h.hour)
                .filter(|v| v.is_finite()),
            odometer_km: snapshot.cumulative_distance.as_ref().and_then(|d| {
                let v = d.odometer.filter(|v| v.is_finite())?;
                // A reading with no unit is the service's own, km.
                match d.unit.as_deref() {
                    None => Some(v),
                    Some(u) => kilometres(v, u),
                }
            }),
        }
    }

    pub fn get(&self, unit: PlanUnit) -> Option<f64> {
        match unit {
            PlanUnit::Hours => self.hours_h,
            PlanUnit::Km => self.odometer_km,
            PlanUnit::Days => None,
        }
    }
}

/// What the due rules know of one machine.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MachineUsage {
    pub meters: MetersNow,
    /// Its daily usage, oldest first; empty when not read (the rules then
    /// say no forecast, and cannot see a reset).
    pub days: Vec<UsageDay>,
    /// Whether `days` were read (empty read days: the machine has no rows).
    pub days_read: bool,
}

impl MachineUsage {
    /// The daily usage rows read, sorted by day (one per day: the last).
    pub fn with_rows(meters: MetersNow, rows: &[DailyUsageRow]) -> Self {
        Self {
            meters,
            days: by_day(rows.iter().map(UsageDay::from_row).collect()),
            days_read: true,
        }
    }
}

/// Days sorted, one per day (the last row of a day kept), as the due
/// rules read them.
pub fn by_day(mut days: Vec<UsageDay>) -> Vec<UsageDay> {
    days.sort_by_key(|d| d.day);
    days.dedup_by(|later, earlier| {
        if later.day == earlier.day {
            *earlier = *later;
            true
        } else {
            false
        }
    });
    days
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_days_are_sorted_with_the_last_row_of_a_day_kept() {
        let day = |day: i64, h: f64| UsageDay {
            day,
            hour_meter_h: Some(h),
            ..UsageDay::default()
        };
        let days = by_day(vec![day(3, 30.0), day(1, 10.0), day(3, 31.0), day(2, 20.0)]);
        let got: Vec<(i64, Option<f64>)> = days.iter().map(|d| (d.day, d.hour_meter_h)).collect();
        assert_eq!(got, [(1, Some(10.0)), (2, Some(20.0)), (3, Some(31.0))]);
    }
}
