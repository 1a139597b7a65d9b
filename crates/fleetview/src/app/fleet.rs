//! The fleet as discovered (D2): the machines to pick from, how far the
//! discovery has come, and the list last kept when the service is away or
//! there is nothing to sign in with.

use super::failure::Failure;
use super::intake::Intake;
use fleetview_api::ApiError;
use fleetview_api::model::EquipmentSummary;
use fleetview_api::time::TimeWindow;
use fleetview_core::worker::{Command, FleetEvent, FleetSource};

/// How far back the deprecated fleet history is read when a service has no
/// equipment list (D2): short, so its pages stay small.
pub const DISCOVERY_WINDOW_SECS: i64 = 3600;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct FleetState {
    pub equipments: Vec<EquipmentSummary>,
    pub done: i64,
    pub total: i64,
    pub loading: bool,
    pub error: Option<String>,
    /// Shown from the cache (service away, or signed out): when it was
    /// discovered.
    pub cached_at: Option<i64>,
    /// Where the list shown was found.
    pub source: FleetSource,
    /// The list shown stays until the first page of a new discovery.
    replace_on_page: bool,
    /// Names of machines remembered from the last run, until the fleet is
    /// known.
    remembered: Vec<(i64, String)>,
}

impl FleetState {
    fn command(now: i64) -> Command {
        Command::DiscoverFleet {
            window: TimeWindow {
                since: now - DISCOVERY_WINDOW_SECS,
                until: now,
            },
        }
    }

    /// Discovers the fleet from scratch.
    pub fn discover(&mut self, now: i64) -> Command {
        *self = FleetState {
            loading: true,
            remembered: std::mem::take(&mut self.remembered),
            ..FleetState::default()
        };
        Self::command(now)
    }

    /// Discovers the fleet again, keeping the list shown until the new one
    /// comes (it is then replaced).
    pub fn rediscover(&mut self, now: i64) -> Command {
        self.loading = true;
        self.error = None;
        self.replace_on_page = true;
        Self::command(now)
    }

    pub fn on_page(
        &mut self,
        equipments: Vec<EquipmentSummary>,
        (done, total): (i64, i64),
        finished: bool,
        source: FleetSource,
    ) {
        if std::mem::take(&mut self.replace_on_page) {
            self.equipments.clear();
            self.cached_at = None;
        }
        self.source = source;
        self.equipments.extend(equipments);
        self.done = done;
        self.total = total;
        self.loading = !finished;
    }

    /// The service is away, or signed out: the fleet as last discovered.
    pub fn on_cached(&mut self, equipments: Vec<EquipmentSummary>, fetched_at: i64) {
        let n = equipments.len() as i64;
        *self = FleetState {
            equipments,
            done: n,
            total: n,
            loading: false,
            error: None,
            cached_at: Some(fetched_at),
            source: self.source,
            // A page of the service's, from a discovery under way or the
            // next, replaces the list the cache had.
            replace_on_page: true,
            remembered: std::mem::take(&mut self.remembered),
        };
    }

    /// Takes in a page of the fleet, or the fleet as last discovered.
    pub fn on_event(&mut self, event: FleetEvent, intake: &mut Intake) {
        match event {
            FleetEvent::Page {
                equipments,
                done,
                total,
                finished,
                source,
                ..
            } => {
                intake.conn.answered();
                self.on_page(equipments, (done, total), finished, source);
            }
            FleetEvent::Cached {
                equipments,
                fetched_at,
                ..
            } => {
                self.on_cached(equipments, fetched_at);
                intake
                    .conn
                    .shown_from_cache(fetched_at, "the fleet could not be discovered");
            }
        }
    }

    pub fn on_failed(&mut self, error: &ApiError) -> Failure {
        self.failed(error.to_string());
        Failure::Notice
    }

    pub fn failed(&mut self, message: String) {
        self.loading = false;
        self.error = Some(message);
    }

    /// The name a machine is listed under (or was, at the last run), if
    /// known.
    pub fn known_name(&self, id: i64) -> Option<&str> {
        self.equipments
            .iter()
            .find(|e| e.id == id)
            .map(|e| e.name.as_str())
            .or_else(|| {
                self.remembered
                    .iter()
                    .find(|(i, _)| *i == id)
                    .map(|(_, n)| n.as_str())
            })
    }

    /// The name a machine is listed under, or "Equipment N".
    pub fn name_of(&self, id: i64) -> String {
        self.known_name(id)
            .map_or_else(|| format!("Equipment {id}"), str::to_owned)
    }

    /// Names kept from the last run, shown until the fleet is known.
    pub fn remember(&mut self, names: Vec<(i64, String)>) {
        self.remembered = names;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(id: i64) -> EquipmentSummary {
        EquipmentSummary {
            id,
            name: format!("M-{id}"),
            make: "Volvo".into(),
            model: "EC220E".into(),
            serial_number: "S".into(),
            ..Default::default()
        }
    }

    /// The cached list answers a discovery that failed while another,
    /// live, is under way (the service back): its pages replace the
    /// cached list, never add to it.
    #[test]
    fn a_live_discovery_replaces_the_cached_fleet_whatever_came_first() {
        let fleet: Vec<EquipmentSummary> = (1..=3).map(machine).collect();
        let mut f = FleetState::default();
        f.on_page(fleet.clone(), (3, 3), true, FleetSource::default());
        let _ = f.rediscover(1_000);
        f.on_cached(fleet.clone(), 900);
        f.on_page(fleet.clone(), (3, 3), true, FleetSource::default());
        assert_eq!(f.equipments.len(), 3, "not the cached list and the new one");
        assert_eq!(f.cached_at, None);
    }

    #[test]
    fn search_matches_every_word_anywhere() {
        let e = EquipmentSummary {
            id: 1001,
            name: "EX-001 Volvo EC220E (Rotterdam)".into(),
            make: "Volvo".into(),
            model: "EC220E".into(),
            serial_number: "VCE0EX52047".into(),
            ..Default::default()
        };
        assert!(e.matches("volvo rotter"));
        assert!(e.matches("vce0ex"));
        assert!(e.matches("1001"));
        assert!(!e.matches("volvo hamburg"));
    }

    #[test]
    fn a_rediscovery_keeps_the_list_until_its_first_page() {
        let mut f = FleetState::default();
        f.discover(0);
        f.on_page(
            vec![machine(1), machine(2)],
            (2, 2),
            true,
            FleetSource::List,
        );
        f.on_cached(vec![machine(1)], 5);
        assert_eq!((f.equipments.len(), f.cached_at), (1, Some(5)));
        f.rediscover(10);
        assert_eq!(f.equipments.len(), 1, "kept while loading");
        f.on_page(vec![machine(3)], (1, 2), false, FleetSource::List);
        assert_eq!(
            (f.equipments.len(), f.cached_at, f.loading),
            (1, None, true)
        );
        f.on_page(vec![machine(4)], (2, 2), true, FleetSource::List);
        assert_eq!((f.equipments.len(), f.loading), (2, false));
        assert_eq!(f.name_of(4), "M-4");
        assert_eq!(f.name_of(9), "Equipment 9");
    }
}
