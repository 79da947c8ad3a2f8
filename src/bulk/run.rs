//! Sending a billing run: bounded concurrency, every worker pausing on a 429 for the time
//! the service asks, each row's reference claimed in the journal with its intent before
//! it is sent and its outcome recorded after.
//!
//! Never twice: before anything is sent, the service's listing of every customer in the
//! file is read, and a row whose reference (or a look-alike: same customer, amount,
//! currency and due date) is already there is not sent, whatever the journal says. Then
//! each row claims its reference (a unique key in the journal): a reference done, or
//! held by an entry still on its way or to check, is not sent; an earlier unknown outcome
//! is checked at the service first, and "not created" is concluded only after the
//! in-flight window. Pause holds rows not yet sent; cancel lets the requests in flight
//! finish (and be journaled) and sends nothing more.

use super::BulkRow;
use crate::api::client::AbortOnDrop;
use crate::api::{ApiError, Client, ErrorKind};
use crate::journal::{
    self, Action, Blocked, Checked, Entry, Guard, Intent, JournalError, Outcome, SharedJournal,
    Similar,
};
use futures_util::StreamExt;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What became of one row.
#[derive(Clone, Debug)]
pub enum Status {
    /// Issued now: the invoice's id.
    Created(String),
    /// The service refused it.
    Refused(ApiError),
    /// Sent (now or earlier), but whether it was issued cannot be told yet.
    Unknown(Unsure),
    /// Issued already: by an earlier run (the journal says so), or found at the service.
    SkippedExisting(Existing),
    /// It looks like an invoice already issued: not sent unless the clerk says so.
    PossibleDuplicate(Earlier),
    /// Not valid: not sent.
    SkippedInvalid,
    /// Not sent, and why.
    NotSent(Held),
}

/// An invoice found already issued for a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Existing {
    /// Its id, when known.
    pub id: Option<String>,
    /// When it was issued (RFC 3339, or the service's `created_at`), when known.
    pub time: Option<String>,
    /// Found in the service's listing (not in this journal).
    pub at_service: bool,
    /// Issued by someone else on the journal (a colleague on the shared journal, or
    /// another process): who.
    pub by: Option<journal::WrittenBy>,
}

/// The earlier invoice a row looks like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Earlier {
    /// Its id (else its reference), when known.
    pub id: Option<String>,
    /// When it was issued, when known (RFC 3339 or the service's `created_at`).
    pub time: Option<String>,
    /// Found at the service (not in this journal).
    pub at_service: bool,
    /// It has a due date (alike by it); without one, alike by the day it was issued.
    pub due: bool,
}

/// Why a row was not sent.
#[derive(Clone, Debug)]
pub enum Held {
    /// The run was stopped before its turn.
    Cancelled,
    /// The journal could not record its intent (nothing can be sent without it).
    Journal(JournalError),
    /// The service kept answering 429.
    RateLimited,
    /// The service asked to wait longer than a run waits ([`MAX_RATE_WAIT`]).
    WaitTooLong(Duration),
    /// The service's listing of its customer could not be read, so whether it is already
    /// issued could not be told.
    Unchecked(ApiError),
    /// The run stopped: another computer, with a journal of its own, is issuing the same
    /// file right now (this invoice carries one of the file's references, and this
    /// journal did not issue it).
    Elsewhere(Foreign),
}

/// An invoice of the run's file that another computer issued while the run went on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Foreign {
    /// The reference it carries.
    pub reference: String,
    /// The invoice.
    pub invoice: String,
}

/// Why a row's outcome is not known.
#[derive(Clone, Debug)]
pub enum Unsure {
    /// This run's request got no answer that says.
    Sent(ApiError),
    /// An earlier request's outcome is unknown and the service could not be asked now.
    Earlier,
    /// An earlier request (maybe another process's, maybe still on its way) is not at
    /// the service yet; nothing can be concluded before this time (UTC).
    Waiting(chrono::DateTime<chrono::Utc>),
    /// Sent and answered (the invoice, when one was created), but the journal could not
    /// record the outcome: it shows "to check" until checked.
    NotRecorded(Option<String>, JournalError),
    /// Another worker holds it right now (a colleague on the shared journal, or
    /// another run of the same file): settled after the other rows.
    Elsewhere(Box<Entry>),
}

impl Status {
    /// The report's word for it.
    pub fn word(&self) -> &'static str {
        match self {
            Status::Created(_) => "created",
            Status::Refused(_) => "refused",
            Status::Unknown(_) => "unknown",
            Status::SkippedExisting(_) => "skipped_existing",
            Status::PossibleDuplicate(_) => "possible_duplicate",
            Status::SkippedInvalid => "skipped_invalid",
            Status::NotSent(_) => "not_sent",
        }
    }

    /// The invoice's id, when there is one.
    pub fn invoice_id(&self) -> Option<&str> {
        match self {
            Status::Created(id) => Some(id),
            Status::SkippedExisting(e) => e.id.as_deref(),
            _ => None,
        }
    }
}

crate::engineers_text!(Held);

crate::engineers_text!(Unsure);

crate::engineers_text!(Earlier);

/// Most attempts for one row refused with 429 (each after the pause the service asked).
const MAX_RATE_LIMITED: u32 = 8;

/// Most times a row takes over a claim whose holder turned out not created.
const MAX_TAKEOVERS: u32 = 3;

/// How often a paused (or waiting) worker looks whether it may go on, or was stopped.
const PAUSE_POLL: Duration = Duration::from_millis(100);

/// The longest a run waits when the service answers 429: a longer wait sends the row
/// nowhere ("not sent", with the reason), never a silent day.
pub const MAX_RATE_WAIT: Duration = Duration::from_secs(5 * 60);

/// How many customers' listings are read at once before a run.
const LISTINGS_AT_ONCE: usize = 4;

/// The most rows a run sends at once: at the service's usual 50 ms an answer, 64 at once
/// is 1,280 invoices a second (#51). Each worker is a request in flight, not a thread.
pub const MAX_CONCURRENCY: usize = 64;

/// How many rows of a shared run are looked up together in the journal (see
/// [`Runner::done_elsewhere`]).
const DONE_BATCH: usize = 64;

/// Whose turn it is to send: at most the run's concurrency of requests at once, fewer
/// while the service answers slowly ([`super::pace`]). Each worker claims its next row
/// while they are on their way, so a claim's sync and its wait for company cost no row
/// any time (#51).
#[derive(Clone)]
struct Turns {
    permits: Arc<tokio::sync::Semaphore>,
    concurrency: usize,
    /// How long a claim made ahead may wait for its turn and still be sent
    /// ([`journal::claim_ahead_limit`]); `None`: a row is claimed when it can go.
    ahead: Option<Duration>,
    pace: Arc<Mutex<Paced>>,
    /// Where the clerk is told how many go at once ([`Control::slowed`]).
    control: Arc<Control>,
}

/// The pace, and the turns to take out of use as they come back: the semaphore holds
/// `limit + owed` permits.
struct Paced {
    pace: super::pace::Pace,
    owed: usize,
}

