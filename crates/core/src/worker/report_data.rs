//! What a machine's window figures are asked for and computed from: types
//! the commands, the events and the worker's tasks all name, kept apart from
//! the computing so none of those has to import it.

use std::sync::Arc;

use crate::analysis::{Expected, WorkingHours};
use crate::series::Track;
use fleetview_api::model::{ActivityRow, EquipmentHistory};
use fleetview_api::time::TimeWindow;

/// What the machine page has read for its window.
#[derive(Debug, Clone)]
pub struct ReportData {
    pub history: Arc<EquipmentHistory>,
    /// `None` if they could not be read.
    pub activities: Option<Arc<Vec<ActivityRow>>>,
    /// Only used without engine events (stops from positions, D16).
    pub track: Option<Arc<Track>>,
}

/// Which values figures were computed from (their addresses): the page
/// asks again when what it shows is no longer that.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReportSources {
    pub(crate) history: usize,
    pub(crate) activities: usize,
    pub(crate) track: usize,
}

fn address<T>(v: Option<&Arc<T>>) -> usize {
    v.map_or(0, |a| Arc::as_ptr(a) as usize)
}

impl ReportData {
    /// What figures come from: the track only without engine events (stops
    /// from positions, D16).
    pub fn new(
        history: Arc<EquipmentHistory>,
        activities: Option<Arc<Vec<ActivityRow>>>,
        track: Option<Arc<Track>>,
    ) -> Self {
        let track = track.filter(|_| history.engine_conditions.rows.is_empty());
        Self {
            history,
            activities,
            track,
        }
    }

    pub fn sources(&self) -> ReportSources {
        ReportSources {
            history: address(Some(&self.history)),
            activities: address(self.activities.as_ref()),
            track: address(self.track.as_ref()),
        }
    }
}

/// What a report is asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReportRequest {
    pub equipment: i64,
    pub window: TimeWindow,
    pub expected: Expected,
    /// Now, for a stop still on at the end of the window.
    pub now: i64,
    /// Out-of-hours use is running outside these (D16).
    pub working_hours: WorkingHours,
    /// The fuel tank's capacity as the user entered it; `None`: from the
    /// machine's model where known.
    pub tank_l: Option<f64>,
}
