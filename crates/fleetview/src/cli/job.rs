//! What every command-line job shares: the sign-in checked before the
//! cache is trusted, the worker on the app's cache, saying what is waited
//! for, and where the document goes.

use std::cell::Cell;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use fleetview_api::address::host_port;
use fleetview_api::{ApiClient, ApiError, ClientConfig};
use fleetview_core::cache::{Cache, CacheError, DEFAULT_CAP_BYTES};
use fleetview_core::export::{ExportError, FileError, Replace, write_file_with, write_stream};
use fleetview_core::worker::{Event, Worker, WorkerConfig, WorkerError};

/// Waits this long at most for the worker's answer.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(3600);
/// After this long with no news from the service, what is waited for is
/// said (a quick answer says nothing).
const WAITING_NOTE_AFTER: Duration = Duration::from_secs(3);

/// Before the cache is trusted, whether the service takes the key or token
/// (a login, or one small request), sent once. A refusal or any other
/// failure is the job's error; a service that cannot be reached is said, and the job then reads the
/// cache only (`offline`) rather than wait for it again. `--offline`, or
/// nothing to sign in with, asks nothing. With a key, the token it got is
/// used from then on (the job does not log in again). Returns why the
/// service could not be reached, when the job goes on offline for it (a
/// job the cache then cannot serve fails as unreachable, not as offline).
pub fn check_sign_in<E>(
    client: &mut ClientConfig,
    offline: &mut bool,
    note: &mut impl FnMut(&str),
) -> Result<Option<ApiError>, E>
where
    E: From<ApiError> + From<std::io::Error>,
{
    if *offline || (client.token.is_none() && client.api_key.is_none()) {
        return Ok(None);
    }
    let api = ApiClient::new(client.clone())?;
    let what = if client.token.is_none() {
        "logging in"
    } else {
        "checking the access token"
    };
    let address = host_port(&client.base_url);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let checked = runtime.block_on(async {
        let check = api.check_sign_in();
        tokio::pin!(check);
        tokio::select! {
            done = &mut check => done,
            () = tokio::time::sleep(WAITING_NOTE_AFTER) => {
                note(&format!("waiting for {address} ({what})…"));
                check.await
            }
        }
    });
    match checked {
        Ok(()) => {
            client.token = api.token();
            Ok(None)
        }
        Err(e) if e.is_unreachable() => {
            note(&format!("{e}: reading the cache only"));
            *offline = true;
            Ok(Some(e))
        }
        // Refused, or failed otherwise (a 5xx): the job fails with it
        // rather than send the login again.
        Err(e) => Err(e.into()),
    }
}

/// Says what a job waits for from the service, once, the first time it has
/// kept the job waiting a few seconds with no news while a request may be
/// out (not once all chunks are in: what is left is local work).
pub struct Waiting {
    /// `host:port` of the service; `None` offline (nothing is waited for).
    address: Option<String>,
    what: String,
    /// Said already, or nothing more is asked of the service.
    quiet: Cell<bool>,
}

impl Waiting {
    pub fn new(client: &ClientConfig, offline: bool, what: String) -> Self {
        Self {
            address: (!offline).then(|| host_port(&client.base_url)),
            what,
            quiet: Cell::new(false),
        }
    }

    /// Nothing more is waited for from the service (every chunk is in).
    pub fn all_in(&self) {
        self.quiet.set(true);
    }

    /// The worker's next event (`None`: none within [`ANSWER_TIMEOUT`]).
    pub fn recv(&self, worker: &Worker, note: &mut impl FnMut(&str)) -> Option<Event> {
        if let Some(address) = self.address.as_ref().filter(|_| !self.quiet.get()) {
            if let Some(event) = worker.recv_timeout(WAITING_NOTE_AFTER) {
                return Some(event);
            }
            note(&format!("waiting for {address} ({})…", self.what));
            self.quiet.set(true);
        }
        worker.recv_timeout(ANSWER_TIMEOUT)
    }
}

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
        Arc::new(|_| {}),
    )?)
}

/// Says what the cache has to tell (rows it dropped and read again, that
/// it cannot keep new data): its own trouble, not the service's.
pub fn note_cache_notices(worker: &Worker, note: &mut impl FnMut(&str)) {
    for notice in worker.cache_notices() {
        note(&notice.to_string());
    }
}

/// Writes the document to stdout (no file, or `-`), or to the file the
/// user named (which replaces one already there; a pipe or a device is
/// written into); an error names that path.
pub fn write_output(output: Option<&Path>, bytes: &[u8]) -> std::io::Result<()> {
    write_output_with(output, |out| Ok(out.write_all(bytes)?)).map_err(|e| match e {
        FileError::File(e) => e,
        // Bytes only fail to go out.
        FileError::Content(e) => std::io::Error::other(e),
    })
}

/// [`write_output`] of what `write` writes, streamed out as it comes.
pub fn write_output_with<T>(
    output: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> Result<T, ExportError>,
) -> Result<T, FileError> {
    match output {
        Some(path) if path != Path::new("-") => write_file_with(path, Replace::Allowed, write)
            .map_err(|e| match e {
                FileError::File(e) => FileError::File(std::io::Error::new(
                    e.kind(),
                    format!("{}: {e}", path.display()),
                )),
                content => content,
            }),
        _ => write_stream(std::io::stdout().lock(), write),
    }
}
