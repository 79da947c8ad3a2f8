//! The app's side of the journal: opened once, off the UI thread, on first use; every
//! create and void goes through it (nothing is sent if its intent cannot be written);
//! the number of outcomes still to check, for the badge.

use super::session::Session;
use crate::api::{ApiError, InputError};
use crate::journal::{self, Action, Entry, Intent, Journal, SharedJournal};
use crate::profile::{SecretKind, SecretStore};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::OnceCell;

/// Not counted yet.
const UNCOUNTED: u64 = u64::MAX;

/// The app's journal. Cheap to clone; clones share the file and the count.
#[derive(Clone)]
pub struct AppJournal {
    path: Option<PathBuf>,
    /// Where a shared journal's password is kept (the keyring).
    secrets: Option<Arc<OnceCell<Arc<SecretStore>>>>,
    /// The clerk's name written beside the computer's account.
    clerk: Option<String>,
    /// The journal once opened. A journal that could not be opened is tried again at
    /// the next use (a desk's server may be back by then), never remembered as gone.
    cell: Arc<tokio::sync::Mutex<Option<SharedJournal>>>,
    to_check: Arc<AtomicU64>,
    /// Since when the desk's server has not answered (a restart, a failover, the
    /// network gone): said on every panel while the app tries again; `None` while it
    /// answers.
    down_since: Arc<std::sync::Mutex<Option<chrono::DateTime<chrono::Utc>>>>,
    /// The built-in sandbox's own journal (practice), never a real profile's.
    practice: bool,
}

/// What "Check now" found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// Outcomes now known.
    pub settled: usize,
    /// Not at the service yet, while their request may still be at work there: they
    /// wait until `waiting_until`.
    pub waiting: usize,
    /// The latest time one of them can be settled.
    pub waiting_until: Option<chrono::DateTime<chrono::Utc>>,
    /// The service could not be asked about them.
    pub unreachable: usize,
}

/// What a create's or void's check found (recorded in the journal).
#[derive(Clone, Debug)]
pub enum Found {
    /// Done: the invoice (created, or voided), as read now when it could be read.
    Done(String, Option<Box<crate::api::Invoice>>),
    /// Not done (checked after the request could still be at work).
    NotDone,
    /// Not at the service yet; it may still be at work there until then (UTC).
    Waiting(chrono::DateTime<chrono::Utc>),
}

/// Why a create or void was not done: the service's (or the connection's) error, or the
/// journal's refusal to send it (already done, on its way, a look-alike).
#[derive(Clone, Debug)]
pub enum NotDone {
    /// An error: from the service, the connection, or the journal (nothing sent).
    Api(ApiError),
    /// Not sent: already done, or being sent (or to check).
    Blocked(Box<journal::Blocked>),
    /// Not sent: the journal has the reference as issued (this entry), and the service,
    /// asked, has neither that invoice nor any with that reference. The clerk may issue
    /// it (the decision journaled).
    Missing(Box<journal::Entry>),
    /// Not sent: the desk's policy wants another clerk's approval, and this request
    /// (asked now, or earlier) is not approved: waiting, or rejected.
    Approval(Box<journal::approvals::Request>),
    /// Not sent: it looks like an invoice this journal issued.
    LooksLike {
        /// The journal's entry of that invoice.
        earlier: Box<journal::Entry>,
        /// Where that invoice stands at the service, when it could be read.
        now: Option<crate::api::InvoiceStatus>,
    },
}

impl NotDone {
    /// The error, if it is one.
    pub fn api(&self) -> Option<&ApiError> {
        match self {
            NotDone::Api(e) => Some(e),
            NotDone::Blocked(_)
            | NotDone::Missing(_)
            | NotDone::Approval(_)
            | NotDone::LooksLike { .. } => None,
        }
    }
}

impl AppJournal {
    /// The journal at `path` (`None`: in memory).
    pub fn new(path: Option<PathBuf>) -> AppJournal {
        AppJournal {
            path,
            secrets: None,
            clerk: None,
            cell: Arc::new(tokio::sync::Mutex::new(None)),
            to_check: Arc::new(AtomicU64::new(UNCOUNTED)),
            down_since: Arc::default(),
            practice: false,
        }
    }

