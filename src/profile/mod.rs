//! Profiles: the non-secret settings in a TOML file in the platform's config folder, and
//! the secrets (client secret, API key) in the OS keyring. Nothing secret is written here.

pub mod mail;
pub mod secrets;
pub mod sender;

use crate::api::{
    self, ApiError, AuthSettings, ClientConfig, Currency, InputError, Setting, TokenBodyStyle,
};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub use secrets::{SecretKind, SecretStore, StoreStatus};
pub use sender::{Sender, SenderError};

/// How a profile authenticates (without its secret).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum ProfileAuth {
    /// OAuth 2.0 client credentials; the client secret is in the keyring.
    #[serde(rename = "oauth")]
    OAuth {
        /// The identity provider's address.
        auth_url: String,
        /// The audience assigned by the operator.
        audience: String,
        /// Client id.
        client_id: String,
        /// JSON (default) or form body.
        #[serde(default)]
        body_style: TokenBodyStyle,
    },
    /// An API key in a header; the key is in the keyring.
    ApiKey {
        /// The header name (`x-api-key` by default).
        header: String,
    },
}

impl ProfileAuth {
    /// The secret this mode needs.
    pub fn secret_kind(&self) -> SecretKind {
        match self {
            ProfileAuth::OAuth { .. } => SecretKind::ClientSecret,
            ProfileAuth::ApiKey { .. } => SecretKind::ApiKey,
        }
    }
}

/// One service connection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    /// Unique name.
    pub name: String,
    /// `{base_url}`.
    pub base_url: String,
    /// Authentication mode and its non-secret settings.
    pub auth: ProfileAuth,
    /// `x-account-key` for invoice creation.
    #[serde(default)]
    pub account_key: String,
    /// The account's currency, if the clerk knows it (display only).
    #[serde(default)]
    pub account_currency: Option<Currency>,
    /// The currencies offered besides the account's (ISO 4217); CLP and CLF unless IT
    /// adds one the service has started to accept.
    #[serde(default = "default_currencies")]
    pub currencies: Vec<Currency>,
    /// The built-in sandbox: started in-process; addresses and credentials come from it.
    #[serde(default)]
    pub sandbox: bool,
    /// Who statements of account are from (organization, RUT, contact, logo, how to pay).
    #[serde(default, skip_serializing_if = "Sender::is_empty")]
    pub sender: Sender,
    /// The mail server customers' e-mails go through (its password is in the keyring).
    #[serde(default, skip_serializing_if = "mail::Settings::is_empty")]
    pub mail: mail::Settings,
}

impl Profile {
    /// A new OAuth profile with empty settings.
    pub fn empty(name: &str) -> Profile {
        Profile {
            name: name.to_string(),
            base_url: String::new(),
            auth: ProfileAuth::OAuth {
                auth_url: String::new(),
                audience: String::new(),
                client_id: String::new(),
                body_style: TokenBodyStyle::Json,
            },
            account_key: String::new(),
            account_currency: None,
            currencies: default_currencies(),
            sandbox: false,
            sender: Sender::default(),
            mail: mail::Settings::default(),
        }
    }

    /// Checks what can be checked without the network.
    pub fn validate(&self) -> Result<(), ProfileError> {
        if self.name.trim().is_empty() {
            return Err(ProfileError::NoName);
        }
        self.sender.validate().map_err(ProfileError::Sender)?;
        if self.sandbox {
            return Ok(());
        }
        api::http::check_url(&self.base_url, Setting::BaseUrl).map_err(ProfileError::Input)?;
        match &self.auth {
            ProfileAuth::OAuth {
                auth_url,
                audience,
                client_id,
                ..
            } => {
                api::http::check_url(auth_url, Setting::AuthUrl).map_err(ProfileError::Input)?;
                let missing = |s| ProfileError::Input(ApiError::invalid(InputError::Missing(s)));
                if audience.trim().is_empty() {
                    return Err(missing(Setting::Audience));
                }
                if client_id.trim().is_empty() {
                    return Err(missing(Setting::ClientId));
                }
            }
            ProfileAuth::ApiKey { header } => {
                let h = if header.trim().is_empty() {
                    api::auth::DEFAULT_API_KEY_HEADER
                } else {
                    header.trim()
                };
                if reqwest::header::HeaderName::from_bytes(h.as_bytes()).is_err() {
                    return Err(ProfileError::Input(ApiError::invalid(
                        InputError::BadHeaderName(h.to_string()),
                    )));
                }
            }
        }
        Ok(())
    }

