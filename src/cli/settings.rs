//! Where the CLI's settings come from: the profile, overridden by INVOICE_DESK_* variables.
//! They are read here rather than through clap's `#[arg(env)]` because most are not
//! arguments at all (secrets must never be on a command line) and each one overrides a
//! profile value that clap does not know.

use super::CliError;
use crate::api::{
    ApiKeySettings, AuthSettings, ClientConfig, Currency, OAuthSettings, TokenBodyStyle,
};
use crate::profile::{ProfileAuth, Profiles, SecretKind, SecretStore};
use crate::tr;
use secrecy::SecretString;
use std::path::PathBuf;

/// "Missing an auth URL: set INVOICE_DESK_AUTH_URL."
fn missing(what: String, variable: &str) -> CliError {
    CliError::usage(tr!("cli-no-setting", what = what, variable = variable))
}

/// The folder of `profiles.toml`: INVOICE_DESK_CONFIG_DIR, else the platform's config dir.
pub fn config_dir() -> Option<PathBuf> {
    match std::env::var_os("INVOICE_DESK_CONFIG_DIR") {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => Profiles::default_path().and_then(|p| p.parent().map(|d| d.to_path_buf())),
    }
}

pub(super) fn profiles_path() -> Result<PathBuf, CliError> {
    config_dir()
        .map(|d| d.join("profiles.toml"))
        .ok_or_else(|| CliError::usage(tr!("cli-no-config-folder")))
}

