//! The composite operations: an equipment's history and an equipment of
//! the deprecated fleet history, assembled from the other row families.

use super::rows::{Flow, Val};
use crate::simulate::machine::Machine;
use crate::simulate::simulator::Simulator;
use fleetview_api::DataKind;
use fleetview_api::model::*;
use fleetview_api::time::TimeWindow;

impl Simulator {
    // Only the tests build whole answers this way; the server streams them.
    #[cfg(test)]
    pub(crate) fn history(&self, m: &Machine, w: TimeWindow) -> EquipmentHistory {
        let positions = self
            .positions(m, w)
            .into_iter()
            .map(|p| HistoryPositionRow {
                latitude: p.latitude,
                longitude: p.longitude,
                date: p.date,
            })
            .collect();
        let faults = self
            .faults(m, w)
            .into_iter()
            .map(|f| HistoryFaultRow {
                level_label: f.level_label,
                severity: f.severity,
                identifier: f.identifier,
                description: f.description,
                date: f.date,
            })
            .collect();
        EquipmentHistory {
            id: m.id,
            name: m.name.clone(),
            make: m.model.make.to_owned(),
            model: m.model.model.to_owned(),
            serial_number: m.serial_number.clone(),
            pin: m.pin.clone(),
            vin: m.vin.clone(),
            positions: Page::of(positions),
            fault_codes: Page::of(faults),
            fuel_remainings: Page::of(self.fuel_remainings(m, w)),
            engine_conditions: Page::of(self.engine_conditions(m, w)),
            daily_usages: Page::of(self.daily_usages(m, w)),
        }
    }

    /// One equipment of the deprecated fleet history: the same data as
    /// `/history`, less `levelLabel`, `fuelUsed.estimated`, `co2`, PIN and VIN.
    #[cfg(test)]
    pub(crate) fn fleet_equipment(&self, m: &Machine, w: TimeWindow) -> FleetEquipment {
        let h = self.history(m, w);
        FleetEquipment {
            id: h.id,
            name: h.name,
            make: h.make,
            model: h.model,
            serial_number: h.serial_number,
            positions: h.positions,
            fault_codes: Page::of(
                h.fault_codes
                    .rows
                    .into_iter()
                    .map(|f| FleetFaultRow {
                        severity: f.severity,
                        identifier: f.identifier,
                        description: f.description,
                        date: f.date,
                    })
                    .collect(),
            ),
            fuel_remainings: h.fuel_remainings,
            engine_conditions: h.engine_conditions,
            daily_usages: Page::of(h.daily_usages.rows.into_iter().map(Into::into).collect()),
        }
    }

    #[cfg(test)]
    fn fuel_remainings(&self, m: &Machine, w: TimeWindow) -> Vec<FuelRemainingRow> {
        let mut rows = Vec::new();
        let _ = self.try_for_each_fuel_remaining(m, w, |r| {
            rows.push(r);
            Flow::Continue(())
        });
        rows
    }

    #[cfg(test)]
    fn engine_conditions(&self, m: &Machine, w: TimeWindow) -> Vec<EngineConditionRow> {
        let mut rows = Vec::new();
        let _ = self.try_for_each_engine_condition(m, w, |r| {
            rows.push(r);
            Flow::Continue(())
        });
        rows
    }

    /// The history's fuel levels, handed to `emit` as they are made.
    pub(crate) fn try_for_each_fuel_remaining(
        &self,
        m: &Machine,
        w: TimeWindow,
        mut emit: impl FnMut(FuelRemainingRow) -> Flow,
    ) -> Flow {
        self.try_for_each_value_row(m, DataKind::FuelRemaining, w, |r| match r.get("percent") {
            Some(Val::F(percent)) => emit(FuelRemainingRow {
                percent,
                date: Timestamp::from_secs(r.date),
            }),
            _ => Flow::Continue(()),
        })
    }

    /// The history's engine starts and stops, handed to `emit` as they are made.
    pub(crate) fn try_for_each_engine_condition(
        &self,
        m: &Machine,
        w: TimeWindow,
        mut emit: impl FnMut(EngineConditionRow) -> Flow,
    ) -> Flow {
        self.try_for_each_value_row(m, DataKind::EngineCondition, w, |r| {
            match r.get("running") {
                Some(Val::B(running)) => emit(EngineConditionRow::new(
                    EngineEvent::from_running_flag(running),
                    Timestamp::from_secs(r.date),
                )),
                _ => Flow::Continue(()),
            }
        })
    }
}
