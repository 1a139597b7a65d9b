//! What every task of the worker shares to report: which request is
//! current per target, the events channel, the wake-up of the UI, and a
//! count of the tasks still running.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};

use super::events::Event;
use super::fetch::Fetched;
use super::messages::{Command, RequestId, Target};
use super::report_data::ReportData;
use crate::series::Track;
use fleetview_api::model::{ActivityRow, EquipmentHistory};
use fleetview_api::time::TimeWindow;

/// Called after every event, to wake the UI (`Context::request_repaint`,
/// or `request_repaint_after` when [`Urgency::Soon`]).
pub type Wake = Arc<dyn Fn(Urgency) + Send + Sync>;

/// How soon the UI should draw what the worker has for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Urgency {
    /// At once: what the user waits for is in (the last of a machine
    /// page's reads ended, or anything else).
    Now,
    /// Within a few frames: progress, or one part of a machine page while
    /// its other reads still run. Frames are shown at the display's
    /// blanks, so a frame for each part would hold back the one that
    /// completes the page (docs/decisions.md, "Frames while a page loads").
    Soon,
}

/// The newest request per target; an event of any other is stale.
#[derive(Debug, Clone, Default)]
pub(crate) struct Current(Arc<Mutex<HashMap<Target, RequestId>>>);

impl Current {
    fn lock(&self) -> MutexGuard<'_, HashMap<Target, RequestId>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `request` is now the newest for `target`.
    pub(crate) fn set(&self, target: Target, request: RequestId) {
        self.lock().insert(target, request);
    }

    /// Nothing is current for `target` any more (cancelled).
    pub(crate) fn clear(&self, target: &Target) {
        self.lock().remove(target);
    }

    /// Nothing is current for any read (another service is chosen).
    pub(crate) fn clear_reads(&self) {
        self.lock().retain(|t, _| !t.is_read());
    }

    pub(crate) fn is(&self, target: &Target, request: RequestId) -> bool {
        self.lock().get(target) == Some(&request)
    }
}

/// An event on its way, with what it answers.
pub(crate) type Envelope = (Target, RequestId, Event);

/// Counts one command, from its send, while alive (dropped when its task
/// ends or is aborted, after which it can report nothing, or at once when
/// it starts none).
#[derive(Debug)]
pub(crate) struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    /// Takes over the count a command got as it was sent (so none is ever
    /// on its way uncounted); released when dropped.
    pub(crate) fn sent(count: &Arc<AtomicUsize>) -> Self {
        Self(count.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Counts the machine page's reads running (`Target::is_page`); when the
/// last ends, the UI is woken at once, its parts having woken it only
/// [`Urgency::Soon`].
#[derive(Clone)]
pub(crate) struct PageInFlight {
    count: Arc<AtomicUsize>,
    wake: Wake,
}

impl std::fmt::Debug for PageInFlight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageInFlight")
            .field("count", &self.count)
            .finish_non_exhaustive()
    }
}

impl PageInFlight {
    pub(crate) fn new(wake: Wake) -> Self {
        Self {
            count: Arc::default(),
            wake,
        }
    }

    /// One more read of the page runs, until the guard is dropped.
    pub(crate) fn start(&self) -> PageReadGuard {
        self.count.fetch_add(1, Ordering::SeqCst);
        PageReadGuard(self.clone())
    }
}

/// One read of the machine page running (see [`PageInFlight`]).
#[derive(Debug)]
pub(crate) struct PageReadGuard(PageInFlight);

impl Drop for PageReadGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            (self.0.wake)(Urgency::Now);
        }
    }
}

/// One value of the latest machine page (its equipment and window),
/// replaced by the next page's.
#[derive(Debug)]
pub(crate) struct LatestPage<T>(Arc<Mutex<Option<PageValue<T>>>>);

/// A page (equipment, window) and its value.
type PageValue<T> = ((i64, TimeWindow), T);

impl<T> Clone for LatestPage<T> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<T> Default for LatestPage<T> {
    fn default() -> Self {
        Self(Arc::default())
    }
}

impl<T> LatestPage<T> {
    fn lock(&self) -> MutexGuard<'_, Option<PageValue<T>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `value` is that of `equipment` over `window` (any other page's goes).
    pub(crate) fn put(&self, equipment: i64, window: TimeWindow, value: T) {
        *self.lock() = Some(((equipment, window), value));
    }

    /// The value, if it is that of `equipment` over `window`.
    pub(crate) fn get(&self, equipment: i64, window: TimeWindow) -> Option<T>
    where
        T: Clone,
    {
        self.lock()
            .as_ref()
            .filter(|(key, _)| *key == (equipment, window))
            .map(|(_, v)| v.clone())
    }

    /// The value, if it is that of `equipment` over `window`; it is kept no
    /// longer.
    pub(crate) fn take(&self, equipment: i64, window: TimeWindow) -> Option<T> {
        let mut kept = self.lock();
        if kept
            .as_ref()
            .is_some_and(|(key, _)| *key == (equipment, window))
        {
            kept.take().map(|(_, v)| v)
        } else {
            None
        }
    }
}

