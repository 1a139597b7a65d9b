//! What the map and the plots share: the data kinds plotted, the track,
//! and one time cursor, moved by hovering a plot, clicking a row or the
//! track, or replaying the window in (accelerated) real time.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::errors::explain_read;
use super::failure::Failure;
use super::intake::Intake;
use super::loadable::Loadable;
use fleetview_api::geo::LatLon;
use fleetview_api::model::EngineConditionRow;
use fleetview_api::time::TimeWindow;
use fleetview_api::{ApiError, DataKind};
use fleetview_core::series::{PlotSeries, Track};
use fleetview_core::worker::{Command, Target, TimelineEvent};

/// Replay speeds offered, in seconds of data per second.
pub const REPLAY_SPEEDS: [f64; 7] = [1.0, 10.0, 60.0, 300.0, 600.0, 1800.0, 3600.0];
/// Without engine events, a pause between positions longer than this is
/// taken as the engine being off.
const POSITION_GAP_SECS: i64 = 30 * 60;

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub playing: bool,
    pub speed: f64,
    /// Jump over the periods the engine is off.
    pub skip_engine_off: bool,
    /// Keep the map centred on the machine.
    pub follow: bool,
}

impl Default for Replay {
    fn default() -> Self {
        Self {
            playing: false,
            speed: 600.0,
            skip_engine_off: true,
            follow: true,
        }
    }
}

/// Map options that survive a restart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapSettings {
    /// Draw online tiles (OpenStreetMap by default) over the offline basemap.
    pub online_tiles: bool,
    /// `{z}`, `{x}`, `{y}` template of the online tiles.
    pub tile_url: String,
}

