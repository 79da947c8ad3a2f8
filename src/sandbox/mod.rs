//! The built-in sandbox: a local implementation of the invoicing service and its token
//! issuer (axum), with seed data and behaviour knobs for tests and demos.
//!
//! Decisions where the interface is silent (documented in docs/service.md):
//! - Voiding a void invoice, or a paid one, answers 409 (`TK10601`, `TK10602`).
//! - Faults `status`/`rate_limit` answer before any work; `reset`/`hang` do the work and
//!   then lose (or delay) the answer, which is what makes an outcome unknown.
//! - The listing includes void invoices (with `is_void: true`), ordered by creation.
//! - `/cmf/uf/…` serves the UF's values as the CMF's API does (`uf.rs`), for the key
//!   [`CMF_KEY`].

/// The key the sandbox's CMF routes take (`apikey=`): not a secret, as the sandbox's
/// credentials are not.
pub const CMF_KEY: &str = crate::uf::SANDBOX_KEY;

mod big;
pub mod data;
mod routes;
pub mod uf;

use data::Data;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How to start a sandbox.
#[derive(Clone, Debug)]
pub struct SandboxConfig {
    /// Address to listen on; loopback unless told otherwise.
    pub bind: IpAddr,
    /// Port of the invoice API (0: any free port).
    pub port: u16,
    /// A separate port for the token issuer (`None`: same origin as the API).
    pub auth_port: Option<u16>,
    /// Seed of the generated data.
    pub seed: u64,
    /// Invoices of the big customer `cus_big` (0: no such customer).
    pub big_customer_invoices: usize,
    /// More customers (`cus_m00000`…), for a book of many customers (receivables).
    pub extra_customers: usize,
    /// Invoices each of those has.
    pub invoices_each: usize,
    /// Keep the data in this JSON file (loaded if it exists, written on every change).
    pub data_file: Option<PathBuf>,
    /// Lifetime of issued tokens.
    pub token_lifetime: Duration,
    /// Added to every request.
    pub latency: Duration,
    /// The audience tokens are issued for.
    pub audience: String,
    /// Largest `page_size` honoured in listings.
    pub max_page_size: usize,
    /// The `currency_code` values it accepts (like the real service, CLP and CLF unless
    /// told otherwise); any other is refused with a 422 on `currency_code`.
    pub currencies: Vec<crate::api::Currency>,
    /// Creates and voids whose client went away (killed, timed out) are still carried
    /// out, as a real service does; otherwise they are dropped with the connection.
    pub finish_abandoned: bool,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            auth_port: None,
            seed: 1,
            big_customer_invoices: 0,
            extra_customers: 0,
            invoices_each: 200,
            data_file: None,
            token_lifetime: Duration::from_secs(3600),
            latency: Duration::ZERO,
            audience: "https://sandbox.invoice-desk.invalid/api".into(),
            max_page_size: 1000,
            currencies: crate::api::Currency::DEFAULT_OFFERED.to_vec(),
            finish_abandoned: false,
        }
    }
}

/// Which route a fault applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Route {
    /// `POST /oauth/token`.
    Token,
    /// `POST /invoices`.
    Create,
    /// `GET /invoice/{id}`.
    Get,
    /// `POST /invoices/{id}/void`.
    Void,
    /// `GET /invoices/customer/{id}`.
    List,
    /// `GET /cmf/uf/…`: the UF's values, as the CMF's API serves them.
    Uf,
}

/// What a fault does. (A [`Fault`] is a flat struct holding this kind and its numbers, not
/// a tagged enum: serde's buffering of tagged enums loses numbers under serde_json's
/// `arbitrary_precision`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// Answer `status` (with an error body) before doing anything.
    Status,
    /// Answer 429 with `Retry-After: secs` before doing anything.
    RateLimit,
    /// Do the work, then break the connection instead of answering.
    Reset,
    /// Do the work, then wait `secs` before answering.
    Hang,
    /// Wait `ms` milliseconds (else `secs`), then do the work and answer: a request the
    /// service is still working on (with `finish_abandoned`, even after its client left).
    Slow,
}

/// A planned fault: the next `count` requests to `route` get `kind`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// The route.
    pub route: Route,
    /// How many requests.
    pub count: u32,
    /// What happens to them.
    pub kind: FaultKind,
    /// The status for `status` faults.
    #[serde(default)]
    pub status: u16,
    /// Seconds: `Retry-After` for `rate_limit`, the wait for `hang` and `slow`.
    #[serde(default)]
    pub secs: u64,
    /// Milliseconds for `slow` (when not zero, instead of `secs`).
    #[serde(default)]
    pub ms: u64,
}

