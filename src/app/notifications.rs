//! Messages for the user: dismissable, each with detail for those who want
//! it; the list stays short (the oldest go first).

/// Notifications kept at once.
const KEPT: usize = 6;

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
}

#[derive(Debug, Default)]
pub struct Notifications {
    list: Vec<Notification>,
    next_id: u64,
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
        });
        if self.list.len() > KEPT {
            self.list.remove(0);
        }
        self.next_id
    }

    pub fn dismiss(&mut self, id: u64) {
        self.list.retain(|n| n.id != id);
    }

    /// Oldest first.
    pub fn list(&self) -> &[Notification] {
        &self.list
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
