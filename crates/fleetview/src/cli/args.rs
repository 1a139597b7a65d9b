//! The command line's arguments shared by its jobs: the service and how to
//! sign in, the window, the cache, what events need, and the units. Each
//! job's own arguments live beside it (`export.rs`, `report.rs`,
//! `sandbox.rs`).

use std::path::PathBuf;
use std::time::Duration;

use fleetview_api::model::SecretValue;
use fleetview_api::time::{TimeError, TimeWindow, now_secs, parse_wire};
use fleetview_api::{ApiKey, ClientConfig};
use fleetview_core::analysis::UnitSystem;
use fleetview_core::cache::Cache;

/// An argument that cannot be used; its source says why. Shown as
/// "--now" then "Caused by: ...", as the options are named.
#[derive(Debug, thiserror::Error)]
pub enum ArgError {
    #[error("--now")]
    Now(#[source] TimeError),
    #[error("--since/--until")]
    Window(#[source] TimeError),
    #[error("no cache directory on this system; use --cache-file or --no-cache")]
    NoCacheDir,
    #[error("--chaos")]
    Chaos(#[source] ChaosSpecError),
}

/// A `--chaos` specification that does not parse.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ChaosSpecError(pub String);

/// A `--now` option: the clock when absent.
pub fn parse_now(now: Option<&str>) -> Result<Option<i64>, ArgError> {
    now.map(parse_wire).transpose().map_err(ArgError::Now)
}

/// How to sign in to the service: an API key (logged in with, and again
/// when the token runs out), a token, or both.
#[derive(Debug, clap::Args)]
pub struct LoginArgs {
    /// Name of the API key (as created in the service's settings).
    #[arg(long, env = "FLEETVIEW_API_KEY_NAME", requires = "api_key")]
    pub api_key_name: Option<String>,
    /// The API key; prefer the environment variable.
    #[arg(
        long,
        env = "FLEETVIEW_API_KEY",
        hide_env_values = true,
        requires = "api_key_name"
    )]
    pub api_key: Option<String>,
    /// Access token (x-access-token); prefer the environment variable.
    #[arg(long, env = "FLEETVIEW_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Send the token or key over plain http to a host beyond loopback.
    #[arg(long)]
    pub allow_insecure_http: bool,
}

impl LoginArgs {
    pub fn api_key(&self) -> Option<ApiKey> {
        match (&self.api_key_name, &self.api_key) {
            (Some(name), Some(key)) => Some(ApiKey::new(name.trim(), key.trim())),
            _ => None,
        }
    }

    fn apply(self, client: &mut ClientConfig) {
        client.api_key = self.api_key();
        client.token = self.token.map(SecretValue::new);
        client.allow_insecure_http = self.allow_insecure_http;
    }
}

/// The service a command-line job reads, and how it signs in.
#[derive(Debug, clap::Args)]
pub struct ServiceArgs {
    /// Base URL of the service.
    #[arg(long, env = "FLEETVIEW_BASE_URL")]
    pub base_url: String,
    #[command(flatten)]
    pub login: LoginArgs,
    /// Seconds a connection may take to be set up (default 10).
    #[arg(long, hide = true, env = "FLEETVIEW_CONNECT_TIMEOUT_S")]
    pub connect_timeout_s: Option<u64>,
    /// Seconds a request may wait with no bytes coming (default 30).
    #[arg(long, hide = true, env = "FLEETVIEW_READ_TIMEOUT_S")]
    pub read_timeout_s: Option<u64>,
}

impl ServiceArgs {
    pub fn client(self) -> ClientConfig {
        let mut client = ClientConfig::new(self.base_url);
        self.login.apply(&mut client);
        if let Some(s) = self.connect_timeout_s {
            client.connect_timeout = Duration::from_secs(s.max(1));
        }
        if let Some(s) = self.read_timeout_s {
            client.read_timeout = Duration::from_secs(s.max(1));
        }
        client
    }
}

/// The window a command-line job reads.
#[derive(Debug, clap::Args)]
pub struct WindowArgs {
    /// Start of the window, YYYY-MM-DDTHH:mm:ssZ (default: yesterday 00:00:00Z).
    #[arg(long)]
    pub since: Option<String>,
    /// End of the window, inclusive (default: today 23:59:59Z).
    #[arg(long)]
    pub until: Option<String>,
    /// Now, as YYYY-MM-DDTHH:mm:ssZ (default: the clock): for the default
    /// window, and for what is still going on (a stop, a running engine)
    /// against a sandbox started with its own --now.
    #[arg(long)]
    pub now: Option<String>,
}

impl WindowArgs {
    pub fn now(&self) -> Result<i64, ArgError> {
        Ok(parse_now(self.now.as_deref())?.unwrap_or_else(now_secs))
    }

    pub fn window(&self) -> Result<TimeWindow, ArgError> {
        TimeWindow::parse(self.since.as_deref(), self.until.as_deref(), self.now()?)
            .map_err(ArgError::Window)
    }
}

/// The cache a command-line job reads through (the app's).
#[derive(Debug, clap::Args)]
pub struct CacheArgs {
    /// Read only the local cache, never the service.
    #[arg(long)]
    pub offline: bool,
    /// Cache file (default: the user's cache directory).
    #[arg(long)]
    pub cache_file: Option<PathBuf>,
    /// Do not read or write the cache.
    #[arg(long, conflicts_with_all = ["offline", "cache_file"])]
    pub no_cache: bool,
}

impl CacheArgs {
    /// The cache file, `None` for none.
    pub fn path(&self) -> Result<Option<PathBuf>, ArgError> {
        if self.no_cache {
            return Ok(None);
        }
        self.cache_file
            .clone()
            .or_else(Cache::default_path)
            .ok_or(ArgError::NoCacheDir)
            .map(Some)
    }
}

/// What the events (D16) of a report or an events export need.
#[derive(Debug, clap::Args)]
pub struct EventArgs {
    /// Working days, for out-of-hours use: `mon-fri`, `mon,tue,sat`, ...
    #[arg(long, default_value = "mon-fri")]
    pub working_days: String,
    /// Working hours in the machine's local time, for out-of-hours use.
    #[arg(long, default_value = "06:00-20:00")]
    pub working_hours: String,
    /// The fuel tank's capacity in litres, for refuels and drains in litres
    /// (default: from the machine's model where known).
    // A negative number is read as one (and refused with a clear message),
    // not as an unknown option.
    #[arg(long, allow_negative_numbers = true)]
    pub tank_capacity_l: Option<f64>,
}

/// The units values are written in.
#[derive(Debug, Clone, Copy, Default, clap::ValueEnum)]
pub enum UnitsArg {
    /// km, L, km/h, °C, kg (the service's units read and converted).
    #[default]
    Metric,
    /// mi, US gal, mph, °F, lb: headers and keys say so (`fuelUsed (gal)`).
    Imperial,
}

impl From<UnitsArg> for UnitSystem {
    fn from(u: UnitsArg) -> Self {
        match u {
            UnitsArg::Metric => Self::Metric,
            UnitsArg::Imperial => Self::Imperial,
        }
    }
}
