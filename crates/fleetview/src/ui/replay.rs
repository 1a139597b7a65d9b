//! The time cursor's bar: where it is, and replay in (accelerated) real
//! time with optional skipping of engine-off periods and a follow camera.

use super::format;
use super::theme;
use crate::app::TimelineAction;
use crate::app::{Action, AppState, REPLAY_SPEEDS, Replay};

fn speed_label(speed: f64) -> String {
    format!("{speed:.0}x")
}

pub fn replay_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    let r = state.timeline().replay;
    let set = |actions: &mut Vec<Action>, replay: Replay| {
        actions.push(TimelineAction::SetReplay(replay).into())
    };
    ui.horizontal(|ui| {
        let (text, hint) = if r.playing {
            ("Pause", "Stop the replay here")
        } else {
            ("Play", "Replay the window from the cursor")
        };
        let hint = super::keys::tip(ui.ctx(), hint, super::keys::KeyCommand::PlayPause);
        // As wide as "Pause" whatever it says: the controls after it stay
        // put under the mouse.
        let size = egui::vec2(theme::PLAY_BUTTON_WIDTH, ui.spacing().interact_size.y);
        if ui
            .add_sized(size, egui::Button::new(text))
            .on_hover_text(hint)
            .clicked()
        {
            set(
                actions,
                Replay {
                    playing: !r.playing,
                    ..r
                },
            );
        }
        egui::ComboBox::from_label("Speed")
            .selected_text(speed_label(r.speed))
            .show_ui(ui, |ui| {
                for s in REPLAY_SPEEDS {
                    if ui.selectable_label(r.speed == s, speed_label(s)).clicked() {
                        set(actions, Replay { speed: s, ..r });
                    }
                }
            });
        let mut skip = r.skip_engine_off;
        if ui
            .checkbox(&mut skip, "Skip engine-off")
            .on_hover_text("Jump over the periods the engine is off")
            .changed()
        {
            set(
                actions,
                Replay {
                    skip_engine_off: skip,
                    ..r
                },
            );
        }
        let mut follow = r.follow;
        if ui
            .checkbox(&mut follow, "Follow")
            .on_hover_text("Keep the map centred on the machine while replaying")
            .changed()
        {
            set(actions, Replay { follow, ..r });
        }
        ui.separator();
        match state.timeline().cursor {
            Some(t) => ui.label(format!(
                "Cursor: {} ({})",
                format::format_time(t, format::machine_zone(state)),
                format::machine_zone(state).label()
            )),
            None => ui.weak("Hover a plot, or click a fault, an activity or the track"),
        };
    });
}
