//! Credentials panel: profiles, their settings and secrets, "Test connection", and the
//! first-run welcome with "Try the sandbox".

use super::command::Command;
use super::session::{ProfileCheck, Session};
use super::task::{Task, take_finished};
use super::widgets;
use crate::api::{ApiError, Currency, TokenBodyStyle};
use crate::profile::{Profile, ProfileAuth, Profiles, StoreStatus};
use crate::tr;
use crate::ui::command::ProfilesCommand;
use egui::{RichText, Ui};
use secrecy::SecretString;
use std::collections::HashMap;

/// The profile being edited.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Editor {
    /// The stored name, when editing an existing profile.
    pub original: Option<String>,
    name: String,
    base_url: String,
    api_key_mode: bool,
    auth_url: String,
    audience: String,
    client_id: String,
    form_body: bool,
    header: String,
    secret: String,
    account_key: String,
    account_currency: Option<Currency>,
    /// The currencies offered, as typed (`CLP, CLF, USD`).
    currencies: String,
    sandbox: bool,
    /// The sender's details as typed (the logo's path as text).
    sender: crate::profile::Sender,
    logo: String,
    /// The mail server's settings (server, security, from; the rest as typed below).
    mail: crate::profile::mail::Settings,
    mail_port: String,
    mail_user: String,
    mail_reply_to: String,
    mail_copy_to: String,
    mail_rate: String,
    mail_ca: String,
    /// A newly typed password for the mail server (to the keyring on save).
    mail_password: String,
}

fn currency_list(cs: &[Currency]) -> String {
    cs.iter().map(|c| c.code()).collect::<Vec<_>>().join(", ")
}

impl Editor {
    /// An editor holding a copy of `p`.
    pub fn from_profile(p: &Profile) -> Editor {
        let mut e = Editor {
            original: Some(p.name.clone()),
            name: p.name.clone(),
            base_url: p.base_url.clone(),
            account_key: p.account_key.clone(),
            account_currency: p.account_currency,
            currencies: currency_list(&p.currencies),
            sandbox: p.sandbox,
            sender: p.sender.clone(),
            mail: p.mail.clone(),
            mail_port: p.mail.port.map(|n| n.to_string()).unwrap_or_default(),
            mail_user: p.mail.user.clone().unwrap_or_default(),
            mail_reply_to: p.mail.reply_to.clone().unwrap_or_default(),
            mail_copy_to: p.mail.copy_to.clone().unwrap_or_default(),
            mail_rate: crate::i18n::mail_rate_text(p.mail.per_minute),
            mail_ca: p
                .mail
                .ca_file
                .as_ref()
                .map(|c| c.display().to_string())
                .unwrap_or_default(),
            logo: p
                .sender
                .logo
                .as_ref()
                .map(|l| l.display().to_string())
                .unwrap_or_default(),
            header: crate::api::auth::DEFAULT_API_KEY_HEADER.into(),
            ..Default::default()
        };
        match &p.auth {
            ProfileAuth::OAuth {
                auth_url,
                audience,
                client_id,
                body_style,
            } => {
                e.auth_url = auth_url.clone();
                e.audience = audience.clone();
                e.client_id = client_id.clone();
                e.form_body = *body_style == TokenBodyStyle::Form;
            }
            ProfileAuth::ApiKey { header } => {
                e.api_key_mode = true;
                e.header = header.clone();
            }
        }
        e
    }

    fn new_profile() -> Editor {
        Editor {
            header: crate::api::auth::DEFAULT_API_KEY_HEADER.into(),
            currencies: currency_list(&Currency::DEFAULT_OFFERED),
            mail_rate: crate::profile::mail::Settings::default()
                .per_minute
                .to_string(),
            ..Default::default()
        }
    }

    /// The mail server's settings as typed (a port or rate that is not a number reads
    /// as none: [`Editor::mail_problem`] says so before saving).
    fn mail_settings(&self) -> crate::profile::mail::Settings {
        let opt = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
        crate::profile::mail::Settings {
            server: self.mail.server.trim().to_string(),
            port: self.mail_port.trim().parse().ok(),
            security: self.mail.security,
            user: opt(&self.mail_user),
            from: self.mail.from.trim().to_string(),
            reply_to: opt(&self.mail_reply_to),
            copy_to: opt(&self.mail_copy_to),
            // A rate that is neither a number nor the server's word reads as one too
            // large: the check says so before saving.
            per_minute: match self.mail_rate.trim() {
                "" => crate::profile::mail::Settings::default().per_minute,
                n => crate::i18n::mail_rate_of(n).unwrap_or(u32::MAX),
            },
            ca_file: opt(&self.mail_ca).map(std::path::PathBuf::from),
        }
    }