/// A request's turn: given back when its answer is in, or taken out of use when the
/// run now sends fewer at once.
struct Turn {
    permit: Option<tokio::sync::OwnedSemaphorePermit>,
    pace: Arc<Mutex<Paced>>,
}

impl Drop for Turn {
    fn drop(&mut self) {
        let mut paced = self.pace.lock().unwrap_or_else(|p| p.into_inner());
        if paced.owed > 0
            && let Some(permit) = self.permit.take()
        {
            paced.owed -= 1;
            permit.forget();
        }
    }
}

impl Turns {
    fn new(concurrency: usize, control: Arc<Control>) -> Turns {
        Turns {
            control,
            permits: Arc::new(tokio::sync::Semaphore::new(concurrency)),
            concurrency,
            ahead: journal::claim_ahead_limit(),
            pace: Arc::new(Mutex::new(Paced {
                pace: super::pace::Pace::new(concurrency),
                owed: 0,
            })),
        }
    }

    /// Rows on their way at once: the requests, and as many claimed ahead.
    fn depth(&self) -> usize {
        match self.ahead {
            Some(_) => self.concurrency * 2,
            None => self.concurrency,
        }
    }

    /// Waits for a request's turn (`None` only if the semaphore were closed; it never is).
    async fn take(&self) -> Option<Turn> {
        let permit = self.permits.clone().acquire_owned().await.ok()?;
        Some(Turn {
            permit: Some(permit),
            pace: self.pace.clone(),
        })
    }

    /// A create answered (successfully) in `took`: fewer or more may go at once.
    fn answered(&self, took: Duration) {
        let mut paced = self.pace.lock().unwrap_or_else(|p| p.into_inner());
        let before = paced.pace.limit();
        let Some(now) = paced.pace.answered(took) else {
            return;
        };
        let slowed = if now < self.concurrency { now } else { 0 };
        self.control.at_once.store(slowed, Ordering::SeqCst);
        if now < before {
            // Turns not in use now are taken out at once; the others as they come back.
            paced.owed += before - now;
            while paced.owed > 0 {
                match self.permits.clone().try_acquire_owned() {
                    Ok(p) => {
                        p.forget();
                        paced.owed -= 1;
                    }
                    Err(_) => break,
                }
            }
            tracing::info!(
                at_once = now,
                answer_ms = took.as_millis() as u64,
                "the service answers slowly: fewer requests at once"
            );
        } else {
            let more = now - before;
            let kept = more.min(paced.owed);
            paced.owed -= kept;
            self.permits.add_permits(more - kept);
        }
    }
}

/// Whose an invoice found at the service with a row's reference is (see
/// [`Runner::whose`]).
#[derive(Clone, Copy)]
enum Whose {
    /// Issued through this journal, as that invoice.
    Here,
    /// Certainly not issued through this journal.
    Elsewhere,
    /// Not certain yet (on its way here, or the journal could not be read).
    NotYet,
}

/// What a row's task came to. Its panic is the run's, as when it ran on the run's own
/// task; a task stopped otherwise (the runtime shutting down) leaves the row unknown.
async fn row_result(mut task: AbortOnDrop<Status>) -> Status {
    match (&mut task.0).await {
        Ok(status) => status,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => Status::Unknown(Unsure::Sent(ApiError::new(ErrorKind::Cancelled))),
    }
}

/// Why a claimed row's request did not go when its turn came (its claim was given back).
enum NotNow {
    /// The run is paused, waiting out a 429, or stopped.
    Held,
    /// It waited longer than a claim made ahead may ([`Turns::ahead`]).
    Stale,
}

/// How many rows of a shared run make one part, taken by one clerk at a time (see
/// [`Runner::run`]).
const PART_ROWS: usize = 16;

/// The number that names part `part` of a run whose rows give `seed` (see
/// [`Runner::parts_seed`]) on the desk's journal.
fn part_key(seed: &[u8; 32], part: usize) -> i64 {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(seed);
    h.update((part as u64).to_le_bytes());
    let d = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&d[..8]);
    i64::from_le_bytes(first)
}

/// The pause between two listings read while a run on a local journal goes on (see
/// [`Runner::watch_for_others`]).
const WATCH_PAUSE: Duration = Duration::from_millis(100);

/// Pause, resume and cancel, shared by the workers and whoever drives the run.
#[derive(Debug, Default)]
pub struct Control {
    paused: AtomicBool,
    cancelled: AtomicBool,
    /// Every worker waits until then (a 429 said so), and when that is on the clock.
    rate_pause: Mutex<Option<(Instant, chrono::DateTime<chrono::Utc>)>>,
    /// The journal failed: the run stopped for this.
    journal_failure: Mutex<Option<JournalError>>,
    /// The journal's server has not answered since then (a restart, a failover): rows
    /// wait for it, sending nothing, until it answers or `journal::away_patience` passes.
    journal_down: Mutex<Option<(Instant, chrono::DateTime<chrono::Utc>)>>,
    /// Another computer is issuing the same file: the run stopped for this.
    elsewhere: Mutex<Option<Foreign>>,
    /// Rows past the gate and not yet settled (sent or about to be).
    working: std::sync::atomic::AtomicUsize,
    /// While the service's listings are read before sending: customers read, and in all.
    checking: Mutex<Option<(usize, usize)>>,
    /// When the first row could be sent (the listings read): the pace counts from there.
    sending_since: Mutex<Option<Instant>>,
    /// Rows waiting out another request's in-flight window (a run cut short, whose
    /// requests may still be on their way), and when the last window ends.
    in_flight: Mutex<(usize, Option<Instant>)>,
    /// While the service answers slowly: how many requests go at once now (0: as many
    /// as the run's concurrency).
    at_once: std::sync::atomic::AtomicUsize,
}

/// A row waiting out an in-flight window: counted in [`Control::in_flight`] until
/// dropped.
struct InFlight<'a>(&'a Control);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if let Ok(mut w) = self.0.in_flight.lock() {
            w.0 = w.0.saturating_sub(1);
            if w.0 == 0 {
                w.1 = None;
            }
        }
    }
}

/// Keeps `why` as the reason a run stopped, unless one was kept already (the first
/// reason is the one said).
fn first_reason<T>(slot: &Mutex<Option<T>>, why: T) {
    if let Ok(mut f) = slot.lock()
        && f.is_none()
    {
        *f = Some(why);
    }
}

/// A row past the gate: counted in [`Control::working`] until dropped.
struct Working<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for Working<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Control {
    /// While the service answers slowly, how many requests go at once (fewer than the
    /// run's concurrency, `bulk::pace`).
    pub fn slowed(&self) -> Option<usize> {
        match self.at_once.load(Ordering::SeqCst) {
            0 => None,
            n => Some(n),
        }
    }

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

    /// Rows between the gate and their outcome. Paused and at zero, nothing is on its
    /// way and nothing more goes until resumed: what a caller waits for instead of a
    /// while.
    pub fn working(&self) -> usize {
        self.working.load(Ordering::SeqCst)
    }

