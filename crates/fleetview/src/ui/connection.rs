//! The connection: which service, its state, who is logged in, the
//! profiles (each signing in with an API key or a token), and a new token
//! or key when the service refused the one it had (secrets are typed masked
//! and never kept in the view once used).

use super::theme;
use super::widgets;
use crate::app::ConnectionAction;
use crate::app::{Action, AppState, ConnStatus, Profile};
use fleetview_api::AuthMethod;
use fleetview_api::model::SecretValue;

/// The width of the profile editor's text fields.
const PROFILE_FIELD_WIDTH: f32 = 320.0;

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
    sign_in: SignInFields,
}

/// How the edited profile signs in, and its API key's name (kept while the
/// method is switched back and forth).
#[derive(Default)]
struct SignInFields {
    use_api_key: bool,
    key_name: String,
    /// A token or API key typed for the profile being edited (masked,
    /// never saved here).
    profile_token: String,
}

impl ConnectionView {
    /// The Connections window is open (a form: letters typed are the
    /// user's, not shortcuts).
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Opens the Connections window (asked from another page).
    pub fn open_window(&mut self) {
        self.open = true;
        self.place_window = true;
    }

    fn edit(&mut self, index: Option<usize>, profile: Profile) {
        (self.sign_in.use_api_key, self.sign_in.key_name) = match &profile.auth {
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
    ui.horizontal_wrapped(|ui| {
        menu(ui);
        ui.separator();
        view.bar_ui(ui, state, actions);
    });
    // A refusal asks for the key under the top bar: the window, which
    // opens there, is closed once so it does not cover the field.
    let refused = state.conn().needs_secret();
    if refused && !view.was_refused {
        view.open = false;
    }
    view.was_refused = refused;
    if view.open {
        view.window_ui(ui, state, actions);
    }
    if state.conn().needs_secret() {
        ui.horizontal_wrapped(|ui| {
            view.secret_prompt_ui(ui, state, actions);
        });
    }
}

/// The colour and words of the connection's state.
fn status_text(state: &AppState) -> (egui::Color32, String) {
    let c = state.connection();
    match &c.status {
        ConnStatus::Connecting | ConnStatus::Connected if state.offline().is_some() => {
            (theme::OFFLINE, "offline".to_owned())
        }
        ConnStatus::Connecting => (theme::INFO, "connecting".to_owned()),
        ConnStatus::Connected => (theme::INFO, "online".to_owned()),
        ConnStatus::Unauthorized(_) => (theme::ERROR, format!("{} refused", c.auth.secret_label())),
        ConnStatus::NoSecret => (theme::ERROR, format!("no {}", c.auth.secret_label())),
        ConnStatus::Failed(e) => (theme::ERROR, format!("not connected: {e}")),
    }
}

impl ConnectionView {
    /// The service, its state, Reload fleet, the Connections button and who
    /// is signed in.
    fn bar_ui(&mut self, ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
        let c = state.connection();
        ui.label(format!("Connected to: {}", c.label))
            .on_hover_text(&c.base_url);
        let (color, text) = status_text(state);
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
        self.below_button = button.rect.left_bottom() + egui::vec2(0.0, 6.0);
        if button.clicked() {
            self.open = !self.open;
            self.place_window = self.open;
        }
        // Last in the bar: it comes with the login, and moves no button.
        if let Some(user) = state.conn().user.as_ref().and_then(|u| u.label()) {
            ui.label(egui::RichText::new(format!("Signed in as {user}")).small())
                .on_hover_text("The user the API key belongs to, as the service said at login");
        }
    }

    fn window_ui(&mut self, ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
        let mut open = true;
        let mut window = egui::Window::new("Connections")
            .open(&mut open)
            .default_pos(self.below_button)
            .default_width(520.0);
        if std::mem::take(&mut self.place_window) {
            window = window.current_pos(self.below_button);
        }
        window.show(ui.ctx(), |ui| {
            self.connections_ui(ui, state, actions);
        });
        self.open = open;
    }

    /// What the service said when it refused the token or key, and a field
    /// for a new one.
    fn secret_prompt_ui(&mut self, ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
        let c = state.connection();
        let (field, button) = match &c.auth {
            AuthMethod::ApiKey { .. } => ("API key", "Log in"),
            AuthMethod::Token => ("New access token", "Use token"),
        };
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
        let edit = widgets::labelled_ui(
            ui,
            field,
            egui::TextEdit::singleline(&mut self.token)
                .password(true)
                .desired_width(260.0),
        );
        // Taken, so it does not also open the Fleet page's marked row.
        let entered = edit.lost_focus()
            && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter));
        let clicked = ui
            .add_enabled(!self.token.trim().is_empty(), egui::Button::new(button))
            .clicked();
        if (clicked || entered)
            && let Some(secret) = take_token(&mut self.token)
        {
            actions.push(ConnectionAction::UseSecret(secret).into());
        }
    }
}

