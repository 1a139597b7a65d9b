//! The worker's `FetchPlot` on the stub's rows: the channels and values a
//! plot gets.

use super::*;

use std::sync::Arc;
use std::time::{Duration, Instant};

use fleetview_api::{ClientConfig, DataKind};
use fleetview_core::series::{ChannelKind, PlotSeries};
use fleetview_core::worker::{Command, Event, TimelineEvent, Worker, WorkerConfig};

/// What the worker hands a plot of `kind` over the fixtures' day.
fn plot(worker: &Worker, kind: DataKind) -> Arc<PlotSeries> {
    let id = worker.send(Command::FetchPlot {
        equipment: ID,
        kind,
        window: day(),
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        match worker.recv_timeout(Duration::from_millis(50)) {
            Some(Event::Timeline(TimelineEvent::Plot {
                request, series, ..
            })) if request == id => return series,
            Some(Event::Failed { request, error, .. }) if request == id => {
                panic!("{kind:?}: {error}")
            }
            _ => {}
        }
    }
    panic!("no plot of {kind:?} in time");
}

fn values(p: &PlotSeries, name: &str) -> Vec<f64> {
    p.series
        .channel(name)
        .unwrap_or_else(|| panic!("a channel {name} in {:?}", names(p)))
        .values
        .clone()
}

fn names(p: &PlotSeries) -> Vec<&str> {
    p.series.channels.iter().map(|c| c.name.as_str()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_plot_reads_the_real_shapes() {
    let stub = stub().await;
    let worker = Worker::spawn(
        WorkerConfig {
            client: Some(ClientConfig::new(stub.base.clone()).token("any token")),
            cache: None,
            offline: false,
            save_dialog: None,
        },
        Arc::new(|_| {}),
    )
    .expect("a worker");
    let worker = tokio::task::spawn_blocking(move || {
        // `hour` beside `usageHours`; the placeholder-dated row is dropped
        // and counted; the others keep their milliseconds, in UTC.
        let hours = plot(&worker, DataKind::CumulativeOperatingHours);
        assert_eq!(names(&hours), ["hour", "usageHours"]);
        assert_eq!(values(&hours, "hour"), [1519.25, 1520.5, 1520.75]);
        assert_eq!(hours.series.skipped_rows, 1);
        assert_eq!(
            (0..3).map(|i| hours.series.time_ms(i)).collect::<Vec<_>>(),
            [1_755_671_400_000, 1_755_683_290_721, 1_755_684_000_000]
        );
        assert_eq!(hours.shown_unit(0, ""), "h");

        // `hours`, numeric like `hour`.
        let idle = plot(&worker, DataKind::CumulativeIdleHours);
        assert_eq!(names(&idle), ["hours"]);
        assert_eq!(values(&idle, "hours"), [310.0, 310.25]);

        // A capacity of 0 is no point; the others are, in litres.
        let fuel = plot(&worker, DataKind::FuelRemaining);
        assert_eq!(values(&fuel, "percent"), [81.5, 74.0, 71.5]);
        let cap = values(&fuel, "tankCapacity");
        assert!(cap[1].is_nan(), "{cap:?}");
        assert_eq!((cap[0], cap[2]), (410.0, 410.0));
        assert_eq!(
            fuel.series
                .channel("tankCapacity")
                .and_then(|c| c.unit.clone()),
            Some("L".into())
        );

        // `{value, unit}`: one channel named for the member.
        let used = plot(&worker, DataKind::CumulativeFuel);
        assert_eq!(names(&used), ["fuelUsed"]);
        let c = &used.series.channels[0];
        assert_eq!(
            (c.kind, c.unit.as_deref(), c.values.clone()),
            (
                ChannelKind::Numeric,
                Some("L"),
                vec![12480.5, 12512.0, 12515.5]
            )
        );
        worker
    })
    .await
    .expect("the checks ran");
    drop(worker);
    assert_eq!(
        stub.hits(&format!(
            "/v2/fleet/equipments/{ID}/cumulativeOperatingHours"
        )),
        1,
        "one day is one request"
    );
}
