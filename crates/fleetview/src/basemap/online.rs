//! Online tiles (OpenStreetMap by default) over the offline basemap, and
//! their state in words: loading, there, or failed and why.
//!
//! walkers fetches the tiles and keeps a failed one as failed for good,
//! saying nothing. So a tile in view that does not come while nothing is
//! being downloaded is fetched once more here, by a probe of our own, to
//! learn why; when the probe succeeds (the network is back) the tiles are
//! made afresh, so the failed ones are asked for again.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use egui::Rect;
use walkers::sources::{Attribution, TileSource};
use walkers::{HeaderValue, HttpOptions, HttpTiles, TileId, TilePiece, Tiles};

use super::offline::ancestor;

/// OpenStreetMap's standard tiles.
pub const OSM_TEMPLATE: &str = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
const USER_AGENT: &str = concat!(
    "fleetview/",
    env!("CARGO_PKG_VERSION"),
    " (fleet telematics desktop app)"
);
/// The deepest zoom tile servers are asked for (walkers' default).
const MAX_ZOOM: u8 = 19;
/// A tile missing this long with nothing downloading is looked into.
const STALL_SECS: f64 = 2.0;
/// Failed tiles are first tried again after this long, then twice as long
/// each time up to [`RETRY_MAX_SECS`]: a laptop with no network must not
/// spend its battery asking.
const RETRY_SECS: f64 = 30.0;
const RETRY_MAX_SECS: f64 = 600.0;
const PROBE_TIMEOUT_SECS: u64 = 10;

/// An online raster tile source from a URL template with `{z}`, `{x}` and
/// `{y}` (OpenStreetMap's by default).
#[derive(Debug, Clone, PartialEq)]
pub struct UrlTiles {
    pub template: String,
}

impl TileSource for UrlTiles {
    fn tile_url(&self, id: TileId) -> String {
        self.template
            .replace("{z}", &id.zoom.to_string())
            .replace("{x}", &id.x.to_string())
            .replace("{y}", &id.y.to_string())
    }

    fn attribution(&self) -> Attribution {
        Attribution {
            text: "© OpenStreetMap contributors",
            url: "https://www.openstreetmap.org/copyright",
            logo_light: None,
            logo_dark: None,
        }
    }
}

/// Online tiles from `template`, cached on disk in `cache_dir` (walkers
/// honours the server's expiry), with a User-Agent naming fleetview.
pub fn online_tiles(template: &str, cache_dir: Option<PathBuf>, ctx: egui::Context) -> HttpTiles {
    let options = HttpOptions {
        cache: cache_dir,
        user_agent: Some(HeaderValue::from_static(USER_AGENT)),
        ..HttpOptions::default()
    };
    HttpTiles::with_options(
        UrlTiles {
            template: template.to_owned(),
        },
        options,
        ctx,
    )
}

/// The state of the online tiles.
#[derive(Debug, Clone, PartialEq)]
pub enum OnlineStatus {
    /// Tiles in view are on their way.
    Loading,
    /// Every tile in view has come.
    Ready,
    /// Tiles in view do not come: why, in plain words, and the technical
    /// detail.
    Failed { reason: String, detail: String },
}

/// Online tiles with their state, as walkers tiles.
pub struct OnlineTiles {
    template: String,
    cache_dir: Option<PathBuf>,
    ctx: egui::Context,
    tiles: HttpTiles,
    status: OnlineStatus,
    /// A tile in view not shown in this pass (as fetched: at most
    /// [`MAX_ZOOM`]).
    missing: Option<TileId>,
    stalled_since: Option<f64>,
    probe: Option<mpsc::Receiver<Result<(), OnlineStatus>>>,
    /// When failed tiles are next tried (`None`: at the next pass).
    next_try: Option<f64>,
    /// Probes that failed in a row (for the back-off).
    failures: u32,
    /// When the tiles were last made afresh after a probe.
    renewed: Option<f64>,
}

impl std::fmt::Debug for OnlineTiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnlineTiles")
            .field("template", &self.template)
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

impl OnlineTiles {
    pub fn new(template: &str, cache_dir: Option<PathBuf>, ctx: egui::Context) -> Self {
        Self {
            tiles: online_tiles(template, cache_dir.clone(), ctx.clone()),
            template: template.to_owned(),
            cache_dir,
            ctx,
            status: OnlineStatus::Loading,
            missing: None,
            stalled_since: None,
            probe: None,
            next_try: None,
            failures: 0,
            renewed: None,
        }
    }

    /// The URL template these tiles come from.
    pub fn template(&self) -> &str {
        &self.template
    }