fn take_token(field: &mut String) -> Option<SecretValue> {
    let t = field.trim();
    let token = (!t.is_empty()).then(|| SecretValue::new(t));
    zeroize::Zeroize::zeroize(field);
    token
}

impl ConnectionView {
    /// The Connections window's content: the services to choose from, then
    /// the profile being edited.
    fn connections_ui(&mut self, ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
        ui.label("Choose where fleetview gets its data.");
        embedded_row_ui(ui, state, actions);
        self.profile_rows_ui(ui, state, actions);
        if ui.button("New profile").clicked() {
            self.edit(None, new_profile());
        }
        let Some((index, profile)) = &mut self.editing else {
            token_note_ui(ui, state);
            return;
        };
        ui.separator();
        self.sign_in.form_ui(ui, profile);
        // Always one line, so the buttons below never move as the URL is
        // typed.
        let url = profile.url();
        let goes = if url.trim().is_empty() {
            "Requests go to the service URL above".to_owned()
        } else {
            format!("Requests go to {url}")
        };
        ui.label(egui::RichText::new(goes).small().weak());
        let deleted = ui
            .horizontal(|ui| self.sign_in.buttons_ui(ui, state, index, profile, actions))
            .inner;
        if deleted {
            self.editing = None;
            return;
        }
        // What comes back later (the test's answer, where the token went)
        // goes below the buttons, so no button moves under the mouse.
        match &state.test_result() {
            Some(Ok(m)) => {
                ui.colored_label(theme::ink(ui, theme::INFO), m);
            }
            Some(Err(e)) => {
                ui.colored_label(theme::ink(ui, theme::ERROR), &e.title)
                    .on_hover_text(e.hover_text());
            }
            None => {}
        }
        token_note_ui(ui, state);
    }

    /// A row per profile saved, and one for a new profile being edited.
    fn profile_rows_ui(&mut self, ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
        for (i, p) in state.profiles().iter().enumerate() {
            let active = state.conn().active_profile == Some(i) && !state.connection().embedded;
            ui.horizontal(|ui| {
                in_use_ui(ui, active);
                ui.label(egui::RichText::new(&p.name).strong());
                ui.label(egui::RichText::new(p.url()).small().weak());
                if ui.small_button("Edit").clicked() {
                    self.edit(Some(i), p.clone());
                }
                if ui.small_button("Connect").clicked() {
                    let connect = ConnectionAction::UseProfile {
                        index: i,
                        secret: None,
                    };
                    actions.push(connect.into());
                }
            });
        }
        // A new profile has its row while it is edited, so saving it adds
        // none and moves no button under the mouse.
        if let Some((None, p)) = &self.editing {
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
    }
}

/// The embedded sandbox's row, if this build has one.
fn embedded_row_ui(ui: &mut egui::Ui, state: &AppState, actions: &mut Vec<Action>) {
    if state.conn().embedded.is_none() {
        return;
    }
    let active = state.connection().embedded;
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

/// A blank profile; people with an account sign in with an API key (D1).
fn new_profile() -> Profile {
    Profile {
        name: String::new(),
        base_url: String::new(),
        sandbox_url: String::new(),
        use_sandbox: false,
        allow_insecure_http: false,
        auth: AuthMethod::ApiKey {
            name: String::new(),
        },
    }
}

/// One of the profile editor's text fields.
fn profile_field<'t>(text: &'t mut String, hint: &'static str) -> egui::TextEdit<'t> {
    egui::TextEdit::singleline(text)
        .hint_text(hint)
        .desired_width(PROFILE_FIELD_WIDTH)
}

impl SignInFields {
    /// The profile's name, addresses and sign-in, a row each.
    fn form_ui(&mut self, ui: &mut egui::Ui, profile: &mut Profile) {
        egui::Grid::new("profile_editor")
            .num_columns(2)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                let name = profile_field(&mut profile.name, "e.g. Production");
                widgets::form_row_ui(ui, "Name", name);
                let url = profile_field(&mut profile.base_url, "https://...");
                widgets::form_row_ui(ui, "Service URL", url);
                let sandbox_hint = "the service's separate sandbox";
                let sandbox = profile_field(&mut profile.sandbox_url, sandbox_hint);
                widgets::form_row_ui(ui, "Sandbox URL", sandbox);
                ui.label("");
                ui.checkbox(&mut profile.use_sandbox, "Use the sandbox URL")
                    .on_hover_text(
                        "The service and its sandbox are separate accounts: \
                         each has its own API keys",
                    );
                ui.end_row();
                self.method_rows_ui(ui);
            });
    }