    /// The journal at `path` (`None`: in memory); a shared journal's password is read
    /// from `secrets` (else `INVOICE_DESK_JOURNAL_PASSWORD`), and entries are written
    /// under `clerk`'s name too when one is given.
    pub fn with_settings(
        path: Option<PathBuf>,
        secrets: Arc<OnceCell<Arc<SecretStore>>>,
        clerk: Option<String>,
    ) -> AppJournal {
        AppJournal {
            secrets: Some(secrets),
            clerk: clerk.filter(|c| !c.trim().is_empty()),
            ..AppJournal::new(path)
        }
    }

    /// The practice journal at `path` (`None`: in memory), for the built-in sandbox's
    /// profile: no shared journal, no clerk's name.
    pub fn practice(path: Option<PathBuf>) -> AppJournal {
        AppJournal {
            practice: true,
            ..AppJournal::new(path)
        }
    }

    /// Whether it is the practice journal (the built-in sandbox's).
    pub fn is_practice(&self) -> bool {
        self.practice
    }

    /// Where it is: a file, or the shared journal's address (never with a password).
    pub fn place(&self) -> Option<&std::path::Path> {
        self.path.as_deref()
    }

    /// Whether it is the desk's shared journal (a database address, not a file).
    pub fn is_shared(&self) -> bool {
        self.path
            .as_ref()
            .is_some_and(|p| journal::is_database_url(&p.to_string_lossy()))
    }

    /// Since when the journal's server has not answered, while it does not.
    pub fn down_since(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        self.down_since.lock().ok().and_then(|d| *d)
    }

    /// Notes what a use of the journal found: its server out of reach (from the first
    /// time on), or answering again.
    fn note<T>(&self, r: &Result<T, journal::JournalError>) {
        let Ok(mut down) = self.down_since.lock() else {
            return;
        };
        match r {
            Err(e) if e.trouble() == journal::Trouble::Unreachable => {
                down.get_or_insert_with(chrono::Utc::now);
            }
            Err(e) if e.trouble() == journal::Trouble::Rewound => {
                // Its server came back without this handle's last rows: the journal is
                // opened anew at the next use (a new writer, which knows nothing it
                // could wrongly trust); a billing run started again reads the service first.
                if let Ok(mut slot) = self.cell.try_lock() {
                    *slot = None;
                }
            }
            Err(_) => {}
            Ok(_) => *down = None,
        }
    }

    /// The open journal, or why it cannot be opened (its kind says which words).
    async fn get(&self) -> Result<SharedJournal, journal::JournalError> {
        let got = self.open().await;
        if got.is_err() {
            self.note(&got);
        }
        got
    }

    /// [`AppJournal::get`]'s opening.
    async fn open(&self) -> Result<SharedJournal, journal::JournalError> {
        let path = self.path.clone();
        let clerk = self.clerk.clone();
        let secrets = match (&self.secrets, self.is_shared()) {
            (Some(cell), true) => Some(super::session::get_secrets(cell).await),
            _ => None,
        };
        let mut slot = self.cell.lock().await;
        if let Some(j) = slot.as_ref() {
            return Ok(j.clone());
        }
        let named = path.clone().unwrap_or_default();
        let opened = tokio::task::spawn_blocking(move || {
            let mut j = match &path {
                Some(p) => {
                    let password = shared_password(secrets.as_deref(), p)?;
                    Journal::open_with(p, password.as_deref())?
                }
                None => Journal::open_in_memory()?,
            };
            if let Some(name) = &clerk {
                j.set_clerk_name(name);
            }
            Ok(j)
        })
        .await
        .unwrap_or_else(|e| {
            Err(journal::JournalError::Open {
                path: named,
                why: e.to_string(),
                trouble: journal::Trouble::Other,
            })
        })
        .map(SharedJournal::new)?;
        *slot = Some(opened.clone());
        Ok(opened)
    }

