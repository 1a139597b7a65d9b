//! Machines' pages kept on switching away (`recent_views.rs` holds them)
//! and shown again on coming back.

use super::AppState;
use crate::app::loadable::Loadable;
use crate::app::recent_views::{KeptView, settled};
use fleetview_core::worker::{Command, Target};

impl AppState {
    /// The page shown, to keep when switching away: only a whole one (every
    /// table, the track and the figures loaded), read online.
    pub(super) fn page_to_keep(&mut self) -> Option<KeptView> {
        let (equipment, window) = self.machine.selected.zip(self.machine.window)?;
        if self.offline().is_some() {
            return None;
        }
        let (report, basis) = self.figures.kept(window)?;
        let (Loadable::Ready(_), Loadable::Ready(activities), Loadable::Ready(history)) = (
            &self.machine.faults,
            &self.machine.activities,
            &self.machine.history,
        ) else {
            return None;
        };
        let Loadable::Ready(track) = &self.timeline.track else {
            return None;
        };
        let (activities, history, track) = (activities.clone(), history.clone(), track.clone());
        let plots = self
            .timeline
            .plots
            .iter()
            .filter_map(|(k, p)| match p {
                Loadable::Ready(p) => Some((*k, p.clone())),
                _ => None,
            })
            .collect();
        // Switching away clears the tables next: the faults are moved.
        let Loadable::Ready(faults) = std::mem::take(&mut self.machine.faults) else {
            return None;
        };
        Some(KeptView {
            equipment,
            window,
            faults,
            activities,
            history,
            track,
            plots,
            report,
            basis,
            as_of: self.machine.as_of,
            read_at: self.machine.read_at,
        })
    }

    /// Shows the selection's page again from those kept: the commands for
    /// what it lacks (kinds plotted since) when its window is settled or
    /// it was read within [`KEPT_FRESH_SECS`], else for reading it all
    /// again, the kept page showing meanwhile.
    ///
    /// [`KEPT_FRESH_SECS`]: crate::app::machine::KEPT_FRESH_SECS
    pub(super) fn page_kept(&mut self) -> Option<Vec<Command>> {
        let equipment = self.machine.selected?;
        let window = self.selected_window();
        let view = self.recent_views.take(equipment, window)?;
        let read_settled = settled(window, view.as_of);
        let fresh = view.read_at.fresh(self.now(), self.service_now);
        self.machine.window = Some(window);
        self.machine.faults = Loadable::Ready(view.faults);
        self.machine.activities = Loadable::Ready(view.activities);
        self.machine.history = Loadable::Ready(view.history);
        self.timeline.keep_within(window);
        self.timeline.track = Loadable::Ready(view.track);
        self.figures.restore(view.report, view.basis);
        // The last machine's reads still under way are of no use now.
        let mut out: Vec<Command> = [
            Target::Faults,
            Target::Activities,
            Target::History,
            Target::Track,
            Target::Report,
        ]
        .into_iter()
        .chain(self.timeline.plot_kinds.iter().map(|k| Target::Plot(*k)))
        .map(|t| {
            self.progress.remove(&t);
            Command::Cancel(t)
        })
        .collect();
        let mut missing = Vec::new();
        for kind in self.timeline.plot_kinds.clone() {
            match view.plots.get(&kind) {
                Some(p) => {
                    self.timeline.plots.insert(kind, Loadable::Ready(p.clone()));
                }
                None => missing.push(kind),
            }
        }
        if !read_settled && !fresh {
            // Still being written when read: shown as kept while read
            // again (what is pending keeps its value), the figures with
            // the new answers.
            out.extend(self.fetch_selected());
            return Some(out);
        }
        self.machine.as_of = view.as_of;
        self.machine.read_at = view.read_at;
        for kind in missing {
            out.push(self.timeline.fetch_plot(equipment, kind, window));
        }
        // Settings of the figures changed meanwhile: computed again.
        out.extend(self.figures_wanted());
        Some(out)
    }
}
