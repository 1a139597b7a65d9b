//! One day's figures as the service gives them, read into the app's units:
//! what the window's figures, the daily charts and the cross-checks are
//! computed from. A file of its own so the figures and the event rules can
//! both read it without importing each other.

use fleetview_api::model::DailyUsageRow;
use fleetview_api::time::SECS_PER_DAY;
use fleetview_api::units::{kilograms, kilometres, litres};

/// One day's figures as the service gives them, in the app's units.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DayInput {
    /// Days since 1970-01-01 (UTC).
    pub day: i64,
    pub engine_hours_h: Option<f64>,
    pub working_hours_h: Option<f64>,
    pub idle_hours_h: Option<f64>,
    pub fuel_used_l: Option<f64>,
    pub fuel_estimated: bool,
    pub idle_fuel_l: Option<f64>,
    pub co2_kg: Option<f64>,
    pub co2_estimated: bool,
    pub distance_km: Option<f64>,
}

impl DayInput {
    /// A daily usage row read (values in units the app cannot read are
    /// left out).
    pub(crate) fn from_row(row: &DailyUsageRow) -> Self {
        let hours = |h: &Option<fleetview_api::model::Hours>| {
            h.as_ref().and_then(|h| h.hour).filter(|v| v.is_finite())
        };
        let fuel = row.fuel_used.as_ref();
        let co2 = row.co2.as_ref();
        Self {
            day: row.date.0.div_euclid(SECS_PER_DAY),
            engine_hours_h: hours(&row.operating_hours),
            working_hours_h: hours(&row.working_hours),
            idle_hours_h: hours(&row.idle_hours),
            fuel_used_l: fuel.and_then(|f| litres(f.fuel_used?, &f.unit)),
            fuel_estimated: fuel.and_then(|f| f.estimated) == Some(true),
            idle_fuel_l: None,
            co2_kg: co2.and_then(|c| kilograms(c.weight, &c.unit)),
            co2_estimated: co2.and_then(|c| c.estimated) == Some(true),
            distance_km: row
                .daily_distance
                .as_ref()
                .and_then(|d| kilometres(d.odometer?, &d.unit)),
        }
    }

    /// Working hours as given, else engine − idle hours (the service's
    /// days add up: working + idle = operating).
    pub(crate) fn working_or_derived(&self) -> Option<f64> {
        self.working_hours_h.or_else(|| {
            let (e, i) = (self.engine_hours_h?, self.idle_hours_h?);
            Some((e - i).max(0.0))
        })
    }
}