    /// What is wrong with the mail settings typed, when any is typed.
    fn mail_problem(&self) -> Option<String> {
        let m = self.mail_settings();
        if m.is_empty() && self.mail_user.trim().is_empty() {
            return None;
        }
        let port = self.mail_port.trim();
        if !port.is_empty() && port.parse::<u16>().map_or(true, |p| p == 0) {
            return Some(tr!(
                "mail-bad-port",
                port = crate::text::escape_controls(port)
            ));
        }
        m.check().err().map(|e| crate::i18n::mail_problem(&e))
    }

    /// The currencies typed, or the first code that is not ISO 4217.
    fn currencies(&self) -> Result<Vec<Currency>, String> {
        Currency::parse_list(&self.currencies)
    }

    fn to_profile(&self) -> Profile {
        let auth = if self.api_key_mode {
            ProfileAuth::ApiKey {
                header: self.header.trim().to_string(),
            }
        } else {
            ProfileAuth::OAuth {
                auth_url: self.auth_url.trim().to_string(),
                audience: self.audience.trim().to_string(),
                client_id: self.client_id.trim().to_string(),
                body_style: if self.form_body {
                    TokenBodyStyle::Form
                } else {
                    TokenBodyStyle::Json
                },
            }
        };
        Profile {
            name: self.name.trim().to_string(),
            base_url: self.base_url.trim().to_string(),
            auth,
            account_key: self.account_key.trim().to_string(),
            account_currency: self.account_currency,
            currencies: self
                .currencies()
                .ok()
                .filter(|c| !c.is_empty())
                .unwrap_or_else(|| Currency::DEFAULT_OFFERED.to_vec()),
            sandbox: self.sandbox,
            sender: crate::profile::Sender {
                organization: self.sender.organization.trim().to_string(),
                rut: self.sender.rut.trim().to_string(),
                address: self.sender.address.trim().to_string(),
                email: self.sender.email.trim().to_string(),
                phone: self.sender.phone.trim().to_string(),
                logo: Some(self.logo.trim())
                    .filter(|l| !l.is_empty())
                    .map(std::path::PathBuf::from),
                payment_text: self.sender.payment_text.trim().to_string(),
            },
            mail: self.mail_settings(),
        }
    }
}

/// What a connection test found, in the clerk's terms.
pub enum TestOutcome {
    /// It works (the sentence says how).
    Works(String),
    /// A server answered, but not as the invoicing service does.
    Unsure,
    /// It failed.
    Failed(ApiError),
    /// The test itself could not run.
    NotRun(String),
}

/// What the panel shows of the app's state.
#[derive(Clone, Copy)]
pub struct Shown<'a> {
    /// The profiles.
    pub profiles: &'a Profiles,
    /// Where secrets are kept (`None`: the keyring is still being opened).
    pub store: Option<&'a StoreStatus>,
    /// The connection, if any.
    pub session: Option<&'a Session>,
    /// What this session learnt of each profile's connection.
    pub checks: &'a HashMap<String, ProfileCheck>,
    /// The journal in use and its setting.
    pub journal: &'a super::shared_journal::InUse<'a>,
    /// Today's UF value, or why there is none.
    pub uf: &'a super::widgets::UfShown,
}

/// The panel's state.
#[derive(Default)]
pub struct CredentialsPanel {
    selected: Option<String>,
    editor: Option<Editor>,
    save_task: Option<Task<Result<StoreStatus, String>>>,
    /// The profile being tested.
    testing: Option<String>,
    /// A save's or a check's result line, and the profile it is about.
    message: Option<(Option<String>, Result<String, String>)>,
    /// The last test, and the profile it was about.
    test: Option<(String, TestOutcome)>,
    confirm_delete: Option<String>,
    /// The form as last drawn: a message about it goes when it changes.
    form_seen: Option<Profile>,
    /// The journal setting (this computer's file, or the desk's shared journal).
    pub journal: super::shared_journal::JournalSetting,
    /// Where the UF's value is read, and the CMF's key.
    pub uf: super::uf_setting::UfSetting,
}

