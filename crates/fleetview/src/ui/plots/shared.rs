//! What every plot of the column is given and gives back in a frame.

use super::steer::Steer;

/// What the plots share this frame.
#[derive(Debug, Clone, Copy)]
pub struct Shared {
    /// Links their time axes and cursors.
    pub link: egui::Id,
    /// How the time axis moves (the window shown is in it).
    pub steer: Steer,
    pub cursor: Option<i64>,
    /// Times in local time rather than UTC.
    pub local: bool,
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
