//! The app: owns the state, turns panel commands into background work, drains finished
//! work, and lays out the top bar and the active panel.

use super::create::CreatePanel;
use super::credentials::CredentialsPanel;
use super::customers::CustomersPanel;
use super::lookup::LookupPanel;
use super::task::{Task, take_finished};
use crate::api::{Client, TokenState};
use crate::profile::{Profile, ProfileAuth, Profiles, SANDBOX_PROFILE, SecretStore};
use crate::tr;
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::OnceCell;

/// The panels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tab {
    /// Profiles and credentials.
    #[default]
    Credentials,
    /// Issue an invoice.
    Create,
    /// Look up and void.
    Lookup,
    /// A customer's invoices.
    Customers,
}

/// What the app needs from outside: the runtime, where profiles live, the secret store.
pub struct AppDeps {
    /// The tokio runtime all work runs on.
    pub runtime: tokio::runtime::Handle,
    /// The profiles file; `None` keeps profiles in memory (tests).
    pub profiles_path: Option<PathBuf>,
    /// The secret store, filled lazily off the UI thread (the platform keyring) or given
    /// ready (the mock store in tests).
    pub secrets: Arc<OnceCell<Arc<SecretStore>>>,
    /// Where the built-in sandbox keeps its data (`None`: memory only).
    pub sandbox_data: Option<PathBuf>,
    /// Force a language (tests); `None` uses the saved one, or the OS's at first start.
    pub language: Option<super::i18n::Lang>,
}

impl AppDeps {
    /// For tests: an in-memory setup with the given secret store.
    pub fn for_tests(runtime: tokio::runtime::Handle, secrets: SecretStore) -> AppDeps {
        AppDeps {
            runtime,
            profiles_path: None,
            secrets: Arc::new(OnceCell::new_with(Some(Arc::new(secrets)))),
            sandbox_data: None,
            language: Some(super::i18n::Lang::En),
        }
    }
}

/// Light, dark, or as the operating system says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ThemeChoice {
    /// Follow the operating system.
    #[default]
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl ThemeChoice {
    fn preference(self) -> egui::ThemePreference {
        match self {
            ThemeChoice::System => egui::ThemePreference::System,
            ThemeChoice::Light => egui::ThemePreference::Light,
            ThemeChoice::Dark => egui::ThemePreference::Dark,
        }
    }
}

/// The keyboard shortcuts and the translation key of what they do (Help menu).
pub const SHORTCUTS: [(&str, &str); 7] = [
    ("Ctrl/Cmd+N", "sc-new"),
    ("Ctrl/Cmd+F", "sc-lookup"),
    ("Ctrl/Cmd+E", "sc-export"),
    ("Ctrl/Cmd+Enter", "sc-submit"),
    ("Esc", "sc-close"),
    ("Ctrl/Cmd + / -", "sc-zoom"),
    ("Ctrl/Cmd+Q", "sc-quit"),
];

/// What is saved between runs (never a secret).
#[derive(Default, Serialize, Deserialize)]
#[serde(default)]
struct Saved {
    version: u32,
    tab: Tab,
    create: super::create::CreateForm,
    lookup_id: String,
    customers: super::customers::CustomersSaved,
    theme: ThemeChoice,
    /// The UI language; `None` until the first start picks the OS's.
    lang: Option<super::i18n::Lang>,
}

/// A connected profile.
pub struct Session {
    /// The profile.
    pub profile: Profile,
    /// Its API client (holds the token cache).
    pub client: Client,
    /// Sandbox customers (id, name) when the profile is the built-in sandbox.
    pub sandbox_customers: Vec<(String, String)>,
}

/// Something a panel asks the app to do.
pub enum Command {
    /// Switch panel.
    Show(Tab),
    /// Make this profile the active one and connect.
    Activate(String),
    /// Save a profile (and its secret, if one was typed).
    SaveProfile {
        /// The name before editing, for an existing profile.
        previous: Option<String>,
        /// The profile.
        profile: Profile,
        /// A newly typed secret.
        secret: Option<SecretString>,
    },
    /// Delete a profile and its secret.
    DeleteProfile(String),
    /// Fetch a token / make a harmless call with the active profile.
    TestConnection,
    /// Create the sandbox profile, start the sandbox, connect.
    TrySandbox,
    /// Look this invoice up in the Lookup panel.
    OpenInLookup(String),
}

