//! The app's exports (`ExportContent::write`) over a week of the sandbox's
//! real data, imperial and metric: no number carries float noise (each has
//! at most the decimals of what it measures), and a channel's menu names
//! the unit its file is in.

use std::sync::Arc;

use fleetview_testkit as common;

use common::{start, window_query};
use fleetview_api::DataKind;
use fleetview_api::RowsChunk;
use fleetview_api::model::{ActivityRow, Envelope, EquipmentHistory, PositionRow, SeriesData};
use fleetview_api::time::TimeWindow;
use fleetview_api::units::UnitSystem;
use fleetview_core::export::shown::{ExportContent, GeoFormat, channel_label};
use fleetview_core::series::{PlotSeries, Track, TrackSample, decode_rows};
use fleetview_sandbox::simulate::FIRST_ID;

fn decimals(n: &str) -> usize {
    n.split_once('.').map_or(0, |(_, d)| d.len())
}

/// Numbers with more decimals than they may have in a file as `format`
/// writes it: coordinates (a CSV's `latitude`/`longitude`, GeoJSON's first
/// two coordinates, GPX's `lat`/`lon`) 6, any other 3 (the finest step of
/// any measure).
fn noisy(text: &str, extension: &str) -> Vec<String> {
    let mut out = Vec::new();
    match extension {
        "csv" => {
            let mut r = csv::Reader::from_reader(text.as_bytes());
            let headers = r.headers().expect("header").clone();
            for row in r.records() {
                for (h, cell) in headers.iter().zip(row.expect("record").iter()) {
                    let max = if matches!(h, "latitude" | "longitude") {
                        6
                    } else {
                        3
                    };
                    if cell.parse::<f64>().is_ok() && decimals(cell) > max {
                        out.push(format!("{h} = {cell}"));
                    }
                }
            }
        }
        "geojson" => {
            let doc: serde_json::Value = serde_json::from_str(text).expect("JSON");
            walk(&doc, "", &mut out);
        }
        _ => {
            for (name, max) in [
                ("lat=\"", 6),
                ("lon=\"", 6),
                ("<ele>", 3),
                ("speed ", 3),
                ("heading ", 3),
            ] {
                for part in text.split(name).skip(1) {
                    let n: String = part
                        .chars()
                        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
                        .collect();
                    if decimals(&n) > max {
                        out.push(format!("{name}{n}"));
                    }
                }
            }
        }
    }
    out
}

fn walk(v: &serde_json::Value, key: &str, out: &mut Vec<String>) {
    use serde_json::Value;
    match v {
        Value::Object(o) => o.iter().for_each(|(k, v)| walk(v, k, out)),
        Value::Array(a) if key == "coordinates" && a.iter().all(Value::is_number) => {
            for (i, n) in a.iter().enumerate() {
                if decimals(&n.to_string()) > if i < 2 { 6 } else { 3 } {
                    out.push(format!("coordinates {n}"));
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| walk(v, key, out)),
        Value::Number(n) if decimals(&n.to_string()) > 3 => out.push(format!("{key} = {n}")),
        _ => {}
    }
}

#[test]
fn the_apps_exports_write_no_float_noise_and_say_their_units() {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let sb = rt.block_on(start());
    let now = common::now();
    let w = TimeWindow {
        since: now - 8 * 86_400,
        until: now - 86_400,
    };
    let id = FIRST_ID + 2;
    let path = |kind: &str| {
        format!(
            "/v2/fleet/equipments/{id}/{kind}?{}",
            window_query(w.since, w.until)
        )
    };
    let history: Envelope<EquipmentHistory> = rt.block_on(sb.get_ok(&path("history")));
    let activities: Envelope<SeriesData<ActivityRow>> = rt.block_on(sb.get_ok(&path("activities")));
    let positions: Envelope<SeriesData<PositionRow>> = rt.block_on(sb.get_ok(&path("positions")));
    let plotted = |kind: DataKind| {
        let body = rt.block_on(sb.raw_bytes(&path(kind.wire())));
        let rows = RowsChunk::of(&body.into()).expect("rows").rows;
        Arc::new(PlotSeries::new(decode_rows(&rows).expect("decoded")))
    };
    let track = Arc::new(Track::new(
        positions
            .data
            .rows
            .iter()
            .map(|p| {
                TrackSample::at(p.date.0, p.latitude, p.longitude)
                    .with_speed_kmh(p.speed)
                    .with_altitude_m(p.altitude)
                    .with_heading_deg(p.heading)
            })
            .collect(),
    ));
    let mut contents = vec![
        ExportContent::DailyHistory(Arc::new(history.data)),
        ExportContent::ActivitiesCsv(activities.data.rows.clone()),
        ExportContent::ActivitiesGeoJson {
            rows: activities.data.rows,
            track: track.clone(),
        },
        ExportContent::Positions {
            track: track.clone(),
            format: GeoFormat::Gpx,
            name: "t".into(),
        },
        ExportContent::Positions {
            track,
            format: GeoFormat::GeoJson,
            name: "t".into(),
        },
    ];
    let mut coolant = None;
    for kind in [
        DataKind::DailyFuel,
        DataKind::DailyDistance,
        DataKind::EngineCoolantTemperature,
        DataKind::FuelRemaining,
    ] {
        let series = plotted(kind);
        for channel in 0..series.series.channels.len() {
            let unit = series.shown_unit(channel, kind.unit()).to_owned();
            if kind == DataKind::EngineCoolantTemperature && coolant.is_none() {
                coolant = Some((series.clone(), channel));
            }
            contents.push(ExportContent::Channel {
                kind,
                series: series.clone(),
                channel,
                unit,
            });
        }
    }
    for units in UnitSystem::ALL {
        for c in &contents {
            let mut out = Vec::new();
            c.write(&mut out, units).expect("written");
            let text = String::from_utf8(out).expect("utf-8");
            assert!(text.len() > 40, "{} holds rows", c.describe());
            let mut noise = noisy(&text, c.extension());
            noise.truncate(5);
            assert!(noise.is_empty(), "{} in {units:?}: {noise:?}", c.describe());
        }
    }

    // The coolant's channel, imperial: the menu says °F as its file does.
    let (series, channel) = coolant.expect("the sandbox's machine has a coolant temperature");
    let content = ExportContent::Channel {
        kind: DataKind::EngineCoolantTemperature,
        series: series.clone(),
        channel,
        unit: series.shown_unit(channel, "°C").to_owned(),
    };
    let mut out = Vec::new();
    content
        .write(&mut out, UnitSystem::Imperial)
        .expect("written");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(
        text.lines().nth(1).is_some_and(|l| l.contains("°F")),
        "{text}"
    );
    let imperial = channel_label(
        DataKind::EngineCoolantTemperature,
        &series,
        channel,
        UnitSystem::Imperial,
    );
    assert!(
        imperial.contains("(°F)") && !imperial.contains("°C"),
        "{imperial}"
    );
    let metric = channel_label(
        DataKind::EngineCoolantTemperature,
        &series,
        channel,
        UnitSystem::Metric,
    );
    assert!(metric.contains("(°C)"), "{metric}");
}
