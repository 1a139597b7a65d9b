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
    /// The requests answered: the notices of their failures go.
    pub answered: Vec<Target>,
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
        self.answered.push(target);
        // An answer not marked offline may still come wholly from the
        // cache (settled windows): it says nothing of the service. Nor
        // does one served signed out, for want of a key.
        if let Some(t) = offline {
            self.conn
                .shown_from_cache(t, &format!("{what} served from the cache"));
        }
        true
    }

    /// How far a fetch has come.
    pub fn progressed(&mut self, target: Target, progress: Progress) {
        // The Fleet page says how far its figures are, as a whole; a report
        // is named in the status bar while under way (its reads are many,
        // and no answer of its ends a fetch).
        if !matches!(
            target,
            Target::Figures(_) | Target::LookBack(_) | Target::ReportFile
        ) {
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
    let problem = explain(error);
    if error.is_unreachable() && !catalog_write {
        // The offline mark says it (and retries), not one note per panel.
        conn.cannot_reach(problem);
        return;
    }
    if *target == Target::Connection {
        // Its own title: the connection's notice is dismissed once connected.
        let detail = format!("{}\n\nDetails: {}", problem.title, problem.detail);
        conn.failure_note = Some(notes.notify(Level::Error, "Could not connect", detail));
    } else {
        notes.notify_for(target.clone(), Level::Error, problem.title, problem.detail);
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
