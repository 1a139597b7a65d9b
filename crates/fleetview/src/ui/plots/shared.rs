//! What every plot of the column is given and gives back in a frame.

use egui_plot::Plot;

use super::steer::Steer;
use super::time_axis::{Y_AXIS_WIDTH, time_axis_hints, time_grid};

/// What the plots share this frame.
#[derive(Debug, Clone)]
pub struct Shared {
    /// Links their time axes and cursors.
    pub link: egui::Id,
    /// How the time axis moves (the window shown is in it).
    pub steer: Steer,
    pub cursor: Option<i64>,
    /// The zone times are shown in.
    pub zone: crate::ui::format::Zone,
    /// The units values are shown in.
    pub units: fleetview_core::analysis::UnitSystem,
    /// The span selected, drawn on every plot.
    pub span: Option<(i64, i64)>,
    /// A drag selects a span rather than pans (the Measure tool, or Shift).
    pub measuring: bool,
    /// What can be known ends here: the window's end, or now in a window
    /// still running (states are not drawn past it).
    pub known_until: i64,
}

/// What a plot did this frame.
#[derive(Debug, Clone, Copy)]
pub struct Shown {
    /// The time under the pointer, while hovered.
    pub hover: Option<i64>,
    pub clicked: bool,
    /// Where the plot (its data area) is.
    pub rect: egui::Rect,
    /// While measuring, a drag on the plot: the time it started at and
    /// the time under the pointer now.
    pub drag: Option<(i64, i64)>,
}

impl Shown {
    /// What a plot shown through egui_plot did: hovered time (`hover`
    /// from inside the plot), click, and a measuring drag.
    pub fn of<T>(
        response: &egui_plot::PlotResponse<T>,
        hover: Option<i64>,
        measuring: bool,
    ) -> Self {
        let r = &response.response;
        let drag = (measuring && r.dragged())
            .then(|| {
                let time_at = |p: egui::Pos2| response.transform.value_from_position(p).x as i64;
                let origin = r.ctx.input(|i| i.pointer.press_origin())?;
                let now = r.interact_pointer_pos()?;
                Some((time_at(origin), time_at(now)))
            })
            .flatten();
        Shown {
            hover: hover.filter(|_| r.hovered()),
            clicked: r.clicked(),
            rect: r.rect,
            drag,
        }
    }
}

/// A plot of the column, on its time axis: axis and cursor linked to the
/// others, the window shown at first, a drag panning time (unless
/// measuring). A double-click shows the whole window again and the wheel
/// zooms, both handled by the view (which starts the plots afresh, see
/// `steer`): not egui_plot's own.
pub(super) fn time_plot<'a>(name: &str, id: egui::Id, shared: &Shared) -> Plot<'a> {
    let (grid_zone, axis_zone) = (shared.zone.clone(), shared.zone.clone());
    let window = shared.steer.window;
    Plot::new(name)
        .id(id)
        .link_axis(shared.link, [true, false])
        .link_cursor(shared.link, [true, false])
        .allow_double_click_reset(false)
        .allow_scroll(false)
        .allow_zoom(false)
        .allow_drag([!shared.measuring, false])
        .default_x_bounds(window.0 as f64, window.1 as f64)
        .y_axis_min_width(Y_AXIS_WIDTH)
        .x_grid_spacer(move |input| time_grid(input, &grid_zone))
        .custom_x_axes(vec![time_axis_hints(axis_zone)])
}
