//! Secrets in the OS keyring (macOS Keychain, Windows Credential Manager, Linux Secret
//! Service), through keyring-core. When no keyring can be used the clerk is told, and the
//! secret is kept in memory for this session only: never written to a file.

use keyring_core::{CredentialStore, Error as KeyringError};
use secrecy::{ExposeSecret, SecretString};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The keyring "service" under which every secret of the app is stored.
pub const SERVICE: &str = "invoice-desk";

/// Which secret of a profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SecretKind {
    /// The OAuth client secret.
    ClientSecret,
    /// The API key.
    ApiKey,
    /// The shared journal's database password (the "profile" is its address).
    JournalPassword,
    /// The mail server's password.
    MailPassword,
    /// The CMF API's key for the UF's values (the "profile" is the API's address).
    CmfKey,
}

impl SecretKind {
    fn user(self, profile: &str) -> String {
        match self {
            SecretKind::ClientSecret => format!("{profile}/client_secret"),
            SecretKind::ApiKey => format!("{profile}/api_key"),
            SecretKind::JournalPassword => format!("journal/{profile}/password"),
            SecretKind::MailPassword => format!("{profile}/smtp_password"),
            SecretKind::CmfKey => format!("uf/{profile}/api_key"),
        }
    }
}

/// Which keyring keeps the secrets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyringKind {
    /// The freedesktop Secret Service (GNOME Keyring, KWallet, KeePassXC).
    SecretService,
    /// The macOS Keychain.
    Keychain,
    /// The Windows Credential Manager.
    WindowsCredentials,
    /// Another store (the mock store in tests), by its vendor string.
    Other(String),
}

impl KeyringKind {
    /// From keyring-core's vendor string (which names the crate, with its address).
    pub fn from_vendor(vendor: &str) -> KeyringKind {
        let v = vendor.to_ascii_lowercase();
        if v.contains("secret-service") || v.contains("secret service") {
            KeyringKind::SecretService
        } else if v.contains("apple") || v.contains("keychain") {
            KeyringKind::Keychain
        } else if v.contains("windows") {
            KeyringKind::WindowsCredentials
        } else {
            KeyringKind::Other(
                vendor
                    .split(',')
                    .next()
                    .unwrap_or(vendor)
                    .trim()
                    .to_string(),
            )
        }
    }
}

impl std::fmt::Display for KeyringKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyringKind::SecretService => write!(f, "Secret Service"),
            KeyringKind::Keychain => write!(f, "macOS Keychain"),
            KeyringKind::WindowsCredentials => write!(f, "Windows Credential Manager"),
            KeyringKind::Other(v) => write!(f, "{v}"),
        }
    }
}

/// Where secrets are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreStatus {
    /// The OS keyring works.
    Keyring(KeyringKind),
    /// No keyring: secrets live for this session only; why (technical, for Details).
    SessionOnly(String),
}

/// The secret store: the OS keyring when there is one, else memory for this session.
pub struct SecretStore {
    keyring: Option<Arc<CredentialStore>>,
    status: Mutex<StoreStatus>,
    session: Mutex<HashMap<String, SecretString>>,
}

impl std::fmt::Debug for SecretStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecretStore")
            .field("status", &self.status())
            .finish_non_exhaustive()
    }
}

impl SecretStore {
    /// The platform's keyring. This may talk to a system service: call it off the UI thread.
    pub fn platform() -> SecretStore {
        match platform_store() {
            Ok(store) => SecretStore::with_store(store),
            Err(why) => SecretStore::session_only(&why),
        }
    }

    /// A store backed by `store` (the mock store in tests).
    pub fn with_store(store: Arc<CredentialStore>) -> SecretStore {
        let kind = KeyringKind::from_vendor(&store.vendor());
        SecretStore {
            keyring: Some(store),
            status: Mutex::new(StoreStatus::Keyring(kind)),
            session: Mutex::new(HashMap::new()),
        }
    }

    /// No keyring: memory for this session only.
    pub fn session_only(why: &str) -> SecretStore {
        SecretStore {
            keyring: None,
            status: Mutex::new(StoreStatus::SessionOnly(why.to_string())),
            session: Mutex::new(HashMap::new()),
        }
    }

    /// Where secrets go now.
    pub fn status(&self) -> StoreStatus {
        self.status
            .lock()
            .map(|s| s.clone())
            .unwrap_or_else(|_| StoreStatus::SessionOnly("internal error".into()))
    }

    fn degrade(&self, why: String) {
        if let Ok(mut s) = self.status.lock() {
            *s = StoreStatus::SessionOnly(why);
        }
    }

    /// Stores a secret. Returns where it went; a keyring failure keeps it for the session
    /// and says so.
    pub fn set(&self, profile: &str, kind: SecretKind, secret: &SecretString) -> StoreStatus {
        let user = kind.user(profile);
        if let Some(store) = &self.keyring
            && matches!(self.status(), StoreStatus::Keyring(_))
        {
            match store
                .build(SERVICE, &user, None)
                .and_then(|e| e.set_password(secret.expose_secret()))
            {
                Ok(()) => {
                    self.forget_session(&user);
                    return self.status();
                }
                Err(e) => self.degrade(describe(&e)),
            }
        }
        if let Ok(mut m) = self.session.lock() {
            m.insert(user, secret.clone());
        }
        self.status()
    }

