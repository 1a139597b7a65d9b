//! What the cache has to tell the user: rows it could not read and
//! dropped, and that it cannot keep what is read (a read-only or full
//! folder). Queued here, taken by whoever shows them.

use std::sync::{Arc, Mutex};

/// Something the cache tells, in plain words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheNotice {
    /// Stored rows that could not be read were dropped, to be read again
    /// from the service. The windows dropped before it was taken make one.
    Repaired {
        /// How many windows were dropped.
        windows: usize,
        /// The first of them: the kind, the machine and the window.
        what: String,
        /// Why it could not be read (technical).
        error: String,
    },
    /// The file was found damaged after it was opened: it was moved
    /// aside and a new one started (what it held is read again).
    Rebuilt {
        /// Where the damaged file now is.
        aside: String,
        /// What the check found (technical).
        error: String,
    },
    /// Written again after [`CacheNotice::NotKept`]: new data is kept.
    Kept,
    /// New data is not kept: the cache cannot be written.
    NotKept {
        why: Unwritable,
        /// The database's own words.
        error: String,
    },
}

/// Why the cache cannot be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unwritable {
    ReadOnly,
    Full,
    /// Any other failure to write.
    Other,
}

impl CacheNotice {
    /// The sentence shown as a notice's title.
    pub fn title(&self) -> String {
        match self {
            CacheNotice::Repaired { .. } => {
                "The local cache held data it could not read: it was dropped, to be read again from the service".to_owned()
            }
            CacheNotice::Rebuilt { .. } => {
                "The local cache file was damaged: a new one was started, and what it held is read again from the service".to_owned()
            }
            CacheNotice::Kept => "The local cache is written again: new data is kept".to_owned(),
            CacheNotice::NotKept {
                why: Unwritable::ReadOnly,
                ..
            } => "The local cache is read-only: new data is not kept".to_owned(),
            CacheNotice::NotKept {
                why: Unwritable::Full,
                ..
            } => "The local cache's disk is full: new data is not kept".to_owned(),
            CacheNotice::NotKept { .. } => {
                "The local cache cannot be written: new data is not kept".to_owned()
            }
        }
    }

    /// The technical text behind it.
    pub fn detail(&self) -> String {
        match self {
            CacheNotice::Repaired {
                windows: 1,
                what,
                error,
            } => format!("{what}: {error}"),
            CacheNotice::Repaired {
                windows,
                what,
                error,
            } => format!("{windows} stored windows could not be read; the first, {what}: {error}"),
            CacheNotice::Rebuilt { aside, error } => {
                format!("{error}; the damaged file was moved to {aside}")
            }
            CacheNotice::Kept => String::new(),
            CacheNotice::NotKept { error, .. } => error.clone(),
        }
    }
}

impl std::fmt::Display for CacheNotice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.title(), self.detail())
    }
}

/// Called when a notice is queued (the app's repaint).
pub type OnNotice = Arc<dyn Fn() + Send + Sync>;

/// The notices not yet taken.
#[derive(Default)]
pub(crate) struct Notices {
    queue: Mutex<Vec<CacheNotice>>,
    wake: Mutex<Option<OnNotice>>,
}

impl std::fmt::Debug for Notices {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Notices").finish_non_exhaustive()
    }
}

impl Notices {
    /// Queues `notice`; windows dropped are added to the one not yet taken
    /// (a garbled file would otherwise tell hundreds).
    pub(crate) fn push(&self, notice: CacheNotice) {
        {
            let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            let queued = queue
                .iter_mut()
                .find(|n| matches!(n, CacheNotice::Repaired { .. }));
            match (queued, &notice) {
                (
                    Some(CacheNotice::Repaired { windows, .. }),
                    CacheNotice::Repaired { windows: more, .. },
                ) => *windows += more,
                _ => queue.push(notice),
            }
        }
        let wake = self.wake.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(wake) = wake {
            wake();
        }
    }

    pub(crate) fn take(&self) -> Vec<CacheNotice> {
        std::mem::take(&mut *self.queue.lock().unwrap_or_else(|e| e.into_inner()))
    }

    pub(crate) fn on_notice(&self, wake: OnNotice) {
        *self.wake.lock().unwrap_or_else(|e| e.into_inner()) = Some(wake);
    }
}
