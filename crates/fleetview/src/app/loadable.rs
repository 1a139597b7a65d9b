//! An async value as the UI sees it. While a refresh is pending or after it
//! failed, the previous value is kept, so the screen never blanks.

use super::errors::Problem;

#[derive(Debug, Clone, PartialEq, Default)]
pub enum Loadable<T> {
    #[default]
    Idle,
    Pending {
        previous: Option<T>,
    },
    Ready(T),
    Failed {
        /// In words: the panel's line, the cause, the technical text.
        error: Problem,
        previous: Option<T>,
    },
}

impl<T> Loadable<T> {
    /// The value to show: the current one, or the last one while refreshing.
    pub fn value(&self) -> Option<&T> {
        match self {
            Loadable::Ready(v) => Some(v),
            Loadable::Pending { previous } | Loadable::Failed { previous, .. } => previous.as_ref(),
            Loadable::Idle => None,
        }
    }

    pub fn is_pending(&self) -> bool {
        matches!(self, Loadable::Pending { .. })
    }

    pub fn error(&self) -> Option<&Problem> {
        match self {
            Loadable::Failed { error, .. } => Some(error),
            _ => None,
        }
    }

    fn take_value(self) -> Option<T> {
        match self {
            Loadable::Ready(v) => Some(v),
            Loadable::Pending { previous } | Loadable::Failed { previous, .. } => previous,
            Loadable::Idle => None,
        }
    }

    /// The request was dropped: what there was stays, as it was.
    pub fn settle(&mut self) {
        *self = match std::mem::take(self).take_value() {
            Some(v) => Loadable::Ready(v),
            None => Loadable::Idle,
        };
    }

    /// A new request: keep showing what there is.
    pub fn start(&mut self) {
        let previous = std::mem::take(self).take_value();
        *self = Loadable::Pending { previous };
    }

    pub fn fail(&mut self, error: impl Into<Problem>) {
        let previous = std::mem::take(self).take_value();
        *self = Loadable::Failed {
            error: error.into(),
            previous,
        };
    }

    pub fn clear(&mut self) {
        *self = Loadable::Idle;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_previous_value_survives_refresh_and_failure() {
        let mut l = Loadable::Ready(1);
        l.start();
        assert_eq!((l.value(), l.is_pending()), (Some(&1), true));
        l.fail("boom");
        assert_eq!(
            (l.value(), l.error().map(|e| e.short.as_str())),
            (Some(&1), Some("boom"))
        );
        l = Loadable::Ready(2);
        assert_eq!(l.value(), Some(&2));
        l.clear();
        assert_eq!(l.value(), None);
    }
}
