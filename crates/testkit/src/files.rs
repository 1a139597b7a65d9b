//! Files made hard to use, for tests of what the app does then.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Makes a file read-only for as long as it lives: by its mode, or (as
/// root, whom modes do not stop) by the file system's immutable flag,
/// taken off again on drop.
#[derive(Debug)]
pub struct ReadOnly {
    path: PathBuf,
    flagged: bool,
}

impl ReadOnly {
    /// `None` where neither stops a write (root on a file system without
    /// the flag).
    pub fn make(path: &Path) -> Option<Self> {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o444)).expect("chmod");
        let writable = || std::fs::OpenOptions::new().append(true).open(path).is_ok();
        if !writable() {
            return Some(Self {
                path: path.to_owned(),
                flagged: false,
            });
        }
        let flagged = Command::new("chattr")
            .arg("+i")
            .arg(path)
            .status()
            .is_ok_and(|s| s.success());
        (!writable()).then(|| Self {
            path: path.to_owned(),
            flagged,
        })
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if self.flagged {
            let _ = Command::new("chattr").arg("-i").arg(&self.path).status();
        }
    }
}
