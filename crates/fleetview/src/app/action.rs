//! What panels ask for. Panels return actions; the app applies them after
//! drawing, so no panel mutates another's state. Each feature owns its
//! actions; this enum only routes them.

use super::catalog::CatalogAction;
use super::connection::ConnectionAction;
use super::desktop::ThemeChoice;
use super::exports::ReportAsk;
use super::figures::FiguresAction;
use super::machine::MachineAction;
use super::overview::OverviewAction;
use super::service::ServiceAction;
use super::settings::{PaneShares, Tab};
use super::timeline::{MapSettings, TimelineAction};
use fleetview_core::export::shown::ExportContent;

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Machine(MachineAction),
    Timeline(TimelineAction),
    Connection(ConnectionAction),
    Catalog(CatalogAction),
    Overview(OverviewAction),
    Figures(FiguresAction),
    Service(ServiceAction),
    /// Discover the fleet again.
    ReloadFleet,
    /// Write what a panel shows to a file (the worker asks where).
    Export(ExportContent),
    /// Write a report of the fleet or the machine open (the worker asks
    /// where, reads and writes).
    Report(ReportAsk),
    DismissNotification(u64),
    /// Forget the notices shown so far.
    ClearNotificationHistory,
    SetTab(Tab),
    /// Show times in UTC, this computer's zone or each machine's.
    SetTimesIn(super::settings::TimesIn),
    SetMapSettings(MapSettings),
    /// The panes were resized (by a drag).
    SetPaneShares(PaneShares),
    SetTheme(ThemeChoice),
    SetUnits(fleetview_core::analysis::UnitSystem),
    /// Show a folder in the system's file manager (the shell opens it:
    /// the model does no I/O).
    OpenFolder(std::path::PathBuf),
}

impl From<MachineAction> for Action {
    fn from(a: MachineAction) -> Self {
        Action::Machine(a)
    }
}

impl From<TimelineAction> for Action {
    fn from(a: TimelineAction) -> Self {
        Action::Timeline(a)
    }
}

impl From<ConnectionAction> for Action {
    fn from(a: ConnectionAction) -> Self {
        Action::Connection(a)
    }
}

impl From<OverviewAction> for Action {
    fn from(a: OverviewAction) -> Self {
        Action::Overview(a)
    }
}

impl From<FiguresAction> for Action {
    fn from(a: FiguresAction) -> Self {
        Action::Figures(a)
    }
}

impl From<CatalogAction> for Action {
    fn from(a: CatalogAction) -> Self {
        Action::Catalog(a)
    }
}

impl From<ServiceAction> for Action {
    fn from(a: ServiceAction) -> Self {
        Action::Service(a)
    }
}
