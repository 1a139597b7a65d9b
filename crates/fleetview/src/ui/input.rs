//! A frame's input taken in the order it was given. On a slow frame, keys
//! typed and then a click come in one frame; egui moves the focus on the
//! press before the focused field reads the keys, so the keys were lost
//! (`demo` saved as `dem`). A frame's events are cut where the keyboard
//! gives way to a mouse button, or back, and after a shortcut (which may
//! move the focus); the rest wait for the next frame.

use egui::{Event, RawInput};

/// Events held back for the next frame.
#[derive(Debug, Default)]
pub struct InputOrder {
    held: Vec<Event>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Keyboard,
    Button,
}

fn source(event: &Event) -> Option<Source> {
    match event {
        Event::Text(_)
        | Event::Key { .. }
        | Event::Paste(_)
        | Event::Copy
        | Event::Cut
        | Event::Ime(_) => Some(Source::Keyboard),
        Event::PointerButton { .. } => Some(Source::Button),
        _ => None,
    }
}

/// Whether `event` presses a shortcut (Ctrl or Command held), which may
/// move the focus: Ctrl+F to the search.
fn is_shortcut(event: &Event) -> bool {
    matches!(event, Event::Key { pressed: true, modifiers, .. } if modifiers.command || modifiers.ctrl)
}

/// How many of `events` come before the first switch between the keyboard
/// and a mouse button, or end with the first shortcut (all of them when
/// there is neither): keys typed at once after Ctrl+F go to the search in
/// the next frame, once the shortcut has moved the focus there.
fn before_first_switch(events: &[Event]) -> usize {
    let mut first = None;
    for (i, event) in events.iter().enumerate() {
        if is_shortcut(event) && i + 1 < events.len() {
            return i + 1;
        }
        match (first, source(event)) {
            (None, Some(s)) => first = Some(s),
            (Some(f), Some(s)) if f != s => return i,
            _ => {}
        }
    }
    events.len()
}

impl InputOrder {
    /// Puts the events held from the last frame before those of `raw`, and
    /// holds back those past the first switch between the keyboard and a
    /// mouse button. Whether some are held: the app then asks for another
    /// frame at once.
    pub fn order(&mut self, raw: &mut RawInput) -> bool {
        let mut events = std::mem::take(&mut self.held);
        events.append(&mut raw.events);
        let cut = before_first_switch(&events);
        self.held = events.split_off(cut);
        raw.events = events;
        self.holds()
    }

    /// Whether events wait for the next frame.
    pub fn holds(&self) -> bool {
        !self.held.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::{Modifiers, PointerButton, pos2};

    fn text(s: &str) -> Event {
        Event::Text(s.to_owned())
    }

    fn button(pressed: bool) -> Event {
        Event::PointerButton {
            pos: pos2(10.0, 10.0),
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        }
    }

    fn ctrl_f() -> Event {
        Event::Key {
            key: egui::Key::F,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: Modifiers::COMMAND,
        }
    }

    #[test]
    fn keys_after_a_shortcut_wait_for_the_next_frame() {
        let mut order = InputOrder::default();
        let got = frames(
            &mut order,
            vec![text("a"), ctrl_f(), text("Ham"), text("burg")],
        );
        assert_eq!(
            got,
            vec![vec![text("a"), ctrl_f()], vec![text("Ham"), text("burg")]]
        );
        // A shortcut last in the frame holds nothing.
        assert_eq!(frames(&mut order, vec![ctrl_f()]), vec![vec![ctrl_f()]]);
    }

    fn moved() -> Event {
        Event::PointerMoved(pos2(10.0, 10.0))
    }

    fn frames(order: &mut InputOrder, mut input: Vec<Event>) -> Vec<Vec<Event>> {
        let mut out = Vec::new();
        loop {
            let mut raw = RawInput {
                events: std::mem::take(&mut input),
                ..RawInput::default()
            };
            let held = order.order(&mut raw);
            out.push(raw.events);
            if !held {
                return out;
            }
        }
    }

    #[test]
    fn keys_then_a_click_take_two_frames() {
        let mut order = InputOrder::default();
        let got = frames(
            &mut order,
            vec![text("0"), text("89"), moved(), button(true), button(false)],
        );
        assert_eq!(
            got,
            vec![
                vec![text("0"), text("89"), moved()],
                vec![button(true), button(false)]
            ]
        );
    }

    #[test]
    fn a_click_then_keys_then_a_click_take_three_frames() {
        let mut order = InputOrder::default();
        let got = frames(
            &mut order,
            vec![button(true), button(false), text("b"), button(true)],
        );
        assert_eq!(
            got,
            vec![
                vec![button(true), button(false)],
                vec![text("b")],
                vec![button(true)]
            ]
        );
    }

    #[test]
    fn held_events_come_before_the_next_frames() {
        let mut order = InputOrder::default();
        let mut raw = RawInput {
            events: vec![text("a"), button(true)],
            ..RawInput::default()
        };
        assert!(order.order(&mut raw));
        let mut next = RawInput {
            events: vec![button(false), text("c")],
            ..RawInput::default()
        };
        assert!(order.order(&mut next));
        assert_eq!(next.events, vec![button(true), button(false)]);
        let mut last = RawInput::default();
        assert!(!order.order(&mut last));
        assert_eq!(last.events, vec![text("c")]);
    }

    #[test]
    fn one_kind_of_input_is_one_frame() {
        let mut order = InputOrder::default();
        let keys = vec![text("a"), moved(), text("b")];
        assert_eq!(frames(&mut order, keys.clone()), vec![keys]);
        assert_eq!(frames(&mut order, vec![]), vec![Vec::<Event>::new()]);
        assert!(!order.holds());
    }
}
