//! The API client: the four endpoints, authorization, retries where they are safe, and
//! errors a clerk can read.

mod answers;

use super::auth::{self, AuthSettings, TokenSource, TokenState};
use super::error::{Action, ApiError, ErrorKind, InputError, Resource, Setting};
use super::http::{self, BodyError};
use super::model::{Invoice, NewInvoice, NextPage, Page, Paging, page_text};
use answers::{api_error, create_not_found, decode_invoice, decode_written, not_found_as};
use secrecy::{ExposeSecret, SecretString};
use serde_json::Value;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;
use url::Url;

/// Everything a [`Client`] needs. Secrets are `SecretString`: never shown by `Debug`.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// The service's base address (`{base_url}`).
    pub base_url: String,
    /// OAuth or API key.
    pub auth: AuthSettings,
    /// `x-account-key` sent on invoice creation, unless a call gives its own.
    pub account_key: Option<String>,
    /// Limit for a whole request, answer included.
    pub timeout: Duration,
    /// Limit for opening a connection.
    pub connect_timeout: Duration,
    /// Largest answer accepted, in bytes.
    pub max_body_bytes: usize,
    /// How many times a read (GET) is retried on 429/502/503/504.
    pub read_retries: u32,
    /// First backoff between read retries; doubles each time.
    pub retry_base: Duration,
    /// A `Retry-After` longer than this is not waited for: the error is returned.
    pub max_retry_wait: Duration,
    /// `page_size` asked for in listings (`None` sends none).
    pub page_size: Option<u32>,
    /// Safety cap on the pages of one listing.
    pub max_pages: u32,
    /// Safety cap on the invoices of one listing: a service that never stops sending
    /// pages cannot make us read (or hold) without end.
    pub max_invoices: u64,
}

/// The default cap on the invoices of one listing.
pub const DEFAULT_MAX_INVOICES: u64 = 2_000_000;

impl ClientConfig {
    /// Defaults for everything but the address and authentication.
    pub fn new(base_url: impl Into<String>, auth: AuthSettings) -> Self {
        ClientConfig {
            base_url: base_url.into(),
            auth,
            account_key: None,
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_body_bytes: 32 * 1024 * 1024,
            read_retries: 3,
            retry_base: Duration::from_millis(300),
            max_retry_wait: Duration::from_secs(10),
            page_size: Some(1000),
            max_pages: 10_000,
            max_invoices: DEFAULT_MAX_INVOICES,
        }
    }
}

/// Progress of a customer listing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ListProgress {
    /// Pages received.
    pub pages: u32,
    /// Invoices received.
    pub items: u64,
    /// Invoices in all, when the service says.
    pub total: Option<u64>,
}

/// What a successful connection test found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectionReport {
    /// The token state after the test (OAuth) or `NotUsed` (API key).
    pub token: TokenState,
    /// The answer to the test lookup had the invoicing service's shape (its JSON error
    /// for an unknown invoice). `false`: a server answered, but we cannot tell that it is
    /// the invoicing service (a web server's 404 page, say).
    pub service_ok: bool,
}

enum Auth {
    OAuth(Box<TokenSource>),
    ApiKey {
        header: reqwest::header::HeaderName,
        key: SecretString,
    },
}

struct Inner {
    cfg: ClientConfig,
    base: Url,
    http: reqwest::Client,
    auth: Auth,
}

/// The async client. Cheap to clone; clones share the token cache.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base", &self.inner.base.as_str())
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// Changes nothing: may be retried.
    Read,
    /// Changes something: never resent; a lost answer is "outcome unknown".
    Write(Action),
}

struct Answer {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: Vec<u8>,
}

/// What the task that reads a listing ahead (see [`Client::list_customer_invoices`]) hands
/// over.
enum Listed {
    /// A page's answer (its paging read and checked, its invoices not decoded yet), and
    /// the progress with it.
    Page(String, ListProgress),
    /// The listing's end.
    Done(ListProgress),
    /// Why it stopped.
    Failed(ApiError),
}

/// A page decoded on a blocking thread: how it went, its invoices, its text (for the
/// error), the progress with it.
type Decoded = (Result<(), ApiError>, Vec<Invoice>, String, ListProgress);

/// What waiting for a decoder gives.
type Joined = Result<Decoded, tokio::task::JoinError>;