    fn start_working(&self) -> Working<'_> {
        self.working.fetch_add(1, Ordering::SeqCst);
        Working(&self.working)
    }

    /// While the service's listings of the run's customers are read (before any row is
    /// sent): how many customers are read, of how many.
    pub fn checking(&self) -> Option<(usize, usize)> {
        self.checking.lock().ok().and_then(|c| *c)
    }

    /// When rows could first be sent; `None` while the listings are read.
    pub fn sending_since(&self) -> Option<Instant> {
        self.sending_since.lock().ok().and_then(|s| *s)
    }

    /// Rows waiting out the in-flight window of a request that may still be on its way
    /// (a run cut short), and when the last of them ends.
    pub fn in_flight_wait(&self) -> Option<(usize, Instant)> {
        let w = self.in_flight.lock().ok()?;
        match *w {
            (n, Some(until)) if n > 0 => Some((n, until)),
            _ => None,
        }
    }

    fn set_checking(&self, c: Option<(usize, usize)>) {
        if let Ok(mut s) = self.checking.lock() {
            *s = c;
        }
        if c.is_none()
            && let Ok(mut s) = self.sending_since.lock()
        {
            s.get_or_insert_with(Instant::now);
        }
    }

    fn wait_in_flight(&self, until: Instant) -> InFlight<'_> {
        if let Ok(mut w) = self.in_flight.lock() {
            w.0 += 1;
            w.1 = Some(w.1.map_or(until, |u| u.max(until)));
        }
        InFlight(self)
    }

    /// Whether a request may go now: not paused, not waiting out a 429, not stopped.
    fn may_send(&self) -> bool {
        !self.is_cancelled() && !self.is_paused() && self.waiting_until().is_none()
    }

    /// True while paused.
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::SeqCst)
    }

    /// True once cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// Stops the run because the journal could not be written: nothing more is sent
    /// (nothing may be sent that the journal cannot record).
    pub fn stop_for(&self, e: JournalError) {
        first_reason(&self.journal_failure, e);
        self.cancel();
    }

    /// Since when the journal's server has not answered, while rows wait for it.
    pub fn journal_down_since(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        self.journal_down
            .lock()
            .ok()
            .and_then(|d| d.map(|(_, at)| at))
    }

    /// Notes the journal's server out of reach; whether rows may still wait for it
    /// (not past `patience` since it went away).
    fn journal_away(&self, patience: Duration) -> bool {
        let Ok(mut down) = self.journal_down.lock() else {
            return false;
        };
        let (since, _) = down.get_or_insert_with(|| (Instant::now(), chrono::Utc::now()));
        since.elapsed() < patience
    }

    /// The journal answered again.
    fn journal_back(&self) {
        if let Ok(mut down) = self.journal_down.lock() {
            *down = None;
        }
    }

    /// The journal's failure that stopped the run, if one did.
    pub fn journal_failure(&self) -> Option<JournalError> {
        self.journal_failure.lock().ok().and_then(|f| f.clone())
    }

    /// Stops the run: `found` shows another computer issuing the same file.
    pub fn stop_elsewhere(&self, found: Foreign) {
        first_reason(&self.elsewhere, found);
        self.cancel();
    }

    /// The invoice that showed another computer issuing the same file, if one did.
    pub fn issued_elsewhere(&self) -> Option<Foreign> {
        self.elsewhere.lock().ok().and_then(|f| f.clone())
    }

    /// Why a row was not sent after the run stopped.
    fn held(&self) -> Held {
        if let Some(f) = self.issued_elsewhere() {
            return Held::Elsewhere(f);
        }
        match self.journal_failure() {
            Some(e) => Held::Journal(e),
            None => Held::Cancelled,
        }
    }

    fn rate_limited(&self, wait: Duration) {
        if let Ok(mut until) = self.rate_pause.lock() {
            let end = Instant::now() + wait;
            if until.is_none_or(|(u, _)| u < end) {
                let clock = chrono::Utc::now()
                    + chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::zero());
                *until = Some((end, clock));
            }
        }
    }

    /// While the service's 429 holds every worker: when sending resumes (UTC).
    pub fn waiting_until(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        let pause = self.rate_pause.lock().ok().and_then(|u| *u);
        pause
            .filter(|(u, _)| *u > Instant::now())
            .map(|(_, clock)| clock)
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
                // In short steps: a stop (Ctrl-C, the panel's button) ends the wait.
                Some((u, _)) if u > Instant::now() => {
                    tokio::time::sleep(PAUSE_POLL.min(u - Instant::now())).await
                }
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
    pub control: Arc<Control>,
    /// Rows (spreadsheet numbers) the clerk said to issue although they look like an
    /// earlier invoice.
    pub allow_similar: AllowSimilar,
}

/// Which rows are issued although they look like an earlier invoice.
#[derive(Clone, Debug)]
pub enum AllowSimilar {
    /// Every row (the CLI's `--allow-similar`).
    All,
    /// These rows (spreadsheet numbers) the clerk ticked; none by default.
    Rows(Arc<HashSet<usize>>),
}

impl Default for AllowSimilar {
    fn default() -> AllowSimilar {
        AllowSimilar::Rows(Arc::default())
    }
}

/// What the service already has for the rows of a run, by row index.
#[derive(Clone, Debug, Default)]
pub struct AtService {
    found: HashMap<usize, Status>,
    /// Every invoice that carried one of the rows' references (a reference issued twice
    /// before has two): what was there before the run began.
    seen: HashSet<String>,
}

/// What a look-alike is matched by: customer, amount (without trailing zeros), due date.
type LookKey = (String, String, Option<String>);

