//! What the desktop package is made of: the window icon, the desktop entry
//! and the icon files the Debian package installs (built and installed for
//! real by `.ci/run`; these catch a broken piece before that step).

use std::path::Path;

use fleetview::shell::{APP_ID, native_options, window_icon};

/// The workspace's root, where `assets/` is.
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Width and height from a PNG's header (its IHDR chunk).
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..8)? != b"\x89PNG\r\n\x1a\n" || bytes.get(12..16)? != b"IHDR" {
        return None;
    }
    let word = |at: usize| Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    Some((word(16)?, word(20)?))
}

#[test]
fn the_window_has_the_icon_and_the_desktop_entrys_app_id() {
    let icon = window_icon();
    assert_eq!((icon.width, icon.height), (256, 256));
    assert_eq!(icon.rgba.len(), 256 * 256 * 4);
    // Drawn, not blank: opaque in the middle, see-through in a corner.
    let alpha = |x: usize, y: usize| icon.rgba[(y * 256 + x) * 4 + 3];
    assert_eq!(alpha(128, 128), 255);
    assert_eq!(alpha(0, 0), 0);

    let viewport = native_options(None).viewport;
    assert_eq!(viewport.app_id.as_deref(), Some(APP_ID));
    assert_eq!(viewport.icon.as_deref(), Some(&icon));
}

#[test]
fn the_desktop_entry_starts_fleetview_with_its_icon() {
    let text = std::fs::read_to_string(root().join(format!("assets/desktop/{APP_ID}.desktop")))
        .expect("the desktop entry");
    let value = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
            .unwrap_or_else(|| panic!("{key} missing"))
    };
    assert_eq!(text.lines().next(), Some("[Desktop Entry]"));
    assert_eq!(value("Type"), "Application");
    assert_eq!(value("Exec"), "fleetview");
    assert_eq!(value("Icon"), APP_ID);
    assert_eq!(value("Name"), "Fleetview");
    // The window's class on X11 (winit's name for Linux: egui-winit gives
    // it the app id), and its app id on Wayland.
    assert_eq!(value("StartupWMClass"), APP_ID);
    assert_eq!(value("Terminal"), "false");
}

#[test]
fn every_icon_png_is_the_size_its_name_and_install_path_say() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .expect("the package's Cargo.toml");
    let mut sizes = Vec::new();
    for entry in std::fs::read_dir(root().join("assets/icon")).expect("assets/icon") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let Some(size) = name
            .strip_prefix("fleetview-")
            .and_then(|n| n.strip_suffix(".png"))
        else {
            continue;
        };
        let size: u32 = size.parse().expect("a size in the name");
        let bytes = std::fs::read(&path).expect("the png");
        assert_eq!(png_size(&bytes), Some((size, size)), "{name}");
        // The package installs it in the hicolor folder of its size.
        let asset = format!(
            "[\"../../assets/icon/{name}\", \"usr/share/icons/hicolor/{size}x{size}/apps/{APP_ID}.png\", \"644\"]"
        );
        assert!(
            manifest.contains(&asset),
            "{name} is not packaged as {asset}"
        );
        sizes.push(size);
    }
    sizes.sort_unstable();
    // The sizes desktops look for, and the window icon's.
    for wanted in [16, 32, 48, 64, 128, 256] {
        assert!(sizes.contains(&wanted), "no {wanted} px icon: {sizes:?}");
    }
    assert!(manifest.contains(&format!(
        "\"usr/share/icons/hicolor/scalable/apps/{APP_ID}.svg\""
    )));
}

#[test]
fn the_metainfo_names_the_app_its_desktop_entry_and_its_binary() {
    let text =
        std::fs::read_to_string(root().join(format!("assets/desktop/{APP_ID}.metainfo.xml")))
            .expect("the metainfo");
    assert!(text.contains(&format!("<id>{APP_ID}</id>")));
    assert!(text.contains(&format!(
        "<launchable type=\"desktop-id\">{APP_ID}.desktop</launchable>"
    )));
    assert!(text.contains("<binary>fleetview</binary>"));
    assert!(text.contains(&format!(
        "<release version=\"{}\"",
        env!("CARGO_PKG_VERSION")
    )));
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .expect("the package's Cargo.toml");
    assert!(manifest.contains(&format!(
        "[\"../../assets/desktop/{APP_ID}.metainfo.xml\", \"usr/share/metainfo/\", \"644\"]"
    )));
    // Every screenshot it shows is one of the repository's.
    for url in text.split("<image>").skip(1) {
        let url = url.split("</image>").next().unwrap_or_default();
        let file = url.rsplit('/').next().unwrap_or_default();
        assert!(
            root().join("docs/screenshots").join(file).is_file(),
            "{url} is not in docs/screenshots"
        );
    }
}