    /// The open journal, shared (a billing run sends through it); the error in the
    /// clerk's words.
    pub async fn shared(&self) -> Result<SharedJournal, journal::JournalError> {
        self.get().await
    }

    /// How many outcomes are still to check (`None`: not counted yet).
    pub fn to_check(&self) -> Option<u64> {
        Some(self.to_check.load(Ordering::Relaxed)).filter(|n| *n != UNCOUNTED)
    }

    /// Counts the outcomes still to check, for [`AppJournal::to_check`]; what it found
    /// of the server is noted ([`AppJournal::down_since`]): the app asks again while it
    /// is out of reach.
    pub async fn count(&self) {
        let Ok(j) = self.get().await else { return };
        let counted = j
            .run(|j| {
                j.count(&journal::Filter {
                    outcome: Some(journal::Outcome::Unknown),
                    ..journal::Filter::default()
                })
            })
            .await;
        self.note(&counted);
        if let Ok(n) = counted {
            self.to_check.store(n, Ordering::Relaxed);
        }
    }

    /// Records the intent and claims its reference (or invoice id), sends (`send`),
    /// records the outcome. A journal that cannot be written refuses: nothing is sent;
    /// a reference already done, on its way, or a look-alike is not sent either.
    pub async fn write_ahead<T, Fut>(
        &self,
        action: Action,
        intent: Intent,
        guard: journal::Guard,
        send: Fut,
        invoice_id: impl FnOnce(&T) -> Option<String>,
    ) -> Result<T, NotDone>
    where
        Fut: std::future::Future<Output = Result<T, ApiError>>,
    {
        let j = self.get().await.map_err(|e| NotDone::Api(not_sent(e)))?;
        let done = journal::write_ahead(&j, action, intent, guard, send, invoice_id).await;
        self.count().await;
        match done {
            Ok(d) => d.result.map_err(NotDone::Api),
            Err(journal::Blocked::Journal(e)) => {
                self.note::<()>(&Err(e.clone()));
                Err(NotDone::Api(not_sent(e)))
            }
            Err(journal::Blocked::LooksLike(e)) => Err(NotDone::LooksLike {
                earlier: Box::new(e),
                now: None,
            }),
            Err(b) => Err(NotDone::Blocked(Box::new(b))),
        }
    }

    /// What the desk's policy asks before `action` (a void or a create) of `intent`:
    /// nothing (`None`), the approved request it carries out, or — asked now, waiting or
    /// rejected — the request, and nothing is sent.
    pub async fn clearance(&self, action: Action, intent: &Intent) -> Result<Option<i64>, NotDone> {
        use journal::approvals::{FourEyesError, ask, one_request};
        let j = self.get().await.map_err(|e| NotDone::Api(not_sent(e)))?;
        // A journal out of reach is noted (every panel says since when), as a write is.
        let unreachable = |e: journal::JournalError| {
            self.note::<()>(&Err(e.clone()));
            NotDone::Api(not_sent(e))
        };
        let policy = j.run(|j| j.policy()).await.map_err(unreachable)?;
        let Some((what, item, summary)) = policy.and_then(|p| one_request(&p, action, intent))
        else {
            return Ok(None);
        };
        match ask(&j, what, intent.service.clone(), vec![item], summary).await {
            Ok(request) => Ok(Some(request.id)),
            Err(FourEyesError::Journal(e)) => Err(unreachable(e)),
            Err(FourEyesError::NotApproved(r)) => Err(NotDone::Approval(r)),
        }
    }

    /// The latest create of `reference`, or void of invoice `reference`, recorded in
    /// this journal (at any service); `None` when there is none or it cannot be read.
    pub async fn latest(&self, action: Action, reference: String) -> Option<Entry> {
        let j = self.get().await.ok()?;
        j.run(move |j| latest_entry(j, action, &reference, None))
            .await
            .ok()
            .flatten()
    }

