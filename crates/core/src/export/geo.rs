//! Positions for map tools: GPX 1.1 (one `trkpt` per position, with its
//! time and elevation) and GeoJSON (RFC 7946: one Point per position, with
//! its time, speed, heading and altitude as properties).

use std::io::Write;

use serde_json::{Value, json};

use super::round::{Measure, number_cell, number_json, round, round_opt};
use fleetview_api::model::PositionRow;

/// Whether a row has a position a map can place.
fn placeable(r: &PositionRow) -> bool {
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
pub fn write_gpx(rows: &[PositionRow], name: &str, mut out: impl Write) -> std::io::Result<usize> {
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
    Ok(skipped)
}

fn finite(measure: Measure, v: Option<f64>) -> Value {
    round_opt(measure, v).map_or(Value::Null, Value::from)
}

/// Writes positions as a GeoJSON FeatureCollection of Points; returns how
/// many rows were left out for lack of a valid position.
pub fn write_geojson(
    rows: &[PositionRow],
    name: &str,
    mut out: impl Write,
) -> std::io::Result<usize> {
    let mut skipped = 0;
    let features: Vec<Value> = rows
        .iter()
        .filter(|r| {
            let ok = placeable(r);
            skipped += usize::from(!ok);
            ok
        })
        .map(|r| {
            let mut coordinates = vec![
                number_json(Measure::Degrees, r.longitude),
                number_json(Measure::Degrees, r.latitude),
            ];
            if let Some(a) = round_opt(Measure::Other, r.altitude) {
                coordinates.push(json!(a));
            }
            json!({
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": coordinates},
                "properties": {
                    "time": r.date.to_string(),
                    "speed_kmh": finite(Measure::Rate, r.speed),
                    "heading_deg": finite(Measure::Other, r.heading),
                    "altitude_m": finite(Measure::Other, r.altitude),
                },
            })
        })
        .collect();
    let doc = json!({
        "type": "FeatureCollection",
        "name": name,
        "features": features,
    });
    serde_json::to_writer(&mut out, &doc)?;
    out.write_all(b"\n")?;
    Ok(skipped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::Timestamp;

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
}