impl Runner {
    /// The service's listing of every customer of `rows`, a few at a time: which rows'
    /// references are already there (issued, whatever the journal says), and which rows
    /// look like an invoice there (same customer, amount and currency, same due date;
    /// without a due date, created the same day). Only what concerns the rows is kept.
    pub async fn at_service(&self, rows: &[BulkRow]) -> AtService {
        let mut by_ref: HashMap<&str, usize> = HashMap::new();
        let mut by_look: HashMap<LookKey, Vec<usize>> = HashMap::new();
        let mut customers: Vec<String> = Vec::new();
        for (i, r) in rows.iter().enumerate() {
            for reference in r.references() {
                by_ref.insert(reference, i);
            }
            by_look
                .entry((
                    r.invoice.customer.clone(),
                    r.invoice.amount.normalize().to_string(),
                    r.invoice.due_date.clone(),
                ))
                .or_default()
                .push(i);
            customers.push(r.invoice.customer.clone());
        }
        customers.sort_unstable();
        customers.dedup();
        let of = customers.len();
        self.control.set_checking(Some((0, of)));
        let today = chrono::Local::now().date_naive();
        let same_day = |t: &str| {
            chrono::DateTime::parse_from_rfc3339(t)
                .map(|t| t.with_timezone(&chrono::Local).date_naive() == today)
                .unwrap_or(false)
        };
        let (by_ref, by_look, same_day) = (&by_ref, &by_look, &same_day);
        let listings = futures_util::stream::iter(customers.into_iter().map(|c: String| {
            let client = self.client.clone();
            async move {
                let mut found: HashMap<usize, Status> = HashMap::new();
                let mut seen: Vec<String> = Vec::new();
                let listed = client
                    .list_customer_invoices(&c, |page, _| {
                        for inv in page.iter() {
                            if let Some(&i) = inv
                                .invoice_external_id
                                .as_deref()
                                .and_then(|r| by_ref.get(r))
                            {
                                seen.push(inv.id.clone());
                                found.insert(
                                    i,
                                    Status::SkippedExisting(Existing {
                                        id: Some(inv.id.clone()),
                                        time: inv.created_at().map(str::to_string),
                                        at_service: true,
                                        by: None,
                                    }),
                                );
                                continue;
                            }
                            if inv.is_void == Some(true) {
                                continue;
                            }
                            let (Some(customer), Some(amount)) = (&inv.customer, inv.amount) else {
                                continue;
                            };
                            let key = (
                                customer.clone(),
                                amount.normalize().to_string(),
                                inv.due_date.clone(),
                            );
                            let Some(rows_like) = by_look.get(&key) else {
                                continue;
                            };
                            let created = inv.created_at().map(str::to_string);
                            if inv.due_date.is_none() && !created.as_deref().is_some_and(same_day) {
                                continue;
                            }
                            for &i in rows_like {
                                let row = &rows[i];
                                let currency_matches =
                                    match (row.invoice.currency.currency(), &inv.currency_code) {
                                        (Some(c), Some(code)) => c.code() == code,
                                        _ => true,
                                    };
                                if currency_matches {
                                    found.entry(i).or_insert_with(|| {
                                        Status::PossibleDuplicate(Earlier {
                                            id: Some(inv.id.clone()),
                                            time: created.clone(),
                                            at_service: true,
                                            due: inv.due_date.is_some(),
                                        })
                                    });
                                }
                            }
                        }
                        std::ops::ControlFlow::Continue(())
                    })
                    .await;
                match listed {
                    Ok(_) => (found, seen),
                    // A customer the service does not know has no invoices there.
                    Err(e) if matches!(e.kind, ErrorKind::NotFound(_)) => (found, seen),
                    Err(e) => {
                        for (i, r) in rows.iter().enumerate() {
                            if r.invoice.customer == *c {
                                found.insert(i, Status::NotSent(Held::Unchecked(e.clone())));
                            }
                        }
                        (found, seen)
                    }
                }
            }
        }))
        .buffer_unordered(LISTINGS_AT_ONCE);
        let mut out = AtService::default();
        futures_util::pin_mut!(listings);
        let mut read = 0;
        while let Some((found, seen)) = listings.next().await {
            read += 1;
            self.control.set_checking(Some((read, of)));
            out.seen.extend(seen);
            for (i, s) in found {
                // A reference found wins over a look-alike found in another page.
                match (out.found.get(&i), &s) {
                    (Some(Status::SkippedExisting(_)), _) => {}
                    _ => {
                        out.found.insert(i, s);
                    }
                }
            }
        }
        self.control.set_checking(None);
        out
    }

    /// Sends `rows`, `concurrency` at a time, after asking the service what it already
    /// has of them ([`Runner::at_service`]); `each` hears of every row as it settles
    /// (its index in `rows`, what became of it), in the order they settle.
    pub async fn run(
        &self,
        rows: Vec<BulkRow>,
        concurrency: usize,
        mut each: impl FnMut(usize, Status),
    ) {
        let at_service = self.at_service(&rows).await;
        let siblings: Arc<HashSet<String>> = Arc::new(
            rows.iter()
                .filter_map(|r| r.invoice.invoice_external_id.clone())
                .collect(),
        );
        let rows = Arc::new(rows);
        let turns = Turns::new(concurrency.clamp(1, MAX_CONCURRENCY), self.control.clone());
        let depth = turns.depth();
        // A journal of this computer's own cannot see another computer's claims: the
        // service's listings are watched instead while the run goes on.
        let finished = Arc::new(AtomicBool::new(false));
        // Each row issued here and its invoice, for the watcher.
        let (issued_here, issued) = tokio::sync::mpsc::unbounded_channel::<(usize, String)>();
        let watcher = (!self.journal.is_shared() && !rows.is_empty()).then(|| {
            let (me, rows, finished) = (self.clone(), rows.clone(), finished.clone());
            let known = at_service.clone();
            tokio::spawn(async move { me.watch_for_others(rows, known, issued, finished).await })
        });
        // Rows another worker has on its way right now (a colleague on the shared
        // journal, another run of this file): the others first, then these.
        let mut elsewhere: Vec<(usize, Box<Entry>)> = Vec::new();
        // On a desk's shared journal the file is cut in parts of [`PART_ROWS`] rows. Each
        // clerk starts at its own place in the file and takes the parts no colleague
        // has (`Journal::take_part`), leaving the others' parts for a second pass, when
        // most of their rows are issued and are found a batch at a time: clerks running
        // a file together work on different rows instead of reaching for the same ones.
        // A clerk alone keeps the file's order.
        let shared = self.journal.is_shared();
        let n = rows.len();
        let parts = n.div_ceil(PART_ROWS);
        let first = if shared && parts > 0 {
            (std::process::id() as usize).wrapping_mul(2_654_435_761) % parts
        } else {
            0
        };
        let seed = shared.then(|| Arc::new(self.parts_seed(&rows)));
        // Part `p` is the rows `p * PART_ROWS` up to the next part's first (or the end).
        let mut pass: Vec<(usize, Vec<usize>)> = (0..parts)
            .map(|k| (first + k) % parts)
            .map(|p| (p, (p * PART_ROWS..((p + 1) * PART_ROWS).min(n)).collect()))
            .collect();
        let later: Arc<Mutex<Vec<usize>>> = Arc::default();
        let held: Arc<Mutex<Vec<i64>>> = Arc::default();
        for taking in [true, false] {
            if !taking {
                // The colleagues' parts, read [`DONE_BATCH`] rows at a time.
                let rest = std::mem::take(&mut *later.lock().unwrap_or_else(|p| p.into_inner()));
                pass = rest
                    .chunks(DONE_BATCH)
                    .map(|c| (usize::MAX, c.to_vec()))
                    .collect();
            }
            let (me, rows_for_parts) = (self.clone(), rows.clone());
            let (seed, later, held) = (seed.clone(), later.clone(), held.clone());
            let stream = futures_util::stream::iter(std::mem::take(&mut pass))
                .then(move |(p, part)| {
                    let (me, rows) = (me.clone(), rows_for_parts.clone());
                    let (seed, later, held) = (seed.clone(), later.clone(), held.clone());
                    async move {
                        if taking && let Some(seed) = seed {
                            let key = part_key(&seed, p);
                            // A journal that cannot say is not a reason to stop: the
                            // part is worked on, each row's claim decides.
                            let mine = me.journal.run(move |j| j.take_part(key)).await;
                            if matches!(mine, Ok(false)) {
                                let mut later = later.lock().unwrap_or_else(|p| p.into_inner());
                                later.extend(part);
                                return futures_util::stream::iter(Vec::new());
                            }
                            // The parts before the last two are given back (their last
                            // rows may still be on their way: a colleague taking them
                            // meets those rows' claims).
                            let old: Vec<i64> = {
                                let mut held = held.lock().unwrap_or_else(|p| p.into_inner());
                                held.push(key);
                                let keep = held.len().saturating_sub(2);
                                held.drain(..keep).collect()
                            };
                            let _ = me.journal.run(move |j| j.leave_parts(&old)).await;
                        }
                        let done = if shared {
                            me.done_elsewhere(&rows, &part).await
                        } else {
                            HashMap::new()
                        };
                        futures_util::stream::iter(
                            part.into_iter()
                                .map(move |i| (i, done.get(&i).cloned()))
                                .collect::<Vec<_>>(),
                        )
                    }
                })
                .flatten()
                .map(|(i, done)| {
                    let me = self.clone();
                    let known = at_service.found.get(&i).cloned();
                    let (siblings, rows, turns) = (siblings.clone(), rows.clone(), turns.clone());
                    async move {
                        match done {
                            Some(status) => (i, status),
                            // Each row on a task of its own: its answer is taken in on the
                            // worker that read it, not handed to the thread that polls the
                            // run (at C = 64 under load that hand-over was part of every
                            // row's time, #51).
                            None => {
                                let task = AbortOnDrop(tokio::spawn(async move {
                                    let row = rows[i].clone();
                                    me.one(row, known, siblings, true, &turns).await
                                }));
                                (i, row_result(task).await)
                            }
                        }
                    }
                })
                .buffer_unordered(depth);
            futures_util::pin_mut!(stream);
            while let Some((i, status)) = stream.next().await {
                match status {
                    Status::Unknown(Unsure::Elsewhere(e)) => elsewhere.push((i, e)),
                    status => {
                        if let Status::Created(id) = &status {
                            let _ = issued_here.send((i, id.clone()));
                        }
                        each(i, status)
                    }
                }
            }
        }
        let left: Vec<i64> = std::mem::take(&mut *held.lock().unwrap_or_else(|p| p.into_inner()));
        let _ = self.journal.run(move |j| j.leave_parts(&left)).await;
        // Most of them were settled by their holders meanwhile: found a batch at a time
        // (as above), then each of the others waits for its holder's outcome in the
        // journal (or for the holder's in-flight window to pass: then the service is
        // asked, as for any unknown).
        if shared {
            let mut waiting = Vec::with_capacity(elsewhere.len());
            for batch in elsewhere.chunks(DONE_BATCH) {
                let indices: Vec<usize> = batch.iter().map(|(i, _)| *i).collect();
                let mut done = self.done_elsewhere(&rows, &indices).await;
                for (i, holder) in batch {
                    match done.remove(i) {
                        Some(status) => each(*i, status),
                        None => waiting.push((*i, holder.clone())),
                    }
                }
            }
            elsewhere = waiting;
        }
        let mut stream = futures_util::stream::iter(elsewhere)
            .map(|(i, holder)| {
                let me = self.clone();
                let known = at_service.found.get(&i).cloned();
                let (siblings, rows, turns) = (siblings.clone(), rows.clone(), turns.clone());
                async move {
                    me.until_settled(&holder).await;
                    (
                        i,
                        me.one(rows[i].clone(), known, siblings, false, &turns)
                            .await,
                    )
                }
            })
            .buffer_unordered(depth);
        while let Some((i, status)) = stream.next().await {
            each(i, status);
        }
        drop(stream);
        finished.store(true, Ordering::SeqCst);
        if let Some(w) = watcher {
            w.abort();
        }
    }

