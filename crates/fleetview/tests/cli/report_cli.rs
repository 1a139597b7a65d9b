//! `fleetview report`: the binary against a real sandbox over loopback,
//! through a real cache file; its figures checked against the service's
//! own daily usages for the same window.

use fleetview_testkit as common;

use std::path::Path;
use std::process::Output;

use crate::binary::signed_out;
use common::{Sandbox, start};
use fleetview_api::time::format_wire;
use fleetview_core::analysis::Figure;
use fleetview_sandbox::simulate::FIRST_ID;
use serde_json::Value;

const DAY: i64 = 86_400;

/// The keys the issue asks `totals` and each day to carry at least.
const REQUIRED_KEYS: [&str; 9] = [
    "engine_hours_h",
    "working_hours_h",
    "idle_hours_h",
    "idle_percent",
    "fuel_used_l",
    "fuel_per_engine_hour_l",
    "co2_kg",
    "distance_km",
    "utilisation_percent",
];

/// `fleetview <sub>` against the sandbox through `cache`.
fn run(sub: &str, base: &str, token: Option<&str>, cache: &Path, args: &[&str]) -> Output {
    let mut cmd = signed_out(sub, base, cache);
    cmd.args(args);
    if let Some(t) = token {
        cmd.env("FLEETVIEW_TOKEN", t);
    }
    cmd.output().expect("fleetview report runs")
}

/// Runs the binary off the async threads (the sandbox serves on them).
async fn report_async(base: &str, token: Option<&str>, cache: &Path, args: &[&str]) -> Output {
    run_async("report", base, token, cache, args).await
}

async fn run_async(
    sub: &str,
    base: &str,
    token: Option<&str>,
    cache: &Path,
    args: &[&str],
) -> Output {
    let (sub, base, token, cache) = (
        sub.to_owned(),
        base.to_owned(),
        token.map(str::to_owned),
        cache.to_owned(),
    );
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    tokio::task::spawn_blocking(move || {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&sub, &base, token.as_deref(), &cache, &refs)
    })
    .await
    .expect("the command finished")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `--equipment ID --since .. --until ..`, then `more`.
fn window_args(id: i64, since: i64, until: i64, more: &[&str]) -> Vec<String> {
    let (id, since, until) = (id.to_string(), format_wire(since), format_wire(until));
    ["--equipment", &id, "--since", &since, "--until", &until]
        .iter()
        .chain(more)
        .map(|a| (*a).to_owned())
        .collect()
}

fn refs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// A successful run's JSON document (stdout holds it and nothing else).
async fn json_report(sb: &Sandbox, cache: &Path, id: i64, since: i64, until: i64) -> Value {
    let args = window_args(id, since, until, &["--format", "json"]);
    let out = report_async(&sb.base, Some(&sb.token), cache, &refs(&args)).await;
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("stdout is one JSON document: {e}"))
}

/// The service's daily usage rows for a window, straight over HTTP.
async fn daily_rows(sb: &Sandbox, id: i64, since: i64, until: i64) -> Vec<Value> {
    let (status, body) = sb
        .get(&format!(
            "/v2/fleet/equipments/{id}/dailyUsages?{}",
            common::window_query(since, until)
        ))
        .await;
    assert!(status.is_success(), "{body}");
    let rows = body["data"]["rows"].as_array().expect("rows").clone();
    assert_eq!(body["data"]["total"].as_u64(), Some(rows.len() as u64));
    rows
}

/// The sum of one member's value over the rows (`None` if no row gives
/// it), its unit checked.
fn sum(rows: &[Value], member: &str, field: &str, unit: Option<&str>) -> Option<f64> {
    let mut total = None;
    for r in rows {
        let m = &r[member];
        if let Some(v) = m[field].as_f64() {
            if let Some(unit) = unit {
                assert_eq!(m["unit"].as_str(), Some(unit), "{member} in {unit}");
            }
            *total.get_or_insert(0.0) += v;
        }
    }
    total
}

/// The step a report rounds a key's values to (hours 0.01, litres 0.1,
/// km 0.01, percent 0.1).
pub(crate) fn step_of(key: &str) -> f64 {
    if key.ends_with("_l") || key.ends_with("_gal") || key.ends_with("_percent") {
        0.1
    } else {
        0.01
    }
}

