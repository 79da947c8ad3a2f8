//! `invoice-desk profile …`: profiles in profiles.toml, secrets in the keyring.

use super::{Failure, Mode, ProfileCommand, settings};
use crate::api::Currency;
use crate::profile::{Profile, ProfileAuth, Profiles};
use crate::tr;
use secrecy::SecretString;
use std::io::IsTerminal;

pub(super) fn profile_command(cmd: ProfileCommand) -> Result<(), Failure> {
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
                    .ok_or_else(|| Failure::usage(tr!("cli-no-such-profile", name = n)))?,
                None => profiles
                    .active_profile()
                    .ok_or_else(|| Failure::usage(tr!("cli-no-active-profile")))?,
            };
            say_part!(
                "{}",
                toml::to_string_pretty(p).map_err(|e| Failure::usage(e.to_string()))?
            );
            Ok(())
        }
        ProfileCommand::Use { name } => {
            if profiles.get(&name).is_none() {
                return Err(Failure::usage(tr!("cli-no-such-profile", name = name)));
            }
            profiles.active = Some(name.clone());
            profiles.save(&path)?;
            note!("{}", tr!("cli-now-active", name = name));
            Ok(())
        }
        ProfileCommand::Remove { name } => {
            let Some(kind) = profiles.get(&name).map(|p| p.auth.secret_kind()) else {
                return Err(Failure::usage(tr!("cli-no-such-profile", name = name)));
            };
            profiles.remove(&name);
            profiles.save(&path)?;
            settings::secret_store().delete(&name, kind);
            note!("{}", tr!("cli-profile-removed", name = name));
            Ok(())
        }
        ProfileCommand::Sender(a) => {
            let name = a
                .name
                .clone()
                .or_else(|| profiles.active.clone())
                .ok_or_else(|| Failure::usage(tr!("cli-no-profile-chosen")))?;
            let Some(mut profile) = profiles.get(&name).cloned() else {
                return Err(Failure::usage(tr!("cli-no-such-profile", name = name)));
            };
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
                .map_err(|e| Failure::usage(crate::i18n::profile_error(&e)))?;
            profile
                .sender
                .check_logo()
                .map_err(|e| Failure::usage(crate::i18n::sender_problem(&e)))?;
            profiles.upsert(Some(&name), profile.clone())?;
            profiles.save(&path)?;
            say!("{}", sender_lines(&profile.sender));
            Ok(())
        }
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
            match settings::secret_store().set(&a.name, profile.auth.secret_kind(), &secret) {
                crate::profile::StoreStatus::Keyring(store) => note!(
                    "{}",
                    tr!(
                        "cli-saved-in-keyring",
                        name = a.name,
                        what = what,
                        store = crate::i18n::keyring_name(&store)
                    )
                ),
                crate::profile::StoreStatus::SessionOnly(why) => note!(
                    "{}",
                    tr!(
                        "cli-saved-not-stored",
                        name = a.name,
                        what = what,
                        why = why,
                        variable = if a.mode == Mode::Oauth {
                            "INVOICE_DESK_CLIENT_SECRET"
                        } else {
                            "INVOICE_DESK_API_KEY"
                        }
                    )
                ),
            }
            Ok(())
        }
    }
}

/// Reads a secret from a hidden prompt (terminal) or the first line of stdin.
fn read_secret(what: &str) -> Result<SecretString, Failure> {
    let text = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(format!("{what}: "))
            .map_err(|e| Failure::usage(tr!("cli-secret-unreadable", what = what, why = e)))?
    } else {
        let mut line = String::new();
        std::io::stdin()
            .read_line(&mut line)
            .map_err(|e| Failure::usage(tr!("cli-secret-unreadable", what = what, why = e)))?;
        line
    };
    let text = text.trim_end_matches(['\r', '\n']).to_string();
    if text.trim().is_empty() {
        return Err(Failure::usage(tr!("cli-secret-missing", what = what)));
    }
    Ok(SecretString::from(text))
}

fn required(option: &str) -> Failure {
    Failure::usage(tr!("cli-required-for-oauth", option = option))
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
