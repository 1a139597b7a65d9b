//! The event lane: the window's events (D16) on the plots' time axis, one
//! lane, coloured by kind: a span as a bar, an instant as a dot. Hovering
//! a mark says its kind, time, duration and value; clicking it moves the
//! cursor there (and the map to its place). Named after the kinds present,
//! so what it shows is said in words too.

use egui_plot::{GridMark, MarkerShape, Plot, PlotPoints, Points, Polygon};

use super::shared::{Shared, Shown};
use super::steer::steer_plot;
use super::time_axis::{Y_AXIS_WIDTH, cursor_ui, span_ui, time_axis_hints, time_grid};
use crate::analysis::{Event, EventKind};
use crate::ui::events::text;
use crate::ui::theme;

/// Spans narrower than this (points) are drawn as instants.
const MIN_BAR_PX: f64 = 3.0;

/// The event under the pointer at time `t`, where a point stands for
/// `secs_per_point` seconds: an instant (or a span too short to see)
/// within [`theme::EVENT_HOVER_PX`] of it, the nearest; else the shortest
/// span holding `t`.
pub fn event_at(events: &[Event], t: f64, secs_per_point: f64) -> Option<usize> {
    let reach = f64::from(theme::EVENT_HOVER_PX) * secs_per_point;
    let short = |e: &Event| {
        e.duration_secs()
            .is_none_or(|d| (d as f64) < MIN_BAR_PX * secs_per_point)
    };
    let instant = (0..events.len())
        .filter(|i| short(&events[*i]))
        .map(|i| (i, (events[i].start as f64 - t).abs()))
        .filter(|(_, d)| *d <= reach)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i);
    instant.or_else(|| {
        (0..events.len())
            .filter(|i| {
                let e = &events[*i];
                e.end
                    .is_some_and(|end| (e.start as f64) <= t && t <= end as f64)
            })
            .min_by_key(|i| events[*i].duration_secs())
    })
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
    let (local, steer, cursor, span) = (shared.local, shared.steer, shared.cursor, shared.span);
    let window = steer.window;
    let outline = ui.visuals().strong_text_color();
    let mut hovered = None;
    let response = Plot::new("events_lane")
        .id(id)
        .height(theme::EVENT_LANE_HEIGHT + 24.0)
        .link_axis(shared.link, [true, false])
        .link_cursor(shared.link, [true, false])
        .allow_double_click_reset(false)
        .default_x_bounds(window.0 as f64, window.1 as f64)
        .default_y_bounds(0.0, 1.0)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_drag([!shared.measuring, false])
        .allow_axis_zoom_drag(false)
        .show_grid([true, false])
        .y_axis_min_width(Y_AXIS_WIDTH)
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
        .x_grid_spacer(move |input| time_grid(input, local))
        .custom_x_axes(vec![time_axis_hints(local)])
        // The mark under the pointer says itself (below); the lane's own
        // label would cover it.
        .label_formatter(|_| None)
        .show(ui, |pui| {
            steer_plot(pui, &steer);
            let b = pui.plot_bounds();
            let (t0, t1) = (b.min()[0], b.max()[0]);
            let secs_per_point = pui.transform().dvalue_dpos()[0].abs();
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
            // Longest first, stops full height and the rest thinner over
            // them: a refuel across a night's stop shows on it, not under.
            bars.sort_by_key(|e| std::cmp::Reverse(e.duration_secs()));
            for e in bars {
                let (a, z) = (e.start as f64, e.end.unwrap_or(e.start) as f64);
                let (y0, y1) = if e.kind == EventKind::Stop {
                    (0.15, 0.85)
                } else {
                    (0.32, 0.68)
                };
                pui.polygon(
                    Polygon::new(
                        "",
                        PlotPoints::new(vec![[a, y0], [z, y0], [z, y1], [a, y1]]),
                    )
                    .fill_color(theme::event_color(e.kind))
                    .stroke(egui::Stroke::new(1.0, outline))
                    .allow_hover(false),
                );
            }
            for (k, points) in instants.into_iter().enumerate() {
                if points.is_empty() {
                    continue;
                }
                let kind = EventKind::ALL[k];
                pui.points(
                    Points::new("", points)
                        .shape(MarkerShape::Diamond)
                        .radius(theme::EVENT_TICK_RADIUS)
                        .color(theme::event_color(kind))
                        .allow_hover(false),
                );
            }
            span_ui(pui, span);
            let pointer = cursor_ui(pui, cursor);
            if pui.response().hovered() {
                hovered = pui
                    .pointer_coordinate()
                    .and_then(|p| event_at(events, p.x, secs_per_point));
            }
            pointer
        });
    let shown = Shown::of(&response, response.inner, shared.measuring);
    if let Some(e) = hovered.and_then(|i| events.get(i)) {
        response
            .response
            .clone()
            .on_hover_text_at_pointer(text::hover_text(e, local));
    }
    (shown, hovered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::EventDetail;
    use crate::ui::events::text::tests::event;

    #[test]
    fn the_pointer_finds_an_instant_near_it_before_a_span_around_it() {
        let events = vec![
            event(
                EventKind::OutOfHours,
                0,
                Some(10_000),
                EventDetail::OutOfHours,
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
}
