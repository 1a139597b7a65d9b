//! The connection: which service, its state, and a new token when the
//! service refused the one it had (the token is typed masked and never kept
//! in the view once used).

use super::theme;
use crate::api::model::SecretValue;
use crate::app::{Action, AppState, ConnStatus};

#[derive(Default)]
pub struct ConnectionView {
    token: String,
}

impl std::fmt::Debug for ConnectionView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectionView")
            .field("token", &"[redacted]")
            .finish()
    }
}

pub fn connection_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut ConnectionView,
    actions: &mut Vec<Action>,
) {
    let c = &state.connection;
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new("fleetview").strong());
        ui.separator();
        ui.label(format!("Connected to: {}", c.label))
            .on_hover_text(&c.base_url);
        let (color, text) = match &c.status {
            ConnStatus::Connecting => (theme::INFO, "connecting".to_owned()),
            ConnStatus::Connected => (theme::INFO, "online".to_owned()),
            ConnStatus::Unauthorized(_) => (theme::ERROR, "token refused".to_owned()),
            ConnStatus::Failed(e) => (theme::ERROR, format!("not connected: {e}")),
        };
        ui.colored_label(color, text);
        if c.embedded {
            ui.label(
                egui::RichText::new("simulated fleet on this computer")
                    .small()
                    .weak(),
            );
        }
        if ui.button("Reload fleet").clicked() {
            actions.push(Action::ReloadFleet);
        }
    });
    if let ConnStatus::Unauthorized(message) = &c.status {
        ui.horizontal_wrapped(|ui| {
            ui.colored_label(theme::ERROR, format!("The service said: {message}"));
            let label = ui.label("New access token");
            ui.add(
                egui::TextEdit::singleline(&mut view.token)
                    .password(true)
                    .desired_width(260.0),
            )
            .labelled_by(label.id);
            if ui
                .add_enabled(
                    !view.token.trim().is_empty(),
                    egui::Button::new("Use token"),
                )
                .clicked()
            {
                let token = SecretValue::new(view.token.trim());
                zeroize::Zeroize::zeroize(&mut view.token);
                actions.push(Action::UseToken(token));
            }
        });
    }
}
