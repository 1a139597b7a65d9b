//! The fleet a `fleetview report --fleet` (and `fleetview service`)
//! covers: every machine of the list (D2) and its snapshot (when it last
//! reported, its meters), read through the worker as the app reads them;
//! offline, as last kept in the cache.

use std::time::Duration;

use fleetview_api::ApiError;
use fleetview_api::equipment::EquipmentSnapshot;
use fleetview_api::model::EquipmentSummary;
use fleetview_api::time::{TimeWindow, format_wire};
use fleetview_core::analysis::last_report;
use fleetview_core::worker::{
    Command, Event, FleetEvent, OverviewEvent, ReportMachine, ReportScope, RequestId, Worker,
};

/// How long to wait between looks at a worker with nothing to say yet.
const POLL: Duration = Duration::from_millis(100);

/// Where the fleet is read from.
pub(crate) struct FleetSource {
    /// The service's data in the cache (`ClientConfig::cache_scope`).
    pub(crate) scope: String,
    /// The cache only.
    pub(crate) offline: bool,
    /// The deprecated fleet history is read over it (D2).
    pub(crate) window: TimeWindow,
}

/// The fleet's machines with their last reports, and what the report
/// should say about where they come from; `None` if offline the cache
/// keeps no list of the fleet.
pub(crate) fn fleet_scope(
    worker: &Worker,
    from: &FleetSource,
    note: &mut impl FnMut(&str),
) -> Result<Option<(ReportScope, Vec<String>)>, ApiError> {
    let mut notes = Vec::new();
    let Some(equipments) = fleet_list(worker, from, &mut notes)? else {
        return Ok(None);
    };
    let (snapshots, known) = snapshots(worker, from)?;
    if !known {
        let n = "the machines' last reports could not be read: none is called silent";
        note(n);
        notes.push(n.to_owned());
    }
    let machines = equipments
        .iter()
        .map(|e| ReportMachine {
            equipment: e.id,
            name: Some(e.name.clone()),
            category: e.category.clone(),
            make: Some(e.make.clone()),
            model: Some(e.model.clone()),
            last_report: snapshots
                .iter()
                .find(|s| s.id == e.id)
                .and_then(last_report),
        })
        .collect();
    Ok(Some((
        ReportScope::Fleet {
            machines,
            last_reports_known: known,
        },
        notes,
    )))
}

/// The fleet's machines, as listed (or, offline, as last kept: said in
/// `notes`); `None` if offline the cache keeps no list of the fleet.
pub(crate) fn fleet_list(
    worker: &Worker,
    from: &FleetSource,
    notes: &mut Vec<String>,
) -> Result<Option<Vec<EquipmentSummary>>, ApiError> {
    let id = worker.send(if from.offline {
        Command::KeptFleet {
            scope: from.scope.clone(),
        }
    } else {
        Command::DiscoverFleet {
            window: from.window,
        }
    });
    let mut equipments: Vec<EquipmentSummary> = Vec::new();
    let listed = answers(worker, id, |event| match event {
        Event::Fleet(FleetEvent::Page {
            equipments: page,
            finished,
            ..
        }) => {
            equipments.extend(page);
            Ok(finished)
        }
        Event::Fleet(FleetEvent::Cached {
            equipments: kept,
            fetched_at,
            ..
        }) => {
            equipments = kept;
            notes.push(format!(
                "the fleet as last discovered, at {}",
                format_wire(fetched_at)
            ));
            Ok(true)
        }
        Event::Failed { error, .. } => Err(error),
        _ => Ok(false),
    })?;
    Ok(listed.then_some(equipments))
}

/// The fleet's snapshots, and whether they could be read at all.
pub(crate) fn snapshots(
    worker: &Worker,
    from: &FleetSource,
) -> Result<(Vec<EquipmentSnapshot>, bool), ApiError> {
    let id = worker.send(if from.offline {
        Command::KeptSnapshots {
            scope: from.scope.clone(),
        }
    } else {
        Command::FetchSnapshots
    });
    let mut all = Vec::new();
    let mut failed = false;
    let done = answers(worker, id, |event| match event {
        Event::Overview(OverviewEvent::SnapshotPage {
            snapshots,
            finished,
            ..
        }) => {
            all.extend(snapshots);
            Ok(finished)
        }
        Event::Overview(OverviewEvent::SnapshotsCached { snapshots, .. }) => {
            all = snapshots;
            Ok(true)
        }
        // A refused key fails the report; anything else only leaves the
        // last reports unknown.
        Event::Failed { error, .. } if error.is_unauthorized() => Err(error),
        Event::Failed { .. } => {
            failed = true;
            Ok(true)
        }
        _ => Ok(false),
    })?;
    Ok((all, done && !failed))
}

/// Hands `take` the events of request `id` until it says the answer is
/// complete (`true`), or nothing more can come (`false`: the worker has
/// nothing in flight, as when the cache keeps nothing to say).
fn answers(
    worker: &Worker,
    id: RequestId,
    mut take: impl FnMut(Event) -> Result<bool, ApiError>,
) -> Result<bool, ApiError> {
    loop {
        let event = match worker.recv_timeout(POLL) {
            Some(e) => e,
            None if worker.in_flight() == 0 => match worker.try_recv() {
                Some(e) => e,
                None => return Ok(false),
            },
            None => continue,
        };
        if event.request() == id && take(event)? {
            return Ok(true);
        }
    }
}