    /// Checks at `session`'s service what became of the create of `reference` (or the
    /// void of invoice `reference`) whose outcome is unknown, records it, and counts
    /// again. `None` inside: this journal has no such entry at this service.
    pub async fn check(
        &self,
        session: &Session,
        action: Action,
        reference: String,
    ) -> Result<Option<Found>, ApiError> {
        let j = self.get().await.map_err(not_sent)?;
        let base = session.profile.base_url.clone();
        let key = reference.clone();
        let entry = j
            .run(move |j| latest_entry(j, action, &key, Some(&base)))
            .await
            .map_err(not_sent)?;
        let Some(entry) = entry else { return Ok(None) };
        let checked = journal::check_and_record(&j, &session.client, &entry)
            .await
            .map_err(not_sent)?;
        self.count().await;
        Ok(Some(match checked {
            journal::Checked::Settled(s) if s.outcome == journal::Outcome::Done => {
                let id = s.invoice_id.unwrap_or(reference);
                let inv = session.client.get_invoice(&id).await.ok().map(Box::new);
                Found::Done(id, inv)
            }
            journal::Checked::Settled(_) => Found::NotDone,
            journal::Checked::Waiting(until) => Found::Waiting(until),
            journal::Checked::Unreachable => {
                return Err(ApiError::new(crate::api::ErrorKind::Connection));
            }
        }))
    }

    /// The clerk checked a create without a reference (the service cannot be asked which
    /// invoice it was) and says it was not created: the entry's outcome records that
    /// decision, so it is not counted as to check any more.
    pub async fn clerk_says_not_created(&self, customer: String, amount: String) {
        let Ok(j) = self.get().await else { return };
        let _ = j
            .run(move |j| {
                let unknown = j.unknown()?;
                if let Some(e) = unknown.iter().rev().find(|e| {
                    e.action == Action::Create
                        && e.external_id.is_none()
                        && e.customer.as_deref() == Some(customer.as_str())
                        && e.amount.as_deref() == Some(amount.as_str())
                }) {
                    j.record_outcome(
                        e.seq,
                        &journal::Settled {
                            outcome: journal::Outcome::Refused,
                            error_kind: Some("ClerkCheckedNotCreated".into()),
                            ..journal::Settled::done(None)
                        },
                    )?;
                }
                Ok(())
            })
            .await;
        self.count().await;
    }

    /// Checks the outcomes still unknown of `session`'s service and records what was
    /// found; those whose request may still be at work wait, and say until when.
    pub async fn check_now(&self, session: &Session) -> Result<Checked, String> {
        let j = self
            .get()
            .await
            .map_err(|e| crate::i18n::journal_unreadable(&e))?;
        let base = session.profile.base_url.trim().to_string();
        let found = journal::resolve(&j, &session.client, &base)
            .await
            .map_err(|e| crate::i18n::journal_unreadable(&e))?;
        let mut out = Checked {
            settled: 0,
            waiting: 0,
            waiting_until: None,
            unreachable: 0,
        };
        for (_, f) in &found {
            match f {
                journal::Checked::Settled(_) => out.settled += 1,
                journal::Checked::Waiting(t) => {
                    out.waiting += 1;
                    out.waiting_until = out.waiting_until.max(Some(*t));
                }
                journal::Checked::Unreachable => out.unreachable += 1,
            }
        }
        self.count().await;
        Ok(out)
    }
}

/// The latest entry creating `key` (a reference) or voiding `key` (an invoice id), at
/// the service `base_url` when given (any spelling of it), else at any.
fn latest_entry(
    j: &mut Journal,
    action: Action,
    key: &str,
    base_url: Option<&str>,
) -> Result<Option<Entry>, journal::JournalError> {
    let filter = match action {
        // A void is found by its invoice id (the text filter, then exactly).
        Action::Void => journal::Filter {
            text: Some(key.to_string()),
            ..journal::Filter::default()
        },
        _ => journal::Filter {
            reference: Some(key.to_string()),
            ..journal::Filter::default()
        },
    };
    let filter = journal::Filter {
        action: Some(action),
        ..filter
    };
    Ok(j.list(&filter, true, 0, 50)?.into_iter().find(|e| {
        base_url.is_none_or(|b| journal::same_service(&e.base_url, b))
            && (action != Action::Void || e.invoice_id.as_deref() == Some(key))
    }))
}

