//! How the plots' shared time axis moves besides a drag: the wheel zooms
//! it about the pointer, a seek centres the cursor, and a replay keeps its
//! cursor in view. Each plot applies the same steer, and their linked axes
//! carry it to the others; none touches the values' axis, which stays
//! fitted to the data in view.
//!
//! The wheel belongs to whatever it started over: a turn that starts over a
//! plot zooms the plots (and the column does not scroll); one that starts
//! elsewhere in the column scrolls it, and the plots passing under the
//! pointer meanwhile are left alone.

use egui::{Rect, Vec2};

/// The shortest span the wheel zooms in to.
const MIN_SPAN_SECS: f64 = 60.0;
/// Wheel points that zoom by a factor e (a notch of about 50 points zooms
/// by about 0.86).
const WHEEL_POINTS_PER_E: f32 = 330.0;
/// A pause this long between wheel turns ends a gesture.
const GESTURE_PAUSE_SECS: f64 = 0.3;
/// Where a replay's cursor goes when it leaves the view: this fraction of
/// the span from the left, so the view moves a page at a time.
const FOLLOW_AT: f64 = 0.1;

/// A wheel turn for the plot under the pointer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wheel {
    /// The span in view is multiplied by this, about the pointer.
    pub zoom: f64,
    /// Points the content moves right (a sideways scroll).
    pub pan_points: f32,
}

/// What moves the time axis this frame.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Steer {
    /// The window shown, `(since, until)`.
    pub window: (i64, i64),
    /// Centre the view on this time, same zoom (a seek).
    pub seek: Option<i64>,
    /// Keep this time in view, same zoom (a replay's cursor).
    pub follow: Option<i64>,
    pub wheel: Option<Wheel>,
}

/// Who the current wheel gesture belongs to.
#[derive(Debug, Default)]
pub struct WheelGesture {
    last_turn: Option<f64>,
    on_plots: bool,
}

impl WheelGesture {
    /// This frame's wheel turn, for the plots if the gesture started over
    /// one of `plots` (their rects as last shown): then it is taken out of
    /// the input, so the column does not scroll. Otherwise it is left to
    /// the column.
    pub fn take(&mut self, ui: &egui::Ui, plots: &[Rect]) -> Option<Wheel> {
        let (scroll, zoom, now, pointer) = ui.input(|i| {
            (
                i.smooth_scroll_delta,
                i.zoom_delta(),
                i.time,
                i.pointer.hover_pos(),
            )
        });
        if scroll == Vec2::ZERO && zoom == 1.0 {
            return None;
        }
        if self.last_turn.is_none_or(|t| now - t > GESTURE_PAUSE_SECS) {
            self.on_plots = pointer.is_some_and(|p| plots.iter().any(|r| r.contains(p)));
        }
        self.last_turn = Some(now);
        if !self.on_plots {
            return None;
        }
        ui.input_mut(|i| i.smooth_scroll_delta = Vec2::ZERO);
        Some(Wheel {
            // Away from the user (content down) zooms in; so does a
            // spreading pinch or Ctrl and the wheel.
            zoom: f64::from((-scroll.y / WHEEL_POINTS_PER_E).exp() / zoom),
            pan_points: scroll.x,
        })
    }
}

/// Applies `steer` to a plot's time axis (from inside its `show`).
pub fn steer_plot(pui: &mut egui_plot::PlotUi<'_>, steer: &Steer) {
    let b = pui.plot_bounds();
    let (mut lo, mut hi) = (b.min()[0], b.max()[0]);
    // A view without data has no width yet: left alone.
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return;
    }
    let before = (lo, hi);
    if let Some(t) = steer.seek {
        (lo, hi) = centred_within(t as f64, (hi - lo) / 2.0, steer.window);
    }
    if let Some(w) = steer.wheel
        && pui.response().contains_pointer()
        && let Some(p) = pui.pointer_coordinate()
    {
        (lo, hi) = zoomed((lo, hi), p.x, w.zoom, steer.window);
        let secs_per_point = (hi - lo) / f64::from(pui.response().rect.width().max(1.0));
        let pan = f64::from(w.pan_points) * secs_per_point;
        (lo, hi) = (lo - pan, hi - pan);
    }
    if let Some(t) = steer.follow
        && let Some(view) = followed((lo, hi), t as f64, steer.window)
    {
        (lo, hi) = view;
    }
    if (lo, hi) != before {
        pui.set_plot_bounds_x(lo..=hi);
    }
}

/// `t ± half`, moved to stay inside the window when the span fits in it
/// (a seek near an edge never shows time outside the window).
fn centred_within(t: f64, half: f64, window: (i64, i64)) -> (f64, f64) {
    within((t - half, t + half), window)
}

