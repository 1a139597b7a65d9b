//! What every command-line job shares: the worker on the app's cache, and
//! where the document goes.

use std::io::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use fleetview_api::ClientConfig;
use fleetview_core::cache::{Cache, CacheError, DEFAULT_CAP_BYTES};
use fleetview_core::export::{Replace, write_file};
use fleetview_core::worker::{Worker, WorkerConfig, WorkerError};

/// Waits this long at most for the worker's answer.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(3600);

/// Starts the worker on the service, through the cache file (none for
/// `None`); with `offline`, the cache only. Cache warnings go to `note`.
pub fn start_worker<E>(
    client: &ClientConfig,
    cache_path: Option<&Path>,
    offline: bool,
    note: &mut impl FnMut(&str),
) -> Result<Worker, E>
where
    E: From<CacheError> + From<WorkerError>,
{
    let cache = match cache_path {
        Some(path) => {
            let (cache, warning) = Cache::open(path, DEFAULT_CAP_BYTES)?;
            if let Some(w) = warning {
                note(&w);
            }
            Some(Arc::new(cache))
        }
        None => None,
    };
    Ok(Worker::spawn(
        WorkerConfig {
            client: Some(client.clone()),
            cache,
            offline,
            save_dialog: None,
        },
        Arc::new(|| {}),
    )?)
}

/// Says what the cache has to tell (rows it dropped and read again, that
/// it cannot keep new data): its own trouble, not the service's.
pub fn note_cache_notices(worker: &Worker, note: &mut impl FnMut(&str)) {
    for notice in worker.cache_notices() {
        note(&notice.to_string());
    }
}

/// Writes the document to stdout, or to the file the user named (which
/// replaces one already there).
pub fn write_output(output: Option<&Path>, bytes: &[u8]) -> std::io::Result<()> {
    match output {
        None => std::io::stdout().lock().write_all(bytes),
        Some(path) => write_file(path, bytes, Replace::Allowed),
    }
}
