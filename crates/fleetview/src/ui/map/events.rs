//! The window's events (D16) on the map: stops as dots whose size grows
//! with their duration, refuels and suspected drains as fuel pumps (a
//! drain in the warning colour), faults as warning triangles coloured by
//! level. Marks closer than a few points are drawn as one, whatever their
//! kinds, looking like the most telling: its badge counts the events of
//! that kind ("4" for 4 drains among 385 stops and refuels), its hover
//! says the other kinds' counts and lists the events, the most telling
//! first. A frame draws a bounded number of marks, however many events.
//! Hovering a mark says what happened; clicking it moves the cursor there.

use fleetview_core::analysis::UnitSystem;
use std::collections::HashMap;

use egui::{Align2, Color32, FontId, Painter, Pos2, Shape, Stroke, pos2, vec2};
use walkers::{MapMemory, Plugin, Projector};

use super::frame::MapFrame;
use crate::ui::events::kinds::{EventStyle, MapIcon, MapMark, counted, event_style, telling_rank};
use crate::ui::events::text;
use crate::ui::format;
use crate::ui::theme;
use fleetview_api::geo::mercator;
use fleetview_core::analysis::{Event, EventDetail, EventKind};

/// The icon of `kind`'s mark, for the kinds drawn on the map.
fn icon_of(kind: EventKind) -> Option<MapIcon> {
    event_style(kind).map.map(|m| m.icon)
}

/// One mark: where, how it looks, how far it reaches for the pointer, its
/// colour, and the events it stands for.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Mark {
    pub(super) pos: Pos2,
    /// The kind it looks like (its first event's) and its icon.
    pub(super) kind: EventKind,
    pub(super) icon: MapIcon,
    pub(super) reach: f32,
    pub(super) color: Color32,
    pub(super) members: Vec<usize>,
    /// What its badge says, when it holds more than one event.
    pub(super) badge: Option<Badge>,
}

/// What a mark holding several events says: the most telling kind with
/// its own count on its badge, the other kinds counted in its hover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Badge {
    pub(super) kind: EventKind,
    pub(super) count: usize,
    /// The other kinds and their counts, the most telling first.
    pub(super) rest: Vec<(EventKind, usize)>,
}

impl Badge {
    /// The badge of a mark whose `members` (of `events`) are the most
    /// telling first; none for a single event.
    pub(super) fn of(events: &[Event], members: &[usize]) -> Option<Badge> {
        if members.len() < 2 {
            return None;
        }
        let mut counts: Vec<(EventKind, usize)> = Vec::new();
        for e in members.iter().filter_map(|i| events.get(*i)) {
            match counts.iter_mut().find(|(k, _)| *k == e.kind) {
                Some((_, n)) => *n += 1,
                None => counts.push((e.kind, 1)),
            }
        }
        counts.sort_by_key(|(k, _)| telling_rank(*k));
        let mut counts = counts.into_iter();
        let (kind, count) = counts.next()?;
        Some(Badge {
            kind,
            count,
            rest: counts.collect(),
        })
    }

    /// What the badge shows: the count of its kind.
    pub(super) fn text(&self) -> String {
        self.count.to_string()
    }

    /// Its kind counted, `4 suspected drains`: what it is named.
    pub(super) fn label(&self) -> String {
        counted(self.kind, self.count)
    }

    /// The first lines of the mark's hover: its kind counted, then the
    /// others.
    fn summary(&self) -> String {
        let mut out = format!("{} here", self.label());
        if !self.rest.is_empty() {
            out.push_str(&format!("\nAlso here: {}", text::counts_text(&self.rest)));
        }
        out
    }
}

/// How bad a fault level is, for a merged mark's colour (the worst).
fn level_rank(level: &str) -> u8 {
    match level.to_ascii_lowercase().as_str() {
        "critical" => 4,
        "error" => 3,
        "warning" => 2,
        "information" | "info" => 1,
        _ => 0,
    }
}

fn fault_level(e: &Event) -> &str {
    match &e.detail {
        EventDetail::Fault { level, .. } => level,
        _ => "",
    }
}

/// The colour of an event's mark.
fn mark_color(e: &Event, icon: MapIcon) -> Color32 {
    match icon {
        MapIcon::Warning => theme::level_color(fault_level(e)),
        MapIcon::Dot | MapIcon::FuelPump => event_style(e.kind).color,
    }
}

