//! The Fleet page's figures: a fresh app (a cache file of its own, the
//! 30-day preset) from the fleet listed (when the figures' reads may
//! start) to the overview populated and every machine's figures complete
//! (the attention strip's look-back with them), against the bare client
//! replaying the requests recorded over that span: <= 1.5x. Then a
//! second app on the same cache file (the same clock), the same span:
//! <= 0.25x the cold time, with no request for settled data.

use std::path::Path;
use std::time::Duration;

use fleetview::shell::FleetApp;

use fleetview::app::Preset;
use fleetview_api::time::SECS_PER_DAY;
use fleetview_core::cache::SETTLE_SECS;
use fleetview_sandbox::RunningSandbox;

use crate::common::Goals;
use crate::driver::{Driver, settled};
use crate::replay::gets;
use crate::{bare, ms, on_service, ratio, settings, until_of};

/// The fleet list's pages: the start-up's, read before the figures can
/// be asked for.
fn is_list(target: &str) -> bool {
    target
        .split('?')
        .next()
        .unwrap_or_default()
        .ends_with("/equipments")
}

/// The fleet is listed: each machine's figures may be asked for.
fn listed(app: &FleetApp) -> bool {
    !app.state().fleet().equipments.is_empty()
}

/// One app's span from the fleet listed (the figures' reads may start)
/// to the overview populated and every figure settled: its time, and the
/// requests sent since its start but the list's (the snapshot pages
/// included: the app reads them meanwhile).
fn span(sb: &RunningSandbox, base: &str, cache: &Path, now: i64) -> (Duration, Vec<String>) {
    let today = now.div_euclid(SECS_PER_DAY);
    sb.take_recorded();
    let mut d: Driver = on_service(
        base,
        cache,
        now,
        settings(now, Preset::Last30Days, (today, today), None),
    );
    let start = d.until("the fleet listed", listed);
    crate::profile("enable");
    let done = d.until("every machine's figures", settled);
    crate::profile("disable");
    let asked: Vec<String> = gets(&sb.take_recorded())
        .into_iter()
        .filter(|t| !is_list(t))
        .collect();
    // What it read stored, so the next app finds it.
    d.until_idle();
    drop(d);
    (done - start, asked)
}

/// Measures the Fleet page's figures, cold and from the cache.
pub fn check(
    goals: &mut Goals,
    sb: &RunningSandbox,
    base: &str,
    dir: &Path,
    now: i64,
    client_rt: &tokio::runtime::Runtime,
) {
    let cache = dir.join("figures.sqlite");
    let (cold, asked) = span(sb, base, &cache, now);
    let (bare_cold, replayed) = bare(client_rt, base, &asked);
    goals.check(
        ratio(cold, bare_cold) <= 1.5,
        format!(
            "fleet figures, 60 machines over 30 days: app {}, bare client {} ({} requests, {:.1} MB): {:.2}x (goal <= 1.5x)",
            ms(cold),
            ms(bare_cold),
            replayed.requests,
            replayed.bytes as f64 / 1e6,
            ratio(cold, bare_cold)
        ),
    );
    let (warm, asked_warm) = span(sb, base, &cache, now);
    let settled_asked = asked_warm
        .iter()
        .filter(|t| until_of(t).is_some_and(|u| u <= now - SETTLE_SECS))
        .count();
    // Not a goal: what the service alone takes to answer what is left to
    // ask (today's data, simulated as it is asked), on the same cores.
    let (bare_warm, _) = bare(client_rt, base, &asked_warm);
    goals.check(
        ratio(warm, cold) <= 0.25 && settled_asked == 0,
        format!(
            "fleet figures from the cache: {} after {} cold: {:.2}x (goal <= 0.25x); {} requests, {settled_asked} for settled data (goal 0); the bare client {} for those requests",
            ms(warm),
            ms(cold),
            ratio(warm, cold),
            asked_warm.len(),
            ms(bare_warm)
        ),
    );
}
