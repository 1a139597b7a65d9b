//! The event lane: the window's events (D16) on the plots' time axis, one
//! lane, coloured by kind: a span as a bar, an instant as a dot. Hovering
//! says each event under the pointer (kind, time, duration, value), the
//! one pointed at first; clicking moves the cursor to that one (and the
//! map to its place). Named after the kinds present,
//! so what it shows is said in words too.

use egui_plot::{GridMark, PlotPoints, Points, Polygon};
use fleetview_core::analysis::UnitSystem;

use super::shared::{Shared, Shown, time_plot};
use super::steer::steer_plot;
use super::time_axis::{cursor_ui, span_ui};
use crate::ui::events::kinds::{MOST_TELLING_FIRST, event_style, telling_rank};
use crate::ui::events::text;
use crate::ui::format::Zone;
use crate::ui::theme;
use fleetview_core::analysis::{Event, EventKind};

/// Spans narrower than this (points) are drawn as instants.
const MIN_BAR_PX: f64 = 3.0;

/// The events under the pointer at time `t`, where a point stands for
/// `secs_per_point` seconds, the one it points at first: the instants (and
/// spans too short to see) within [`theme::EVENT_HOVER_PX`] of it, the
/// nearest first; then the spans holding `t`, the shortest (drawn on top)
/// first. Of events as near or as long (a drain over its stop), the most
/// telling first.
pub fn events_at(events: &[Event], t: f64, secs_per_point: f64) -> Vec<usize> {
    let reach = f64::from(theme::EVENT_HOVER_PX) * secs_per_point;
    let short = |e: &Event| {
        e.duration_secs()
            .is_none_or(|d| (d as f64) < MIN_BAR_PX * secs_per_point)
    };
    let mut instants: Vec<(usize, f64)> = (0..events.len())
        .filter(|i| short(&events[*i]))
        .map(|i| (i, (events[i].start as f64 - t).abs()))
        .filter(|(_, d)| *d <= reach)
        .collect();
    instants.sort_by(|a, b| {
        a.1.total_cmp(&b.1)
            .then_with(|| telling_rank(events[a.0].kind).cmp(&telling_rank(events[b.0].kind)))
    });
    let mut spans: Vec<usize> = (0..events.len())
        .filter(|i| {
            let e = &events[*i];
            !short(e)
                && e.end
                    .is_some_and(|end| (e.start as f64) <= t && t <= end as f64)
        })
        .collect();
    spans.sort_by_key(|i| (events[*i].duration_secs(), telling_rank(events[*i].kind)));
    instants.into_iter().map(|(i, _)| i).chain(spans).collect()
}

/// What hovering the lane says: each event under the pointer (`under`, in
/// [`events_at`]'s order), a few at most.
pub fn hover_text(events: &[Event], under: &[usize], zone: &Zone, units: UnitSystem) -> String {
    const SHOWN: usize = 4;
    let mut parts: Vec<String> = under
        .iter()
        .take(SHOWN)
        .filter_map(|i| events.get(*i))
        .map(|e| text::hover_text(e, zone, units))
        .collect();
    if under.len() > SHOWN {
        parts.push(format!("and {} more here", under.len() - SHOWN));
    }
    parts.join("\n\n")
}

/// The lane. Its shown state, and the event under the pointer.
pub fn events_lane_ui(
    ui: &mut egui::Ui,
    id: egui::Id,
    shared: &Shared,
    events: &[Event],
    label: &str,
) -> (Shown, Option<usize>) {
    ui.label(egui::RichText::new(label).strong());
    let (steer, cursor, span) = (shared.steer, shared.cursor, shared.span);
    let outline = ui.visuals().strong_text_color();
    let mut under = Vec::new();
    let response = time_plot("events_lane", id, shared)
        .height(theme::EVENT_LANE_HEIGHT + 24.0)
        .default_y_bounds(0.0, 1.0)
        .allow_axis_zoom_drag(false)
        .show_grid([true, false])
        .y_grid_spacer(|_| {
            vec![GridMark {
                value: 0.5,
                step_size: 1.0,
            }]
        })
        .y_axis_formatter(|m, _| {
            if (m.value - 0.5).abs() < 1e-6 {
                "Events".to_owned()
            } else {
                String::new()
            }
        })
        // The mark under the pointer says itself (below); the lane's own
        // label would cover it.
        .label_formatter(|_| None)
        .show(ui, |pui| {
            steer_plot(pui, &steer);
            let secs_per_point = pui.transform().dvalue_dpos()[0].abs();
            marks_ui(pui, events, secs_per_point, outline);
            span_ui(pui, span);
            let pointer = cursor_ui(pui, cursor);
            if pui.response().hovered() {
                under = pui
                    .pointer_coordinate()
                    .map(|p| events_at(events, p.x, secs_per_point))
                    .unwrap_or_default();
            }
            pointer
        });
    let shown = Shown::of(&response, response.inner, shared.measuring);
    if !under.is_empty() {
        response
            .response
            .clone()
            .on_hover_text_at_pointer(hover_text(events, &under, &shared.zone, shared.units));
    }
    (shown, under.first().copied())
}