    pub fn status(&self) -> &OnlineStatus {
        &self.status
    }

    /// Starts a pass of the map: the tiles missing are counted afresh.
    pub fn begin_pass(&mut self) {
        self.missing = None;
    }

    /// After a pass of the map, at `now_secs` (any steady clock): takes
    /// the probe's answer, starts a probe when tiles in view stall, and
    /// asks for a frame only when the state can move on by itself.
    pub fn update(&mut self, now_secs: f64) {
        self.take_probe_answer(now_secs);
        let failed = matches!(self.status, OnlineStatus::Failed { .. });
        let wake_in_secs = match self.missing {
            None => {
                self.status = OnlineStatus::Ready;
                self.stalled_since = None;
                self.failures = 0;
                None
            }
            Some(_) if self.tiles.stats().in_progress > 0 => {
                if !failed {
                    self.status = OnlineStatus::Loading;
                }
                self.stalled_since = None;
                // walkers says nothing when a download fails: look again
                // once it would count as stalled.
                Some(STALL_SECS)
            }
            Some(id) => {
                let since = *self.stalled_since.get_or_insert(now_secs);
                let due_at = if failed {
                    self.next_try.unwrap_or(now_secs)
                } else {
                    self.status = OnlineStatus::Loading;
                    since + STALL_SECS
                };
                if self.probe.is_some() {
                    // The probe wakes the app when it answers.
                    None
                } else if now_secs >= due_at {
                    self.start_probe(id);
                    None
                } else {
                    Some(due_at - now_secs)
                }
            }
        };
        if let Some(secs) = wake_in_secs {
            self.ctx
                .request_repaint_after(Duration::from_secs_f64(secs.max(0.05)));
        }
    }

    /// Failed tiles are tried again at the next pass rather than after
    /// the back-off (the user asked).
    pub fn retry_now(&mut self) {
        self.next_try = None;
        self.failures = 0;
        self.ctx.request_repaint();
    }

    /// How long until failed tiles are tried again by themselves.
    pub fn next_try_in_secs(&self, now_secs: f64) -> Option<f64> {
        match self.status {
            OnlineStatus::Failed { .. } if self.probe.is_none() => {
                self.next_try.map(|t| (t - now_secs).max(0.0))
            }
            _ => None,
        }
    }

    fn start_probe(&mut self, id: TileId) {
        let url = UrlTiles {
            template: self.template.clone(),
        }
        .tile_url(id);
        self.probe = Some(probe(url, self.ctx.clone()));
    }

    fn take_probe_answer(&mut self, now_secs: f64) {
        let Some(answer) = self.probe.as_ref().map(mpsc::Receiver::try_recv) else {
            return;
        };
        match answer {
            Ok(Ok(())) if self.renewed.is_some_and(|t| now_secs - t < RETRY_SECS) => {
                // Renewed a moment ago and still nothing: not the network.
                self.probe = None;
                self.failed(
                    now_secs,
                    OnlineStatus::Failed {
                        reason: "the tile server answers, but its tiles cannot be shown".into(),
                        detail: format!("{}: the tiles downloaded are not images", self.template),
                    },
                );
            }
            Ok(Ok(())) => {
                // The server answers: ask again for what failed.
                self.probe = None;
                self.tiles = online_tiles(&self.template, self.cache_dir.clone(), self.ctx.clone());
                self.renewed = Some(now_secs);
                self.status = OnlineStatus::Loading;
                self.stalled_since = None;
            }
            Ok(Err(failed)) => {
                self.probe = None;
                self.failed(now_secs, failed);
            }
            Err(mpsc::TryRecvError::Empty) => {}
            Err(mpsc::TryRecvError::Disconnected) => self.probe = None,
        }
    }

    fn failed(&mut self, now_secs: f64, status: OnlineStatus) {
        self.next_try = Some(now_secs + retry_after_secs(self.failures));
        self.failures = self.failures.saturating_add(1);
        self.status = status;
    }
}

/// How long failed tiles wait after `failures` failed probes in a row.
fn retry_after_secs(failures: u32) -> f64 {
    (RETRY_SECS * 2f64.powi(failures.min(10) as i32)).min(RETRY_MAX_SECS)
}

impl Tiles for OnlineTiles {
    fn at(&mut self, id: TileId) -> Option<TilePiece> {
        let piece = self.tiles.at(id);
        let n = 1u32.checked_shl(u32::from(id.zoom)).unwrap_or(u32::MAX);
        if id.x >= n || id.y >= n {
            // Off the world: nothing to fetch.
            return piece;
        }
        // Deeper than the server goes, its deepest tile magnified is the
        // tile itself.
        let (fetched, uv) = ancestor(id, id.zoom.saturating_sub(MAX_ZOOM));
        if !piece.as_ref().is_some_and(|p| same_part(p.uv, uv)) {
            self.missing.get_or_insert(fetched);
        }
        piece
    }

