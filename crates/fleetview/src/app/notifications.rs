//! Messages for the user: dismissable, each with detail for those who want
//! it; the list stays short (the oldest go first). News goes by itself after
//! a while, unless it offers something to do (a folder to open); a problem
//! stays until dismissed or its cause is gone: a notice of what a panel or
//! an action failed to do goes when that panel or action next succeeds. Every
//! notice shown is also kept in a history (for the session), so one that
//! went can be read again.

use std::collections::VecDeque;
use std::path::PathBuf;

use fleetview_core::worker::Target;

/// Notifications kept at once.
const KEPT: usize = 6;
/// Notices kept in the history (the oldest go first).
pub const HISTORY_KEPT: usize = 200;

/// How long news (an export done, back online) stays, from when first shown.
pub const NEWS_SECS: i64 = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warning,
    Error,
}

/// A dismissable message, with detail for those who want it.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    pub id: u64,
    pub level: Level,
    pub title: String,
    pub detail: String,
    /// When it was first there at a tick (Unix seconds): news goes
    /// [`NEWS_SECS`] later.
    pub shown_at: Option<i64>,
    /// A folder to open from the notice (where a file was written); such a
    /// notice stays until dismissed.
    pub folder: Option<PathBuf>,
    /// The panels and actions whose failure it tells: it goes once each
    /// of them has since succeeded (empty: not tied to any).
    pub sources: Vec<Target>,
}

impl Notification {
    /// News that goes [`NEWS_SECS`] after it was shown (problems, and news
    /// with a folder to open, stay until dismissed).
    pub fn goes_by_itself(&self) -> bool {
        self.level != Level::Error && self.folder.is_none()
    }
}

#[derive(Debug, Default)]
pub struct Notifications {
    list: Vec<Notification>,
    next_id: u64,
    /// Every notice shown, oldest first, with when it was first shown.
    history: VecDeque<Notification>,
}

impl Notifications {
    /// Adds a notification; its id, to dismiss it when its cause is gone.
    /// A problem still listed under the same title is not added twice
    /// (several panels failing for one cause make one notice); news is, when
    /// its detail differs (another file exported).
    pub fn notify(
        &mut self,
        level: Level,
        title: impl Into<String>,
        detail: impl Into<String>,
    ) -> u64 {
        self.add(Notification {
            id: 0,
            level,
            title: title.into(),
            detail: detail.into(),
            shown_at: None,
            folder: None,
            sources: Vec::new(),
        })
    }

    /// A failure of `source` (a panel, an action): said once per cause,
    /// and gone when every source it tells has since succeeded.
    pub fn notify_for(
        &mut self,
        source: Target,
        level: Level,
        title: impl Into<String>,
        detail: impl Into<String>,
    ) -> u64 {
        let id = self.notify(level, title, detail);
        if let Some(n) = self.list.iter_mut().find(|n| n.id == id)
            && !n.sources.contains(&source)
        {
            n.sources.push(source);
        }
        id
    }

    /// News with a folder to open: it stays until dismissed.
    pub fn notify_with_folder(
        &mut self,
        title: impl Into<String>,
        detail: impl Into<String>,
        folder: Option<PathBuf>,
    ) -> u64 {
        self.add(Notification {
            id: 0,
            level: Level::Info,
            title: title.into(),
            detail: detail.into(),
            shown_at: None,
            folder,
            sources: Vec::new(),
        })
    }

    fn add(&mut self, mut new: Notification) -> u64 {
        if let Some(same) = self.list.iter().find(|n| {
            n.level == new.level
                && n.title == new.title
                && (new.level != Level::Info || n.detail == new.detail)
        }) {
            return same.id;
        }
        self.next_id += 1;
        new.id = self.next_id;
        self.list.push(new);
        if self.list.len() > KEPT {
            self.list.remove(0);
        }
        self.next_id
    }

    /// `source` succeeded: the notices of its failure go once none of
    /// their sources still fails.
    pub fn resolved(&mut self, source: &Target) {
        self.list.retain_mut(|n| {
            let before = n.sources.len();
            n.sources.retain(|s| s != source);
            !(before > 0 && n.sources.is_empty())
        });
    }

    /// Called with the wall clock: dates what is new, and lets news go once
    /// it has been seen long enough (problems stay).
    pub fn expire(&mut self, now: i64) {
        for n in &mut self.list {
            if n.shown_at.is_none() {
                n.shown_at = Some(now);
                self.history.push_back(n.clone());
                if self.history.len() > HISTORY_KEPT {
                    self.history.pop_front();
                }
            }
        }
        self.list
            .retain(|n| !n.goes_by_itself() || n.shown_at.is_none_or(|t| now - t < NEWS_SECS));
    }

    /// When the next piece of news goes (wall clock), so the app asks for
    /// a frame then rather than every second.
    pub fn next_expiry(&self) -> Option<i64> {
        self.list
            .iter()
            .filter(|n| n.goes_by_itself())
            .filter_map(|n| n.shown_at.map(|t| t + NEWS_SECS))
            .min()
    }

