//! The desktop's conventions: the theme chosen (or the system's), and
//! where the app keeps its files, for the About window.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Light or dark: the system's preference (followed as it changes), or
/// one chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ThemeChoice {
    #[default]
    System,
    Light,
    Dark,
}

impl ThemeChoice {
    pub const ALL: [ThemeChoice; 3] = [ThemeChoice::System, ThemeChoice::Light, ThemeChoice::Dark];

    pub fn label(self) -> &'static str {
        match self {
            ThemeChoice::System => "As the system",
            ThemeChoice::Light => "Light",
            ThemeChoice::Dark => "Dark",
        }
    }
}

/// Where the sandbox keeps its integrations and signing key unless told:
/// the user's data folder (`None` on a system without one).
pub fn sandbox_data_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("fleetview").join("sandbox"))
}

/// What the desktop shell tells the model once at start-up, beside the
/// saved settings.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// The embedded sandbox's login, when the app started one.
    pub embedded: Option<super::connection::EmbeddedLogin>,
    /// Online map tiles over the offline basemap.
    pub online_tiles: bool,
    /// Where online map tiles are cached (`None`: not on disk).
    pub tile_cache_dir: Option<PathBuf>,
    /// Exports are saved here without asking.
    pub export_dir: Option<PathBuf>,
    /// Exports go here when no file dialog can open.
    pub fallback_export_dir: Option<PathBuf>,
    pub places: Places,
}

/// Where the app keeps its files (`None`: not kept, or no such folder on
/// this system).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Places {
    /// The folder of the settings file.
    pub settings: Option<PathBuf>,
    /// The cache file (SQLite).
    pub cache: Option<PathBuf>,
    /// The folder of the log files.
    pub logs: Option<PathBuf>,
    /// The service book (plans and services done, SQLite).
    pub service_book: Option<PathBuf>,
}
