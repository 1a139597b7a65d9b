//! Storing what was read in the cache, once it has been handed on: a
//! task's writes wait until it has said what it had (storing a year of
//! positions takes SQLite tens of milliseconds of a core the decoding and
//! the service need while a page loads), then go to the cache's writer, a
//! thread of its own that the worker waits for when it closes, so nothing
//! read is lost at exit (the command line's export closes at once).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;

use crate::cache::CacheError;

/// A write to the cache; told whether the rows were decoded (then they
/// are known to be valid JSON).
type Write = Box<dyn FnOnce(bool) -> Result<(), CacheError> + Send>;

/// A task's writes, and who waits for them.
struct Batch {
    writes: Vec<Write>,
    decoded: bool,
    done: tokio::sync::oneshot::Sender<()>,
}

/// The way to the cache's writer.
#[derive(Debug, Clone)]
pub(crate) struct Storer(mpsc::Sender<Batch>);

impl Storer {
    /// Starts the writer; it ends, having done every batch sent, once every
    /// `Storer` is dropped.
    pub(crate) fn spawn() -> std::io::Result<(Self, JoinHandle<()>)> {
        let (tx, rx) = mpsc::channel::<Batch>();
        let thread = std::thread::Builder::new()
            .name("fleetview-cache".into())
            .spawn(move || {
                for batch in rx {
                    run(batch.writes, batch.decoded);
                    let _ = batch.done.send(());
                }
            })?;
        Ok((Self(tx), thread))
    }
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Batch({} writes)", self.writes.len())
    }
}

fn run(writes: Vec<Write>, decoded: bool) {
    for write in writes {
        if let Err(e) = write(decoded)
            && !e.is_told()
        {
            tracing::warn!("could not cache what was read: {e}");
        }
    }
}

/// The cache writes a task has to do, done once it has handed its rows on
/// ([`Writes::finish`]); the task waits for them before it ends, so a
/// finished task's rows are in the cache.
pub(crate) struct Writes {
    todo: Mutex<Vec<Write>>,
    decoded: AtomicBool,
    storer: Storer,
    /// Set when rows the task read from the cache could not be read and
    /// were dropped: the task reads again.
    unreadable: Arc<AtomicBool>,
}

impl std::fmt::Debug for Writes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.todo.lock().map_or(0, |w| w.len());
        write!(f, "Writes({n} to do)")
    }
}

impl Writes {
    pub(crate) fn new(storer: Storer) -> Self {
        Self {
            todo: Mutex::new(Vec::new()),
            decoded: AtomicBool::new(false),
            storer,
            unreadable: Arc::new(AtomicBool::new(false)),
        }
    }

    /// What a read sets when rows it had from the cache cannot be read.
    pub(crate) fn unreadable_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.unreadable)
    }

    /// Whether rows read from the cache were found unreadable (and
    /// dropped) since last asked.
    pub(crate) fn take_unreadable(&self) -> bool {
        self.unreadable.swap(false, Ordering::Relaxed)
    }

    /// `write` is to be done when the task has said what it had.
    pub(crate) fn start(
        &self,
        write: impl FnOnce(bool) -> Result<(), CacheError> + Send + 'static,
    ) {
        self.todo
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Box::new(write));
    }

    /// Every row to be stored was decoded: it is valid JSON, and is not
    /// checked again as it is stored.
    pub(crate) fn rows_decoded(&self) {
        self.decoded.store(true, Ordering::Relaxed);
    }

    /// Hands every write asked for so far to the cache's writer and waits
    /// for them. Handed over before this first waits: a task aborted then
    /// (the worker closing) still has them done.
    pub(crate) async fn finish(&self) {
        let writes = std::mem::take(&mut *self.todo.lock().unwrap_or_else(|e| e.into_inner()));
        if writes.is_empty() {
            return;
        }
        let decoded = self.decoded.load(Ordering::Relaxed);
        let (done, stored) = tokio::sync::oneshot::channel();
        if let Err(mpsc::SendError(batch)) = self.storer.0.send(Batch {
            writes,
            decoded,
            done,
        }) {
            // The writer is gone (only while closing): done here.
            let _ = tokio::task::spawn_blocking(move || run(batch.writes, batch.decoded)).await;
            return;
        }
        let _ = stored.await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[tokio::test]
    async fn writes_wait_for_the_finish_and_the_writer_ends_having_done_them() {
        let (storer, thread) = Storer::spawn().expect("writer");
        let done = Arc::new(AtomicUsize::new(0));
        let writes = Writes::new(storer.clone());
        for _ in 0..3 {
            let done = done.clone();
            writes.start(move |decoded| {
                assert!(decoded, "told the rows were decoded");
                done.fetch_add(1, Ordering::SeqCst);
                Ok(())
            });
        }
        assert_eq!(done.load(Ordering::SeqCst), 0, "nothing before the finish");
        writes.rows_decoded();
        writes.finish().await;
        assert_eq!(done.load(Ordering::SeqCst), 3);

        // Sent and never waited for (a task aborted as the worker closes):
        // done before the writer ends.
        let late = Writes::new(storer.clone());
        let counted = done.clone();
        late.start(move |_| {
            counted.fetch_add(1, Ordering::SeqCst);
            Ok(())
        });
        {
            let finishing = late.finish();
            futures_util::pin_mut!(finishing);
            let _ = futures_util::poll!(finishing.as_mut());
        }
        drop((storer, writes, late));
        thread.join().expect("the writer ends");
        assert_eq!(done.load(Ordering::SeqCst), 4);
    }
}
