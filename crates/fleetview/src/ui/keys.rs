//! Keyboard shortcuts: one table, `SHORTCUTS`, read by the keys handler,
//! the help overlay (`F1` or `?`) and the tooltips of the buttons they
//! trigger, so the three cannot disagree.

use egui::{Key, KeyboardShortcut, Modifiers};

use super::theme;
use crate::app::{Action, AppState, MachineAction, Preset, Tab, TimelineAction};

/// What a shortcut does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyCommand {
    Help,
    FocusSearch,
    NextMachine,
    PreviousMachine,
    Preset(Preset),
    PlayPause,
    StepBack,
    StepForward,
    FitMap,
    EventsTab,
}

/// A key and what it does, as the help overlay lists it.
#[derive(Debug, Clone, Copy)]
pub struct Shortcut {
    pub command: KeyCommand,
    pub keys: KeyboardShortcut,
    pub what: &'static str,
    /// Works while text is being typed (it has a modifier, or is a
    /// function key): the others would eat the letters typed.
    pub while_typing: bool,
}

const fn key(
    command: KeyCommand,
    modifiers: Modifiers,
    key: Key,
    what: &'static str,
    while_typing: bool,
) -> Shortcut {
    Shortcut {
        command,
        keys: KeyboardShortcut::new(modifiers, key),
        what,
        while_typing,
    }
}

const NONE: Modifiers = Modifiers::NONE;

/// Every shortcut. egui matches a shortcut ignoring extra Shift and Alt, so
/// those with a modifier come first: Alt+↓ is the next machine, not a row
/// down in a table.
pub const SHORTCUTS: [Shortcut; 15] = [
    key(
        KeyCommand::Help,
        NONE,
        Key::F1,
        "Show or hide this list of shortcuts",
        true,
    ),
    key(
        KeyCommand::Help,
        NONE,
        Key::Questionmark,
        "Show or hide this list of shortcuts",
        false,
    ),
    key(
        KeyCommand::FocusSearch,
        Modifiers::COMMAND,
        Key::F,
        "Search the fleet",
        true,
    ),
    key(
        KeyCommand::NextMachine,
        Modifiers::ALT,
        Key::ArrowDown,
        "Next machine in the list",
        true,
    ),
    key(
        KeyCommand::PreviousMachine,
        Modifiers::ALT,
        Key::ArrowUp,
        "Previous machine in the list",
        true,
    ),
    key(
        KeyCommand::Preset(Preset::Today),
        NONE,
        Key::Num1,
        "Window: today",
        false,
    ),
    key(
        KeyCommand::Preset(Preset::Yesterday),
        NONE,
        Key::Num2,
        "Window: yesterday",
        false,
    ),
    key(
        KeyCommand::Preset(Preset::Last7Days),
        NONE,
        Key::Num3,
        "Window: last 7 days",
        false,
    ),
    key(
        KeyCommand::Preset(Preset::Last30Days),
        NONE,
        Key::Num4,
        "Window: last 30 days",
        false,
    ),
    key(
        KeyCommand::Preset(Preset::ThisMonth),
        NONE,
        Key::Num5,
        "Window: this month",
        false,
    ),
    key(
        KeyCommand::PlayPause,
        NONE,
        Key::Space,
        "Play or pause the replay",
        false,
    ),
    key(
        KeyCommand::StepBack,
        NONE,
        Key::ArrowLeft,
        "Cursor to the previous position",
        false,
    ),
    key(
        KeyCommand::StepForward,
        NONE,
        Key::ArrowRight,
        "Cursor to the next position",
        false,
    ),
    key(
        KeyCommand::FitMap,
        NONE,
        Key::F,
        "Fit the map to the track",
        false,
    ),
    key(
        KeyCommand::EventsTab,
        NONE,
        Key::E,
        "Open the Events tab",
        false,
    ),
];

/// Closes a window of the app's own (the shortcuts, About, the notices) on
/// Escape, as dialogs close; the key is taken, so one press closes one.
pub fn close_on_escape(ctx: &egui::Context, open: &mut bool) {
    if *open && ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Escape)) {
        *open = false;
    }
}

