//! What the fleet map says in words: a marker's tooltip (a machine's name,
//! make and model, last report, fuel; a cluster's count, states and first
//! names), the legend, the note when there is no position to show, and the
//! list of machines at one spot.

use egui::{Align2, Color32, FontId, Rect, RichText, Stroke, pos2, vec2};

use super::cluster::{Clusters, Group};
use super::marks;
use super::placed::Placed;
use crate::app::AppState;
use crate::app::overview::fuel_percent;
use crate::ui::format;
use crate::ui::map::MapFrame;
use crate::ui::theme;
use fleetview_core::analysis::MachineState;

/// How many names a cluster's tooltip lists.
const NAMES_IN_TIP: usize = 5;
/// How many machines the list of one spot shows.
const NAMES_IN_LIST: usize = 200;

/// A machine's lines: name, make and model, state, last report, fuel,
/// faults in the window.
fn machine_tip_ui(ui: &mut egui::Ui, state: &AppState, placed: &Placed, point: usize) {
    let Some(row) = state.overview().rows().get(placed.rows[point]) else {
        return;
    };
    let Some(e) = state.fleet().equipments.get(row.index) else {
        return;
    };
    ui.label(RichText::new(&e.name).strong());
    let what = [e.make.as_str(), e.model.as_str()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let what = match e.category.as_deref() {
        Some(c) if !c.is_empty() => format!("{what} · {c}"),
        _ => what,
    };
    if !what.is_empty() {
        ui.label(what);
    }
    ui.label(
        RichText::new(row.state.label())
            .color(theme::ink(ui, theme::machine_state_color(row.state))),
    );
    let report = row.last_report.map_or_else(
        || format::NULL.to_owned(),
        |t| {
            format!(
                "{} ({})",
                format::format_time(t, format::zone_of(state, Some(row.id))),
                format::format_age(state.now() - t)
            )
        },
    );
    ui.label(format!("Last report: {report}"));
    let fuel = fuel_percent(state.overview().snapshots.get(&row.id))
        .map_or_else(|| format::NULL.to_owned(), |f| format!("{f:.0} %"));
    ui.label(format!("Fuel: {fuel}"));
    if let Some(f) = state
        .overview()
        .figures_of(row.id)
        .and_then(crate::app::Loadable::value)
    {
        let n = f.faults.count;
        let text = if n == 0 {
            "No faults in the window".to_owned()
        } else {
            format!("{} in the window", format::count(n, "fault", "faults"))
        };
        let color = if n == 0 {
            ui.visuals().weak_text_color()
        } else {
            theme::FAULT_RING
        };
        ui.label(RichText::new(text).color(color));
    }
    ui.label(RichText::new("Click to open its history").weak());
}

/// A cluster's lines: its count, what its machines share, their states,
/// the first names.
fn cluster_tip_ui(ui: &mut egui::Ui, state: &AppState, placed: &Placed, members: &[u32]) {
    ui.label(RichText::new(format::count(members.len(), "machine", "machines")).strong());
    let mut by_state = [0usize; MachineState::ALL.len()];
    let mut faulty = 0;
    for &m in members {
        let p = &placed.points[m as usize];
        if let Some(k) = MachineState::ALL.iter().position(|s| *s == p.state) {
            by_state[k] += 1;
        }
        faulty += usize::from(p.faulty);
    }
    for (s, n) in MachineState::ALL.iter().zip(by_state) {
        if n > 0 {
            ui.label(
                RichText::new(format!("{n} {}", s.label().to_lowercase()))
                    .color(theme::ink(ui, theme::machine_state_color(*s))),
            );
        }
    }
    if faulty > 0 {
        ui.label(
            RichText::new(format!("{faulty} with faults in the window")).color(theme::FAULT_RING),
        );
    }
    let rows = state.overview().rows();
    for &m in members.iter().take(NAMES_IN_TIP) {
        let name = rows
            .get(placed.rows[m as usize])
            .and_then(|r| state.fleet().equipments.get(r.index))
            .map_or("", |e| e.name.as_str());
        ui.label(name);
    }
    if members.len() > NAMES_IN_TIP {
        ui.label(format!("… and {} more", members.len() - NAMES_IN_TIP));
    }
    ui.label(RichText::new("Click to zoom in").weak());
}

/// The tooltip of the marker under the pointer (cluster `k`).
pub(super) fn marker_tip_ui(
    response: &egui::Response,
    state: &AppState,
    placed: &Placed,
    clusters: &Clusters,
    k: usize,
) {
    let Some(c) = clusters.clusters.get(k) else {
        return;
    };
    let members = clusters.members_of(c);
    egui::Tooltip::for_widget(response)
        .at_pointer()
        .gap(16.0)
        .show(|ui| {
            if let [one] = members {
                machine_tip_ui(ui, state, placed, *one as usize);
            } else {
                if let Some(Group::Site(n) | Group::Company(n)) = c.group
                    && let Some(name) = placed.names.get(n as usize)
                {
                    ui.label(RichText::new(name).italics());
                }
                cluster_tip_ui(ui, state, placed, members);
            }
        });
}

const LEGEND_HOVER: &str = "Each machine at its last known position, coloured by its \
state. Its shape says its kind: a circle for earthmoving (and unknown kinds), a square \
for road vehicles, a triangle for lifting (cranes, telehandlers), a diamond for power \
and compact machines. A disc with a number stands for machines too close to tell \
apart: its colour is the state most of them are in (hover it for each count); a red ring \
means a fault in the window. Click a machine to open its history, a disc to zoom in \
on it.";

/// The legend, bottom left, wrapped to the room there is: the states'
/// colours and the fault ring (the shapes on hover). Returns its rect.
pub(super) fn legend_ui(ui: &egui::Ui, rect: Rect) -> Rect {
    let font = FontId::proportional(theme::FLEET_LABEL_SIZE);
    let swatch = 14.0;
    let galleys: Vec<_> = marks::legend_items()
        .map(|(_, text)| {
            ui.painter()
                .layout_no_wrap(text.to_owned(), font.clone(), Color32::WHITE)
        })
        .collect();
    let widths: Vec<f32> = galleys.iter().map(|g| swatch + g.size().x).collect();
    let height = galleys.first().map_or(14.0, |g| g.size().y.max(swatch));
    let max_width = (rect.width() * 0.55).clamp(160.0, 440.0);
    let (at, size) = marks::legend_layout(&widths, height, max_width);
    let bg = Rect::from_min_size(
        rect.left_bottom() + vec2(theme::MAP_MARGIN, -theme::MAP_MARGIN - size.y),
        size,
    );
    let painter = ui.painter().with_clip_rect(rect);
    painter.rect_filled(bg, 4.0, theme::MAP_OVERLAY_BG);
    let mut swatches = marks::Marks::default();
    for (((state, _), galley), p) in marks::legend_items().zip(galleys).zip(at) {
        let p = bg.min + p.to_vec2();
        let c = pos2(p.x + swatch / 2.0 - 1.0, p.y + height / 2.0);
        match state {
            Some(s) => swatches.swatch(c, theme::machine_state_color(s)),
            None => {
                painter.circle_stroke(
                    c,
                    theme::FLEET_MARKER_RADIUS - 1.5,
                    Stroke::new(theme::FAULT_RING_WIDTH, theme::FAULT_RING),
                );
            }
        }
        painter.galley(pos2(p.x + swatch, p.y), galley, Color32::WHITE);
    }
    painter.add(egui::Shape::mesh(swatches.mesh));
    ui.interact(bg, ui.scope_id().with("fleet_legend"), egui::Sense::hover())
        .on_hover_text(LEGEND_HOVER)
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, "Fleet map legend"));
    bg
}

