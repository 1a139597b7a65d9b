//! Files of what the app shows, for its Export menus: the data handed over
//! is exactly what the panel shows (its equipment, window, filters and
//! order), and it is written here, off the UI thread, by the worker.
//! Over 700 lines because of its tests (about 280), which check each
//! content's file against what the panel showed.

use std::io::Write;
use std::sync::Arc;

use serde_json::{Value, json};

use super::cell::text_cell;
use super::error::ExportError;
use super::fleet::{self, FleetMarker, FleetTable};
use super::geo;
use super::geojson::FeatureWriter;
use super::round::{Measure, number_cell, number_json};
use super::table::{value_cell, write_daily_csv};
use super::units::in_units;
use crate::series::{ChannelKind, PlotSeries, Series, Track, decode_rows};
use fleetview_api::model::EngineEvent;
use fleetview_api::model::{ActivityRow, EquipmentHistory, FaultRow, PositionRow};
use fleetview_api::units::{Conversion, Quantity, UnitSystem};
use fleetview_api::{DataKind, Timestamp};

/// How positions are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GeoFormat {
    Gpx,
    GeoJson,
}

/// Which export a piece of content is, whatever its rows: one of each may
/// be under way at a time.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ExportKey {
    Positions(GeoFormat),
    /// A plotted channel: its kind and its name in the series.
    Channel(DataKind, String),
    Faults,
    ActivitiesCsv,
    ActivitiesGeoJson,
    DailyHistory,
    FleetTable,
    FleetMarkers,
    Service(ServiceFile),
}

/// A file of the service book's: its plans, its services done, or the
/// upcoming services as a calendar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ServiceFile {
    Plans,
    Done,
    Calendar,
}

/// What to write. Cheap to clone: big data is shared, not copied.
#[derive(Clone)]
pub enum ExportContent {
    /// The map's track, one point per position.
    Positions {
        track: Arc<Track>,
        format: GeoFormat,
        /// The track's name in the file: the machine and the window.
        name: String,
    },
    /// One plotted channel: date, value, unit (as shown), estimated.
    Channel {
        kind: DataKind,
        series: Arc<PlotSeries>,
        channel: usize,
        unit: String,
    },
    /// The fault rows shown, in the order shown.
    Faults(Vec<FaultRow>),
    /// The activities as a table.
    ActivitiesCsv(Vec<ActivityRow>),
    /// The activities as lines along the track's positions.
    ActivitiesGeoJson {
        rows: Vec<ActivityRow>,
        track: Arc<Track>,
    },
    /// The daily usage table of the history.
    DailyHistory(Arc<EquipmentHistory>),
    /// The fleet overview's table as shown.
    FleetTable(Arc<FleetTable>),
    /// The fleet map's markers.
    FleetMarkers(Arc<Vec<FleetMarker>>),
    /// A file of the service book, its bytes made by the app's model
    /// (`crate::service::write`: a few rows per plan).
    Service {
        file: ServiceFile,
        bytes: Arc<Vec<u8>>,
    },
}

impl std::fmt::Debug for ExportContent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// Same content: the same rows, or the very same shared data.
impl PartialEq for ExportContent {
    fn eq(&self, other: &Self) -> bool {
        use ExportContent as E;
        match (self, other) {
            (
                E::Positions {
                    track: a,
                    format: f,
                    name: m,
                },
                E::Positions {
                    track: b,
                    format: g,
                    name: n,
                },
            ) => Arc::ptr_eq(a, b) && f == g && m == n,
            (
                E::Channel {
                    kind: k,
                    series: a,
                    channel: c,
                    unit: u,
                },
                E::Channel {
                    kind: l,
                    series: b,
                    channel: d,
                    unit: v,
                },
            ) => k == l && Arc::ptr_eq(a, b) && c == d && u == v,
            (E::Faults(a), E::Faults(b)) => a == b,
            (E::ActivitiesCsv(a), E::ActivitiesCsv(b)) => a == b,
            (
                E::ActivitiesGeoJson { rows: a, track: t },
                E::ActivitiesGeoJson { rows: b, track: u },
            ) => a == b && Arc::ptr_eq(t, u),
            (E::DailyHistory(a), E::DailyHistory(b)) => a == b,
            (E::FleetTable(a), E::FleetTable(b)) => a == b,
            (E::FleetMarkers(a), E::FleetMarkers(b)) => a == b,
            (E::Service { file: f, bytes: a }, E::Service { file: g, bytes: b }) => {
                f == g && Arc::ptr_eq(a, b)
            }
            _ => false,
        }
    }
}

