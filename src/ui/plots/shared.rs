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
}

/// What a plot did this frame.
#[derive(Debug, Clone, Copy)]
pub struct Shown {
    /// The time under the pointer, while hovered.
    pub hover: Option<i64>,
    pub clicked: bool,
    /// Where the plot (its data area) is.
    pub rect: egui::Rect,
}
