//! A connected profile, and connecting one: its secret from the keyring (off the UI
//! thread), its API client, or the built-in sandbox started in-process.

use crate::api::Client;
use crate::profile::{Profile, ProfileAuth, SANDBOX_PROFILE, SecretStore};
use crate::tr;
use secrecy::SecretString;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::OnceCell;

/// A connected profile.
pub struct Session {
    /// The profile.
    pub profile: Profile,
    /// Its API client (holds the token cache).
    pub client: Client,
    /// Sandbox customers (id, name) when the profile is the built-in sandbox.
    pub sandbox_customers: Vec<(String, String)>,
    /// The built-in sandbox's customers as a directory knows them (name, RUT), so a
    /// newcomer finds them by name; empty for a real service.
    pub sandbox_directory: Vec<crate::journal::Customer>,
}

/// What this session has learnt of a profile's connection (kept per profile while the
/// app runs; a profile with no entry has not been checked yet).
#[derive(Clone, Debug, PartialEq)]
pub enum ProfileCheck {
    /// The service answered as the invoicing service, at this time.
    Working {
        /// When.
        at: chrono::DateTime<chrono::Local>,
    },
    /// It failed, and why (in the clerk's language).
    Failed {
        /// Why.
        why: String,
        /// When.
        at: chrono::DateTime<chrono::Local>,
    },
}

/// The built-in sandbox, started on first use and shared by every connection to it.
#[cfg(feature = "sandbox")]
pub type SandboxCell = Arc<OnceCell<Arc<crate::sandbox::Sandbox>>>;

/// Where a profile is connected from: the secret store and, for the sandbox profile, the
/// in-process sandbox and its data file.
#[derive(Clone)]
pub struct Connector {
    /// The secret store, opened lazily.
    pub secrets: Arc<OnceCell<Arc<SecretStore>>>,
    /// The in-process sandbox.
    #[cfg(feature = "sandbox")]
    pub sandbox: SandboxCell,
    /// Where the sandbox keeps its data.
    pub sandbox_data: Option<PathBuf>,
}

impl Connector {
    /// Connects `profile`: reads its secret and builds its client. Runs on the runtime.
    pub async fn connect(self, profile: Profile) -> Result<Session, String> {
        if profile.sandbox {
            #[cfg(feature = "sandbox")]
            return connect_sandbox(profile, self.sandbox, self.sandbox_data).await;
            #[cfg(not(feature = "sandbox"))]
            return Err(tr!("err-no-sandbox"));
        }
        let store = get_secrets(&self.secrets).await;
        let kind = profile.auth.secret_kind();
        let name = profile.name.clone();
        let secret = tokio::task::spawn_blocking(move || store.get(&name, kind))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| crate::i18n::profile_error(&e))?;
        let Some(secret) = secret else {
            let what = match profile.auth {
                ProfileAuth::OAuth { .. } => tr!("secret-client"),
                ProfileAuth::ApiKey { .. } => tr!("secret-api-key"),
            };
            return Err(tr!("err-no-secret", what = what, profile = profile.name));
        };
        let client =
            Client::new(profile.client_config(secret)).map_err(|e| crate::i18n::error_text(&e))?;
        Ok(Session {
            profile,
            client,
            sandbox_customers: Vec::new(),
            sandbox_directory: Vec::new(),
        })
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

/// The profile "Try the sandbox" creates.
pub fn sandbox_profile() -> Profile {
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
        account_currency: Some(crate::api::Currency::CLP),
        currencies: crate::api::Currency::DEFAULT_OFFERED.to_vec(),
        sandbox: true,
        sender: Default::default(),
        mail: Default::default(),
    }
}

#[cfg(feature = "sandbox")]
async fn connect_sandbox(
    profile: Profile,
    cell: SandboxCell,
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
        .map_err(|e| crate::i18n::error_text(&e))?;
    let sandbox_customers = sandbox
        .customers()
        .into_iter()
        .map(|(id, name, _)| (id, name))
        .collect();
    let sandbox_directory = sandbox
        .directory()
        .into_iter()
        .map(|(id, name, rut)| crate::journal::Customer {
            id,
            name: Some(name),
            rut: crate::rut::Rut::parse(&rut).ok().map(|r| r.to_string()),
            notes: None,
            emails: Vec::new(),
        })
        .collect();
    Ok(Session {
        profile,
        client,
        sandbox_customers,
        sandbox_directory,
    })
}

impl Session {
    /// A billing run's sender on this session's profile and client, writing `journal`.
    pub fn runner(
        &self,
        journal: crate::journal::SharedJournal,
        control: std::sync::Arc<crate::bulk::run::Control>,
        allow_similar: crate::bulk::run::AllowSimilar,
    ) -> crate::bulk::run::Runner {
        let profile = &self.profile;
        crate::bulk::run::Runner {
            client: self.client.clone(),
            journal,
            base_url: profile.base_url.trim().to_string(),
            profile: profile.name.clone(),
            profile_account: Some(profile.account_key.trim().to_string()).filter(|k| !k.is_empty()),
            control,
            allow_similar,
            four_eyes: crate::bulk::run::FourEyes::default(),
        }
    }
}
