//! What the features share to take in the worker's answers: whether an
//! answer about a machine's window is for the page shown, and how a
//! failure no feature said itself is told.

use std::collections::HashMap;

use super::connection::ConnectionState;
use super::errors::explain;
use super::notifications::{Level, Notifications};
use fleetview_api::ApiError;
use fleetview_api::time::TimeWindow;
use fleetview_core::worker::{OfflineSince, Progress, Target};

/// What an answer is taken in with: the machine page shown (answers about
/// another are dropped), the fetches under way, and the connection (data
/// served from the cache marks it offline; an answer marks it online).
#[derive(Debug)]
pub struct Intake<'a> {
    /// The machine and window the page shows.
    pub shown: Option<(i64, TimeWindow)>,
    pub progress: &'a mut HashMap<Target, Progress>,
    pub conn: &'a mut ConnectionState,
}

impl Intake<'_> {
    /// Whether an answer about a machine and window is for what is shown;
    /// if so, its fetch is over, and data served from the cache with the
    /// service away marks the app offline.
    pub fn accept(
        &mut self,
        target: Target,
        equipment: i64,
        window: TimeWindow,
        offline: OfflineSince,
        what: &str,
    ) -> bool {
        if self.shown != Some((equipment, window)) {
            return false;
        }
        self.progress.remove(&target);
        // An answer not marked offline may still come wholly from the
        // cache (settled windows): it says nothing of the service.
        if let Some(t) = offline {
            self.conn
                .went_offline(Some(t), format!("{what} served from the cache"));
        }
        true
    }

    /// How far a fetch has come.
    pub fn progressed(&mut self, target: Target, progress: Progress) {
        // The Fleet page says how far its figures are, as a whole.
        if !matches!(target, Target::Figures(_)) {
            self.progress.insert(target, progress);
        }
    }
}

/// Tells a failure of `target` that its feature did not say: a refused or
/// missing secret is asked for once under the top bar, a service out of
/// reach marks the app offline, anything else is a notice.
pub fn tell_failure(
    conn: &mut ConnectionState,
    notes: &mut Notifications,
    target: &Target,
    error: &ApiError,
) {
    if ask_for_secret(conn, notes, target, error) {
        return;
    }
    let catalog_write = matches!(target, Target::CatalogCreate | Target::Integration(_));
    if error.is_unreachable() && !catalog_write {
        // The offline mark says it (and retries), not one note per panel.
        conn.went_offline(None, error.to_string());
        return;
    }
    let (title, detail) = explain(error, failed_what(target));
    if *target == Target::Connection {
        // Its own title: the connection's notice is dismissed once connected.
        conn.failure_note = Some(notes.notify(Level::Error, "Could not connect", title));
    } else {
        notes.notify(Level::Error, title, detail);
    }
}

/// Refused, or nothing kept to sign in with (a key kept for a session
/// only, after a restart): asked for once under the top bar; nothing else
/// breaks. Whether it was that.
fn ask_for_secret(
    conn: &mut ConnectionState,
    notes: &mut Notifications,
    target: &Target,
    error: &ApiError,
) -> bool {
    let what = conn.current.auth.secret_label();
    let (news, title) = match error {
        ApiError::Unauthorized {
            message: service, ..
        } => (
            conn.refused(service),
            format!("The service refused the {what}: {service}"),
        ),
        ApiError::NoToken if *target == Target::Connection => (
            conn.no_secret(),
            format!("No {what} is kept for this service on this computer"),
        ),
        _ => return false,
    };
    if news {
        let detail = format!("Enter the {what} in the field under the top bar.");
        conn.failure_note = Some(notes.notify(Level::Error, title, detail));
    }
    true
}

/// What a request of `target` was reading, as a notice says it.
fn failed_what(target: &Target) -> &'static str {
    match target {
        Target::Fleet => "the fleet",
        Target::Faults => "the faults",
        Target::Activities => "the activities",
        Target::History => "the daily history",
        Target::Plot(_) => "a plotted data kind",
        Target::Track => "the positions",
        Target::Catalog => "the integrations",
        _ => "a request",
    }
}
