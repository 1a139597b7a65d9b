//! Goal 5, exports that stream: `fleetview export` (the real binary) of a
//! year of a road truck's positions from the bench's sandbox as CSV,
//! GeoJSON, GPX and JSON, each to a file, each process's peak memory
//! compared with the CSV's, which streams.
//!
//! The peak is GNU time's `%M` (ru_maxrss from its own wait4), not a
//! wait4 of ours: Linux keeps the high-water mark across exec, so a child
//! spawned by this process (hundreds of MB by now) reports this process's
//! peak, whatever it uses itself; `time` is a child of a few MB.

use std::path::Path;
use std::process::{Command, Stdio};

use fleetview_api::TimeWindow;
use fleetview_api::time::format_wire;
use fleetview_sandbox::auth::{DEMO_API_KEY, DEMO_API_KEY_NAME};
use fleetview_testkit::goals::Goals;

const TIME: &str = "/usr/bin/time";

/// One export's peak memory and file size, in bytes.
struct Measured {
    peak: u64,
    file: u64,
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// Runs `fleetview export` of `truck`'s positions over `w` as `format`
/// into `dir`, under GNU time.
fn export(base: &str, now: &str, truck: i64, w: TimeWindow, format: &str, dir: &Path) -> Measured {
    let (out, rss) = (
        dir.join(format!("year.{format}")),
        dir.join(format!("{format}.rss")),
    );
    let (since, until) = (format_wire(w.since), format_wire(w.until));
    let done = Command::new(TIME)
        .args(["-f", "%M", "-o"])
        .arg(&rss)
        .arg(env!("CARGO_BIN_EXE_fleetview"))
        .args([
            "export",
            "--base-url",
            base,
            "--no-cache",
            "--kind",
            "positions",
        ])
        .args(["--equipment", &truck.to_string(), "--format", format])
        .args([
            "--since", &since, "--until", &until, "--now", now, "--output",
        ])
        .arg(&out)
        .env_remove("FLEETVIEW_TOKEN")
        .env("FLEETVIEW_API_KEY_NAME", DEMO_API_KEY_NAME)
        .env("FLEETVIEW_API_KEY", DEMO_API_KEY)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{TIME} runs (GNU time: apt-get install time): {e}"));
    let said = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "the {format} export failed: {said}");
    let kb: u64 = std::fs::read_to_string(&rss)
        .ok()
        .and_then(|t| t.trim().lines().last()?.trim().parse().ok())
        .unwrap_or_else(|| panic!("{TIME} -f %M gave no number in {}", rss.display()));
    let file = std::fs::metadata(&out).map_or(0, |m| m.len());
    // Only the sizes are wanted: a year is tens of MB each.
    let _ = std::fs::remove_file(&out);
    Measured {
        peak: kb * 1024,
        file,
    }
}

/// Checks goal 5 (a few seconds): GeoJSON, GPX and JSON each peak at
/// most 1.5x the CSV export of the same year.
pub fn exports_stream(goals: &mut Goals, base: &str, now: &str, truck: i64, w: TimeWindow) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let csv = export(base, now, truck, w, "csv", dir.path());
    let others: Vec<(&str, Measured)> = [("GeoJSON", "geojson"), ("GPX", "gpx"), ("JSON", "json")]
        .into_iter()
        .map(|(name, format)| (name, export(base, now, truck, w, format, dir.path())))
        .collect();
    let ratio = |m: &Measured| m.peak as f64 / csv.peak.max(1) as f64;
    let worst = others.iter().map(|(_, m)| ratio(m)).fold(0.0, f64::max);
    let each: Vec<String> = others
        .iter()
        .map(|(name, m)| {
            format!(
                "{name} {} ({} file, {:.2}x)",
                mb(m.peak),
                mb(m.file),
                ratio(m)
            )
        })
        .collect();
    goals.check(
        worst <= 1.5,
        format!(
            "exports: a year of positions, peak memory of `fleetview export`: CSV {} ({} file), {}: worst {worst:.2}x (goal <= 1.5x the CSV)",
            mb(csv.peak),
            mb(csv.file),
            each.join(", ")
        ),
    );
}