/// The marks of the events in view: spans wide enough as bars, the rest
/// as instants, where a point stands for `secs_per_point` seconds.
fn marks_ui(
    pui: &mut egui_plot::PlotUi<'_>,
    events: &[Event],
    secs_per_point: f64,
    outline: egui::Color32,
) {
    let b = pui.plot_bounds();
    let (t0, t1) = (b.min()[0], b.max()[0]);
    let mut instants: Vec<Vec<[f64; 2]>> = vec![Vec::new(); EventKind::ALL.len()];
    let mut bars: Vec<&Event> = Vec::new();
    for e in events {
        let end = e.end.unwrap_or(e.start) as f64;
        if end < t0 || (e.start as f64) > t1 {
            continue;
        }
        let width = (end - e.start as f64) / secs_per_point;
        if width < MIN_BAR_PX {
            let kind = EventKind::ALL
                .iter()
                .position(|k| *k == e.kind)
                .unwrap_or(0);
            instants[kind].push([e.start as f64, 0.5]);
        } else {
            bars.push(e);
        }
    }
    bars_ui(pui, bars, outline);
    // The most telling last, on top of a stop at the same time.
    for &kind in MOST_TELLING_FIRST.iter().rev() {
        let k = EventKind::ALL.iter().position(|x| *x == kind).unwrap_or(0);
        let points = std::mem::take(&mut instants[k]);
        if points.is_empty() {
            continue;
        }
        let style = event_style(kind);
        pui.points(
            Points::new("", points)
                .shape(style.lane_mark)
                .radius(theme::EVENT_TICK_RADIUS)
                .color(style.color)
                .allow_hover(false),
        );
    }
}

/// The spans as bars: longest first, stops full height and the rest
/// thinner over them, so a refuel across a night's stop shows on it, not
/// under; of bars as long, the most telling last, on top.
fn bars_ui(pui: &mut egui_plot::PlotUi<'_>, mut bars: Vec<&Event>, outline: egui::Color32) {
    bars.sort_by_key(|e| {
        (
            std::cmp::Reverse(e.duration_secs()),
            std::cmp::Reverse(telling_rank(e.kind)),
        )
    });
    for e in bars {
        let (a, z) = (e.start as f64, e.end.unwrap_or(e.start) as f64);
        let style = event_style(e.kind);
        let (y0, y1) = style.lane_bar;
        pui.polygon(
            Polygon::new(
                "",
                PlotPoints::new(vec![[a, y0], [z, y0], [z, y1], [a, y1]]),
            )
            .fill_color(style.color)
            .stroke(egui::Stroke::new(1.0, outline))
            .allow_hover(false),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::events::text::tests::event;
    use fleetview_core::analysis::EventDetail;

    /// The event the pointer points at.
    fn event_at(events: &[Event], t: f64, secs_per_point: f64) -> Option<usize> {
        events_at(events, t, secs_per_point).first().copied()
    }

    #[test]
    fn the_pointer_finds_an_instant_near_it_before_a_span_around_it() {
        let events = vec![
            event(
                EventKind::OutOfHours,
                0,
                Some(10_000),
                EventDetail::OutOfHours {
                    reason: String::new(),
                },
            ),
            event(EventKind::Stop, 2_000, Some(5_000), EventDetail::Stop),
            event(EventKind::Fault, 3_000, None, EventDetail::Stop),
            // 30 s: shorter than three points at 60 s a point, an instant.
            event(EventKind::Stop, 8_000, Some(8_030), EventDetail::Stop),
        ];
        // 60 s a point: an instant reaches 300 s either side.
        assert_eq!(event_at(&events, 3_200.0, 60.0), Some(2));
        assert_eq!(
            event_at(&events, 4_000.0, 60.0),
            Some(1),
            "the shorter span"
        );
        assert_eq!(event_at(&events, 1_000.0, 60.0), Some(0));
        assert_eq!(event_at(&events, 8_100.0, 60.0), Some(3));
        assert_eq!(event_at(&events, 20_000.0, 60.0), None);
        // Zoomed in (1 s a point): the fault is out of reach.
        assert_eq!(event_at(&events, 3_200.0, 1.0), Some(1));
    }

    #[test]
    fn a_drain_over_its_stop_is_found_before_the_stop() {
        let drain = event(
            EventKind::FuelDrop,
            2_000,
            Some(5_000),
            EventDetail::Fuel {
                from_percent: 60.0,
                to_percent: 40.0,
                litres: None,
            },
        );
        // Either order: the stop is often detected first.
        let events = vec![
            event(EventKind::Stop, 2_000, Some(5_000), EventDetail::Stop),
            drain.clone(),
        ];
        assert_eq!(event_at(&events, 3_000.0, 1.0), Some(1), "as a bar");
        assert_eq!(event_at(&events, 2_000.0, 600.0), Some(1), "as an instant");
        let under = events_at(&events, 3_000.0, 1.0);
        assert_eq!(under, [1, 0], "both, the drain first");
        let said = hover_text(&events, &under, &Zone::utc(), UnitSystem::Metric);
        let (drain_at, stop_at) = (
            said.find("Suspected drain").expect("the drain is said"),
            said.find("Stop").expect("the stop is said"),
        );
        assert!(drain_at < stop_at, "{said}");
        let events = vec![drain, events[0].clone()];
        assert_eq!(event_at(&events, 3_000.0, 1.0), Some(0));
    }
}