impl ExportContent {
    pub fn key(&self) -> ExportKey {
        match self {
            ExportContent::Positions { format, .. } => ExportKey::Positions(*format),
            ExportContent::Channel {
                kind,
                series,
                channel,
                ..
            } => ExportKey::Channel(
                *kind,
                series
                    .series
                    .channels
                    .get(*channel)
                    .map_or_else(String::new, |c| c.name.clone()),
            ),
            ExportContent::Faults(_) => ExportKey::Faults,
            ExportContent::ActivitiesCsv(_) => ExportKey::ActivitiesCsv,
            ExportContent::ActivitiesGeoJson { .. } => ExportKey::ActivitiesGeoJson,
            ExportContent::DailyHistory(_) => ExportKey::DailyHistory,
            ExportContent::FleetTable(_) => ExportKey::FleetTable,
            ExportContent::FleetMarkers(_) => ExportKey::FleetMarkers,
            ExportContent::Service { file, .. } => ExportKey::Service(*file),
        }
    }

    /// What it is, for file names and messages: `positions (GPX)`.
    pub fn describe(&self) -> String {
        match self {
            ExportContent::Positions { format, .. } => match format {
                GeoFormat::Gpx => "positions (GPX)".into(),
                GeoFormat::GeoJson => "positions (GeoJSON)".into(),
            },
            ExportContent::Channel {
                kind,
                series,
                channel,
                ..
            } => series.series.channels.get(*channel).map_or_else(
                || format!("{} (CSV)", kind.display_name()),
                |c| format!("{} (CSV)", crate::series::names::titled(*kind, &c.name)),
            ),
            ExportContent::Faults(_) => "faults (CSV)".into(),
            ExportContent::ActivitiesCsv(_) => "activities (CSV)".into(),
            ExportContent::ActivitiesGeoJson { .. } => "activities (GeoJSON)".into(),
            ExportContent::DailyHistory(_) => "daily history (CSV)".into(),
            ExportContent::FleetTable(_) => "fleet table (CSV)".into(),
            ExportContent::FleetMarkers(_) => "fleet markers (GeoJSON)".into(),
            ExportContent::Service { file, .. } => match file {
                ServiceFile::Plans => "service plans (CSV)".into(),
                ServiceFile::Done => "services done (CSV)".into(),
                ServiceFile::Calendar => "upcoming services (iCalendar)".into(),
            },
        }
    }

    /// About the whole fleet, not one machine.
    pub fn is_fleet(&self) -> bool {
        matches!(
            self,
            ExportContent::FleetTable(_)
                | ExportContent::FleetMarkers(_)
                | ExportContent::Service { .. }
        )
    }

    /// A short name for the file: `positions`, `fuelRemaining-percent`.
    pub fn stem(&self) -> String {
        match self {
            ExportContent::Positions { .. } => "positions".into(),
            ExportContent::Channel {
                kind,
                series,
                channel,
                ..
            } => {
                // The kind and the channel: two kinds may both have a
                // `voltage` or a `temperature`.
                let name = series
                    .series
                    .channels
                    .get(*channel)
                    .map_or("channel", |c| c.name.as_str());
                format!("{}-{name}", kind.wire())
            }
            ExportContent::Faults(_) => "faults".into(),
            ExportContent::ActivitiesCsv(_) | ExportContent::ActivitiesGeoJson { .. } => {
                "activities".into()
            }
            ExportContent::DailyHistory(_) => "daily-history".into(),
            ExportContent::FleetTable(_) => "table".into(),
            ExportContent::FleetMarkers(_) => "markers".into(),
            ExportContent::Service { file, .. } => match file {
                ServiceFile::Plans => "service-plans".into(),
                ServiceFile::Done => "services-done".into(),
                ServiceFile::Calendar => "services".into(),
            },
        }
    }

