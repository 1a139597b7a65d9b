//! The fleet map: every machine shown in the table that has a position, at
//! its last known position, on the machine map's basemap and tiles (same
//! settings). Markers are shaped by category and coloured by state, ringed
//! red with faults in the window; markers that would overlap are clusters
//! with their count, labelled with the site or company most of them share.
//! It fits the fleet once its positions have come; later updates leave
//! the user's view alone (*Fit* fits again). Hovering says what a marker
//! is; clicking a machine opens its history, clicking a cluster zooms in
//! on it (or lists machines no zoom can part).
//!
//! Clusters are computed once per change of the rows and quarter zoom
//! level (`cluster.rs`), so panning recomputes nothing, and only those in
//! view are drawn (`marks.rs`); `placed.rs` holds the machines placed,
//! `tips.rs` the words: tooltips, the legend, the list of machines at one
//! spot.

use egui::{Align2, Color32, FontId, Pos2, Rect, Vec2, vec2};
use walkers::{MapMemory, Projector};

use super::cluster::{self, Clusters, Group};
use super::marks::{self, LabelAsk, Marks};
use super::placed::Placed;
use super::tips;
use crate::app::{Action, AppState, MachineAction};
use crate::ui::format;
use crate::ui::map::{
    BUTTON_SIZE, Basemap, FitButton, Insets, MapButton, MapFrame, attribution_ui, buttons_ui,
    center_at, europe, fit,
};
use crate::ui::theme;
use fleetview_api::geo::MercRect;

/// Clusters are made again for every quarter of a zoom level.
const ZOOM_STEPS: f64 = 4.0;
/// Deeper than this, a click on a cluster lists its machines rather than
/// zooming on.
pub const MAX_CLUSTER_ZOOM: f64 = 19.0;

/// Room for a marker (a cluster's disc and label) round a fitted point.
const MARKER_ROOM: f32 = 16.0;

/// What a fitted fleet keeps clear of: the legend below, the buttons on
/// the right, a note above; and room for the markers themselves.
const FIT_INSETS: Insets = Insets {
    left: theme::MAP_MARGIN + MARKER_ROOM,
    right: BUTTON_SIZE.x + 2.0 * theme::MAP_MARGIN + MARKER_ROOM,
    top: 36.0 + MARKER_ROOM,
    bottom: 56.0 + 2.0 * theme::MAP_MARGIN + MARKER_ROOM,
};

/// The clusters at one quarter zoom level, and their labels.
#[derive(Debug)]
pub(super) struct Clustered {
    generation: u64,
    zoom_step: i32,
    pub(super) clusters: Clusters,
    /// Each cluster's label, if placed: its rect relative to the marker's
    /// centre, and its text (into `Placed::names`).
    labels: Vec<Option<(Rect, u32)>>,
}

/// A marker drawn in the last frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShownMarker {
    pub pos: Pos2,
    /// How many machines it stands for.
    pub count: u32,
    /// The machine's id (a cluster's member with the lowest id).
    pub first_id: i64,
    cluster: usize,
}

/// A click on a marker, applied once the map is drawn.
enum Clicked {
    Machine(i64),
    Cluster(usize),
}

/// What the fleet map remembers between frames.
pub struct FleetMapView {
    memory: MapMemory,
    basemap: Basemap,
    /// What was last fitted and for which size: while the user leaves the
    /// map alone, a new size (the layout settling) fits it again.
    framed: Option<(MercRect, Vec2)>,
    /// The fleet has been fitted once its positions came, or the user
    /// moved the map: later updates leave the view alone.
    settled: bool,
    fit_requested: bool,
    placed: Placed,
    clustered: Option<Clustered>,
    shown: Option<MapFrame>,
    markers: Vec<ShownMarker>,
    /// Machines at one spot, listed after a click on their cluster.
    list: Option<tips::SpotList>,
}