/// A shortcut as the platform writes it (`Ctrl+F`); `?` as itself (egui
/// names the key `Questionmark`).
pub fn format(ctx: &egui::Context, keys: &KeyboardShortcut) -> String {
    match keys.logical_key {
        Key::Questionmark if keys.modifiers.is_none() => "?".to_owned(),
        _ => ctx.format_shortcut(keys),
    }
}

/// The first key of a command, as the platform writes it (`Ctrl+F`).
pub fn key_label(ctx: &egui::Context, command: KeyCommand) -> Option<String> {
    SHORTCUTS
        .iter()
        .find(|s| s.command == command)
        .map(|s| format(ctx, &s.keys))
}

/// A tooltip with the key that does the same: `Replay … (Space)`.
pub fn tip(ctx: &egui::Context, text: &str, command: KeyCommand) -> String {
    match key_label(ctx, command) {
        Some(k) => format!("{text} ({k})"),
        None => text.to_owned(),
    }
}

/// What the keys pressed this frame asked for, once per press (keys
/// pressed quickly, or held, can come several to a frame). Read before any
/// panel is drawn, so a key a shortcut takes (Space, the arrows) does not
/// also press a focused button or move a table's row. None while a modal
/// dialog is open (a confirmation): the keys are its. While a text field
/// has the focus or `form_open` (a form is shown, whose field may have
/// just lost the focus to a click beside it), only the shortcuts that work
/// while typing.
pub fn pressed(ctx: &egui::Context, form_open: bool) -> Vec<KeyCommand> {
    let typing = form_open || ctx.text_edit_focused();
    if ctx.memory(|m| m.top_modal_layer().is_some()) {
        return Vec::new();
    }
    let mut out = Vec::new();
    ctx.input_mut(|i| {
        for s in &SHORTCUTS {
            if typing && !s.while_typing {
                continue;
            }
            let presses = i.count_and_consume_key(s.keys.modifiers, s.keys.logical_key);
            out.extend(std::iter::repeat_n(s.command, presses));
        }
    });
    out
}

/// The action of a command that changes the app (the others change the
/// views: the caller applies them).
pub fn action(state: &AppState, command: KeyCommand) -> Option<Action> {
    match command {
        KeyCommand::Preset(p) => Some(MachineAction::SetPreset(p).into()),
        KeyCommand::PlayPause if state.selected().is_some() => {
            let r = state.timeline().replay;
            Some(
                TimelineAction::SetReplay(crate::app::Replay {
                    playing: !r.playing,
                    ..r
                })
                .into(),
            )
        }
        KeyCommand::StepBack | KeyCommand::StepForward if state.tab().is_machine_tab() => {
            Some(TimelineAction::Step(command == KeyCommand::StepForward).into())
        }
        KeyCommand::EventsTab if state.selected().is_some() => Some(Action::SetTab(Tab::Events)),
        _ => None,
    }
}

/// The help overlay: every shortcut of `SHORTCUTS`, in its order.
pub fn help_ui(ctx: &egui::Context, open: &mut bool) {
    close_on_escape(ctx, open);
    let mut still_open = *open;
    egui::Window::new("Keyboard shortcuts")
        .open(&mut still_open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(
                    "Letters, digits, Space and the arrows work while no text field has the \
                     focus and no form is open (Connections, Integrations). Escape closes \
                     this list, About and the notices.",
                )
                .small()
                .weak(),
            );
            ui.add_space(theme::GAP);
            egui::Grid::new("shortcuts")
                .num_columns(2)
                .striped(true)
                .spacing([theme::GAP * 3.0, theme::GAP])
                .show(ui, |ui| {
                    for s in &SHORTCUTS {
                        ui.label(egui::RichText::new(format(ctx, &s.keys)).monospace());
                        ui.label(s.what);
                        ui.end_row();
                    }
                });
        });
    *open = still_open && *open;
}
