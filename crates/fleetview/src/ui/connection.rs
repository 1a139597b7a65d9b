//! The connection: which service, its state, who is logged in, the
//! profiles (each signing in with an API key or a token), and a new token
//! or key when the service refused the one it had (secrets are typed masked
//! and never kept in the view once used).

use super::theme;
use crate::app::ConnectionAction;
use crate::app::{Action, AppState, ConnStatus, Profile};
use fleetview_api::AuthMethod;
use fleetview_api::model::SecretValue;

#[derive(Default)]
pub struct ConnectionView {
    token: String,
    /// The Connections window is open.
    open: bool,
    /// Where the window opens: below its button.
    below_button: egui::Pos2,
    /// The service in use refused its token or key (last frame).
    was_refused: bool,
    /// Put the window below its button this frame (it was just opened; the
    /// button may have moved since it was last open).
    place_window: bool,
    /// The profile being edited: its index (`None`: a new one) and fields.
    editing: Option<(Option<usize>, Profile)>,
    /// How the edited profile signs in, and its API key's name (kept while
    /// the method is switched back and forth).
    use_api_key: bool,
    key_name: String,
    /// A token or API key typed for the profile being edited (masked,
    /// never saved here).
    profile_token: String,
}

impl ConnectionView {
    fn edit(&mut self, index: Option<usize>, profile: Profile) {
        (self.use_api_key, self.key_name) = match &profile.auth {
            AuthMethod::ApiKey { name } => (true, name.clone()),
            AuthMethod::Token => (false, String::new()),
        };
        self.editing = Some((index, profile));
    }
}

/// The edited profile with the sign-in chosen.
fn edited_profile(profile: &Profile, use_api_key: bool, key_name: &str) -> Profile {
    let mut p = profile.clone();
    p.auth = if use_api_key {
        AuthMethod::ApiKey {
            name: key_name.trim().to_owned(),
        }
    } else {
        AuthMethod::Token
    };
    p
}

impl std::fmt::Debug for ConnectionView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectionView")
            .field("token", &"[redacted]")
            .finish()
    }
}

/// The connection's line of the top bar, after `menu` (the app's menu).
pub fn connection_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut ConnectionView,
    actions: &mut Vec<Action>,
    menu: impl FnOnce(&mut egui::Ui),
) {
    let c = &state.conn.current;
    ui.horizontal_wrapped(|ui| {
        menu(ui);
        ui.separator();
        ui.label(format!("Connected to: {}", c.label))
            .on_hover_text(&c.base_url);
        let (color, text) = match &c.status {
            ConnStatus::Connecting | ConnStatus::Connected if state.conn.offline.is_some() => {
                (theme::OFFLINE, "offline".to_owned())
            }
            ConnStatus::Connecting => (theme::INFO, "connecting".to_owned()),
            ConnStatus::Connected => (theme::INFO, "online".to_owned()),
            ConnStatus::Unauthorized(_) => {
                (theme::ERROR, format!("{} refused", c.auth.secret_label()))
            }
            ConnStatus::NoSecret => (theme::ERROR, format!("no {}", c.auth.secret_label())),
            ConnStatus::Failed(e) => (theme::ERROR, format!("not connected: {e}")),
        };
        ui.colored_label(theme::ink(ui, color), text);
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
        let button = ui
            .button("Connections")
            .on_hover_text("Services, sandbox addresses, API keys and tokens");
        // The window opens below its button, never over it (over it, the
        // button could not close it again).
        view.below_button = button.rect.left_bottom() + egui::vec2(0.0, 6.0);
        if button.clicked() {
            view.open = !view.open;
            view.place_window = view.open;
        }
        // Last in the bar: it comes with the login, and moves no button.
        if let Some(user) = state.conn.user.as_ref().and_then(|u| u.label()) {
            ui.label(egui::RichText::new(format!("Signed in as {user}")).small())
                .on_hover_text("The user the API key belongs to, as the service said at login");
        }
    });
    // A refusal asks for the key under the top bar: the window, which
    // opens there, is closed once so it does not cover the field.
    let refused = state.conn.needs_secret();
    if refused && !view.was_refused {
        view.open = false;
    }
    view.was_refused = refused;
    if view.open {
        let mut open = true;
        let mut window = egui::Window::new("Connections")
            .open(&mut open)
            .default_pos(view.below_button)
            .default_width(520.0);
        if std::mem::take(&mut view.place_window) {
            window = window.current_pos(view.below_button);
        }
        window.show(ui.ctx(), |ui| {
            connections_window_ui(ui, state, view, actions);
        });
        view.open = open;
    }
    if state.conn.needs_secret() {
        let (field, button) = match &c.auth {
            AuthMethod::ApiKey { .. } => ("API key", "Log in"),
            AuthMethod::Token => ("New access token", "Use token"),
        };
        ui.horizontal_wrapped(|ui| {
            let said = match &c.status {
                ConnStatus::Unauthorized(message) => format!("The service said: {message}"),
                _ => format!(
                    "No {} is kept for this service on this computer.",
                    c.auth.secret_label()
                ),
            };
            ui.colored_label(theme::ink(ui, theme::ERROR), said);
            if let AuthMethod::ApiKey { name } = &c.auth {
                ui.label(format!("Key name: {name}"));
            }
            let label = ui.label(field);
            let edit = ui
                .add(
                    egui::TextEdit::singleline(&mut view.token)
                        .password(true)
                        .desired_width(260.0),
                )
                .labelled_by(label.id);
            let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let clicked = ui
                .add_enabled(!view.token.trim().is_empty(), egui::Button::new(button))
                .clicked();
            if (clicked || entered)
                && let Some(secret) = take_token(&mut view.token)
            {
                actions.push(ConnectionAction::UseSecret(secret).into());
            }
        });
    }
}