/// The figures' own reads sent ahead with a machine's page (the latest
/// page's only): the figures, asked for once the page's history is in,
/// wait for them and take what they read rather than ask the service
/// again (a window up to now is never wholly in the cache: its last part
/// is not settled, and would be a second round trip).
#[derive(Debug, Clone, Default)]
pub(crate) struct ReadAhead(LatestPage<Arc<tokio::sync::Mutex<Ahead>>>);

/// What the reads ahead had, until the figures take it.
#[derive(Debug, Default)]
pub(crate) struct Ahead {
    pub(crate) idle_fuel: Option<Fetched>,
    pub(crate) operating_hours: Option<Fetched>,
}

impl ReadAhead {
    /// Reads ahead for `equipment` over `window` start; they put what they
    /// had in the guard, and are over when it is dropped (done, failed or
    /// cancelled).
    pub(crate) fn start(
        &self,
        equipment: i64,
        window: TimeWindow,
    ) -> tokio::sync::OwnedMutexGuard<Ahead> {
        let running = Arc::new(tokio::sync::Mutex::new(Ahead::default()));
        let guard = Arc::clone(&running)
            .try_lock_owned()
            .unwrap_or_else(|_| unreachable!("a new lock is free"));
        self.0.put(equipment, window, running);
        guard
    }

    /// Waits for reads ahead of `equipment` over `window`, if any run, and
    /// takes what they had (nothing for a second taker).
    pub(crate) async fn take(&self, equipment: i64, window: TimeWindow) -> Ahead {
        match self.0.get(equipment, window) {
            Some(m) => std::mem::take(&mut *m.lock().await),
            None => Ahead::default(),
        }
    }
}

/// The latest page's history whole. The page keeps it without its
/// positions (only the figures read them, and a year's are megabytes);
/// its figures take it from here, and figures computed again later read
/// it from the cache.
pub(crate) type FullHistory = LatestPage<Arc<EquipmentHistory>>;

/// A history as the page keeps it, and whole: the page's copy has no
/// position rows (their `total` is kept).
pub(crate) fn split_history(mut whole: EquipmentHistory) -> (EquipmentHistory, EquipmentHistory) {
    let positions = std::mem::take(&mut whole.positions.rows);
    let page = whole.clone();
    whole.positions.rows = positions;
    (page, whole)
}

/// What the latest machine page has read, as each of its reads ends (`None`:
/// that read failed), for its figures to be computed here as soon as what
/// they come from is in, without a trip through the UI.
#[derive(Debug, Clone, Default)]
pub(crate) struct PageReads {
    /// The history as the page has it (without position rows).
    pub(crate) history: LatestPage<Option<Arc<EquipmentHistory>>>,
    pub(crate) activities: LatestPage<Option<Arc<Vec<ActivityRow>>>>,
    pub(crate) track: LatestPage<Option<Arc<Track>>>,
    /// Told when any of them is put.
    changed: Arc<tokio::sync::Notify>,
}

/// A read of the page ended: what it had, `None` if it failed.
pub(crate) enum PageRead {
    History(Option<Arc<EquipmentHistory>>),
    Activities(Option<Arc<Vec<ActivityRow>>>),
    Track(Option<Arc<Track>>),
}

/// Where the figures of a page stand.
#[derive(Debug)]
pub(crate) enum PageFigures {
    /// What they come from is not all read yet.
    Waiting,
    /// The history could not be read: no figures (as the UI shows none).
    NoHistory,
    Ready(ReportData),
}

impl PageReads {
    /// A read of the page starts: what an earlier one of the same kind put
    /// is forgotten, so the figures wait for this one. Called in the order
    /// commands are sent.
    pub(crate) fn starting(&self, command: &Command) {
        match command {
            Command::FetchHistory {
                equipment, window, ..
            } => {
                self.history.take(*equipment, *window);
            }
            Command::FetchActivities { equipment, window } => {
                self.activities.take(*equipment, *window);
            }
            Command::FetchTrack { equipment, window } => {
                self.track.take(*equipment, *window);
            }
            _ => {}
        }
    }

    /// A read of `equipment` over `window` ended.
    pub(crate) fn put(&self, equipment: i64, window: TimeWindow, read: PageRead) {
        match read {
            PageRead::History(h) => self.history.put(equipment, window, h),
            PageRead::Activities(a) => self.activities.put(equipment, window, a),
            PageRead::Track(t) => self.track.put(equipment, window, t),
        }
        self.changed.notify_waiters();
    }

    fn figures(&self, equipment: i64, window: TimeWindow) -> PageFigures {
        let (Some(history), Some(activities)) = (
            self.history.get(equipment, window),
            self.activities.get(equipment, window),
        ) else {
            return PageFigures::Waiting;
        };
        let Some(history) = history else {
            return PageFigures::NoHistory;
        };
        // Stops come from positions only without engine events (D16).
        let track = if history.engine_conditions.rows.is_empty() {
            match self.track.get(equipment, window) {
                Some(t) => t,
                None => return PageFigures::Waiting,
            }
        } else {
            None
        };
        PageFigures::Ready(ReportData::new(history, activities, track))
    }