impl CredentialsPanel {
    /// Shows a result line under the editor of the profile `about` (`None`: the form
    /// being edited).
    pub fn show_result(&mut self, about: Option<String>, r: Result<String, String>) {
        self.message = Some((about, r));
    }

    /// Tracks a save in progress.
    pub fn start_save(&mut self, t: Task<Result<StoreStatus, String>>) {
        self.save_task = Some(t);
        self.message = None;
    }

    /// A connection test of `profile` is running.
    pub fn testing(&mut self, profile: &str) {
        self.testing = Some(profile.to_string());
        self.test = None;
        self.message = None;
    }

    /// A connection test of `profile` ended.
    pub fn tested(&mut self, profile: String, outcome: TestOutcome) {
        self.testing = None;
        self.test = Some((profile, outcome));
    }

    /// Clears what was said about the previously shown profile or form.
    fn forget_messages(&mut self) {
        self.message = None;
        self.test = None;
    }

    /// True while a secret is being stored.
    pub fn is_saving(&self) -> bool {
        self.save_task.is_some()
    }

    /// Selects a profile by name (after a save or rename).
    pub fn select(&mut self, name: &str) {
        self.selected = Some(name.to_string());
        if let Some(e) = &mut self.editor {
            e.original = Some(name.to_string());
            e.secret.clear();
            e.mail_password.clear();
        }
    }