    /// Which of the rows `batch` (indices into `rows`) the journal has as issued under
    /// their own reference and scope (a colleague's, or an earlier run's): their
    /// statuses, found with one statement per account. Anything else, or a journal that
    /// cannot be read, is left to each row's own claim.
    async fn done_elsewhere(&self, rows: &[BulkRow], batch: &[usize]) -> HashMap<usize, Status> {
        let mut by_scope: HashMap<String, Vec<(usize, String)>> = HashMap::new();
        for &i in batch {
            let row = &rows[i];
            let Some(reference) = row.invoice.invoice_external_id.clone() else {
                continue;
            };
            by_scope
                .entry(self.intent_for(row).service)
                .or_default()
                .push((i, reference));
        }
        let mut out = HashMap::new();
        for (scope, wanted) in by_scope {
            let keys: Vec<String> = wanted.iter().map(|(_, k)| k.clone()).collect();
            let Ok(done) = self
                .journal
                .run(move |j| j.done_in_scope(&scope, &keys))
                .await
            else {
                continue;
            };
            for (i, reference) in wanted {
                if let Some(d) = done.get(&reference) {
                    let by = (d.by.user != self.journal.who()).then(|| d.by.clone());
                    out.insert(
                        i,
                        Status::SkippedExisting(Existing {
                            id: d.invoice_id.clone(),
                            time: Some(d.time.clone()),
                            at_service: false,
                            by,
                        }),
                    );
                }
            }
        }
        out
    }

    /// On a journal of this computer's own: reads the service's listing of each of the
    /// run's customers in turn while the run goes on. An invoice carrying one of the
    /// file's references that this journal did not issue, and that was not there when
    /// the run began, means another computer is issuing the same file now with a journal
    /// of its own: the run stops at once (rows already on their way may have gone twice;
    /// no more do).
    async fn watch_for_others(
        &self,
        rows: Arc<Vec<BulkRow>>,
        at_start: AtService,
        mut issued_here: tokio::sync::mpsc::UnboundedReceiver<(usize, String)>,
        finished: Arc<AtomicBool>,
    ) {
        let mut by_ref: HashMap<String, usize> = HashMap::new();
        let mut known = at_start.seen;
        let mut customers: Vec<String> = Vec::new();
        for (i, r) in rows.iter().enumerate() {
            // Its customer's listing could not be read: nothing to compare with.
            if let Some(Status::NotSent(Held::Unchecked(_))) = at_start.found.get(&i) {
                continue;
            }
            for reference in r.references() {
                by_ref.insert(reference.to_string(), i);
            }
            if !customers.contains(&r.invoice.customer) {
                customers.push(r.invoice.customer.clone());
            }
        }
        let mut turn = 0;
        let mut next: VecDeque<String> = Default::default();
        while !customers.is_empty()
            && !finished.load(Ordering::SeqCst)
            && !self.control.is_cancelled()
        {
            // The customers of rows just issued here first: a computer running the same
            // file in step has just issued them too. Else each customer in turn (one
            // running ahead of this one). An invoice this run was answered with is
            // known as this journal's without asking the journal (which a billing run
            // of 8,000 rows was asked 8,000 times, the writer waiting, #51).
            let issued = |(i, id): (usize, String),
                          known: &mut HashSet<String>,
                          next: &mut VecDeque<String>| {
                known.insert(id);
                let c = &rows[i].invoice.customer;
                if !next.contains(c) {
                    next.push_back(c.clone());
                }
            };
            if next.is_empty()
                && let Ok(Some(one)) = tokio::time::timeout(WATCH_PAUSE, issued_here.recv()).await
            {
                issued(one, &mut known, &mut next);
            }
            while let Ok(one) = issued_here.try_recv() {
                issued(one, &mut known, &mut next);
            }
            let customer = match next.pop_front() {
                Some(c) if customers.contains(&c) => c,
                Some(_) => continue,
                None => {
                    turn += 1;
                    customers[(turn - 1) % customers.len()].clone()
                }
            };
            let customer = &customer;
            let mut seen: Vec<(usize, String, String)> = Vec::new();
            let _ = self
                .client
                .list_customer_invoices(customer, |page, _| {
                    for inv in page.iter() {
                        if let Some(r) = inv.invoice_external_id.as_deref()
                            && let Some(&i) = by_ref.get(r)
                            && !known.contains(&inv.id)
                        {
                            seen.push((i, r.to_string(), inv.id.clone()));
                        }
                    }
                    std::ops::ControlFlow::Continue(())
                })
                .await;
            // What was answered while the listing was read.
            while let Ok(one) = issued_here.try_recv() {
                issued(one, &mut known, &mut next);
            }
            seen.retain(|(_, _, invoice)| !known.contains(invoice));
            let whose = self.whose(&rows, &seen).await;
            for ((_, reference, invoice), whose) in seen.into_iter().zip(whose) {
                match whose {
                    Whose::Elsewhere => {
                        self.control.stop_elsewhere(Foreign { reference, invoice });
                        return;
                    }
                    // Known as this run's from now on: each listing would otherwise
                    // ask the journal of every invoice issued so far (1,000 rows to one
                    // customer: thousands of reads a second, holding the journal's lock).
                    Whose::Here => {
                        known.insert(invoice);
                    }
                    Whose::NotYet => {}
                }
            }
        }
    }

