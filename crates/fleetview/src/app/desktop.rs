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
}