    /// Draws the panel.
    pub fn ui(&mut self, ui: &mut Ui, shown: &Shown<'_>, commands: &mut Vec<Command>) {
        let Shown {
            profiles,
            store,
            session,
            checks,
            journal,
            uf,
        } = *shown;
        if profiles.profiles.is_empty() && self.editor.is_none() {
            welcome(ui, commands, &mut self.editor);
            return;
        }
        if self.editor.is_none() {
            let pick = self.selected.clone().or_else(|| profiles.active.clone());
            if let Some(p) = pick.and_then(|n| profiles.get(&n)) {
                self.selected = Some(p.name.clone());
                self.editor = Some(Editor::from_profile(p));
            }
        }
        // A fixed width: a long profile name is cut (whole on hover) instead of widening
        // the list and moving the form beside it.
        self.profile_list(ui, profiles, commands);
        egui::CentralPanel::default_margins().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                if let Some(status) = store {
                    match status {
                        StoreStatus::Keyring(kind) => {
                            ui.label(tr!("cred-store-keyring", store = keyring_name(kind)));
                        }
                        StoreStatus::SessionOnly(why) => {
                            widgets::error_text(ui, &tr!("cred-store-session"));
                            ui.collapsing(tr!("details"), |ui| {
                                ui.label(RichText::new(why).monospace());
                            });
                        }
                    }
                } else {
                    ui.horizontal(|ui| {
                        crate::ui::widgets::busy(ui);
                        ui.label(tr!("cred-opening-keyring"));
                    });
                }
                ui.add_space(6.0);
                let Some(editor) = &mut self.editor else {
                    return;
                };
                let stored = editor.original.as_deref().and_then(|n| profiles.get(n));
                let form = editor.to_profile();
                let dirty = stored.is_none_or(|p| *p != form)
                    || !editor.secret.is_empty()
                    || !editor.mail_password.is_empty();
                // A message about the form goes when the form changes.
                if self.form_seen.as_ref().is_some_and(|seen| *seen != form) {
                    self.message = None;
                    self.test = None;
                }
                self.form_seen = Some(form);
                editor_form(ui, editor, stored.is_some());
                ui.add_space(8.0);
                ui.horizontal(|ui| {
                    let busy = self.save_task.is_some();
                    if ui
                        .add_enabled(!busy && dirty, egui::Button::new(tr!("save")))
                        .clicked()
                        && let Some(m) = save(editor, stored.is_some(), commands)
                    {
                        self.message = Some((None, Err(m)));
                    }
                    let name = editor.original.clone();
                    let is_active = name.is_some() && name == profiles.active;
                    // The buttons keep their places whatever the state: a click never
                    // lands on another button because the row moved.
                    let use_it = ui
                        .add_enabled(
                            name.is_some() && !is_active && !dirty,
                            egui::Button::new(tr!("cred-use-profile")),
                        )
                        .on_disabled_hover_text(if is_active {
                            tr!("cred-active-hint")
                        } else {
                            tr!("cred-save-first")
                        });
                    if use_it.clicked()
                        && let Some(n) = &name
                    {
                        commands.push(Command::Profiles(ProfilesCommand::Activate(n.clone())));
                    }
                    let can_test =
                        is_active && !dirty && self.testing.is_none() && session.is_some();
                    let test = ui.add_enabled(can_test, egui::Button::new(tr!("test-connection")));
                    let test = if !is_active {
                        test.on_disabled_hover_text(tr!("cred-use-first"))
                    } else if dirty {
                        test.on_disabled_hover_text(tr!("cred-save-first"))
                    } else {
                        test
                    };
                    if test.clicked() {
                        commands.push(Command::Profiles(ProfilesCommand::TestConnection));
                    }
                    if busy || self.testing.is_some() {
                        crate::ui::widgets::busy(ui);
                    }
                    if self.testing.is_some() {
                        ui.label(tr!("cred-testing"));
                    }
                    // Delete stands apart, at the far right, in red.
                    if let Some(n) = &name {
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            if widgets::danger_button(ui, &tr!("delete-ellipsis")).clicked() {
                                self.confirm_delete = Some(n.clone());
                            }
                        });
                    }
                });
                let shown = editor.original.clone();
                self.said(ui, shown.as_ref(), checks);
                // The journal is the computer's, not a profile's: it stands apart.
                ui.add_space(16.0);
                ui.separator();
                self.journal.ui(ui, journal, commands);
                ui.add_space(16.0);
                ui.separator();
                self.uf
                    .ui(ui, &crate::uf::address_of(profiles), uf, commands);
            });
        });
        self.confirm_delete_modal(ui, commands);
    }

    /// The profiles, at the left: the active one marked, one chosen to edit; a new one.
    fn profile_list(&mut self, ui: &mut Ui, profiles: &Profiles, commands: &mut Vec<Command>) {
        egui::Panel::left("profile_list")
            .resizable(false)
            .exact_size(200.0)
            .show(ui, |ui| {
                ui.heading(tr!("cred-profiles"));
                for p in &profiles.profiles {
                    let active = profiles.active.as_deref() == Some(&p.name);
                    ui.horizontal(|ui| {
                        let name = if active {
                            RichText::new(&p.name).strong()
                        } else {
                            RichText::new(&p.name)
                        };
                        // The chip first: the name takes what is left, cut if need be.
                        if active {
                            widgets::chip(ui, &tr!("cred-active"), widgets::CHIP_COLORS[1])
                                .on_hover_text(tr!("cred-active-hint"));
                        }
                        let chosen = self.selected.as_deref() == Some(&p.name);
                        if ui
                            .add(egui::Button::selectable(chosen, name).truncate())
                            .on_hover_text(&p.name)
                            .clicked()
                            && self.selected.as_deref() != Some(&p.name)
                        {
                            self.selected = Some(p.name.clone());
                            self.editor = Some(Editor::from_profile(p));
                            self.forget_messages();
                        }
                    });
                }
                ui.add_space(8.0);
                if ui.button(tr!("cred-new-profile")).clicked() {
                    self.selected = None;
                    self.editor = Some(Editor::new_profile());
                    self.forget_messages();
                }
                #[cfg(feature = "sandbox")]
                if profiles.get(crate::profile::SANDBOX_PROFILE).is_none()
                    && ui.button(tr!("try-sandbox")).clicked()
                {
                    commands.push(Command::Profiles(ProfilesCommand::TrySandbox));
                }
            });
    }

    /// Under the buttons: the chosen profile's last check, the form's message, a test's
    /// outcome.
    fn said(&self, ui: &mut Ui, shown: Option<&String>, checks: &HashMap<String, ProfileCheck>) {
        // A test just run says it all: the profile's last check (the same
        // failure) is not printed a second time under it.
        let tested = matches!(&self.test, Some((about, _)) if Some(about) == shown);
        if let Some(n) = shown.filter(|_| !tested) {
            let check = checks.get(n);
            match check {
                Some(ProfileCheck::Failed { .. }) => widgets::error_text(ui, &check_line(check)),
                _ => {
                    ui.label(check_line(check));
                }
            }
        }
        match &self.message {
            Some((about, Ok(m))) if about.is_none() || about.as_ref() == shown => {
                ui.label(m);
            }
            Some((about, Err(m))) if about.is_none() || about.as_ref() == shown => {
                widgets::error_text(ui, m)
            }
            _ => {}
        }
        match &self.test {
            Some((about, outcome)) if Some(about) == shown => match outcome {
                TestOutcome::Works(m) => {
                    let r = ui.label(m);
                    widgets::announce(ui, &r, false);
                }
                TestOutcome::Unsure => widgets::error_text(ui, &tr!("cred-connection-unsure")),
                TestOutcome::Failed(e) => widgets::api_error(ui, "test", e),
                TestOutcome::NotRun(m) => widgets::error_text(ui, m),
            },
            _ => {}
        }
    }

    /// The confirmation before a profile is deleted.
    fn confirm_delete_modal(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        if let Some(name) = self.confirm_delete.clone() {
            let modal =
                egui::Modal::new(egui::Id::unique("confirm_delete_profile")).show(ui.ctx(), |ui| {
                    let title = ui.heading(tr!("cred-delete-title"));
                    widgets::announce(ui, &title, true);
                    ui.label(tr!("cred-delete-body", name = name));
                    ui.horizontal(|ui| {
                        if widgets::danger_button(ui, &tr!("cred-delete")).clicked() {
                            commands.push(Command::Profiles(ProfilesCommand::DeleteProfile(
                                name.clone(),
                            )));
                            self.confirm_delete = None;
                            self.editor = None;
                            self.selected = None;
                        }
                        if ui.button(tr!("cancel")).clicked() {
                            self.confirm_delete = None;
                        }
                    });
                });
            if modal.should_close() {
                self.confirm_delete = None;
            }
        }
    }
}

