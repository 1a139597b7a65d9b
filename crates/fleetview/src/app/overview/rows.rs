//! The overview's rows as shown: one per machine of the fleet list, joined
//! with its snapshot and window figures; filtered and sorted as the user
//! chose. The table, the map and the exports all read these rows, so they
//! always agree.

use fleetview_core::service::due::DueStatus;
use std::cmp::Ordering;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use fleetview_api::equipment::EquipmentSnapshot;
use fleetview_api::geo::LatLon;
use fleetview_api::model::EquipmentSummary;
use fleetview_core::analysis::{MachineFigures, MachineState, last_report, machine_state};

use super::attention::{AttentionFilter, MachineAttention};
use crate::app::loadable::Loadable;

/// The table's columns, in the order shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Column {
    Name,
    Category,
    Make,
    Model,
    Serial,
    State,
    LastReport,
    EngineHours,
    WindowHours,
    IdlePercent,
    Fuel,
    Faults,
    Flags,
    Source,
    /// Where its services stand (the service book's plans).
    Service,
}

impl Column {
    pub const ALL: [Column; 15] = [
        Column::Name,
        Column::Category,
        Column::Make,
        Column::Model,
        Column::Serial,
        Column::State,
        Column::LastReport,
        Column::EngineHours,
        Column::WindowHours,
        Column::IdlePercent,
        Column::Fuel,
        Column::Faults,
        Column::Flags,
        Column::Source,
        Column::Service,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Column::Name => "Name",
            Column::Category => "Category",
            Column::Make => "Make",
            Column::Model => "Model",
            Column::Serial => "Serial number",
            Column::State => "State",
            Column::LastReport => "Last report",
            Column::EngineHours => "Engine hours",
            Column::WindowHours => "Hours in window",
            Column::IdlePercent => "Idle % in window",
            Column::Fuel => "Fuel remaining",
            Column::Faults => "Faults in window",
            Column::Flags => "Flags",
            Column::Source => "Data source",
            Column::Service => "Service",
        }
    }

    /// Whether its values come from each machine's window figures (read
    /// in the background, machine by machine).
    pub fn from_figures(self) -> bool {
        matches!(
            self,
            Column::WindowHours | Column::IdlePercent | Column::Faults | Column::Source
        )
    }

    /// The direction of a first click: the most recent, the most hours,
    /// the worst faults first; names A to Z.
    pub fn first_descending(self) -> bool {
        matches!(
            self,
            Column::LastReport
                | Column::EngineHours
                | Column::WindowHours
                | Column::IdlePercent
                | Column::Faults
                | Column::Flags
                | Column::Service
        )
    }
}

/// The sort: the machines that need attention first (worst first, the
/// default), or a column and its direction (a click on its header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "SavedSort")]
pub struct Sort {
    pub column: Column,
    pub descending: bool,
    /// Sorted by need of attention rather than by `column`.
    pub attention_first: bool,
}

/// A sort as saved: one saved before the attention sort existed keeps a
/// column the user chose, and takes the new default otherwise.
#[derive(Deserialize)]
struct SavedSort {
    column: Column,
    descending: bool,
    /// Written as a plain `true`/`false`, which RON (eframe's format)
    /// does not read as an `Option`.
    #[serde(default, deserialize_with = "some_bool")]
    attention_first: Option<bool>,
}

fn some_bool<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    bool::deserialize(d).map(Some)
}

impl From<SavedSort> for Sort {
    fn from(s: SavedSort) -> Self {
        Sort {
            column: s.column,
            descending: s.descending,
            attention_first: s
                .attention_first
                .unwrap_or(s.column == Column::Name && !s.descending),
        }
    }
}

impl Default for Sort {
    fn default() -> Self {
        Self {
            column: Column::Name,
            descending: false,
            attention_first: true,
        }
    }
}

impl Sort {
    /// What a click on a column's header makes of this sort.
    pub fn clicked(self, column: Column) -> Sort {
        if self.column == column && !self.attention_first {
            Sort {
                column,
                descending: !self.descending,
                attention_first: false,
            }
        } else {
            Sort {
                column,
                descending: column.first_descending(),
                attention_first: false,
            }
        }
    }
}