    /// What names a run's parts on the desk's journal: its rows' references, in order,
    /// each in its scope (the service and account they are issued at). Colleagues
    /// running the same rows share it, whatever else their files or profiles differ in.
    fn parts_seed(&self, rows: &[BulkRow]) -> [u8; 32] {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        for row in rows {
            h.update(self.intent_for(row).service.as_bytes());
            h.update([0]);
            h.update(
                row.invoice
                    .invoice_external_id
                    .as_deref()
                    .unwrap_or("")
                    .as_bytes(),
            );
            h.update([0]);
        }
        h.finalize().into()
    }

    /// What the journal records of issuing `row` (its own account key, else the
    /// profile's).
    fn intent_for(&self, row: &BulkRow) -> Intent {
        let account = row
            .account_key
            .as_deref()
            .or(self.profile_account.as_deref());
        Intent::for_create(&self.profile, &self.base_url, account, &row.invoice)
    }

    /// Whose each invoice `(row, reference, id)` in `seen` is, found at the service with
    /// its row's reference: certainly another's when the reference was never claimed here
    /// or was issued here as another invoice; this journal's when issued here as `id`;
    /// else (on its way here, or the journal unreadable) not certain yet. One read of
    /// the journal for them all (a listing can show a thousand new invoices).
    async fn whose(&self, rows: &[BulkRow], seen: &[(usize, String, String)]) -> Vec<Whose> {
        let mut out = Vec::with_capacity(seen.len());
        // A few hundred at a time: the journal's writer waits while it is read.
        for some in seen.chunks(256) {
            let asked: Vec<(Intent, Vec<String>)> = some
                .iter()
                .map(|(i, _, _)| (self.intent_for(&rows[*i]), rows[*i].aliases()))
                .collect();
            let held = self
                .journal
                .run(move |j| {
                    asked
                        .iter()
                        .map(|(intent, aliases)| j.holder(Action::Create, intent, aliases))
                        .collect::<Result<Vec<_>, _>>()
                })
                .await;
            let Ok(held) = held else {
                out.extend(std::iter::repeat_n(Whose::NotYet, some.len()));
                continue;
            };
            out.extend(
                held.into_iter()
                    .zip(some)
                    .map(|(held, (_, _, id))| match held {
                        None => Whose::Elsewhere,
                        Some(e) if e.outcome == Outcome::Done => {
                            if e.invoice_id.as_deref() == Some(id.as_str()) {
                                Whose::Here
                            } else {
                                Whose::Elsewhere
                            }
                        }
                        Some(_) => Whose::NotYet,
                    }),
            );
        }
        out
    }

    /// As [`Runner::run`], for the rows of the spreadsheet `file` (digest `file_id`, its
    /// columns read by `mapping` when the clerk changed them): the run is noted in the
    /// journal when it starts and marked finished when every row
    /// is settled, so a run cut short is offered again. What became of the rows, counted.
    pub async fn run_file(
        &self,
        file: &std::path::Path,
        file_id: &str,
        mapping: Option<String>,
        rows: Vec<BulkRow>,
        concurrency: usize,
        mut each: impl FnMut(usize, Status),
    ) -> Counts {
        let (file, id) = (file.to_path_buf(), file_id.to_string());
        let (profile, base_url, total) = (self.profile.clone(), self.base_url.clone(), rows.len());
        let run_id = self
            .journal
            .run(move |j| {
                j.start_run(
                    &file,
                    &id,
                    &profile,
                    &base_url,
                    total as u64,
                    mapping.as_deref(),
                )
            })
            .await
            .ok();
        let mut counts = Counts::default();
        self.run(rows, concurrency, |i, status| {
            // Skipped because the service has it and this journal does not (rows this
            // journal has are skipped as such, even though the service has them too).
            if matches!(&status, Status::SkippedExisting(e) if e.at_service) {
                counts.found_at_service += 1;
            }
            counts.add(&status);
            each(i, status);
        })
        .await;
        if counts.unknown == 0
            && counts.not_sent == 0
            && counts.similar == 0
            && let Some(id) = run_id
        {
            let _ = self.journal.run(move |j| j.finish_run(id)).await;
        }
        counts
    }

