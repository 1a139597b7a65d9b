//! How the app sits on the desktop: its application id, its window, where
//! its settings are kept, and its end when the system asks.

use std::path::{Path, PathBuf};

/// The application's id (reverse DNS, as AppStream and the desktop entry
/// specification ask): the window's app id (Wayland) and class (X11),
/// which desktops match to the installed `io.github.fleetview.Fleetview.desktop`
/// for its name and icon; the icon's and the metainfo's names too
/// (docs/decisions.md, "The application id").
pub const APP_ID: &str = "io.github.fleetview.Fleetview";

/// The name of the app's own folders (settings, cache, logs, data, the
/// keychain's service): kept from before the application id, so that
/// users' files stay where they are.
pub const FOLDER: &str = "fleetview";

/// The settings file's name, as eframe named it in its data folder.
const SETTINGS_FILE: &str = "app.ron";

/// The window icon: the 256 px rendering of `assets/icon/fleetview.svg`.
pub fn window_icon() -> egui::IconData {
    const PNG: &[u8] = include_bytes!("../../../../assets/icon/fleetview-256.png");
    // The bytes are the repository's own file, decoded in a test: a
    // failure here is a broken checkout, and the window opens without it.
    eframe::icon_data::from_png_bytes(PNG).unwrap_or_default()
}

/// How the desktop window opens: its title, first size, icon and app id,
/// and the settings file (`None`: eframe's own place, the data folder).
pub fn native_options(settings: Option<PathBuf>) -> eframe::NativeOptions {
    eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Fleetview")
            .with_app_id(APP_ID)
            .with_icon(window_icon())
            .with_inner_size([1400.0, 900.0]),
        // The app adds the system's fonts itself (`FleetApp::new`), so its
        // tests draw with them too.
        system_font_fallback: false,
        persistence_path: settings,
        ..Default::default()
    }
}

/// The settings file: `$XDG_CONFIG_HOME/fleetview/app.ron` on Linux
/// (settings are configuration; eframe keeps them in the data folder).
pub fn settings_file() -> Option<PathBuf> {
    dirs::config_dir().map(|d| settings_file_in(&d))
}

/// The settings file in a configuration folder.
pub fn settings_file_in(config_dir: &Path) -> PathBuf {
    config_dir.join(FOLDER).join(SETTINGS_FILE)
}

/// Where eframe kept the settings before (`$XDG_DATA_HOME/fleetview`).
pub fn old_settings_file() -> Option<PathBuf> {
    eframe::storage_dir(FOLDER).map(|d| d.join(SETTINGS_FILE))
}

/// Moves the settings from `old` to `new`, once: only while `new` does not
/// exist (a settings file there is never replaced). True if moved.
pub fn move_settings(old: &Path, new: &Path) -> std::io::Result<bool> {
    if old == new || new.exists() || !old.exists() {
        return Ok(false);
    }
    if let Some(dir) = new.parent() {
        std::fs::create_dir_all(dir)?;
    }
    match std::fs::rename(old, new) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::CrossesDevices => {
            // Another file system: copied whole under a temporary name,
            // renamed, and only then the old one removed.
            let part = new.with_extension("ron.part");
            std::fs::copy(old, &part)?;
            std::fs::rename(&part, new)?;
            std::fs::remove_file(old)?;
            Ok(true)
        }
        Err(e) => Err(e),
    }
}

/// Closes the window as its close button does (the settings saved) when the
/// system asks the app to end (SIGTERM at logout or shutdown, SIGHUP):
/// killed there, the last half minute's choices were lost.
pub fn close_on_terminate(ctx: &egui::Context) {
    #[cfg(unix)]
    {
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("fleetview-signals".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_io()
                    .build()
                {
                    Ok(r) => r,
                    Err(e) => return tracing::warn!("no signal handling: {e}"),
                };
                runtime.block_on(async {
                    use tokio::signal::unix::{SignalKind, signal};
                    let (Ok(mut term), Ok(mut hup)) = (
                        signal(SignalKind::terminate()),
                        signal(SignalKind::hangup()),
                    ) else {
                        return tracing::warn!("no signal handling");
                    };
                    tokio::select! {
                        _ = term.recv() => {}
                        _ = hup.recv() => {}
                    }
                    tracing::info!("asked to end: closing the window (settings saved)");
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                    ctx.request_repaint();
                });
            });
        if let Err(e) = spawned {
            tracing::warn!("no signal handling: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_are_in_the_configuration_folder() {
        let config = Path::new("/home/u/.config");
        assert_eq!(
            settings_file_in(config),
            PathBuf::from("/home/u/.config/fleetview/app.ron")
        );
    }

    #[test]
    fn the_old_settings_move_once_and_never_over_newer_ones() {
        let home = tempfile::tempdir().expect("tempdir");
        let old = home.path().join("data/fleetview/app.ron");
        let new = settings_file_in(&home.path().join("config"));
        std::fs::create_dir_all(old.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&old, "(settings: \"old\")").expect("write");

        assert!(
            move_settings(&old, &new).expect("moved"),
            "moved the first time"
        );
        assert_eq!(
            std::fs::read_to_string(&new).expect("read"),
            "(settings: \"old\")"
        );
        assert!(!old.exists(), "not left behind");

        // Another old file (an older version run since): the new one stays.
        std::fs::write(&old, "(settings: \"older\")").expect("write");
        std::fs::write(&new, "(settings: \"new\")").expect("write");
        assert!(!move_settings(&old, &new).expect("no error"));
        assert_eq!(
            std::fs::read_to_string(&new).expect("read"),
            "(settings: \"new\")"
        );
        assert!(old.exists(), "the old one is left alone");
    }

    #[test]
    fn nothing_to_move_is_no_error() {
        let home = tempfile::tempdir().expect("tempdir");
        let new = settings_file_in(home.path());
        assert!(!move_settings(&home.path().join("none.ron"), &new).expect("no error"));
        assert!(!new.exists());
    }
}
