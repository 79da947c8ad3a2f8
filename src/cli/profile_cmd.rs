//! `invoice-desk profile …`: profiles in profiles.toml, secrets in the keyring.

use super::{CliError, Mode, ProfileCommand, settings};
use crate::api::Currency;
use crate::profile::{Profile, ProfileAuth, Profiles};
use crate::tr;
use secrecy::SecretString;
use std::io::IsTerminal;

pub(super) fn profile_command(cmd: ProfileCommand) -> Result<(), CliError> {
    let path = settings::profiles_path()?;
    let mut profiles = Profiles::load(&path)?;
    match cmd {
        ProfileCommand::List => {
            if profiles.profiles.is_empty() {
                note!("{}", tr!("cli-no-profiles"));
            }
            for p in &profiles.profiles {
                let active = if profiles.active.as_deref() == Some(&p.name) {
                    "* "
                } else {
                    "  "
                };
                let mode = match p.auth {
                    ProfileAuth::OAuth { .. } => "oauth",
                    ProfileAuth::ApiKey { .. } => "api-key",
                };
                say!("{active}{}\t{mode}\t{}", p.name, p.base_url);
            }
            Ok(())
        }
        ProfileCommand::Show { name } => {
            let p = match name {
                Some(n) => profiles
                    .get(&n)
                    .ok_or_else(|| CliError::usage(tr!("cli-no-such-profile", name = n)))?,
                None => profiles
                    .active_profile()
                    .ok_or_else(|| CliError::usage(tr!("cli-no-active-profile")))?,
            };
            say_part!(
                "{}",
                toml::to_string_pretty(p).map_err(|e| CliError::usage(e.to_string()))?
            );
            Ok(())
        }
        ProfileCommand::Use { name } => {
            if profiles.get(&name).is_none() {
                return Err(CliError::usage(tr!("cli-no-such-profile", name = name)));
            }
            profiles.active = Some(name.clone());
            profiles.save(&path)?;
            note!("{}", tr!("cli-now-active", name = name));
            Ok(())
        }
        ProfileCommand::Remove { name } => {
            let Some(kind) = profiles.get(&name).map(|p| p.auth.secret_kind()) else {
                return Err(CliError::usage(tr!("cli-no-such-profile", name = name)));
            };
            profiles.remove(&name);
            profiles.save(&path)?;
            let store = settings::secret_store();
            store.delete(&name, kind);
            store.delete(&name, crate::profile::SecretKind::MailPassword);
            note!("{}", tr!("cli-profile-removed", name = name));
            Ok(())
        }
        ProfileCommand::Sender(a) => {
            let (name, mut profile) = chosen(&profiles, a.name.clone())?;
            let s = &mut profile.sender;
            for (value, field) in [
                (&a.organization, &mut s.organization),
                (&a.rut, &mut s.rut),
                (&a.address, &mut s.address),
                (&a.email, &mut s.email),
                (&a.phone, &mut s.phone),
                (&a.payment_text, &mut s.payment_text),
            ] {
                if let Some(v) = value {
                    *field = v.trim().to_string();
                }
            }
            if let Some(logo) = &a.logo {
                // An empty path takes the logo away.
                s.logo = Some(logo.clone()).filter(|l| !l.as_os_str().is_empty());
            }
            profile
                .validate()
                .map_err(|e| CliError::usage(crate::i18n::profile_error(&e)))?;
            profile
                .sender
                .check_logo()
                .map_err(|e| CliError::usage(crate::i18n::sender_problem(&e)))?;
            profiles.upsert(Some(&name), profile.clone())?;
            profiles.save(&path)?;
            say!("{}", sender_lines(&profile.sender));
            Ok(())
        }
        ProfileCommand::Mail(a) => mail_settings(&mut profiles, &path, a),
        ProfileCommand::Add(a) => {
            let auth = match a.mode {
                Mode::Oauth => ProfileAuth::OAuth {
                    auth_url: a.auth_url.clone().ok_or_else(|| required("--auth-url"))?,
                    audience: a.audience.clone().ok_or_else(|| required("--audience"))?,
                    client_id: a.client_id.clone().ok_or_else(|| required("--client-id"))?,
                    body_style: if a.form_body {
                        crate::api::TokenBodyStyle::Form
                    } else {
                        crate::api::TokenBodyStyle::Json
                    },
                },
                Mode::ApiKey => ProfileAuth::ApiKey {
                    header: a.api_key_header.clone(),
                },
            };
            let profile = Profile {
                name: a.name.clone(),
                base_url: a.base_url.clone(),
                auth,
                account_key: a.account_key.clone(),
                account_currency: a.account_currency,
                currencies: if a.currencies.is_empty() {
                    Currency::DEFAULT_OFFERED.to_vec()
                } else {
                    a.currencies.clone()
                },
                sandbox: false,
                // Replacing a profile keeps the sender's details given for it.
                sender: profiles
                    .get(&a.name)
                    .map(|p| p.sender.clone())
                    .unwrap_or_default(),
                // And its mail server.
                mail: profiles
                    .get(&a.name)
                    .map(|p| p.mail.clone())
                    .unwrap_or_default(),
            };
            profile.validate()?;
            let what = match a.mode {
                Mode::Oauth => tr!("cli-secret-client"),
                Mode::ApiKey => tr!("cli-secret-api-key"),
            };
            let secret = read_secret(&what)?;
            let previous = profiles.get(&a.name).map(|p| p.name.clone());
            profiles.upsert(previous.as_deref(), profile.clone())?;
            profiles.save(&path)?;
            let variable = if a.mode == Mode::Oauth {
                "INVOICE_DESK_CLIENT_SECRET"
            } else {
                "INVOICE_DESK_API_KEY"
            };
            let status = settings::secret_store().set(&a.name, profile.auth.secret_kind(), &secret);
            said_stored(status, &a.name, &what, variable);
            Ok(())
        }
    }
}