impl Default for FleetMapView {
    fn default() -> Self {
        Self {
            memory: europe(),
            basemap: Basemap::default(),
            framed: None,
            settled: false,
            fit_requested: false,
            placed: Placed {
                generation: u64::MAX,
                bounds: MercRect::EMPTY,
                ..Placed::default()
            },
            clustered: None,
            shown: None,
            markers: Vec::new(),
            list: None,
        }
    }
}

impl std::fmt::Debug for FleetMapView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FleetMapView")
            .field("zoom", &self.memory.zoom())
            .field("machines", &self.placed.points.len())
            .finish_non_exhaustive()
    }
}

impl FleetMapView {
    pub fn zoom(&self) -> f64 {
        self.memory.zoom()
    }

    /// Screen <-> Web Mercator of the last frame drawn.
    pub fn frame(&self) -> Option<MapFrame> {
        self.shown
    }

    /// The markers drawn in the last frame (those in view).
    pub fn markers(&self) -> &[ShownMarker] {
        &self.markers
    }

    /// How many machines the clusters hold (in view or not).
    pub fn machines_clustered(&self) -> usize {
        self.clustered.as_ref().map_or(0, |c| c.clusters.machines())
    }

    /// The machines a marker stands for, by id.
    pub fn members(&self, marker: &ShownMarker) -> Vec<i64> {
        let Some(c) = &self.clustered else {
            return Vec::new();
        };
        c.clusters
            .clusters
            .get(marker.cluster)
            .map_or_else(Vec::new, |k| {
                c.clusters
                    .members_of(k)
                    .iter()
                    .map(|&i| self.placed.points[i as usize].id)
                    .collect()
            })
    }

    /// Zooms the map to `zoom`, its centre kept, as a script or a
    /// benchmark would; the user's view from then on.
    pub fn zoom_to(&mut self, zoom: f64) {
        let _ = self.memory.set_zoom(zoom);
        self.framed = None;
        self.settled = true;
    }

    fn fit_into_view(&mut self, bounds: MercRect, size: Vec2) {
        let (zoom, c) = fit(&bounds, size, FIT_INSETS);
        let _ = self.memory.set_zoom(zoom);
        center_at(&mut self.memory, c);
        self.framed = Some((bounds, size));
    }

    /// Fits the fleet while its first positions come, once; again on
    /// *Fit*, and when the map's size changes while left alone.
    fn bring_into_view(&mut self, state: &AppState, size: Vec2) {
        let bounds = self.placed.bounds;
        if bounds.is_empty() {
            // No positions (yet, or any more: another service): the next
            // ones are fitted.
            self.settled = false;
            return;
        }
        if std::mem::take(&mut self.fit_requested)
            || (!self.settled && self.framed.is_none_or(|(b, s)| b != bounds || s != size))
        {
            self.fit_into_view(bounds, size);
        } else if let Some((framed, at)) = self.framed
            && (at - size).length() > 1.0
        {
            self.fit_into_view(framed, size);
        }
        if !state.overview().status.loading {
            self.settled = true;
        }
    }
}

/// The clusters for this zoom, made again only for new rows or another
/// quarter zoom level; their labels placed with `painter`'s fonts.
fn clustered<'a>(
    slot: &'a mut Option<Clustered>,
    placed: &Placed,
    zoom: f64,
    painter: &egui::Painter,
) -> &'a Clustered {
    let zoom_step = (zoom * ZOOM_STEPS).floor() as i32;
    if let Some(c) = slot.take()
        && c.generation == placed.generation
        && c.zoom_step == zoom_step
    {
        return slot.insert(c);
    }
    // At the step's zoom, never deeper than shown: between steps markers
    // only spread out, so nothing placed apart comes to overlap.
    let world_px = 256.0 * 2f64.powf(f64::from(zoom_step) / ZOOM_STEPS);
    let clusters = cluster::cluster(
        &placed.points,
        world_px,
        f64::from(theme::FLEET_CLUSTER_DISTANCE),
    );
    let labels = place_labels(placed, &clusters, world_px, painter);
    slot.insert(Clustered {
        generation: placed.generation,
        zoom_step,
        clusters,
        labels,
    })
}

fn label_font() -> FontId {
    FontId::proportional(theme::FLEET_LABEL_SIZE)
}

