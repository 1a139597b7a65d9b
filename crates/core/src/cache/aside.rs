//! Cache files moved aside as corrupt (`cache.corrupt-<seconds>`): kept for
//! a look, but only the newest (each can be as large as the cache).

use std::path::Path;

/// Deletes every `<stem>.corrupt-<seconds>` file beside `path` but the
/// newest, with their `-wal` and `-shm`. Failures are logged, never fatal.
pub(super) fn prune_corrupt(path: &Path) {
    let (Some(dir), Some(stem)) = (path.parent(), path.file_stem()) else {
        return;
    };
    let prefix = format!("{}.corrupt-", stem.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut aside: Vec<(u64, String)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let secs = name.strip_prefix(&prefix)?.parse::<u64>().ok()?;
            Some((secs, name))
        })
        .collect();
    aside.sort();
    aside.pop();
    for (_, name) in aside {
        for suffix in ["", "-wal", "-shm"] {
            let file = dir.join(format!("{name}{suffix}"));
            match std::fs::remove_file(&file) {
                Ok(()) => {
                    tracing::info!("an old corrupt cache file was deleted: {}", file.display())
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => tracing::warn!("could not delete {}: {e}", file.display()),
            }
        }
    }
}
