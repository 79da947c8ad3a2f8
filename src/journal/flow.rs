//! Journaling around a request: the intent before, the outcome after; checking an
//! unknown outcome against the service.

use super::{Action, Entry, Intent, Journal, JournalError, Outcome, Settled};
use crate::api::{ApiError, Client, ErrorKind, InvoiceStatus};
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};

/// A journal shared between tasks; its work runs on tokio's blocking threads (a recorded
/// intent waits for the disk). Its file's path is kept beside the lock, for errors: an
/// async task never waits on the lock (a long export may hold it).
#[derive(Clone)]
pub struct SharedJournal {
    journal: Arc<Mutex<Journal>>,
    path: Arc<std::path::PathBuf>,
}

impl SharedJournal {
    /// Shares an open journal.
    pub fn new(journal: Journal) -> SharedJournal {
        SharedJournal {
            path: Arc::new(journal.path().to_path_buf()),
            journal: Arc::new(Mutex::new(journal)),
        }
    }

    /// Runs `f` on the journal, off the async threads.
    pub async fn run<R, F>(&self, f: F) -> Result<R, JournalError>
    where
        F: FnOnce(&mut Journal) -> Result<R, JournalError> + Send + 'static,
        R: Send + 'static,
    {
        let journal = self.journal.clone();
        let path = self.path.clone();
        let failed = |why: String| JournalError::Write {
            path: self.path.to_path_buf(),
            why,
        };
        tokio::task::spawn_blocking(move || {
            let mut j = journal.lock().map_err(|_| JournalError::Write {
                path: path.to_path_buf(),
                why: "an earlier write stopped half-way".into(),
            })?;
            f(&mut j)
        })
        .await
        .unwrap_or_else(|e| Err(failed(e.to_string())))
    }
}

/// What came of a journaled request: its result, and whether its outcome could not be
/// written down (the entry then stays "to check").
pub struct Journaled<T> {
    /// The request's result.
    pub result: Result<T, ApiError>,
    /// The outcome's row could not be written.
    pub outcome_not_recorded: Option<JournalError>,
}

/// Records `intent`, and only if that worked sends the request (`send`), then records
/// its outcome; `invoice_id` names the invoice in a success.
/// `Err`: the intent could not be recorded and nothing was sent.
pub async fn write_ahead<T, Fut>(
    journal: &SharedJournal,
    action: Action,
    intent: Intent,
    send: Fut,
    invoice_id: impl FnOnce(&T) -> Option<String>,
) -> Result<Journaled<T>, JournalError>
where
    Fut: std::future::Future<Output = Result<T, ApiError>>,
{
    let seq = journal
        .run(move |j| j.record_intent(action, &intent))
        .await?;
    let result = send.await;
    let settled = match &result {
        Ok(t) => Settled::done(invoice_id(t)),
        Err(e) => Settled::from_error(e),
    };
    let outcome_not_recorded = journal
        .run(move |j| j.record_outcome(seq, &settled))
        .await
        .err();
    Ok(Journaled {
        result,
        outcome_not_recorded,
    })
}

/// Asks the service what became of an entry whose outcome is unknown: a create is looked
/// for by its external reference among the customer's invoices, a void by reading the
/// invoice. `None`: the service could not be asked (it stays to check).
pub async fn check(client: &Client, e: &Entry) -> Option<Settled> {
    let found = |outcome, invoice_id, kind: Option<&str>| Settled {
        outcome,
        invoice_id,
        error_kind: kind.map(str::to_string),
        error_code: None,
        rows: None,
        checked: true,
    };
    match e.action {
        Action::Create => {
            let (Some(customer), Some(reference)) = (&e.customer, &e.external_id) else {
                // Without a reference the service cannot be asked which invoice it was.
                return None;
            };
            let mut hit = None;
            let listed = client
                .list_customer_invoices(customer, |page, _| {
                    match page
                        .iter()
                        .find(|i| i.invoice_external_id.as_deref() == Some(reference))
                    {
                        Some(inv) => {
                            hit = Some(inv.id.clone());
                            ControlFlow::Break(())
                        }
                        None => ControlFlow::Continue(()),
                    }
                })
                .await;
            match (hit, listed) {
                (Some(id), _) => Some(found(Outcome::Done, Some(id), None)),
                (None, Ok(_)) => Some(found(Outcome::Refused, None, Some("NotCreated"))),
                (None, Err(_)) => None,
            }
        }
        Action::Void => {
            let id = e.invoice_id.as_deref()?;
            match client.get_invoice(id).await {
                Ok(inv) if inv.status() == InvoiceStatus::Void => {
                    Some(found(Outcome::Done, Some(id.to_string()), None))
                }
                Ok(_) => Some(found(
                    Outcome::Refused,
                    Some(id.to_string()),
                    Some("NotVoided"),
                )),
                Err(err) if matches!(err.kind, ErrorKind::NotFound(_)) => Some(found(
                    Outcome::Refused,
                    Some(id.to_string()),
                    Some("NotFound"),
                )),
                Err(_) => None,
            }
        }
        // An export stopped half-way wrote nothing (files are replaced only at the end).
        Action::Export => Some(found(Outcome::Refused, None, Some("Interrupted"))),
    }
}

/// An entry still in flight (its request may not have been answered yet) is not checked.
pub const IN_FLIGHT_SECS: i64 = 120;

/// Whether an unknown entry is at least `min_age_secs` old.
pub fn checkable(e: &Entry, now: chrono::DateTime<chrono::Utc>, min_age_secs: i64) -> bool {
    chrono::DateTime::parse_from_rfc3339(&e.time)
        .map(|t| (now - t.with_timezone(&chrono::Utc)).num_seconds() >= min_age_secs)
        .unwrap_or(true)
}

/// Checks every unknown entry of the service at `base_url` at least `min_age_secs` old
/// (usually [`IN_FLIGHT_SECS`]; a younger one may still be waiting for its answer) and
/// records what was found. Returns each entry checked with what was found (`None`: still
/// unknown).
pub async fn resolve(
    journal: &SharedJournal,
    client: &Client,
    base_url: &str,
    min_age_secs: i64,
) -> Result<Vec<(Entry, Option<Settled>)>, JournalError> {
    let unknown = journal.run(|j| j.unknown()).await?;
    let now = chrono::Utc::now();
    let mut out = Vec::new();
    for e in unknown
        .into_iter()
        .filter(|e| same_service(&e.base_url, base_url) && checkable(e, now, min_age_secs))
    {
        let found = check(client, &e).await;
        if let Some(s) = found.clone() {
            let seq = e.seq;
            journal.run(move |j| j.record_outcome(seq, &s)).await?;
        }
        out.push((e, found));
    }
    Ok(out)
}

/// Two base URLs name the same service (a trailing slash aside).
pub fn same_service(a: &str, b: &str) -> bool {
    a.trim_end_matches('/') == b.trim_end_matches('/')
}
