//! Goal 2, a remote service: the sandbox holds every authenticated answer
//! [`LATENCY_MS`] before it starts, as a service across the internet does,
//! for the app and the bare client alike. A road truck clicked for 30 days
//! and for a year completes within 1.15x the bare client + one frame: the
//! app's decoding, storing and drawing overlap the waiting, and its
//! requests go out as early and as many at once as the bare client's.

use std::path::Path;
use std::time::{Duration, Instant};

use tokio::runtime::Runtime;

use crate::common::Goals;
use crate::driver::{VSYNC, settled};
use crate::replay::gets;
use crate::{bare, click_to_complete, ms, on_service, road_trucks, settings};
use fleetview::app::Preset;
use fleetview_api::TimeWindow;
use fleetview_sandbox::chaos::ChaosConfig;
use fleetview_sandbox::{Clock, RunningSandbox, SandboxConfig};

/// The delay of every answer: a service a continent away.
const LATENCY_MS: u64 = 40;

/// Machines of the delayed sandbox.
const FLEET: u64 = 12;

/// The goal: at most this times the bare client, plus one frame.
const LIMIT: f64 = 1.15;

/// Clicks a road truck for 30 days and for a year, each in a fresh app on a
/// delayed sandbox of its own, and checks each against the bare client
/// replaying its requests there.
pub fn remote(goals: &mut Goals, dir: &Path, now: i64, service_rt: &Runtime, client_rt: &Runtime) {
    let started = Instant::now();
    let sb: RunningSandbox = service_rt
        .block_on(
            SandboxConfig::default()
                // Enough for two road trucks: the fleet's overview, read
                // before the clicks, takes many round trips per machine.
                .fleet_size(FLEET)
                .clock(Clock::Fixed(now))
                .record_requests(true)
                .chaos(ChaosConfig {
                    latency_ms: LATENCY_MS,
                    latency_rate: 1.0,
                    ..ChaosConfig::default()
                })
                .start(),
        )
        .expect("the delayed sandbox starts");
    let base = sb.base_url();
    let today = now.div_euclid(fleetview_api::time::SECS_PER_DAY);
    let year_days = (today - 364, today);
    for (label, preset, days) in [
        ("30 days", Preset::Last30Days, (today, today)),
        ("1 year", Preset::Custom, year_days),
    ] {
        let w: TimeWindow = preset.window(now, days);
        let cache = dir.join(format!("remote-{}.sqlite", days.0));
        let mut app = on_service(&base, &cache, now, settings(now, preset, days, None));
        app.until("the fleet settled (remote)", settled);
        app.until_idle();
        let (truck, _) = road_trucks(&app);
        sb.take_recorded();
        sb.take_peak_in_flight();
        let took = click_to_complete(&mut app, truck, w);
        let app_peak = sb.take_peak_in_flight();
        let asked = gets(&sb.take_recorded());
        drop(app);
        let (bare_took, r) = bare(client_rt, &base, &asked);
        let bare_peak = sb.take_peak_in_flight();
        let limit = bare_took.mul_f64(LIMIT) + VSYNC;
        // As many at once as the bare client: a request sent late shows
        // as fewer in flight.
        goals.check(
            took <= limit && app_peak >= bare_peak,
            format!(
                "remote: click to complete, {label}, every answer {LATENCY_MS} ms late: app {}, bare client {} ({} requests, {:.1} MB): {:.2}x, {} over 1.15x + a frame (goal <= 1.15x + 16.7 ms = {}); at most {app_peak} requests at once, the bare client {bare_peak} (goal as many)",
                ms(took),
                ms(bare_took),
                r.requests,
                r.bytes as f64 / 1e6,
                crate::ratio(took, bare_took),
                signed_ms(took, limit),
                ms(limit),
            ),
        );
    }
    service_rt.block_on(sb.shutdown());
    println!(
        "remote: {:.1} s for the two apps' start, clicks and bare clients",
        started.elapsed().as_secs_f64()
    );
}

/// `a - b` in milliseconds, signed.
fn signed_ms(a: Duration, b: Duration) -> String {
    format!("{:+.1} ms", (a.as_secs_f64() - b.as_secs_f64()) * 1000.0)
}