/// How a listing's pages are decoded (see [`Client::list_customer_invoices_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoding {
    /// On the calling task, one after another: the least CPU (the CLI's export, runs).
    OnThisTask,
    /// Two at once on the blocking threads, handed over in the same order: the listing
    /// sooner where someone waits for it (the app's table), for more CPU (a page's
    /// invoices made on one thread and used on another; the export under load: +17 %).
    TwoAtOnce,
}

/// The most pages of one listing decoded at once (each on a blocking thread). Two: the
/// page after them is fetched in less time than one of them takes to decode, so a third
/// would only wait (and hold a page more in memory).
const DECODERS: usize = 2;

/// Stops a task when what started it ends, however it ends (its future dropped
/// included): no page is fetched for a listing nobody reads, no row of a dropped billing
/// run is sent.
pub(crate) struct AbortOnDrop<T>(pub(crate) tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Client {
    /// Checks the configuration (addresses, secure schemes) and builds the client.
    pub fn new(cfg: ClientConfig) -> Result<Client, ApiError> {
        let base = http::check_url(&cfg.base_url, Setting::BaseUrl)?;
        let auth_url = match &cfg.auth {
            AuthSettings::OAuth(o) => Some(http::check_url(&o.auth_url, Setting::AuthUrl)?),
            AuthSettings::ApiKey(_) => None,
        };
        let needs_tls =
            base.scheme() == "https" || auth_url.as_ref().is_some_and(|u| u.scheme() == "https");
        let mut builder = reqwest::Client::builder()
            .user_agent(concat!("invoice-desk/", env!("CARGO_PKG_VERSION")))
            .timeout(cfg.timeout)
            .connect_timeout(cfg.connect_timeout)
            // A redirect could carry the Authorization header elsewhere.
            .redirect(reqwest::redirect::Policy::none());
        if !needs_tls {
            // Plain http to this computer only (e.g. the sandbox): no certificate store is
            // needed, so none is opened (a minimal system may not have one).
            builder = builder.tls_certs_only(std::iter::empty());
        }
        let http = builder.build().map_err(|e| {
            ApiError::invalid(InputError::NoCertificateStore(super::http::without_url(&e)))
        })?;
        let auth = match &cfg.auth {
            AuthSettings::OAuth(o) => Auth::OAuth(Box::new(TokenSource::new(
                o.clone(),
                http.clone(),
                cfg.max_body_bytes,
                cfg.timeout,
            )?)),
            AuthSettings::ApiKey(k) => {
                let name = if k.header.trim().is_empty() {
                    auth::DEFAULT_API_KEY_HEADER
                } else {
                    k.header.trim()
                };
                let header = reqwest::header::HeaderName::from_bytes(name.as_bytes())
                    .map_err(|_| ApiError::invalid(InputError::BadHeaderName(name.to_string())))?;
                if k.key.expose_secret().trim().is_empty() {
                    return Err(ApiError::invalid(InputError::Missing(Setting::ApiKey)));
                }
                if reqwest::header::HeaderValue::from_str(k.key.expose_secret().trim()).is_err() {
                    return Err(ApiError::invalid(InputError::UnsendableKey));
                }
                Auth::ApiKey {
                    header,
                    key: k.key.clone(),
                }
            }
        };
        Ok(Client {
            inner: Arc::new(Inner {
                cfg,
                base,
                http,
                auth,
            }),
        })
    }

    /// The configuration this client was built from.
    pub fn config(&self) -> &ClientConfig {
        &self.inner.cfg
    }

    /// The token's state, without causing a fetch.
    pub fn token_state(&self) -> TokenState {
        match &self.inner.auth {
            Auth::OAuth(t) => t.state(),
            Auth::ApiKey { .. } => TokenState::NotUsed,
        }
    }

    /// Fetches a token (OAuth) and makes one harmless authorized read: a lookup of an id
    /// that does not exist. The service's JSON "not found" proves the credentials work
    /// and that the address is the invoicing service; any other answer that is not an
    /// error leaves `service_ok` false (a server answered, we cannot tell what it is).
    pub async fn check_connection(&self) -> Result<ConnectionReport, ApiError> {
        if let Auth::OAuth(t) = &self.inner.auth {
            t.bearer().await?;
        }
        let url = http::endpoint(
            &self.inner.base,
            &["invoice", "invoice-desk-connection-check"],
        );
        let service_ok = match self
            .execute(reqwest::Method::GET, url, None, None, Effect::Read)
            .await
        {
            Ok(body) => decode_invoice(&body).is_ok(),
            Err(e) if matches!(e.kind, ErrorKind::NotFound(_)) => e.service_shaped,
            Err(e) => return Err(e),
        };
        Ok(ConnectionReport {
            token: self.token_state(),
            service_ok,
        })
    }

    /// Fetches a token (OAuth) ahead of the first request, while the caller does other
    /// work. A failure is not kept from the requests after: the first of them fetches
    /// again and meets it.
    pub async fn fetch_token_ahead(&self) {
        if let Auth::OAuth(t) = &self.inner.auth {
            let _ = t.bearer().await;
        }
    }

    /// The time limit of one request (a write's answer may come this late, or never).
    pub fn timeout(&self) -> Duration {
        self.inner.cfg.timeout
    }

    /// The account key sent on creation unless a call gives its own.
    pub fn account_key(&self) -> Option<&str> {
        self.inner
            .cfg
            .account_key
            .as_deref()
            .map(str::trim)
            .filter(|k| !k.is_empty())
    }

    /// `POST /invoices`. `account_key` overrides the profile's `x-account-key`.
    /// Never resent automatically: a lost answer is [`ErrorKind::OutcomeUnknown`].
    pub async fn create_invoice(
        &self,
        invoice: &NewInvoice,
        account_key: Option<&str>,
    ) -> Result<Invoice, ApiError> {
        let body = invoice.to_json()?;
        let key = account_key
            .or(self.inner.cfg.account_key.as_deref())
            .map(str::trim)
            .filter(|k| !k.is_empty());
        let url = http::endpoint(&self.inner.base, &["invoices"]);
        let v = self
            .execute(
                reqwest::Method::POST,
                url,
                Some(&body),
                key,
                Effect::Write(Action::Create),
            )
            .await
            .map_err(|e| create_not_found(e, &invoice.customer))?;
        decode_written(&v, Action::Create)
    }

    /// `GET /invoice/{id}`.
    pub async fn get_invoice(&self, id: &str) -> Result<Invoice, ApiError> {
        let id = checked_id(id, Setting::InvoiceId)?;
        let url = http::endpoint(&self.inner.base, &["invoice", id]);
        let v = self
            .execute(reqwest::Method::GET, url, None, None, Effect::Read)
            .await
            .map_err(|e| not_found_as(e, Resource::Invoice(id.to_string())))?;
        decode_invoice(&v)
    }

    /// `POST /invoices/{id}/void`. Never resent automatically.
    pub async fn void_invoice(&self, id: &str) -> Result<Invoice, ApiError> {
        let id = checked_id(id, Setting::InvoiceId)?;
        let url = http::endpoint(&self.inner.base, &["invoices", id, "void"]);
        let v = self
            .execute(
                reqwest::Method::POST,
                url,
                None,
                None,
                Effect::Write(Action::Void),
            )
            .await
            .map_err(|e| not_found_as(e, Resource::Invoice(id.to_string())))?;
        decode_written(&v, Action::Void)
    }

    /// `GET /invoices/customer/{id}`, following pages to the end. Each page goes to
    /// `on_page` as it arrives, with the progress so far; returning `Break` stops the
    /// listing (the result is then [`ErrorKind::Cancelled`]). The pages are decoded on
    /// the calling task, one after another: the least CPU (the CLI's export, the runs).
    pub async fn list_customer_invoices<F>(
        &self,
        customer: &str,
        on_page: F,
    ) -> Result<ListProgress, ApiError>
    where
        F: FnMut(&mut Vec<Invoice>, &ListProgress) -> ControlFlow<()>,
    {
        self.list_customer_invoices_with(customer, Decoding::OnThisTask, on_page)
            .await
    }

    /// [`Self::list_customer_invoices`], its pages decoded as `decoding` says.
    pub async fn list_customer_invoices_with<F>(
        &self,
        customer: &str,
        decoding: Decoding,
        mut on_page: F,
    ) -> Result<ListProgress, ApiError>
    where
        F: FnMut(&mut Vec<Invoice>, &ListProgress) -> ControlFlow<()>,
    {
        let decoders = match decoding {
            Decoding::OnThisTask => 1,
            Decoding::TwoAtOnce => std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(DECODERS),
        };
        let customer = checked_id(customer, Setting::CustomerId)?.to_string();
        // Pages are fetched by a task of their own, which reads only their paging: the
        // service prepares page n+1 while page n is decoded and used here. One page
        // queued, and `decoders` being decoded at once (more than one: on the blocking
        // threads; a page took longer to decode than to fetch, so with one decoder the
        // app's listing went at the decoder's pace, #51). They are handed to `on_page`
        // in the service's order.
        let (tx, mut pages) = tokio::sync::mpsc::channel(1);
        // Dropping the task on return stops the pages already asked for.
        let _task = AbortOnDrop(tokio::spawn(self.clone().read_ahead(customer, tx)));
        if decoders <= 1 {
            // Each page is decoded over the invoices of the one before, their room
            // reused (what `on_page` takes out of the list is made anew), on the thread
            // that uses them.
            let mut items = Vec::new();
            loop {
                match pages.recv().await {
                    Some(Listed::Page(text, progress)) => {
                        Page::read_into(&text, &mut items)
                            .map_err(|e| e.with_body(text.as_bytes()))?;
                        drop(text);
                        if on_page(&mut items, &progress).is_break() {
                            return Err(ApiError::new(ErrorKind::Cancelled));
                        }
                    }
                    Some(Listed::Done(progress)) => return Ok(progress),
                    Some(Listed::Failed(e)) => return Err(e),
                    // The task ended without a word: only when the runtime shuts down.
                    None => return Err(ApiError::new(ErrorKind::Cancelled)),
                }
            }
        }
        let mut decoding = std::collections::VecDeque::with_capacity(decoders);
        // Each page is decoded over the invoices of an earlier one, their room reused
        // (what `on_page` takes out of the list is made anew).
        let mut spare: Vec<Vec<Invoice>> = Vec::with_capacity(decoders);
        let mut ended: Option<Result<ListProgress, ApiError>> = None;
        loop {
            let room = decoding.len() < decoders && ended.is_none();
            tokio::select! {
                // A decoded page is handed over before another is taken.
                biased;
                decoded = async {
                    match decoding.front_mut() {
                        Some(page) => page.await,
                        None => std::future::pending::<Joined>().await,
                    }
                }, if !decoding.is_empty() => {
                    decoding.pop_front();
                    let (result, mut items, text, progress): Decoded = match decoded {
                        Ok(page) => page,
                        // The decoder cannot panic on any text; if it did, the page is
                        // said to be unreadable, not the listing stopped.
                        Err(e) if e.is_panic() => {
                            return Err(ApiError::new(ErrorKind::Decode)
                                .with_cause("a listing page's decoder stopped"));
                        }
                        // The runtime is shutting down.
                        Err(_) => return Err(ApiError::new(ErrorKind::Cancelled)),
                    };
                    result.map_err(|e: ApiError| e.with_body(text.as_bytes()))?;
                    drop(text);
                    if on_page(&mut items, &progress).is_break() {
                        return Err(ApiError::new(ErrorKind::Cancelled));
                    }
                    spare.push(items);
                }
                listed = pages.recv(), if room => match listed {
                    Some(Listed::Page(text, progress)) => {
                        let mut items = spare.pop().unwrap_or_default();
                        decoding.push_back(tokio::task::spawn_blocking(move || {
                            let result = Page::read_into(&text, &mut items);
                            (result, items, text, progress)
                        }));
                    }
                    Some(Listed::Done(progress)) => ended = Some(Ok(progress)),
                    Some(Listed::Failed(e)) => ended = Some(Err(e)),
                    // The task ended without a word: only when the runtime shuts down.
                    None => ended = Some(Err(ApiError::new(ErrorKind::Cancelled))),
                },
                // Every page decoded and handed over: how the listing ended.
                else => {
                    return ended.unwrap_or_else(|| Err(ApiError::new(ErrorKind::Cancelled)));
                }
            }
        }
    }

    /// Fetches a customer's listing into `pages`, page after page, following and checking
    /// each page's paging, and says how it ended.
    async fn read_ahead(self, customer: String, pages: tokio::sync::mpsc::Sender<Listed>) {
        let last = match self.read_listing(&customer, &pages).await {
            Ok(progress) => Listed::Done(progress),
            Err(e) => Listed::Failed(e),
        };
        let _ = pages.send(last).await;
    }

    async fn read_listing(
        &self,
        customer: &str,
        pages: &tokio::sync::mpsc::Sender<Listed>,
    ) -> Result<ListProgress, ApiError> {
        let first = http::endpoint(&self.inner.base, &["invoices", "customer", customer]);
        let cfg = &self.inner.cfg;
        let mut url = self.with_page_size(first.clone());
        let mut seen_next: Vec<NextPage> = Vec::new();
        let mut progress = ListProgress::default();
        loop {
            let text = self
                .execute(reqwest::Method::GET, url.clone(), None, None, Effect::Read)
                .await
                .map(page_text)
                .map_err(|e| not_found_as(e, Resource::Customer(customer.to_string())))?;
            let page = Paging::from_text(&text).map_err(|e| e.with_body(text.as_bytes()))?;
            let received = page.entries as u64;
            if progress.items.saturating_add(received) > cfg.max_invoices {
                return Err(ApiError::new(ErrorKind::ListingTooLong {
                    cap: cfg.max_invoices,
                }));
            }
            progress.pages += 1;
            progress.items += received;
            progress.total = page.total.or(progress.total);
            let next = match &page.next {
                None => Ok(None),
                Some(next) => self.next_page_url(&first, next, received, &mut seen_next, &progress),
            };
            if pages.send(Listed::Page(text, progress)).await.is_err() {
                // Nobody is listening any more.
                return Err(ApiError::new(ErrorKind::Cancelled));
            }
            // A page that cannot be followed (a cycle, a foreign URL) is an error only
            // after the invoices it brought were handed over.
            match next? {
                Some(next) => url = next,
                None => return Ok(progress),
            }
        }
    }

    /// Where the page after this one is; `None` when the listing ends here. A repeated
    /// cursor (a cycle) or too many pages is an error: the listing would never end.
    fn next_page_url(
        &self,
        first: &Url,
        next: &NextPage,
        received: u64,
        seen_next: &mut Vec<NextPage>,
        progress: &ListProgress,
    ) -> Result<Option<Url>, ApiError> {
        // An empty page that points on is normal for some services (a cursor over
        // filtered data): it is followed.
        let remembered = next.remembered();
        if seen_next.contains(&remembered) || progress.pages >= self.inner.cfg.max_pages {
            return Err(ApiError::new(ErrorKind::ListingRunaway {
                pages: progress.pages,
            }));
        }
        if received == 0 && matches!(next, NextPage::Number(_)) {
            return Ok(None);
        }
        let url = self.page_url(first, next)?;
        // Cycle detection needs every cursor seen; bounded by max_pages, and long
        // cursors are remembered by a digest only.
        seen_next.push(remembered);
        Ok(Some(url))
    }

    /// The address of the page `next` points to. Our credentials go only to the
    /// configured service: a next-page URL elsewhere is an error.
    fn page_url(&self, first: &Url, next: &NextPage) -> Result<Url, ApiError> {
        Ok(match next {
            NextPage::Cursor(c) => {
                let mut u = self.with_page_size(first.clone());
                u.query_pairs_mut().append_pair("cursor", c);
                u
            }
            NextPage::Number(n) => {
                let mut u = self.with_page_size(first.clone());
                u.query_pairs_mut().append_pair("page", &n.to_string());
                u
            }
            NextPage::Url(text) => {
                let u = self.inner.base.join(text).map_err(|_| {
                    ApiError::new(ErrorKind::Decode).with_cause("bad next-page URL")
                })?;
                if u.origin() != self.inner.base.origin() {
                    // Our credentials go only to the configured service.
                    return Err(ApiError::new(ErrorKind::Decode).with_cause(format!(
                        "next page on another host: {}",
                        u.origin().ascii_serialization()
                    )));
                }
                u
            }
        })
    }

    /// All of a customer's invoices in one vector.
    pub async fn customer_invoices(&self, customer: &str) -> Result<Vec<Invoice>, ApiError> {
        let mut all = Vec::new();
        self.list_customer_invoices(customer, |page, _| {
            all.append(page);
            ControlFlow::Continue(())
        })
        .await?;
        Ok(all)
    }

    /// The customer's invoice with the external reference `reference`, looked for page
    /// by page (the listing stops at the first one found). `Ok(None)`: the whole listing
    /// was read and none has it.
    pub async fn find_by_reference(
        &self,
        customer: &str,
        reference: &str,
    ) -> Result<Option<Invoice>, ApiError> {
        let mut hit = None;
        let listed = self
            .list_customer_invoices(customer, |page, _| {
                match page
                    .iter()
                    .position(|i| i.invoice_external_id.as_deref() == Some(reference))
                {
                    Some(at) => {
                        hit = Some(page.swap_remove(at));
                        ControlFlow::Break(())
                    }
                    None => ControlFlow::Continue(()),
                }
            })
            .await;
        match (hit, listed) {
            (Some(inv), _) => Ok(Some(inv)),
            (None, Ok(_)) => Ok(None),
            (None, Err(e)) => Err(e),
        }
    }

    fn with_page_size(&self, mut url: Url) -> Url {
        if let Some(n) = self.inner.cfg.page_size {
            url.query_pairs_mut()
                .append_pair("page_size", &n.to_string());
        }
        url
    }

    /// Sends one request with authorization; one new token and one retry after a 401
    /// (OAuth); read retries on 429/502/503/504. Returns the body of a 2xx.
    async fn execute(
        &self,
        method: reqwest::Method,
        url: Url,
        body: Option<&Value>,
        account_key: Option<&str>,
        effect: Effect,
    ) -> Result<Vec<u8>, ApiError> {
        let started = std::time::Instant::now();
        let done = self
            .execute_once(method.clone(), &url, body, account_key, effect)
            .await;
        // For the support log: no query (a cursor), no header, no body.
        let ms = started.elapsed().as_millis() as u64;
        match &done {
            Ok(_) if effect == Effect::Read => {}
            Ok(_) => tracing::info!(%method, path = url.path(), ms, "done"),
            Err(e) => tracing::warn!(
                %method,
                path = url.path(),
                ms,
                status = e.status,
                kind = crate::text::variant_name(&e.kind),
                "failed"
            ),
        }
        done
    }

    /// [`Client::execute`], its retries included.
    async fn execute_once(
        &self,
        method: reqwest::Method,
        url: &Url,
        body: Option<&Value>,
        account_key: Option<&str>,
        effect: Effect,
    ) -> Result<Vec<u8>, ApiError> {
        let cfg = &self.inner.cfg;
        let mut auth_retried = false;
        let mut read_retries = 0u32;
        loop {
            let mut req = self
                .inner
                .http
                .request(method.clone(), url.clone())
                .header("accept", "application/json");
            let mut token = None;
            match &self.inner.auth {
                Auth::OAuth(source) => {
                    let t = source.bearer().await?;
                    let mut value = reqwest::header::HeaderValue::from_str(&format!(
                        "Bearer {}",
                        t.expose_secret()
                    ))
                    .map_err(|_| {
                        ApiError::new(ErrorKind::TokenEndpointFailed)
                            .with_cause("the token cannot be sent in a header")
                    })?;
                    value.set_sensitive(true);
                    req = req.header(reqwest::header::AUTHORIZATION, value);
                    token = Some(t);
                }
                Auth::ApiKey { header, key } => {
                    let mut value =
                        reqwest::header::HeaderValue::from_str(key.expose_secret().trim())
                            .map_err(|_| ApiError::invalid(InputError::UnsendableKey))?;
                    value.set_sensitive(true);
                    req = req.header(header.clone(), value);
                }
            }
            if let Some(k) = account_key {
                req = req.header("x-account-key", k);
            }
            if let Some(b) = body {
                req = req.json(b);
            }
            let answer = match self.send(req).await {
                Ok(a) => a,
                Err(e) => return Err(self.transport_error(e, effect)),
            };
            let status = answer.status;
            if status == 401
                && !auth_retried
                && let (Auth::OAuth(source), Some(t)) = (&self.inner.auth, &token)
            {
                // The token was refused, so the service did nothing: safe for POST too.
                source.invalidate(t).await;
                auth_retried = true;
                continue;
            }
            if effect == Effect::Read
                && matches!(status, 429 | 502 | 503 | 504)
                && read_retries < cfg.read_retries
            {
                let backoff = cfg.retry_base * 2u32.pow(read_retries);
                let wait = http::retry_after(&answer.headers).unwrap_or(backoff);
                if wait <= cfg.max_retry_wait {
                    read_retries += 1;
                    tokio::time::sleep(wait).await;
                    continue;
                }
            }
            if (200..300).contains(&status) {
                return Ok(answer.body);
            }
            if let Effect::Write(action) = effect
                && matches!(status, 502 | 504)
            {
                // A gateway gave up waiting: the service behind it may have done it.
                return Err(ApiError::new(ErrorKind::OutcomeUnknown(action))
                    .with_status(status)
                    .with_body(&answer.body));
            }
            return Err(api_error(status, &answer.headers, &answer.body));
        }
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> Result<Answer, SendError> {
        let resp = req.send().await.map_err(SendError::Transport)?;
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        match http::read_capped(resp, self.inner.cfg.max_body_bytes).await {
            Ok(body) => Ok(Answer {
                status,
                headers,
                body,
            }),
            Err(BodyError::TooLarge) => Err(SendError::TooLarge(status)),
            Err(BodyError::Transport(e)) => Err(SendError::BodyLost(status, e)),
        }
    }

    fn transport_error(&self, e: SendError, effect: Effect) -> ApiError {
        match (e, effect) {
            // A success status came: the service did it, only the answer is lost.
            (SendError::TooLarge(status) | SendError::BodyLost(status, _), Effect::Write(a))
                if (200..300).contains(&status) =>
            {
                ApiError::new(ErrorKind::DoneUnreadable(a)).with_status(status)
            }
            (SendError::TooLarge(status), Effect::Write(a)) => {
                ApiError::new(ErrorKind::OutcomeUnknown(a)).with_status(status)
            }
            (SendError::TooLarge(status), Effect::Read) => {
                ApiError::new(ErrorKind::TooLarge).with_status(status)
            }
            (SendError::BodyLost(status, e), Effect::Write(a)) => {
                ApiError::new(ErrorKind::OutcomeUnknown(a))
                    .with_status(status)
                    .with_source(super::http::without_url(&e), e)
            }
            (SendError::BodyLost(status, e), Effect::Read) => {
                let kind = if e.is_timeout() {
                    ErrorKind::Timeout
                } else {
                    ErrorKind::ConnectionLost
                };
                ApiError::new(kind)
                    .with_status(status)
                    .with_source(super::http::without_url(&e), e)
            }
            (SendError::Transport(e), effect) => {
                let kind = if let Some(reason) = super::http::certificate_problem(&e) {
                    ErrorKind::CertificateUntrusted { reason }
                } else if e.is_connect() {
                    // No connection was made: nothing was sent, whatever the request.
                    ErrorKind::Connection
                } else {
                    match effect {
                        Effect::Write(a) => ErrorKind::OutcomeUnknown(a),
                        Effect::Read if e.is_timeout() => ErrorKind::Timeout,
                        Effect::Read => ErrorKind::ConnectionLost,
                    }
                };
                ApiError::new(kind).with_source(super::http::without_url(&e), e)
            }
        }
    }
}

enum SendError {
    /// No answer: the request may or may not have been sent.
    Transport(reqwest::Error),
    /// The answer's body was over the cap (its status is known).
    TooLarge(u16),
    /// The answer's status came, then the body was cut off.
    BodyLost(u16, reqwest::Error),
}

/// An invoice id as it will be sent (trimmed), or why it cannot be: checked before a
/// void is journaled, so nothing that cannot be sent is written down.
pub fn checked_invoice_id(id: &str) -> Result<&str, ApiError> {
    checked_id(id, Setting::InvoiceId)
}

/// A customer id as it will be sent (trimmed), or why it cannot be.
pub fn checked_customer_id(id: &str) -> Result<&str, ApiError> {
    checked_id(id, Setting::CustomerId)
}

fn checked_id(id: &str, what: Setting) -> Result<&str, ApiError> {
    let id = id.trim();
    if id.is_empty() {
        return Err(ApiError::invalid(InputError::Missing(what)));
    }
    if id.chars().count() > crate::api::model::MAX_TEXT {
        let field = match what {
            Setting::CustomerId => "customer",
            _ => "id",
        };
        return Err(ApiError::invalid(InputError::TooLong {
            field: field.to_string(),
            max: crate::api::model::MAX_TEXT,
        }));
    }
    if id.chars().any(char::is_control) {
        return Err(ApiError::invalid(InputError::NotValid(what)));
    }
    Ok(id)
}