/// The invoice-desk application.
pub struct InvoiceDeskApp {
    saved: Saved,
    rt: tokio::runtime::Handle,
    profiles_path: Option<PathBuf>,
    profiles: Profiles,
    profiles_error: Option<String>,
    secrets: Arc<OnceCell<Arc<SecretStore>>>,
    secrets_task: Option<Task<()>>,
    #[cfg(feature = "sandbox")]
    sandbox: Arc<OnceCell<Arc<crate::sandbox::Sandbox>>>,
    sandbox_data: Option<PathBuf>,
    session: Option<Arc<Session>>,
    connecting: Option<Task<Result<Session, String>>>,
    session_error: Option<String>,
    pending_reconnect: bool,
    pending_sandbox_welcome: bool,
    first_frame_done: bool,
    credentials: CredentialsPanel,
    create: CreatePanel,
    lookup: LookupPanel,
    customers: CustomersPanel,
    ctx: egui::Context,
}

const STORAGE_KEY: &str = "invoice-desk-state";

impl InvoiceDeskApp {
    /// Builds the app; restores what was saved; starts connecting to the active profile.
    pub fn new(cc: &eframe::CreationContext<'_>, deps: AppDeps) -> Self {
        let saved: Saved = cc
            .storage
            .and_then(|s| eframe::get_value(s, STORAGE_KEY))
            .unwrap_or_default();
        let deps_language = deps.language;
        let (profiles, profiles_error) = match &deps.profiles_path {
            Some(p) => match Profiles::load(p) {
                Ok(ps) => (ps, None),
                Err(e) => (Profiles::default(), Some(e)),
            },
            None => (Profiles::default(), None),
        };
        let mut app = InvoiceDeskApp {
            create: CreatePanel::new(saved.create.clone()),
            lookup: LookupPanel::new(saved.lookup_id.clone()),
            customers: CustomersPanel::new(saved.customers.clone()),
            credentials: CredentialsPanel::default(),
            saved,
            rt: deps.runtime,
            profiles_path: deps.profiles_path,
            profiles,
            profiles_error,
            secrets: deps.secrets,
            secrets_task: None,
            #[cfg(feature = "sandbox")]
            sandbox: Arc::new(OnceCell::new()),
            sandbox_data: deps.sandbox_data,
            session: None,
            connecting: None,
            session_error: None,
            pending_reconnect: false,
            pending_sandbox_welcome: false,
            first_frame_done: false,
            ctx: cc.egui_ctx.clone(),
        };
        if app.profiles.profiles.is_empty() {
            app.saved.tab = Tab::Credentials;
        }
        cc.egui_ctx.set_theme(app.saved.theme.preference());
        super::widgets::install_colors(&cc.egui_ctx);
        let lang = deps_language
            .or(app.saved.lang)
            .unwrap_or_else(super::i18n::Lang::from_os);
        app.saved.lang = Some(lang);
        super::i18n::set(lang);
        // The keyring may take a moment (or prompt): open it off the UI thread.
        let cell = app.secrets.clone();
        app.secrets_task = Some(Task::spawn(&app.rt, &app.ctx, async move {
            get_secrets(&cell).await;
        }));
        if let Some(name) = app.profiles.active.clone() {
            app.connect(&name);
        }
        app
    }

    /// The active session, if connected.
    pub fn session(&self) -> Option<&Arc<Session>> {
        self.session.as_ref()
    }

    /// The panel on screen.
    pub fn tab(&self) -> Tab {
        self.saved.tab
    }

    /// The profiles as the app holds them.
    pub fn profiles(&self) -> &Profiles {
        &self.profiles
    }

