//! Journaling around a request: the intent before, the outcome after; checking an
//! unknown outcome against the service.

use super::group::Group;
use super::store::GroupedWrite;
use super::{Action, Claimed, Entry, Guard, Intent, Journal, JournalError, Outcome, Settled};
use crate::api::{ApiError, Client, ErrorKind, InvoiceStatus};
use std::sync::{Arc, Mutex};

/// A journal shared between tasks, never waited on by an async thread (a recorded
/// intent waits for the disk, a long export may hold the lock): its reads run on tokio's
/// blocking threads, its grouped writes on its own writer thread. Its file's path is kept
/// beside the lock, for errors.
#[derive(Clone)]
pub struct SharedJournal {
    journal: Arc<Mutex<Journal>>,
    /// The journal's writer and the writes waiting for it, committed together.
    writer: Arc<Writer>,
    path: Arc<std::path::PathBuf>,
    who: Arc<str>,
    shared: bool,
}

impl SharedJournal {
    /// Shares an open journal.
    pub fn new(journal: Journal) -> SharedJournal {
        let path = Arc::new(journal.path().to_path_buf());
        let who = journal.who().into();
        let shared = journal.is_shared();
        let journal = Arc::new(Mutex::new(journal));
        SharedJournal {
            path,
            who,
            shared,
            writer: Arc::new(Writer {
                group: Arc::default(),
                journal: journal.clone(),
                alone: shared,
                thread: std::sync::OnceLock::new(),
            }),
            journal,
        }
    }

    /// Whether it is a desk's shared journal.
    pub fn is_shared(&self) -> bool {
        self.shared
    }

    /// Who writes through it (see [`Journal::who`]).
    pub fn who(&self) -> &str {
        &self.who
    }

    /// Runs `f` on the journal, off the async threads.
    pub async fn run<R, F>(&self, f: F) -> Result<R, JournalError>
    where
        F: FnOnce(&mut Journal) -> Result<R, JournalError> + Send + 'static,
        R: Send + 'static,
    {
        let journal = self.journal.clone();
        let path = self.path.clone();
        let failed = |why: String| JournalError::write_said(&self.path, why);
        tokio::task::spawn_blocking(move || {
            let mut j = journal.lock().map_err(|_| half_written(&path))?;
            f(&mut j)
        })
        .await
        .unwrap_or_else(|e| Err(failed(e.to_string())))
    }

    /// Runs the write `f` in the journal's next group commit: writes of other tasks that
    /// meet it in time go in the same transaction and the same sync of the disk. Its
    /// result is given only once that commit is done; an intent's commit reaches the disk
    /// first. The journal's writer thread runs it (see [`Group`]): the task only waits.
    pub async fn write_together<R, F>(&self, write: Write, f: F) -> Result<R, JournalError>
    where
        F: FnOnce(&mut Journal) -> Result<R, JournalError> + Send + 'static,
        R: Send + 'static,
    {
        self.writer
            .start()
            .map_err(|why| JournalError::write_said(&self.path, why))?;
        let (tell, told) = tokio::sync::oneshot::channel();
        let durable = write != Write::Outcome;
        self.writer.group.push(
            GroupedWrite::new(durable, f, move |r| {
                let _ = tell.send(r);
            }),
            write == Write::Ahead,
        );
        // Dropped unanswered: the journal was left half-written by a panic.
        told.await.unwrap_or_else(|_| Err(half_written(&self.path)))
    }
}

/// Why nothing more is written to a journal a panic left half-written.
fn half_written(path: &std::path::Path) -> JournalError {
    JournalError::write_said(path, "an earlier write stopped half-way")
}

/// The journal's writer thread ([`Group::serve`]) and the writes waiting for it: started
/// by the first grouped write,
/// ended when the last handle on the journal goes, once it has committed what was left
/// (that drop waits for it: the journal is closed, its outcomes on disk, when the last
/// handle is gone).
struct Writer {
    group: Arc<Group>,
    journal: Arc<Mutex<Journal>>,
    /// A shared journal: its intents do not wait for company.
    alone: bool,
    thread: std::sync::OnceLock<Result<std::thread::JoinHandle<()>, String>>,
}

impl Writer {
    /// Starts the thread unless it runs; why it could not be started.
    fn start(&self) -> Result<(), String> {
        let started = self.thread.get_or_init(|| {
            let (group, journal, alone) = (self.group.clone(), self.journal.clone(), self.alone);
            std::thread::Builder::new()
                .name("journal-writer".into())
                .spawn(move || group.serve(&journal, alone))
                .map_err(|e| e.to_string())
        });
        started.as_ref().map(|_| ()).map_err(Clone::clone)
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        if let Some(Ok(thread)) = self.thread.take() {
            self.group.close();
            if thread.thread().id() != std::thread::current().id() {
                let _ = thread.join();
            }
        }
    }
}