const LABEL_PAD: Vec2 = vec2(5.0, 1.0);

/// The labels of clusters most of whose machines share a site or company,
/// the largest first.
fn place_labels(
    placed: &Placed,
    clusters: &Clusters,
    world_px: f64,
    painter: &egui::Painter,
) -> Vec<Option<(Rect, u32)>> {
    let world = |c: [f64; 2]| [c[0] * world_px, c[1] * world_px];
    let obstacles: Vec<([f64; 2], f32)> = clusters
        .clusters
        .iter()
        .map(|c| (world(c.center), marks::reach(c.count)))
        .collect();
    let mut asks: Vec<(LabelAsk, u32)> = Vec::new();
    for (k, c) in clusters.clusters.iter().enumerate() {
        let Some(group) = c.group else { continue };
        let name = match group {
            Group::Site(n) | Group::Company(n) => n,
        };
        let Some(text) = placed.names.get(name as usize) else {
            continue;
        };
        let galley = painter.layout_no_wrap(text.clone(), label_font(), Color32::WHITE);
        asks.push((
            LabelAsk {
                cluster: k,
                center: world(c.center),
                size: galley.size() + 2.0 * LABEL_PAD,
                group,
            },
            name,
        ));
    }
    asks.sort_by_key(|(a, _)| {
        (
            std::cmp::Reverse(clusters.clusters[a.cluster].count),
            a.cluster,
        )
    });
    let only: Vec<LabelAsk> = asks.iter().map(|(a, _)| *a).collect();
    let mut labels = vec![None; clusters.clusters.len()];
    for ((ask, name), rect) in asks.iter().zip(marks::place_labels(&only, &obstacles)) {
        labels[ask.cluster] = rect.map(|r| (r, *name));
    }
    labels
}

