//! `fleetview export`'s numbers over a week of the sandbox's real data, in
//! every format and both unit systems: each file is parsed and no number
//! has more decimals than what it measures (hours 0.01, percent and volume
//! 0.1, distance 0.01, coordinates 1e-6, anything else 0.001), and its
//! columns name percents as percents.

use fleetview_testkit as common;

use std::path::Path;

use crate::binary::fleetview;
use common::start;
use fleetview_api::time::format_wire;
use fleetview_sandbox::simulate::FIRST_ID;
use serde_json::Value;

/// Decimals a number written as `text` has (`12.50` has 2; `1e-7` counts
/// as many as it takes to write out).
fn decimals(text: &str) -> usize {
    let v: f64 = text.parse().unwrap_or(0.0);
    let plain = if text.contains(['e', 'E']) {
        format!("{v}")
    } else {
        text.to_owned()
    };
    plain.split_once('.').map_or(0, |(_, d)| d.len())
}

/// The decimals allowed for a column or key named `name` with `unit`
/// (a header's `(unit)` or a row's `unit` field).
fn allowed(name: &str, unit: Option<&str>) -> usize {
    let lower = name.to_lowercase();
    if ["latitude", "longitude", "lat", "lon", "coordinates"]
        .iter()
        .any(|n| lower == *n)
    {
        return 6;
    }
    let unit = unit.map(str::trim).unwrap_or_default();
    match unit {
        "h" => 2,
        "%" | "L" | "l" | "gal" | "gallon" | "kg" | "lb" | "t" | "°C" | "°F" | "C" | "F" => 1,
        "km" | "mi" | "miles" => 2,
        "km/h" | "mph" | "L/h" | "gal/h" => 1,
        _ if lower == "hour" || lower == "hours" || lower.ends_with("hours") => 2,
        _ if lower.contains("percent") => 1,
        _ => 3,
    }
}

/// A CSV header's name and unit: `Fuel used (gal)` is (`Fuel used`, `gal`).
fn header_unit(h: &str) -> (&str, Option<&str>) {
    match h.rsplit_once(" (") {
        Some((name, unit)) if unit.ends_with(')') => (name, Some(&unit[..unit.len() - 1])),
        _ => (h, None),
    }
}

fn check_csv(path: &Path, problems: &mut Vec<String>) -> usize {
    let mut r = csv::Reader::from_path(path).expect("CSV opens");
    let headers = r.headers().expect("header").clone();
    let mut numbers = 0;
    for row in r.records() {
        let row = row.expect("a record");
        for (h, cell) in headers.iter().zip(row.iter()) {
            if cell.parse::<f64>().is_err() || h == "date" {
                continue;
            }
            numbers += 1;
            let (name, unit) = header_unit(h);
            if decimals(cell) > allowed(name, unit) {
                problems.push(format!("{}: {h} = {cell}", path.display()));
            }
        }
    }
    numbers
}

/// Walks a JSON document; a number's key and its object's `unit` say what
/// it measures (GeoJSON's coordinates are degrees, but a third, altitude).
fn check_json(
    v: &Value,
    key: &str,
    unit: Option<&str>,
    at: &str,
    problems: &mut Vec<String>,
) -> usize {
    match v {
        Value::Object(o) => {
            let unit = o.get("unit").and_then(Value::as_str).or(unit);
            o.iter()
                .map(|(k, v)| check_json(v, k, unit, at, problems))
                .sum()
        }
        Value::Array(a) if key == "coordinates" && a.iter().all(Value::is_number) => {
            for (i, n) in a.iter().enumerate() {
                let max = if i < 2 { 6 } else { 3 };
                if decimals(&n.to_string()) > max {
                    problems.push(format!("{at}: coordinates {n}"));
                }
            }
            a.len()
        }
        Value::Array(a) => a
            .iter()
            .map(|v| check_json(v, key, unit, at, problems))
            .sum(),
        Value::Number(n) => {
            if decimals(&n.to_string()) > allowed(key, unit) {
                problems.push(format!("{at}: {key} = {n} ({unit:?})"));
            }
            1
        }
        _ => 0,
    }
}