    fn attribution(&self) -> Attribution {
        self.tiles.attribution()
    }

    fn tile_size(&self) -> u32 {
        self.tiles.tile_size()
    }

    fn stats(&self) -> walkers::Stats {
        self.tiles.stats()
    }
}

fn same_part(a: Rect, b: Rect) -> bool {
    (a.min - b.min).length() < 1e-4 && (a.max - b.max).length() < 1e-4
}

/// Fetches one tile on a thread of its own; answers whether it came, or
/// why not.
fn probe(url: String, ctx: egui::Context) -> mpsc::Receiver<Result<(), OnlineStatus>> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("fleetview-tile-probe".into())
        .spawn(move || {
            let answer = fetch(&url);
            let _ = tx.send(answer);
            ctx.request_repaint();
        });
    if let Err(e) = spawned {
        tracing::warn!("the tile probe cannot start: {e}");
    }
    rx
}

fn fetch(url: &str) -> Result<(), OnlineStatus> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| OnlineStatus::Failed {
            reason: "the tiles could not be downloaded".into(),
            detail: e.to_string(),
        })?;
    runtime
        .block_on(async {
            let client = reqwest::Client::builder()
                .user_agent(USER_AGENT)
                .timeout(Duration::from_secs(PROBE_TIMEOUT_SECS))
                .build()?;
            client.get(url).send().await?.error_for_status()?;
            Ok(())
        })
        .map_err(|e: reqwest::Error| {
            let reason = match e.status() {
                Some(status) => reason_for_status(status.as_u16()),
                None if e.is_timeout() => {
                    format!("the tile server did not answer within {PROBE_TIMEOUT_SECS} s")
                }
                None if e.is_connect() => "cannot reach the tile server".into(),
                None if e.is_builder() => "the tile URL is not valid".into(),
                None => "the tiles could not be downloaded".into(),
            };
            let mut detail = match e.status() {
                None if e.is_connect() => {
                    format!("No network, or the server is down.\n{url}: {e}")
                }
                _ => format!("{url}: {e}"),
            };
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                detail.push_str(&format!(": {s}"));
                source = s.source();
            }
            OnlineStatus::Failed { reason, detail }
        })
}

/// A tile server's error status, in words.
fn reason_for_status(status: u16) -> String {
    match status {
        401 | 403 => format!("the tile server refuses access (error {status})"),
        404 => "the tile server has no tile at this address (error 404): check the tile URL".into(),
        429 => "the tile server asks to slow down (error 429)".into(),
        s if s >= 500 => format!("the tile server has a problem (error {s})"),
        s => format!("the tile server answered error {s}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_tiles_back_off_to_ten_minutes() {
        assert_eq!(retry_after_secs(0), 30.0);
        assert_eq!(retry_after_secs(1), 60.0);
        assert_eq!(retry_after_secs(4), 480.0);
        assert_eq!(retry_after_secs(5), RETRY_MAX_SECS);
        assert_eq!(retry_after_secs(u32::MAX), RETRY_MAX_SECS);
    }

    #[test]
    fn url_templates() {
        let t = UrlTiles {
            template: OSM_TEMPLATE.into(),
        };
        let id = TileId {
            x: 1,
            y: 2,
            zoom: 3,
        };
        assert_eq!(t.tile_url(id), "https://tile.openstreetmap.org/3/1/2.png");
        assert_eq!(t.attribution().text, "© OpenStreetMap contributors");
    }

    #[test]
    fn error_statuses_in_words() {
        assert!(reason_for_status(403).contains("refuses access"));
        assert!(reason_for_status(404).contains("check the tile URL"));
        assert!(reason_for_status(503).contains("has a problem (error 503)"));
        assert!(reason_for_status(418).contains("error 418"));
    }

    #[test]
    fn an_unreachable_server_says_so() {
        let closed = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port");
        match fetch(&format!("http://{closed}/0/0/0.png")) {
            Err(OnlineStatus::Failed { reason, detail }) => {
                assert!(
                    reason.starts_with("cannot reach the tile server"),
                    "{reason}"
                );
                assert!(detail.contains(&closed.to_string()), "{detail}");
            }
            other => panic!("{other:?}"),
        }
        match fetch("not a url/{z}") {
            Err(OnlineStatus::Failed { reason, .. }) => {
                assert!(reason.contains("not valid"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
    }
}
