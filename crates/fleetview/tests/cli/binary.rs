//! The `fleetview` binary as the modules run it.

use std::path::Path;
use std::process::Command;

/// `fleetview <sub>` on the service at `base`, through the cache file
/// `cache`; the environment as the test's.
pub fn fleetview(sub: &str, base: &str, cache: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fleetview"));
    cmd.arg(sub)
        .arg("--base-url")
        .arg(base)
        .arg("--cache-file")
        .arg(cache);
    cmd
}

/// [`fleetview`] with nothing to sign in with from the environment,
/// logging warnings.
pub fn signed_out(sub: &str, base: &str, cache: &Path) -> Command {
    let mut cmd = fleetview(sub, base, cache);
    cmd.env_remove("FLEETVIEW_TOKEN")
        .env_remove("FLEETVIEW_API_KEY")
        .env_remove("FLEETVIEW_API_KEY_NAME")
        .env("RUST_LOG", "warn");
    cmd
}
