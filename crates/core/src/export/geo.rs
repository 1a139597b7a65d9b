//! Positions for map tools: GPX 1.1 (one `trkpt` per position, with its
//! time and elevation) and GeoJSON (RFC 7946: one Point per position, with
//! its time, speed, heading and altitude as properties).

use std::borrow::Borrow;
use std::io::Write;

use serde::Serialize;

use super::geojson::FeatureWriter;
use super::round::{Measure, number_cell, round, round_opt};
use fleetview_api::model::PositionRow;

/// Whether a row has a position a map can place.
pub fn placeable(r: &PositionRow) -> bool {
    r.latitude.is_finite()
        && r.longitude.is_finite()
        && (-90.0..=90.0).contains(&r.latitude)
        && (-180.0..=180.0).contains(&r.longitude)
}

/// Escapes text for XML content and attributes.
fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters other than tab and newlines are not XML.
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// Writes positions as a GPX track named `name`; returns how many rows
/// were left out for lack of a valid position.
pub fn write_gpx(
    rows: impl IntoIterator<Item = impl Borrow<PositionRow>>,
    name: &str,
    mut out: impl Write,
) -> std::io::Result<usize> {
    let name = xml_escape(name);
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<gpx version="1.1" creator="fleetview" xmlns="http://www.topografix.com/GPX/1/1">"#
    )?;
    writeln!(out, "  <metadata><name>{name}</name></metadata>")?;
    writeln!(out, "  <trk><name>{name}</name><trkseg>")?;
    let mut skipped = 0;
    for r in rows {
        let r = r.borrow();
        if !placeable(r) {
            skipped += 1;
            continue;
        }
        write!(
            out,
            r#"    <trkpt lat="{}" lon="{}">"#,
            number_cell(Measure::Degrees, r.latitude),
            number_cell(Measure::Degrees, r.longitude)
        )?;
        if let Some(ele) = r.altitude.and_then(|a| round(Measure::Other, a)) {
            write!(out, "<ele>{ele}</ele>")?;
        }
        write!(out, "<time>{}</time>", r.date)?;
        let speed = round_opt(Measure::Rate, r.speed);
        let heading = round_opt(Measure::Other, r.heading);
        if speed.is_some() || heading.is_some() {
            // GPX 1.1 has no speed or course: said in the description.
            let mut desc = Vec::new();
            if let Some(v) = speed {
                desc.push(format!("speed {v} km/h"));
            }
            if let Some(h) = heading {
                desc.push(format!("heading {h}°"));
            }
            write!(out, "<desc>{}</desc>", desc.join(", "))?;
        }
        writeln!(out, "</trkpt>")?;
    }
    writeln!(out, "  </trkseg></trk>")?;
    writeln!(out, "</gpx>")?;
    out.flush()?;
    Ok(skipped)
}

/// A position as a GeoJSON Feature: a Point (longitude, latitude and the
/// altitude when known) with its time, speed, heading and altitude.
#[derive(Serialize)]
struct PointFeature {
    #[serde(rename = "type")]
    kind: &'static str,
    geometry: Point,
    properties: PointProperties,
}

#[derive(Serialize)]
struct Point {
    #[serde(rename = "type")]
    kind: &'static str,
    coordinates: Coordinates,
}

/// Two or three numbers, without a vector per point.
struct Coordinates([Option<f64>; 3], usize);

impl Serialize for Coordinates {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0[..self.1].serialize(s)
    }
}

#[derive(Serialize)]
struct PointProperties {
    time: String,
    speed_kmh: Option<f64>,
    heading_deg: Option<f64>,
    altitude_m: Option<f64>,
}

fn point_feature(r: &PositionRow) -> PointFeature {
    let altitude = round_opt(Measure::Other, r.altitude);
    let lon_lat = [
        round(Measure::Degrees, r.longitude),
        round(Measure::Degrees, r.latitude),
    ];
    let coordinates = match altitude {
        Some(a) => Coordinates([lon_lat[0], lon_lat[1], Some(a)], 3),
        None => Coordinates([lon_lat[0], lon_lat[1], None], 2),
    };
    PointFeature {
        kind: "Feature",
        geometry: Point {
            kind: "Point",
            coordinates,
        },
        properties: PointProperties {
            time: r.date.to_string(),
            speed_kmh: round_opt(Measure::Rate, r.speed),
            heading_deg: round_opt(Measure::Other, r.heading),
            altitude_m: altitude,
        },
    }
}

