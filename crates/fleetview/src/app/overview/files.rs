//! The overview as files: the table as shown (same columns, filters and
//! order) and the map's markers.

use super::OverviewState;
use super::rows::{Column, engine_hours, fuel_percent};
use fleetview_api::model::EquipmentSummary;
use fleetview_core::export::fleet::{FleetCell, FleetMarker, FleetTable};

impl OverviewState {
    /// The table as shown, with units in its headers.
    pub fn table_file(&self, fleet: &[EquipmentSummary]) -> FleetTable {
        let mut headers = Vec::new();
        for c in Column::ALL {
            headers.push(match c {
                Column::LastReport => "Last report (UTC)".to_owned(),
                Column::EngineHours => "Engine hours (h)".to_owned(),
                Column::WindowHours => "Hours in window (h)".to_owned(),
                Column::IdlePercent => "Idle in window (%)".to_owned(),
                Column::Fuel => "Fuel remaining (%)".to_owned(),
                other => other.label().to_owned(),
            });
            if c == Column::Faults {
                headers.push("Worst fault level".to_owned());
            }
        }
        let rows = self
            .rows()
            .iter()
            .filter_map(|r| {
                let e = fleet.get(r.index)?;
                let snapshot = self.snapshots.get(&r.id);
                let figures = self.figures_of(r.id).and_then(|f| f.value());
                let text = |s: &str| {
                    if s.is_empty() {
                        FleetCell::Empty
                    } else {
                        FleetCell::Text(s.to_owned())
                    }
                };
                let num = |x: Option<f64>| x.map_or(FleetCell::Empty, FleetCell::Number);
                let mut cells = Vec::with_capacity(headers.len());
                for c in Column::ALL {
                    cells.push(match c {
                        Column::Name => text(&e.name),
                        Column::Category => text(e.category.as_deref().unwrap_or("")),
                        Column::Make => text(&e.make),
                        Column::Model => text(&e.model),
                        Column::Serial => text(&e.serial_number),
                        Column::State => text(r.state.label()),
                        Column::LastReport => {
                            r.last_report.map_or(FleetCell::Empty, FleetCell::Time)
                        }
                        Column::EngineHours => num(engine_hours(snapshot)),
                        Column::WindowHours => num(figures.and_then(|f| f.engine_hours_h)),
                        Column::IdlePercent => num(figures.and_then(|f| f.idle_percent())),
                        Column::Fuel => num(fuel_percent(snapshot)),
                        Column::Faults => num(figures.map(|f| f.faults.count as f64)),
                        // Over the strip's look-back, as the table.
                        Column::Flags => text(
                            &self
                                .look_back
                                .items_of(r.id)
                                .iter()
                                .map(|a| a.text.as_str())
                                .collect::<Vec<_>>()
                                .join("; "),
                        ),
                        Column::Source => {
                            text(figures.and_then(|f| f.feed).map_or("", |k| k.label()))
                        }
                        Column::Service => {
                            text(self.service.get(&r.id).map_or("", |(_, s)| s.as_str()))
                        }
                    });
                    if c == Column::Faults {
                        cells.push(text(
                            figures
                                .and_then(|f| f.faults.worst_label.as_deref())
                                .unwrap_or(""),
                        ));
                    }
                }
                Some(cells)
            })
            .collect();
        FleetTable { headers, rows }
    }

    /// The machines shown that have a position, as map markers.
    pub fn markers_file(&self, fleet: &[EquipmentSummary]) -> Vec<FleetMarker> {
        self.rows()
            .iter()
            .filter_map(|r| {
                let e = fleet.get(r.index)?;
                let p = r.position?;
                let snapshot = self.snapshots.get(&r.id);
                let figures = self.figures_of(r.id).and_then(|f| f.value());
                Some(FleetMarker {
                    id: r.id,
                    name: e.name.clone(),
                    category: e.category.clone(),
                    make: e.make.clone(),
                    model: e.model.clone(),
                    state: r.state.label().to_owned(),
                    last_report: r.last_report,
                    fuel_percent: fuel_percent(snapshot),
                    engine_hours_h: engine_hours(snapshot),
                    faults_in_window: figures.map(|f| f.faults.count),
                    latitude: p.lat,
                    longitude: p.lon,
                })
            })
            .collect()
    }
}
