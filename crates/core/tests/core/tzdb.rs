//! The tz database the machines' local times are read in (D16): the
//! system's, kept up to date by the distribution, and the copy bundled in
//! the binary only when the system's cannot be found.

use std::process::Command;

/// Set in the copy of this binary that checks zones under a broken `TZDIR`.
const CHILD: &str = "FLEETVIEW_TZDB_CHILD";
const CHILD_TEST: &str = "tzdb::zones_resolve_from_the_environments_database";

/// 2025-01-15 12:00:00 UTC.
const NOON_UTC_SECS: i64 = 1_736_942_400;

fn chicago_hour(db: &jiff::tz::TimeZoneDatabase) -> i8 {
    let tz = db
        .get("America/Chicago")
        .unwrap_or_else(|e| panic!("{db:?}: {e}"));
    let t = jiff::Timestamp::from_second(NOON_UTC_SECS).expect("a time");
    t.to_zoned(tz).hour()
}

#[test]
fn the_system_database_comes_first_and_the_bundled_one_is_there() {
    if std::path::Path::new("/usr/share/zoneinfo/America/Chicago").exists() {
        let db = format!("{:?}", jiff::tz::db());
        assert!(db.contains("/usr/share/zoneinfo"), "{db}");
    }
    assert_eq!(chicago_hour(&jiff::tz::TimeZoneDatabase::bundled()), 6);
}

/// jiff reads `TZDIR` first; a `TZDIR` that points nowhere falls through
/// to the system's folders, then to the bundled copy.
#[test]
fn zones_resolve_when_tzdir_points_nowhere() {
    let exe = std::env::current_exe().expect("the test binary");
    let out = Command::new(exe)
        .args([CHILD_TEST, "--exact", "--test-threads=1"])
        .env(CHILD, "1")
        .env("TZDIR", "/nonexistent/zoneinfo")
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn zones_resolve_from_the_environments_database() {
    if std::env::var_os(CHILD).is_some() {
        assert_eq!(
            std::env::var_os("TZDIR").as_deref(),
            Some("/nonexistent/zoneinfo".as_ref())
        );
    }
    let db = jiff::tz::TimeZoneDatabase::from_env();
    assert_eq!(chicago_hour(&db), 6);
    assert_eq!(chicago_hour(jiff::tz::db()), 6);
}