    /// Sends one row, journal first. With `defer`, a row whose reference another
    /// worker holds right now (a colleague on the shared journal, or another run of
    /// the file) is handed back to be settled after the others, instead of waiting for
    /// it or asking the service: the workers share the file between them.
    async fn one(
        &self,
        row: BulkRow,
        known: Option<Status>,
        siblings: Arc<HashSet<String>>,
        defer: bool,
        turns: &Turns,
    ) -> Status {
        if !self.control.turn().await {
            return Status::NotSent(self.control.held());
        }
        let allowed = match &self.allow_similar {
            AllowSimilar::All => true,
            AllowSimilar::Rows(rows) => rows.contains(&row.row),
        };
        let shown = match known {
            Some(Status::PossibleDuplicate(earlier)) if !allowed => {
                return Status::PossibleDuplicate(earlier);
            }
            Some(Status::PossibleDuplicate(earlier)) => earlier.id,
            None => None,
            Some(Status::SkippedExisting(found)) => {
                // Found at the service: an entry of this journal still "to check" for it
                // is settled now (the badge drops, the next run need not ask). One this
                // journal has is said as this journal's (the service having it too is
                // not news).
                return match self.settle_found(&row, found.id.clone()).await {
                    Some(here) => self.existing(&here),
                    None => Status::SkippedExisting(found),
                };
            }
            Some(other) => return other,
        };
        let guard = Guard {
            aliases: row.aliases(),
            similar: Similar {
                siblings,
                allow: allowed,
                shown,
            },
            missing: None,
        };
        if defer && self.journal.is_shared() {
            // A row a colleague holds is seen by reading, without a write transaction:
            // workers sharing a file skip each other's rows cheaply. (On a journal of
            // this computer's own the claim below says the same in the group's commit;
            // a read first was a thread hand-off and a wait for the journal each row.)
            let intent = self.intent_for(&row);
            let aliases = guard.aliases.clone();
            let held = self
                .journal
                .run(move |j| j.holder(Action::Create, &intent, &aliases))
                .await;
            match held {
                Ok(Some(e)) if e.outcome == Outcome::Done => {
                    return self.existing(&e);
                }
                Ok(Some(e)) if self.on_its_way(&e).await => {
                    return Status::Unknown(Unsure::Elsewhere(Box::new(e)));
                }
                // Free, refused, or long unknown: the claim below decides.
                _ => {}
            }
        }
        let mut rate_limited = 0;
        let mut takeovers = 0;
        let mut busy_since = None;
        let mut ahead = turns.ahead;
        loop {
            let intent = self.intent_for(&row);
            let request = self
                .client
                .create_invoice(&row.invoice, row.account_key.as_deref());
            // Each answer's time (from when its request goes) sets how many go at once.
            let send = async move {
                let began = Instant::now();
                let answer = request.await;
                if answer.is_ok() {
                    turns.answered(began.elapsed());
                }
                answer
            };
            // Claimed ahead, the turn is waited for after the claim (and the claim's
            // age looked at then); otherwise before it.
            let (early, since) = match ahead {
                Some(limit) => (None, Some((journal::Moment::now(), limit))),
                None => (Some(turns.take().await), None),
            };
            let control = &self.control;
            let gate = || async move {
                let turn = match early {
                    Some(turn) => turn,
                    None => turns.take().await,
                };
                // Counted first, then the pause looked at: whoever pauses and then sees
                // no row working knows none will start.
                let working = control.start_working();
                if !control.may_send() {
                    return Err(NotNow::Held);
                }
                // A claim older than that could be taken for a stopped run's by then.
                if since.is_some_and(|(at, limit)| !at.within(limit)) {
                    return Err(NotNow::Stale);
                }
                Ok((turn, working))
            };
            let claim = journal::Claim {
                action: Action::Create,
                intent,
                guard: guard.clone(),
                ahead: ahead.is_some(),
            };
            let sent = journal::write_ahead_gated(&self.journal, claim, gate, send, |c| {
                Some(c.id.clone())
            })
            .await;
            if !matches!(&sent, Err(Blocked::Journal(_))) {
                self.control.journal_back();
            }
            let sent = match sent {
                Ok(Ok(s)) => s,
                // The claim was given back: claimed again once the run may go on, and
                // after a long wait for a turn, only when its request can go at once.
                Ok(Err(NotNow::Stale)) => {
                    ahead = None;
                    continue;
                }
                Ok(Err(NotNow::Held)) => {
                    if !self.control.turn().await {
                        return Status::NotSent(self.control.held());
                    }
                    continue;
                }
                // A colleague's transaction holds this claim (a laptop stopped
                // mid-claim, until the server ends it): nothing was written or sent;
                // the claim is tried again a while before the journal is called busy.
                Err(Blocked::Journal(e))
                    if !self.control.is_cancelled() && journal::busy_again(&e, &mut busy_since) =>
                {
                    tokio::time::sleep(journal::BUSY_RETRY).await;
                    continue;
                }
                // The journal's server went away (a restart, a failover, the network):
                // nothing was sent; the row claims again once it answers.
                Err(Blocked::Journal(e)) if self.waits_for_journal(&e) => {
                    tokio::time::sleep(JOURNAL_RETRY).await;
                    continue;
                }
                Err(Blocked::Journal(e)) => {
                    self.control.stop_for(e.clone());
                    return Status::NotSent(Held::Journal(e));
                }
                Err(Blocked::Done(e)) => {
                    return self.existing(&e);
                }
                Err(Blocked::LooksLike(e)) => {
                    return Status::PossibleDuplicate(Earlier {
                        id: e.invoice_id.clone().or(e.external_id.clone()),
                        time: Some(e.time.clone()),
                        at_service: false,
                        due: e.due_date.is_some(),
                    });
                }
                Err(Blocked::Pending(e)) if defer && self.on_its_way(&e).await => {
                    return Status::Unknown(Unsure::Elsewhere(Box::new(e)));
                }
                Err(Blocked::Pending(e)) => {
                    match journal::check_and_record(&self.journal, &self.client, &e).await {
                        Err(e) => {
                            self.control.stop_for(e.clone());
                            return Status::NotSent(Held::Journal(e));
                        }
                        Ok(Checked::Unreachable) => return Status::Unknown(Unsure::Earlier),
                        Ok(Checked::Waiting(until)) => {
                            return Status::Unknown(Unsure::Waiting(until));
                        }
                        Ok(Checked::Settled(s)) if s.outcome == Outcome::Done => {
                            return Status::SkippedExisting(Existing {
                                id: s.invoice_id,
                                time: Some(e.time.clone()),
                                at_service: false,
                                by: self.other(&e),
                            });
                        }
                        // Checked: not created. The claim is free; take it (a few times
                        // at most: another process may be taking it too).
                        Ok(Checked::Settled(_)) => {
                            takeovers += 1;
                            if takeovers > MAX_TAKEOVERS {
                                return Status::Unknown(Unsure::Earlier);
                            }
                            continue;
                        }
                    }
                }
            };
            if let Some(e) = sent.outcome_not_recorded.clone()
                && let Err(e) = self.record_late(sent.seq, &sent.settled, e).await
            {
                // The answer is known here, not in the journal: the run stops, and this
                // row says what came of it.
                self.control.stop_for(e.clone());
                let id = sent.result.as_ref().ok().map(|inv| inv.id.clone());
                return Status::Unknown(Unsure::NotRecorded(id, e));
            }
            match sent.result {
                Ok(inv) => return Status::Created(inv.id),
                Err(e) => match e.kind {
                    ErrorKind::RateLimited { retry_after } => {
                        // Refused before any work: the row is sent again after the pause,
                        // unless the service asks for longer than a run waits.
                        let wait = retry_after.unwrap_or(Duration::from_secs(1));
                        if wait > MAX_RATE_WAIT {
                            return Status::NotSent(Held::WaitTooLong(wait));
                        }
                        self.control.rate_limited(wait);
                        rate_limited += 1;
                        if rate_limited >= MAX_RATE_LIMITED {
                            return Status::NotSent(Held::RateLimited);
                        }
                        if !self.control.turn().await {
                            return Status::NotSent(self.control.held());
                        }
                    }
                    _ if e.is_outcome_unknown() => return Status::Unknown(Unsure::Sent(e)),
                    _ => return Status::Refused(e),
                },
            }
        }
    }
}

