//! The man pages and shell completions, generated from the command line's
//! own definition so they never drift from it; the Debian package installs
//! them (`.ci/package` writes them with the hidden `fleetview assets`).

use std::path::{Path, PathBuf};

use clap_complete::Shell;

/// `fleetview assets`'s arguments.
#[derive(Debug, clap::Args)]
pub struct AssetsArgs {
    /// The folder written into (made if missing).
    #[arg(long)]
    pub dir: PathBuf,
}

/// Writes into `dir` a man page for `cmd` and one per subcommand
/// (`fleetview.1`, `fleetview-export.1`, ...), and the completions for
/// bash (`fleetview.bash`), zsh (`_fleetview`) and fish (`fleetview.fish`).
/// Returns the files written.
pub fn write_assets(cmd: clap::Command, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let name = cmd.get_name().to_owned();
    // The man pages leave hidden commands (this one) and options out.
    clap_mangen::generate_to(cmd.clone(), dir)?;
    let mut written = Vec::new();
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        written.push(clap_complete::generate_to(
            shell,
            &mut visible(&cmd),
            &name,
            dir,
        )?);
    }
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "1") {
            name_exit_status(&path)?;
            written.push(path);
        }
    }
    written.sort();
    Ok(written)
}

/// clap_mangen puts the help's closing text (the exit statuses) under
/// "EXTRA": man pages call that section EXIT STATUS.
fn name_exit_status(page: &Path) -> std::io::Result<()> {
    let roff = std::fs::read_to_string(page)?;
    let named = roff.replace("\n.SH EXTRA\n", "\n.SH \"EXIT STATUS\"\n");
    if named != roff {
        std::fs::write(page, named)?;
    }
    Ok(())
}

/// `cmd` without what its help hides, for the completions (which would
/// offer it): its visible options and subcommands, and clap's `--help`
/// rather than a `help` subcommand that would list the hidden ones.
fn visible(cmd: &clap::Command) -> clap::Command {
    let mut out = clap::Command::new(cmd.get_name().to_owned()).disable_help_subcommand(true);
    if let Some(about) = cmd.get_about() {
        out = out.about(about.clone());
    }
    if let Some(version) = cmd.get_version() {
        out = out.version(version.to_owned());
    }
    for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
        out = out.arg(arg.clone());
    }
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        out = out.subcommand(visible(sub));
    }
    out
}