/// What the overview shows (none: everything). Kept across restarts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Filters {
    /// Every word in the name, make, model, serial or id (the picker's
    /// search).
    pub text: String,
    pub category: Option<String>,
    /// Company (the service's `entreprise`).
    pub company: Option<String>,
    pub make: Option<String>,
    pub state: Option<MachineState>,
    /// A count of the "needs attention" strip: not kept across restarts
    /// (a morning's filter would hide machines the next one).
    #[serde(skip)]
    pub attention: Option<AttentionFilter>,
}

impl Filters {
    pub fn is_empty(&self) -> bool {
        *self == Filters::default()
    }
}

/// One machine as the overview shows it. Text lives in the fleet list
/// (`index`); what is computed is here.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FleetRow {
    /// Into the fleet list.
    pub index: usize,
    pub id: i64,
    pub last_report: Option<i64>,
    pub state: MachineState,
    /// Open faults: any in the window.
    pub faulty: bool,
    pub position: Option<LatLon>,
}

/// Where a snapshot last placed its machine, if that is a place on Earth
/// (0, 0 is a tracker's "no fix").
pub fn snapshot_position(snapshot: &EquipmentSnapshot) -> Option<LatLon> {
    let p = snapshot.last_position.as_ref()?;
    match (p.latitude, p.longitude) {
        (Some(lat), Some(lon))
            if lat.is_finite()
                && lon.is_finite()
                && lat.abs() <= 90.0
                && lon.abs() <= 180.0
                && !(lat == 0.0 && lon == 0.0) =>
        {
            Some(LatLon { lat, lon })
        }
        _ => None,
    }
}

/// What the rows are made from.
#[derive(Debug)]
pub struct RowInputs<'a> {
    pub fleet: &'a [EquipmentSummary],
    pub snapshots: &'a HashMap<i64, EquipmentSnapshot>,
    pub figures: &'a HashMap<i64, Loadable<MachineFigures>>,
    /// What each machine needs attention for, over the look-back.
    pub attention: &'a HashMap<i64, MachineAttention>,
    /// Each planned machine's services: the worst status, in words.
    pub service: &'a HashMap<i64, (DueStatus, String)>,
    /// Whether the figures' window reaches now (so the engine's last
    /// event says whether it runs now).
    pub window_reaches_now: bool,
    /// Whether snapshots are still to come: a machine without one is then
    /// loading, not "never reported".
    pub snapshots_pending: bool,
    pub now: i64,
}

