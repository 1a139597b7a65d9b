//! The fleet overview as files: its table as shown (CSV: the columns, the
//! filters and the order on screen) and its markers (GeoJSON points).

use std::io::Write;

use serde_json::{Value, json};

use super::cell::text_cell;
use super::error::ExportError;
use super::geojson::FeatureWriter;
use super::round::{Measure, measure_of, number_cell, number_json};
use fleetview_api::Timestamp;

/// A cell of the overview's table.
#[derive(Debug, Clone, PartialEq)]
pub enum FleetCell {
    /// Text from the service or the app (made safe for spreadsheets).
    Text(String),
    Number(f64),
    /// An instant, written in UTC.
    Time(i64),
    Empty,
}

/// The table as shown: headers (with units) and rows in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FleetTable {
    pub headers: Vec<String>,
    pub rows: Vec<Vec<FleetCell>>,
}

/// One machine on the fleet map.
#[derive(Debug, Clone, PartialEq)]
pub struct FleetMarker {
    pub id: i64,
    pub name: String,
    pub category: Option<String>,
    pub make: String,
    pub model: String,
    /// The state as shown (`Silent > 24 h`).
    pub state: String,
    pub last_report: Option<i64>,
    pub fuel_percent: Option<f64>,
    pub engine_hours_h: Option<f64>,
    pub faults_in_window: Option<usize>,
    pub latitude: f64,
    pub longitude: f64,
}

/// Writes the table; returns the rows written.
pub(crate) fn write_fleet_csv(table: &FleetTable, out: impl Write) -> Result<usize, ExportError> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(table.headers.iter().map(|h| text_cell(h).into_owned()))?;
    let measures: Vec<Measure> = table.headers.iter().map(|h| header_measure(h)).collect();
    for row in &table.rows {
        let cells: Vec<String> = row
            .iter()
            .zip(measures.iter().chain(std::iter::repeat(&Measure::Other)))
            .map(|(c, m)| match c {
                FleetCell::Text(s) => text_cell(s).into_owned(),
                FleetCell::Number(x) if x.is_finite() => number_cell(*m, *x),
                FleetCell::Time(t) => Timestamp::from_secs(*t).to_string(),
                FleetCell::Number(_) | FleetCell::Empty => String::new(),
            })
            .collect();
        w.write_record(&cells)?;
    }
    w.flush()?;
    Ok(table.rows.len())
}

/// What a column measures by its header: its unit in brackets (`Engine
/// hours (h)`, `Fuel (gal)`), or a percent named so (`Idle %`).
fn header_measure(header: &str) -> Measure {
    let unit = header
        .rsplit_once('(')
        .and_then(|(_, u)| u.strip_suffix(')'))
        .or_else(|| header.contains('%').then_some("%"));
    measure_of(header, unit)
}

fn finite(measure: Measure, x: Option<f64>) -> Value {
    number_json(measure, x.unwrap_or(f64::NAN))
}

/// Writes the markers as a GeoJSON FeatureCollection, one feature at a
/// time; returns how many.
pub(crate) fn write_fleet_geojson(
    markers: &[FleetMarker],
    out: impl Write,
) -> Result<usize, ExportError> {
    let mut w = FeatureWriter::start(out, Some("fleet"))?;
    for m in markers
        .iter()
        .filter(|m| m.latitude.is_finite() && m.longitude.is_finite())
    {
        w.feature(&json!({
            "type": "Feature",
            "id": m.id,
            "geometry": {"type": "Point", "coordinates": [
                number_json(Measure::Degrees, m.longitude),
                number_json(Measure::Degrees, m.latitude),
            ]},
            "properties": {
                "id": m.id,
                "name": m.name,
                "category": m.category,
                "make": m.make,
                "model": m.model,
                "state": m.state,
                "last_report": m.last_report.map(|t| Timestamp::from_secs(t).to_string()),
                "fuel_remaining_percent": finite(Measure::Percent, m.fuel_percent),
                "engine_hours_h": finite(Measure::Hours, m.engine_hours_h),
                "faults_in_window": m.faults_in_window,
            },
        }))?;
    }
    Ok(w.finish()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::is_formula;
    use proptest::prelude::*;

    #[test]
    fn the_table_keeps_its_order_units_and_empty_cells() {
        let table = FleetTable {
            headers: vec![
                "Name".into(),
                "Engine hours (h)".into(),
                "Last report (UTC)".into(),
            ],
            rows: vec![
                vec![
                    FleetCell::Text("EX-1".into()),
                    FleetCell::Number(12.5),
                    FleetCell::Time(1_750_000_000),
                ],
                vec![
                    FleetCell::Text("=cmd".into()),
                    FleetCell::Empty,
                    FleetCell::Empty,
                ],
            ],
        };
        let mut out = Vec::new();
        assert_eq!(write_fleet_csv(&table, &mut out).ok(), Some(2));
        let text = String::from_utf8(out).unwrap_or_default();
        assert_eq!(
            text,
            "Name,Engine hours (h),Last report (UTC)\nEX-1,12.5,2025-06-15T15:06:40Z\n'=cmd,,\n"
        );
    }

    #[test]
    fn markers_are_points_with_their_properties() {
        let m = FleetMarker {
            id: 7,
            name: "EX-7".into(),
            category: Some("Excavator".into()),
            make: "Volvo".into(),
            model: "EC220E".into(),
            state: "Silent > 24 h".into(),
            last_report: Some(1_750_000_000),
            fuel_percent: Some(55.0),
            engine_hours_h: None,
            faults_in_window: Some(2),
            latitude: 51.9,
            longitude: 4.4,
        };
        let mut out = Vec::new();
        assert_eq!(write_fleet_geojson(&[m], &mut out).ok(), Some(1));
        let doc: Value = serde_json::from_slice(&out).unwrap_or_default();
        let f = &doc["features"][0];
        assert_eq!(f["geometry"]["coordinates"], json!([4.4, 51.9]));
        assert_eq!(f["properties"]["state"], json!("Silent > 24 h"));
        assert_eq!(f["properties"]["engine_hours_h"], Value::Null);
        assert_eq!(
            f["properties"]["last_report"],
            json!("2025-06-15T15:06:40Z")
        );
    }

    proptest! {
        #[test]
        fn no_cell_is_a_formula_unless_a_number(texts in proptest::collection::vec(".{0,12}", 1..6), x in -1e6f64..1e6) {
            let table = FleetTable {
                // The app's own headers: a reader strips a byte-order
                // mark that would start the file.
                headers: (0..=texts.len()).map(|i| format!("c{i}")).collect(),
                rows: vec![texts.iter().map(|t| FleetCell::Text(t.clone())).chain([FleetCell::Number(x)]).collect()],
            };
            let mut out = Vec::new();
            write_fleet_csv(&table, &mut out).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let mut r = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(&out[..]);
            for record in r.records() {
                let record = record.map_err(|e| TestCaseError::fail(e.to_string()))?;
                for cell in record.iter() {
                    prop_assert!(!is_formula(cell) || cell.parse::<f64>().is_ok(), "{cell}");
                }
            }
        }
    }
}
