//! Reading the model: one method per feature or fact the views, the shell
//! and the command line read. The fields stay private to `app/`.

use std::collections::HashMap;

use super::catalog::CatalogState;
use super::connection::{Connection, ConnectionState, Offline, Profile};
use super::exports::Exports;
use super::figures::FiguresState;
use super::fleet::FleetState;
use super::loadable::Loadable;
use super::machine::MachineView;
use super::notifications::Notification;
use super::overview::OverviewState;
use super::settings::Tab;
use super::state::AppState;
use super::timeline::{MapSettings, TimelineState};
use fleetview_api::model::{ActivityRow, EquipmentHistory, FaultRow};
use fleetview_api::time::TimeWindow;
use fleetview_core::worker::{Progress, Target};

impl AppState {
    // The features, read-only: they change through actions and worker
    // events only.

    pub fn conn(&self) -> &ConnectionState {
        &self.conn
    }

    pub fn machine(&self) -> &MachineView {
        &self.machine
    }

    pub fn figures(&self) -> &FiguresState {
        &self.figures
    }

    pub fn overview(&self) -> &OverviewState {
        &self.overview
    }

    pub fn tab(&self) -> Tab {
        self.tab
    }

    pub fn machine_tab(&self) -> Tab {
        self.machine_tab
    }

    /// The zone times are shown in, as chosen.
    pub fn times_in(&self) -> super::TimesIn {
        self.times_in
    }

    /// Whether times are shown in this computer's zone (not UTC, not the
    /// machines'): what views that show no machine's times read.
    pub fn local_time(&self) -> bool {
        self.times_in == super::TimesIn::Computer
    }

    pub fn map(&self) -> &MapSettings {
        &self.map
    }

    pub fn tile_cache_dir(&self) -> Option<&std::path::PathBuf> {
        self.tile_cache_dir.as_ref()
    }

    /// Fetches under way and how far they have come.
    pub fn progress(&self) -> &HashMap<Target, Progress> {
        &self.progress
    }

    pub fn exports(&self) -> &Exports {
        &self.exports
    }

    /// The panes' sizes, as shares of their room.
    pub fn panes(&self) -> super::settings::PaneShares {
        self.panes
    }

    pub fn theme(&self) -> super::desktop::ThemeChoice {
        self.theme
    }

    pub fn units(&self) -> fleetview_core::analysis::UnitSystem {
        self.units
    }

    pub fn places(&self) -> &super::desktop::Places {
        &self.places
    }

    pub fn connection(&self) -> &Connection {
        &self.conn.current
    }

    pub fn offline(&self) -> Option<&Offline> {
        self.conn.offline.as_ref()
    }

    /// Why the service is out of reach, in words (`None`: online).
    pub fn offline_problem(&self) -> Option<super::errors::Problem> {
        self.conn.offline_problem()
    }

    pub fn profiles(&self) -> &[Profile] {
        &self.conn.profiles
    }

    pub fn test_result(&self) -> Option<&Result<String, super::errors::Problem>> {
        self.conn.test_result.as_ref()
    }

    pub fn notifications(&self) -> &[Notification] {
        self.notifications.list()
    }

    /// Every notice shown this session, oldest first.
    pub fn notification_history(&self) -> &std::collections::VecDeque<Notification> {
        self.notifications.history()
    }

    pub fn fleet(&self) -> &FleetState {
        &self.fleet
    }

    pub fn timeline(&self) -> &TimelineState {
        &self.timeline
    }

    pub fn catalog(&self) -> &CatalogState {
        &self.catalog
    }

    pub fn service(&self) -> &crate::app::service::ServiceState {
        &self.service
    }

    pub fn selected(&self) -> Option<i64> {
        self.machine.selected
    }

    /// The window of the data shown (as sent to the service).
    pub fn window(&self) -> Option<TimeWindow> {
        self.machine.window
    }

    pub fn faults(&self) -> &Loadable<Vec<FaultRow>> {
        &self.machine.faults
    }

    pub fn activities(&self) -> &Loadable<std::sync::Arc<Vec<ActivityRow>>> {
        &self.machine.activities
    }

    pub fn history(&self) -> &Loadable<std::sync::Arc<EquipmentHistory>> {
        &self.machine.history
    }

    /// The window the preset gives now.
    pub fn selected_window(&self) -> TimeWindow {
        self.machine.selected_window(self.now())
    }

    /// The window shown, else the one selected.
    pub fn shown_or_selected_window(&self) -> TimeWindow {
        self.machine
            .window
            .unwrap_or_else(|| self.selected_window())
    }

    pub fn title(&self) -> String {
        self.conn.title()
    }

    /// Fetches under way, named for the user, with how far each has come.
    pub fn fetches(&self) -> Vec<(String, Progress)> {
        let mut out: Vec<(String, Progress)> = self
            .progress
            .iter()
            .map(|(target, p)| {
                let what = match target {
                    Target::Faults => "faults".to_owned(),
                    Target::Activities => "activities".to_owned(),
                    Target::Series(s) => s.name().to_owned(),
                    Target::History => "daily history".to_owned(),
                    Target::Plot(k) => format!("plot: {}", k.display_name()),
                    Target::Track => "positions".to_owned(),
                    Target::Report => "daily idle fuel".to_owned(),
                    Target::ServiceUsage(id) => format!(
                        "daily usage for service plans ({})",
                        self.fleet.known_name(*id).unwrap_or("a machine")
                    ),
                    other => format!("{other:?}").to_lowercase(),
                };
                (what, *p)
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}
