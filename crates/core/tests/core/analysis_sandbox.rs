//! The analysis layer on the simulator's data, read over HTTP from a
//! running sandbox: the change of a cumulative counter over a span of whole
//! days (statistics over a span) equals the sum of its daily figures, and
//! a report's window equals the sum of its days.

use fleetview_testkit as common;

use common::{Sandbox, start, window_query};
use fleetview_api::RowsChunk;
use fleetview_api::model::{DailyUsageRow, EngineConditionRow, Envelope, SeriesData};
use fleetview_api::time::{SECS_PER_DAY, TimeWindow};
use fleetview_core::analysis::{Expected, Figure, Report, ReportInputs, channel_stats};
use fleetview_core::series::{PlotSeries, decode_rows};
use fleetview_sandbox::Clock;
use fleetview_sandbox::simulate::{FIRST_ID, PlantedKind, Simulator};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

struct Ctx {
    rt: tokio::runtime::Runtime,
    sb: Sandbox,
}

fn path(id: i64, kind: &str, w: TimeWindow) -> String {
    format!(
        "/v2/fleet/equipments/{id}/{kind}?{}",
        window_query(w.since, w.until)
    )
}

fn typed<T: serde::de::DeserializeOwned>(ctx: &Ctx, id: i64, kind: &str, w: TimeWindow) -> Vec<T> {
    ctx.rt
        .block_on(ctx.sb.get_ok::<Envelope<SeriesData<T>>>(&path(id, kind, w)))
        .data
        .rows
}

fn plotted(ctx: &Ctx, id: i64, kind: &str, w: TimeWindow) -> PlotSeries {
    let body = ctx.rt.block_on(ctx.sb.raw_bytes(&path(id, kind, w)));
    let rows = RowsChunk::of(&body.into()).expect("rows").rows;
    PlotSeries::new(decode_rows(&rows).expect("decoded"))
}

/// Whether the engine runs at `t` by its D10 events (sorted).
fn running_at(events: &[EngineConditionRow], t: i64) -> bool {
    events
        .iter()
        .rev()
        .find(|e| e.date.0 <= t)
        .is_some_and(|e| e.is_start())
}

#[test]
fn a_counters_change_over_whole_days_is_the_sum_of_their_daily_figures() {
    let ctx = {
        let rt = tokio::runtime::Runtime::new().expect("runtime");
        let sb = rt.block_on(start());
        Ctx { rt, sb }
    };
    let today = common::now().div_euclid(SECS_PER_DAY);
    let mut runner = TestRunner::new(Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    });
    let checked = std::cell::Cell::new(0);
    let case = (0i64..60, 1i64..400, 1i64..10);
    runner
        .run(&case, |(index, back, days)| {
            let id = FIRST_ID + index;
            let first = today - back;
            let w = TimeWindow::new(first * SECS_PER_DAY, (first + days) * SECS_PER_DAY - 1)
                .expect("window");
            // A day before and after, to know the engine at the edges.
            let around =
                TimeWindow::new(w.since - SECS_PER_DAY, w.until + SECS_PER_DAY).expect("window");
            let events: Vec<EngineConditionRow> = typed(&ctx, id, "engineCondition", around);
            // Spans whose edges the engine runs across are not whole days'
            // worth of counter samples (none at midnight).
            prop_assume!(!running_at(&events, w.since) && !running_at(&events, w.until + 1));
            // An hour meter replaced in the span restarts its counter.
            let sim = Simulator::new(60, Clock::Fixed(common::now()));
            prop_assume!(
                !sim.planted(id, around)
                    .iter()
                    .any(|p| p.kind == PlantedKind::CounterReset)
            );
            let daily: Vec<DailyUsageRow> = typed(&ctx, id, "dailyUsages", w);
            let report = Report::compute(&ReportInputs {
                window: w,
                now: w.until,
                daily: &daily,
                idle_fuel: None,
                activities: None,
                engine: &[],
                positions: None,
                expected: Expected::default(),
                events: Default::default(),
            });
            for (kind, member, figure) in [
                ("cumulativeOperatingHours", "hour", Figure::EngineHours),
                ("cumulativeIdleHours", "hours", Figure::IdleHours),
            ] {
                let series = plotted(&ctx, id, kind, w);
                let sum: f64 = report
                    .days
                    .iter()
                    .filter_map(|(_, d)| d.value(figure))
                    .sum();
                // The window's figure is the sum of its days'.
                match report.totals.value(figure) {
                    Some(total) => prop_assert!((total - sum).abs() < 1e-9),
                    None => prop_assert!(daily.iter().all(|d| d.operating_hours.is_none())),
                }
                let Some(ch) = series.series.channels.iter().position(|c| c.name == member) else {
                    // No samples in the window: it did not run.
                    prop_assert!(
                        sum.abs() < 0.011 * days as f64,
                        "{kind}: {sum} h without samples"
                    );
                    continue;
                };
                let stats = channel_stats(&series, ch, w.since, w.until);
                let change = stats.change().unwrap_or(0.0);
                prop_assert!(
                    (change - sum).abs() <= 0.011 * days as f64,
                    "{kind} of {id} over {w}: change {change}, days {sum}"
                );
            }
            checked.set(checked.get() + 1);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let checked = checked.get();
    assert!(checked >= 12, "only {checked} cases had quiet edges");
}
