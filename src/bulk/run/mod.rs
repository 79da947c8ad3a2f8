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

mod at_service;
mod control;
mod counts;
mod four_eyes;
mod send;
mod status;
mod turns;

pub use crate::journal::approvals::{FourEyes, FourEyesError};
use control::*;
pub use control::{Control, InFlightWait};
pub use counts::{Counts, pace};
use send::*;
pub use status::*;
use turns::*;

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
    /// The desk's four eyes (a shared journal): the run's size on each row's intent, so
    /// the server knows a run's rows, and the approval they carry out.
    pub four_eyes: FourEyes,
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
        // On a desk's journal the file is cut in parts of [`PART_ROWS`] rows. Each clerk
        // starts at its own place and takes the parts no colleague has (`take_part`),
        // the others' left for a second pass, when most of their rows are issued and are
        // found a batch at a time: clerks work on different rows, not the same ones. A
        // clerk alone keeps the file's order.
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
                        let part = me
                            .part_rows(
                                &rows,
                                p,
                                part,
                                taking.then_some(seed).flatten(),
                                &later,
                                &held,
                            )
                            .await;
                        futures_util::stream::iter(part)
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
            elsewhere = self.still_held(&rows, elsewhere, &mut each).await;
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

    /// Of the rows `elsewhere` (index, holder), those the journal now has as issued are
    /// said (`each`), a batch at a time; the others are returned, still held.
    async fn still_held(
        &self,
        rows: &[BulkRow],
        elsewhere: Vec<(usize, Box<Entry>)>,
        each: &mut impl FnMut(usize, Status),
    ) -> Vec<(usize, Box<Entry>)> {
        let mut waiting = Vec::with_capacity(elsewhere.len());
        for batch in elsewhere.chunks(DONE_BATCH) {
            let indices: Vec<usize> = batch.iter().map(|(i, _)| *i).collect();
            let mut done = self.done_elsewhere(rows, &indices).await;
            for (i, holder) in batch {
                match done.remove(i) {
                    Some(status) => each(*i, status),
                    None => waiting.push((*i, holder.clone())),
                }
            }
        }
        waiting
    }

    /// Part `p`'s rows (`part`, indices into `rows`), each with its status when the
    /// journal has it as issued already (on a desk's journal). With `seed` (the first
    /// pass on a desk) the part is taken first: a part a colleague has is left in
    /// `later` for the second pass (no rows now), and the parts before the last two
    /// taken are given back (`held`; their last rows may still be on their way: a
    /// colleague taking them meets those rows' claims). A journal that cannot say is not
    /// a reason to stop: the part is worked on, each row's claim decides.
    async fn part_rows(
        &self,
        rows: &[BulkRow],
        p: usize,
        part: Vec<usize>,
        seed: Option<Arc<[u8; 32]>>,
        later: &Mutex<Vec<usize>>,
        held: &Mutex<Vec<i64>>,
    ) -> Vec<(usize, Option<Status>)> {
        if let Some(seed) = seed {
            let key = part_key(&seed, p);
            let mine = self.journal.run(move |j| j.take_part(key)).await;
            if matches!(mine, Ok(false)) {
                later.lock().unwrap_or_else(|p| p.into_inner()).extend(part);
                return Vec::new();
            }
            let old: Vec<i64> = {
                let mut held = held.lock().unwrap_or_else(|p| p.into_inner());
                held.push(key);
                let keep = held.len().saturating_sub(2);
                held.drain(..keep).collect()
            };
            let _ = self.journal.run(move |j| j.leave_parts(&old)).await;
        }
        let done = if self.journal.is_shared() {
            self.done_elsewhere(rows, &part).await
        } else {
            HashMap::new()
        };
        part.into_iter()
            .map(|i| (i, done.get(&i).cloned()))
            .collect()
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
                            confirmed_by: None,
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
    pub fn intent_for(&self, row: &BulkRow) -> Intent {
        let account = row
            .account_key
            .as_deref()
            .or(self.profile_account.as_deref());
        let mut intent = Intent::for_create(&self.profile, &self.base_url, account, &row.invoice);
        intent.rows = self.four_eyes.run_rows;
        intent
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

    /// What the row's claim guards against, from what was found of it before the run
    /// (a look-alike the clerk allowed or not; found at the service: settled here, no
    /// claim), or the row's status when it is not claimed at all.
    async fn guard(
        &self,
        row: &BulkRow,
        known: Option<Status>,
        siblings: Arc<HashSet<String>>,
    ) -> Result<Guard, Status> {
        let allowed = match &self.allow_similar {
            AllowSimilar::All => true,
            AllowSimilar::Rows(rows) => rows.contains(&row.row),
        };
        let shown = match known {
            Some(Status::PossibleDuplicate(earlier)) if !allowed => {
                return Err(Status::PossibleDuplicate(earlier));
            }
            Some(Status::PossibleDuplicate(earlier)) => earlier.id,
            None => None,
            Some(Status::SkippedExisting(found)) => {
                // Found at the service: an entry of this journal still "to check" for it
                // is settled now (the badge drops, the next run need not ask). One this
                // journal has is said as this journal's (the service having it too is
                // not news).
                return Err(match self.settle_found(row, found.id.clone()).await {
                    Some(here) => self.existing(&here),
                    None => Status::SkippedExisting(found),
                });
            }
            Some(other) => return Err(other),
        };
        Ok(Guard {
            aliases: row.aliases(),
            similar: Similar {
                siblings,
                allow: allowed,
                shown,
            },
            missing: None,
            approval: self.four_eyes.approval,
        })
    }

    /// A create refused for the rate (before any work): `Ok` when the row is to be sent
    /// again after the pause, else its status (the service asks for longer than a run
    /// waits, refused too often, or the run held meanwhile).
    async fn pause_for(
        &self,
        retry_after: Option<Duration>,
        rate_limited: &mut u32,
    ) -> Result<(), Status> {
        let wait = retry_after.unwrap_or(Duration::from_secs(1));
        if wait > MAX_RATE_WAIT {
            return Err(Status::NotSent(Held::WaitTooLong(wait)));
        }
        self.control.rate_limited(wait);
        *rate_limited += 1;
        if *rate_limited >= MAX_RATE_LIMITED {
            return Err(Status::NotSent(Held::RateLimited));
        }
        if !self.control.turn().await {
            return Err(Status::NotSent(self.control.held()));
        }
        Ok(())
    }

    /// A create's outcome that could not be written at once, written now; when it still
    /// cannot be, the answer is known here and not in the journal: the run stops, and
    /// the row says what came of it.
    async fn outcome_kept(
        &self,
        sent: &journal::Journaled<crate::api::Invoice>,
    ) -> Result<(), Status> {
        if let Some(e) = sent.outcome_not_recorded.clone()
            && let Err(e) = self.record_late(sent.seq, &sent.settled, e).await
        {
            self.control.stop_for(e.clone());
            let id = sent.result.as_ref().ok().map(|inv| inv.id.clone());
            return Err(Status::Unknown(Unsure::NotRecorded(id, e)));
        }
        Ok(())
    }

    /// An earlier claim of the row, its outcome unknown, checked at the service and
    /// recorded: `Ok` when it was not created (the claim is free), else the row's status.
    async fn settle_pending(&self, e: &Entry) -> Result<(), Status> {
        match journal::check_and_record(&self.journal, &self.client, e).await {
            Err(e) => {
                self.control.stop_for(e.clone());
                Err(Status::NotSent(Held::Journal(e)))
            }
            Ok(Checked::Unreachable) => Err(Status::Unknown(Unsure::Earlier)),
            Ok(Checked::Waiting(until)) => Err(Status::Unknown(Unsure::Waiting(until))),
            Ok(Checked::Settled(s)) if s.outcome == Outcome::Done => {
                Err(Status::SkippedExisting(Existing {
                    id: s.invoice_id,
                    time: Some(e.time.clone()),
                    at_service: false,
                    by: self.other(e),
                    confirmed_by: None,
                }))
            }
            Ok(Checked::Settled(_)) => Ok(()),
        }
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
        let guard = match self.guard(&row, known, siblings).await {
            Ok(guard) => guard,
            Err(status) => return status,
        };
        let mut rate_limited = 0;
        let mut takeovers = 0;
        let mut busy_since = None;
        let mut ahead = turns.ahead;
        loop {
            let intent = self.intent_for(&row);
            let send = turns.timed(
                self.client
                    .create_invoice(&row.invoice, row.account_key.as_deref()),
            );
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
            // A row a colleague or another worker holds is found by the claim itself, in
            // the group's commit, on a shared journal as on a file (a read first was one
            // more round trip to the server, and a wait for the journal, each row: #71).
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
                    if let Err(status) = self.settle_pending(&e).await {
                        return status;
                    }
                    // Checked: not created. The claim is free; take it (a few times at
                    // most: another process may be taking it too).
                    takeovers += 1;
                    if takeovers > MAX_TAKEOVERS {
                        return Status::Unknown(Unsure::Earlier);
                    }
                    continue;
                }
            };
            if let Err(status) = self.outcome_kept(&sent).await {
                return status;
            }
            match sent.result {
                Ok(inv) => return Status::Created(inv.id),
                Err(e) => match e.kind {
                    ErrorKind::RateLimited { retry_after } => {
                        if let Err(status) = self.pause_for(retry_after, &mut rate_limited).await {
                            return status;
                        }
                    }
                    _ if e.is_outcome_unknown() => return self.no_answer(sent.seq, e).await,
                    _ => return Status::Refused(e),
                },
            }
        }
    }
}
