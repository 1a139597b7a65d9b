//! `fleetview report --fleet`: the binary against a real sandbox over
//! loopback. Each machine's figures are checked against the service's own
//! daily rows, summed here from `/history` over HTTP (not by the code under
//! test); the HTML is parsed as one well-formed document; bad input and
//! offline reports as a user meets them.

use fleetview_testkit as common;

use std::path::Path;
use std::process::Output;

use crate::binary::signed_out;
use crate::report_cli::assert_close;
use common::Sandbox;
use fleetview_api::time::{format_wire, parse_lenient};
use serde_json::Value;

const DAY: i64 = 86_400;
/// A small fleet: every machine is read by the report and by the test.
const FLEET: u64 = 8;

async fn sandbox() -> Sandbox {
    common::start_with(common::fixed_config().fleet_size(FLEET)).await
}

/// `fleetview report ARGS` off the async threads (the sandbox serves on
/// them); with the sandbox's token unless `token` is `None`.
async fn report(base: &str, token: Option<&str>, cache: &Path, args: &[&str]) -> Output {
    let mut cmd = signed_out("report", base, cache);
    cmd.args(args);
    if let Some(t) = token {
        cmd.env("FLEETVIEW_TOKEN", t);
    }
    tokio::task::spawn_blocking(move || cmd.output().expect("fleetview runs"))
        .await
        .expect("the command finished")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The last whole week before the sandbox's today.
fn week() -> (String, String, i64, i64) {
    let today = common::now().div_euclid(DAY) * DAY;
    let (since, until) = (today - 7 * DAY, today - 1);
    (format_wire(since), format_wire(until), since, until)
}

/// The fleet as the service lists it.
async fn fleet(sb: &Sandbox) -> Vec<Value> {
    let body: Value = sb.get_ok("/v2/fleet/equipments?limit=50&offset=0").await;
    let rows = body["data"]["rows"].as_array().expect("rows").clone();
    assert_eq!(rows.len() as u64, FLEET);
    rows
}

/// A member's values summed over the daily rows of whole days inside the
/// window (`None` if no row gives it).
fn sum(rows: &[Value], member: &str, field: &str) -> Option<f64> {
    rows.iter()
        .filter_map(|r| r[member][field].as_f64())
        .reduce(|a, b| a + b)
}

/// One machine's report against its `/history` daily rows.
async fn check_machine(sb: &Sandbox, m: &Value, since: i64, until: i64) {
    let id = m["equipment"].as_i64().expect("equipment");
    let body: Value = sb
        .get_ok(&format!(
            "/v2/fleet/equipments/{id}/history?{}",
            common::window_query(since, until)
        ))
        .await;
    let mut rows = body["data"]["dailyUsages"]["rows"]
        .as_array()
        .expect("daily rows")
        .clone();
    rows.retain(|r| {
        r["date"]
            .as_str()
            .and_then(|d| parse_lenient(d).ok())
            .is_some_and(|t| t >= since && t + DAY - 1 <= until)
    });
    assert_eq!(m["name"], body["data"]["name"], "{id}: its name");
    let t = &m["totals"];
    for (key, member, field) in [
        ("engine_hours_h", "operatingHours", "hour"),
        ("idle_hours_h", "idleHours", "hour"),
        ("fuel_used_l", "fuelUsed", "fuelUsed"),
        ("distance_km", "dailyDistance", "odometer"),
    ] {
        assert_close(key, &t[key], sum(&rows, member, field));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_report_json_matches_the_services_daily_rows_machine_by_machine() {
    let sb = sandbox().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let (s, u, since, until) = week();
    let args = ["--fleet", "--since", &s, "--until", &u, "--format", "json"];
    let out = report(&sb.base, Some(&sb.token), &cache, &args).await;
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    let doc: Value = serde_json::from_str(&stdout).expect("one JSON document");
    let mut keys: Vec<&String> = doc.as_object().expect("object").keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "counts",
            "generated_at",
            "machines",
            "notes",
            "totals",
            "window"
        ],
        "exactly the fixed keys"
    );
    assert_eq!(doc["window"]["since"], s.as_str());
    assert_eq!(doc["window"]["until"], u.as_str());
    let machines = doc["machines"].as_array().expect("machines");
    let listed = fleet(&sb).await;
    let ids: Vec<i64> = machines
        .iter()
        .map(|m| m["equipment"].as_i64().unwrap())
        .collect();
    let want: Vec<i64> = listed.iter().map(|m| m["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, want, "every machine of the fleet, in its order");
    for (m, l) in machines.iter().zip(&listed) {
        for key in [
            "name",
            "category",
            "make",
            "model",
            "totals",
            "counts",
            "attention",
        ] {
            assert!(m.get(key).is_some(), "{key} in {m}");
        }
        assert_eq!(
            m["category"], l["category"],
            "as the service gives it, or null"
        );
        check_machine(&sb, m, since, until).await;
        for a in m["attention"].as_array().expect("attention") {
            let kind = a["kind"].as_str().expect("kind");
            assert!(
                [
                    "fault",
                    "fuel_drop",
                    "counter_reset",
                    "silent",
                    "high_idle",
                    "gap"
                ]
                .contains(&kind),
                "{kind}"
            );
            assert!(a["text"].as_str().is_some_and(|t| !t.is_empty()));
        }
    }
    // The fleet's totals: the machines' sums, ratios from the sums.
    let t = &doc["totals"];
    assert_eq!(t["machines"].as_u64(), Some(FLEET));
    let summed = |key: &str| {
        machines
            .iter()
            .filter_map(|m| m["totals"][key].as_f64())
            .sum::<f64>()
    };
    for key in [
        "engine_hours_h",
        "idle_hours_h",
        "fuel_used_l",
        "distance_km",
    ] {
        let got = t[key].as_f64().expect(key);
        let step = crate::report_cli::step_of(key);
        assert!(
            (got - summed(key)).abs() <= step * FLEET as f64,
            "{key}: {got} vs {}",
            summed(key)
        );
    }
    let idle = 100.0 * t["idle_hours_h"].as_f64().unwrap() / t["engine_hours_h"].as_f64().unwrap();
    assert!((t["idle_percent"].as_f64().unwrap() - idle).abs() <= 0.1);
    let reporting = machines
        .iter()
        .filter(|m| !m["totals"]["engine_hours_h"].is_null())
        .count();
    assert!(t["machines_reporting"].as_u64().unwrap() as usize >= reporting);
    // The fleet's counts sum the machines'.
    let mut counts = std::collections::BTreeMap::<String, u64>::new();
    for m in machines {
        for (k, n) in m["counts"].as_object().expect("counts") {
            *counts.entry(k.clone()).or_default() += n.as_u64().expect("n");
        }
    }
    let fleet_counts: std::collections::BTreeMap<String, u64> = doc["counts"]
        .as_object()
        .expect("counts")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect();
    assert_eq!(fleet_counts, counts);
}

/// Every element closed in order, as an XML reader reads HTML written as
/// XHTML would be: the void elements HTML allows unclosed are closed here.
fn assert_well_formed(html: &str) {
    let body = html.trim_start_matches("<!DOCTYPE html>");
    let xml = body
        .replace("<meta charset=\"utf-8\">", "<meta charset=\"utf-8\"/>")
        .replace(
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>",
        );
    let mut reader = quick_xml::Reader::from_str(&xml);
    let mut stack: Vec<String> = Vec::new();
    let mut elements = 0;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(e)) => {
                stack.push(String::from_utf8_lossy(e.name().as_ref()).into_owned());
                elements += 1;
            }
            Ok(quick_xml::events::Event::End(e)) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                assert_eq!(
                    stack.pop().as_deref(),
                    Some(name.as_str()),
                    "closed in order"
                );
            }
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well formed at {}: {e}", reader.buffer_position()),
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert!(elements > 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_report_html_is_one_self_contained_file_with_charts_and_every_name() {
    let sb = sandbox().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let path = dir.path().join("fleet.html");
    let (s, u, _, _) = week();
    let output = path.to_str().expect("utf-8");
    let args = [
        "--fleet", "--since", &s, "--until", &u, "--format", "html", "-o", output,
    ];
    let out = report(&sb.base, Some(&sb.token), &cache, &args).await;
    let (stdout, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert!(stdout.is_empty(), "to the file");
    let html = std::fs::read_to_string(&path).expect("written");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(html.matches("<html").count(), 1, "one document");
    assert_well_formed(&html);
    assert!(html.contains("<svg"), "an inline chart");
    for m in fleet(&sb).await {
        let name = m["name"].as_str().expect("name");
        assert!(html.contains(name), "{name} named");
    }
    // Nothing loaded by URL: no script, no linked style, no image.
    let lower = html.to_lowercase();
    for banned in [
        "<script",
        "<link",
        "src=",
        "<img",
        "url(",
        "@import",
        "href=\"http",
    ] {
        assert!(!lower.contains(banned), "{banned} in the file");
    }
    assert!(html.contains("@media print"), "prints to PDF");
    assert!(html.contains("Needs attention"));

    // One machine's report as HTML too, titled with its name.
    let id = fleet(&sb).await[0].clone();
    let (id_s, name) = (
        id["id"].to_string(),
        id["name"].as_str().unwrap().to_owned(),
    );
    let args = [
        "--equipment",
        &id_s,
        "--since",
        &s,
        "--until",
        &u,
        "--format",
        "html",
    ];
    let out = report(&sb.base, Some(&sb.token), &cache, &args).await;
    let (one, err) = text(&out);
    assert!(out.status.success(), "{err}");
    assert_well_formed(&one);
    assert!(
        one.contains(&format!("<h1>Report of {name} (equipment {id_s})</h1>")),
        "{one}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_report_high_idle_follows_the_idle_threshold_given() {
    let sb = sandbox().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let (s, u, _, _) = week();
    let mut idle_machines = None;
    for threshold in ["0", "100"] {
        let args = [
            "--fleet",
            "--since",
            &s,
            "--until",
            &u,
            "--idle-threshold-percent",
            threshold,
        ];
        let out = report(&sb.base, Some(&sb.token), &cache, &args).await;
        let (stdout, err) = text(&out);
        assert!(out.status.success(), "{err}");
        let doc: Value = serde_json::from_str(&stdout).expect("json");
        let machines = doc["machines"].as_array().expect("machines");
        let idle = machines
            .iter()
            .filter(|m| {
                m["totals"]["idle_percent"]
                    .as_f64()
                    .is_some_and(|p| p > 0.0)
            })
            .count();
        let flagged: Vec<&Value> = machines
            .iter()
            .flat_map(|m| m["attention"].as_array().expect("attention"))
            .filter(|a| a["kind"] == "high_idle")
            .collect();
        if threshold == "0" {
            assert!(idle > 0, "the sandbox's machines idle: {stdout}");
            assert_eq!(flagged.len(), idle, "every idling machine: {flagged:?}");
            for a in &flagged {
                assert!(a["text"].as_str().unwrap().ends_with("(above 0 %)"), "{a}");
            }
            idle_machines = Some(idle);
        } else {
            assert!(flagged.is_empty(), "none idles above 100 %: {flagged:?}");
        }
    }
    assert!(idle_machines.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_report_bad_input_is_a_usage_error_and_an_unwritable_output_leaves_nothing() {
    let sb = sandbox().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let (s, u, _, _) = week();
    for (args, says) in [
        (vec!["--fleet", "--equipment", "1001"], "--equipment"),
        (
            vec!["--fleet", "--tank-capacity-l", "300"],
            "--tank-capacity-l",
        ),
        (vec![], "--equipment"),
        (
            vec!["--equipment", "1001", "--idle-threshold-percent", "50"],
            "--idle-threshold-percent",
        ),
        (vec!["--fleet", "--idle-threshold-percent", "101"], "101"),
    ] {
        let args = [&args[..], &["--since", &s, "--until", &u]].concat();
        let out = report(&sb.base, Some(&sb.token), &cache, &args).await;
        let (stdout, err) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(stdout.is_empty());
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let missing = dir.path().join("no such folder").join("fleet.md");
    let output = missing.to_str().expect("utf-8");
    let args = [
        "--fleet", "--since", &s, "--until", &u, "--format", "md", "-o", output,
    ];
    let out = report(&sb.base, Some(&sb.token), &cache, &args).await;
    let (stdout, err) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(err.contains(output), "names the path given: {err}");
    assert!(!missing.exists());
    assert!(!dir.path().join("no such folder").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_report_offline_writes_what_the_cache_holds_and_names_what_it_lacks() {
    let sb = sandbox().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache.sqlite");
    let (s, u, since, _) = week();
    // Online: the fleet's list and snapshots (the day before the week),
    // and one machine's week.
    let before = format_wire(since - DAY);
    let args = [
        "--fleet",
        "--since",
        &before,
        "--until",
        &format_wire(since - 1),
    ];
    let out = report(&sb.base, Some(&sb.token), &cache, &args).await;
    assert!(out.status.success(), "{}", text(&out).1);
    let listed = fleet(&sb).await;
    let first = listed[0]["id"].as_i64().expect("id");
    let one = first.to_string();
    let args = ["--equipment", &one, "--since", &s, "--until", &u];
    let out = report(&sb.base, Some(&sb.token), &cache, &args).await;
    assert!(out.status.success(), "{}", text(&out).1);
    let base = sb.base.clone();
    sb.running.shutdown().await;

    let path = dir.path().join("offline.json");
    let output = path.to_str().expect("utf-8");
    let args = [
        "--fleet",
        "--offline",
        "--since",
        &s,
        "--until",
        &u,
        "-o",
        output,
    ];
    let out = report(&base, None, &cache, &args).await;
    let (_, err) = text(&out);
    assert_eq!(
        out.status.code(),
        Some(5),
        "as export when the cache lacks data: {err}"
    );
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("json");
    let machines = doc["machines"].as_array().expect("machines");
    assert_eq!(machines.len() as u64, FLEET, "every machine listed");
    assert!(
        machines[0]["totals"]["engine_hours_h"].is_number(),
        "the cached one"
    );
    let notes: Vec<&str> = doc["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let lacking = notes
        .iter()
        .find(|n| n.contains("not in the cache"))
        .unwrap_or_else(|| panic!("a note names the machines lacking: {notes:?}"));
    for m in &listed[1..] {
        let id = m["id"].as_i64().unwrap();
        let name = m["name"].as_str().unwrap();
        assert!(
            lacking.contains(&format!("{name} (equipment {id})")),
            "{lacking}"
        );
        assert!(err.contains(&format!("equipment {id}")), "on stderr: {err}");
        let machine = machines
            .iter()
            .find(|x| x["equipment"] == id)
            .expect("listed");
        assert!(machine["totals"]["engine_hours_h"].is_null());
    }
    assert!(
        !lacking.contains(&format!("equipment {first})")),
        "{lacking}"
    );
}
