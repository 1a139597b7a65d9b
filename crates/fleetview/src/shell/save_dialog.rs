//! The system's own save dialog, which the worker awaits off the UI thread.

use std::path::PathBuf;

use fleetview_core::worker::{SaveAnswer, SaveDialog, SaveRequest};
use futures_util::future::BoxFuture;

/// The system's own save dialog (the desktop portal, else zenity), which
/// the worker awaits off the UI thread. rfd answers "nothing chosen" both
/// when the user cancels and when no dialog could open; the two are told
/// apart here, so an export with no dialog goes to a folder of its own
/// rather than nowhere.
#[derive(Debug)]
pub(super) struct NativeSaveDialog;

/// An answer sooner than this with no file is no dialog at all: nobody
/// cancels a dialog that fast.
const NO_DIALOG_WITHIN: std::time::Duration = std::time::Duration::from_millis(300);

impl SaveDialog for NativeSaveDialog {
    fn choose(&self, request: SaveRequest) -> BoxFuture<'static, SaveAnswer> {
        if let Some(why) = no_dialog_reason() {
            return Box::pin(async move { SaveAnswer::Unavailable(why) });
        }
        let dialog = rfd::AsyncFileDialog::new()
            .set_title(request.title)
            .set_file_name(request.file_name)
            .add_filter(request.extension.to_uppercase(), &[request.extension]);
        Box::pin(async move {
            let asked = std::time::Instant::now();
            match dialog.save_file().await {
                Some(file) => SaveAnswer::Chosen(file.path().to_path_buf()),
                None if asked.elapsed() < NO_DIALOG_WITHIN && !on_path("zenity") => {
                    SaveAnswer::Unavailable(
                        "the desktop portal opened no file chooser and zenity is not installed"
                            .to_owned(),
                    )
                }
                None => SaveAnswer::Cancelled,
            }
        })
    }
}

/// Why no save dialog can open on this system, if none can: on Linux rfd
/// asks the desktop portal over the session bus, else runs zenity.
#[cfg(all(unix, not(target_os = "macos")))]
fn no_dialog_reason() -> Option<String> {
    if on_path("zenity") {
        return None;
    }
    let runtime_bus = std::env::var_os("XDG_RUNTIME_DIR")
        .is_some_and(|d| std::path::Path::new(&d).join("bus").exists());
    let bus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some() || runtime_bus;
    match (bus, portal_installed()) {
        (true, true) => None,
        (true, false) => Some("no desktop portal is installed and zenity is not".to_owned()),
        (false, _) => Some(
            "no desktop session (for the file chooser portal) and zenity is not installed"
                .to_owned(),
        ),
    }
}

#[cfg(not(all(unix, not(target_os = "macos"))))]
fn no_dialog_reason() -> Option<String> {
    None
}

/// Whether the desktop portal's service is installed (D-Bus starts it
/// when asked).
#[cfg(all(unix, not(target_os = "macos")))]
fn portal_installed() -> bool {
    let home = dirs::data_dir();
    let system = std::env::var("XDG_DATA_DIRS")
        .ok()
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| "/usr/local/share:/usr/share".to_owned());
    home.into_iter()
        .chain(system.split(':').map(PathBuf::from))
        .any(|d| {
            d.join("dbus-1/services/org.freedesktop.portal.Desktop.service")
                .exists()
        })
}

/// Whether a program of that name is on the PATH.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()))
}
