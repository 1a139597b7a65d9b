//! What panels ask for. Panels return actions; the app applies them after
//! drawing, so no panel mutates another's state.

use super::state::{Preset, Profile, Tab};
use super::timeline::{MapSettings, Replay};
use crate::api::DataKind;
use crate::api::model::{CreateIntegration, SecretValue, UpdateIntegration};

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    SelectEquipment(i64),
    SetPreset(Preset),
    /// A custom window of whole UTC days (days since 1970-01-01), inclusive.
    SetCustomDays {
        first_day: i64,
        last_day: i64,
    },
    SetTab(Tab),
    /// Fetch the selected equipment's data again.
    Refresh,
    /// Write what a panel shows to a file (the worker asks where).
    Export(crate::export::shown::ExportContent),
    /// Offline: try the service now rather than at the next retry.
    RetryNow,
    /// Discover the fleet again.
    ReloadFleet,
    DismissNotification(u64),
    /// Connect to the embedded sandbox.
    UseEmbedded,
    /// Connect to a saved profile, keeping `token` if one was typed.
    UseProfile {
        index: usize,
        token: Option<SecretValue>,
    },
    /// Add (`index: None`) or change a profile.
    SaveProfile {
        index: Option<usize>,
        profile: Profile,
    },
    DeleteProfile(usize),
    /// Try a profile's address with one authenticated request.
    TestProfile {
        profile: Profile,
        token: Option<SecretValue>,
    },
    LoadCatalog,
    SelectIntegration(i64),
    CreateIntegration(CreateIntegration),
    UpdateIntegration {
        id: i64,
        body: UpdateIntegration,
    },
    DeleteIntegration(i64),
    SetIntegrationActive {
        id: i64,
        active: bool,
    },
    /// Use a new access token for the current service.
    UseToken(SecretValue),
    SetLocalTime(bool),
    /// Plot a data kind, or stop plotting it.
    SetPlotKind {
        kind: DataKind,
        on: bool,
    },
    /// The pointer is over this time in a plot.
    HoverTime(Option<i64>),
    /// Move the cursor to a time and bring it into view (plots and map).
    SeekTo(i64),
    /// Highlight an activity (by row) on the map and seek to its start.
    SelectActivity(Option<usize>),
    SetReplay(Replay),
    SetMapSettings(MapSettings),
}
