//! The app's side of the journal: opened once, off the UI thread, on first use; every
//! create and void goes through it (nothing is sent if its intent cannot be written);
//! the number of outcomes still to check, for the badge.

use super::session::Session;
use crate::api::{ApiError, InputProblem};
use crate::journal::{self, Action, Intent, Journal, SharedJournal};
use crate::tr;
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
    cell: Arc<OnceCell<Result<SharedJournal, String>>>,
    to_check: Arc<AtomicU64>,
}

/// What "Check now" found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// Outcomes now known.
    pub settled: usize,
    /// Still unknown (the service could not be asked, or too recent).
    pub left: usize,
}

impl AppJournal {
    /// The journal at `path` (`None`: in memory).
    pub fn new(path: Option<PathBuf>) -> AppJournal {
        AppJournal {
            path,
            cell: Arc::new(OnceCell::new()),
            to_check: Arc::new(AtomicU64::new(UNCOUNTED)),
        }
    }

    /// The open journal; the error is the reason, for engineers.
    async fn get(&self) -> Result<SharedJournal, String> {
        let path = self.path.clone();
        self.cell
            .get_or_init(|| async move {
                tokio::task::spawn_blocking(move || match &path {
                    Some(p) => Journal::open(p),
                    None => Journal::open_in_memory(),
                })
                .await
                .map_err(|e| e.to_string())
                .and_then(|r| r.map_err(|e| e.to_string()))
                .map(SharedJournal::new)
            })
            .await
            .clone()
    }

    /// The open journal, shared (a billing run sends through it); the error in the
    /// clerk's words.
    pub async fn shared(&self) -> Result<SharedJournal, String> {
        self.get().await.map_err(|_| tr!("journal-unreadable"))
    }

    /// How many outcomes are still to check (`None`: not counted yet).
    pub fn to_check(&self) -> Option<u64> {
        Some(self.to_check.load(Ordering::Relaxed)).filter(|n| *n != UNCOUNTED)
    }

    /// Counts the outcomes still to check, for [`AppJournal::to_check`].
    pub async fn count(&self) {
        if let Ok(j) = self.get().await
            && let Ok(n) = j
                .run(|j| {
                    j.count(&journal::Filter {
                        outcome: Some(journal::Outcome::Unknown),
                        ..journal::Filter::default()
                    })
                })
                .await
        {
            self.to_check.store(n, Ordering::Relaxed);
        }
    }

    /// Records the intent, sends (`send`), records the outcome. A journal that cannot be
    /// written refuses: nothing is sent.
    pub async fn write_ahead<T, Fut>(
        &self,
        action: Action,
        intent: Intent,
        send: Fut,
        invoice_id: impl FnOnce(&T) -> Option<String>,
    ) -> Result<T, ApiError>
    where
        Fut: std::future::Future<Output = Result<T, ApiError>>,
    {
        let j = self.get().await.map_err(not_sent)?;
        let done = journal::write_ahead(&j, action, intent, send, invoice_id)
            .await
            .map_err(not_sent)?;
        self.count().await;
        done.result
    }

    /// Checks the outcomes still unknown of `session`'s service (older than the time an
    /// answer may take) and records what was found.
    pub async fn check_now(&self, session: &Session) -> Result<Checked, String> {
        let j = self.get().await?;
        let base = session.profile.base_url.trim().to_string();
        let found = journal::resolve(&j, &session.client, &base, journal::IN_FLIGHT_SECS)
            .await
            .map_err(|e| e.to_string())?;
        let settled = found.iter().filter(|(_, f)| f.is_some()).count();
        self.count().await;
        let left = self.to_check().unwrap_or(0) as usize;
        Ok(Checked { settled, left })
    }
}

/// What the journal records of a request made with `session`.
pub fn intent(session: &Session) -> Intent {
    Intent {
        profile: session.profile.name.clone(),
        base_url: session.profile.base_url.trim().to_string(),
        account_last4: Intent::last4(&session.profile.account_key),
        ..Intent::default()
    }
}

fn not_sent(why: impl std::fmt::Display) -> ApiError {
    ApiError::invalid(InputProblem::Said(tr!("journal-not-sent"))).with_cause(why)
}

impl AppJournal {
    /// Runs `f` on the journal off the UI thread; the error in the clerk's words.
    pub async fn read<R, F>(&self, f: F) -> Result<R, String>
    where
        F: FnOnce(&mut Journal) -> Result<R, journal::JournalError> + Send + 'static,
        R: Send + 'static,
    {
        let j = self.get().await.map_err(|_| tr!("journal-unreadable"))?;
        j.run(f).await.map_err(|_| tr!("journal-unreadable"))
    }
}