impl RowInputs<'_> {
    fn figures(&self, id: i64) -> Option<&MachineFigures> {
        self.figures.get(&id).and_then(Loadable::value)
    }

    pub fn row(&self, index: usize, e: &EquipmentSummary) -> FleetRow {
        let snapshot = self.snapshots.get(&e.id);
        let figures = self.figures(e.id);
        let last = snapshot.and_then(last_report);
        let position = snapshot.and_then(snapshot_position);
        let state = if snapshot.is_none() && self.snapshots_pending {
            MachineState::Pending
        } else {
            machine_state(
                last,
                figures.and_then(|f| f.engine),
                self.window_reaches_now,
                self.now,
            )
        };
        FleetRow {
            index,
            id: e.id,
            last_report: last,
            state,
            faulty: figures.is_some_and(|f| f.faults.count > 0),
            position,
        }
    }

    /// The rows that pass the filters, sorted.
    pub fn rows(&self, filters: &Filters, sort: Sort) -> Vec<FleetRow> {
        let mut rows: Vec<FleetRow> = self
            .fleet
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                e.matches(&filters.text)
                    && same(&filters.category, e.category.as_deref())
                    && same(&filters.company, e.entreprise.as_deref())
                    && same(&filters.make, Some(e.make.as_str()))
            })
            .map(|(i, e)| self.row(i, e))
            .filter(|r| filters.state.is_none_or(|s| s == r.state))
            .filter(|r| {
                filters
                    .attention
                    .as_ref()
                    .is_none_or(|f| f.matches(self.items(r.id)))
            })
            .collect();
        rows.sort_by(|a, b| self.compare(a, b, sort));
        rows
    }

    /// Known values in the chosen direction; unknown ones last whatever
    /// the direction; ties by name, then id.
    fn compare(&self, a: &FleetRow, b: &FleetRow, sort: Sort) -> Ordering {
        let by_name = || {
            let (ea, eb) = (&self.fleet[a.index], &self.fleet[b.index]);
            ea.name.cmp(&eb.name).then(ea.id.cmp(&eb.id))
        };
        if sort.attention_first {
            let rank = |r: &FleetRow| self.attention.get(&r.id).map(|m| m.rank);
            return rank(b).cmp(&rank(a)).then_with(by_name);
        }
        let (ka, kb) = (self.key(a, sort.column), self.key(b, sort.column));
        let by_key = match (ka, kb) {
            (Some(x), Some(y)) => {
                let o = x.cmp(&y);
                if sort.descending { o.reverse() } else { o }
            }
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        by_key.then_with(by_name)
    }

    fn items(&self, id: i64) -> &[fleetview_core::analysis::Attention] {
        self.attention.get(&id).map_or(&[], |m| &m.items)
    }

    fn key(&self, r: &FleetRow, column: Column) -> Option<Key> {
        let e = &self.fleet[r.index];
        let snapshot = self.snapshots.get(&r.id);
        let figures = self.figures(r.id);
        let text = |s: &str| (!s.is_empty()).then(|| Key::Text(natural(s)));
        match column {
            Column::Name => text(&e.name),
            Column::Category => e.category.as_deref().and_then(text),
            Column::Make => text(&e.make),
            Column::Model => text(&e.model),
            Column::Serial => text(&e.serial_number),
            Column::State => Some(Key::Int(r.state as i64)),
            Column::LastReport => r.last_report.map(Key::Int),
            Column::EngineHours => engine_hours(snapshot).map(Key::num),
            Column::WindowHours => figures.and_then(|f| f.engine_hours_h).map(Key::num),
            Column::IdlePercent => figures.and_then(|f| f.idle_percent()).map(Key::num),
            Column::Fuel => fuel_percent(snapshot).map(Key::num),
            Column::Faults => figures.map(|f| {
                let (severity, count) = f.faults.rank();
                Key::Pair(severity, count as i64)
            }),
            Column::Flags => Some(Key::Int(self.items(r.id).len() as i64)),
            Column::Source => figures
                .and_then(|f| f.feed)
                .map(|k| Key::Text(k.label().to_owned())),
            // Overdue first when sorted descending: the status's rank turned.
            Column::Service => self
                .service
                .get(&r.id)
                .map(|(s, _)| Key::Int(3 - *s as i64)),
        }
    }
}

/// A text's sort key: case left aside, and runs of digits compared as
/// numbers (`CE-187` before `CE-1659`).
fn natural(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if !digits.is_empty() {
            let trimmed = digits.trim_start_matches('0');
            // The length first, then the digits: longer numbers are larger.
            out.push_str(&format!("{:04}", trimmed.len()));
            out.push_str(trimmed);
            digits.clear();
        }
    };
    for c in s.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            flush(&mut digits, &mut out);
            out.extend(c.to_lowercase());
        }
    }
    flush(&mut digits, &mut out);
    out
}

fn same(wanted: &Option<String>, value: Option<&str>) -> bool {
    wanted.as_deref().is_none_or(|w| value == Some(w))
}

/// A sort key: numbers compare as numbers (total order, NaN never comes
/// from a reading: `reading` keeps only finite JSON numbers).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Int(i64),
    Pair(i64, i64),
    Num(OrdF64),
    Text(String),
}

