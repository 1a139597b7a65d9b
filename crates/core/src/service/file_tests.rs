//! The service book on a real SQLite file, and the CSV and iCalendar
//! files read and written.

use std::collections::HashMap;

use super::import::*;
use super::plan::*;
use super::store::*;
use super::usage::MetersNow;
use super::write::*;

const PLANS: &str = "scope,task,every,unit,last_done_date,last_done_meter
7,Engine oil and filter,250,h,2026-10-01,1200.5
Excavator,Hydraulic oil,1000,h,,
Crane,Annual inspection,365,days,2026-01-15,
";

fn fleet() -> (HashMap<i64, Option<String>>, HashMap<i64, MetersNow>) {
    let machines = HashMap::from([
        (7, Some("Excavator".to_owned())),
        (8, Some("Crane".to_owned())),
    ]);
    let meters = HashMap::from([(
        7,
        MetersNow {
            hours_h: Some(1400.0),
            odometer_km: None,
        },
    )]);
    (machines, meters)
}

fn checked(text: &str) -> Result<Imported, ImportError> {
    let (machines, meters) = fleet();
    let imported = read_csv(text.as_bytes(), 0)?;
    let no_reset = |_: i64, _: PlanUnit, _: Day| false;
    check(
        &imported,
        &FleetCheck {
            machines: &machines,
            meters: &meters,
            reset_since: &no_reset,
            today: Day::parse("2026-12-01").unwrap(),
        },
    )?;
    Ok(imported)
}

#[test]
fn plans_read_with_their_scopes_and_last_done() {
    let Imported::Plans(rows) = checked(PLANS).unwrap() else {
        panic!("plans")
    };
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0].0, 2, "the first row is line 2");
    assert_eq!(rows[0].1.scope, PlanScope::Machine(7));
    assert_eq!(
        rows[0].1.last_done,
        Some(LastDone {
            day: Day::parse("2026-10-01").unwrap(),
            meter: Some(1200.5)
        })
    );
    assert_eq!(rows[1].1.scope, PlanScope::Category("Excavator".into()));
    assert_eq!(rows[1].1.last_done, None);
    assert_eq!(rows[2].1.unit, PlanUnit::Days);
}

#[test]
fn a_bad_row_is_refused_with_its_line_and_why() {
    let header = "scope,task,every,unit,last_done_date,last_done_meter\n";
    let cases = [
        ("7,Oil,250,hours,2026-10-01,1200\n", 2, "unknown unit"),
        ("7,Oil,0,h,2026-10-01,1200\n", 2, "not a positive number"),
        ("7,Oil,-5,h,2026-10-01,1200\n", 2, "not a positive number"),
        ("7,Oil,250,h,2026-12-24,1200\n", 2, "in the future"),
        ("7,Oil,250,h,2026-10-01,1500\n", 2, "above the meter now"),
        (
            "99,Oil,250,h,2026-10-01,10\n",
            2,
            "equipment 99 is not in the fleet",
        ),
        ("Bulldozer,Oil,250,h,,\n", 2, "category \"Bulldozer\""),
        ("7,,250,h,2026-10-01,10\n", 2, "no task"),
        ("7,Oil,250,h,2026-10-32,10\n", 2, "not a date"),
    ];
    for (row, line, why) in cases {
        let text = format!("{header}8,Fine,30,days,2026-11-01,\n{row}");
        let err = checked(&text).unwrap_err();
        assert_eq!(err.line, line + 1, "{row}");
        assert!(err.to_string().contains(why), "{row}: {err}");
    }
    let err =
        checked("scope,task,every,unit,last_done_date\n7,Oil,250,h,2026-10-01\n").unwrap_err();
    assert_eq!(err.line, 1);
    assert!(
        err.reason.contains("missing column last_done_meter"),
        "{err}"
    );
}

#[test]
fn a_reading_above_the_meter_is_fine_after_a_reset() {
    let (machines, meters) = fleet();
    let imported = read_csv(
        b"scope,task,every,unit,last_done_date,last_done_meter\n7,Oil,250,h,2026-10-01,4000\n",
        0,
    )
    .unwrap();
    let reset = |id: i64, _: PlanUnit, _: Day| id == 7;
    let fleet = FleetCheck {
        machines: &machines,
        meters: &meters,
        reset_since: &reset,
        today: Day::parse("2026-12-01").unwrap(),
    };
    assert_eq!(check(&imported, &fleet), Ok(()));
}

#[test]
fn the_book_keeps_plans_and_services_across_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data").join(FILE_NAME);
    let imported = checked(PLANS).unwrap();
    {
        let store = ServiceStore::open(&path).unwrap();
        assert_eq!(store.read_only(), None);
        assert_eq!(
            store.import("svc", &imported).unwrap(),
            ImportCount {
                added: 3,
                replaced: 0
            }
        );
        // Again: the same plans replace themselves.
        assert_eq!(
            store.import("svc", &imported).unwrap(),
            ImportCount {
                added: 0,
                replaced: 3
            }
        );
        let record = DoneRecord {
            equipment: 7,
            task: "Engine oil and filter".into(),
            unit: PlanUnit::Hours,
            done: LastDone {
                day: Day::parse("2026-11-20").unwrap(),
                meter: Some(1390.0),
            },
            recorded_at: 5,
        };
        store.record_done("svc", &record).unwrap();
    }
    let store = ServiceStore::open(&path).unwrap();
    let book = store.book("svc").unwrap();
    assert_eq!(book.plans.len(), 3);
    assert_eq!(book.done.len(), 1);
    assert!(
        store.book("other").unwrap().plans.is_empty(),
        "each service has its own"
    );
    // Written out and read back, the same plans.
    let again = read_csv(&plans_csv(&book.plans), 0).unwrap();
    let Imported::Plans(rows) = again else {
        panic!()
    };
    let plans: Vec<Plan> = book.plans.iter().map(|p| p.plan.clone()).collect();
    let read: Vec<Plan> = rows.into_iter().map(|(_, p)| p).collect();
    assert_eq!(read, plans);
    let Imported::Done(done) = read_csv(&done_csv(&book.done), 5).unwrap() else {
        panic!()
    };
    assert_eq!(done[0].1, book.done[0]);
}