impl Fault {
    /// The next `count` requests to `route` answer `status`.
    pub fn status(route: Route, count: u32, status: u16) -> Fault {
        Fault {
            route,
            count,
            kind: FaultKind::Status,
            status,
            secs: 0,
            ms: 0,
        }
    }

    /// The next `count` requests to `route` answer 429 with `Retry-After: secs`.
    pub fn rate_limit(route: Route, count: u32, secs: u64) -> Fault {
        Fault {
            route,
            count,
            kind: FaultKind::RateLimit,
            status: 429,
            secs,
            ms: 0,
        }
    }

    /// The next `count` requests to `route` are done, then their connection is broken.
    pub fn reset(route: Route, count: u32) -> Fault {
        Fault {
            route,
            count,
            kind: FaultKind::Reset,
            status: 0,
            secs: 0,
            ms: 0,
        }
    }

    /// The next `count` requests to `route` are done, then answered after `secs`.
    pub fn hang(route: Route, count: u32, secs: u64) -> Fault {
        Fault {
            route,
            count,
            kind: FaultKind::Hang,
            status: 0,
            secs,
            ms: 0,
        }
    }

    /// The next `count` requests to `route` wait `ms` milliseconds before the work.
    pub fn slow(route: Route, count: u32, ms: u64) -> Fault {
        Fault {
            route,
            count,
            kind: FaultKind::Slow,
            status: 0,
            secs: 0,
            ms,
        }
    }
}

/// Request counters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Token requests answered (any outcome).
    pub token_requests: u64,
    /// Tokens issued.
    pub tokens_issued: u64,
    /// API requests per route (`"create"`, `"get"`, …).
    pub api: BTreeMap<String, u64>,
}

#[derive(Debug)]
struct Knobs {
    token_lifetime: Duration,
    /// How far the issuer's clock is ahead of this computer's ([`Sandbox::advance_clock`]).
    clock_ahead: Duration,
    latency: Duration,
    faults: Vec<Fault>,
    token_generation: u64,
    finish_abandoned: bool,
}

pub(crate) struct Shared {
    data: Mutex<Data>,
    data_file: Option<PathBuf>,
    jwt_key: Vec<u8>,
    audience: String,
    issuer: String,
    knobs: Mutex<Knobs>,
    counters: Mutex<Counters>,
    /// The reference of every create received (its handler started), in order: what a
    /// client sent, whether or not it was then created (see [`Sandbox::received_references`]).
    received: Mutex<Vec<String>>,
    /// Creates being answered now, and how many were when each arrived (itself
    /// included), in order (see [`Sandbox::creates_at_once`]).
    creates_now: std::sync::atomic::AtomicU32,
    creates_at_once: Mutex<Vec<u32>>,
    max_page_size: usize,
    currencies: Vec<crate::api::Currency>,
}

impl Shared {
    /// Notes the reference a create request carries, as it arrives.
    fn note_received(&self, body: &[u8]) {
        let reference = serde_json::from_slice::<serde_json::Value>(body)
            .ok()
            .and_then(|v| v.get("invoice_external_id")?.as_str().map(str::to_string));
        if let (Some(r), Ok(mut all)) = (reference, self.received.lock())
            && all.len() < MAX_RECEIVED
        {
            all.push(r);
        }
    }

    /// A create arrives: counted as being answered until what this returns is dropped.
    fn answering(&self) -> Answering<'_> {
        use std::sync::atomic::Ordering;
        let now = self
            .creates_now
            .fetch_add(1, Ordering::SeqCst)
            .saturating_add(1);
        if let Ok(mut all) = self.creates_at_once.lock()
            && all.len() < MAX_RECEIVED
        {
            all.push(now);
        }
        Answering(self)
    }

    /// Changes the behaviour knobs (for the `Sandbox` methods and the admin routes alike).
    fn knobs(&self, change: impl FnOnce(&mut Knobs)) {
        if let Ok(mut k) = self.knobs.lock() {
            change(&mut k);
        }
    }
}

/// A create being answered (see [`Shared::answering`]).
pub(crate) struct Answering<'a>(&'a Shared);