/// The marks of `events` placed at `screen` points (`None`: not on the
/// map): one per cell of `cell` points, whatever the kinds in it, at most
/// `cap`. A mark's events are the most telling first (of faults, the worst
/// level first), and it looks like the first: a drain at a fault's place
/// or among the depot's refuels shows. The most telling marks come last,
/// drawn on top.
pub(super) fn place_marks(
    events: &[Event],
    screen: impl Fn(&Event) -> Option<Pos2>,
    cell: f32,
    cap: usize,
) -> Vec<Mark> {
    let mut marks: Vec<Mark> = Vec::new();
    let mut cells: HashMap<(i32, i32), usize> = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        let (Some(icon), Some(p)) = (icon_of(e.kind), screen(e)) else {
            continue;
        };
        let key = ((p.x / cell).floor() as i32, (p.y / cell).floor() as i32);
        match cells.get(&key) {
            Some(&k) => marks[k].members.push(i),
            None if marks.len() < cap => {
                cells.insert(key, marks.len());
                marks.push(Mark {
                    pos: p,
                    kind: e.kind,
                    icon,
                    reach: 0.0,
                    color: Color32::TRANSPARENT,
                    members: vec![i],
                    badge: None,
                });
            }
            None => {}
        }
    }
    for m in &mut marks {
        m.members.sort_by_key(|i| {
            let e = &events[*i];
            (
                telling_rank(e.kind),
                std::cmp::Reverse(level_rank(fault_level(e))),
            )
        });
        let first = &events[m.members[0]];
        m.badge = Badge::of(events, &m.members);
        m.kind = first.kind;
        m.icon = icon_of(first.kind).unwrap_or(m.icon);
        m.color = mark_color(first, m.icon);
        m.reach = match m.icon {
            // Only stops here: a stop is the least telling mark.
            MapIcon::Dot => m
                .members
                .iter()
                .map(|i| theme::stop_radius(events[*i].duration_secs()))
                .fold(0.0, f32::max),
            _ => theme::EVENT_ICON_SIZE / 2.0,
        };
    }
    marks.sort_by_key(|m| std::cmp::Reverse(telling_rank(events[m.members[0]].kind)));
    marks
}

/// A fuel pump `size` points tall, centred on `c`, edged in `outline`.
pub(super) fn fuel_pump(painter: &Painter, c: Pos2, size: f32, fill: Color32, outline: Color32) {
    let body = egui::Rect::from_center_size(c + vec2(-size * 0.12, 0.0), vec2(size * 0.55, size));
    let edge = Stroke::new(1.5, outline);
    painter.rect(body, 1.5, fill, edge, egui::StrokeKind::Outside);
    let window = egui::Rect::from_min_size(
        body.min + vec2(size * 0.1, size * 0.12),
        vec2(body.width() - size * 0.2, size * 0.25),
    );
    painter.rect_filled(window, 1.0, Color32::WHITE);
    // The hose, from the body's side down to the nozzle.
    let hose = [
        pos2(body.right(), body.top() + size * 0.3),
        pos2(body.right() + size * 0.2, body.top() + size * 0.4),
        pos2(body.right() + size * 0.2, body.bottom() - size * 0.15),
    ];
    painter.add(Shape::line(hose.to_vec(), Stroke::new(2.5, outline)));
    painter.add(Shape::line(hose.to_vec(), Stroke::new(1.2, fill)));
}

/// A warning triangle `size` points tall, centred on `c`, edged in
/// `outline`.
pub(super) fn warning(painter: &Painter, c: Pos2, size: f32, fill: Color32, outline: Color32) {
    let h = size / 2.0;
    let points = vec![
        c + vec2(0.0, -h),
        c + vec2(h * 1.1, h),
        c + vec2(-h * 1.1, h),
    ];
    painter.add(Shape::convex_polygon(
        points,
        fill,
        Stroke::new(1.5, outline),
    ));
    painter.text(
        c + vec2(0.0, h * 0.3),
        Align2::CENTER_CENTER,
        "!",
        FontId::proportional(size * 0.7),
        theme::EVENT_CHIP_TEXT,
    );
}