    pub fn extension(&self) -> &'static str {
        match self {
            ExportContent::Positions {
                format: GeoFormat::Gpx,
                ..
            } => "gpx",
            ExportContent::Positions {
                format: GeoFormat::GeoJson,
                ..
            }
            | ExportContent::ActivitiesGeoJson { .. }
            | ExportContent::FleetMarkers(_) => "geojson",
            ExportContent::Service {
                file: ServiceFile::Calendar,
                ..
            } => "ics",
            _ => "csv",
        }
    }

    /// Writes the file's bytes, tables' values in `units` (positions and
    /// GeoJSON keep their standards' metric units); returns the rows (or
    /// points) written.
    pub fn write(&self, mut out: impl Write, units: UnitSystem) -> Result<usize, ExportError> {
        match self {
            ExportContent::Positions {
                track,
                format,
                name,
            } => {
                // Row by row from the track: no copy of it is made.
                let rows = positions(track);
                let skipped = match format {
                    GeoFormat::Gpx => geo::write_gpx(rows, name, &mut out)?,
                    GeoFormat::GeoJson => geo::write_geojson(rows, name, &mut out)?,
                };
                Ok(track.samples.len() - skipped)
            }
            ExportContent::Channel {
                kind,
                series,
                channel,
                unit,
            } => {
                // The channel alone, in the units chosen (as plotted).
                let one = Series {
                    channels: series
                        .series
                        .channels
                        .get(*channel)
                        .cloned()
                        .into_iter()
                        .collect(),
                    ..series.series.clone()
                };
                let one = in_units(&one, units);
                // Converted: the unit it is now in; else the unit as shown.
                let unit = match (&one, one.channels.first().and_then(|c| c.unit.as_deref())) {
                    (std::borrow::Cow::Owned(_), Some(u)) => u.to_owned(),
                    _ => unit.clone(),
                };
                write_channel(*kind, &one, 0, &unit, out)?;
                Ok(series.series.len())
            }
            ExportContent::Faults(rows) => write_faults(rows, out),
            ExportContent::FleetTable(table) => fleet::write_fleet_csv(table, out),
            ExportContent::FleetMarkers(markers) => fleet::write_fleet_geojson(markers, out),
            ExportContent::Service { file, bytes } => {
                out.write_all(bytes).map_err(ExportError::Io)?;
                // Rows: a CSV's lines less the header, a calendar's events.
                Ok(match file {
                    ServiceFile::Calendar => bytes
                        .split(|b| *b == b'\n')
                        .filter(|l| l.starts_with(b"BEGIN:VEVENT"))
                        .count(),
                    _ => bytes
                        .iter()
                        .filter(|b| **b == b'\n')
                        .count()
                        .saturating_sub(1),
                })
            }
            ExportContent::ActivitiesCsv(rows) => write_activities(rows, units, out),
            ExportContent::ActivitiesGeoJson { rows, track } => {
                write_activities_geojson(rows, track, out)
            }
            ExportContent::DailyHistory(history) => {
                // The same table as `fleetview export --kind history`.
                let rows = serde_json::to_vec(&history.daily_usages.rows)?;
                let series = decode_rows(&rows).map_err(|crate::series::DecodeError::Json(e)| e)?;
                write_daily_csv(&in_units(&series, units), out)?;
                Ok(series.len())
            }
        }
    }
}