/// The text on a cluster.
fn count_text(n: u32) -> String {
    if n >= 10_000 {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

/// Draws the markers in view; records them; returns the one under the
/// pointer and the one clicked.
fn markers_ui(
    ui: &egui::Ui,
    response: &egui::Response,
    projector: &Projector,
    placed: &Placed,
    slot: &mut Option<Clustered>,
    shown: &mut Vec<ShownMarker>,
) -> (Option<ShownMarker>, Option<Clicked>) {
    shown.clear();
    let Some(frame) = MapFrame::new(projector) else {
        return (None, None);
    };
    let rect = projector.clip_rect();
    let painter = ui.painter().with_clip_rect(rect);
    let c = clustered(slot, placed, projector.zoom(), &painter);
    // Those in view first, so the mesh is made with room for them.
    markers_in_view(&frame, rect, c, placed, shown);
    let (mut marks, texts) = marks_of(shown, c, placed);
    // Nothing is hovered while the map is dragged: a tooltip would follow
    // the pointer over every marker passed.
    let hovered = response
        .hover_pos()
        .filter(|_| !response.dragged())
        .and_then(|p| marker_at(shown, p));
    if let Some(h) = hovered {
        let radius = if h.count == 1 {
            theme::FLEET_MARKER_RADIUS
        } else {
            theme::cluster_radius(h.count)
        };
        marks.hovered(h.pos, radius);
        ui.ctx().set_cursor_icon(egui::CursorIcon::PointingHand);
    }
    painter.add(egui::Shape::mesh(marks.mesh));
    let font = FontId::proportional(theme::FLEET_LABEL_SIZE);
    for (p, n) in texts {
        painter.text(
            p,
            Align2::CENTER_CENTER,
            count_text(n),
            font.clone(),
            theme::MARKER_TEXT,
        );
    }
    cluster_labels_ui(&painter, shown, c, placed);
    // Where the click was, whether or not the pointer is still there.
    let clicked = response
        .clicked()
        .then(|| {
            response
                .interact_pointer_pos()
                .and_then(|p| marker_at(shown, p))
        })
        .flatten()
        .map(|m| {
            if m.count == 1 {
                Clicked::Machine(m.first_id)
            } else {
                Clicked::Cluster(m.cluster)
            }
        });
    (hovered, clicked)
}

/// Records the clusters whose markers reach into `rect`.
fn markers_in_view(
    frame: &MapFrame,
    rect: Rect,
    c: &Clustered,
    placed: &Placed,
    shown: &mut Vec<ShownMarker>,
) {
    for (k, cl) in c.clusters.clusters.iter().enumerate() {
        let p = frame.to_screen(cl.center);
        if rect.expand(marks::reach(cl.count)).contains(p) {
            let first = c.clusters.members_of(cl)[0] as usize;
            shown.push(ShownMarker {
                pos: p,
                count: cl.count,
                first_id: placed.points[first].id,
                cluster: k,
            });
        }
    }
}

/// The mesh of the markers `shown`, and the counts to write on clusters.
fn marks_of(shown: &[ShownMarker], c: &Clustered, placed: &Placed) -> (Marks, Vec<(Pos2, u32)>) {
    let machines = shown.iter().filter(|m| m.count == 1).count();
    let mut marks = Marks::with_room(machines, shown.len() - machines);
    let mut texts: Vec<(Pos2, u32)> = Vec::new();
    for m in shown {
        let cl = &c.clusters.clusters[m.cluster];
        if m.count == 1 {
            let first = c.clusters.members_of(cl)[0] as usize;
            let point = &placed.points[first];
            marks.machine(m.pos, placed.shapes[first], point.state, point.faulty);
        } else {
            marks.cluster(m.pos, cl.count, cl.state, cl.faulty > 0);
            texts.push((m.pos, cl.count));
        }
    }
    (marks, texts)
}

/// The marker within reach of `pointer`, the nearest.
fn marker_at(shown: &[ShownMarker], pointer: Pos2) -> Option<ShownMarker> {
    shown
        .iter()
        .filter(|m| m.pos.distance(pointer) <= marks::reach(m.count))
        .min_by(|a, b| a.pos.distance(pointer).total_cmp(&b.pos.distance(pointer)))
        .copied()
}

/// The site or company names placed under the clusters shown.
fn cluster_labels_ui(
    painter: &egui::Painter,
    shown: &[ShownMarker],
    c: &Clustered,
    placed: &Placed,
) {
    for m in shown {
        if let Some(Some((offset, name))) = c.labels.get(m.cluster)
            && let Some(text) = placed.names.get(*name as usize)
        {
            let at = offset.translate(m.pos.to_vec2());
            painter.rect_filled(at, 3.0, theme::MAP_OVERLAY_BG);
            painter.text(
                at.center(),
                Align2::CENTER_CENTER,
                text,
                label_font(),
                Color32::WHITE,
            );
        }
    }
}

pub fn fleet_map_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut FleetMapView,
    actions: &mut Vec<Action>,
) {
    if view.placed.generation != state.overview().generation {
        view.placed = Placed::of(state);
    }
    let size = ui.available_size();
    view.bring_into_view(state, size);
    let zoom_before = view.memory.zoom();
    let shown = view.map_ui(ui, state);
    let (frame, clicked) = shown.inner;
    let response = shown.response;
    let with_positions = view.placed.points.len();
    response.widget_info(|| {
        egui::WidgetInfo::labeled(
            egui::Role::Canvas,
            true,
            format!(
                "Fleet map: {}",
                format::count(with_positions, "machine", "machines")
            ),
        )
    });
    let rect = response.rect;
    let moved = response.dragged() || (view.memory.zoom() - zoom_before).abs() > 1e-9;
    if moved {
        // Moved by hand: what the user sees stays.
        view.framed = None;
        view.settled = true;
        view.list = None;
    }
    view.basemap.after_ui(ui, state, rect, None, actions);
    if view.placed.points.is_empty() {
        tips::no_positions_ui(ui, rect, state);
    }
    view.buttons_ui(ui, rect);
    view.shown = frame;
    match clicked {
        Some(Clicked::Machine(id)) => {
            view.list = None;
            actions.push(MachineAction::Select(id).into());
        }
        Some(Clicked::Cluster(k)) => cluster_clicked(view, k, rect.size()),
        None => {
            if response.clicked() {
                view.list = None;
            }
        }
    }
    if let Some(list) = &view.list
        && let Some(frame) = frame
        && let Some(selected) = tips::spot_list_ui(ui, state, list, &frame)
    {
        match selected {
            Some(id) => actions.push(MachineAction::Select(id).into()),
            None => view.list = None,
        }
    }
}

impl FleetMapView {
    /// The map with its markers, legend and attribution, and the tooltip
    /// of the marker under the pointer; the frame drawn and the marker
    /// clicked.
    fn map_ui(
        &mut self,
        ui: &mut egui::Ui,
        state: &AppState,
    ) -> egui::InnerResponse<(Option<MapFrame>, Option<Clicked>)> {
        let home = if self.placed.bounds.is_empty() {
            [0.5, 0.33]
        } else {
            self.placed.bounds.center()
        };
        let FleetMapView {
            memory,
            basemap,
            placed,
            clustered,
            markers,
            list,
            ..
        } = self;
        let (map, attribution) = basemap.map(ui.ctx(), state, memory, home);
        map.show(ui, |ui, response, projector, _memory| {
            let (hovered, clicked) =
                markers_ui(ui, response, projector, placed, clustered, markers);
            let rect = projector.clip_rect();
            let legend = tips::legend_ui(ui, rect);
            attribution_ui(ui, rect, Some(legend), &attribution);
            // The list of a spot, when open, says what a tooltip would.
            if let (Some(h), Some(c), None) = (hovered, clustered.as_ref(), list.as_ref()) {
                tips::marker_tip_ui(response, state, placed, &c.clusters, h.cluster);
            }
            (MapFrame::new(projector), clicked)
        })
    }

    /// The zoom and *Fit* buttons over the map at `rect`.
    fn buttons_ui(&mut self, ui: &mut egui::Ui, rect: Rect) {
        let fit_button = FitButton {
            name: "Fit fleet",
            hover: "Zoom the map to every machine shown".to_owned(),
            enabled: !self.placed.bounds.is_empty(),
        };
        match buttons_ui(ui, rect, &mut self.memory, &fit_button) {
            Some(MapButton::ZoomIn | MapButton::ZoomOut) => {
                self.framed = None;
                self.settled = true;
            }
            Some(MapButton::Fit) => {
                self.fit_requested = true;
                ui.ctx().request_repaint();
            }
            None => {}
        }
    }
}

/// A click on a cluster: zoom in until its machines part; where no zoom
/// parts them (one spot), list them.
fn cluster_clicked(view: &mut FleetMapView, k: usize, size: Vec2) {
    let Some(c) = &view.clustered else { return };
    let Some(cl) = c.clusters.clusters.get(k) else {
        return;
    };
    let b = cl.bounds;
    let extent = (b.max[0] - b.min[0]).max(b.max[1] - b.min[1]);
    let deepest_px = extent * 256.0 * 2f64.powf(MAX_CLUSTER_ZOOM);
    let zoom = view.memory.zoom();
    if deepest_px < f64::from(theme::FLEET_CLUSTER_DISTANCE) || zoom >= MAX_CLUSTER_ZOOM - 0.01 {
        let ids = c
            .clusters
            .members_of(cl)
            .iter()
            .map(|&i| view.placed.points[i as usize].id)
            .collect();
        view.list = Some(tips::SpotList { ids, at: cl.center });
        return;
    }
    let (fitted, center) = fit(&b, size, FIT_INSETS);
    let (target, center) = if fitted >= zoom + 1.0 {
        (fitted, center)
    } else {
        (zoom + 1.0, cl.center)
    };
    let _ = view.memory.set_zoom(target.min(MAX_CLUSTER_ZOOM));
    center_at(&mut view.memory, center);
    view.framed = None;
    view.settled = true;
    view.list = None;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_fit_their_disc() {
        assert_eq!(count_text(7), "7");
        assert_eq!(count_text(9_999), "9999");
        assert_eq!(count_text(12_345), "12k");
    }
}