impl Runner {
    /// Whether a claim's holder may still have its request on its way (another worker is
    /// at it): its intent is younger than the in-flight window, by the journal's clock
    /// that cannot step ([`journal::Journal::age`]).
    async fn on_its_way(&self, holder: &Entry) -> bool {
        let seq = holder.seq;
        self.journal
            .run(move |j| j.age(seq))
            .await
            .is_ok_and(|age| age < journal::in_flight_window(&self.client))
    }

    /// A row whose reference the journal's entry `e` issued (by whom, when not us).
    fn existing(&self, e: &Entry) -> Status {
        Status::SkippedExisting(Existing {
            id: e.invoice_id.clone(),
            time: Some(e.time.clone()),
            at_service: false,
            by: self.other(e),
        })
    }

    /// Who issued `e`, when it was not this journal's own writer (a colleague, another
    /// process under another name).
    fn other(&self, e: &Entry) -> Option<journal::WrittenBy> {
        (e.user != self.journal.who()).then(|| e.written_by())
    }

    /// Waits until the entry another worker holds is settled in the journal, the run is
    /// cancelled, or its in-flight window has passed.
    async fn until_settled(&self, holder: &Entry) {
        let seq = holder.seq;
        // Said while it lasts: how long at most, by the journal's clock.
        let left = self
            .journal
            .run(move |j| j.age(seq))
            .await
            .ok()
            .and_then(|age| {
                (journal::in_flight_window(&self.client) - age)
                    .to_std()
                    .ok()
            })
            .unwrap_or_default();
        let _waiting = self.control.wait_in_flight(Instant::now() + left);
        while !self.control.is_cancelled() && self.on_its_way(holder).await {
            let now = self.journal.run(move |j| j.entry(seq)).await;
            match now {
                Ok(Some(e)) if e.outcome != Outcome::Unknown => return,
                Err(_) => return,
                _ => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        }
    }
}

/// How many times, a second apart, an outcome the journal refused is written again (a
/// journal locked by another program for a while — up to twice the busy timeout —,
/// then free).
const LATE_TRIES: u32 = 10;

/// How often a row waiting for the journal's server tries again.
const JOURNAL_RETRY: Duration = Duration::from_secs(1);

impl Runner {
    /// Writes an outcome the journal refused once, again, for a while; the last error
    /// when it never could.
    async fn record_late(
        &self,
        seq: i64,
        settled: &journal::Settled,
        mut last: JournalError,
    ) -> Result<(), JournalError> {
        let mut tries = 0;
        loop {
            // A journal whose server went away is waited for as long as rows wait for
            // it; any other trouble, a few times.
            let again = if last.trouble() == journal::Trouble::Unreachable {
                self.waits_for_journal(&last)
            } else {
                tries < LATE_TRIES
            };
            if !again {
                break;
            }
            tries += 1;
            tokio::time::sleep(Duration::from_secs(1)).await;
            let s = settled.clone();
            match self.journal.run(move |j| j.record_outcome(seq, &s)).await {
                Ok(_) => {
                    self.control.journal_back();
                    return Ok(());
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// Whether a row whose journal write failed with `e` waits for the journal's
    /// server and tries again: it was out of reach, for less than the run's patience,
    /// and the run goes on. Nothing is sent meanwhile: no claim, no request.
    fn waits_for_journal(&self, e: &JournalError) -> bool {
        e.trouble() == journal::Trouble::Unreachable
            && !self.control.is_cancelled()
            && self.control.journal_away(journal::away_patience())
    }

    /// Settles an entry of this journal still "to check" for `row`, found at the service
    /// as invoice `id`; returns this journal's entry of it (that one, now done as `id`, or
    /// one already done as `id`), if any.
    async fn settle_found(&self, row: &BulkRow, id: Option<String>) -> Option<Entry> {
        let intent = self.intent_for(row);
        let aliases: Vec<String> = row.aliases();
        self.journal
            .run(move |j| {
                let Some(mut e) = j.holder(Action::Create, &intent, &aliases)? else {
                    return Ok(None);
                };
                match e.outcome {
                    Outcome::Unknown => {
                        j.record_outcome(
                            e.seq,
                            &journal::Settled {
                                checked: true,
                                ..journal::Settled::done(id.clone())
                            },
                        )?;
                        e.invoice_id = id;
                    }
                    Outcome::Done if e.invoice_id == id => {}
                    _ => return Ok(None),
                }
                Ok(Some(e))
            })
            .await
            .ok()
            .flatten()
    }
}

/// Counts of a run's rows, for progress and the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Issued now.
    pub created: usize,
    /// Issued already (by an earlier run, or found at the service).
    pub existing: usize,
    /// Of those, found in the service's listing (issued from elsewhere, or recorded in
    /// another journal).
    pub found_at_service: usize,
    /// Of those, issued by someone else on the journal (a colleague on the shared
    /// journal, or another process).
    pub by_others: usize,
    /// Refused.
    pub refused: usize,
    /// Outcome unknown.
    pub unknown: usize,
    /// Of those, waiting: an earlier request may still be on its way.
    pub waiting: usize,
    /// The latest time (UTC) a waiting row can be settled.
    pub waiting_until: Option<chrono::DateTime<chrono::Utc>>,
    /// Looking like an invoice already issued: not sent.
    pub similar: usize,
    /// Not sent (stopped, journal trouble, rate limited, the service's listing unread).
    pub not_sent: usize,
    /// Of those, not sent because the run was stopped.
    pub cancelled: usize,
    /// Rows the journal failed for: not sent (their intent could not be written), or
    /// sent and their outcome not written.
    pub journal_failed: usize,
}

impl Counts {
    /// Adds one settled row.
    pub fn add(&mut self, s: &Status) {
        match s {
            Status::Created(_) => self.created += 1,
            Status::SkippedExisting(e) => {
                self.existing += 1;
                if e.by.is_some() {
                    self.by_others += 1;
                }
            }
            Status::Refused(_) => self.refused += 1,
            Status::Unknown(u) => {
                self.unknown += 1;
                if let Unsure::NotRecorded(..) = u {
                    self.journal_failed += 1;
                }
                if let Unsure::Waiting(until) = u {
                    self.waiting += 1;
                    if self.waiting_until.is_none_or(|w| w < *until) {
                        self.waiting_until = Some(*until);
                    }
                }
            }
            Status::PossibleDuplicate(_) => self.similar += 1,
            Status::NotSent(h) => {
                self.not_sent += 1;
                match h {
                    Held::Cancelled => self.cancelled += 1,
                    Held::Journal(_) => self.journal_failed += 1,
                    _ => {}
                }
            }
            Status::SkippedInvalid => {}
        }
    }

    /// Rows settled.
    pub fn done(&self) -> usize {
        self.created + self.existing + self.refused + self.unknown + self.similar + self.not_sent
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