    /// Waits until what the figures of `equipment` over `window` come from
    /// is read (or the history failed).
    pub(crate) async fn wait(&self, equipment: i64, window: TimeWindow) -> PageFigures {
        loop {
            // Asked before looking: a put in between still wakes it.
            let changed = self.changed.notified();
            match self.figures(equipment, window) {
                PageFigures::Waiting => changed.await,
                done => return done,
            }
        }
    }
}

#[derive(Clone)]
pub(crate) struct Shared {
    pub(crate) current: Current,
    pub(crate) events: mpsc::Sender<Envelope>,
    pub(crate) wake: Wake,
    pub(crate) in_flight: Arc<AtomicUsize>,
    pub(crate) page_in_flight: PageInFlight,
    pub(crate) read_ahead: ReadAhead,
    pub(crate) full_history: FullHistory,
    pub(crate) page: PageReads,
    pub(crate) storer: super::store::Storer,
    /// Asks the user where to save an export (none: exports need a folder).
    pub(crate) save_dialog: Option<super::dialog::SaveDialogRef>,
    /// The client in use, for its service's clock.
    pub(crate) service_clock: ServiceClock,
}

/// The client in use, put here by the command loop whenever it changes,
/// for the UI thread to read the service's time as its answers told it.
#[derive(Debug, Clone, Default)]
pub(crate) struct ServiceClock(Arc<Mutex<Option<Arc<fleetview_api::ApiClient>>>>);

impl ServiceClock {
    pub(crate) fn set(&self, client: Option<Arc<fleetview_api::ApiClient>>) {
        let old = std::mem::replace(
            &mut *self.0.lock().unwrap_or_else(|e| e.into_inner()),
            client,
        );
        // Dropped outside the lock.
        drop(old);
    }

    /// Now by the service in use; unknown while the client is being
    /// replaced (never waited for: the UI thread asks).
    pub(crate) fn now_secs(&self) -> Option<i64> {
        self.0.try_lock().ok()?.as_ref()?.service_now()
    }
}

impl Shared {
    /// Sends an event of `request` for `target`, unless a newer command took
    /// the target over (then the event is stale and dropped).
    pub(crate) fn emit(&self, target: &Target, request: RequestId, event: impl Into<Event>) {
        if !self.current.is(target, request) {
            return;
        }
        let event = event.into();
        // A part of the page wakes the UI soon: the page's last read, as
        // it ends, wakes it at once.
        let urgency = if matches!(event, Event::Progress { .. }) || target.is_page() {
            Urgency::Soon
        } else {
            Urgency::Now
        };
        // The receiver is gone only when the worker is being dropped.
        let _ = self.events.send((target.clone(), request, event));
        (self.wake)(urgency);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_value_is_had_for_its_page_only_and_taken_once() {
        let w = TimeWindow {
            since: 0,
            until: 99,
        };
        let kept: LatestPage<&str> = LatestPage::default();
        kept.put(1, w, "one");
        assert_eq!(kept.take(2, w), None, "another machine's");
        assert_eq!(kept.get(1, w), Some("one"));
        assert_eq!(kept.take(1, w), Some("one"));
        assert_eq!(kept.take(1, w), None, "taken");
        kept.put(1, w, "one");
        kept.put(3, w, "three");
        assert_eq!(kept.get(1, w), None, "replaced by the next page's");
    }

    #[tokio::test]
    async fn the_figures_wait_for_reads_ahead_of_their_page_only_and_take_what_they_had() {
        let ahead = ReadAhead::default();
        let w = TimeWindow {
            since: 0,
            until: 99,
        };
        let other = TimeWindow {
            since: 0,
            until: 100,
        };
        // None running: no wait, nothing had.
        assert!(ahead.take(1, w).await.idle_fuel.is_none());
        let mut guard = ahead.start(1, w);
        // Another page's figures do not wait.
        tokio::time::timeout(std::time::Duration::from_secs(5), ahead.take(1, other))
            .await
            .expect("no wait for another window");
        let waiting = tokio::spawn({
            let ahead = ahead.clone();
            async move { ahead.take(1, w).await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "waits while the reads run");
        let read = Fetched {
            window: w,
            requests: 1,
            ..Fetched::default()
        };
        guard.idle_fuel = Some(read.clone());
        drop(guard);
        let had = tokio::time::timeout(std::time::Duration::from_secs(5), waiting)
            .await
            .expect("over once they end")
            .expect("joined");
        assert_eq!(had.idle_fuel, Some(read), "what the reads ahead had");
        assert_eq!(had.operating_hours, None, "a read that failed gives none");
        assert_eq!(ahead.take(1, w).await.idle_fuel, None, "taken once");
    }
}