    /// How the profile signs in, the key's name and the secret.
    fn method_rows_ui(&mut self, ui: &mut egui::Ui) {
        ui.label("Sign in with");
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.use_api_key, true, "API key");
            ui.radio_value(&mut self.use_api_key, false, "Access token");
        });
        ui.end_row();
        // Both rows always there, so nothing below moves when the method
        // changes.
        let key_hint = "as created in the service's settings";
        let key_name = profile_field(&mut self.key_name, key_hint);
        widgets::labelled_enabled_ui(ui, "API key name", self.use_api_key, key_name);
        ui.end_row();
        let secret_label = if self.use_api_key {
            "API key"
        } else {
            "Access token"
        };
        let secret_hint = "kept in the system keychain, else for this session";
        let secret = profile_field(&mut self.profile_token, secret_hint).password(true);
        widgets::form_row_ui(ui, secret_label, secret);
    }

    /// Why the profile cannot be tested yet: a test needs only the address
    /// (and the key's name).
    fn untestable(&self, profile: &Profile) -> Option<&'static str> {
        if profile.base_url.trim().is_empty() {
            Some("Enter the service URL first")
        } else if self.use_api_key && self.key_name.trim().is_empty() {
            Some("Enter the API key's name first")
        } else {
            None
        }
    }

    /// Why the profile cannot be saved yet: a profile is a name and an
    /// address (and the key's name), without which there is nothing to save
    /// or connect to.
    fn missing(&self, profile: &Profile) -> Option<&'static str> {
        match (
            profile.name.trim().is_empty(),
            profile.base_url.trim().is_empty(),
        ) {
            (true, true) => Some("Enter a name and the service URL first"),
            (true, false) => Some("Enter a name first"),
            (false, true) => Some("Enter the service URL first"),
            (false, false) if self.use_api_key && self.key_name.trim().is_empty() => {
                Some("Enter the API key's name first")
            }
            (false, false) => None,
        }
    }

    /// Test connection, Save, Save and connect, Delete profile; true if the
    /// profile was deleted.
    fn buttons_ui(
        &mut self,
        ui: &mut egui::Ui,
        state: &AppState,
        index: &mut Option<usize>,
        profile: &mut Profile,
        actions: &mut Vec<Action>,
    ) -> bool {
        let untestable = self.untestable(profile);
        let missing = self.missing(profile);
        let edited = edited_profile(profile, self.use_api_key, &self.key_name);
        if ui
            .add_enabled(untestable.is_none(), egui::Button::new("Test connection"))
            .on_disabled_hover_text(untestable.unwrap_or_default())
            .clicked()
        {
            let token = (!self.profile_token.trim().is_empty())
                .then(|| SecretValue::new(self.profile_token.trim()));
            let test = ConnectionAction::TestProfile {
                profile: edited.clone(),
                secret: token,
            };
            actions.push(test.into());
        }
        // A new profile becomes the last one once saved: the editor then
        // edits it, so saving twice never adds it twice.
        let saved_index = index.unwrap_or(state.profiles().len());
        if save_button_ui(ui, "Save", missing) {
            let save = ConnectionAction::SaveProfile {
                index: *index,
                profile: edited.clone(),
                secret: take_token(&mut self.profile_token),
            };
            actions.push(save.into());
            *profile = edited.clone();
            *index = Some(saved_index);
        }
        if save_button_ui(ui, "Save and connect", missing) {
            let save = ConnectionAction::SaveProfile {
                index: *index,
                profile: edited.clone(),
                secret: None,
            };
            actions.push(save.into());
            let connect = ConnectionAction::UseProfile {
                index: saved_index,
                secret: take_token(&mut self.profile_token),
            };
            actions.push(connect.into());
            *profile = edited.clone();
            *index = Some(saved_index);
        }
        if let Some(i) = *index
            && ui.button("Delete profile").clicked()
        {
            actions.push(ConnectionAction::DeleteProfile(i).into());
            return true;
        }
        false
    }
}

/// A save button, greyed out while something the profile needs is
/// `missing` (said on hover); true when clicked.
fn save_button_ui(ui: &mut egui::Ui, label: &str, missing: Option<&str>) -> bool {
    ui.add_enabled(missing.is_none(), egui::Button::new(label))
        .on_disabled_hover_text(missing.unwrap_or_default())
        .clicked()
}

/// The mark of the service in use, as wide whether shown or not, so a row's
/// buttons stay put when another service is chosen.
fn in_use_ui(ui: &mut egui::Ui, active: bool) {
    let size = egui::vec2(theme::IN_USE_WIDTH, ui.spacing().interact_size.y);
    ui.add_sized(size, egui::Label::new(if active { "(in use)" } else { "" }));
}

/// Where the last token stored went (keychain, or memory for the session).
fn token_note_ui(ui: &mut egui::Ui, state: &AppState) {
    if let Some(note) = &state.conn().token_note {
        ui.label(egui::RichText::new(note).small());
    }
}
