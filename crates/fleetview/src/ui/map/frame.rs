//! Screen <-> Web Mercator for one frame of the map: what the track layer
//! and the markers draw with, computed once per frame from walkers'
//! projector.

use egui::{Pos2, pos2};
use walkers::Projector;

use fleetview_api::geo::{MercRect, mercator};

/// Screen <-> Web Mercator for one frame of the map.
#[derive(Debug, Clone, Copy)]
pub struct MapFrame {
    center_px: Pos2,
    center: [f64; 2],
    world_px: f64,
    pub view: MercRect,
}

impl MapFrame {
    pub fn new(projector: &Projector) -> Option<Self> {
        let rect = projector.clip_rect();
        let c = projector.unproject(rect.center().to_vec2());
        let center = mercator(c.y(), c.x())?;
        let world_px = 256.0 * 2f64.powf(projector.zoom());
        let (hw, hh) = (
            f64::from(rect.width()) / 2.0 / world_px,
            f64::from(rect.height()) / 2.0 / world_px,
        );
        Some(Self {
            center_px: rect.center(),
            center,
            world_px,
            view: MercRect {
                min: [center[0] - hw, center[1] - hh],
                max: [center[0] + hw, center[1] + hh],
            },
        })
    }

    pub fn to_screen(&self, p: [f64; 2]) -> Pos2 {
        pos2(
            self.center_px.x + ((p[0] - self.center[0]) * self.world_px) as f32,
            self.center_px.y + ((p[1] - self.center[1]) * self.world_px) as f32,
        )
    }

    pub fn to_merc(&self, p: Pos2) -> [f64; 2] {
        [
            self.center[0] + f64::from(p.x - self.center_px.x) / self.world_px,
            self.center[1] + f64::from(p.y - self.center_px.y) / self.world_px,
        ]
    }

    pub fn px(&self, merc: f64) -> f32 {
        (merc * self.world_px) as f32
    }
}