    /// The customer list's sort column and direction (ascending = true).
    pub fn customer_sort(&self) -> (super::customers::SortKey, bool) {
        self.customers.sort()
    }

    /// True while a profile is being connected.
    pub fn is_connecting(&self) -> bool {
        self.connecting.is_some()
    }

    /// True while a customer listing is arriving.
    pub fn customers_loading(&self) -> bool {
        self.customers.is_loading()
    }

    /// True while the customer list is re-sorted on a worker.
    pub fn customer_view_pending(&self) -> bool {
        self.customers.view_pending()
    }

    /// The customer list's rows and view.
    pub fn customer_rows(&self) -> (&super::customers::Rows, &super::customers::View) {
        self.customers.data()
    }

    fn connect(&mut self, name: &str) {
        let Some(profile) = self.profiles.get(name).cloned() else {
            return;
        };
        if let Some(old) = self.connecting.take() {
            old.cancel();
        }
        self.session = None;
        self.session_error = None;
        let secrets = self.secrets.clone();
        #[cfg(feature = "sandbox")]
        let sandbox = (self.sandbox.clone(), self.sandbox_data.clone());
        self.connecting = Some(Task::spawn(&self.rt, &self.ctx, async move {
            if profile.sandbox {
                #[cfg(feature = "sandbox")]
                return connect_sandbox(profile, sandbox.0, sandbox.1).await;
                #[cfg(not(feature = "sandbox"))]
                return Err(tr!("err-no-sandbox"));
            }
            let store = get_secrets(&secrets).await;
            let kind = profile.auth.secret_kind();
            let name = profile.name.clone();
            let secret = tokio::task::spawn_blocking(move || store.get(&name, kind))
                .await
                .map_err(|e| e.to_string())??;
            let Some(secret) = secret else {
                let what = match profile.auth {
                    ProfileAuth::OAuth { .. } => tr!("secret-client"),
                    ProfileAuth::ApiKey { .. } => tr!("secret-api-key"),
                };
                return Err(tr!("err-no-secret", what = what, profile = profile.name));
            };
            let client = Client::new(profile.client_config(secret)).map_err(|e| e.to_string())?;
            Ok(Session {
                profile,
                client,
                sandbox_customers: Vec::new(),
            })
        }));
    }

    fn save_profiles(&self) -> Result<(), String> {
        match &self.profiles_path {
            Some(p) => self.profiles.save(p),
            None => Ok(()),
        }
    }

    fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Show(tab) => self.saved.tab = tab,
            Command::Activate(name) => {
                self.profiles.active = Some(name.clone());
                if let Err(e) = self.save_profiles() {
                    self.profiles_error = Some(e);
                }
                self.connect(&name);
            }
            Command::SaveProfile {
                previous,
                profile,
                secret,
            } => {
                let name = profile.name.clone();
                if let Err(e) = self.profiles.upsert(previous.as_deref(), profile.clone()) {
                    self.credentials.show_result(Err(e));
                    return;
                }
                if let Err(e) = self.save_profiles() {
                    self.credentials.show_result(Err(e));
                    return;
                }
                let store = self.secrets.clone();
                let kind = profile.auth.secret_kind();
                let renamed_from = previous.filter(|p| *p != name);
                let secret_name = name.clone();
                self.credentials
                    .start_save(Task::spawn(&self.rt, &self.ctx, async move {
                        let store = get_secrets(&store).await;
                        tokio::task::spawn_blocking(move || {
                            if let Some(old) = &renamed_from {
                                // Move the secret with the profile's name.
                                if secret.is_none()
                                    && let Ok(Some(s)) = store.get(old, kind)
                                {
                                    store.set(&secret_name, kind, &s);
                                }
                                store.delete(old, kind);
                            }
                            match secret {
                                Some(s) => store.set(&secret_name, kind, &s),
                                None => store.status(),
                            }
                        })
                        .await
                        .map_err(|e| e.to_string())
                    }));
                self.credentials.select(&name);
                if self.profiles.active.as_deref() == Some(&name) {
                    self.pending_reconnect = true;
                }
            }
            Command::DeleteProfile(name) => {
                let kind = self.profiles.get(&name).map(|p| p.auth.secret_kind());
                self.profiles.remove(&name);
                if let Err(e) = self.save_profiles() {
                    self.profiles_error = Some(e);
                }
                if let Some(kind) = kind {
                    let store = self.secrets.clone();
                    let n = name.clone();
                    Task::spawn(&self.rt, &self.ctx, async move {
                        let store = get_secrets(&store).await;
                        let _ = tokio::task::spawn_blocking(move || store.delete(&n, kind)).await;
                    });
                }
                if self
                    .session
                    .as_ref()
                    .is_some_and(|s| s.profile.name == name)
                {
                    self.session = None;
                }
                match self.profiles.active.clone() {
                    Some(a) => self.connect(&a),
                    None => self.session = None,
                }
            }
            Command::TestConnection => {
                let Some(session) = self.session.clone() else {
                    let msg = self
                        .session_error
                        .clone()
                        .unwrap_or_else(|| tr!("msg-choose-profile"));
                    self.credentials.show_result(Err(msg));
                    return;
                };
                self.credentials
                    .start_test(Task::spawn(&self.rt, &self.ctx, async move {
                        session.client.check_connection().await
                    }));
            }
            Command::TrySandbox => {
                let profile = sandbox_profile();
                let _ = self.profiles.upsert(None, profile);
                self.profiles.active = Some(SANDBOX_PROFILE.to_string());
                if let Err(e) = self.save_profiles() {
                    self.profiles_error = Some(e);
                }
                self.connect(SANDBOX_PROFILE);
                self.pending_sandbox_welcome = true;
                self.saved.tab = Tab::Create;
            }
            Command::OpenInLookup(id) => {
                self.saved.tab = Tab::Lookup;
                self.lookup
                    .open(id, self.session.clone(), &self.rt, &self.ctx);
            }
        }
    }

    fn poll(&mut self) {
        if let Some(result) = take_finished(&mut self.connecting) {
            match result.and_then(|r| r) {
                Ok(session) => {
                    if super::trace_enabled() {
                        eprintln!("invoice-desk trace: connected");
                    }
                    let session = Arc::new(session);
                    if std::mem::take(&mut self.pending_sandbox_welcome) {
                        self.create.prefill_for_sandbox(&session);
                    }
                    self.session = Some(session);
                }
                Err(e) if e == "cancelled" => {}
                Err(e) => self.session_error = Some(e),
            }
        }
        if take_finished(&mut self.secrets_task).is_some() {
            self.ctx.request_repaint();
        }
        if std::mem::take(&mut self.pending_reconnect)
            && let Some(a) = self.profiles.active.clone()
        {
            self.connect(&a);
        }
    }

    /// Keyboard shortcuts, handled before the panels draw.
    fn shortcuts(&mut self, ui: &mut egui::Ui) {
        use egui::{Key, Modifiers};
        let pressed =
            |ui: &mut egui::Ui, key: Key| ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, key));
        // Ctrl/Cmd+Q quits cleanly (state saved), on every platform.
        if pressed(ui, Key::Q) {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        if pressed(ui, Key::N) {
            self.saved.tab = Tab::Create;
            self.create.focus_request = true;
        }
        if pressed(ui, Key::F) {
            self.saved.tab = Tab::Lookup;
            self.lookup.focus_request = true;
        }
        if pressed(ui, Key::E) {
            self.saved.tab = Tab::Customers;
            self.customers.export_request = true;
        }
        if pressed(ui, Key::Enter) {
            match self.saved.tab {
                Tab::Create => self.create.submit_request = true,
                Tab::Lookup => self.lookup.submit_request = true,
                Tab::Customers => self.customers.submit_request = true,
                Tab::Credentials => {}
            }
        }
    }

    fn top_bar(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            ui.heading("invoice-desk");
            ui.separator();
            let label = ui.label(tr!("top-profile"));
            let active = self
                .profiles
                .active
                .clone()
                .unwrap_or_else(|| tr!("top-no-profile"));
            egui::ComboBox::from_id_salt("profile_switch")
                .selected_text(&active)
                .show_ui(ui, |ui| {
                    for p in &self.profiles.profiles {
                        if ui
                            .selectable_label(
                                self.profiles.active.as_deref() == Some(&p.name),
                                &p.name,
                            )
                            .clicked()
                        {
                            commands.push(Command::Activate(p.name.clone()));
                        }
                    }
                })
                .response
                .labelled_by(label.id);
            self.token_badge(ui);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.menu_button(tr!("menu-help"), |ui| {
                    ui.label(egui::RichText::new(tr!("menu-shortcuts")).strong());
                    egui::Grid::new("shortcuts").num_columns(2).show(ui, |ui| {
                        for (keys, what) in SHORTCUTS {
                            ui.label(egui::RichText::new(keys).monospace());
                            ui.label(super::i18n::text(what));
                            ui.end_row();
                        }
                    });
                    ui.label(tr!("menu-tab-hint"));
                });
                ui.menu_button(tr!("menu-view"), |ui| {
                    ui.label(egui::RichText::new(tr!("menu-theme")).strong());
                    let before = self.saved.theme;
                    ui.radio_value(
                        &mut self.saved.theme,
                        ThemeChoice::System,
                        tr!("theme-system"),
                    );
                    ui.radio_value(
                        &mut self.saved.theme,
                        ThemeChoice::Light,
                        tr!("theme-light"),
                    );
                    ui.radio_value(&mut self.saved.theme, ThemeChoice::Dark, tr!("theme-dark"));
                    if before != self.saved.theme {
                        ui.ctx().set_theme(self.saved.theme.preference());
                    }
                    ui.separator();
                    ui.label(egui::RichText::new(tr!("menu-language")).strong());
                    let before = self.saved.lang;
                    ui.radio_value(
                        &mut self.saved.lang,
                        Some(super::i18n::Lang::Es),
                        "Español (Chile)",
                    );
                    ui.radio_value(&mut self.saved.lang, Some(super::i18n::Lang::En), "English");
                    if before != self.saved.lang
                        && let Some(l) = self.saved.lang
                    {
                        super::i18n::set(l);
                    }
                });
            });
        });
        ui.horizontal(|ui| {
            for (tab, name) in [
                (Tab::Credentials, tr!("tab-credentials")),
                (Tab::Create, tr!("tab-create")),
                (Tab::Lookup, tr!("tab-lookup")),
                (Tab::Customers, tr!("tab-customers")),
            ] {
                if ui.selectable_label(self.saved.tab == tab, name).clicked() {
                    commands.push(Command::Show(tab));
                }
            }
        });
    }

    fn token_badge(&self, ui: &mut egui::Ui) {
        if self.connecting.is_some() {
            ui.spinner();
            ui.label(tr!("top-connecting"));
            return;
        }
        if let Some(e) = &self.session_error {
            super::widgets::error_text(ui, e);
            return;
        }
        let Some(session) = &self.session else {
            ui.label(tr!("top-not-connected"));
            return;
        };
        match session.client.token_state() {
            TokenState::NotUsed => ui.label(tr!("token-api-key")),
            TokenState::None => ui.label(tr!("token-none")),
            TokenState::Fetching => ui.label(tr!("token-fetching")),
            TokenState::Valid {
                expires_at: Some(t),
            } => {
                let left = (t - chrono::Utc::now()).to_std().unwrap_or_default();
                // Repaint when the badge must change, not before.
                ui.ctx().request_repaint_after(left);
                ui.label(tr!("token-valid-until", time = super::i18n::expiry(t)))
            }
            TokenState::Valid { expires_at: None } => ui.label(tr!("token-valid")),
            TokenState::Failed { reason } => {
                let r = ui.label(
                    egui::RichText::new(tr!("token-failed")).color(super::widgets::error_color(ui)),
                );
                r.on_hover_text(reason)
            }
        };
    }
}