/// What a grouped write is (see [`SharedJournal::write_together`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// An outcome: committed at once, no sync of its own.
    Outcome,
    /// An intent whose request goes once it is on disk: it waits only briefly for company.
    Intent,
    /// An intent claimed ahead of its request's turn: it may wait longer for company.
    Ahead,
}

/// How often a claim that met a colleague's open transaction is tried again.
pub const BUSY_RETRY: std::time::Duration = std::time::Duration::from_millis(500);

/// How long a run (billing, e-mail) waits for a shared journal's server that went away
/// (a restart or a failover takes seconds to a minute) before it stops:
/// `INVOICE_DESK_JOURNAL_PATIENCE` seconds, 5 minutes unless set.
pub fn away_patience() -> std::time::Duration {
    std::env::var("INVOICE_DESK_JOURNAL_PATIENCE")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .map_or(
            std::time::Duration::from_secs(300),
            std::time::Duration::from_secs,
        )
}

/// Whether a claim refused with `e` is tried again after [`BUSY_RETRY`]: the journal was
/// busy (a colleague's transaction on the same key, a laptop stopped mid-claim until the
/// server ends it — nothing was written or sent) and has been for less than
/// [`super::BUSY_PATIENCE`] since `since` (the first refusal, when the caller left it
/// unset).
pub fn busy_again(e: &JournalError, since: &mut Option<std::time::Instant>) -> bool {
    e.trouble() == super::Trouble::Busy
        && since.get_or_insert_with(std::time::Instant::now).elapsed() < super::BUSY_PATIENCE
}

/// What came of a journaled request: its result, and whether its outcome could not be
/// written down (the entry then stays "to check").
pub struct Journaled<T> {
    /// The request's result.
    pub result: Result<T, ApiError>,
    /// The outcome's row could not be written.
    pub outcome_not_recorded: Option<JournalError>,
    /// The intent's sequence number.
    pub seq: i64,
    /// The outcome as it was to be recorded (to try again when it could not be).
    pub settled: Settled,
}

/// Why a create or void was not sent.
#[derive(Clone, Debug)]
pub enum Blocked {
    /// The journal could not record the intent.
    Journal(JournalError),
    /// Already done, by this entry.
    Done(Entry),
    /// Claimed by this entry, whose outcome is not known yet (being sent now, maybe by
    /// another process, or to check).
    Pending(Entry),
    /// It looks like this earlier invoice; the clerk has not said to issue it anyway.
    LooksLike(Entry),
}

crate::engineers_text!(Blocked);

/// An RFC 3339 time as local `YYYY-MM-DD HH:MM` (for messages).
pub fn local_minute(rfc3339: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(rfc3339)
        .map(|t| {
            t.with_timezone(&chrono::Local)
                .format("%Y-%m-%d %H:%M")
                .to_string()
        })
        .unwrap_or_else(|_| rfc3339.to_string())
}

/// Records `intent` and claims what it is about (see [`Journal::claim`]), and only if
/// both worked sends the request (`send`), then records its outcome; `invoice_id` names
/// the invoice in a success. `Err`: nothing was sent, and why.
pub async fn write_ahead<T, Fut>(
    journal: &SharedJournal,
    action: Action,
    intent: Intent,
    guard: Guard,
    send: Fut,
    invoice_id: impl FnOnce(&T) -> Option<String>,
) -> Result<Journaled<T>, Blocked>
where
    Fut: std::future::Future<Output = Result<T, ApiError>>,
{
    let open = || std::future::ready(Ok::<(), std::convert::Infallible>(()));
    let claim = Claim {
        action,
        intent,
        guard,
        ahead: false,
    };
    match write_ahead_gated(journal, claim, open, send, invoice_id).await? {
        Ok(sent) => Ok(sent),
        Err(never) => match never {},
    }
}

/// The outcome of a claim whose request was never sent: refused (nothing was asked of
/// the service), so a later run may claim it again.
fn not_sent() -> Settled {
    Settled {
        outcome: Outcome::Refused,
        invoice_id: None,
        error_kind: Some("NotSent".into()),
        error_code: None,
        rows: None,
        checked: false,
    }
}

/// What [`write_ahead_gated`] claims.
pub struct Claim {
    /// Create or void.
    pub action: Action,
    /// What is sent.
    pub intent: Intent,
    /// What it must not look like or collide with.
    pub guard: Guard,
    /// Claimed ahead of its turn: its commit may wait longer for company (other
    /// workers' claims), since its request waits for a turn anyway.
    pub ahead: bool,
}