/// Numbers of a GPX file: `lat`/`lon` attributes, `ele`, and the speed and
/// heading in `desc`.
fn check_gpx(path: &Path, problems: &mut Vec<String>) -> usize {
    let text = std::fs::read_to_string(path).expect("read");
    let mut numbers = 0;
    for (name, max) in [
        ("lat=\"", 6),
        ("lon=\"", 6),
        ("<ele>", 3),
        ("speed ", 1),
        ("heading ", 3),
    ] {
        for part in text.split(name).skip(1) {
            let n: String = part
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
                .collect();
            numbers += 1;
            if decimals(&n) > max {
                problems.push(format!("{}: {name}{n}", path.display()));
            }
        }
    }
    numbers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_number_exported_is_rounded_to_what_it_measures() {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let since = format_wire(common::now() - 8 * 86_400);
    let until = format_wire(common::now() - 86_400);
    let id = (FIRST_ID + 2).to_string();
    let mut runs: Vec<(String, &str, &str, &str)> = Vec::new();
    for kind in [
        "positions",
        "fuelRemaining",
        "activities",
        "faults",
        "history",
        "cumulativeOperatingHours",
        "dailyFuel",
        "engineCoolantTemperature",
    ] {
        runs.push((format!("{kind}-metric.csv"), kind, "csv", "metric"));
        runs.push((format!("{kind}-imperial.csv"), kind, "csv", "imperial"));
        runs.push((format!("{kind}.json"), kind, "json", "metric"));
    }
    runs.push(("positions.gpx".into(), "positions", "gpx", "metric"));
    runs.push(("positions.geojson".into(), "positions", "geojson", "metric"));
    let (base, token) = (sb.base.clone(), sb.token.clone());
    let written = tokio::task::spawn_blocking({
        let dir = dir.path().to_owned();
        move || {
            for (file, kind, format, units) in &runs {
                let path = dir.join(file);
                let out = fleetview("export", &base, &cache)
                    .env("FLEETVIEW_TOKEN", &token)
                    .env("RUST_LOG", "warn")
                    .args(["--equipment", &id, "--kind", kind, "--format", format])
                    .args(["--units", units, "--since", &since, "--until", &until])
                    .arg("--output")
                    .arg(&path)
                    .output()
                    .expect("fleetview export runs");
                assert!(
                    out.status.success(),
                    "{file}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            runs
        }
    })
    .await
    .expect("exports written");
    let mut problems = Vec::new();
    let mut numbers = 0;
    for (file, _, format, _) in &written {
        let path = dir.path().join(file);
        numbers += match *format {
            "csv" => check_csv(&path, &mut problems),
            "gpx" => check_gpx(&path, &mut problems),
            _ => {
                let doc: Value =
                    serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("JSON");
                check_json(&doc, "", None, file, &mut problems)
            }
        };
    }
    assert!(numbers > 10_000, "a week of data: {numbers} numbers");
    problems.truncate(20);
    assert!(
        problems.is_empty(),
        "numbers with float noise:\n{}",
        problems.join("\n")
    );

    // Percents are named as percents: the DEF level (the service's
    // `DEFRemainingRatio.percent`) and the engine's load factor.
    let history = csv::Reader::from_path(dir.path().join("history-imperial.csv"))
        .expect("CSV")
        .headers()
        .expect("header")
        .clone();
    let headers: Vec<&str> = history.iter().collect();
    assert!(headers.contains(&"DEF remaining (%)"), "{headers:?}");
    assert!(headers.contains(&"Engine load factor (%)"), "{headers:?}");
    assert!(
        !headers
            .iter()
            .any(|h| h.split(' ').any(|w| w.eq_ignore_ascii_case("ratio"))),
        "no ratio column holds percents: {headers:?}"
    );
}
