//! `invoice-desk profile …`: profiles in profiles.toml, secrets in the keyring.

use super::{Failure, Mode, ProfileCommand, settings};
use crate::api::Currency;
use crate::profile::{Profile, ProfileAuth, Profiles};
use secrecy::SecretString;
use std::io::IsTerminal;

pub(super) fn profile_command(cmd: ProfileCommand) -> Result<(), Failure> {
    let path = settings::profiles_path()?;
    let mut profiles = Profiles::load(&path)?;
    match cmd {
        ProfileCommand::List => {
            if profiles.profiles.is_empty() {
                note!("No profiles. Add one with `invoice-desk profile add`.");
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
                    .ok_or_else(|| Failure::usage(format!("There is no profile named \"{n}\".")))?,
                None => profiles
                    .active_profile()
                    .ok_or_else(|| Failure::usage("There is no active profile."))?,
            };
            say_part!(
                "{}",
                toml::to_string_pretty(p).map_err(|e| Failure::usage(e.to_string()))?
            );
            Ok(())
        }
        ProfileCommand::Use { name } => {
            if profiles.get(&name).is_none() {
                return Err(Failure::usage(format!(
                    "There is no profile named \"{name}\"."
                )));
            }
            profiles.active = Some(name.clone());
            profiles.save(&path)?;
            note!("\"{name}\" is now the active profile.");
            Ok(())
        }
        ProfileCommand::Remove { name } => {
            let Some(kind) = profiles.get(&name).map(|p| p.auth.secret_kind()) else {
                return Err(Failure::usage(format!(
                    "There is no profile named \"{name}\"."
                )));
            };
            profiles.remove(&name);
            profiles.save(&path)?;
            settings::secret_store().delete(&name, kind);
            note!("Removed the profile \"{name}\" and its stored secret.");
            Ok(())
        }
        ProfileCommand::Add(a) => {
            let auth = match a.mode {
                Mode::Oauth => ProfileAuth::OAuth {
                    auth_url: a
                        .auth_url
                        .clone()
                        .ok_or_else(|| Failure::usage("--auth-url is required for OAuth."))?,
                    audience: a
                        .audience
                        .clone()
                        .ok_or_else(|| Failure::usage("--audience is required for OAuth."))?,
                    client_id: a
                        .client_id
                        .clone()
                        .ok_or_else(|| Failure::usage("--client-id is required for OAuth."))?,
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
            };
            profile.validate()?;
            let what = match a.mode {
                Mode::Oauth => "client secret",
                Mode::ApiKey => "API key",
            };
            let secret = read_secret(what)?;
            let previous = profiles.get(&a.name).map(|p| p.name.clone());
            profiles.upsert(previous.as_deref(), profile.clone())?;
            profiles.save(&path)?;
            match settings::secret_store().set(&a.name, profile.auth.secret_kind(), &secret) {
                crate::profile::StoreStatus::Keyring(name) => note!(
                    "Saved \"{}\"; the {what} is in the keyring ({name}).",
                    a.name
                ),
                crate::profile::StoreStatus::SessionOnly(why) => note!(
                    "Saved \"{}\", but the {what} could NOT be stored: no keyring is available ({why}). \
                     Set it in the environment of the job instead (INVOICE_DESK_{}).",
                    a.name,
                    if a.mode == Mode::Oauth {
                        "CLIENT_SECRET"
                    } else {
                        "API_KEY"
                    }
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
            .map_err(|e| Failure::usage(format!("Could not read the {what}: {e}")))?
    } else {
        let mut line = String::new();
        std::io::stdin()
            .read_line(&mut line)
            .map_err(|e| Failure::usage(format!("Could not read the {what}: {e}")))?;
        line
    };
    let text = text.trim_end_matches(['\r', '\n']).to_string();
    if text.trim().is_empty() {
        return Err(Failure::usage(format!("No {what} was given on stdin.")));
    }
    Ok(SecretString::from(text))
}