/// Writes positions as a GeoJSON FeatureCollection of Points, one feature
/// at a time; returns how many rows were left out for lack of a valid
/// position.
pub fn write_geojson(
    rows: impl IntoIterator<Item = impl Borrow<PositionRow>>,
    name: &str,
    out: impl Write,
) -> std::io::Result<usize> {
    let mut skipped = 0;
    let mut w = FeatureWriter::start(out, Some(name))?;
    for r in rows {
        let r = r.borrow();
        if placeable(r) {
            w.feature(&point_feature(r))?;
        } else {
            skipped += 1;
        }
    }
    w.finish()?;
    Ok(skipped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::Timestamp;
    use serde_json::{Value, json};

    fn row(t: i64, lat: f64, lon: f64) -> PositionRow {
        PositionRow {
            date: Timestamp::from_secs(t),
            latitude: lat,
            longitude: lon,
            altitude: Some(170.5),
            speed: Some(12.0),
            heading: None,
        }
    }

    #[test]
    fn gpx_is_well_formed_with_one_trkpt_per_position() {
        let rows = vec![
            row(0, 45.75, 4.85),
            row(60, f64::NAN, 4.85),
            row(120, 45.76, 4.86),
        ];
        let mut out = Vec::new();
        let skipped = write_gpx(&rows, "EX-001 <Volvo> & \"co\"", &mut out).expect("gpx");
        assert_eq!(skipped, 1);
        let text = String::from_utf8(out).expect("utf-8");
        let mut reader = quick_xml::Reader::from_str(&text);
        let (mut trkpts, mut depth) = (0, 0i32);
        loop {
            match reader.read_event().expect("well-formed XML") {
                quick_xml::events::Event::Start(e) => {
                    depth += 1;
                    trkpts += usize::from(e.name().as_ref() == b"trkpt");
                }
                quick_xml::events::Event::End(_) => depth -= 1,
                quick_xml::events::Event::Eof => break,
                _ => {}
            }
        }
        assert_eq!((trkpts, depth), (2, 0));
        assert!(text.contains("<time>1970-01-01T00:02:00Z</time>"));
        assert!(text.contains("EX-001 &lt;Volvo&gt; &amp; &quot;co&quot;"));
    }

    #[test]
    fn geojson_points_carry_their_times() {
        let rows = vec![row(0, 45.75, 4.85), row(60, 95.0, 4.85)];
        let mut out = Vec::new();
        assert_eq!(write_geojson(&rows, "x", &mut out).expect("geojson"), 1);
        let doc: Value = serde_json::from_slice(&out).expect("JSON");
        assert_eq!(doc["type"], "FeatureCollection");
        let f = &doc["features"][0];
        assert_eq!(f["geometry"]["type"], "Point");
        assert_eq!(f["geometry"]["coordinates"], json!([4.85, 45.75, 170.5]));
        assert_eq!(f["properties"]["time"], "1970-01-01T00:00:00Z");
        assert_eq!(f["properties"]["heading_deg"], Value::Null);
        assert_eq!(doc["features"].as_array().map(Vec::len), Some(1));
    }

    #[test]
    fn positions_keep_the_services_milliseconds() {
        let mut with_ms = row(0, 45.75, 4.85);
        with_ms.date = Timestamp::from_millis(1_755_683_290_721);
        let rows = vec![with_ms, row(1_755_684_000, 45.76, 4.86)];
        let mut gpx = Vec::new();
        write_gpx(&rows, "x", &mut gpx).expect("gpx");
        let gpx = String::from_utf8(gpx).expect("utf-8");
        assert!(
            gpx.contains("<time>2025-08-20T09:48:10.721Z</time>"),
            "{gpx}"
        );
        assert!(gpx.contains("<time>2025-08-20T10:00:00Z</time>"), "{gpx}");
        let mut geojson = Vec::new();
        write_geojson(&rows, "x", &mut geojson).expect("geojson");
        let doc: Value = serde_json::from_slice(&geojson).expect("JSON");
        assert_eq!(
            doc["features"][0]["properties"]["time"],
            "2025-08-20T09:48:10.721Z"
        );
        assert_eq!(
            doc["features"][1]["properties"]["time"],
            "2025-08-20T10:00:00Z"
        );
    }

    /// The document the app wrote before it streamed: one tree of values.
    fn as_one_tree(rows: &[PositionRow], name: &str) -> String {
        let features: Vec<Value> = rows
            .iter()
            .filter(|r| placeable(r))
            .map(|r| {
                let mut coordinates = vec![
                    json!(round(Measure::Degrees, r.longitude)),
                    json!(round(Measure::Degrees, r.latitude)),
                ];
                if let Some(a) = round_opt(Measure::Other, r.altitude) {
                    coordinates.push(json!(a));
                }
                json!({
                    "type": "Feature",
                    "geometry": {"type": "Point", "coordinates": coordinates},
                    "properties": {
                        "time": r.date.to_string(),
                        "speed_kmh": round_opt(Measure::Rate, r.speed),
                        "heading_deg": round_opt(Measure::Other, r.heading),
                        "altitude_m": round_opt(Measure::Other, r.altitude),
                    },
                })
            })
            .collect();
        let doc = json!({"type": "FeatureCollection", "name": name, "features": features});
        format!("{doc}\n")
    }

    fn noisy_rows(n: i64) -> Vec<PositionRow> {
        (0..n)
            .map(|i| {
                let x = i as f64;
                PositionRow {
                    date: Timestamp::from_millis(1_750_000_000_000 + i * 1_001),
                    latitude: 45.0 + x * 1.000_000_3e-5,
                    longitude: if i % 7 == 3 {
                        f64::NAN
                    } else {
                        4.0 - x * 3.3e-7
                    },
                    altitude: (i % 3 != 0).then_some(170.123_456_7 + x / 3.0),
                    speed: (i % 5 != 0).then_some(x / 7.0),
                    heading: (i % 2 == 0).then_some(x * 0.123_456),
                }
            })
            .collect()
    }

    #[test]
    fn geojson_is_the_same_document_as_one_tree_rounded_one_feature_a_row() {
        let rows = noisy_rows(200);
        let mut out = Vec::new();
        let skipped = write_geojson(&rows, "RT-003 \"DAF\"", &mut out).expect("geojson");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(text, as_one_tree(&rows, "RT-003 \"DAF\""));
        let doc: Value = serde_json::from_str(&text).expect("valid JSON");
        let features = doc["features"].as_array().expect("features");
        assert_eq!(skipped, rows.iter().filter(|r| !placeable(r)).count());
        assert_eq!(features.len() + skipped, rows.len());
        // Rounded as every export: degrees to 1e-6, km/h to 0.1, metres to 1 mm.
        let f = &features[1];
        assert_eq!(
            f["geometry"]["coordinates"],
            json!([4.0, 45.00001, 170.457])
        );
        assert_eq!(f["properties"]["speed_kmh"], json!(0.1));
        assert_eq!(f["properties"]["heading_deg"], Value::Null);
        assert_eq!(f["properties"]["altitude_m"], json!(170.457));
        assert_eq!(f["properties"]["time"], "2025-06-15T15:06:41.001Z");
        // Without an altitude, two coordinates.
        assert_eq!(
            features[0]["geometry"]["coordinates"]
                .as_array()
                .map(Vec::len),
            Some(2)
        );
    }

    #[test]
    fn no_rows_are_an_empty_collection_and_an_empty_track() {
        let mut out = Vec::new();
        assert_eq!(
            write_geojson(&[] as &[PositionRow], "x", &mut out).expect("geojson"),
            0
        );
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            as_one_tree(&[], "x")
        );
        let mut out = Vec::new();
        assert_eq!(
            write_gpx(&[] as &[PositionRow], "x", &mut out).expect("gpx"),
            0
        );
        assert!(
            String::from_utf8(out)
                .expect("utf-8")
                .contains("<trkseg>\n  </trkseg>")
        );
    }

    /// Counts the bytes written into it, shared with whoever hands rows.
    struct Counted(std::rc::Rc<std::cell::Cell<usize>>);

    impl Write for Counted {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.set(self.0.get() + buf.len());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Bytes written before the last row was handed over, and in all.
    fn written_before_the_last(
        write: impl FnOnce(&mut dyn Iterator<Item = PositionRow>, Counted),
    ) -> (usize, usize) {
        let rows = noisy_rows(2_000);
        let count = std::rc::Rc::new(std::cell::Cell::new(0));
        let before_last = std::cell::Cell::new(0);
        let last = rows.len() - 1;
        let mut handed = rows.into_iter().enumerate().map(|(i, r)| {
            if i == last {
                before_last.set(count.get());
            }
            r
        });
        write(&mut handed, Counted(count.clone()));
        (before_last.get(), count.get())
    }

    #[test]
    fn both_formats_are_written_as_the_rows_come() {
        let (before, all) = written_before_the_last(|rows, out| {
            write_geojson(rows, "x", out).expect("geojson");
        });
        assert!(before > all * 99 / 100, "GeoJSON: {before} of {all} bytes");
        let (before, all) = written_before_the_last(|rows, out| {
            write_gpx(rows, "x", out).expect("gpx");
        });
        assert!(before > all * 99 / 100, "GPX: {before} of {all} bytes");
    }
}