fn take_token(field: &mut String) -> Option<SecretValue> {
    let t = field.trim();
    let token = (!t.is_empty()).then(|| SecretValue::new(t));
    zeroize::Zeroize::zeroize(field);
    token
}

fn connections_window_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &mut ConnectionView,
    actions: &mut Vec<Action>,
) {
    ui.label("Choose where fleetview gets its data.");
    if state.conn.embedded.is_some() {
        let active = state.conn.current.embedded;
        ui.horizontal(|ui| {
            in_use_ui(ui, active);
            if ui
                .selectable_label(
                    active,
                    "Embedded sandbox: a simulated fleet on this computer",
                )
                .clicked()
                && !active
            {
                actions.push(ConnectionAction::UseEmbedded.into());
            }
        });
    }
    for (i, p) in state.conn.profiles.iter().enumerate() {
        let active = state.conn.active_profile == Some(i) && !state.conn.current.embedded;
        ui.horizontal(|ui| {
            in_use_ui(ui, active);
            ui.label(egui::RichText::new(&p.name).strong());
            ui.label(egui::RichText::new(p.url()).small().weak());
            if ui.small_button("Edit").clicked() {
                view.edit(Some(i), p.clone());
            }
            if ui.small_button("Connect").clicked() {
                actions.push(
                    ConnectionAction::UseProfile {
                        index: i,
                        secret: None,
                    }
                    .into(),
                );
            }
        });
    }
    // A new profile has its row while it is edited, so saving it adds
    // none and moves no button under the mouse.
    if let Some((None, p)) = &view.editing {
        ui.horizontal(|ui| {
            in_use_ui(ui, false);
            let name = if p.name.trim().is_empty() {
                "New profile"
            } else {
                p.name.as_str()
            };
            ui.label(egui::RichText::new(name).strong());
            ui.label(egui::RichText::new("not saved yet").small().weak());
        });
    }
    if ui.button("New profile").clicked() {
        // People with an account sign in with an API key (D1).
        view.edit(
            None,
            Profile {
                name: String::new(),
                base_url: String::new(),
                sandbox_url: String::new(),
                use_sandbox: false,
                allow_insecure_http: false,
                auth: AuthMethod::ApiKey {
                    name: String::new(),
                },
            },
        );
    }
    let Some((index, profile)) = &mut view.editing else {
        token_note_ui(ui, state);
        return;
    };
    ui.separator();
    egui::Grid::new("profile_editor")
        .num_columns(2)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            let l = ui.label("Name");
            ui.add(
                egui::TextEdit::singleline(&mut profile.name)
                    .hint_text("e.g. Production")
                    .desired_width(320.0),
            )
            .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Service URL");
            ui.add(
                egui::TextEdit::singleline(&mut profile.base_url)
                    .hint_text("https://...")
                    .desired_width(320.0),
            )
            .labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Sandbox URL");
            ui.add(
                egui::TextEdit::singleline(&mut profile.sandbox_url)
                    .hint_text("the service's separate sandbox")
                    .desired_width(320.0),
            )
            .labelled_by(l.id);
            ui.end_row();
            ui.label("");
            ui.checkbox(&mut profile.use_sandbox, "Use the sandbox URL")
                .on_hover_text(
                    "The service and its sandbox are separate accounts: \
                     each has its own API keys",
                );
            ui.end_row();
            ui.label("Sign in with");
            ui.horizontal(|ui| {
                ui.radio_value(&mut view.use_api_key, true, "API key");
                ui.radio_value(&mut view.use_api_key, false, "Access token");
            });
            ui.end_row();
            // Both rows always there, so nothing below moves when the
            // method changes.
            let l = ui.label("API key name");
            ui.add_enabled(
                view.use_api_key,
                egui::TextEdit::singleline(&mut view.key_name)
                    .hint_text("as created in the service's settings")
                    .desired_width(320.0),
            )
            .labelled_by(l.id);
            ui.end_row();
            let l = ui.label(if view.use_api_key {
                "API key"
            } else {
                "Access token"
            });
            ui.add(
                egui::TextEdit::singleline(&mut view.profile_token)
                    .password(true)
                    .hint_text("kept in the system keychain, else for this session")
                    .desired_width(320.0),
            )
            .labelled_by(l.id);
            ui.end_row();
        });
    // Always one line, so the buttons below never move as the URL is typed.
    let url = profile.url();
    let goes = if url.trim().is_empty() {
        "Requests go to the service URL above".to_owned()
    } else {
        format!("Requests go to {url}")
    };
    ui.label(egui::RichText::new(goes).small().weak());
    // A profile is a name and an address: without both, nothing to save or
    // connect to (a blank row was saved). A test needs only the address
    // (and the key's name).
    let untestable = if profile.base_url.trim().is_empty() {
        Some("Enter the service URL first")
    } else if view.use_api_key && view.key_name.trim().is_empty() {
        Some("Enter the API key's name first")
    } else {
        None
    };
    let missing = match (
        profile.name.trim().is_empty(),
        profile.base_url.trim().is_empty(),
    ) {
        (true, true) => Some("Enter a name and the service URL first"),
        (true, false) => Some("Enter a name first"),
        (false, true) => Some("Enter the service URL first"),
        (false, false) if view.use_api_key && view.key_name.trim().is_empty() => {
            Some("Enter the API key's name first")
        }
        (false, false) => None,
    };
    let edited = edited_profile(profile, view.use_api_key, &view.key_name);
    let ready = missing.is_none();
    let mut deleted = false;
    ui.horizontal(|ui| {
        if ui
            .add_enabled(untestable.is_none(), egui::Button::new("Test connection"))
            .on_disabled_hover_text(untestable.unwrap_or_default())
            .clicked()
        {
            let token = (!view.profile_token.trim().is_empty())
                .then(|| SecretValue::new(view.profile_token.trim()));
            actions.push(
                ConnectionAction::TestProfile {
                    profile: edited.clone(),
                    secret: token,
                }
                .into(),
            );
        }
        // A new profile becomes the last one once saved: the editor then
        // edits it, so saving twice never adds it twice.
        let saved_index = index.unwrap_or(state.conn.profiles.len());
        if ui
            .add_enabled(ready, egui::Button::new("Save"))
            .on_disabled_hover_text(missing.unwrap_or_default())
            .clicked()
        {
            actions.push(
                ConnectionAction::SaveProfile {
                    index: *index,
                    profile: edited.clone(),
                    secret: take_token(&mut view.profile_token),
                }
                .into(),
            );
            *profile = edited.clone();
            *index = Some(saved_index);
        }
        if ui
            .add_enabled(ready, egui::Button::new("Save and connect"))
            .on_disabled_hover_text(missing.unwrap_or_default())
            .clicked()
        {
            actions.push(
                ConnectionAction::SaveProfile {
                    index: *index,
                    profile: edited.clone(),
                    secret: None,
                }
                .into(),
            );
            actions.push(
                ConnectionAction::UseProfile {
                    index: saved_index,
                    secret: take_token(&mut view.profile_token),
                }
                .into(),
            );
            *profile = edited.clone();
            *index = Some(saved_index);
        }
        if let Some(i) = *index
            && ui.button("Delete profile").clicked()
        {
            actions.push(ConnectionAction::DeleteProfile(i).into());
            deleted = true;
        }
    });
    if deleted {
        view.editing = None;
        return;
    }
    // What comes back later (the test's answer, where the token went) goes
    // below the buttons, so no button moves under the mouse.
    match &state.conn.test_result {
        Some(Ok(m)) => {
            ui.colored_label(theme::ink(ui, theme::INFO), m);
        }
        Some(Err(e)) => {
            ui.colored_label(theme::ink(ui, theme::ERROR), e);
        }
        None => {}
    }
    token_note_ui(ui, state);
}

/// The mark of the service in use, as wide whether shown or not, so a row's
/// buttons stay put when another service is chosen.
fn in_use_ui(ui: &mut egui::Ui, active: bool) {
    let size = egui::vec2(theme::IN_USE_WIDTH, ui.spacing().interact_size.y);
    ui.add_sized(size, egui::Label::new(if active { "(in use)" } else { "" }));
}

/// Where the last token stored went (keychain, or memory for the session).
fn token_note_ui(ui: &mut egui::Ui, state: &AppState) {
    if let Some(note) = &state.conn.token_note {
        ui.label(egui::RichText::new(note).small());
    }
}