/// As [`write_ahead`], with a gate between the claim and the request: `gate` waits for
/// the request's turn (a billing run claims a worker's next row while its requests are
/// on their way, so the claim's sync costs no row any time) and holds what it gives
/// until the answer. When it says no (`Err`, returned as it is), the request is not sent
/// and the claim is given back at once; when that cannot be written, the claim stays
/// "to check", which is true too (a check concludes "not created").
pub async fn write_ahead_gated<T, P, Q, G, GF, Fut>(
    journal: &SharedJournal,
    claim: Claim,
    gate: G,
    send: Fut,
    invoice_id: impl FnOnce(&T) -> Option<String>,
) -> Result<Result<Journaled<T>, Q>, Blocked>
where
    G: FnOnce() -> GF,
    GF: std::future::Future<Output = Result<P, Q>>,
    Fut: std::future::Future<Output = Result<T, ApiError>>,
{
    let Claim {
        action,
        intent,
        guard,
        ahead,
    } = claim;
    let write = if ahead { Write::Ahead } else { Write::Intent };
    let of = intent.outcome_of(action);
    let claimed = journal
        .write_together(write, move |j| j.claim(action, &intent, &guard))
        .await
        .map_err(Blocked::Journal)?;
    let seq = match claimed {
        Claimed::Claimed(seq) => seq,
        Claimed::Done(e) => return Err(Blocked::Done(e)),
        Claimed::Pending(e) => return Err(Blocked::Pending(e)),
        Claimed::LooksLike(e) => return Err(Blocked::LooksLike(e)),
    };
    let turn = match gate().await {
        Ok(turn) => turn,
        Err(no) => {
            let record = not_sent();
            journal
                .write_together(Write::Outcome, move |j| j.record_answer(seq, of, &record))
                .await
                .map_err(Blocked::Journal)?;
            return Ok(Err(no));
        }
    };
    // Known as on its way: a group commit waits briefly for its answer's company.
    let on_its_way = journal.writer.group.sending();
    let result = send.await;
    drop(on_its_way);
    // The answer is in: the next request may go while this outcome is written.
    drop(turn);
    let settled = match &result {
        Ok(t) => Settled::done(invoice_id(t)),
        Err(e) => Settled::from_error(e),
    };
    let record = settled.clone();
    let outcome_not_recorded = journal
        .write_together(Write::Outcome, move |j| j.record_answer(seq, of, &record))
        .await
        .err();
    Ok(Ok(Journaled {
        result,
        outcome_not_recorded,
        seq,
        settled,
    }))
}

/// What a check of an unknown outcome found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    /// Found (done), or concluded (not created, not voided): the outcome to record.
    Settled(Settled),
    /// Not found yet, but the service may still be working on the request until then
    /// (UTC): nothing can be concluded before.
    Waiting(chrono::DateTime<chrono::Utc>),
    /// The service could not be asked.
    Unreachable,
}

/// The margin added to the request time limit for how long a service may still be
/// working on a request whose answer never came (`INVOICE_DESK_IN_FLIGHT_MARGIN`,
/// seconds; 90 unless set).
fn in_flight_margin() -> chrono::Duration {
    let secs = std::env::var("INVOICE_DESK_IN_FLIGHT_MARGIN")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .filter(|s| (0..=86_400).contains(s))
        .unwrap_or(90);
    chrono::Duration::seconds(secs)
}

/// How long after a request was sent "not found" may mean "not created": the request
/// time limit plus a margin (2 minutes with the default 30 s limit). Before that, the
/// service may still be working on it, even if the program that sent it is gone.
pub fn in_flight_window(client: &Client) -> chrono::Duration {
    chrono::Duration::from_std(client.timeout()).unwrap_or(chrono::Duration::seconds(30))
        + in_flight_margin()
}

/// How long a claim made ahead of its request may wait for its turn and still be sent
/// ([`write_ahead_gated`]): a small part of the in-flight margin, which is what a
/// colleague waits past a claim's intent before concluding "not created" and taking it
/// over (with a margin of 0, never: the claim is made when the request can go).
pub fn claim_ahead_limit() -> Option<std::time::Duration> {
    let limit = (in_flight_margin() / 8).min(chrono::Duration::seconds(5));
    limit.to_std().ok().filter(|l| !l.is_zero())
}