fn draw(painter: &Painter, m: &Mark, hovered: bool, outline: Color32) {
    let size = theme::EVENT_ICON_SIZE;
    match m.icon {
        MapIcon::Dot => {
            painter.circle(
                m.pos,
                m.reach,
                m.color.gamma_multiply(0.85),
                Stroke::new(1.5, outline),
            );
        }
        MapIcon::FuelPump => fuel_pump(painter, m.pos, size, m.color, outline),
        MapIcon::Warning => warning(painter, m.pos, size, m.color, outline),
    }
    if let Some(badge) = &m.badge {
        // A pill as wide as its count, on the same plate as the map's
        // labels.
        let at = m.pos + vec2(m.reach, -m.reach);
        let galley =
            painter.layout_no_wrap(badge.text(), FontId::proportional(9.0), Color32::WHITE);
        let height = theme::EVENT_BADGE_HEIGHT;
        let width = (galley.size().x + height / 2.0).max(height);
        let rect = egui::Rect::from_center_size(at, vec2(width, height));
        painter.rect_filled(rect, height / 2.0, theme::MAP_OVERLAY_BG);
        painter.galley(rect.center() - galley.size() / 2.0, galley, Color32::WHITE);
    }
    if hovered {
        painter.circle_stroke(m.pos, m.reach + 3.0, Stroke::new(2.0, theme::MARKER_HOVER));
    }
}

/// Each badged mark named for accessibility (hovering it shows the map's
/// own hover of the mark), the most telling first, a bounded number.
fn badges_ui(ui: &egui::Ui, marks: &[Mark]) {
    let badged = marks
        .iter()
        .rev()
        .filter_map(|m| Some((m, m.badge.as_ref()?)));
    for (m, badge) in badged.take(theme::MAX_NAMED_MARKS) {
        let rect = egui::Rect::from_center_size(m.pos, egui::Vec2::splat(2.0 * m.reach));
        let label = format!("Map mark: {}", badge.label());
        ui.interact(
            rect,
            ui.scope_id().with(("event_mark", m.members[0])),
            egui::Sense::hover(),
        )
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &label));
    }
}

/// The mark under `pointer`, if any (the last drawn, on top, first).
pub(super) fn mark_at(marks: &[Mark], pointer: Pos2) -> Option<usize> {
    (0..marks.len())
        .rev()
        .find(|k| marks[*k].pos.distance(pointer) <= marks[*k].reach + 2.0)
}

/// What hovering a mark says: its badge's kinds counted, and each of its
/// events, a few at most.
fn describe(events: &[Event], m: &Mark, zone: &format::Zone, units: UnitSystem) -> String {
    const SHOWN: usize = 4;
    let mut parts: Vec<String> = m.badge.iter().map(Badge::summary).collect();
    parts.extend(
        m.members
            .iter()
            .take(SHOWN)
            .filter_map(|i| events.get(*i))
            .map(|e| text::hover_text(e, zone, units)),
    );
    if m.members.len() > SHOWN {
        parts.push(format!("and {} more here", m.members.len() - SHOWN));
    }
    parts.join("\n\n")
}

/// The kinds of the events on the map, in the legend's order.
pub(super) fn kinds_present(events: &[Event]) -> Vec<EventKind> {
    EventKind::ALL
        .into_iter()
        .filter(|k| icon_of(*k).is_some())
        .filter(|k| events.iter().any(|e| e.position.is_some() && e.kind == *k))
        .collect()
}

/// The event marks' legend, just above `below` (the speed legend): its
/// rectangle.
pub(super) fn legend_ui(
    ui: &egui::Ui,
    map: egui::Rect,
    below: egui::Rect,
    kinds: &[EventKind],
) -> egui::Rect {
    const ROW: f32 = 18.0;
    const PAD: f32 = 6.0;
    let styles: Vec<(EventStyle, MapMark)> = kinds
        .iter()
        .filter_map(|k| {
            let style = event_style(*k);
            Some((style, style.map?))
        })
        .collect();
    let rows = styles.len().div_ceil(2) as f32;
    let at = egui::Rect::from_min_size(
        pos2(
            below.left(),
            below.top() - theme::MAP_MARGIN / 2.0 - rows * ROW - 2.0 * PAD,
        ),
        vec2(below.width(), rows * ROW + 2.0 * PAD),
    );
    let painter = ui.painter().with_clip_rect(map);
    painter.rect_filled(at, 4.0, theme::MAP_OVERLAY_BG);
    let column = (at.width() - 2.0 * PAD) / 2.0;
    let icon = theme::EVENT_ICON_SIZE * 0.8;
    let mut names = Vec::new();
    for (k, (style, mark)) in styles.iter().enumerate() {
        let c = pos2(
            at.left() + PAD + column * (k % 2) as f32 + icon / 2.0 + 2.0,
            at.top() + PAD + ROW * (k / 2) as f32 + ROW / 2.0,
        );
        match mark.icon {
            MapIcon::Dot => {
                let r = theme::STOP_MIN_RADIUS + 1.5;
                painter.circle(c, r, style.color, Stroke::new(1.5, Color32::WHITE));
            }
            // On the legend's dark plate, whatever the basemap.
            MapIcon::FuelPump => fuel_pump(&painter, c, icon, style.color, Color32::WHITE),
            MapIcon::Warning => warning(&painter, c, icon, style.color, Color32::WHITE),
        }
        painter.text(
            c + vec2(icon / 2.0 + 5.0, 0.0),
            Align2::LEFT_CENTER,
            mark.legend,
            FontId::proportional(10.0),
            Color32::WHITE,
        );
        names.push(mark.described);
    }
    let label = format!("Event marks: {}", names.join(", "));
    ui.interact(
        at,
        ui.scope_id().with("events_legend"),
        egui::Sense::hover(),
    )
    .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &label));
    at
}