/// A view moved (not resized) into the window, if it fits in it.
fn within((mut lo, mut hi): (f64, f64), window: (i64, i64)) -> (f64, f64) {
    let (since, until) = (window.0 as f64, window.1 as f64);
    let span = hi - lo;
    if span <= until - since {
        if lo < since {
            (lo, hi) = (since, since + span);
        } else if hi > until {
            (lo, hi) = (until - span, until);
        }
    }
    (lo, hi)
}

/// The view `lo..hi` zoomed by `factor` about time `at`, which stays where
/// it is on screen; never narrower than a minute nor wider than the window
/// (zoomed out to it, the whole window).
fn zoomed((lo, hi): (f64, f64), at: f64, factor: f64, window: (i64, i64)) -> (f64, f64) {
    let whole = (window.1 - window.0) as f64;
    let span = hi - lo;
    if !(factor.is_finite() && factor > 0.0) || span <= 0.0 {
        return (lo, hi);
    }
    let new_span = (span * factor).clamp(MIN_SPAN_SECS.min(whole), whole.max(MIN_SPAN_SECS));
    if new_span >= whole {
        return (window.0 as f64, window.1 as f64);
    }
    let f = ((at - lo) / span).clamp(0.0, 1.0);
    let lo = at - f * new_span;
    (lo, lo + new_span)
}

/// Where the view goes to keep `t` in it, same span, if `t` has left it:
/// `t` a little from the left, inside the window when it fits.
fn followed((lo, hi): (f64, f64), t: f64, window: (i64, i64)) -> Option<(f64, f64)> {
    if (lo..=hi).contains(&t) {
        return None;
    }
    let span = hi - lo;
    let start = t - FOLLOW_AT * span;
    Some(within((start, start + span), window))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seek_near_an_edge_stays_in_the_window() {
        assert_eq!(centred_within(50.0, 10.0, (0, 100)), (40.0, 60.0));
        assert_eq!(centred_within(2.0, 10.0, (0, 100)), (0.0, 20.0));
        assert_eq!(centred_within(99.0, 10.0, (0, 100)), (80.0, 100.0));
        // Zoomed out beyond the window: centred as asked.
        assert_eq!(centred_within(50.0, 80.0, (0, 100)), (-30.0, 130.0));
    }

    #[test]
    fn the_wheel_zooms_about_the_pointer_within_limits() {
        let window = (0, 100_000);
        // In by half about 30_000: it stays a third of the way across.
        let (lo, hi) = zoomed((20_000.0, 50_000.0), 30_000.0, 0.5, window);
        assert_eq!((lo, hi), (25_000.0, 40_000.0));
        // Never under a minute.
        let (lo, hi) = zoomed((1000.0, 1100.0), 1050.0, 0.01, window);
        assert_eq!(hi - lo, MIN_SPAN_SECS);
        assert_eq!((lo + hi) / 2.0, 1050.0);
        // Out: never past the whole window, which it then shows.
        assert_eq!(
            zoomed((20_000.0, 80_000.0), 30_000.0, 4.0, window),
            (0.0, 100_000.0)
        );
        // Nonsense changes nothing.
        assert_eq!(zoomed((10.0, 20.0), 15.0, f64::NAN, window), (10.0, 20.0));
        assert_eq!(zoomed((10.0, 20.0), 15.0, 0.0, window), (10.0, 20.0));
        // A window shorter than a minute: its whole.
        assert_eq!(zoomed((0.0, 30.0), 10.0, 0.5, (0, 30)), (0.0, 30.0));
    }

    #[test]
    fn a_replay_keeps_its_cursor_in_view_a_page_at_a_time() {
        let window = (0, 100_000);
        assert_eq!(followed((1000.0, 2000.0), 1500.0, window), None);
        assert_eq!(followed((1000.0, 2000.0), 2000.0, window), None);
        // Past the right edge: the same span, the cursor near its left.
        assert_eq!(
            followed((1000.0, 2000.0), 2001.0, window),
            Some((1901.0, 2901.0))
        );
        // Before the view (a replay started over): likewise.
        assert_eq!(
            followed((5000.0, 6000.0), 10.0, window),
            Some((0.0, 1000.0))
        );
        // Near the end of the window: inside it.
        assert_eq!(
            followed((90_000.0, 99_000.0), 99_500.0, window),
            Some((91_000.0, 100_000.0))
        );
    }

    #[test]
    fn a_view_is_moved_into_the_window_when_it_fits() {
        assert_eq!(within((-10.0, 10.0), (0, 100)), (0.0, 20.0));
        assert_eq!(within((95.0, 115.0), (0, 100)), (80.0, 100.0));
        assert_eq!(within((-10.0, 200.0), (0, 100)), (-10.0, 200.0));
    }
}