/// When the journal's entry `e` says a create was done and the service has neither
/// that invoice nor any of `customer`'s invoices with `reference`: the invoice id the
/// journal named (empty when it named none). `None` when it is there, or the service
/// could not say (then it counts as issued, as the journal says). Asked once, when a
/// create is refused as already issued: a row recorded by a role that lied, or a
/// journal restored from an old copy, must not block a reference for good.
pub async fn missing_at_service(
    client: &Client,
    e: &Entry,
    customer: &str,
    reference: &str,
) -> Option<String> {
    let id = e.invoice_id.clone().unwrap_or_default();
    if !id.is_empty() {
        match client.get_invoice(&id).await {
            Err(err) if matches!(err.kind, ErrorKind::NotFound(_)) => {}
            _ => return None,
        }
    }
    match client.find_by_reference(customer, reference).await {
        Ok(None) => Some(id),
        _ => None,
    }
}

/// Asks the service what became of an entry whose outcome is unknown: a create is looked
/// for by its external reference among the customer's invoices, a void by reading the
/// invoice. Found settles it at once; not found settles it only once the entry is older
/// than [`in_flight_window`] (before that, [`Checked::Waiting`]). `age` is how long ago
/// its intent was recorded, from [`Journal::age`]: never a wall clock's difference, which
/// a stepped clock makes too large.
pub async fn check(client: &Client, e: &Entry, age: chrono::Duration) -> Checked {
    let found = |outcome, invoice_id, kind: Option<&str>| Settled {
        outcome,
        invoice_id,
        error_kind: kind.map(str::to_string),
        error_code: None,
        rows: None,
        checked: true,
    };
    let left = in_flight_window(client) - age;
    let not_yet = |s: Settled| {
        if left <= chrono::Duration::zero() {
            Checked::Settled(s)
        } else {
            // Shown as a time of day: this computer's clock plus what is left.
            Checked::Waiting(chrono::Utc::now() + left)
        }
    };
    match e.action {
        Action::Create => {
            let (Some(customer), Some(reference)) = (&e.customer, &e.external_id) else {
                // Without a reference the service cannot be asked which invoice it was.
                return Checked::Unreachable;
            };
            match client.find_by_reference(customer, reference).await {
                Ok(Some(inv)) => Checked::Settled(found(Outcome::Done, Some(inv.id), None)),
                Ok(None) => not_yet(found(Outcome::Refused, None, Some("NotCreated"))),
                Err(_) => Checked::Unreachable,
            }
        }
        Action::Void => {
            let Some(id) = e.invoice_id.as_deref() else {
                return Checked::Unreachable;
            };
            match client.get_invoice(id).await {
                Ok(inv) if inv.status() == InvoiceStatus::Void => {
                    Checked::Settled(found(Outcome::Done, Some(id.to_string()), None))
                }
                Ok(_) => not_yet(found(
                    Outcome::Refused,
                    Some(id.to_string()),
                    Some("NotVoided"),
                )),
                Err(err) if matches!(err.kind, ErrorKind::NotFound(_)) => Checked::Settled(found(
                    Outcome::Refused,
                    Some(id.to_string()),
                    Some("NotFound"),
                )),
                Err(_) => Checked::Unreachable,
            }
        }
        // An export stopped half-way wrote nothing (files are replaced only at the end).
        Action::Export => Checked::Settled(found(Outcome::Refused, None, Some("Interrupted"))),
        // A mail server cannot be asked whether it has a message: an e-mail whose end
        // was sent without an answer stays unknown until the clerk looks (and maybe
        // sends it again, explicitly).
        Action::Email => Checked::Unreachable,
    }
}

/// [`check`], and what it settled recorded as the entry's outcome. Every check of an
/// unknown outcome (a panel, the CLI, a billing run) goes through here.
pub async fn check_and_record(
    journal: &SharedJournal,
    client: &Client,
    e: &Entry,
) -> Result<Checked, JournalError> {
    let seq = e.seq;
    let age = journal.run(move |j| j.age(seq)).await?;
    let found = check(client, e, age).await;
    if let Checked::Settled(s) = &found {
        let s = s.clone();
        // Once: another clerk's check (or the answer itself) may have come first.
        journal.run(move |j| j.record_checked(seq, &s)).await?;
    }
    Ok(found)
}

/// Checks every unknown entry of the service at `base_url` and records what was found.
/// Returns each entry checked with what was found.
pub async fn resolve(
    journal: &SharedJournal,
    client: &Client,
    base_url: &str,
) -> Result<Vec<(Entry, Checked)>, JournalError> {
    let unknown = journal.run(|j| j.unknown()).await?;
    let mut out = Vec::new();
    for e in unknown
        .into_iter()
        .filter(|e| same_service(&e.base_url, base_url))
    {
        let found = check_and_record(journal, client, &e).await?;
        out.push((e, found));
    }
    Ok(out)
}

/// Two base URLs name the same service (any spelling: see [`super::identity`]).
pub fn same_service(a: &str, b: &str) -> bool {
    super::identity::canonical_url(a) == super::identity::canonical_url(b)
}
