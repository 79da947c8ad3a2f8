//! Sending a billing run: bounded concurrency, every worker pausing on a 429 for the time
//! the service asks, each row's intent journaled before it is sent and its outcome
//! after. A row the journal has as created is skipped; one whose outcome is unknown is
//! first looked for at the service by its reference and never resent while that cannot
//! be told. Pause holds rows not yet sent; cancel lets the requests in flight finish
//! (and be journaled) and sends nothing more.

use super::BulkRow;
use crate::api::{ApiError, Client, ErrorKind};
use crate::journal::{self, Action, Filter, Intent, JournalError, Outcome, SharedJournal};
use futures_util::StreamExt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What became of one row.
#[derive(Clone, Debug)]
pub enum Status {
    /// Issued now: the invoice's id.
    Created(String),
    /// The service (or the journal, before sending) refused it.
    Refused(Refusal),
    /// Sent, but whether it was issued cannot be told yet.
    Unknown(Unsure),
    /// Issued by an earlier run (the journal or the service says so): its id if known.
    SkippedExisting(Option<String>),
    /// Not valid: not sent.
    SkippedInvalid,
    /// Not sent: the run was cancelled before its turn.
    NotSent,
}

/// Why a row was not issued.
#[derive(Clone, Debug)]
pub enum Refusal {
    /// The service said no.
    Service(ApiError),
    /// Its intent could not be journaled: nothing was sent.
    Journal(JournalError),
    /// The service kept answering 429.
    RateLimited,
}

/// Why a row's outcome is not known.
#[derive(Clone, Debug)]
pub enum Unsure {
    /// This run's request got no answer that says.
    Sent(ApiError),
    /// An earlier run left it unknown and the service could not be asked now.
    Earlier,
    /// The journal could not be read, so it was not sent (it might be issued already).
    Journal(JournalError),
}

impl Status {
    /// The report's word for it.
    pub fn word(&self) -> &'static str {
        match self {
            Status::Created(_) => "created",
            Status::Refused(_) => "refused",
            Status::Unknown(_) => "unknown",
            Status::SkippedExisting(_) => "skipped_existing",
            Status::SkippedInvalid => "skipped_invalid",
            Status::NotSent => "not_sent",
        }
    }

    /// The invoice's id, when there is one.
    pub fn invoice_id(&self) -> Option<&str> {
        match self {
            Status::Created(id) | Status::SkippedExisting(Some(id)) => Some(id),
            _ => None,
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Service(e) => write!(f, "{e}"),
            Refusal::Journal(e) => write!(f, "nothing was sent: {e}"),
            Refusal::RateLimited => {
                write!(f, "the service kept answering 429 (too many requests)")
            }
        }
    }
}

impl std::fmt::Display for Unsure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsure::Sent(e) => write!(f, "{e} Run the same file again: it checks this row first."),
            Unsure::Earlier => write!(
                f,
                "an earlier run's outcome is unknown and the service could not be asked; not sent again"
            ),
            Unsure::Journal(e) => write!(f, "the journal cannot be read: {e}"),
        }
    }
}

/// Most attempts for one row refused with 429 (each after the pause the service asked).
const MAX_RATE_LIMITED: u32 = 8;

/// How often a paused worker looks whether it may go on.
const PAUSE_POLL: Duration = Duration::from_millis(100);

/// Pause, resume and cancel, shared by the workers and whoever drives the run.
#[derive(Debug, Default)]
pub struct Control {
    paused: AtomicBool,
    cancelled: AtomicBool,
    /// Every worker waits until then (a 429 said so).
    rate_pause: Mutex<Option<Instant>>,
}

impl Control {
    /// Holds the rows not yet sent (requests in flight finish).
    pub fn pause(&self) {
        self.paused.store(true, Ordering::SeqCst);
    }

    /// Lets the rows go again.
    pub fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
    }

    /// Sends nothing more; requests in flight finish and are journaled.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }

    /// True while paused.
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::SeqCst)
    }

    /// True once cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    fn rate_limited(&self, wait: Duration) {
        if let Ok(mut until) = self.rate_pause.lock() {
            let end = Instant::now() + wait;
            if until.is_none_or(|u| u < end) {
                *until = Some(end);
            }
        }
    }

    /// Waits for this worker's turn: `false` when the run was cancelled meanwhile.
    async fn turn(&self) -> bool {
        loop {
            if self.is_cancelled() {
                return false;
            }
            if self.is_paused() {
                tokio::time::sleep(PAUSE_POLL).await;
                continue;
            }
            let until = self.rate_pause.lock().ok().and_then(|u| *u);
            match until {
                Some(u) if u > Instant::now() => tokio::time::sleep_until(u.into()).await,
                _ => return true,
            }
        }
    }
}

/// Who sends a run and where.
#[derive(Clone)]
pub struct Runner {
    /// The API client.
    pub client: Client,
    /// The journal every row goes through.
    pub journal: SharedJournal,
    /// The service's address, as the journal records it.
    pub base_url: String,
    /// The profile's name, as the journal records it.
    pub profile: String,
    /// The profile's account key (a row's own one wins).
    pub profile_account: Option<String>,
    /// Pause, resume, cancel.
    pub control: std::sync::Arc<Control>,
}

impl Runner {
    /// Sends `rows`, `concurrency` at a time; `each` hears of every row as it settles
    /// (its index in `rows`, what became of it), in the order they settle.
    pub async fn run(
        &self,
        rows: Vec<BulkRow>,
        concurrency: usize,
        mut each: impl FnMut(usize, Status),
    ) {
        let mut stream = futures_util::stream::iter(rows.into_iter().enumerate())
            .map(|(i, row)| {
                let me = self.clone();
                async move { (i, me.one(row).await) }
            })
            .buffer_unordered(concurrency.clamp(1, 16));
        while let Some((i, status)) = stream.next().await {
            each(i, status);
        }
    }

