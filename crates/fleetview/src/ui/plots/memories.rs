//! The plots' zoom and pan memories, those of the view shown only. Each
//! view (machine, window, Refresh, a double-click) draws its plots under
//! ids of its own, so that it starts from the whole window; egui keeps what
//! a plot stores under its id until told otherwise, so the memories of the
//! views left are dropped as another is shown (a day of views piled them
//! up).

use std::collections::HashSet;

use fleetview_api::time::TimeWindow;

/// The ids of the plots drawn for the view shown.
#[derive(Debug, Default)]
pub(super) struct PlotMemories {
    view: Option<(TimeWindow, u64)>,
    ids: HashSet<egui::Id>,
}

impl PlotMemories {
    /// The view drawn this frame: if it is another one, the memories of
    /// the plots drawn for the last go.
    pub(super) fn view(&mut self, ctx: &egui::Context, window: TimeWindow, generation: u64) {
        if self.view == Some((window, generation)) {
            return;
        }
        self.view = Some((window, generation));
        if !self.ids.is_empty() {
            ctx.data_mut(|d| {
                for id in self.ids.drain() {
                    d.remove::<egui_plot::PlotMemory>(id);
                }
            });
        }
    }

    /// A plot of the view shown is drawn under `id`.
    pub(super) fn drawn(&mut self, id: egui::Id) {
        self.ids.insert(id);
    }
}
