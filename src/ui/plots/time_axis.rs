//! The time axis every plot shares: round-time grid marks, short tick
//! labels, the y-axis width that lines the plots' x axes up, the cursor,
//! and the time under the pointer.

use std::ops::RangeInclusive;

use egui_plot::{GridInput, GridMark, VLine};

use crate::ui::theme;

/// Every plot's y axis takes this width, so their x axes line up.
pub(super) const Y_AXIS_WIDTH: f32 = 110.0;

/// Time grid steps, in seconds: lines fall on round times.
const TIME_STEPS: [f64; 16] = [
    1.0,
    5.0,
    15.0,
    60.0,
    300.0,
    900.0,
    1800.0,
    3600.0,
    10800.0,
    21600.0,
    43200.0,
    86400.0,
    604800.0,
    2_592_000.0,
    7_776_000.0,
    31_536_000.0,
];

/// Grid marks for a time axis: every round step from the finest that fits
/// up (egui_plot labels the levels whose marks are far enough apart).
pub fn time_grid(input: GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return Vec::new();
    }
    let first = TIME_STEPS
        .iter()
        .position(|s| *s >= input.base_step_size)
        .unwrap_or(TIME_STEPS.len() - 1);
    let mut marks = Vec::new();
    for step in TIME_STEPS.iter().skip(first) {
        let mut t = (lo / step).ceil() * step;
        // Bounded: at most a few hundred marks per level.
        let mut n = 0;
        while t <= hi && n < 400 {
            marks.push(GridMark {
                value: t,
                step_size: *step,
            });
            t += step;
            n += 1;
        }
    }
    marks
}

/// Short tick labels, so neighbours do not collide: months over long
/// spans, days over days, hours within a day (with the day at midnight).
pub(super) fn time_axis_label(mark: GridMark, range: &RangeInclusive<f64>, local: bool) -> String {
    let t = mark.value as i64;
    let span = range.end() - range.start();
    let format = if span > 120.0 * 86400.0 {
        "%Y-%m"
    } else if mark.step_size >= 86400.0 || span > 3.0 * 86400.0 || theme::is_midnight(t, local) {
        "%m-%d"
    } else if mark.step_size < 60.0 {
        "%H:%M:%S"
    } else {
        "%H:%M"
    };
    theme::format_in_zone(t, local, format)
}

/// Draws the cursor; returns the time under the pointer.
pub(super) fn cursor_ui(pui: &mut egui_plot::PlotUi<'_>, cursor: Option<i64>) -> Option<i64> {
    if let Some(t) = cursor {
        pui.vline(VLine::new("", t as f64).color(theme::CURSOR).width(1.5));
    }
    pui.pointer_coordinate().map(|p| p.x as i64)
}

/// The time under the pointer while the plot is hovered, and whether it
/// was clicked.
pub(super) fn hover_and_click(
    response: &egui_plot::PlotResponse<Option<i64>>,
) -> (Option<i64>, bool) {
    let hovered = response.response.hovered();
    (
        response.inner.filter(|_| hovered),
        response.response.clicked(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_grid_marks_fall_on_round_times() {
        let marks = time_grid(GridInput {
            bounds: (1_750_000_123.0, 1_750_086_400.0),
            base_step_size: 2000.0,
        });
        assert!(!marks.is_empty());
        for m in &marks {
            assert_eq!(m.value % m.step_size, 0.0);
            assert!(m.step_size >= 2000.0);
        }
        assert!(
            time_grid(GridInput {
                bounds: (f64::NAN, 1.0),
                base_step_size: 1.0
            })
            .is_empty()
        );
    }
}