impl Key {
    fn num(x: f64) -> Key {
        Key::Num(OrdF64(x))
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct OrdF64(f64);
impl Eq for OrdF64 {}
impl PartialOrd for OrdF64 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for OrdF64 {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Cumulative engine hours from a snapshot.
pub fn engine_hours(s: Option<&EquipmentSnapshot>) -> Option<f64> {
    s?.cumulative_operating_hours.as_ref()?.hour
}

/// Fuel remaining (%) from a snapshot.
pub fn fuel_percent(s: Option<&EquipmentSnapshot>) -> Option<f64> {
    s?.fuel_remaining.as_ref()?.percent
}

/// The distinct values of a text field over the fleet, sorted: the
/// choices of a filter.
pub fn choices<'a>(
    fleet: &'a [EquipmentSummary],
    field: impl Fn(&'a EquipmentSummary) -> Option<&'a str>,
) -> Vec<String> {
    let mut out: Vec<String> = fleet
        .iter()
        .filter_map(field)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::equipment::{SnapOperatingHours, SnapPosition};
    use fleetview_api::time::Timestamp;
    use fleetview_core::analysis::FaultTally;

    const NOW: i64 = 1_750_000_000;

    fn machine(id: i64, name: &str, category: &str) -> EquipmentSummary {
        EquipmentSummary {
            id,
            name: name.into(),
            make: "Volvo".into(),
            model: "X".into(),
            serial_number: format!("S{id}"),
            category: Some(category.into()),
            ..Default::default()
        }
    }

    fn snapshot(id: i64, last: i64, hours: f64) -> EquipmentSnapshot {
        EquipmentSnapshot {
            id,
            last_position: Some(SnapPosition {
                date: Some(Timestamp::from_secs(last)),
                latitude: Some(51.0),
                longitude: Some(4.0),
            }),
            cumulative_operating_hours: Some(SnapOperatingHours {
                date: Some(Timestamp::from_secs(last)),
                hour: Some(hours),
                usage_hours: None,
            }),
            ..Default::default()
        }
    }

    struct Fixture {
        fleet: Vec<EquipmentSummary>,
        snapshots: HashMap<i64, EquipmentSnapshot>,
        figures: HashMap<i64, Loadable<MachineFigures>>,
        attention: HashMap<i64, MachineAttention>,
        service: HashMap<i64, (DueStatus, String)>,
    }

    impl Fixture {
        fn new() -> Self {
            let fleet = vec![
                machine(1, "B-truck", "Road truck"),
                machine(2, "A-dig", "Excavator"),
                machine(3, "C-dig", "Excavator"),
                machine(4, "D-new", "Excavator"),
            ];
            let snapshots = [
                snapshot(1, NOW - 3600, 100.0),
                snapshot(2, NOW - 2 * 86_400, 900.0),
                snapshot(3, NOW - 60, 50.0),
            ]
            .into_iter()
            .map(|s| (s.id, s))
            .collect();
            let mut figures = HashMap::new();
            figures.insert(
                3,
                Loadable::Ready(MachineFigures {
                    engine_hours_h: Some(10.0),
                    faults: FaultTally {
                        count: 2,
                        worst_severity: Some(2),
                        worst_label: Some("Critical".into()),
                    },
                    ..Default::default()
                }),
            );
            figures.insert(1, Loadable::Pending { previous: None });
            Self {
                fleet,
                snapshots,
                figures,
                attention: HashMap::new(),
                service: HashMap::new(),
            }
        }

        fn inputs(&self) -> RowInputs<'_> {
            RowInputs {
                fleet: &self.fleet,
                snapshots: &self.snapshots,
                figures: &self.figures,
                attention: &self.attention,
                service: &self.service,
                window_reaches_now: true,
                snapshots_pending: false,
                now: NOW,
            }
        }

        fn ids(&self, filters: &Filters, sort: Sort) -> Vec<i64> {
            self.inputs()
                .rows(filters, sort)
                .iter()
                .map(|r| r.id)
                .collect()
        }
    }

    #[test]
    fn the_most_recent_report_comes_first_and_unknown_last_either_way() {
        let f = Fixture::new();
        let sort = Sort::default().clicked(Column::LastReport);
        assert!(sort.descending);
        assert_eq!(f.ids(&Filters::default(), sort), vec![3, 1, 2, 4]);
        assert_eq!(
            f.ids(&Filters::default(), sort.clicked(Column::LastReport)),
            vec![2, 1, 3, 4]
        );
    }

    #[test]
    fn a_figure_column_sorts_what_is_known_and_leaves_the_rest_by_name() {
        let f = Fixture::new();
        let sort = Sort::default().clicked(Column::Faults);
        assert_eq!(f.ids(&Filters::default(), sort), vec![3, 2, 1, 4]);
        let hours = Sort::default().clicked(Column::EngineHours);
        assert_eq!(f.ids(&Filters::default(), hours), vec![2, 1, 3, 4]);
    }

    #[test]
    fn filters_combine() {
        let f = Fixture::new();
        let excavators = Filters {
            category: Some("Excavator".into()),
            ..Default::default()
        };
        assert_eq!(f.ids(&excavators, Sort::default()), vec![2, 3, 4]);
        let silent = Filters {
            state: Some(MachineState::Silent),
            ..excavators.clone()
        };
        assert_eq!(f.ids(&silent, Sort::default()), vec![2]);
        let text = Filters {
            text: "dig".into(),
            ..Default::default()
        };
        assert_eq!(f.ids(&text, Sort::default()), vec![2, 3]);
    }

    #[test]
    fn rows_carry_state_faults_and_position() {
        let f = Fixture::new();
        let rows = f.inputs().rows(&Filters::default(), Sort::default());
        let by_id = |id| rows.iter().find(|r| r.id == id).copied();
        let c = by_id(3).expect("row 3");
        assert!(c.faulty);
        assert_eq!(c.state, MachineState::ReportedToday);
        assert_eq!(by_id(2).map(|r| r.state), Some(MachineState::Silent));
        assert_eq!(
            by_id(4).map(|r| (r.state, r.position)),
            Some((MachineState::Unknown, None))
        );
        assert!(by_id(1).is_some_and(|r| r.position.is_some() && !r.faulty));
    }

    #[test]
    fn names_sort_by_their_numbers_and_without_case() {
        let mut names = vec!["CE-1659", "ce-187", "CE-167", "CE-0020", "CE-1679", "Ab"];
        names.sort_by_key(|n| natural(n));
        assert_eq!(
            names,
            vec!["Ab", "CE-0020", "CE-167", "ce-187", "CE-1659", "CE-1679"]
        );
    }

    #[test]
    fn a_machine_whose_snapshot_is_still_to_come_is_loading_not_silent() {
        let f = Fixture::new();
        let inputs = RowInputs {
            snapshots_pending: true,
            ..f.inputs()
        };
        let rows = inputs.rows(&Filters::default(), Sort::default());
        let state = |id| rows.iter().find(|r| r.id == id).map(|r| r.state);
        assert_eq!(state(4), Some(MachineState::Pending));
        assert_eq!(state(2), Some(MachineState::Silent), "its snapshot came");
    }

    #[test]
    fn attention_sorts_worst_first_by_default_and_filters_but_a_header_click_sorts_its_column() {
        use fleetview_core::analysis::{Attention, AttentionKind, AttentionRank};
        let mut f = Fixture::new();
        let item = |kind| Attention {
            kind,
            text: String::new(),
            at: None,
            position: None,
            level: None,
        };
        for (id, kind) in [(4, AttentionKind::Gap), (1, AttentionKind::FuelDrop)] {
            let items = vec![item(kind)];
            let rank = AttentionRank::of(&items);
            f.attention.insert(id, MachineAttention { rank, items });
        }
        assert_eq!(
            f.ids(&Filters::default(), Sort::default()),
            vec![1, 4, 2, 3]
        );
        let by_name = Sort::default().clicked(Column::Name);
        assert_eq!(f.ids(&Filters::default(), by_name), vec![2, 1, 3, 4]);
        let gaps = Filters {
            attention: Some(AttentionFilter::Kind(AttentionKind::Gap)),
            ..Default::default()
        };
        assert_eq!(f.ids(&gaps, by_name), vec![4]);
        // A sort saved before: a column chosen stays, the default moves on.
        let saved = |json| serde_json::from_str::<Sort>(json).expect("a sort");
        assert!(saved(r#"{"column":"Name","descending":false}"#).attention_first);
        assert!(!saved(r#"{"column":"LastReport","descending":true}"#).attention_first);
    }

    #[test]
    fn choices_are_distinct_and_sorted() {
        let f = Fixture::new();
        assert_eq!(
            choices(&f.fleet, |e| e.category.as_deref()),
            vec!["Excavator".to_owned(), "Road truck".to_owned()]
        );
    }
}
