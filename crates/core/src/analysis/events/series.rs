//! A machine's history as the detection reads it, built once for the
//! Fleet page's flags and the reports: its positions with a point, in time
//! order, and the series gaps are looked for in.

use super::checks::OPERATING_HOURS_COUNTER;
use super::types::RowTimes;
use fleetview_api::geo::LatLon;
use fleetview_api::model::EquipmentHistory;

/// The positions and the gap series' times of one history.
#[derive(Debug, Clone, Default)]
pub struct HistorySeries {
    /// (time, point) of the positions whose point is finite, sorted.
    pub positions: Vec<(i64, LatLon)>,
    position_times: Vec<i64>,
    fuel_times: Vec<i64>,
    hour_times: Vec<i64>,
}

impl HistorySeries {
    /// `operating_hours`: the counter's samples (time, hours), sorted.
    pub fn of(history: &EquipmentHistory, operating_hours: &[(i64, f64)]) -> Self {
        let mut positions: Vec<(i64, LatLon)> = history
            .positions
            .rows
            .iter()
            .filter(|p| p.latitude.is_finite() && p.longitude.is_finite())
            .map(|p| {
                let at = LatLon {
                    lat: p.latitude,
                    lon: p.longitude,
                };
                (p.date.0, at)
            })
            .collect();
        positions.sort_by_key(|p| p.0);
        Self {
            position_times: positions.iter().map(|p| p.0).collect(),
            positions,
            fuel_times: history
                .fuel_remainings
                .rows
                .iter()
                .map(|r| r.date.0)
                .collect(),
            hour_times: operating_hours.iter().map(|r| r.0).collect(),
        }
    }

    /// The series gaps are looked for in: the positions, the fuel level
    /// and the operating hours counter.
    pub fn gap_rows(&self) -> [RowTimes<'_>; 3] {
        [
            RowTimes {
                name: "positions",
                times: &self.position_times,
            },
            RowTimes {
                name: "fuel remaining",
                times: &self.fuel_times,
            },
            RowTimes {
                name: OPERATING_HOURS_COUNTER,
                times: &self.hour_times,
            },
        ]
    }
}