/// The secret store, opening the platform keyring on first use (off the UI thread).
pub async fn get_secrets(cell: &OnceCell<Arc<SecretStore>>) -> Arc<SecretStore> {
    cell.get_or_init(|| async {
        tokio::task::spawn_blocking(|| Arc::new(SecretStore::platform()))
            .await
            .unwrap_or_else(|e| Arc::new(SecretStore::session_only(&e.to_string())))
    })
    .await
    .clone()
}

fn sandbox_profile() -> Profile {
    Profile {
        name: SANDBOX_PROFILE.to_string(),
        base_url: "built-in".to_string(),
        auth: ProfileAuth::OAuth {
            auth_url: "built-in".to_string(),
            audience: String::new(),
            client_id: String::new(),
            body_style: Default::default(),
        },
        account_key: "acc_oauth_clp".to_string(),
        account_currency: Some(crate::api::Currency::Clp),
        sandbox: true,
    }
}

#[cfg(feature = "sandbox")]
async fn connect_sandbox(
    profile: Profile,
    cell: Arc<OnceCell<Arc<crate::sandbox::Sandbox>>>,
    data: Option<PathBuf>,
) -> Result<Session, String> {
    use crate::sandbox::{Sandbox, SandboxConfig};
    let sandbox = cell
        .get_or_try_init(|| async {
            Sandbox::start(SandboxConfig {
                data_file: data,
                // A customer with many invoices to try paging; INVOICE_DESK_SANDBOX_BIG sizes
                // it for performance measurements.
                big_customer_invoices: std::env::var("INVOICE_DESK_SANDBOX_BIG")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(2500),
                ..Default::default()
            })
            .await
            .map(Arc::new)
            .map_err(|e| tr!("err-sandbox-start", error = e))
        })
        .await?
        .clone();
    let c = &sandbox.credentials;
    let mut p = sandbox.profile(&profile.name);
    if !profile.account_key.trim().is_empty() {
        p.account_key = profile.account_key.clone();
    }
    let client = Client::new(p.client_config(SecretString::from(c.client_secret.clone())))
        .map_err(|e| e.to_string())?;
    let sandbox_customers = sandbox
        .customers()
        .into_iter()
        .map(|(id, name, _)| (id, name))
        .collect();
    Ok(Session {
        profile,
        client,
        sandbox_customers,
    })
}