    /// Reads a secret: this session's copy first, then the keyring.
    pub fn get(
        &self,
        profile: &str,
        kind: SecretKind,
    ) -> Result<Option<SecretString>, super::ProfileError> {
        let user = kind.user(profile);
        if let Some(s) = self.session.lock().ok().and_then(|m| m.get(&user).cloned()) {
            return Ok(Some(s));
        }
        let Some(store) = &self.keyring else {
            return Ok(None);
        };
        match store
            .build(SERVICE, &user, None)
            .and_then(|e| e.get_password())
        {
            Ok(p) => Ok(Some(SecretString::from(p))),
            Err(KeyringError::NoEntry) => Ok(None),
            Err(e) => Err(super::ProfileError::KeyringRead(describe(&e))),
        }
    }

    /// Deletes a secret everywhere.
    pub fn delete(&self, profile: &str, kind: SecretKind) {
        let user = kind.user(profile);
        self.forget_session(&user);
        if let Some(store) = &self.keyring
            && let Ok(e) = store.build(SERVICE, &user, None)
        {
            let _ = e.delete_credential();
        }
    }

    /// Moves a profile's secrets of `kinds` from name `old` to `new` (a profile renamed):
    /// one `new` already has is kept, the old one deleted either way.
    pub fn rename(&self, old: &str, new: &str, kinds: &[SecretKind]) {
        for &kind in kinds {
            if let Ok(Some(s)) = self.get(old, kind)
                && !matches!(self.get(new, kind), Ok(Some(_)))
            {
                self.set(new, kind, &s);
            }
            self.delete(old, kind);
        }
    }

    fn forget_session(&self, user: &str) {
        if let Ok(mut m) = self.session.lock() {
            m.remove(user);
        }
    }
}

fn describe(e: &KeyringError) -> String {
    match e {
        KeyringError::NoStorageAccess(inner) => {
            format!("the keyring is locked or refused access: {inner}")
        }
        KeyringError::PlatformFailure(inner) => format!("the keyring failed: {inner}"),
        KeyringError::NoDefaultStore => "no keyring is configured".into(),
        other => other.to_string(),
    }
}

#[cfg(target_os = "macos")]
fn platform_store() -> Result<Arc<CredentialStore>, String> {
    apple_native_keyring_store::keychain::Store::new()
        .map(|s| s as Arc<CredentialStore>)
        .map_err(|e| describe(&e))
}

#[cfg(target_os = "windows")]
fn platform_store() -> Result<Arc<CredentialStore>, String> {
    windows_native_keyring_store::Store::new()
        .map(|s| s as Arc<CredentialStore>)
        .map_err(|e| describe(&e))
}

#[cfg(all(
    unix,
    not(any(target_os = "macos", target_os = "ios", target_os = "android"))
))]
fn platform_store() -> Result<Arc<CredentialStore>, String> {
    zbus_secret_service_keyring_store::Store::new()
        .map(|s| s as Arc<CredentialStore>)
        .map_err(|e| format!("Secret Service: {}", describe(&e)))
}

#[cfg(not(any(
    target_os = "macos",
    target_os = "windows",
    all(
        unix,
        not(any(target_os = "macos", target_os = "ios", target_os = "android"))
    )
)))]
fn platform_store() -> Result<Arc<CredentialStore>, String> {
    Err("this platform has no supported keyring".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mock_keyring_round_trip() {
        let store = SecretStore::with_store(keyring_core::mock::Store::new().unwrap());
        assert!(matches!(store.status(), StoreStatus::Keyring(_)));
        assert_eq!(
            store
                .get("p", SecretKind::ApiKey)
                .unwrap()
                .map(|s| s.expose_secret().to_string()),
            None
        );
        store.set("p", SecretKind::ApiKey, &SecretString::from("k1"));
        assert_eq!(
            store
                .get("p", SecretKind::ApiKey)
                .unwrap()
                .unwrap()
                .expose_secret(),
            "k1"
        );
        assert_eq!(
            store
                .get("p", SecretKind::ClientSecret)
                .unwrap()
                .map(|_| ()),
            None
        );
        store.delete("p", SecretKind::ApiKey);
        assert!(store.get("p", SecretKind::ApiKey).unwrap().is_none());
    }

    #[test]
    fn a_renamed_profile_takes_its_secrets_along() {
        let store = SecretStore::with_store(keyring_core::mock::Store::new().unwrap());
        store.set("viejo", SecretKind::ClientSecret, &SecretString::from("s1"));
        store.set("viejo", SecretKind::MailPassword, &SecretString::from("m1"));
        // A secret typed with the rename is the new one.
        store.set("nuevo", SecretKind::ClientSecret, &SecretString::from("s2"));
        store.rename(
            "viejo",
            "nuevo",
            &[SecretKind::ClientSecret, SecretKind::MailPassword],
        );
        let got = |p: &str, k| {
            store
                .get(p, k)
                .unwrap()
                .map(|s| s.expose_secret().to_string())
        };
        assert_eq!(
            got("nuevo", SecretKind::ClientSecret).as_deref(),
            Some("s2")
        );
        assert_eq!(
            got("nuevo", SecretKind::MailPassword).as_deref(),
            Some("m1")
        );
        assert_eq!(got("viejo", SecretKind::ClientSecret), None);
        assert_eq!(got("viejo", SecretKind::MailPassword), None);
    }

    #[test]
    fn session_only_keeps_secrets_in_memory() {
        let store = SecretStore::session_only("test");
        assert!(matches!(store.status(), StoreStatus::SessionOnly(_)));
        store.set("p", SecretKind::ClientSecret, &SecretString::from("s"));
        assert_eq!(
            store
                .get("p", SecretKind::ClientSecret)
                .unwrap()
                .unwrap()
                .expose_secret(),
            "s"
        );
    }
}