    /// The API client configuration, given the profile's secret.
    pub fn client_config(&self, secret: SecretString) -> ClientConfig {
        let auth = match &self.auth {
            ProfileAuth::OAuth {
                auth_url,
                audience,
                client_id,
                body_style,
            } => AuthSettings::OAuth(api::OAuthSettings {
                auth_url: auth_url.trim().to_string(),
                audience: audience.trim().to_string(),
                client_id: client_id.trim().to_string(),
                client_secret: secret,
                body_style: *body_style,
            }),
            ProfileAuth::ApiKey { header } => AuthSettings::ApiKey(api::ApiKeySettings {
                header: header.trim().to_string(),
                key: secret,
            }),
        };
        let mut cfg = ClientConfig::new(self.base_url.trim(), auth);
        cfg.account_key = Some(self.account_key.trim().to_string()).filter(|k| !k.is_empty());
        // The app holds a listing in memory (about 1.3 KB an invoice): its own, lower cap.
        cfg.max_invoices = APP_MAX_INVOICES;
        cfg
    }
}

fn default_currencies() -> Vec<Currency> {
    Currency::DEFAULT_OFFERED.to_vec()
}

/// Why a profile, the profiles file or a stored secret could not be used, said in the
/// clerk's language by `i18n::profile_error` (`Display` is for engineers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProfileError {
    /// The profile has no name.
    NoName,
    /// A setting is missing or not valid (an address, the audience, a header name).
    Input(ApiError),
    /// Another profile has that name.
    Exists(String),
    /// The profiles file could not be read (it is never silently replaced).
    Unreadable {
        /// The file.
        path: std::path::PathBuf,
        /// Why, for engineers.
        why: String,
    },
    /// The profiles file could not be written.
    Unsaved {
        /// The file.
        path: std::path::PathBuf,
        /// Why, for engineers.
        why: String,
    },
    /// The keyring refused to give the secret.
    KeyringRead(String),
    /// The sender's details are not valid.
    Sender(SenderError),
}

crate::engineers_text!(ProfileError);

impl std::error::Error for ProfileError {}

/// The most invoices the app reads in one listing (the CLI streams, and allows more).
pub const APP_MAX_INVOICES: u64 = 1_000_000;

/// The profiles file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profiles {
    /// Format version, for upgrades.
    #[serde(default = "version_one")]
    pub version: u32,
    /// The active profile's name.
    #[serde(default)]
    pub active: Option<String>,
    /// The desk's shared journal: a PostgreSQL address, never with its password (that
    /// is in the keyring). `None`: this computer's own journal file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_journal: Option<String>,
    /// The clerk's name as the journal shows it beside the computer's account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clerk_name: Option<String>,
    /// Where the UF's values are read (the CMF's API address; `None`: the CMF's own).
    /// Its key is in the keyring under this address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uf_address: Option<String>,
    /// All profiles.
    #[serde(default, rename = "profile")]
    pub profiles: Vec<Profile>,
}

fn version_one() -> u32 {
    1
}

/// The name given to the built-in sandbox's profile.
pub const SANDBOX_PROFILE: &str = "Sandbox";

impl Profiles {
    /// Where the app keeps its own data (the built-in sandbox's practice data).
    pub fn default_data_path() -> Option<PathBuf> {
        directories::ProjectDirs::from("cl", "invoice-desk", "invoice-desk")
            .map(|d| d.data_dir().join("sandbox.json"))
    }

    /// `profiles.toml` in the platform's config folder (`%APPDATA%` on Windows,
    /// `~/Library/Application Support` on macOS, `$XDG_CONFIG_HOME` on Linux).
    pub fn default_path() -> Option<PathBuf> {
        directories::ProjectDirs::from("cl", "invoice-desk", "invoice-desk")
            .map(|d| d.config_dir().join("profiles.toml"))
    }

    /// Reads the file; a missing file is an empty set. A file that cannot be read is
    /// reported (never silently replaced).
    pub fn load(path: &Path) -> Result<Profiles, ProfileError> {
        let unreadable = |why: String| ProfileError::Unreadable {
            path: path.to_path_buf(),
            why,
        };
        match std::fs::read_to_string(path) {
            Ok(text) => toml::from_str(&text).map_err(|e| unreadable(e.to_string())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Profiles {
                version: 1,
                ..Default::default()
            }),
            Err(e) => Err(unreadable(e.to_string())),
        }
    }

