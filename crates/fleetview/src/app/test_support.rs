//! With the `test-support` feature only: direct access to the features.

use super::catalog::CatalogState;
use super::figures::FiguresState;
use super::fleet::FleetState;
use super::machine::MachineView;
use super::overview::OverviewState;
use super::state::AppState;
use super::timeline::TimelineState;

/// Direct access to the features, for tests that set up states no short
/// run of actions and events reaches (odd rows, a failed plot). The app
/// itself changes them through actions and worker events only.
impl AppState {
    pub fn machine_mut(&mut self) -> &mut MachineView {
        &mut self.machine
    }

    pub fn timeline_mut(&mut self) -> &mut TimelineState {
        &mut self.timeline
    }

    pub fn figures_mut(&mut self) -> &mut FiguresState {
        &mut self.figures
    }

    pub fn fleet_mut(&mut self) -> &mut FleetState {
        &mut self.fleet
    }

    pub fn overview_mut(&mut self) -> &mut OverviewState {
        &mut self.overview
    }

    pub fn catalog_mut(&mut self) -> &mut CatalogState {
        &mut self.catalog
    }

    /// The overview's rows made again from the fleet as it is.
    pub fn refresh_overview_rows(&mut self, now: i64) {
        self.overview.refresh_rows(&self.fleet.equipments, now);
    }
}
