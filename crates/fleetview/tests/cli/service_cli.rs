//! `fleetview service`: the binary against a real sandbox over loopback,
//! the service book in a temporary folder. What `due` says is checked
//! against the service's own readings, read here over HTTP (the snapshot's
//! hour meter, the daily rows' end readings), not by the code under test;
//! every bad row of an import refuses the whole file; an import said done
//! survives `kill -9`; the calendar is RFC 5545's; a damaged book is never
//! written.

use fleetview_testkit as common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use crate::binary::{output_async, stderr};
use common::Sandbox;
use fleetview_api::time::{civil_from_days, parse_lenient};
use serde_json::Value;

const DAY: i64 = 86_400;
/// A small fleet: every machine is read by the command and by the test.
const FLEET: u64 = 8;
/// The machine plan's last service, this many days before today.
const BACK_DAYS: i64 = 20;

/// The sandbox's today, in days since 1970-01-01.
fn today() -> i64 {
    common::now().div_euclid(DAY)
}

fn date(day: i64) -> String {
    let (y, m, d) = civil_from_days(day);
    format!("{y:04}-{m:02}-{d:02}")
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// A machine of the fleet as the service lists it, with its meter now.
#[derive(Debug, Clone)]
struct Machine {
    id: i64,
    name: String,
    category: Option<String>,
    /// The snapshot's `cumulativeOperatingHours.hour`.
    hours_now: Option<f64>,
}

/// A sandbox, and a folder for the cache, the book and the files.
struct Env {
    sb: Sandbox,
    dir: tempfile::TempDir,
}

impl Env {
    async fn new() -> Self {
        Self {
            sb: common::start_with(common::fixed_config().fleet_size(FLEET)).await,
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    fn book(&self) -> PathBuf {
        self.dir.path().join("book").join("service.sqlite")
    }

    /// `fleetview service JOB ARGS` on the sandbox, with its token and
    /// its now, the cache and the book in the temporary folder.
    fn command(&self, job: &str, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_fleetview"));
        cmd.args(["service", job])
            .args(args)
            .arg("--base-url")
            .arg(&self.sb.base)
            .arg("--cache-file")
            .arg(self.dir.path().join("cache.sqlite"))
            .arg("--service-file")
            .arg(self.book())
            .args(["--now", common::NOW])
            .env_remove("FLEETVIEW_API_KEY")
            .env_remove("FLEETVIEW_API_KEY_NAME")
            .env("FLEETVIEW_TOKEN", &self.sb.token)
            .env("RUST_LOG", "warn");
        cmd
    }

    async fn run(&self, job: &str, args: &[&str]) -> Output {
        output_async(self.command(job, args)).await
    }

    /// Runs it, which must succeed; its stdout.
    async fn ok(&self, job: &str, args: &[&str]) -> String {
        let out = self.run(job, args).await;
        assert!(
            out.status.success(),
            "service {job} {args:?}: {}",
            stderr(&out)
        );
        String::from_utf8(out.stdout).expect("utf-8")
    }

    fn file(&self, name: &str, text: &str) -> String {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).expect("written");
        path.display().to_string()
    }

    async fn import(&self, name: &str, text: &str) -> String {
        let file = self.file(name, text);
        self.ok("import", &[&file]).await
    }

    async fn plans_csv(&self) -> String {
        self.ok("export", &["--format", "csv"]).await
    }

    /// The fleet, each machine's meter now read from its own snapshot.
    async fn fleet(&self) -> Vec<Machine> {
        let body: Value = self
            .sb
            .get_ok("/v2/fleet/equipments?limit=50&offset=0")
            .await;
        let rows = body["data"]["rows"].as_array().expect("rows").clone();
        assert_eq!(rows.len() as u64, FLEET);
        let mut out = Vec::new();
        for r in rows {
            let id = r["id"].as_i64().expect("id");
            let snap: Value = self
                .sb
                .get_ok(&format!("/v2/fleet/equipments/{id}/snapshot"))
                .await;
            out.push(Machine {
                id,
                name: r["name"].as_str().expect("name").to_owned(),
                category: r["category"].as_str().map(str::to_owned),
                hours_now: snap["data"]["cumulativeOperatingHours"]["hour"].as_f64(),
            });
        }
        out
    }

    /// The machine's hour meter at each day's end from `since` (a day) to
    /// now, from its daily rows.
    async fn day_ends(&self, id: i64, since: i64) -> BTreeMap<i64, f64> {
        let body: Value = self
            .sb
            .get_ok(&format!(
                "/v2/fleet/equipments/{id}/history?{}",
                common::window_query(since * DAY, common::now())
            ))
            .await;
        let rows = body["data"]["dailyUsages"]["rows"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        rows.iter()
            .filter_map(|r| {
                let day = parse_lenient(r["date"].as_str()?).ok()?.div_euclid(DAY);
                Some((day, r["cumulativeOperatingHours"]["hour"].as_f64()?))
            })
            .collect()
    }

    /// A machine whose hour meter counted on, never reset, from
    /// `BACK_DAYS` ago to its snapshot, and its reading at that day's end.
    async fn steady_machine(&self, fleet: &[Machine]) -> (Machine, f64) {
        for m in fleet {
            let Some(now) = m.hours_now else { continue };
            let since = today() - BACK_DAYS;
            let ends = self.day_ends(m.id, since).await;
            let Some(&from) = ends.get(&since) else {
                continue;
            };
            let readings: Vec<f64> = ends.values().copied().chain([now]).collect();
            if readings.windows(2).all(|w| w[1] >= w[0]) && now > from {
                return (m.clone(), from);
            }
        }
        panic!("no machine of the fleet counted hours steadily: {fleet:?}");
    }
}

/// What `due` writes, parsed; its items by (equipment, task).
fn items(json: &str) -> (Value, BTreeMap<(i64, String), Value>) {
    let doc: Value = serde_json::from_str(json).expect("one JSON document");
    let by = doc["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| {
            let key = (
                i["equipment"].as_i64().expect("equipment"),
                i["task"].as_str().expect("task").to_owned(),
            );
            (key, i.clone())
        })
        .collect();
    (doc, by)
}

fn status_of(remaining: f64, every: f64) -> &'static str {
    if remaining < 0.0 {
        "overdue"
    } else if remaining <= every * 0.10 {
        "due_soon"
    } else {
        "ok"
    }
}

fn close(what: &str, got: &Value, want: f64) {
    let got = got.as_f64().unwrap_or_else(|| panic!("{what}: {got}"));
    assert!((got - want).abs() <= 0.011, "{what}: {got}, want {want}");
}

/// A plan for each scope: the steady machine's hours, a category's, and
/// a days plan.
struct Plans {
    csv: String,
    machine: Machine,
    from: f64,
    every_h: f64,
    category: String,
    days_machine: i64,
}

async fn plans(env: &Env, fleet: &[Machine]) -> Plans {
    let (machine, from) = env.steady_machine(fleet).await;
    let category = fleet
        .iter()
        .find_map(|m| m.category.clone())
        .expect("a machine with a category");
    let days_machine = fleet
        .iter()
        .find(|m| m.id != machine.id)
        .expect("another")
        .id;
    let every_h = 250.0;
    let csv = format!(
        "scope,task,every,unit,last_done_date,last_done_meter\n\
         {id},Engine oil and filter,{every_h},h,{done},{from}\n\
         {category},Greasing,50,h,,\n\
         {days_machine},Annual inspection,365,days,{inspected},\n",
        id = machine.id,
        done = date(today() - BACK_DAYS),
        // Due in 7 days.
        inspected = date(today() + 7 - 365),
    );
    Plans {
        csv,
        machine,
        from,
        every_h,
        category,
        days_machine,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn due_says_what_the_services_own_meters_make_of_each_plan() {
    let env = Env::new().await;
    let fleet = env.fleet().await;
    let p = plans(&env, &fleet).await;
    let said = env.import("plans.csv", &p.csv).await;
    assert_eq!(
        said.trim(),
        format!(
            "imported 3 plans (0 replaced) into {}",
            env.book().display()
        )
    );
    let json = env.ok("due", &["--format", "json"]).await;
    let (doc, by) = items(&json);
    assert_eq!(doc["generated_at"], common::NOW);

    // The machine's own plan, from the service's readings.
    let m = &by[&(p.machine.id, "Engine oil and filter".to_owned())];
    let now = p.machine.hours_now.expect("an hour meter");
    assert_eq!(m["name"], p.machine.name.as_str());
    assert_eq!(m["meter_now"].as_f64(), Some(round2(now)), "{m}");
    close("last_done_meter", &m["last_done_meter"], p.from);
    close("next_due_meter", &m["next_due_meter"], p.from + p.every_h);
    let remaining = p.every_h - (now - p.from);
    close("remaining", &m["remaining"], remaining);
    assert_eq!(m["status"], status_of(remaining, p.every_h), "{m}");
    assert_eq!(m["due_date"], Value::Null);

    // The days plan: due a year after it was done.
    let d = &by[&(p.days_machine, "Annual inspection".to_owned())];
    assert_eq!(d["due_date"], date(today() + 7).as_str(), "{d}");
    close("remaining days", &d["remaining"], 7.0);
    assert_eq!(d["status"], status_of(7.0, 365.0));

    // The category's plan: each of its machines, never done, so unknown.
    let of_category: Vec<&Machine> = fleet
        .iter()
        .filter(|m| m.category.as_deref() == Some(p.category.as_str()))
        .collect();
    assert!(!of_category.is_empty());
    for machine in &of_category {
        let g = &by[&(machine.id, "Greasing".to_owned())];
        assert_eq!(g["status"], "unknown", "{g}");
        assert_eq!(
            g["meter_now"].as_f64(),
            machine.hours_now.map(round2),
            "{g}"
        );
        assert_eq!(g["next_due_meter"], Value::Null);
    }
    assert_eq!(by.len(), 2 + of_category.len(), "nothing else: {json}");

    // Overdue first, then due soon, unknown, ok.
    let rank = |s: &str| {
        ["overdue", "due_soon", "unknown", "ok"]
            .iter()
            .position(|k| *k == s)
    };
    let ranks: Vec<usize> = doc["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| rank(i["status"].as_str().expect("status")).expect("a status"))
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{json}");

    // The CSV holds the same rows; --within keeps what falls due by then.
    let csv = env.ok("due", &["--format", "csv"]).await;
    assert!(csv.starts_with("equipment,name,task,unit,every,"), "{csv}");
    assert_eq!(csv.lines().count(), by.len() + 1, "{csv}");
    let (_, soon) = items(&env.ok("due", &["--format", "json", "--within", "10"]).await);
    assert!(soon.contains_key(&(p.days_machine, "Annual inspection".to_owned())));
    assert!(soon.values().all(|i| i["status"] != "unknown"), "{soon:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_row_refuses_the_whole_file_and_the_book_is_unchanged() {
    let env = Env::new().await;
    let fleet = env.fleet().await;
    let (machine, from) = env.steady_machine(&fleet).await;
    let id = machine.id;
    let done = date(today() - BACK_DAYS);
    env.import(
        "first.csv",
        &format!("scope,task,every,unit,last_done_date,last_done_meter\n{id},Engine oil,250,h,{done},{from}\n"),
    )
    .await;
    let before = env.plans_csv().await;
    assert_eq!(before.lines().count(), 2, "{before}");

    let header = "scope,task,every,unit,last_done_date,last_done_meter";
    // A good row first: it must not be kept either.
    let good = format!("{id},Air filter,500,h,{done},{from}");
    let above = machine.hours_now.expect("an hour meter") + 1000.0;
    let recent = date(today() - 5);
    let cases: Vec<(&str, String, u64, &str)> = vec![
        (
            "missing column",
            format!("scope,task,every,unit,last_done_date\n{id},Oil,250,h,{done}\n"),
            1,
            "missing column last_done_meter",
        ),
        (
            "unknown unit",
            format!("{header}\n{good}\n{id},Oil,250,hours,{done},{from}\n"),
            3,
            "unknown unit \"hours\"",
        ),
        (
            "zero interval",
            format!("{header}\n{good}\n{id},Oil,0,h,{done},{from}\n"),
            3,
            "interval \"0\" is not a positive number",
        ),
        (
            "negative interval",
            format!("{header}\n{good}\n{id},Oil,-250,h,{done},{from}\n"),
            3,
            "interval \"-250\" is not a positive number",
        ),
        (
            "future date",
            format!(
                "{header}\n{good}\n{id},Oil,250,h,{},{from}\n",
                date(today() + 1)
            ),
            3,
            "is in the future",
        ),
        (
            "meter above the meter now",
            format!("{header}\n{good}\n{id},Oil,250,h,{recent},{above}\n"),
            3,
            "is above the meter now",
        ),
        (
            "unknown id",
            format!("{header}\n{good}\n999999,Oil,250,h,{done},10\n"),
            3,
            "equipment 999999 is not in the fleet",
        ),
        (
            "unknown category",
            format!("{header}\n{good}\nSpaceship,Oil,250,h,,\n"),
            3,
            "no machine of the fleet is of category \"Spaceship\"",
        ),
        (
            "a service done on an unknown machine",
            format!(
                "equipment,task,unit,date,meter\n{id},Engine oil,h,{done},{from}\n999999,Oil,h,{done},10\n"
            ),
            3,
            "equipment 999999 is not in the fleet",
        ),
    ];
    for (what, text, line, reason) in cases {
        let file = env.file("bad.csv", &text);
        let out = env.run("import", &[&file]).await;
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains(&format!("line {line}: ")) && err.contains(reason),
            "{what}: {err}"
        );
        assert!(out.stdout.is_empty(), "{what}: nothing said imported");
        assert_eq!(
            env.plans_csv().await,
            before,
            "{what}: the book is unchanged"
        );
        let history = env.ok("export", &["--format", "csv", "--history"]).await;
        assert_eq!(
            history.lines().count(),
            1,
            "{what}: no service done: {history}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_import_said_done_survives_kill_9() {
    let env = Env::new().await;
    let fleet = env.fleet().await;
    let p = plans(&env, &fleet).await;
    let file = env.file("plans.csv", &p.csv);
    let mut cmd = env.command("import", &[&file]);
    cmd.stdout(Stdio::piped()).stderr(Stdio::null());
    let line = tokio::task::spawn_blocking(move || {
        let mut child = cmd.spawn().expect("fleetview starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("its line");
        // SIGKILL at once: no clean exit, nothing flushed after the line.
        let _ = child.kill();
        let _ = child.wait();
        line
    })
    .await
    .expect("ran");
    assert!(line.starts_with("imported 3 plans"), "{line:?}");
    let csv = env.plans_csv().await;
    for task in ["Engine oil and filter", "Greasing", "Annual inspection"] {
        assert!(csv.contains(task), "{task} kept: {csv}");
    }
    assert_eq!(csv.lines().count(), 4, "{csv}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_calendar_is_an_rfc_5545_file_with_one_event_per_dated_item() {
    let env = Env::new().await;
    let fleet = env.fleet().await;
    let p = plans(&env, &fleet).await;
    env.import("plans.csv", &p.csv).await;
    let (_, by) = items(&env.ok("due", &["--format", "json"]).await);
    let dated = by
        .values()
        .filter(|i| !i["due_date"].is_null() || !i["forecast_date"].is_null())
        .count();
    assert!(dated >= 1, "the days plan at least: {by:?}");
    let ics = env.ok("export", &["--format", "ics"]).await;
    assert!(ics.starts_with("BEGIN:VCALENDAR\r\n"), "{ics}");
    assert!(ics.ends_with("END:VCALENDAR\r\n"), "{ics}");
    assert!(
        !ics.replace("\r\n", "").contains('\n') && !ics.replace("\r\n", "").contains('\r'),
        "every line ends with CRLF"
    );
    let lines: Vec<&str> = ics.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert!(lines.iter().all(|l| l.len() <= 75), "folded at 75 octets");
    for required in ["VERSION:2.0", "PRODID:-//Fleetview//Service plans//EN"] {
        assert!(lines.contains(&required), "{required}: {ics}");
    }
    let begins = lines.iter().filter(|l| **l == "BEGIN:VEVENT").count();
    let ends = lines.iter().filter(|l| **l == "END:VEVENT").count();
    assert_eq!((begins, ends), (dated, dated), "{ics}");
    let count = |prefix: &str| lines.iter().filter(|l| l.starts_with(prefix)).count();
    for prefix in [
        "UID:",
        "DTSTAMP:",
        "DTSTART;VALUE=DATE:",
        "DTEND;VALUE=DATE:",
        "SUMMARY:",
    ] {
        assert_eq!(count(prefix), dated, "{prefix} in each event: {ics}");
    }
    let inspection = date(today() + 7).replace('-', "");
    assert!(
        lines.contains(&format!("DTSTART;VALUE=DATE:{inspection}").as_str()),
        "the inspection on its day: {ics}"
    );
    assert!(
        lines.contains(&"DTSTAMP:20250618T153000Z"),
        "stamped now: {ics}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_or_newer_book_is_never_written() {
    let env = Env::new().await;
    let fleet = env.fleet().await;
    let p = plans(&env, &fleet).await;
    let file = env.file("plans.csv", &p.csv);

    let junk: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::create_dir_all(env.book().parent().expect("folder")).expect("folder");
    std::fs::write(env.book(), &junk).expect("junk");
    let out = env.run("import", &[&file]).await;
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("is read-only")
            && err.contains("damaged")
            && err.contains("nothing was imported"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    assert_eq!(
        std::fs::read(env.book()).expect("read"),
        junk,
        "byte for byte"
    );

    // A book a newer fleetview wrote: read, never written.
    std::fs::remove_file(env.book()).expect("removed");
    env.import("plans.csv", &p.csv).await;
    let conn = rusqlite::Connection::open(env.book()).expect("open");
    conn.execute_batch("PRAGMA user_version = 99;")
        .expect("newer");
    drop(conn);
    let newer = std::fs::read(env.book()).expect("read");
    let out = env.run("import", &[&file]).await;
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("newer fleetview"), "{err}");
    assert_eq!(std::fs::read(env.book()).expect("read"), newer, "unchanged");
    assert_eq!(env.plans_csv().await.lines().count(), 4, "still read");
}