/// The note when no machine shown has a position.
pub(super) fn no_positions_ui(ui: &egui::Ui, rect: Rect, state: &AppState) {
    let o = &state.overview();
    let text = if o.status.loading || state.fleet().loading {
        "Reading the machines' positions…"
    } else if o.status.unsupported {
        "This service has no snapshots: no positions to show."
    } else if o.rows().is_empty() && !o.settings.filters.is_empty() {
        "No machine passes the filters."
    } else {
        "No machine shown has a known position."
    };
    let painter = ui.painter().with_clip_rect(rect);
    let galley =
        painter.layout_no_wrap(text.to_owned(), FontId::proportional(13.0), Color32::WHITE);
    let at = Align2::CENTER_CENTER.anchor_size(rect.center(), galley.size() + vec2(16.0, 10.0));
    painter.rect_filled(at, 4.0, theme::MAP_OVERLAY_BG);
    painter.galley(at.min + vec2(8.0, 5.0), galley, Color32::WHITE);
    ui.interact(at, ui.scope_id().with("no_positions"), egui::Sense::hover())
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, text));
}

/// Machines at one spot (no zoom parts them), listed beside it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SpotList {
    pub(super) ids: Vec<i64>,
    /// Where, in Web Mercator.
    pub(super) at: [f64; 2],
}

/// The list of one spot's machines: `Some(Some(id))` when one is picked,
/// `Some(None)` when closed.
pub(super) fn spot_list_ui(
    ui: &egui::Ui,
    state: &AppState,
    list: &SpotList,
    frame: &MapFrame,
) -> Option<Option<i64>> {
    let mut out = None;
    let at = frame.to_screen(list.at) + vec2(14.0, -10.0);
    egui::Area::new(egui::Id::unique("fleet_spot_list"))
        .order(egui::Order::Foreground)
        .fixed_pos(at)
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(
                        RichText::new(format!(
                            "{} at this spot",
                            format::count(list.ids.len(), "machine", "machines")
                        ))
                        .strong(),
                    );
                    if ui.small_button("Close").clicked() {
                        out = Some(None);
                    }
                });
                egui::ScrollArea::vertical()
                    .max_height(220.0)
                    .show(ui, |ui| {
                        for &id in list.ids.iter().take(NAMES_IN_LIST) {
                            if ui.button(state.fleet().name_of(id)).clicked() {
                                out = Some(Some(id));
                            }
                        }
                        if list.ids.len() > NAMES_IN_LIST {
                            ui.label(format!("… and {} more", list.ids.len() - NAMES_IN_LIST));
                        }
                    });
            });
        });
    if ui.input(|i| i.key_pressed(egui::Key::Escape)) {
        out = Some(None);
    }
    out
}