    /// As [`Runner::run`], for the rows of the spreadsheet `file` (digest `file_id`):
    /// the run is noted in the journal when it starts and marked finished when every row
    /// is settled, so a run cut short is offered again. What became of the rows, counted.
    pub async fn run_file(
        &self,
        file: &std::path::Path,
        file_id: &str,
        rows: Vec<BulkRow>,
        concurrency: usize,
        mut each: impl FnMut(usize, Status),
    ) -> Counts {
        let (file, id) = (file.to_path_buf(), file_id.to_string());
        let (profile, base_url, total) = (self.profile.clone(), self.base_url.clone(), rows.len());
        let run_id = self
            .journal
            .run(move |j| j.start_run(&file, &id, &profile, &base_url, total as u64))
            .await
            .ok();
        let mut counts = Counts::default();
        self.run(rows, concurrency, |i, status| {
            counts.add(&status);
            each(i, status);
        })
        .await;
        if counts.unknown == 0
            && counts.not_sent == 0
            && let Some(id) = run_id
        {
            let _ = self.journal.run(move |j| j.finish_run(id)).await;
        }
        counts
    }

    async fn one(&self, row: BulkRow) -> Status {
        if !self.control.turn().await {
            return Status::NotSent;
        }
        let reference = row.invoice.invoice_external_id.clone().unwrap_or_default();
        // Never twice: what the journal knows of this reference at this service.
        let filter = Filter {
            reference: Some(reference.clone()),
            base_url: Some(self.base_url.clone()),
            action: Some(Action::Create),
            ..Filter::default()
        };
        let known = match self.journal.run(move |j| j.list(&filter, true, 0, 1)).await {
            Err(e) => return Status::Unknown(Unsure::Journal(e)),
            Ok(entries) => entries.into_iter().next(),
        };
        if let Some(e) = known {
            match e.outcome {
                Outcome::Done => return Status::SkippedExisting(e.invoice_id.clone()),
                Outcome::Refused => {}
                Outcome::Unknown => match journal::check(&self.client, &e).await {
                    None => return Status::Unknown(Unsure::Earlier),
                    Some(found) => {
                        let seq = e.seq;
                        let settled = found.clone();
                        let _ = self
                            .journal
                            .run(move |j| j.record_outcome(seq, &settled))
                            .await;
                        if found.outcome == Outcome::Done {
                            return Status::SkippedExisting(found.invoice_id);
                        }
                    }
                },
            }
        }
        let account = row
            .account_key
            .as_deref()
            .or(self.profile_account.as_deref())
            .map(str::to_string);
        for attempt in 0..MAX_RATE_LIMITED {
            // The first turn was taken above; a retry waits for the 429's pause.
            if attempt > 0 && !self.control.turn().await {
                return Status::NotSent;
            }
            let intent = Intent {
                profile: self.profile.clone(),
                base_url: self.base_url.clone(),
                customer: Some(row.invoice.customer.clone()),
                amount: Some(row.invoice.amount.to_string()),
                currency_code: row
                    .invoice
                    .currency
                    .currency()
                    .map(|c| c.code().to_string()),
                account_last4: account.as_deref().and_then(Intent::last4),
                external_id: Some(reference.clone()),
                ..Intent::default()
            };
            let send = self
                .client
                .create_invoice(&row.invoice, row.account_key.as_deref());
            let sent =
                match journal::write_ahead(&self.journal, Action::Create, intent, send, |c| {
                    Some(c.id.clone())
                })
                .await
                {
                    Ok(s) => s,
                    Err(e) => return Status::Refused(Refusal::Journal(e)),
                };
            match sent.result {
                Ok(inv) => return Status::Created(inv.id),
                Err(e) => match e.kind {
                    ErrorKind::RateLimited { retry_after } => {
                        // Refused before any work: the row is sent again after the pause.
                        self.control
                            .rate_limited(retry_after.unwrap_or(Duration::from_secs(1)));
                    }
                    _ if e.is_outcome_unknown() => return Status::Unknown(Unsure::Sent(e)),
                    _ => return Status::Refused(Refusal::Service(e)),
                },
            }
        }
        Status::Refused(Refusal::RateLimited)
    }
}

/// Counts of a run's rows, for progress and the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Issued now.
    pub created: usize,
    /// Issued by an earlier run.
    pub existing: usize,
    /// Refused.
    pub refused: usize,
    /// Outcome unknown.
    pub unknown: usize,
    /// Not sent (cancelled).
    pub not_sent: usize,
}

impl Counts {
    /// Adds one settled row.
    pub fn add(&mut self, s: &Status) {
        match s {
            Status::Created(_) => self.created += 1,
            Status::SkippedExisting(_) => self.existing += 1,
            Status::Refused(_) => self.refused += 1,
            Status::Unknown(_) => self.unknown += 1,
            Status::NotSent => self.not_sent += 1,
            Status::SkippedInvalid => {}
        }
    }

    /// Rows settled.
    pub fn done(&self) -> usize {
        self.created + self.existing + self.refused + self.unknown + self.not_sent
    }
}

/// Rate and time left of a run: `done` of `total` after `elapsed`. `None` until a row
/// has settled.
pub fn pace(done: usize, total: usize, elapsed: Duration) -> Option<(f64, Duration)> {
    if done == 0 {
        return None;
    }
    let rate = done as f64 / elapsed.as_secs_f64().max(0.001);
    let left = total.saturating_sub(done) as f64 / rate.max(0.001);
    Some((rate, Duration::from_secs_f64(left.min(1e7))))
}
