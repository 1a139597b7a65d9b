//! The machine page's resizable panes (the tables below, the map beside
//! the plots) sized as shares of the room they are in, restored at the
//! next start as shares, never below their floors: on a laptop a pane
//! restored at its pixel size from a larger screen left the rest no room.

/// A resizable panel's share of the room it is in, so a window made
/// smaller and then larger again gives it back its size, and a restart on
/// another screen keeps the proportions.
#[derive(Debug, Default, Clone, Copy)]
pub struct PanelShare {
    share: Option<f32>,
    room: f32,
    size: f32,
}

impl PanelShare {
    /// `panel` sized to its share (`saved` at first: the share restored)
    /// if the room changed (the window or a panel beside it resized, or
    /// the first frame); the size kept within `min..=max` (`min` wins).
    pub fn apply(
        &mut self,
        saved: Option<f32>,
        panel: egui::Panel,
        room: f32,
        min: f32,
        max: f32,
    ) -> egui::Panel {
        if self.share.is_none() {
            self.share = saved;
        }
        match self.share {
            Some(share) if (room - self.room).abs() > 0.5 => {
                panel.exact_size(sized(share, room, min, max))
            }
            _ => panel,
        }
    }

    /// The panel was shown at `size` in `room`: its new share when its
    /// edge was dragged (the room unchanged, the size changed).
    pub fn shown(&mut self, size: f32, room: f32) -> Option<f32> {
        let dragged =
            self.room > 0.0 && (room - self.room).abs() <= 0.5 && (size - self.size).abs() > 0.5;
        if dragged || self.share.is_none() {
            self.share = Some(size / room.max(1.0));
        }
        self.room = room;
        self.size = size;
        if dragged { self.share } else { None }
    }
}

/// The size of a pane with `share` of `room`, within `min..=max`, the
/// floor winning over the ceiling.
pub fn sized(share: f32, room: f32, min: f32, max: f32) -> f32 {
    (share * room).min(max).max(min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_is_kept_across_rooms_within_the_floor() {
        assert_eq!(sized(0.5, 1000.0, 190.0, 600.0), 500.0);
        assert_eq!(sized(0.5, 300.0, 190.0, 600.0), 190.0);
        assert_eq!(sized(0.9, 1000.0, 190.0, 600.0), 600.0);
        // No room for both: the floor wins.
        assert_eq!(sized(0.5, 300.0, 190.0, 100.0), 190.0);
    }

    #[test]
    fn a_drag_sets_a_new_share_and_a_resize_does_not() {
        let mut p = PanelShare::default();
        assert_eq!(p.shown(250.0, 1000.0), None, "the first frame");
        assert_eq!(p.shown(250.0, 1000.0), None, "unchanged");
        assert_eq!(p.shown(400.0, 1000.0), Some(0.4), "dragged");
        // The window resized: the panel follows its share, which stays.
        assert_eq!(p.shown(280.0, 700.0), None);
        assert_eq!(p.share, Some(0.4));
    }

    #[test]
    fn a_restored_share_sizes_the_first_frame() {
        let mut p = PanelShare::default();
        let panel = p.apply(Some(0.5), egui::Panel::bottom("t"), 600.0, 190.0, 400.0);
        assert_eq!(p.share, Some(0.5));
        drop(panel);
        // Later frames in the same room leave the panel to its drag.
        p.shown(300.0, 600.0);
        let _ = p.apply(Some(0.9), egui::Panel::bottom("t"), 600.0, 190.0, 400.0);
        assert_eq!(p.share, Some(0.5), "the saved share is read once");
    }
}