/// The profile named, else the active one: its name and a copy to change.
fn chosen(profiles: &Profiles, name: Option<String>) -> Result<(String, Profile), CliError> {
    let name = name
        .or_else(|| profiles.active.clone())
        .ok_or_else(|| CliError::usage(tr!("cli-no-profile-chosen")))?;
    match profiles.get(&name).cloned() {
        Some(p) => Ok((name, p)),
        None => Err(CliError::usage(tr!("cli-no-such-profile", name = name))),
    }
}

/// Says where a secret went: the keyring, or (none usable) this run only, with the
/// variable that gives it to later runs.
pub(super) fn said_stored(
    status: crate::profile::StoreStatus,
    name: &str,
    what: &str,
    variable: &str,
) {
    match status {
        crate::profile::StoreStatus::Keyring(store) => note!(
            "{}",
            tr!(
                "cli-saved-in-keyring",
                name = name,
                what = what,
                store = crate::i18n::keyring_name(&store)
            )
        ),
        crate::profile::StoreStatus::SessionOnly(why) => note!(
            "{}",
            tr!(
                "cli-saved-not-stored",
                name = name,
                what = what,
                why = why,
                variable = variable
            )
        ),
    }
}

/// Reads a secret from a hidden prompt (terminal) or the first line of stdin.
pub(super) fn read_secret(what: &str) -> Result<SecretString, CliError> {
    let text = if std::io::stdin().is_terminal() {
        // The prompt starts with a capital ("El secreto del cliente: ").
        let mut prompt: String = what.chars().take(1).flat_map(char::to_uppercase).collect();
        prompt.extend(what.chars().skip(1));
        rpassword::prompt_password(format!("{prompt}: "))
            .map_err(|e| CliError::usage(tr!("cli-secret-unreadable", what = what, why = e)))?
    } else {
        let mut line = String::new();
        std::io::stdin()
            .read_line(&mut line)
            .map_err(|e| CliError::usage(tr!("cli-secret-unreadable", what = what, why = e)))?;
        line
    };
    let text = text.trim_end_matches(['\r', '\n']).to_string();
    if text.trim().is_empty() {
        return Err(CliError::usage(tr!("cli-secret-missing", what = what)));
    }
    Ok(SecretString::from(text))
}

fn required(option: &str) -> CliError {
    CliError::usage(tr!("cli-required-for-oauth", option = option))
}

