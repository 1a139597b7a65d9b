//! The man pages and completions the package installs, as `fleetview
//! assets` writes them: every subcommand `--help` lists is in them.

use std::process::Command;

/// The subcommands `fleetview --help` lists (but `help`).
fn subcommands() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_fleetview"))
        .arg("--help")
        .output()
        .expect("fleetview --help");
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).expect("utf-8");
    let listed: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect();
    assert!(listed.len() >= 3, "{help}");
    listed
}

#[test]
fn the_man_pages_and_completions_name_every_subcommand_and_the_exit_statuses() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = Command::new(env!("CARGO_BIN_EXE_fleetview"))
        .args(["assets", "--dir"])
        .arg(dir.path())
        .output()
        .expect("fleetview assets");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = |name: &str| {
        std::fs::read_to_string(dir.path().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let man = read("fleetview.1");
    assert!(
        man.starts_with(".ie") || man.contains(".TH fleetview 1"),
        "roff"
    );
    assert!(man.contains("Exit status:"), "the exit statuses: {man}");
    assert!(
        man.contains("\n.SH \"EXIT STATUS\"\n") && !man.contains(".SH EXTRA"),
        "under the heading man pages use: {man}"
    );
    let bash = read("fleetview.bash");
    let zsh = read("_fleetview");
    let fish = read("fleetview.fish");
    for (name, text) in [
        ("man", &man),
        ("bash", &bash),
        ("zsh", &zsh),
        ("fish", &fish),
    ] {
        assert!(
            !text.contains("assets"),
            "the hidden command is left out of {name}"
        );
    }
    for sub in subcommands() {
        assert!(
            man.contains(&format!("fleetview\\-{sub}(1)")),
            "{sub} in the man page"
        );
        let page = read(&format!("fleetview-{sub}.1"));
        assert!(
            page.contains(&format!(".TH fleetview-{sub} 1")),
            "{sub}'s page"
        );
        assert!(bash.contains(&format!("fleetview,{sub})")), "{sub} in bash");
        assert!(zsh.contains(&format!("'{sub}:")), "{sub} in zsh");
        assert!(fish.contains(&format!("-a \"{sub}\"")), "{sub} in fish");
    }
    let export = read("fleetview-export.1");
    for option in ["\\-\\-output", "\\-\\-offline", "Exit status:"] {
        assert!(export.contains(option), "{option} in fleetview-export.1");
    }
}