impl Drop for Answering<'_> {
    fn drop(&mut self) {
        self.0
            .creates_now
            .fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// How many received references a sandbox keeps (a long session's memory stays bounded).
pub const MAX_RECEIVED: usize = 1_000_000;

/// Ready-made credentials of a running sandbox.
#[derive(Clone, Debug)]
pub struct SandboxCredentials {
    /// OAuth client id.
    pub client_id: String,
    /// OAuth client secret.
    pub client_secret: String,
    /// The OAuth organization's old API key, refused since OAuth was enabled.
    pub oauth_org_old_api_key: String,
    /// API key of the organization without OAuth.
    pub api_key: String,
    /// OAuth organization's CLP account key.
    pub account_clp: String,
    /// OAuth organization's CLF account key.
    pub account_clf: String,
    /// API-key organization's CLP account key.
    pub key_account_clp: String,
    /// API-key organization's CLF account key.
    pub key_account_clf: String,
}

/// A running sandbox. Dropping it stops the servers.
pub struct Sandbox {
    /// `{base_url}` of the invoice API.
    pub base_url: String,
    /// `{auth_url}` of the token issuer.
    pub auth_url: String,
    /// Audience to ask tokens for.
    pub audience: String,
    /// Credentials to use.
    pub credentials: SandboxCredentials,
    shared: Arc<Shared>,
    shutdown: Vec<tokio::sync::oneshot::Sender<()>>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

impl Sandbox {
    /// Starts the sandbox on the current tokio runtime.
    pub async fn start(cfg: SandboxConfig) -> std::io::Result<Sandbox> {
        if let Some(path) = &cfg.data_file {
            // A killed sandbox may have left a half-written temporary file.
            crate::fsutil::remove_stale_temps(path);
        }
        let data = match &cfg.data_file {
            Some(path) if path.exists() => {
                Data::load(path, cfg.big_customer_invoices).map_err(|e| {
                    std::io::Error::other(format!(
                        "cannot read sandbox data {}: {e}",
                        path.display()
                    ))
                })?
            }
            Some(path) => {
                let d = Data::seeded(cfg.seed, cfg.big_customer_invoices);
                d.save(path).map_err(|e| {
                    std::io::Error::other(format!(
                        "cannot write sandbox data {}: {e}",
                        path.display()
                    ))
                })?;
                d
            }
            None => Data::seeded(cfg.seed, cfg.big_customer_invoices),
        };
        let mut data = data;
        data.add_customers(cfg.extra_customers, cfg.invoices_each);
        let api_listener =
            tokio::net::TcpListener::bind(SocketAddr::new(cfg.bind, cfg.port)).await?;
        let api_addr = api_listener.local_addr()?;
        let auth_listener = match cfg.auth_port {
            Some(p) => Some(tokio::net::TcpListener::bind(SocketAddr::new(cfg.bind, p)).await?),
            None => None,
        };
        let host = |addr: SocketAddr| match addr.ip() {
            IpAddr::V4(ip) if ip.is_unspecified() => format!("http://127.0.0.1:{}", addr.port()),
            IpAddr::V6(ip) if ip.is_unspecified() => format!("http://[::1]:{}", addr.port()),
            _ => format!("http://{addr}"),
        };
        let base_url = host(api_addr);
        let auth_url = match &auth_listener {
            Some(l) => host(l.local_addr()?),
            None => base_url.clone(),
        };
        let org_oauth = data.orgs.iter().find(|o| o.id == data::ORG_OAUTH).cloned();
        let org_key = data.orgs.iter().find(|o| o.id == data::ORG_KEY).cloned();
        let (Some(org_oauth), Some(org_key)) = (org_oauth, org_key) else {
            return Err(std::io::Error::other("sandbox data has no organizations"));
        };
        let credentials = SandboxCredentials {
            client_id: org_oauth.client_id.clone(),
            client_secret: org_oauth.client_secret.clone(),
            oauth_org_old_api_key: org_oauth.api_key.clone(),
            api_key: org_key.api_key.clone(),
            account_clp: "acc_oauth_clp".into(),
            account_clf: "acc_oauth_clf".into(),
            key_account_clp: "acc_key_clp".into(),
            key_account_clf: "acc_key_clf".into(),
        };
        let shared = Arc::new(Shared {
            data: Mutex::new(data),
            data_file: cfg.data_file.clone(),
            jwt_key: uuid::Uuid::new_v4()
                .as_bytes()
                .iter()
                .chain(uuid::Uuid::new_v4().as_bytes())
                .copied()
                .collect(),
            audience: cfg.audience.clone(),
            issuer: auth_url.clone(),
            knobs: Mutex::new(Knobs {
                token_lifetime: cfg.token_lifetime,
                clock_ahead: Duration::ZERO,
                latency: cfg.latency,
                faults: Vec::new(),
                token_generation: 0,
                finish_abandoned: cfg.finish_abandoned,
            }),
            counters: Mutex::new(Counters::default()),
            received: Mutex::default(),
            creates_now: Default::default(),
            creates_at_once: Mutex::default(),
            max_page_size: cfg.max_page_size.max(1),
            currencies: cfg.currencies.clone(),
        });
        let mut shutdown = Vec::new();
        let mut tasks = Vec::new();
        let serve = |listener: tokio::net::TcpListener, router: axum::Router| {
            let (tx, rx) = tokio::sync::oneshot::channel::<()>();
            let task = tokio::spawn(async move {
                let service = router.into_make_service_with_connect_info::<SocketAddr>();
                let _ = axum::serve(listener, service)
                    .with_graceful_shutdown(async {
                        let _ = rx.await;
                    })
                    .await;
            });
            (tx, task)
        };
        let with_auth = auth_listener.is_none();
        let (tx, task) = serve(api_listener, routes::router(shared.clone(), with_auth));
        shutdown.push(tx);
        tasks.push(task);
        if let Some(l) = auth_listener {
            let (tx, task) = serve(l, routes::auth_router(shared.clone()));
            shutdown.push(tx);
            tasks.push(task);
        }
        Ok(Sandbox {
            base_url,
            auth_url,
            audience: cfg.audience,
            credentials,
            shared,
            shutdown,
            tasks,
        })
    }

    /// A profile for this sandbox's OAuth organization, issuing on its CLP account. Its
    /// secret is [`SandboxCredentials::client_secret`].
    pub fn profile(&self, name: &str) -> crate::profile::Profile {
        crate::profile::Profile {
            name: name.to_string(),
            base_url: self.base_url.clone(),
            auth: crate::profile::ProfileAuth::OAuth {
                auth_url: self.auth_url.clone(),
                audience: self.audience.clone(),
                client_id: self.credentials.client_id.clone(),
                body_style: Default::default(),
            },
            account_key: self.credentials.account_clp.clone(),
            account_currency: Some(crate::api::Currency::CLP),
            currencies: self.shared.currencies.clone(),
            sandbox: false,
            sender: Default::default(),
            mail: Default::default(),
        }
    }

    /// Moves the token issuer's clock forward (tokens issued before expire as if that much
    /// time had passed): tests of expiry wait for nothing.
    pub fn advance_clock(&self, by: Duration) {
        self.shared.knobs(|k| k.clock_ahead += by);
    }

    /// Changes the lifetime of tokens issued from now on.
    pub fn set_token_lifetime(&self, lifetime: Duration) {
        self.shared
            .knobs(|k| k.token_lifetime = lifetime.max(Duration::from_secs(1)));
    }

    /// Adds latency to every request.
    pub fn set_latency(&self, latency: Duration) {
        self.shared.knobs(|k| k.latency = latency);
    }

    /// Carries out creates and voids to their end even when their client goes away.
    pub fn set_finish_abandoned(&self, on: bool) {
        self.shared.knobs(|k| k.finish_abandoned = on);
    }

    /// Plans a fault.
    pub fn add_fault(&self, fault: Fault) {
        self.shared.knobs(|k| k.faults.push(fault));
    }

    /// Removes all planned faults.
    pub fn clear_faults(&self) {
        self.shared.knobs(|k| k.faults.clear());
    }

    /// Makes every token issued so far invalid.
    pub fn revoke_tokens(&self) {
        self.shared.knobs(|k| k.token_generation += 1);
    }

    /// For each create received so far (up to [`MAX_RECEIVED`]), in order: how many
    /// creates were being answered when it arrived, itself included.
    pub fn creates_at_once(&self) -> Vec<u32> {
        self.shared
            .creates_at_once
            .lock()
            .map(|a| a.clone())
            .unwrap_or_default()
    }

    /// The counters so far.
    pub fn counters(&self) -> Counters {
        self.shared
            .counters
            .lock()
            .map(|c| c.clone())
            .unwrap_or_default()
    }

    /// Customers with their names and RUTs (`12345678-9`), as a desk's customer
    /// directory would list them.
    pub fn directory(&self) -> Vec<(String, String, String)> {
        let Ok(d) = self.shared.data.lock() else {
            return Vec::new();
        };
        d.customers
            .iter()
            .map(|c| (c.id.clone(), c.name.clone(), c.rut.clone()))
            .collect()
    }

    /// Customers with their names and how many invoices each has (all organizations).
    pub fn customers(&self) -> Vec<(String, String, usize)> {
        let Ok(d) = self.shared.data.lock() else {
            return Vec::new();
        };
        d.customers
            .iter()
            .map(|c| (c.id.clone(), c.name.clone(), d.invoice_count(&c.id)))
            .collect()
    }

    /// The reference of every create request received so far (at most the first
    /// [`MAX_RECEIVED`]), in order, created or not: what clients had sent by now.
    pub fn received_references(&self) -> Vec<String> {
        self.shared
            .received
            .lock()
            .map(|r| r.clone())
            .unwrap_or_default()
    }

    /// The stored invoices' ids by external reference (tests count duplicates with it;
    /// the big customer's generated invoices have none).
    pub fn references(&self) -> BTreeMap<String, Vec<String>> {
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        if let Ok(d) = self.shared.data.lock() {
            for i in &d.invoices {
                if let Some(r) = &i.invoice_external_id {
                    out.entry(r.clone()).or_default().push(i.id.clone());
                }
            }
        }
        out
    }

    /// An invoice id of the given organization (for examples).
    pub fn sample_invoice(&self, org: &str) -> Option<String> {
        let d = self.shared.data.lock().ok()?;
        d.invoices
            .iter()
            .find(|i| i.org == org && !i.is_void)
            .map(|i| i.id.clone())
    }

    /// Sets an invoice's paid flag (the service's payment flow is outside the interface).
    pub fn mark_paid(&self, id: &str) -> bool {
        let Ok(mut d) = self.shared.data.lock() else {
            return false;
        };
        let Some(loc) = d.locate(id) else {
            return false;
        };
        d.set_paid(loc);
        true
    }

    /// What a newcomer needs: addresses, credentials, customers and a `curl` line.
    pub fn describe(&self) -> String {
        use crate::tr;
        let c = &self.credentials;
        // One labelled line, the labels in a column (padded by characters: accents too).
        let line = |label: String, value: &str| format!("  {:<21} {value}\n", format!("{label}:"));
        let mut out = String::new();
        out.push_str(&tr!("sbx-title"));
        out.push_str("\n\n");
        out.push_str(&line(tr!("sbx-base-url"), &self.base_url));
        out.push_str(&line(tr!("sbx-auth-url"), &self.auth_url));
        out.push_str(&line(tr!("sbx-audience"), &self.audience));
        out.push('\n');
        out.push_str(&tr!("sbx-oauth-org"));
        out.push('\n');
        out.push_str(&line(tr!("sbx-client-id"), &c.client_id));
        out.push_str(&line(tr!("sbx-client-secret"), &c.client_secret));
        let accounts = |clp: &str, clf: &str| format!("{clp} (CLP), {clf} (CLF)");
        out.push_str(&line(
            tr!("sbx-account-keys"),
            &accounts(&c.account_clp, &c.account_clf),
        ));
        out.push_str(&line(
            tr!("sbx-old-api-key"),
            &format!(
                "{} {}",
                c.oauth_org_old_api_key,
                tr!("sbx-old-api-key-refused")
            ),
        ));
        out.push('\n');
        out.push_str(&tr!("sbx-key-org"));
        out.push('\n');
        out.push_str(&line(
            tr!("sbx-api-key"),
            &format!("{} {}", c.api_key, tr!("sbx-api-key-header")),
        ));
        out.push_str(&line(
            tr!("sbx-account-keys"),
            &accounts(&c.key_account_clp, &c.key_account_clf),
        ));
        out.push('\n');
        out.push_str(&tr!("sbx-customers"));
        out.push('\n');
        for (id, name, n) in self.customers() {
            out.push_str(&format!("  {id:<16} {name} ({n})\n"));
        }
        if let Some(inv) = self.sample_invoice(data::ORG_KEY) {
            out.push('\n');
            out.push_str(&tr!("sbx-try"));
            out.push('\n');
            out.push_str(&format!(
                "  curl -s -H 'x-api-key: {}' {}/invoice/{inv}\n",
                c.api_key, self.base_url
            ));
        }
        out.push('\n');
        out.push_str(&tr!("sbx-oauth-try"));
        out.push('\n');
        out.push_str(&format!(
            "  curl -s -X POST {}/oauth/token -H 'content-type: application/json' -d '{{\"client_id\":\"{}\",\"client_secret\":\"{}\",\"audience\":\"{}\",\"grant_type\":\"client_credentials\"}}'\n",
            self.auth_url, c.client_id, c.client_secret, self.audience
        ));
        out.push_str(&format!("  curl -s -H 'authorization: Bearer <access_token>' {}/invoices/customer/<customer id>\n", self.base_url));
        out.push('\n');
        out.push_str(&tr!("sbx-admin"));
        out.push_str(&format!(
            " {}/admin/state, /admin/knobs, /admin/faults, /admin/revoke-tokens\n",
            self.base_url
        ));
        out
    }

    /// Stops the servers and waits for them.
    pub async fn stop(mut self) {
        for tx in self.shutdown.drain(..) {
            let _ = tx.send(());
        }
        for t in self.tasks.drain(..) {
            t.abort();
            let _ = t.await;
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}