impl eframe::App for InvoiceDeskApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        if !self.first_frame_done {
            self.first_frame_done = true;
            if super::trace_enabled() {
                eprintln!(
                    "invoice-desk trace: first-frame unix_ms={}",
                    super::unix_ms()
                );
            }
        }
        self.poll();
        self.shortcuts(ui);
        let mut commands = Vec::new();
        egui::Panel::top("top_bar").show(ui, |ui| {
            ui.add_space(4.0);
            self.top_bar(ui, &mut commands);
            ui.add_space(2.0);
        });
        egui::CentralPanel::default_margins().show(ui, |ui| {
            if let Some(e) = &self.profiles_error {
                super::widgets::error_text(ui, e);
            }
            let session = self.session.clone();
            let secrets_status = self.secrets.get().map(|s| s.status());
            match self.saved.tab {
                Tab::Credentials => self.credentials.ui(
                    ui,
                    &self.profiles,
                    secrets_status.as_ref(),
                    self.session.as_deref(),
                    &mut commands,
                ),
                Tab::Create => self.create.ui(ui, session, &self.rt, &mut commands),
                Tab::Lookup => self.lookup.ui(ui, session, &self.rt),
                Tab::Customers => self.customers.ui(ui, session, &self.rt, &mut commands),
            }
        });
        for cmd in commands {
            self.handle(cmd);
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.saved.version = 1;
        self.saved.create = self.create.form.clone();
        self.saved.lookup_id = self.lookup.id.clone();
        self.saved.customers = self.customers.saved();
        eframe::set_value(storage, STORAGE_KEY, &self.saved);
    }

    fn auto_save_interval(&self) -> std::time::Duration {
        // What the clerk typed survives a crash, not just a clean exit.
        std::time::Duration::from_secs(5)
    }
}