/// A plotted channel's entry in the export menu: its name and the unit its
/// file is written in (`Engine coolant temperature (°F) (CSV)…`).
pub fn channel_label(
    kind: DataKind,
    series: &PlotSeries,
    channel: usize,
    units: UnitSystem,
) -> String {
    let Some(c) = series.series.channels.get(channel) else {
        return format!("{} (CSV)…", kind.display_name());
    };
    let unit = series.shown_unit(channel, kind.unit());
    // The unit the file is written in: converted as `write` converts it.
    let unit = match units.conversion(unit) {
        Some((conversion, shown)) if conversion != Conversion::SAME => shown,
        _ => unit,
    };
    let name = crate::series::names::titled(kind, &c.name);
    format!("{} (CSV)…", crate::series::names::with_unit(&name, unit))
}

fn positions(track: &Track) -> impl Iterator<Item = PositionRow> + '_ {
    track.samples.iter().map(|s| PositionRow {
        date: Timestamp::from_parts(s.time, s.subsec_ms),
        latitude: s.lat,
        longitude: s.lon,
        altitude: s.altitude_m(),
        speed: s.speed_kmh(),
        heading: s.heading_deg(),
    })
}

/// `date,value,unit,estimated`: one line per row of the series (a row
/// without this field has an empty value, so none is lost). Engine
/// conditions are written as shown, `started`/`stopped` (D10), with the
/// service's raw flag beside them (`date,value,raw,unit,estimated`).
fn write_channel(
    kind: DataKind,
    s: &Series,
    channel: usize,
    unit: &str,
    out: impl Write,
) -> Result<(), ExportError> {
    let c = s
        .channels
        .get(channel)
        .ok_or_else(|| std::io::Error::other("that channel is no longer plotted"))?;
    let engine = kind == DataKind::EngineCondition && c.kind == ChannelKind::Boolean;
    let mut w = csv::Writer::from_writer(out);
    if engine {
        w.write_record(["date", "value", "raw", "unit", "estimated"])?;
    } else {
        w.write_record(["date", "value", "unit", "estimated"])?;
    }
    let unit = text_cell(unit);
    for row in 0..s.len() {
        let v = c.values.get(row).copied().unwrap_or(f64::NAN);
        let value = value_cell(c, row);
        let estimated = c
            .estimated_at(row)
            .map(|e| e.to_string())
            .unwrap_or_default();
        let date = s.instant(row).to_string();
        if engine {
            let shown = if v.is_nan() {
                ""
            } else {
                EngineEvent::from_running_flag(v != 0.0).label()
            };
            w.write_record([date.as_str(), shown, &value, &unit, &estimated])?;
        } else {
            w.write_record([date.as_str(), &value, &unit, &estimated])?;
        }
    }
    w.flush()?;
    Ok(())
}

fn write_faults(rows: &[FaultRow], out: impl Write) -> Result<usize, ExportError> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(["date", "severity", "level", "identifier", "description"])?;
    for f in rows {
        w.write_record([
            f.date.to_string(),
            f.severity.map(|s| s.to_string()).unwrap_or_default(),
            text_cell(f.level()).into_owned(),
            text_cell(&f.identifier).into_owned(),
            text_cell(&f.description).into_owned(),
        ])?;
    }
    w.flush()?;
    Ok(rows.len())
}

/// An activity's fields, named alike in its CSV columns and its GeoJSON
/// properties.
const ACTIVITY_FIELDS: [&str; 7] = [
    "start",
    "stop",
    "duration_secs",
    "distance_m",
    "average_speed_kmh",
    "from_address",
    "to_address",
];

/// An activity's length in whole seconds (from its instants' milliseconds).
fn duration_secs(a: &ActivityRow) -> i64 {
    a.date_stop
        .millis()
        .saturating_sub(a.date_start.millis())
        .div_euclid(1000)
}