/// The OS keyring, unless INVOICE_DESK_KEYRING=none.
pub(super) fn secret_store() -> SecretStore {
    match std::env::var("INVOICE_DESK_KEYRING").as_deref() {
        Ok("none") => SecretStore::session_only("INVOICE_DESK_KEYRING=none"),
        _ => SecretStore::platform(),
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// A client configuration and what else the commands need.
pub(super) struct Resolved {
    pub config: ClientConfig,
    /// The profile's name, as journaled ([`crate::journal::ENVIRONMENT_PROFILE`] without one).
    pub profile_name: String,
    pub account_currency: Option<Currency>,
    /// The currencies `create --currency` may use.
    pub currencies: Vec<Currency>,
    /// Who statements of account are from.
    pub sender: crate::profile::Sender,
    /// The mail server customers' e-mails go through.
    pub mail: crate::profile::mail::Settings,
}

/// Profile (named or active, if any) with the environment on top.
pub(super) fn resolve(name: Option<&str>) -> Result<Resolved, CliError> {
    let profiles = match profiles_path() {
        Ok(p) => Profiles::load(&p)?,
        Err(_) => Profiles::default(),
    };
    let profile = match name {
        Some(n) => Some(
            profiles
                .get(n)
                .cloned()
                .ok_or_else(|| CliError::usage(tr!("cli-no-such-profile", name = n)))?,
        ),
        None => profiles.active_profile().cloned(),
    };
    if profile.as_ref().is_some_and(|p| p.sandbox) && env("INVOICE_DESK_BASE_URL").is_none() {
        return Err(CliError::usage(tr!("cli-sandbox-profile")));
    }
    let base_url = env("INVOICE_DESK_BASE_URL")
        .or_else(|| profile.as_ref().map(|p| p.base_url.clone()))
        .ok_or_else(|| CliError::usage(tr!("cli-no-base-url")))?;
    let (p_oauth, p_header) = match profile.as_ref().map(|p| &p.auth) {
        Some(ProfileAuth::OAuth {
            auth_url,
            audience,
            client_id,
            body_style,
        }) => (
            Some((
                auth_url.clone(),
                audience.clone(),
                client_id.clone(),
                *body_style,
            )),
            None,
        ),
        Some(ProfileAuth::ApiKey { header }) => (None, Some(header.clone())),
        None => (None, None),
    };
    let client_id = env("INVOICE_DESK_CLIENT_ID").or_else(|| p_oauth.as_ref().map(|o| o.2.clone()));
    let env_key = env("INVOICE_DESK_API_KEY");
    let store = || secret_store();
    let stored = |kind: SecretKind| -> Result<Option<SecretString>, CliError> {
        match &profile {
            Some(p) => store().get(&p.name, kind).map_err(CliError::from),
            None => Ok(None),
        }
    };
    // With an API key and no client id, the API-key mode is used.
    let auth = if client_id.is_none() && (env_key.is_some() || p_header.is_some()) {
        let key = match env_key {
            Some(k) => SecretString::from(k),
            None => stored(SecretKind::ApiKey)?.ok_or_else(|| CliError {
                code: super::Exit::Auth,
                message: tr!("cli-no-api-key"),
            })?,
        };
        let header = env("INVOICE_DESK_API_KEY_HEADER")
            .or(p_header)
            .unwrap_or_else(|| crate::api::auth::DEFAULT_API_KEY_HEADER.to_string());
        AuthSettings::ApiKey(ApiKeySettings { header, key })
    } else {
        let client_id = client_id.ok_or_else(|| CliError::usage(tr!("cli-no-client-id")))?;
        let auth_url = env("INVOICE_DESK_AUTH_URL")
            .or_else(|| p_oauth.as_ref().map(|o| o.0.clone()))
            .ok_or_else(|| missing(tr!("cli-setting-auth-url"), "INVOICE_DESK_AUTH_URL"))?;
        let audience = env("INVOICE_DESK_AUDIENCE")
            .or_else(|| p_oauth.as_ref().map(|o| o.1.clone()))
            .ok_or_else(|| missing(tr!("cli-setting-audience"), "INVOICE_DESK_AUDIENCE"))?;
        let secret = match env("INVOICE_DESK_CLIENT_SECRET") {
            Some(s) => SecretString::from(s),
            None => stored(SecretKind::ClientSecret)?.ok_or_else(|| CliError {
                code: super::Exit::Auth,
                message: tr!("cli-no-client-secret"),
            })?,
        };
        let body_style = match env("INVOICE_DESK_TOKEN_BODY").as_deref() {
            Some("form") => TokenBodyStyle::Form,
            Some("json") => TokenBodyStyle::Json,
            Some(other) => {
                return Err(CliError::usage(tr!("cli-token-body", value = other)));
            }
            None => p_oauth.as_ref().map_or(TokenBodyStyle::Json, |o| o.3),
        };
        AuthSettings::OAuth(OAuthSettings {
            auth_url,
            audience,
            client_id,
            client_secret: secret,
            body_style,
        })
    };
    let mut config = ClientConfig::new(base_url, auth);
    if let Some(secs) = env("INVOICE_DESK_TIMEOUT") {
        let secs: u64 = secs
            .parse()
            .ok()
            .filter(|n| (1..=3600).contains(n))
            .ok_or_else(|| CliError::usage(tr!("cli-timeout", value = secs)))?;
        config.timeout = std::time::Duration::from_secs(secs);
    }
    if let Some(cap) = env("INVOICE_DESK_MAX_INVOICES") {
        config.max_invoices = cap
            .parse()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| CliError::usage(tr!("cli-max-invoices", value = cap)))?;
    }
    config.account_key = env("INVOICE_DESK_ACCOUNT_KEY")
        .or_else(|| profile.as_ref().map(|p| p.account_key.clone()))
        .filter(|k| !k.is_empty());
    let currencies = match env("INVOICE_DESK_CURRENCIES") {
        Some(list) => Currency::parse_list(&list)
            .map_err(|bad| CliError::usage(tr!("cli-bad-currency", value = bad)))?,
        None => profile.as_ref().map_or_else(
            || Currency::DEFAULT_OFFERED.to_vec(),
            |p| p.currencies.clone(),
        ),
    };
    Ok(Resolved {
        config,
        profile_name: profile.as_ref().map_or_else(
            || crate::journal::ENVIRONMENT_PROFILE.to_string(),
            |p| p.name.clone(),
        ),
        account_currency: profile.as_ref().and_then(|p| p.account_currency),
        currencies,
        mail: profile.as_ref().map(|p| p.mail.clone()).unwrap_or_default(),
        sender: profile.map(|p| p.sender).unwrap_or_default(),
    })
}

/// The journal this computer uses, as the app would: `INVOICE_DESK_JOURNAL`, else the
/// desk's shared journal chosen in the app, else this computer's file; with the shared
/// journal's password and the clerk's name.
pub(super) struct JournalChoice {
    path: Option<PathBuf>,
    password: Option<String>,
    clerk: Option<String>,
}

impl JournalChoice {
    /// Where the search index is kept for this journal.
    pub(super) fn index_place(&self) -> Option<PathBuf> {
        crate::search::index::place_for(self.path.as_deref())
    }

    /// Opens it (creating a file, or a shared journal's tables when the role may).
    pub(super) fn open(&self) -> Result<crate::journal::Journal, crate::journal::JournalError> {
        let path = self
            .path
            .clone()
            .ok_or_else(|| crate::journal::JournalError::Open {
                path: PathBuf::from("journal.sqlite3"),
                why: "this system has no data folder; set INVOICE_DESK_JOURNAL".into(),
                trouble: crate::journal::Trouble::Other,
            })?;
        let mut j = crate::journal::Journal::open_with(&path, self.password.as_deref())?;
        if let Some(name) = &self.clerk {
            j.set_clerk_name(name);
        }
        Ok(j)
    }
}

/// Reads which journal to use (a settings file that cannot be read is an error: it may
/// name the desk's shared journal, and a silent fall back to this computer's file would
/// split the desk's record).
pub(super) fn journal_choice() -> Result<JournalChoice, CliError> {
    let profiles = match profiles_path() {
        Ok(p) => Profiles::load(&p)?,
        Err(_) => Profiles::default(),
    };
    let path = crate::journal::chosen_path(profiles.shared_journal.as_deref());
    let password = match &path {
        Some(p) if crate::journal::is_database_url(&p.to_string_lossy()) => {
            journal_password(&p.to_string_lossy())?
        }
        _ => None,
    };
    let clerk = env("INVOICE_DESK_CLERK").or(profiles.clerk_name);
    Ok(JournalChoice {
        path,
        password,
        clerk,
    })
}

/// The shared journal's password: INVOICE_DESK_JOURNAL_PASSWORD, else the one the app
/// keeps in the keyring for that address.
pub(super) fn journal_password(url: &str) -> Result<Option<String>, CliError> {
    use secrecy::ExposeSecret;
    if let Some(p) = crate::journal::shared_password() {
        return Ok(Some(p));
    }
    Ok(secret_store()
        .get(url.trim(), SecretKind::JournalPassword)?
        .map(|s| s.expose_secret().to_string()))
}