/// The sender's details, one per line, as a clerk reads them.
fn sender_lines(s: &crate::profile::Sender) -> String {
    let esc = |t: &str| crate::text::escape_controls(t).into_owned();
    let logo = s
        .logo
        .as_ref()
        .map(|l| l.display().to_string())
        .unwrap_or_default();
    [
        (tr!("sender-f-organization"), esc(&s.organization)),
        (tr!("sender-f-rut"), esc(&s.rut)),
        (tr!("sender-f-address"), esc(&s.address)),
        (tr!("sender-f-email"), esc(&s.email)),
        (tr!("sender-f-phone"), esc(&s.phone)),
        (tr!("sender-f-logo"), esc(&logo)),
        (tr!("sender-f-payment"), esc(&s.payment_text)),
    ]
    .iter()
    .map(|(k, v)| format!("{k}: {v}"))
    .collect::<Vec<_>>()
    .join("\n")
}

/// `profile mail`: the options given change, the whole is checked before it is kept,
/// and with a login the password goes to the keyring.
fn mail_settings(
    profiles: &mut Profiles,
    path: &std::path::Path,
    a: super::MailArgs,
) -> Result<(), CliError> {
    use crate::profile::mail::Security;
    let (name, mut profile) = chosen(profiles, a.name.clone())?;
    let m = &mut profile.mail;
    let text = |v: &Option<String>| v.as_deref().map(|t| t.trim().to_string());
    let optional = |v: String| Some(v).filter(|v| !v.is_empty());
    if let Some(v) = text(&a.server) {
        m.server = v;
    }
    if let Some(v) = text(&a.from) {
        m.from = v;
    }
    if let Some(v) = text(&a.user) {
        m.user = optional(v);
    }
    if let Some(v) = text(&a.reply_to) {
        m.reply_to = optional(v);
    }
    if let Some(v) = text(&a.copy_to) {
        m.copy_to = optional(v);
    }
    if let Some(p) = a.port {
        m.port = Some(p);
    }
    if let Some(n) = a.per_minute {
        m.per_minute = n;
    }
    if let Some(s) = a.security {
        m.security = match s {
            super::SecurityArg::Starttls => Security::StartTls,
            super::SecurityArg::Tls => Security::Tls,
            super::SecurityArg::None => Security::None,
        };
    }
    if let Some(ca) = &a.ca_file {
        m.ca_file = Some(ca.clone()).filter(|c| !c.as_os_str().is_empty());
    }
    let checked = m
        .check()
        .map_err(|e| CliError::usage(crate::i18n::mail_problem(&e)))?;
    // The password first: a login without one kept is no use.
    if a.user.as_deref().is_some_and(|u| !u.trim().is_empty()) {
        let what = tr!("cli-secret-mail");
        let secret = match std::env::var("INVOICE_DESK_SMTP_PASSWORD") {
            Ok(p) if !p.is_empty() => SecretString::from(p),
            _ => read_secret(&what)?,
        };
        let status =
            settings::secret_store().set(&name, crate::profile::SecretKind::MailPassword, &secret);
        said_stored(status, &name, &what, "INVOICE_DESK_SMTP_PASSWORD");
    }
    profiles.upsert(Some(&name), profile.clone())?;
    profiles.save(path)?;
    say!("{}", mail_lines(&profile.mail, checked.port));
    Ok(())
}

/// The mail settings, one per line, as a clerk reads them.
fn mail_lines(m: &crate::profile::mail::Settings, port: u16) -> String {
    let esc = |t: &str| crate::text::escape_controls(t).into_owned();
    let none = || tr!("cli-mail-none");
    [
        (
            tr!("cli-mail-f-server"),
            format!("{}:{port}", esc(&m.server)),
        ),
        (tr!("cli-mail-f-security"), m.security.as_str().to_string()),
        (
            tr!("cli-mail-f-user"),
            m.user.as_deref().map(esc).unwrap_or_else(none),
        ),
        (tr!("cli-mail-f-from"), esc(&m.from)),
        (
            tr!("cli-mail-f-reply-to"),
            m.reply_to.as_deref().map(esc).unwrap_or_else(none),
        ),
        (
            tr!("cli-mail-f-copy-to"),
            m.copy_to.as_deref().map(esc).unwrap_or_else(none),
        ),
        (
            tr!("cli-mail-f-per-minute"),
            crate::i18n::mail_rate_text(m.per_minute),
        ),
    ]
    .iter()
    .map(|(k, v)| format!("{k}: {v}"))
    .collect::<Vec<_>>()
    .join("\n")
}