/// Save clicked: the profile, checked, goes to be saved with its secrets; or what is
/// wrong with the form. `exists`: the profile was saved before (its secret is kept).
fn save(editor: &mut Editor, exists: bool, commands: &mut Vec<Command>) -> Option<String> {
    let profile = editor.to_profile();
    let currencies = editor.currencies();
    let mail_problem = editor.mail_problem();
    match profile.validate() {
        Ok(()) if mail_problem.is_some() => mail_problem,
        Ok(()) if currencies.is_err() => {
            let bad = currencies.err().unwrap_or_default();
            Some(tr!("cred-bad-currency", code = bad))
        }
        Err(e) => Some(crate::i18n::profile_error(&e)),
        Ok(()) if !exists && editor.secret.is_empty() && !profile.sandbox => {
            let what = if editor.api_key_mode {
                tr!("secret-api-key")
            } else {
                tr!("secret-client")
            };
            Some(tr!("cred-enter-secret", what = what))
        }
        Ok(()) => {
            let secret = Some(std::mem::take(&mut editor.secret))
                .filter(|s| !s.is_empty())
                .map(SecretString::from);
            let mail_password = Some(std::mem::take(&mut editor.mail_password))
                .filter(|s| !s.is_empty())
                .map(SecretString::from);
            commands.push(Command::Profiles(ProfilesCommand::SaveProfile {
                previous: editor.original.clone(),
                profile: Box::new(profile),
                secret,
                mail_password,
            }));
            None
        }
    }
}

/// What is known of a profile's connection, in one line.
pub fn check_line(check: Option<&ProfileCheck>) -> String {
    match check {
        None => tr!("check-not-yet"),
        Some(ProfileCheck::Working { at }) => {
            tr!("check-working", time = at.format("%H:%M").to_string())
        }
        Some(ProfileCheck::Failed { why, at }) => {
            tr!(
                "check-failed",
                time = at.format("%H:%M").to_string(),
                why = why
            )
        }
    }
}

pub use crate::i18n::keyring_name;

fn welcome(ui: &mut Ui, commands: &mut Vec<Command>, editor: &mut Option<Editor>) {
    ui.add_space(24.0);
    ui.vertical_centered(|ui| {
        ui.heading(tr!("welcome-title"));
        ui.add_space(8.0);
        ui.label(tr!("welcome-body"));
        ui.add_space(16.0);
        #[cfg(feature = "sandbox")]
        {
            if ui
                .add(egui::Button::new(
                    RichText::new(tr!("try-sandbox")).size(18.0),
                ))
                .clicked()
            {
                commands.push(Command::Profiles(ProfilesCommand::TrySandbox));
            }
            ui.label(tr!("welcome-sandbox"));
            ui.add_space(16.0);
        }
        if ui.button(tr!("welcome-add")).clicked() {
            *editor = Some(Editor::new_profile());
        }
        ui.label(tr!("welcome-add-body"));
    });
    let _ = commands;
}