/// A report's value against the service's sum: equal once rounded to the
/// key's step (and never noisier than it).
pub(crate) fn assert_close(what: &str, got: &Value, want: Option<f64>) {
    let step = step_of(what);
    match want {
        None => assert!(got.is_null(), "{what}: {got}, the service gives none"),
        Some(want) => {
            let got = got
                .as_f64()
                .unwrap_or_else(|| panic!("{what} is a number: {got}"));
            assert!(
                (got - want).abs() <= step / 2.0 + 1e-9 * want.abs().max(1.0),
                "{what}: report {got}, service {want}"
            );
            let text = got.to_string();
            let decimals = text.split('.').nth(1).map_or(0, str::len);
            assert!(
                (decimals as f64) <= -step.log10() + 1e-9,
                "{what}: {text} is rounded to {step}"
            );
        }
    }
}

fn figure_keys() -> Vec<&'static str> {
    Figure::ALL.iter().map(|f| f.key()).collect()
}

/// Checks a report document against the service's daily usages.
async fn check_against_the_service(sb: &Sandbox, doc: &Value, id: i64, since: i64, until: i64) {
    // The report covers the whole UTC days inside the window.
    let mut rows = daily_rows(sb, id, since, until).await;
    rows.retain(|r| {
        r["date"]
            .as_str()
            .and_then(|d| fleetview_api::time::parse_lenient(d).ok())
            .is_some_and(|t| t + DAY - 1 <= until)
    });
    assert!(!rows.is_empty());
    assert_eq!(doc["equipment"].as_i64(), Some(id));
    assert_eq!(doc["window"]["since"].as_str(), Some(&*format_wire(since)));
    assert_eq!(doc["window"]["until"].as_str(), Some(&*format_wire(until)));
    assert_eq!(doc["expected_hours_per_working_day"].as_f64(), Some(8.0));

    let totals = doc["totals"].as_object().expect("totals is one object");
    for key in REQUIRED_KEYS.iter().chain(&figure_keys()) {
        assert!(totals.contains_key(*key), "totals has {key}");
        let v = &totals[*key];
        assert!(
            v.is_number() || v.is_null(),
            "{key} is a number or null: {v}"
        );
    }
    let t = |key: &str| totals[key].clone();
    assert_close(
        "engine_hours_h",
        &t("engine_hours_h"),
        sum(&rows, "operatingHours", "hour", None),
    );
    assert_close(
        "idle_hours_h",
        &t("idle_hours_h"),
        sum(&rows, "idleHours", "hour", None),
    );
    assert_close(
        "fuel_used_l",
        &t("fuel_used_l"),
        sum(&rows, "fuelUsed", "fuelUsed", Some("L")),
    );
    assert_close(
        "distance_km",
        &t("distance_km"),
        sum(&rows, "dailyDistance", "odometer", Some("km")),
    );
    let (e, w, i) = (
        t("engine_hours_h").as_f64().expect("engine hours"),
        t("working_hours_h").as_f64().expect("working hours"),
        t("idle_hours_h").as_f64().expect("idle hours"),
    );
    assert!(
        (w + i - e).abs() <= 0.01 + 1e-9,
        "working {w} + idle {i} = engine {e}, each rounded to 0.01"
    );
    let any_estimated = rows
        .iter()
        .any(|r| r["fuelUsed"]["estimated"].as_bool() == Some(true));
    assert_eq!(
        doc["estimated"]["fuel_used_l"].as_bool(),
        Some(any_estimated),
        "the estimated map says whether the fuel rests on estimates"
    );

    // One entry per whole UTC day inside the window.
    let first = since.div_euclid(DAY) + i64::from(since.rem_euclid(DAY) != 0);
    let last = (until + 1).div_euclid(DAY) - 1;
    let days = doc["days"].as_array().expect("days");
    assert_eq!(days.len() as i64, last - first + 1, "one entry per day");
    for (k, day) in days.iter().enumerate() {
        let start = (first + k as i64) * DAY;
        let date = &format_wire(start)[..10];
        assert_eq!(day["date"].as_str(), Some(date));
        for key in REQUIRED_KEYS.iter().chain(&figure_keys()) {
            assert!(day.get(*key).is_some(), "{date} has {key}");
        }
        let row = rows
            .iter()
            .find(|r| r["date"].as_str() == Some(&*format_wire(start)));
        let one = row.map(std::slice::from_ref).unwrap_or_default();
        assert_close(
            &format!("{date} engine_hours_h"),
            &day["engine_hours_h"],
            sum(one, "operatingHours", "hour", None),
        );
        assert_close(
            &format!("{date} distance_km"),
            &day["distance_km"],
            sum(one, "dailyDistance", "odometer", Some("km")),
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_figures_equal_the_sums_of_the_services_daily_usages() {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let today = common::now().div_euclid(DAY) * DAY;

    // A week of whole days.
    let (since, until) = (today - 7 * DAY, today - 1);
    let doc = json_report(&sb, &cache, FIRST_ID, since, until).await;
    check_against_the_service(&sb, &doc, FIRST_ID, since, until).await;
    assert_eq!(doc["days"].as_array().map(Vec::len), Some(7));

    // Thirty days not on midnight, of a machine with estimated fuel that is
    // laid up some days (days without a row are null, not 0).
    let id = FIRST_ID + 3;
    let (since, until) = (today - 30 * DAY + 6 * 3600, today - DAY + 10 * 3600);
    let doc = json_report(&sb, &cache, id, since, until).await;
    check_against_the_service(&sb, &doc, id, since, until).await;
    let days = doc["days"].as_array().expect("days");
    assert!(
        days.iter().any(|d| d["engine_hours_h"].is_null()),
        "a day laid up has no figures"
    );
    assert_eq!(doc["estimated"]["fuel_used_l"].as_bool(), Some(true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csv_and_markdown_carry_the_same_figures() {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let today = common::now().div_euclid(DAY) * DAY;
    let (since, until) = (today - 7 * DAY, today - 1);
    let doc = json_report(&sb, &cache, FIRST_ID, since, until).await;
    let id = FIRST_ID.to_string();
    let (s, u) = (format_wire(since), format_wire(until));
    let window = ["--equipment", &id, "--since", &s, "--until", &u];

    // CSV into a file: the keys as the header, a row per day, then the total.
    let csv_path = dir.path().join("report.csv");
    let csv_arg = csv_path.to_str().expect("utf-8 path");
    let args = [&window[..], &["--format", "csv", "--output", csv_arg]].concat();
    let out = report_async(&sb.base, Some(&sb.token), &cache, &args).await;
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(stdout.is_empty(), "the document went to the file: {stdout}");
    let csv = std::fs::read_to_string(&csv_path).expect("csv written");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], format!("date,{}", figure_keys().join(",")));
    let events = doc["events"].as_array().expect("events");
    assert_eq!(
        lines.len(),
        1 + 7 + 1 + 1 + 1 + events.len(),
        "header, 7 days, total, a blank line, the events' header and rows"
    );
    assert_eq!(lines[9], "");
    assert!(lines[10].starts_with("kind,start,end,"), "{}", lines[10]);
    let events_table = lines[10..].join("\n");
    let mut table = csv::Reader::from_reader(events_table.as_bytes());
    let kinds: Vec<String> = table
        .records()
        .map(|r| r.expect("an event row")[0].to_owned())
        .collect();
    let json_kinds: Vec<&str> = events
        .iter()
        .map(|e| e["kind"].as_str().expect("kind"))
        .collect();
    assert_eq!(kinds, json_kinds, "the same events in the same order");
    let header: Vec<&str> = lines[0].split(',').collect();
    let total: Vec<&str> = lines[8].split(',').collect();
    assert_eq!(total[0], "total");
    assert_eq!(total.len(), header.len());
    for (k, key) in header.iter().enumerate().skip(1) {
        match doc["totals"][*key].as_f64() {
            None => assert_eq!(total[k], "", "{key}: missing is an empty cell"),
            Some(v) => {
                let cell: f64 = total[k].parse().expect("a number");
                assert!((cell - v).abs() <= 1e-6 * v.abs().max(1.0), "{key}");
            }
        }
    }
    assert!(lines[1].starts_with(doc["days"][0]["date"].as_str().expect("date")));

    // Markdown on stdout: a title, the totals table, the daily table.
    let args = [&window[..], &["--format", "md"]].concat();
    let out = report_async(&sb.base, Some(&sb.token), &cache, &args).await;
    let (md, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(md.starts_with("# "), "{md}");
    assert!(md.contains(&format!("equipment {id}")), "{md}");
    assert!(
        md.contains("| Figure | Value | How it is computed |"),
        "{md}"
    );
    let engine = doc["totals"]["engine_hours_h"].as_f64().expect("hours");
    assert!(
        md.contains(&format!("| Engine hours | {engine:.2} h |")),
        "{md}"
    );
    for day in doc["days"].as_array().expect("days") {
        let date = day["date"].as_str().expect("date");
        assert!(md.contains(&format!("| {date} |")), "{date} in {md}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_are_listed_once_counted_by_kind_and_exported_alone() {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let today = common::now().div_euclid(DAY) * DAY;
    let (since, until) = (today - 14 * DAY, today - 1);
    let kinds = [
        "stop",
        "refuel",
        "fuel_drop",
        "out_of_hours",
        "gap",
        "counter_reset",
        "fault",
        "check",
    ];
    // An excavator: engine events, fuel telemetry, faults now and then.
    let doc = json_report(&sb, &cache, FIRST_ID, since, until).await;
    let events = doc["events"].as_array().expect("events");
    let mut tally = std::collections::BTreeMap::<String, u64>::new();
    let mut last_start = String::new();
    for e in events {
        let kind = e["kind"].as_str().expect("kind");
        assert!(kinds.contains(&kind), "{kind}");
        let start = e["start"].as_str().expect("start").to_owned();
        assert!(start >= last_start, "in time order");
        last_start = start;
        *tally.entry(kind.to_owned()).or_default() += 1;
    }
    let counts = doc["counts"].as_object().expect("counts is a map");
    let counted: std::collections::BTreeMap<String, u64> = counts
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().expect("a count")))
        .collect();
    assert_eq!(counted, tally, "counts keyed by kind");
    let rules = doc["rules"].as_object().expect("rules is a map");
    assert_eq!(rules.len(), kinds.len());
    assert!(rules.values().all(Value::is_string));
    // The stops are those the figures count; the faults those the service gives.
    assert_eq!(
        tally.get("stop").copied().unwrap_or(0),
        doc["totals"]["stops_count"].as_u64().expect("stops"),
    );
    assert!(tally.get("stop").copied().unwrap_or(0) > 0, "{doc}");
    let faults: Value = sb
        .get_ok(&format!(
            "/v2/fleet/equipments/{FIRST_ID}/faults?{}",
            common::window_query(since, until)
        ))
        .await;
    assert_eq!(
        tally.get("fault").copied().unwrap_or(0),
        faults["data"]["total"].as_u64().expect("total"),
    );

    // `export --kind events`: the same events, alone.
    let window = window_args(FIRST_ID, since, until, &["--kind", "events"]);
    let window = refs(&window);
    let args = [&window[..], &["--format", "json"]].concat();
    let out = run_async("export", &sb.base, Some(&sb.token), &cache, &args).await;
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    let alone: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(alone["events"], doc["events"]);
    assert_eq!(alone["counts"], doc["counts"]);
    let args = [&window[..], &["--format", "csv"]].concat();
    let out = run_async("export", &sb.base, Some(&sb.token), &cache, &args).await;
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(&format!("{} events", events.len())), "{err}");
    let mut table = csv::Reader::from_reader(stdout.as_bytes());
    let rows: Vec<csv::StringRecord> = table.records().map(|r| r.expect("row")).collect();
    assert_eq!(rows.len(), events.len());
    for (row, e) in rows.iter().zip(events) {
        assert_eq!(&row[0], e["kind"].as_str().expect("kind"));
        assert_eq!(&row[1], e["start"].as_str().expect("start"));
    }
    let args = [&window[..], &["--format", "gpx"]].concat();
    let out = run_async("export", &sb.base, Some(&sb.token), &cache, &args).await;
    let (_, err) = text(&out);
    assert!(!out.status.success());
    assert!(err.contains("csv or json"), "{err}");

    // `--now` as the sandbox's: the default window is its yesterday and
    // today, and nothing is found after its now (a generator runs at now).
    let generator = (FIRST_ID + 8).to_string();
    let args = ["--equipment", &generator, "--now", common::NOW];
    let out = report_async(&sb.base, Some(&sb.token), &cache, &args).await;
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    let doc: Value = serde_json::from_str(&stdout).expect("json");
    let today = format_wire(common::now().div_euclid(DAY) * DAY);
    assert_eq!(
        doc["window"]["since"],
        format_wire(common::now().div_euclid(DAY) * DAY - DAY)
    );
    assert!(
        doc["days"]
            .as_array()
            .expect("days")
            .iter()
            .any(|d| today.starts_with(d["date"].as_str().expect("date")))
    );
    let events = doc["events"].as_array().expect("events");
    assert!(!events.is_empty());
    for e in events {
        for at in ["start", "end"] {
            if let Some(t) = e[at].as_str() {
                assert!(t <= common::NOW, "{e} after the sandbox's now");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offline_gives_the_cached_report_and_says_what_is_missing() {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let today = common::now().div_euclid(DAY) * DAY;
    let (since, until) = (today - 7 * DAY, today - 1);
    let online = json_report(&sb, &cache, FIRST_ID, since, until).await;
    let base = sb.base.clone();
    sb.running.shutdown().await;

    let args = window_args(FIRST_ID, since, until, &["--format", "json", "--offline"]);
    let args = refs(&args);
    let out = report_async(&base, None, &cache, &args).await;
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    let offline: Value = serde_json::from_str(&stdout).expect("one JSON document");
    let without_notes = |v: &Value| {
        let mut v = v.clone();
        v.as_object_mut().expect("object").remove("notes");
        v
    };
    assert_eq!(without_notes(&offline), without_notes(&online));

    // Nothing cached for this machine: a clear error, nothing on stdout.
    let args = window_args(
        FIRST_ID + 1,
        since,
        until,
        &["--format", "json", "--offline"],
    );
    let args = refs(&args);
    let out = report_async(&base, None, &cache, &args).await;
    let (stdout, err) = text(&out);
    assert!(!out.status.success());
    assert!(stdout.is_empty(), "{stdout}");
    assert!(err.contains("not cached"), "{err}");
    assert!(err.contains("history"), "says what is missing: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clear_errors() {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let id = FIRST_ID.to_string();
    let token = Some(sb.token.as_str());
    let cases: [(&[&str], Option<&str>, &str); 5] = [
        (
            &["--equipment", "999999", "--format", "json"],
            token,
            "equipment 999999 not found",
        ),
        (
            &["--equipment", &id, "--since", "yesterday"],
            token,
            "--since/--until",
        ),
        (
            &["--equipment", &id, "--expected-hours=-3"],
            token,
            "expected hours",
        ),
        (
            &["--equipment", &id, "--format", "json"],
            Some("bad"),
            "not authorised",
        ),
        (
            &["--equipment", &id, "--format", "json"],
            None,
            "no API key or access token",
        ),
    ];
    for (args, token, expected) in cases {
        let out = report_async(&sb.base, token, &cache, args).await;
        let (stdout, err) = text(&out);
        assert!(!out.status.success(), "{args:?}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(err.contains(expected), "expected '{expected}' in: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imperial_units_convert_the_figures_and_the_history_table_and_say_so() {
    let sb = start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let today = common::now().div_euclid(DAY) * DAY;
    let (since, until) = (today - 7 * DAY, today - 1);
    // A road truck: distance and fuel every working day.
    let id = FIRST_ID + 2;
    let metric = json_report(&sb, &cache, id, since, until).await;

    let args = window_args(
        id,
        since,
        until,
        &["--format", "json", "--units", "imperial"],
    );
    let out = report_async(&sb.base, Some(&sb.token), &cache, &refs(&args)).await;
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    let imperial: Value = serde_json::from_str(&stdout).expect("one JSON document");
    let km = metric["totals"]["distance_km"].as_f64().expect("km");
    let litres = metric["totals"]["fuel_used_l"].as_f64().expect("litres");
    assert!(
        km > 1.0 && litres > 1.0,
        "a truck that drove: {km} km, {litres} L"
    );
    let mi = imperial["totals"]["distance_mi"].as_f64().expect("mi");
    let gal = imperial["totals"]["fuel_used_gal"].as_f64().expect("gal");
    // Each rounded in its own unit: km and mi to 0.01, L and gal to 0.1.
    assert!(
        (mi - km / 1.609_344).abs() <= 0.01,
        "{km} km is not {mi} mi"
    );
    assert!(
        (gal - litres / 3.785_411_784).abs() <= 0.1,
        "{litres} L is not {gal} gal"
    );
    assert!(
        imperial["totals"].get("distance_km").is_none(),
        "the key says the unit"
    );
    assert_eq!(
        imperial["totals"]["engine_hours_h"],
        metric["totals"]["engine_hours_h"]
    );

    // The daily history as a table: its headers in miles and gallons, each
    // day's distance the service's kilometres converted.
    let history = |units: &'static str| {
        let args = window_args(id, since, until, &["--kind", "history", "--units", units]);
        let (base, token, cache) = (sb.base.clone(), sb.token.clone(), cache.clone());
        async move {
            let out = run_async("export", &base, Some(&token), &cache, &refs(&args)).await;
            let (stdout, err) = text(&out);
            assert!(out.status.success(), "{err}");
            let mut r = csv::Reader::from_reader(stdout.as_bytes());
            let header: Vec<String> = r
                .headers()
                .expect("header")
                .iter()
                .map(str::to_owned)
                .collect();
            let rows: Vec<csv::StringRecord> = r.records().map(|r| r.expect("row")).collect();
            (header, rows)
        }
    };
    let (m_header, m_rows) = history("metric").await;
    let (i_header, i_rows) = history("imperial").await;
    let col = |header: &[String], prefix: &str| {
        header
            .iter()
            .position(|h| h.starts_with(prefix))
            .unwrap_or_else(|| panic!("{prefix} in {header:?}"))
    };
    let (mk, ik) = (col(&m_header, "Distance"), col(&i_header, "Distance"));
    assert!(m_header[mk].ends_with("(km)"), "{}", m_header[mk]);
    assert!(i_header[ik].ends_with("(mi)"), "{}", i_header[ik]);
    assert!(
        i_header.iter().any(|h| h.ends_with("(gal)")),
        "{i_header:?}"
    );
    assert_eq!(m_rows.len(), i_rows.len());
    let mut compared = 0;
    for (m, i) in m_rows.iter().zip(&i_rows) {
        if let (Ok(km), Ok(mi)) = (m[mk].parse::<f64>(), i[ik].parse::<f64>()) {
            // Miles are written to 0.01 (export::round).
            assert!(
                (mi - km / 1.609_344).abs() <= 0.005 + 1e-9,
                "{km} km, {mi} mi"
            );
            compared += 1;
        }
    }
    assert!(compared > 0, "some day has a distance");

    // JSON keeps the service's rows: imperial is refused, in words.
    let args = window_args(
        id,
        since,
        until,
        &[
            "--kind", "history", "--format", "json", "--units", "imperial",
        ],
    );
    let out = run_async("export", &sb.base, Some(&sb.token), &cache, &refs(&args)).await;
    let (_, err) = text(&out);
    assert!(!out.status.success());
    assert!(
        err.contains("--units imperial applies to CSV tables"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_part_that_could_not_be_read_is_said_in_the_notes() {
    let chaos =
        fleetview_sandbox::chaos::ChaosConfig::parse("500=1,path=dailyIdleFuel").expect("chaos");
    let sb = common::start_with(common::fixed_config().chaos(chaos)).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let today = common::now().div_euclid(DAY) * DAY;
    let doc = json_report(&sb, &cache, FIRST_ID, today - 3 * DAY, today - 1).await;
    let notes: Vec<&str> = doc["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("the daily idle fuel could not be read (")
                && n.ends_with("fuel is not split into working and idle")),
        "{notes:?}"
    );
}
