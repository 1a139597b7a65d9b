//! Ingest speed, as ratios measured in one run (`cargo bench --bench ingest`):
//! - columnar decode of rows of any shape >= 2 M rows/s and >= 0.8x the
//!   speed of plain serde_json typed decode of the same bytes;
//! - the wire date parser, ns per date, and faster than jiff's own
//!   parser on the same strings (the hand-written one stays only while it
//!   is).
//!
//! Ends with `N passed, M failed`.
#![allow(clippy::print_stdout)] // The report is the output.

use fleetview_testkit::goals as common;

use std::hint::black_box;
use std::time::Duration;

use common::{Goals, best_of};

use fleetview_api::model::{DailyUsageRow, Envelope, PositionRow, SeriesData};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow, format_wire, parse_wire};
use fleetview_core::series::decode_envelope;
use fleetview_sandbox::Clock;
use fleetview_sandbox::encode::PositionsWriter;
use fleetview_sandbox::simulate::machine::Feed;
use fleetview_sandbox::simulate::series::Rows;
use fleetview_sandbox::simulate::{Machine, Simulator};

/// `min_rows_per_sec` applies to rows of typical size (positions); rows of
/// 800 bytes (daily usages) are held to the ratio only.
fn compare<T: serde::de::DeserializeOwned>(
    goals: &mut Goals,
    what: &str,
    bytes: &[u8],
    min_rows_per_sec: f64,
) {
    let (_, series) = decode_envelope(bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
    let rows = series.len();
    let columnar = best_of(Duration::from_secs(2), || {
        black_box(
            decode_envelope(bytes)
                .map(|(_, s)| s.len())
                .unwrap_or_default(),
        );
    });
    let typed = best_of(Duration::from_secs(2), || {
        let env: Envelope<SeriesData<T>> =
            serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("{e}"));
        black_box(env.data.rows.len());
    });
    let col_rate = rows as f64 / columnar.as_secs_f64();
    let typed_rate = rows as f64 / typed.as_secs_f64();
    println!(
        "{what}: {rows} rows, {} channels, {:.1} MB: columnar {:.2} M rows/s, typed serde {:.2} M rows/s",
        series.channels.len(),
        bytes.len() as f64 / 1e6,
        col_rate / 1e6,
        typed_rate / 1e6
    );
    println!(
        "  columnar {:.0} MB/s",
        bytes.len() as f64 / columnar.as_secs_f64() / 1e6
    );
    if min_rows_per_sec > 0.0 {
        goals.check(
            col_rate >= min_rows_per_sec,
            format!(
                "{what}: columnar ingest {:.2} M rows/s (goal >= {:.0} M)",
                col_rate / 1e6,
                min_rows_per_sec / 1e6
            ),
        );
    }
    let ratio = col_rate / typed_rate;
    goals.check(
        ratio >= 0.8,
        format!("{what}: columnar / typed serde = {ratio:.2}x (goal >= 0.8x)"),
    );
}

fn main() -> std::process::ExitCode {
    let mut goals = Goals::default();
    let now = parse_wire("2025-06-18T15:30:00Z").unwrap_or_default();
    let sim = Simulator::new(60, Clock::Fixed(now));

    // Positions: the densest kind, from a tracker reporting every 10 s.
    let m = (0..60)
        .map(Machine::at_index)
        .find(|m| {
            matches!(
                m.feed,
                Feed::Tracker {
                    moving_secs: 10,
                    ..
                }
            )
        })
        .expect("a 10 s tracker in the fleet");
    let w = TimeWindow {
        since: now - 30 * SECS_PER_DAY,
        until: now,
    };
    let mut writer = PositionsWriter::new();
    sim.for_each_position(&m, w, |r| writer.push(&r));
    let positions = writer.finish(m.id, &m.serial_number, w);
    compare::<PositionRow>(&mut goals, "positions", &positions, 2e6);

    // Daily usages: deep rows with 17 nested members.
    let m = Machine::at_index(1);
    let w = TimeWindow {
        since: now - 3 * 365 * SECS_PER_DAY,
        until: now,
    };
    let Rows::DailyUsages(rows) = sim.kind_rows(&m, fleetview_api::DataKind::DailyUsages, w) else {
        unreachable!("daily usages");
    };
    let data = SeriesData {
        total: rows.len() as i64,
        rows,
        id: m.id,
        serial_number: m.serial_number.clone(),
        since: fleetview_api::Timestamp::from_secs(w.since),
        until: fleetview_api::Timestamp::from_secs(w.until),
    };
    let daily = serde_json::to_vec(&Envelope { data }).unwrap_or_default();
    compare::<DailyUsageRow>(&mut goals, "dailyUsages", &daily, 0.0);

    // The wire date parser.
    let dates: Vec<String> = (0..100_000).map(|i| format_wire(now - i * 37)).collect();
    let parse = best_of(Duration::from_secs(1), || {
        let mut sum = 0i64;
        for d in &dates {
            sum = sum.wrapping_add(parse_wire(d).unwrap_or_default());
        }
        black_box(sum);
    });
    let ns = parse.as_nanos() as f64 / dates.len() as f64;
    println!("date parse: {ns:.1} ns/date");
    goals.check(
        ns < 50.0,
        format!("wire date parse {ns:.1} ns/date (goal < 50 ns)"),
    );
    let jiff = best_of(Duration::from_secs(1), || {
        let mut sum = 0i64;
        for d in &dates {
            let t = d.parse::<jiff::Timestamp>().map(|t| t.as_second());
            sum = sum.wrapping_add(t.unwrap_or_default());
        }
        black_box(sum);
    });
    let jiff_ns = jiff.as_nanos() as f64 / dates.len() as f64;
    let same = dates
        .iter()
        .all(|d| parse_wire(d).ok() == d.parse::<jiff::Timestamp>().ok().map(|t| t.as_second()));
    goals.check(same, "parse_wire reads the dates as jiff does".to_owned());
    let speedup = jiff_ns / ns;
    goals.check(
        speedup > 1.0,
        format!(
            "wire date parse: parse_wire {ns:.1} ns/date, jiff {jiff_ns:.1} ns/date, {speedup:.1}x (goal > 1x, else jiff's parser replaces it)"
        ),
    );

    goals.finish()
}
