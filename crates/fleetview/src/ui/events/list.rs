//! Which events the Events tab lists, in which order: filtered by kind,
//! sorted by a column, kept until the report, the filter or the order
//! change (never sorted again per frame).

use std::collections::BTreeSet;
use std::sync::Arc;

use fleetview_core::analysis::{Event, EventKind, Report};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortColumn {
    #[default]
    Time,
    Kind,
    Duration,
}

/// A column and a direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Order {
    pub column: SortColumn,
    pub ascending: bool,
}

impl Default for Order {
    fn default() -> Self {
        Self {
            column: SortColumn::Time,
            ascending: true,
        }
    }
}

impl Order {
    /// A click on a column's header: that column, or the other way round
    /// if it is already the one.
    pub fn clicked(self, column: SortColumn) -> Self {
        if self.column == column {
            Self {
                ascending: !self.ascending,
                ..self
            }
        } else {
            Self {
                column,
                ascending: true,
            }
        }
    }
}

/// The indices of the events shown, in order: kinds in `hidden` left out,
/// sorted by `order` (an instant lasts nothing; ties keep time order).
pub fn visible(events: &[Event], hidden: &BTreeSet<EventKind>, order: Order) -> Vec<usize> {
    let mut rows: Vec<usize> = (0..events.len())
        .filter(|i| !hidden.contains(&events[*i].kind))
        .collect();
    rows.sort_by(|a, b| {
        let (x, y) = (&events[*a], &events[*b]);
        let o = match order.column {
            SortColumn::Time => x.start.cmp(&y.start),
            SortColumn::Kind => x.kind.cmp(&y.kind),
            SortColumn::Duration => x
                .duration_secs()
                .unwrap_or(0)
                .cmp(&y.duration_secs().unwrap_or(0)),
        };
        let o = if order.ascending { o } else { o.reverse() };
        o.then(x.start.cmp(&y.start)).then(a.cmp(b))
    });
    rows
}

type Key = (usize, BTreeSet<EventKind>, Order);

/// The rows of the last report, filter and order.
#[derive(Debug, Default)]
pub struct ListCache {
    key: Option<Key>,
    rows: Vec<usize>,
}

impl ListCache {
    /// The rows for `report` (by address), `hidden` and `order`.
    pub fn rows(
        &mut self,
        report: &Arc<Report>,
        hidden: &BTreeSet<EventKind>,
        order: Order,
    ) -> &[usize] {
        let key = (Arc::as_ptr(report) as usize, hidden.clone(), order);
        if self.key.as_ref() != Some(&key) {
            self.rows = visible(&report.events, hidden, order);
            self.key = Some(key);
        }
        &self.rows
    }

    /// The rows last listed (empty before any report).
    pub fn last(&self) -> &[usize] {
        &self.rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::events::text::tests::event;
    use fleetview_core::analysis::EventDetail;

    fn events() -> Vec<Event> {
        vec![
            event(EventKind::Stop, 100, Some(700), EventDetail::Stop),
            event(EventKind::Fault, 200, None, EventDetail::Stop),
            event(EventKind::Stop, 300, Some(400), EventDetail::Stop),
            event(
                EventKind::OutOfHours,
                50,
                Some(5000),
                EventDetail::OutOfHours {
                    reason: String::new(),
                },
            ),
        ]
    }

    #[test]
    fn sorts_by_time_kind_and_duration_either_way() {
        let e = events();
        let none = BTreeSet::new();
        let by = |column, ascending| visible(&e, &none, Order { column, ascending });
        assert_eq!(by(SortColumn::Time, true), [3, 0, 1, 2]);
        assert_eq!(by(SortColumn::Time, false), [2, 1, 0, 3]);
        assert_eq!(
            by(SortColumn::Kind, true),
            [0, 2, 3, 1],
            "ties in time order"
        );
        assert_eq!(
            by(SortColumn::Duration, true),
            [1, 2, 0, 3],
            "an instant first"
        );
        assert_eq!(by(SortColumn::Duration, false), [3, 0, 2, 1]);
        let o = Order::default().clicked(SortColumn::Duration);
        assert_eq!((o.column, o.ascending), (SortColumn::Duration, true));
        assert!(!o.clicked(SortColumn::Duration).ascending);
    }

    #[test]
    fn hidden_kinds_are_left_out_and_the_cache_follows_its_key() {
        let e = events();
        let hidden: BTreeSet<EventKind> = [EventKind::Stop].into();
        assert_eq!(visible(&e, &hidden, Order::default()), [3, 1]);
        let report = Arc::new(Report {
            events: e,
            ..Report::default()
        });
        let mut cache = ListCache::default();
        assert_eq!(cache.rows(&report, &hidden, Order::default()), [3, 1]);
        assert_eq!(
            cache.rows(&report, &BTreeSet::new(), Order::default()),
            [3, 0, 1, 2]
        );
        let other = Arc::new(Report::default());
        assert!(
            cache
                .rows(&other, &BTreeSet::new(), Order::default())
                .is_empty()
        );
    }
}
