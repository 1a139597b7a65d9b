//! Messages for the user: dismissable, each with detail for those who want
//! it; the list stays short (the oldest go first). News goes by itself after
//! a while; a problem stays until dismissed or its cause is gone. Every
//! notice shown is also kept in a history (for the session), so one that
//! went can be read again.

use std::collections::VecDeque;

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
        let (title, detail) = (title.into(), detail.into());
        if let Some(same) = self.list.iter().find(|n| {
            n.level == level && n.title == title && (level != Level::Info || n.detail == detail)
        }) {
            return same.id;
        }
        self.next_id += 1;
        self.list.push(Notification {
            id: self.next_id,
            level,
            title,
            detail,
            shown_at: None,
        });
        if self.list.len() > KEPT {
            self.list.remove(0);
        }
        self.next_id
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
            .retain(|n| n.level == Level::Error || n.shown_at.is_none_or(|t| now - t < NEWS_SECS));
    }

    /// When the next piece of news goes (wall clock), so the app asks for
    /// a frame then rather than every second.
    pub fn next_expiry(&self) -> Option<i64> {
        self.list
            .iter()
            .filter(|n| n.level != Level::Error)
            .filter_map(|n| n.shown_at.map(|t| t + NEWS_SECS))
            .min()
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
}