    /// Writes the file atomically (temporary file beside it, then rename).
    pub fn save(&self, path: &Path) -> Result<(), ProfileError> {
        let unsaved = |why: String| ProfileError::Unsaved {
            path: path.to_path_buf(),
            why,
        };
        let text = toml::to_string_pretty(self).map_err(|e| unsaved(e.to_string()))?;
        crate::fsutil::write_atomic(path, text.as_bytes()).map_err(|e| unsaved(e.to_string()))
    }

    /// A profile by name.
    pub fn get(&self, name: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| p.name == name)
    }

    /// The active profile, if any.
    pub fn active_profile(&self) -> Option<&Profile> {
        self.active.as_deref().and_then(|n| self.get(n))
    }

    /// Adds or replaces (by `previous_name`, or by name) a profile.
    pub fn upsert(
        &mut self,
        previous_name: Option<&str>,
        profile: Profile,
    ) -> Result<(), ProfileError> {
        profile.validate()?;
        let key = previous_name.unwrap_or(&profile.name).to_string();
        if profile.name != key && self.get(&profile.name).is_some() {
            return Err(ProfileError::Exists(profile.name.clone()));
        }
        match self.profiles.iter_mut().find(|p| p.name == key) {
            Some(p) => *p = profile.clone(),
            None => self.profiles.push(profile.clone()),
        }
        if self.active.as_deref() == Some(&key) || self.active.is_none() {
            self.active = Some(profile.name);
        }
        Ok(())
    }

    /// Removes a profile; the active one moves to the first remaining.
    pub fn remove(&mut self, name: &str) -> bool {
        let before = self.profiles.len();
        self.profiles.retain(|p| p.name != name);
        if self.active.as_deref() == Some(name) {
            self.active = self.profiles.first().map(|p| p.name.clone());
        }
        before != self.profiles.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_without_secrets() {
        let mut ps = Profiles::default();
        let mut p = Profile::empty("Producción");
        p.base_url = "https://api.example.cl".into();
        p.auth = ProfileAuth::OAuth {
            auth_url: "https://idp.example.cl".into(),
            audience: "https://api.example.cl".into(),
            client_id: "cid".into(),
            body_style: TokenBodyStyle::Json,
        };
        p.account_currency = Some(Currency::CLF);
        ps.upsert(None, p.clone()).unwrap();
        let mut k = Profile::empty("Llave");
        k.base_url = "https://api.example.cl".into();
        k.auth = ProfileAuth::ApiKey {
            header: api::auth::DEFAULT_API_KEY_HEADER.into(),
        };
        ps.upsert(None, k).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("profiles.toml");
        ps.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("secret"), "{text}");
        let back = Profiles::load(&path).unwrap();
        assert_eq!(back, ps);
        assert_eq!(back.active.as_deref(), Some("Producción"));
        assert_eq!(
            Profiles::load(&dir.path().join("none.toml"))
                .unwrap()
                .profiles
                .len(),
            0
        );
        std::fs::write(&path, "not = [toml").unwrap();
        assert!(Profiles::load(&path).is_err());
    }

    #[test]
    fn validation_and_renames() {
        let mut ps = Profiles::default();
        let mut p = Profile::empty("A");
        assert!(ps.upsert(None, p.clone()).is_err(), "no base URL");
        p.base_url = "http://example.cl".into();
        let e = p.validate().unwrap_err();
        assert!(crate::i18n::profile_error(&e).contains("not secure"), "{e}");
        p.base_url = "https://example.cl".into();
        p.auth = ProfileAuth::ApiKey {
            header: String::new(),
        };
        ps.upsert(None, p.clone()).unwrap();
        let mut b = p.clone();
        b.name = "B".into();
        ps.upsert(None, b).unwrap();
        let mut renamed = p.clone();
        renamed.name = "B".into();
        assert!(ps.upsert(Some("A"), renamed).is_err(), "name taken");
        let mut renamed = p;
        renamed.name = "C".into();
        ps.upsert(Some("A"), renamed).unwrap();
        assert_eq!(ps.active.as_deref(), Some("C"));
        assert!(ps.remove("C"));
        assert_eq!(ps.active.as_deref(), Some("B"));
    }
}