/// What opening a journal setting found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opened {
    /// Entries in it.
    pub entries: u64,
    /// The typed password could not go to the keyring: it is kept until the app closes.
    pub session_only: bool,
}

/// Opens the journal at `address` as the app would (a typed `password`, else the one
/// kept in the keyring) and counts its entries; with `keep`, a typed password that
/// worked is then stored in the keyring. The error in the clerk's words.
pub async fn try_place(
    address: String,
    password: Option<secrecy::SecretString>,
    secrets: Arc<OnceCell<Arc<SecretStore>>>,
    keep: bool,
) -> Result<Opened, String> {
    use secrecy::ExposeSecret;
    let store = super::session::get_secrets(&secrets).await;
    tokio::task::spawn_blocking(move || {
        let place = PathBuf::from(&address);
        let open = || -> Result<u64, journal::JournalError> {
            let pw = match &password {
                Some(p) => Some(p.expose_secret().to_string()),
                None => shared_password(Some(&store), &place)?,
            };
            let j = Journal::open_with(&place, pw.as_deref())?;
            j.count(&journal::Filter::default())
        };
        let entries = open().map_err(|e| crate::i18n::journal_error(&e))?;
        let mut session_only = false;
        if keep && let Some(p) = &password {
            session_only = matches!(
                store.set(address.trim(), SecretKind::JournalPassword, p),
                crate::profile::StoreStatus::SessionOnly(_)
            );
        }
        Ok(Opened {
            entries,
            session_only,
        })
    })
    .await
    .map_err(|e| e.to_string())?
}

/// A shared journal's password: the one kept in the keyring for its address, else
/// `INVOICE_DESK_JOURNAL_PASSWORD`; none for a file.
fn shared_password(
    secrets: Option<&SecretStore>,
    place: &std::path::Path,
) -> Result<Option<String>, journal::JournalError> {
    use secrecy::ExposeSecret;
    let url = place.to_string_lossy();
    if !journal::is_database_url(&url) {
        return Ok(None);
    }
    let kept = match secrets {
        Some(s) => s
            .get(url.trim(), SecretKind::JournalPassword)
            .map_err(|e| journal::JournalError::Open {
                path: place.to_path_buf(),
                why: crate::i18n::profile_error(&e),
                trouble: journal::Trouble::Other,
            })?,
        None => None,
    };
    Ok(kept
        .map(|p| p.expose_secret().to_string())
        .or_else(journal::shared_password))
}

fn not_sent(why: journal::JournalError) -> ApiError {
    ApiError::invalid(InputError::Said(crate::i18n::journal_not_sent(&why)))
        .with_cause(crate::i18n::journal_details(&why))
}

impl AppJournal {
    /// Runs the read `f` on the journal off the UI thread; the error in the clerk's words.
    pub async fn read<R, F>(&self, f: F) -> Result<R, String>
    where
        F: FnOnce(&mut Journal) -> Result<R, journal::JournalError> + Send + 'static,
        R: Send + 'static,
    {
        let unreadable = |e: journal::JournalError| crate::i18n::journal_unreadable(&e);
        let j = self.get().await.map_err(unreadable)?;
        j.run(f).await.map_err(unreadable)
    }

    /// Runs the write `f` on the journal off the UI thread (an export's intent and
    /// outcome, the directory imported, a run finished); the error in the clerk's words.
    pub async fn write<R, F>(&self, f: F) -> Result<R, String>
    where
        F: FnOnce(&mut Journal) -> Result<R, journal::JournalError> + Send + 'static,
        R: Send + 'static,
    {
        let unwritable = |e: journal::JournalError| crate::i18n::journal_error(&e);
        let j = self.get().await.map_err(unwritable)?;
        j.run(f).await.map_err(unwritable)
    }
}