fn write_activities(
    rows: &[ActivityRow],
    units: UnitSystem,
    out: impl Write,
) -> Result<usize, ExportError> {
    let mut w = csv::Writer::from_writer(out);
    // Imperial: the distance and speed columns in miles and mph, named so.
    let imperial = units == UnitSystem::Imperial;
    w.write_record(ACTIVITY_FIELDS.map(|f| match (f, imperial) {
        ("distance_m", true) => "distance_mi",
        ("average_speed_kmh", true) => "average_speed_mph",
        _ => f,
    }))?;
    let distance = |m: f64| {
        if imperial {
            units.from_metric(Quantity::Distance, m / 1000.0)
        } else {
            m
        }
    };
    // Miles to 0.01; metres as the service gives them, to 1 mm at most.
    let distance_measure = if imperial {
        Measure::Distance
    } else {
        Measure::Other
    };
    for a in rows {
        w.write_record([
            a.date_start.to_string(),
            a.date_stop.to_string(),
            duration_secs(a).to_string(),
            number_cell(distance_measure, distance(a.distance_meters)),
            number_cell(
                Measure::Rate,
                units.from_metric(Quantity::Speed, a.average_speed_km_h),
            ),
            text_cell(&a.first_position_address).into_owned(),
            text_cell(&a.last_position_address).into_owned(),
        ])?;
    }
    w.flush()?;
    Ok(rows.len())
}

