//! What every task of the worker shares to report: which request is
//! current per target, the events channel, the wake-up of the UI, and a
//! count of the tasks still running.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};

use super::events::Event;
use super::messages::{RequestId, Target};

/// Called after every event, to wake the UI (`Context::request_repaint`).
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// The newest request per target; an event of any other is stale.
#[derive(Debug, Clone, Default)]
pub struct Current(Arc<Mutex<HashMap<Target, RequestId>>>);

impl Current {
    fn lock(&self) -> MutexGuard<'_, HashMap<Target, RequestId>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `request` is now the newest for `target`.
    pub fn set(&self, target: Target, request: RequestId) {
        self.lock().insert(target, request);
    }

    /// Nothing is current for `target` any more (cancelled).
    pub fn clear(&self, target: &Target) {
        self.lock().remove(target);
    }

    /// Nothing is current for any read (another service is chosen).
    pub fn clear_reads(&self) {
        self.lock().retain(|t, _| !t.is_read());
    }

    pub fn is(&self, target: &Target, request: RequestId) -> bool {
        self.lock().get(target) == Some(&request)
    }
}

/// An event on its way, with what it answers.
pub type Envelope = (Target, RequestId, Event);

/// Counts one running task while alive (dropped when the task ends or is
/// aborted, after which it can report nothing).
#[derive(Debug)]
pub struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    pub fn new(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        Self(count.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

#[derive(Clone)]
pub struct Shared {
    pub current: Current,
    pub events: mpsc::Sender<Envelope>,
    pub wake: Wake,
    pub in_flight: Arc<AtomicUsize>,
}

impl Shared {
    /// Sends an event of `request` for `target`, unless a newer command took
    /// the target over (then the event is stale and dropped).
    pub fn emit(&self, target: &Target, request: RequestId, event: Event) {
        if !self.current.is(target, request) {
            return;
        }
        // The receiver is gone only when the worker is being dropped.
        let _ = self.events.send((target.clone(), request, event));
        (self.wake)();
    }
}