#[test]
fn a_second_plan_for_the_same_task_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = ServiceStore::open(&dir.path().join(FILE_NAME)).unwrap();
    let plan = Plan {
        scope: PlanScope::Machine(7),
        task: "Oil".into(),
        every: 250.0,
        unit: PlanUnit::Hours,
        last_done: None,
    };
    let id = store.save_plan("svc", None, &plan).unwrap();
    let again = Plan {
        task: " oil".into(),
        ..plan.clone()
    };
    assert!(matches!(
        store.save_plan("svc", None, &again),
        Err(StoreError::Duplicate { .. })
    ));
    // Changing it is fine.
    store
        .save_plan(
            "svc",
            Some(id),
            &Plan {
                every: 300.0,
                ..plan
            },
        )
        .unwrap();
    assert_eq!(store.book("svc").unwrap().plans[0].plan.every, 300.0);
    store.delete_plan("svc", id).unwrap();
    assert!(store.book("svc").unwrap().plans.is_empty());
}

#[test]
fn a_damaged_file_opens_read_only_and_is_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let junk = b"this is not a database, it is a shopping list\n".repeat(100);
    std::fs::write(&path, &junk).unwrap();
    let store = ServiceStore::open(&path).unwrap();
    assert!(
        store.read_only().unwrap().contains("damaged"),
        "{:?}",
        store.read_only()
    );
    let plan = Plan {
        scope: PlanScope::Machine(7),
        task: "Oil".into(),
        every: 250.0,
        unit: PlanUnit::Hours,
        last_done: None,
    };
    assert!(matches!(
        store.save_plan("svc", None, &plan),
        Err(StoreError::ReadOnly(_))
    ));
    drop(store);
    assert_eq!(std::fs::read(&path).unwrap(), junk, "untouched");
}

#[test]
fn a_newer_schema_opens_read_only_with_its_plans() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    {
        let store = ServiceStore::open(&path).unwrap();
        let plan = Plan {
            scope: PlanScope::Machine(7),
            task: "Oil".into(),
            every: 250.0,
            unit: PlanUnit::Hours,
            last_done: None,
        };
        store.save_plan("svc", None, &plan).unwrap();
    }
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(&format!("PRAGMA user_version = {}", SCHEMA_VERSION + 1))
        .unwrap();
    drop(conn);
    let before = std::fs::read(&path).unwrap();
    let store = ServiceStore::open(&path).unwrap();
    assert!(store.read_only().unwrap().contains("newer fleetview"));
    assert_eq!(store.book("svc").unwrap().plans.len(), 1, "still read");
    assert!(
        store
            .record_done(
                "svc",
                &DoneRecord {
                    equipment: 7,
                    task: "Oil".into(),
                    unit: PlanUnit::Hours,
                    done: LastDone {
                        day: Day(1),
                        meter: Some(1.0)
                    },
                    recorded_at: 0,
                }
            )
            .is_err()
    );
    drop(store);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn the_calendar_is_rfc_5545() {
    use super::due::{DueStatus, due};
    use super::usage::MachineUsage;
    let plan = StoredPlan {
        id: PlanId(3),
        plan: Plan {
            scope: PlanScope::Machine(7),
            task: "Inspection; annual, with a very long name that needs folding over the line"
                .into(),
            every: 365.0,
            unit: PlanUnit::Days,
            last_done: Some(LastDone {
                day: Day::parse("2025-11-15").unwrap(),
                meter: None,
            }),
        },
    };
    let today = Day::parse("2026-12-01").unwrap();
    let mut item = due(
        &plan.plan,
        plan.plan.last_done,
        &MachineUsage::default(),
        today,
        0.1,
    );
    item.equipment = 7;
    item.plan = plan;
    assert_eq!(item.status, DueStatus::Overdue);
    let ics = String::from_utf8(calendar(
        &[(item, "EX-07".into())],
        today,
        1_764_547_200,
        "http://127.0.0.1:8080",
    ))
    .unwrap();
    assert!(ics.starts_with("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"));
    assert!(ics.ends_with("END:VCALENDAR\r\n"));
    assert!(
        ics.contains("DTSTART;VALUE=DATE:20261201\r\n"),
        "overdue: on today\n{ics}"
    );
    // Stable across exports: the machine and the task, the service's host.
    assert!(
        ics.contains("UID:service-7-inspection--annual--with-a-very"),
        "{ics}"
    );
    assert!(
        ics.replace("\r\n ", "").contains("@127.0.0.1-8080\r\n"),
        "{ics}"
    );
    assert!(ics.contains("SUMMARY:Overdue: Inspection\\; annual\\,"));
    for line in ics.split("\r\n") {
        assert!(line.len() <= 75, "folded: {line:?}");
    }
    assert!(!ics.replace("\r\n", "").contains('\n'));
}