fn editor_form(ui: &mut Ui, e: &mut Editor, exists: bool) {
    ui.heading(if exists {
        tr!("cred-profile")
    } else {
        tr!("cred-new-profile")
    });
    if e.sandbox {
        ui.label(tr!("cred-sandbox-note"));
    }
    egui::Grid::new("profile_form")
        .num_columns(2)
        .spacing([12.0, 8.0])
        .show(ui, |ui| {
            widgets::field_row(ui, &tr!("f-name"), &mut e.name, &tr!("f-name-hint"), None);
            if !e.sandbox {
                widgets::field_row(ui, &tr!("f-base-url"), &mut e.base_url, "https://…", None);
                ui.label(tr!("f-authentication"));
                ui.horizontal(|ui| {
                    ui.radio_value(&mut e.api_key_mode, false, tr!("f-oauth"));
                    ui.radio_value(&mut e.api_key_mode, true, tr!("f-api-key"));
                });
                ui.end_row();
                let keep = if exists {
                    tr!("f-keep-secret")
                } else {
                    String::new()
                };
                if e.api_key_mode {
                    widgets::field_row(
                        ui,
                        &tr!("f-header"),
                        &mut e.header,
                        crate::api::auth::DEFAULT_API_KEY_HEADER,
                        None,
                    );
                    widgets::secret_row(ui, &tr!("f-api-key"), &mut e.secret, &keep);
                } else {
                    widgets::field_row(ui, &tr!("f-auth-url"), &mut e.auth_url, "https://…", None);
                    widgets::field_row(
                        ui,
                        &tr!("f-audience"),
                        &mut e.audience,
                        &tr!("f-audience-hint"),
                        None,
                    );
                    widgets::field_row(ui, &tr!("f-client-id"), &mut e.client_id, "", None);
                    widgets::secret_row(ui, &tr!("f-client-secret"), &mut e.secret, &keep);
                    ui.label("");
                    ui.checkbox(&mut e.form_body, tr!("f-form-body"));
                    ui.end_row();
                }
            }
            widgets::field_row(
                ui,
                &tr!("f-account-key"),
                &mut e.account_key,
                "x-account-key",
                None,
            );
            let l = ui.label(tr!("f-account-currency"));
            let text = match e.account_currency {
                None => tr!("not-known"),
                Some(c) => c.code().to_string(),
            };
            let offered = e.currencies().unwrap_or_default();
            egui::ComboBox::from_id_salt("account_currency")
                .selected_text(text)
                .show_ui(ui, |ui| {
                    widgets::choice(ui, &mut e.account_currency, None, tr!("not-known"));
                    for c in &offered {
                        widgets::choice(ui, &mut e.account_currency, Some(*c), c.code());
                    }
                })
                .response
                .labelled_by(l.id);
            ui.end_row();
            let problem = e
                .currencies()
                .err()
                .map(|bad| tr!("cred-bad-currency", code = bad));
            widgets::field_row(
                ui,
                &tr!("f-currencies"),
                &mut e.currencies,
                "CLP, CLF",
                problem.as_deref(),
            );
        });
    sender_form(ui, e);
    mail_form(ui, e, exists);
}