/// The events layer, rebuilt each frame.
pub(super) struct EventsLayer<'a> {
    pub(super) events: &'a [Event],
    pub(super) zone: crate::ui::format::Zone,
    pub(super) units: UnitSystem,
    /// The marks drawn (for the next frame's track layer to keep quiet
    /// under them).
    pub(super) marks: &'a mut Vec<Mark>,
    /// The event clicked, if any.
    pub(super) clicked: &'a mut Option<usize>,
}

impl Plugin for EventsLayer<'_> {
    fn run(
        self: Box<Self>,
        ui: &mut egui::Ui,
        response: &egui::Response,
        projector: &Projector,
        _memory: &MapMemory,
    ) {
        let Some(frame) = MapFrame::new(projector) else {
            return;
        };
        let clip = projector.clip_rect();
        let screen = |e: &Event| {
            let p = e.position?;
            let p = frame.to_screen(mercator(p.lat, p.lon)?);
            clip.expand(theme::EVENT_ICON_SIZE).contains(p).then_some(p)
        };
        *self.marks = place_marks(
            self.events,
            screen,
            theme::EVENT_MERGE_PX,
            theme::MAX_EVENT_MARKS,
        );
        let hovered = response.hover_pos().and_then(|p| mark_at(self.marks, p));
        let painter = ui.painter().with_clip_rect(clip);
        let outline = theme::map_outline(ui.visuals());
        for (k, m) in self.marks.iter().enumerate() {
            draw(&painter, m, hovered == Some(k), outline);
        }
        badges_ui(ui, self.marks);
        let Some(m) = hovered.map(|k| &self.marks[k]) else {
            return;
        };
        if response.clicked() {
            *self.clicked = m.members.first().copied();
        }
        let text = describe(self.events, m, &self.zone, self.units);
        egui::Tooltip::for_widget(response)
            .at_pointer()
            .gap(16.0)
            .show(|ui| ui.label(text));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::events::text::tests::event;

    fn fault(t: i64, level: &str) -> Event {
        event(
            EventKind::Fault,
            t,
            None,
            EventDetail::Fault {
                identifier: "F".into(),
                description: String::new(),
                severity: None,
                level: level.into(),
            },
        )
    }

    #[test]
    fn marks_close_together_are_one_and_their_number_is_bounded() {
        let events = vec![
            event(EventKind::Stop, 0, Some(600), EventDetail::Stop),
            event(EventKind::Stop, 10, Some(86_400), EventDetail::Stop),
            fault(20, "warning"),
            fault(30, "critical"),
            event(
                EventKind::Gap,
                40,
                Some(9_000),
                EventDetail::OutOfHours {
                    reason: String::new(),
                },
            ),
            event(EventKind::Stop, 50, Some(600), EventDetail::Stop),
        ];
        // The stops at one place, the faults (and the gap) at another, the
        // last stop far away.
        let at = |e: &Event| {
            Some(match e.start {
                0 | 10 => pos2(3.0, 3.0),
                50 => pos2(500.0, 500.0),
                _ => pos2(200.0, 200.0),
            })
        };
        let marks = place_marks(&events, at, 12.0, 100);
        assert_eq!(
            marks.len(),
            3,
            "two stops, two faults, one stop; no gap: {marks:?}"
        );
        assert_eq!(marks[0].members, [0, 1]);
        assert_eq!(
            marks[0].reach,
            theme::stop_radius(Some(86_400)),
            "the longest stop's size"
        );
        assert_eq!(marks[1].members, [5]);
        assert_eq!(marks[2].kind, EventKind::Fault, "the most telling on top");
        assert_eq!(marks[2].color, theme::CRITICAL, "the worst level");
        assert_eq!(marks[2].members, [3, 2], "the worst first");
        assert_eq!(mark_at(&marks, pos2(500.0, 503.0)), Some(1));
        assert_eq!(mark_at(&marks, pos2(300.0, 300.0)), None);
        let capped = place_marks(&events, at, 12.0, 2);
        assert_eq!(capped.len(), 2);
        assert!(place_marks(&events, |_| None, 12.0, 100).is_empty());
    }

    #[test]
    fn a_crowded_marks_badge_counts_its_most_telling_kind_and_its_hover_the_rest() {
        let fuel = EventDetail::Fuel {
            from_percent: 60.0,
            to_percent: 40.0,
            litres: None,
        };
        let mut events: Vec<Event> = (0..300)
            .map(|t| event(EventKind::Stop, t, Some(t + 600), EventDetail::Stop))
            .collect();
        events.extend((300..385).map(|t| event(EventKind::Refuel, t, Some(t + 60), fuel.clone())));
        events
            .extend((400..404).map(|t| event(EventKind::FuelDrop, t, Some(t + 60), fuel.clone())));
        let marks = place_marks(&events, |_| Some(pos2(3.0, 3.0)), 12.0, 100);
        assert_eq!(marks.len(), 1, "one place, one mark");
        assert_eq!(marks[0].kind, EventKind::FuelDrop);
        let badge = marks[0].badge.clone().expect("a badge");
        assert_eq!(
            badge,
            Badge {
                kind: EventKind::FuelDrop,
                count: 4,
                rest: vec![(EventKind::Refuel, 85), (EventKind::Stop, 300)],
            }
        );
        assert_eq!(badge.text(), "4", "the drains' own count, not 389");
        assert_eq!(badge.label(), "4 suspected drains");
        let said = describe(&events, &marks[0], &format::Zone::utc(), UnitSystem::Metric);
        assert!(
            said.starts_with("4 suspected drains here\nAlso here: 85 refuels · 300 stops\n"),
            "{said}"
        );
        assert!(said.ends_with("and 385 more here"), "{said}");
        // One event: no badge; one kind: its count.
        let one = place_marks(&events[..1], |_| Some(pos2(3.0, 3.0)), 12.0, 100);
        assert_eq!(one[0].badge, None);
        let stops = place_marks(&events[..3], |_| Some(pos2(3.0, 3.0)), 12.0, 100);
        let badge = stops[0].badge.clone().expect("a badge");
        assert_eq!((badge.label(), badge.rest), ("3 stops".to_owned(), vec![]));
        assert!(
            describe(&events, &stops[0], &format::Zone::utc(), UnitSystem::Metric)
                .starts_with("3 stops here\n\n")
        );
    }

    #[test]
    fn a_drain_where_a_fault_is_shows_as_the_drain_and_lists_both() {
        let drain = event(
            EventKind::FuelDrop,
            100,
            Some(5_000),
            EventDetail::Fuel {
                from_percent: 60.0,
                to_percent: 40.0,
                litres: None,
            },
        );
        let events = vec![
            fault(20, "critical"),
            drain,
            event(EventKind::Refuel, 200, Some(900), EventDetail::Stop),
        ];
        let marks = place_marks(&events, |_| Some(pos2(3.0, 3.0)), 12.0, 100);
        assert_eq!(marks.len(), 1, "one mark at one place: {marks:?}");
        assert_eq!(marks[0].kind, EventKind::FuelDrop);
        assert_eq!(marks[0].color, event_style(EventKind::FuelDrop).color);
        assert_eq!(marks[0].members, [1, 0, 2], "the most telling first");
        let said = describe(&events, &marks[0], &format::Zone::utc(), UnitSystem::Metric);
        let (drain_at, fault_at) = (
            said.find("Suspected drain").expect("the drain is said"),
            said.find("Fault").expect("the fault is said"),
        );
        assert!(drain_at < fault_at, "{said}");
    }
}