    /// The notices listed under `title` go: their cause is gone.
    pub fn withdraw(&mut self, title: &str) {
        self.list.retain(|n| n.title != title);
    }

    pub fn dismiss(&mut self, id: u64) {
        self.list.retain(|n| n.id != id);
    }

    /// Oldest first.
    pub fn list(&self) -> &[Notification] {
        &self.list
    }

    /// Every notice shown (gone or not), oldest first.
    pub fn history(&self) -> &VecDeque<Notification> {
        &self.history
    }

    pub fn clear_history(&mut self) {
        self.history.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_message_is_listed_once() {
        let mut n = Notifications::default();
        let a = n.notify(Level::Error, "Down", "faults");
        let b = n.notify(Level::Error, "Down", "activities");
        assert_eq!((a, n.list().len()), (b, 1));
        n.notify(Level::Warning, "Down", "");
        assert_eq!(n.list().len(), 2, "another level is another notice");
        n.notify(Level::Info, "Exported", "to a.csv");
        n.notify(Level::Info, "Exported", "to b.csv");
        assert_eq!(n.list().len(), 4, "news with another detail is news");
    }

    #[test]
    fn news_goes_by_itself_and_problems_stay() {
        let mut n = Notifications::default();
        n.notify(Level::Error, "Down", "");
        n.notify(Level::Info, "Exported", "a.csv");
        n.expire(100);
        n.notify(Level::Warning, "Slow", "");
        n.expire(100 + NEWS_SECS - 1);
        assert_eq!(n.list().len(), 3, "all still there");
        n.expire(100 + NEWS_SECS);
        let titles: Vec<_> = n.list().iter().map(|x| x.title.as_str()).collect();
        assert_eq!(titles, ["Down", "Slow"], "the news seen longest went");
        n.expire(100 + 100 * NEWS_SECS);
        assert_eq!(n.list().len(), 1, "the error stays");
    }

    #[test]
    fn a_notice_gone_is_kept_in_the_history_with_when_it_was_shown() {
        let mut n = Notifications::default();
        n.notify(Level::Info, "Exported", "a.csv");
        n.notify(Level::Error, "Down", "faults");
        n.expire(100);
        // The same problem again while listed is one notice, one entry.
        n.notify(Level::Error, "Down", "activities");
        n.expire(101);
        n.expire(100 + NEWS_SECS);
        let id = n.list()[0].id;
        n.dismiss(id);
        assert!(n.list().is_empty(), "the news went, the error dismissed");
        let kept: Vec<_> = n
            .history()
            .iter()
            .map(|x| (x.title.as_str(), x.detail.as_str(), x.level, x.shown_at))
            .collect();
        assert_eq!(
            kept,
            [
                ("Exported", "a.csv", Level::Info, Some(100)),
                ("Down", "faults", Level::Error, Some(100)),
            ]
        );
        // The same problem after it went is news again.
        n.notify(Level::Error, "Down", "faults");
        n.expire(200);
        assert_eq!(n.history().len(), 3);
        for i in 0..HISTORY_KEPT {
            n.notify(Level::Info, format!("n{i}"), "");
            n.expire(300 + i as i64);
        }
        assert_eq!(n.history().len(), HISTORY_KEPT, "bounded");
        assert_eq!(n.history()[0].title, "n0", "the oldest went first");
        n.clear_history();
        assert!(n.history().is_empty());
    }

    #[test]
    fn the_list_stays_short_and_dismissing_removes_one() {
        let mut n = Notifications::default();
        for i in 0..10 {
            n.notify(Level::Info, format!("n{i}"), "");
        }
        assert_eq!(n.list().len(), KEPT);
        assert_eq!(n.list()[0].title, "n4");
        let id = n.list()[1].id;
        n.dismiss(id);
        assert!(n.list().iter().all(|x| x.id != id));
        assert_eq!(n.list().len(), KEPT - 1);
    }

    #[test]
    fn a_failure_goes_when_each_of_its_sources_next_succeeds() {
        let mut n = Notifications::default();
        n.notify_for(Target::Faults, Level::Error, "Down", "faults");
        n.notify_for(Target::Activities, Level::Error, "Down", "activities");
        n.notify(Level::Error, "Untied", "");
        assert_eq!(n.list().len(), 2, "one notice per cause");
        n.resolved(&Target::Faults);
        assert_eq!(n.list().len(), 2, "the activities still fail");
        n.resolved(&Target::Activities);
        let titles: Vec<_> = n.list().iter().map(|x| x.title.as_str()).collect();
        assert_eq!(titles, ["Untied"]);
    }

    #[test]
    fn news_with_a_folder_to_open_stays() {
        let mut n = Notifications::default();
        n.notify_with_folder("Exported", "a.csv", Some(PathBuf::from("/tmp")));
        n.expire(100);
        n.expire(100 + 10 * NEWS_SECS);
        assert_eq!(n.list().len(), 1);
    }
}