impl Default for MapSettings {
    fn default() -> Self {
        Self {
            online_tiles: false,
            tile_url: crate::basemap::OSM_TEMPLATE.to_owned(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum TimelineAction {
    /// Plot a data kind, or stop plotting it.
    SetPlotKind {
        kind: DataKind,
        on: bool,
    },
    /// The pointer is over this time in a plot.
    HoverTime(Option<i64>),
    /// Move the cursor to a time and bring it into view (plots and map).
    SeekTo(i64),
    /// Move the cursor to a time and centre the map on a place (an event's:
    /// where the machine was, which the track between two positions may
    /// not say).
    SeekToPlace {
        time: i64,
        position: LatLon,
    },
    /// Highlight an activity (by row) on the map and seek to its start.
    SelectActivity(Option<usize>),
    SetReplay(Replay),
    /// Show the whole window again, values fitted to what is in view.
    ResetView,
    /// Select a span of time (statistics over it), or clear it.
    SetSpan(Option<(i64, i64)>),
    /// The cursor to the next position of the track (`true`) or the
    /// previous one, within the window.
    Step(bool),
}

#[derive(Debug, Default)]
pub struct TimelineState {
    /// Data kinds plotted, in the order picked.
    pub plot_kinds: Vec<DataKind>,
    pub plots: BTreeMap<DataKind, Loadable<Arc<PlotSeries>>>,
    pub track: Loadable<Arc<Track>>,
    /// The time everything points at, if any.
    pub cursor: Option<i64>,
    /// Bumped when plots and map should bring the cursor into view.
    pub seek: u64,
    /// Where the map centres for the last seek, if not at the track's
    /// position at the cursor.
    pub seek_place: Option<LatLon>,
    /// Bumped when the plots should show the whole window again (another
    /// machine or window, Refresh, a double-click): their zoom and pan are
    /// kept per generation.
    pub view_generation: u64,
    pub replay: Replay,
    /// Index of the activity highlighted on the map.
    pub selected_activity: Option<usize>,
    /// A span selected on the plots, `(from, to)` in seconds, from < to:
    /// statistics over it, drawn on every plot and on the map.
    pub span: Option<(i64, i64)>,
    /// Replayed time not yet applied: the cursor moves in whole seconds, so
    /// at slow speeds a frame's share is carried to the next (without it,
    /// each frame moved at least a second, 60 s/s at 60 frames a second).
    replay_carry_secs: f64,
}

impl TimelineState {
    /// A timeline plotting the default kinds.
    pub fn new() -> Self {
        Self {
            plot_kinds: Self::default_kinds(),
            ..Self::default()
        }
    }

    pub fn default_kinds() -> Vec<DataKind> {
        vec![DataKind::FuelRemaining, DataKind::EngineCondition]
    }

    /// Another machine or window: nothing of the last one may show.
    pub fn clear_data(&mut self) {
        self.plots.clear();
        self.track.clear();
        self.cursor = None;
        self.selected_activity = None;
        self.span = None;
        self.replay.playing = false;
    }

    /// Starts loading the track and every plotted kind of a machine over a
    /// window (what is shown stays until the answers come).
    pub fn fetch(&mut self, equipment: i64, window: TimeWindow) -> Vec<Command> {
        self.track.start();
        let mut out = vec![Command::FetchTrack { equipment, window }];
        for kind in self.plot_kinds.clone() {
            out.push(self.fetch_plot(equipment, kind, window));
        }
        out
    }

    pub fn fetch_plot(&mut self, equipment: i64, kind: DataKind, window: TimeWindow) -> Command {
        self.plots.entry(kind).or_default().start();
        Command::FetchPlot {
            equipment,
            kind,
            window,
        }
    }

    /// Applies an action. `shown` is the machine and window on screen (to
    /// fetch a newly plotted kind), `window` the one selected, and
    /// `activity_start` when each activity starts.
    pub fn on_action(
        &mut self,
        action: TimelineAction,
        shown: Option<(i64, TimeWindow)>,
        window: TimeWindow,
        activity_start: impl Fn(usize) -> Option<i64>,
    ) -> Vec<Command> {
        match action {
            TimelineAction::SetPlotKind { kind, on } => {
                self.plot_kinds.retain(|k| *k != kind);
                if !on {
                    self.plots.remove(&kind);
                    return vec![Command::Cancel(Target::Plot(kind))];
                }
                self.plot_kinds.push(kind);
                if let Some((equipment, window)) = shown {
                    return vec![self.fetch_plot(equipment, kind, window)];
                }
            }
            TimelineAction::HoverTime(t) => {
                // Hovering only moves a cursor that is not replaying.
                if !self.replay.playing {
                    self.cursor = t.or(self.cursor);
                }
            }
            TimelineAction::SeekTo(t) => self.seek_to(t),
            TimelineAction::SeekToPlace { time, position } => {
                self.seek_to(time);
                self.seek_place = Some(position);
            }
            TimelineAction::ResetView => self.view_generation += 1,
            TimelineAction::Step(forward) => {
                if let Some(t) = self.step_target(forward, window) {
                    self.seek_to(t);
                }
            }
            TimelineAction::SetSpan(span) => {
                self.span = span
                    .map(|(a, b)| (a.min(b).max(window.since), a.max(b).min(window.until)))
                    .filter(|(a, b)| a < b);
            }
            TimelineAction::SelectActivity(i) => {
                self.selected_activity = i;
                if let Some(t) = i.and_then(activity_start) {
                    self.seek_to(t);
                }
            }
            TimelineAction::SetReplay(replay) => {
                if replay.playing && !self.replay.playing {
                    // Starting over from the end: back to the beginning.
                    if self.cursor.is_none_or(|c| c >= window.until) {
                        self.cursor = Some(window.since);
                    }
                }
                self.replay = replay;
            }
        }
        Vec::new()
    }

    /// Another window: a cursor outside it goes (nothing there to point
    /// at), and so does a replay past it.
    /// Takes in a plotted kind or the track, if they are of the page shown.
    pub fn on_event(&mut self, event: TimelineEvent, intake: &mut Intake) {
        match event {
            TimelineEvent::Plot {
                equipment,
                kind,
                window,
                series,
                offline,
                ..
            } => {
                let target = Target::Plot(kind);
                if self.plot_kinds.contains(&kind)
                    && intake.accept(target, equipment, window, offline, kind.wire())
                {
                    self.plots.insert(kind, Loadable::Ready(series));
                }
            }
            TimelineEvent::Track {
                equipment,
                window,
                track,
                offline,
                ..
            } => {
                if intake.accept(Target::Track, equipment, window, offline, "positions") {
                    self.track = Loadable::Ready(track);
                }
            }
        }
    }

    /// A plotted kind or the track could not be read: it says so.
    pub fn on_failed(&mut self, target: &Target, error: &ApiError) -> Failure {
        match target {
            Target::Plot(kind) => self
                .plots
                .entry(*kind)
                .or_default()
                .fail(explain_read(error)),
            Target::Track => self.track.fail(explain_read(error)),
            _ => {}
        }
        Failure::Notice
    }

    pub fn keep_within(&mut self, window: TimeWindow) {
        if self
            .cursor
            .is_some_and(|c| !(window.since..=window.until).contains(&c))
        {
            self.cursor = None;
            self.replay.playing = false;
        }
        self.selected_activity = None;
        if self
            .span
            .is_some_and(|(a, b)| a < window.since || b > window.until)
        {
            self.span = None;
        }
    }

    /// Where a step moves the cursor: to the track's next (or previous)
    /// position after it; from no cursor, to the first (or last) one. With
    /// no track yet, a hundredth of the window. A binary search: a year of
    /// positions costs nothing on the UI thread.
    fn step_target(&self, forward: bool, window: TimeWindow) -> Option<i64> {
        let inside = |t: &i64| (window.since..=window.until).contains(t);
        let Some(track) = self.track.value().filter(|t| !t.samples.is_empty()) else {
            let step = ((window.until - window.since) / 100).max(1);
            let from = self
                .cursor
                .unwrap_or(if forward { window.since } else { window.until });
            let to = if forward { from + step } else { from - step };
            return Some(to.clamp(window.since, window.until));
        };
        let samples = &track.samples;
        let time = match (self.cursor, forward) {
            (None, true) => samples.first().map(|s| s.time),
            (None, false) => samples.last().map(|s| s.time),
            (Some(c), true) => samples
                .get(samples.partition_point(|s| s.time <= c))
                .map(|s| s.time),
            (Some(c), false) => samples[..samples.partition_point(|s| s.time < c)]
                .last()
                .map(|s| s.time),
        };
        time.filter(inside)
    }

    pub fn seek_to(&mut self, time: i64) {
        self.cursor = Some(time);
        self.seek += 1;
        self.seek_place = None;
    }

    /// Moves the replay on by `dt_secs` of wall time, within `since..=until`;
    /// with `skip_engine_off`, a cursor landing in an engine-off period
    /// jumps to its end. Returns whether the replay is still playing.
    pub fn advance_replay(
        &mut self,
        dt_secs: f64,
        since: i64,
        until: i64,
        engine: &[EngineConditionRow],
    ) -> bool {
        if !self.replay.playing {
            return false;
        }
        let start = self
            .cursor
            .filter(|c| (since..until).contains(c))
            .unwrap_or(since);
        let due = self.replay_carry_secs + dt_secs.max(0.0) * self.replay.speed;
        let step = due.floor();
        self.replay_carry_secs = due - step;
        let mut t = start.saturating_add(step as i64);
        if self.replay.skip_engine_off {
            let off = match self.track.value() {
                _ if !engine.is_empty() => engine_off_end(engine, t, until),
                Some(track) => position_gap_end(track, t, since, until),
                None => None,
            };
            if let Some(end) = off {
                t = t.max(end);
            }
        }
        if t >= until {
            t = until;
            self.replay.playing = false;
        }
        self.cursor = Some(t);
        self.replay.playing
    }
}

/// If the engine is off at `t` (D10), when it next starts, or `until`
/// (the window's end) if it does not start again: after a stop, and
/// before the first event when that event is a start (the engine was off
/// until then), as a machine parked overnight is at a day's both ends.
fn engine_off_end(events: &[EngineConditionRow], t: i64, until: i64) -> Option<i64> {
    let k = events.partition_point(|e| e.date.0 <= t);
    let off = match k.checked_sub(1) {
        Some(last) => events[last].is_stop(),
        None => events.first().is_some_and(EngineConditionRow::is_start),
    };
    if !off {
        return None;
    }
    Some(
        events[k..]
            .iter()
            .find(|e| e.is_start())
            .map_or(until, |e| e.date.0),
    )
}

/// If `t` is inside a long pause between positions, when it ends: the
/// window's start and end count as positions, so a long wait for the
/// first one or after the last one is a pause too.
fn position_gap_end(track: &Track, t: i64, since: i64, until: i64) -> Option<i64> {
    let k = track.samples.partition_point(|s| s.time <= t);
    let before = k
        .checked_sub(1)
        .and_then(|i| track.samples.get(i))
        .map_or(since, |s| s.time.max(since));
    let after = track.samples.get(k).map_or(until, |s| s.time.min(until));
    (after > t && after - before > POSITION_GAP_SECS).then_some(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_moves_the_cursor_from_position_to_position_within_the_window() {
        use fleetview_core::series::track::TrackSample;
        let window = TimeWindow {
            since: 1000,
            until: 2000,
        };
        let mut s = TimelineState::default();
        let step = |s: &mut TimelineState, forward| {
            s.on_action(TimelineAction::Step(forward), None, window, |_| None);
            s.cursor
        };
        // No track yet: a hundredth of the window, from its start.
        assert_eq!(step(&mut s, true), Some(1010));
        assert_eq!(step(&mut s, false), Some(1000));
        assert_eq!(step(&mut s, false), Some(1000), "not before the window");

        let samples = [1100, 1200, 1200, 1500, 2500]
            .map(|t| TrackSample::at(t, 52.0, 4.0))
            .to_vec();
        s.track = Loadable::Ready(Arc::new(Track::new(samples)));
        s.cursor = None;
        assert_eq!(step(&mut s, true), Some(1100), "from nothing: the first");
        assert_eq!(step(&mut s, true), Some(1200));
        assert_eq!(
            step(&mut s, true),
            Some(1500),
            "same-time positions are one step"
        );
        let seeks = s.seek;
        assert_eq!(step(&mut s, true), Some(1500), "2500 is past the window");
        assert_eq!(s.seek, seeks, "no step, no seek");
        assert_eq!(step(&mut s, false), Some(1200));
        s.cursor = Some(1150);
        assert_eq!(
            step(&mut s, false),
            Some(1100),
            "between two: the one before"
        );
    }

    #[test]
    fn replay_moves_at_its_speed_and_stops_at_the_end() {
        let mut s = TimelineState::default();
        s.replay.speed = 60.0;
        s.replay.skip_engine_off = false;
        s.replay.playing = true;
        assert!(s.advance_replay(0.5, 1000, 2000, &[]));
        assert_eq!(s.cursor, Some(1030));
        assert!(!s.advance_replay(100.0, 1000, 2000, &[]));
        assert_eq!(s.cursor, Some(2000));
        // Paused: nothing moves.
        assert!(!s.advance_replay(1.0, 1000, 2000, &[]));
        assert_eq!(s.cursor, Some(2000));
    }

    #[test]
    fn slow_replays_move_at_their_speed_whatever_the_frame_rate() {
        for (speed, fps) in [(1.0, 60.0), (10.0, 60.0), (1.0, 13.0), (10.0, 144.0)] {
            let mut s = TimelineState {
                replay: Replay {
                    playing: true,
                    speed,
                    skip_engine_off: false,
                    follow: false,
                },
                cursor: Some(1_000),
                ..TimelineState::default()
            };
            let frames = (fps * 10.0) as usize;
            for _ in 0..frames {
                s.advance_replay(1.0 / fps, 0, 1_000_000, &[]);
            }
            let moved = s.cursor.unwrap_or_default() - 1_000;
            let expected = (speed * 10.0) as i64;
            assert!(
                (moved - expected).abs() <= 1,
                "{speed}x at {fps} fps moved {moved} s in 10 s, not {expected}"
            );
        }
    }

    #[test]
    fn replay_skips_engine_off_periods_per_d10() {
        // Started at 100, stopped at 200, started at 900.
        let events = [
            EngineConditionRow::started_at(100),
            EngineConditionRow::stopped_at(200),
            EngineConditionRow::started_at(900),
        ];
        assert_eq!(engine_off_end(&events, 150, 5000), None);
        assert_eq!(engine_off_end(&events, 250, 5000), Some(900));
        assert_eq!(engine_off_end(&events, 950, 5000), None, "running");
        let mut s = TimelineState::default();
        s.replay.speed = 10.0;
        s.replay.playing = true;
        s.cursor = Some(195);
        s.advance_replay(1.0, 0, 5000, &events);
        assert_eq!(s.cursor, Some(900));
    }

    #[test]
    fn replay_skips_the_parked_hours_at_the_windows_both_ends() {
        // Parked until 100, ran until 200; parked from then on.
        let day = [
            EngineConditionRow::started_at(100),
            EngineConditionRow::stopped_at(200),
        ];
        assert_eq!(engine_off_end(&day, 0, 5000), Some(100), "before the start");
        assert_eq!(engine_off_end(&day, 50, 5000), Some(100));
        assert_eq!(engine_off_end(&day, 100, 5000), None, "started");
        assert_eq!(
            engine_off_end(&day, 200, 5000),
            Some(5000),
            "after the stop"
        );
        // Running past midnight: the first event is a stop.
        let night = [EngineConditionRow::stopped_at(300)];
        assert_eq!(engine_off_end(&night, 0, 5000), None);
        assert_eq!(engine_off_end(&night, 400, 5000), Some(5000));

        // Played from the window's start: at the start at once, and at the
        // end (and stopped) from the last stop.
        let mut s = TimelineState::default();
        s.replay.speed = 600.0;
        s.replay.playing = true;
        s.cursor = Some(0);
        assert!(s.advance_replay(1.0 / 60.0, 0, 5000, &day));
        assert_eq!(s.cursor, Some(100));
        s.cursor = Some(195);
        assert!(!s.advance_replay(1.0 / 60.0, 0, 5000, &day));
        assert_eq!(s.cursor, Some(5000));
    }

    #[test]
    fn without_engine_events_long_waits_for_positions_are_skipped_at_the_ends_too() {
        use fleetview_core::series::track::TrackSample;
        let gap = POSITION_GAP_SECS;
        let samples = [10 * gap, 10 * gap + 60, 20 * gap]
            .map(|t| TrackSample::at(t, 52.0, 4.0))
            .to_vec();
        let track = Track::new(samples);
        let until = 30 * gap;
        assert_eq!(position_gap_end(&track, 0, 0, until), Some(10 * gap));
        assert_eq!(position_gap_end(&track, 10 * gap + 30, 0, until), None);
        assert_eq!(position_gap_end(&track, 15 * gap, 0, until), Some(20 * gap));
        assert_eq!(position_gap_end(&track, 25 * gap, 0, until), Some(until));
        assert_eq!(position_gap_end(&track, until, 0, until), None, "the end");
        // A short wait at the start is not skipped.
        assert_eq!(position_gap_end(&track, 0, 10 * gap - 60, until), None);
    }

    #[test]
    fn a_span_is_ordered_kept_inside_the_window_and_cleared() {
        let window = TimeWindow::new(1000, 5000).expect("window");
        let mut s = TimelineState::default();
        s.on_action(
            TimelineAction::SetSpan(Some((4000, 500))),
            None,
            window,
            |_| None,
        );
        assert_eq!(s.span, Some((1000, 4000)));
        s.on_action(
            TimelineAction::SetSpan(Some((3000, 3000))),
            None,
            window,
            |_| None,
        );
        assert_eq!(s.span, None, "an empty span is none");
        s.on_action(
            TimelineAction::SetSpan(Some((2000, 3000))),
            None,
            window,
            |_| None,
        );
        s.keep_within(TimeWindow::new(2500, 9000).expect("window"));
        assert_eq!(s.span, None, "another window drops a span outside it");
        s.on_action(
            TimelineAction::SetSpan(Some((2000, 3000))),
            None,
            window,
            |_| None,
        );
        s.on_action(TimelineAction::SetSpan(None), None, window, |_| None);
        assert_eq!(s.span, None);
    }
}
