//! Faults as events: each one as the machine reported it (D9: a level
//! label that is missing reads `unknown`).

use fleetview_api::model::HistoryFaultRow;

use super::types::{Event, EventDetail, EventKind};

/// Every fault dated in `since..=until`, as an instant.
pub(crate) fn fault_events(faults: &[HistoryFaultRow], since: i64, until: i64) -> Vec<Event> {
    faults
        .iter()
        .filter(|f| (since..=until).contains(&f.date.0))
        .map(|f| Event {
            kind: EventKind::Fault,
            start: f.date.0,
            end: None,
            position: None,
            detail: EventDetail::Fault {
                identifier: f.identifier.clone(),
                description: f.description.clone(),
                severity: f.severity,
                level: f
                    .level_label
                    .as_deref()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .unwrap_or("unknown")
                    .to_owned(),
            },
        })
        .collect()
}