/// The mail server customers' e-mails go through, folded away until wanted.
fn mail_form(ui: &mut Ui, e: &mut Editor, exists: bool) {
    use crate::profile::mail::Security;
    let given = !e.mail.server.is_empty() || !e.mail.from.is_empty();
    egui::CollapsingHeader::new(tr!("mail-title"))
        .id_salt("mail_settings")
        .default_open(given)
        .show(ui, |ui| {
            egui::Grid::new("mail_form")
                .num_columns(2)
                .spacing([12.0, 8.0])
                .show(ui, |ui| {
                    widgets::field_row(
                        ui,
                        &tr!("mail-f-server"),
                        &mut e.mail.server,
                        "smtp.empresa.cl",
                        None,
                    );
                    ui.label(tr!("mail-f-security"));
                    ui.horizontal(|ui| {
                        ui.radio_value(
                            &mut e.mail.security,
                            Security::StartTls,
                            tr!("mail-security-starttls"),
                        );
                        ui.radio_value(
                            &mut e.mail.security,
                            Security::Tls,
                            tr!("mail-security-tls"),
                        );
                        ui.radio_value(
                            &mut e.mail.security,
                            Security::None,
                            tr!("mail-security-none"),
                        );
                    });
                    ui.end_row();
                    let port_hint = e.mail.security.default_port().to_string();
                    widgets::field_row(ui, &tr!("mail-f-port"), &mut e.mail_port, &port_hint, None);
                    widgets::field_row(ui, &tr!("mail-f-user"), &mut e.mail_user, "", None);
                    let keep = if exists && !e.mail_user.trim().is_empty() {
                        tr!("f-keep-secret")
                    } else {
                        String::new()
                    };
                    widgets::secret_row(ui, &tr!("mail-f-password"), &mut e.mail_password, &keep);
                    widgets::field_row(
                        ui,
                        &tr!("mail-f-from"),
                        &mut e.mail.from,
                        "Cobranzas Empresa <cobranza@empresa.cl>",
                        None,
                    );
                    widgets::field_row(ui, &tr!("mail-f-reply-to"), &mut e.mail_reply_to, "", None);
                    widgets::field_row(ui, &tr!("mail-f-copy-to"), &mut e.mail_copy_to, "", None);
                    widgets::field_row(ui, &tr!("mail-f-rate"), &mut e.mail_rate, "30", None);
                    widgets::field_row(
                        ui,
                        &tr!("mail-f-ca"),
                        &mut e.mail_ca,
                        &tr!("mail-f-ca-hint"),
                        None,
                    );
                });
        });
}

/// The sender's details, folded away until wanted (a clerk sets them once).
fn sender_form(ui: &mut Ui, e: &mut Editor) {
    let given = !e.sender.is_empty() || !e.logo.is_empty();
    egui::CollapsingHeader::new(tr!("sender-title"))
        .id_salt("sender_details")
        .default_open(given)
        .show(ui, |ui| {
            egui::Grid::new("sender_form")
                .num_columns(2)
                .spacing([12.0, 8.0])
                .show(ui, |ui| {
                    let s = &mut e.sender;
                    widgets::field_row(
                        ui,
                        &tr!("sender-f-organization"),
                        &mut s.organization,
                        "",
                        None,
                    );
                    let rut_problem = (!s.rut.trim().is_empty()
                        && crate::rut::Rut::parse(s.rut.trim()).is_err())
                    .then(|| {
                        crate::i18n::sender_problem(&crate::profile::SenderError::BadRut(
                            s.rut.trim().to_string(),
                        ))
                    });
                    widgets::field_row(
                        ui,
                        &tr!("sender-f-rut"),
                        &mut s.rut,
                        "76.123.456-0",
                        rut_problem.as_deref(),
                    );
                    widgets::field_row(ui, &tr!("sender-f-address"), &mut s.address, "", None);
                    widgets::field_row(ui, &tr!("sender-f-email"), &mut s.email, "", None);
                    widgets::field_row(ui, &tr!("sender-f-phone"), &mut s.phone, "", None);
                    widgets::field_row(
                        ui,
                        &tr!("sender-f-logo"),
                        &mut e.logo,
                        &tr!("sender-f-logo-hint"),
                        None,
                    );
                    let l = ui.label(tr!("sender-f-payment"));
                    ui.add(
                        egui::TextEdit::multiline(&mut s.payment_text)
                            .hint_text(tr!("sender-f-payment-hint"))
                            .desired_rows(3)
                            .desired_width(widgets::field_width(ui)),
                    )
                    .labelled_by(l.id);
                    ui.end_row();
                });
        });
}

impl crate::ui::Panel for CredentialsPanel {
    /// Takes finished work (called by the app every frame).
    fn poll(&mut self) {
        if let Some(r) = take_finished(&mut self.save_task) {
            let about = self.selected.clone();
            self.message = Some((
                about,
                match crate::ui::task::flat(r) {
                    Ok(StoreStatus::Keyring(kind)) => {
                        Ok(tr!("cred-saved-keyring", store = keyring_name(&kind)))
                    }
                    Ok(StoreStatus::SessionOnly(_)) => Err(tr!("cred-saved-session")),
                    Err(e) => Err(tr!("cred-secret-not-saved", error = e)),
                },
            ));
        }
    }
}