/// One Feature per activity: a LineString through the track's positions
/// inside it (a Point for one position, no geometry for none), with the
/// activity's fields as properties; written one at a time.
fn write_activities_geojson(
    rows: &[ActivityRow],
    track: &Track,
    out: impl Write,
) -> Result<usize, ExportError> {
    let mut w = FeatureWriter::start(out, None)?;
    for a in rows {
        let range = track.range_of(a.date_start.0, a.date_stop.0);
        let coordinates: Vec<Value> = track.samples[range]
            .iter()
            .map(|s| {
                json!([
                    number_json(Measure::Degrees, s.lon),
                    number_json(Measure::Degrees, s.lat)
                ])
            })
            .collect();
        let geometry = match coordinates.len() {
            0 => Value::Null,
            1 => json!({"type": "Point", "coordinates": coordinates[0]}),
            _ => json!({"type": "LineString", "coordinates": coordinates}),
        };
        w.feature(&json!({
            "type": "Feature",
            "geometry": geometry,
            "properties": serde_json::Map::from_iter(ACTIVITY_FIELDS.iter().map(|k| (*k).to_owned()).zip([
                json!(a.date_start.to_string()),
                json!(a.date_stop.to_string()),
                json!(duration_secs(a)),
                number_json(Measure::Other, a.distance_meters),
                number_json(Measure::Rate, a.average_speed_km_h),
                json!(a.first_position_address),
                json!(a.last_position_address),
            ])),
        }))?;
    }
    Ok(w.finish()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::series::TrackSample;

    fn sample(time: i64, lat: f64, lon: f64) -> TrackSample {
        TrackSample::at(time, lat, lon)
    }

    fn activity(start: i64, stop: i64) -> ActivityRow {
        ActivityRow {
            date_start: Timestamp::from_secs(start),
            date_stop: Timestamp::from_secs(stop),
            distance_meters: 1200.0,
            average_speed_km_h: f64::NAN,
            first_position_address: "Quai, Lyon".into(),
            last_position_address: "Rue \"B\", Lyon".into(),
        }
    }

    fn text(content: &ExportContent) -> (usize, String) {
        text_in(content, UnitSystem::Metric)
    }

    fn text_in(content: &ExportContent, units: UnitSystem) -> (usize, String) {
        let mut out = Vec::new();
        let n = content.write(&mut out, units).expect("written");
        (n, String::from_utf8(out).expect("utf-8"))
    }

    #[test]
    fn imperial_tables_say_their_units_and_hold_the_converted_values() {
        let rows = br#"[{"date":"2025-06-01T00:00:00Z","fuelUsed":{"fuelUsed":37.85411784,"unit":"L","estimated":false}},
                        {"date":"2025-06-02T00:00:00Z","fuelUsed":{"fuelUsed":null,"unit":"L","estimated":true}}]"#;
        let series = Arc::new(PlotSeries::new(decode_rows(rows).expect("rows")));
        let channel = series
            .series
            .channels
            .iter()
            .position(|c| c.name == "fuelUsed.fuelUsed")
            .expect("the fuel channel");
        let content = ExportContent::Channel {
            kind: DataKind::DailyFuel,
            series,
            channel,
            unit: "L".into(),
        };
        let (_, metric) = text(&content);
        // Litres to 0.1, as every export writes them.
        assert!(metric.contains(",37.9,L,false"), "{metric}");
        let (n, imperial) = text_in(&content, UnitSystem::Imperial);
        assert_eq!(n, 2);
        let lines: Vec<&str> = imperial.lines().collect();
        assert_eq!(lines[0], "date,value,unit,estimated");
        let cells: Vec<&str> = lines[1].split(',').collect();
        assert!((cells[1].parse::<f64>().expect("a number") - 10.0).abs() < 1e-9);
        assert_eq!((cells[2], cells[3]), ("gal", "false"));
        let metric_line = metric.lines().nth(2).expect("second row");
        assert_eq!(
            lines[2],
            metric_line.replace(",L,", ",gal,"),
            "no value stays empty"
        );

        let (_, activities) = text_in(
            &ExportContent::ActivitiesCsv(vec![activity(0, 3600)]),
            UnitSystem::Imperial,
        );
        let header = activities.lines().next().expect("header");
        assert!(
            header.contains("distance_mi") && header.contains("average_speed_mph"),
            "{header}"
        );
        let row = activities.lines().nth(1).expect("a row");
        let miles: f64 = row
            .split(',')
            .nth(3)
            .expect("distance")
            .parse()
            .expect("miles");
        // Miles to 0.01.
        assert_eq!(miles, 0.75, "{row}");
    }

    /// Every cell of a CSV is either a number the app wrote or text no
    /// spreadsheet evaluates (D14).
    fn assert_no_formula(csv: &str) -> Result<(), proptest::test_runner::TestCaseError> {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(csv.as_bytes());
        for record in r.records() {
            let record =
                record.map_err(|e| proptest::test_runner::TestCaseError::fail(e.to_string()))?;
            for cell in &record {
                proptest::prop_assert!(
                    !crate::export::is_formula(cell) || cell.parse::<f64>().is_ok(),
                    "a formula cell {:?} in {:?}",
                    cell,
                    csv
                );
            }
        }
        Ok(())
    }

    /// Text from the service: any string, often one a spreadsheet would run.
    fn service_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![any::<String>(), "[=+@\\-\t\r][^\n]{0,20}"]
    }

    proptest::proptest! {
        #[test]
        fn no_csv_of_the_panels_holds_a_formula_from_the_service(
            a in service_text(), b in service_text(), c in service_text(), value in -1e6f64..1e6,
        ) {
            let faults = vec![FaultRow {
                date: Timestamp::from_secs(0),
                description: a.clone(),
                identifier: b.clone(),
                severity: Some(1),
                level_label: Some(c.clone()),
            }];
            assert_no_formula(&text(&ExportContent::Faults(faults)).1)?;
            let mut act = activity(0, 60);
            act.first_position_address = a.clone();
            act.last_position_address = b.clone();
            act.distance_meters = value;
            let (_, csv) = text(&ExportContent::ActivitiesCsv(vec![act]));
            assert_no_formula(&csv)?;
            // The app's own negative number stays a number.
            proptest::prop_assert!(csv.contains(&number_cell(Measure::Other, value)));
            let rows = serde_json::json!([
                {"date": "2025-06-01T00:00:00Z", "state": a, "level": value, "unit": c},
            ]);
            let series = Arc::new(PlotSeries::new(
                decode_rows(rows.to_string().as_bytes()).map_err(|e| proptest::test_runner::TestCaseError::fail(e.to_string()))?,
            ));
            for channel in 0..series.series.channels.len() {
                let content = ExportContent::Channel {
                    kind: DataKind::FuelRemaining,
                    series: series.clone(),
                    channel,
                    unit: c.clone(),
                };
                assert_no_formula(&text(&content).1)?;
            }
        }
    }

    #[test]
    fn a_channel_keeps_every_row_with_its_unit_and_flag() {
        let series = decode_rows(
            br#"[{"date":"2025-06-01T00:00:00Z","fuelUsed":{"fuelUsed":80.5,"unit":"L","estimated":true}},
                 {"date":"2025-06-02T00:00:00Z","fuelUsed":{"fuelUsed":null,"unit":"L","estimated":false}},
                 {"date":"2025-06-03T00:00:00Z","fuelUsed":{"fuelUsed":12,"unit":"L","estimated":false}}]"#,
        )
        .expect("rows");
        let series = Arc::new(PlotSeries::new(series));
        let channel = series
            .series
            .channels
            .iter()
            .position(|c| c.name == "fuelUsed.fuelUsed")
            .expect("channel");
        let unit = series.shown_unit(channel, "ignored").to_owned();
        let content = ExportContent::Channel {
            kind: DataKind::DailyFuel,
            series,
            channel,
            unit,
        };
        let (n, csv) = text(&content);
        assert_eq!(n, 3);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines,
            [
                "date,value,unit,estimated",
                "2025-06-01T00:00:00Z,80.5,L,true",
                "2025-06-02T00:00:00Z,,L,",
                "2025-06-03T00:00:00Z,12,L,false",
            ]
        );
        // The kind and the channel: unique per content.
        assert_eq!(content.stem(), "dailyFuel-fuelUsed.fuelUsed");
    }

    #[test]
    fn engine_conditions_are_written_as_shown_with_the_raw_flag_beside() {
        let series = decode_rows(
            br#"[{"date":"2025-06-01T06:00:00Z","running":false},
                 {"date":"2025-06-01T12:00:00Z","running":true}]"#,
        )
        .expect("rows");
        let content = ExportContent::Channel {
            kind: DataKind::EngineCondition,
            series: Arc::new(PlotSeries::new(series)),
            channel: 0,
            unit: String::new(),
        };
        let (n, csv) = text(&content);
        assert_eq!(n, 2);
        // D10: `running: false` is the engine starting, `true` it stopping.
        assert_eq!(
            csv.lines().collect::<Vec<_>>(),
            [
                "date,value,raw,unit,estimated",
                "2025-06-01T06:00:00Z,started,false,,",
                "2025-06-01T12:00:00Z,stopped,true,,",
            ]
        );
    }

    #[test]
    fn faults_are_written_in_the_order_given_with_their_shown_level() {
        let fault = |t, label: Option<&str>, id: &str| FaultRow {
            date: Timestamp::from_secs(t),
            description: "Coolant, high".into(),
            identifier: id.into(),
            severity: None,
            level_label: label.map(str::to_owned),
        };
        let rows = vec![fault(60, Some("error"), "B"), fault(0, None, "A")];
        let (n, csv) = text(&ExportContent::Faults(rows));
        assert_eq!(n, 2);
        let mut r = csv::Reader::from_reader(csv.as_bytes());
        let records: Vec<csv::StringRecord> = r.records().map(|r| r.expect("record")).collect();
        assert_eq!(&records[0][2], "error");
        assert_eq!(&records[0][3], "B");
        assert_eq!(&records[1][2], "unknown");
        assert_eq!(&records[1][4], "Coolant, high");
    }

    #[test]
    fn activities_as_csv_and_as_lines_along_the_track() {
        let rows = vec![activity(0, 120), activity(500, 600), activity(1000, 1000)];
        let (n, csv) = text(&ExportContent::ActivitiesCsv(rows.clone()));
        assert_eq!(n, 3);
        assert!(
            csv.lines()
                .nth(1)
                .is_some_and(|l| l.contains(",120,1200,,"))
        );
        let track = Arc::new(Track::new(vec![
            sample(0, 45.0, 4.0),
            sample(60, 45.1, 4.1),
            sample(120, 45.2, 4.2),
            sample(1000, 45.3, 4.3),
        ]));
        let (n, json) = text(&ExportContent::ActivitiesGeoJson { rows, track });
        assert_eq!(n, 3);
        let doc: Value = serde_json::from_str(&json).expect("JSON");
        let f = doc["features"].as_array().expect("features");
        assert_eq!(f[0]["geometry"]["type"], "LineString");
        assert_eq!(
            f[0]["geometry"]["coordinates"].as_array().map(Vec::len),
            Some(3)
        );
        assert_eq!(f[1]["geometry"], Value::Null);
        assert_eq!(f[2]["geometry"]["type"], "Point");
        assert_eq!(f[0]["properties"]["average_speed_kmh"], Value::Null);
        assert_eq!(f[0]["properties"]["to_address"], "Rue \"B\", Lyon");
        // The same names as the CSV's columns, in the same order.
        let header: Vec<&str> = csv.lines().next().unwrap_or_default().split(',').collect();
        let mut names: Vec<&str> = f[0]["properties"]
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        names.sort_unstable();
        let mut sorted = header.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted, "same property names");
        assert_eq!(header, ACTIVITY_FIELDS);
    }

    #[test]
    fn positions_as_gpx_count_the_track_points() {
        let track = Arc::new(Track::new(vec![
            sample(0, 45.0, 4.0),
            sample(60, 45.1, 4.1),
        ]));
        let (n, gpx) = text(&ExportContent::Positions {
            track,
            format: GeoFormat::Gpx,
            name: "EX-001 Volvo EC220E, 2025-06-12 to 2025-06-18".into(),
        });
        assert_eq!((n, gpx.matches("<trkpt ").count()), (2, 2));
        assert!(gpx.contains("<name>EX-001 Volvo EC220E, 2025-06-12 to 2025-06-18</name>"));
    }

    #[test]
    fn every_panel_writes_the_services_milliseconds() {
        let at = Timestamp::from_millis(1_755_683_290_721);
        let fault: FaultRow = serde_json::from_value(json!({"date": "2025-08-20T09:48:10.721Z",
            "description": "d", "identifier": "i", "severity": "missing", "levelLabel": "missing"}))
        .expect("a fault");
        let (_, csv) = text(&ExportContent::Faults(vec![fault]));
        assert_eq!(
            csv.lines().nth(1),
            Some("2025-08-20T09:48:10.721Z,,unknown,i,d")
        );
        let mut a = activity(0, 0);
        (a.date_start, a.date_stop) = (at, Timestamp::from_millis(1_755_683_291_021));
        let (_, csv) = text(&ExportContent::ActivitiesCsv(vec![a]));
        let expected = "2025-08-20T09:48:10.721Z,2025-08-20T09:48:11.021Z,0,";
        assert!(
            csv.lines().nth(1).is_some_and(|l| l.starts_with(expected)),
            "{csv}"
        );
        let mut sample = sample(at.secs(), 45.0, 4.0);
        sample.subsec_ms = at.subsec_millis();
        let (track, format, name) = (
            Arc::new(Track::new(vec![sample])),
            GeoFormat::Gpx,
            "x".into(),
        );
        let (_, gpx) = text(&ExportContent::Positions {
            track,
            format,
            name,
        });
        assert!(
            gpx.contains("<time>2025-08-20T09:48:10.721Z</time>"),
            "{gpx}"
        );
        let rows = br#"[{"date":"2025-08-20T09:48:10.721Z","x":1},{"date":"2025-08-20T12:00:00+02:00","x":2}]"#;
        let series = Arc::new(PlotSeries::new(decode_rows(rows).expect("rows")));
        let (kind, channel, unit) = (DataKind::FuelRemaining, 0, String::new());
        let (_, csv) = text(&ExportContent::Channel {
            kind,
            series,
            channel,
            unit,
        });
        let lines: Vec<&str> = csv.lines().skip(1).collect();
        assert_eq!(
            lines,
            ["2025-08-20T09:48:10.721Z,1,,", "2025-08-20T10:00:00Z,2,,"]
        );
    }
}
