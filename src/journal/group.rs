//! Group commit: writes of concurrent tasks (a billing run's workers) that meet in time
//! go into one transaction and one sync of the disk. One thread of the journal's own
//! (its writer, [`Group::serve`]) commits everything waiting, and tells each writer only
//! after the commit, so every intent is on disk before its request can be sent. A task
//! hands its write over and waits for its answer: no thread of tokio's is taken per
//! write. (With a blocking thread per write, 64 workers made 40 futex calls a row, and
//! the kernel took half the run's CPU.)
//!
//! An outcome never waits (it needs no sync of its own: the next intent's commit or the
//! close carries it). An intent waits a little for company: for answers expected soon
//! (their workers' next intents follow at once) and for writers told by a recent commit
//! that have not come back yet. The wait is at most an eighth of an answer's time, four
//! syncs of the disk and [`GATHER`]: on a fast disk it is a fraction of a millisecond, on
//! a slow one it saves many syncs. An intent claimed ahead of its request's turn (a
//! billing run's) costs no row any time by waiting: it waits up to half an answer's time
//! and [`GATHER_AHEAD`]. Nothing in flight, nothing to wait for: a lone create never
//! waits. A shared journal's intents never wait here for company: the writes that came
//! while the last commit was on its way to the server go together.

use super::Journal;
use super::store::GroupedWrite;
use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The longest a durable commit waits for company.
const GATHER: Duration = Duration::from_millis(10);
/// The longest a commit of intents claimed ahead of their turn waits for company.
const GATHER_AHEAD: Duration = Duration::from_millis(25);
/// How many syncs of the disk a commit may wait for company.
const SYNCS: u32 = 4;
/// How long writers told by the last commit are waited for (they come back at once with
/// their next intent, or not at all).
const RETURN: Duration = Duration::from_millis(5);

/// The writes waiting for the journal's writer, and what is known of the requests on
/// their way.
#[derive(Default)]
pub(super) struct Group {
    company: Mutex<Company>,
    /// Told of writes, requests, answers and the close: what the writer waits on.
    changed: Condvar,
}

#[derive(Default)]
struct Company {
    /// The writes waiting, in the order they came.
    waiting: Vec<Waiting>,
    /// Requests sent after their intent's commit, not answered yet: when each was sent.
    sending: HashMap<u64, Instant>,
    next: u64,
    /// How long an answer takes (a moving average).
    answer: Option<Duration>,
    /// How long a durable commit takes (a moving average): waiting for company is worth
    /// only a few of them.
    sync: Option<Duration>,
    /// Outcomes committed lately whose writers have not come back with an intent yet
    /// (a billing run's worker goes on to its next row at once): when each was told.
    owed: VecDeque<Instant>,
    /// The last handle on the journal is gone: the writer commits what is left and ends.
    closed: bool,
    /// The writer sleeps on [`Group::changed`]: only then is it woken (a wake is a
    /// system call even when no one sleeps).
    asleep: bool,
}

struct Waiting {
    write: GroupedWrite,
    /// When it came, and whether it was claimed ahead of its turn (for its wait).
    since: Instant,
    ahead: bool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing here is left half-changed by a panic.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Company {
    /// How long an intent waits for company (see the module's words): at most an eighth
    /// of an answer's time (the run's pace), and a few syncs of the disk (on a fast disk
    /// a lone commit costs less than waiting). Claimed ahead of its turn, half an
    /// answer's time: its request waits for an answer anyway.
    fn gather(&self, ahead: bool) -> Duration {
        match (self.answer, self.sync) {
            (Some(a), _) if ahead => (a / 2).min(GATHER_AHEAD),
            (Some(a), Some(s)) => (a / 8).min(s * SYNCS).min(GATHER),
            _ => Duration::ZERO,
        }
    }

    /// Until when the intents waiting wait for more company, if they do: while an answer
    /// is due before their time is up, or a writer told lately may still come back.
    fn wait_for_company(&self, now: Instant) -> Option<Instant> {
        let (deadline, gather) = self
            .waiting
            .iter()
            .filter(|w| w.write.durable)
            .map(|w| {
                let g = self.gather(w.ahead);
                (w.since + g, g)
            })
            .min()?;
        if now >= deadline {
            return None;
        }
        let due = self.answer.is_some_and(|answer| {
            self.sending.values().any(|sent| {
                let expected = *sent + answer;
                expected + gather >= now && expected <= deadline
            })
        });
        let returning = self
            .owed
            .iter()
            .map(|t| *t + RETURN.min(gather))
            .filter(|until| now < *until)
            .min();
        match returning {
            _ if due => Some(deadline),
            Some(until) => Some(until.min(deadline)),
            None => None,
        }
    }

    /// A commit of `outcomes` outcomes (and intents when `synced` says how long the disk
    /// took) is done and its writers told.
    fn told(&mut self, outcomes: usize, synced: Option<Duration>) {
        let now = Instant::now();
        if let Some(took) = synced {
            self.sync = Some(self.sync.map_or(took, |a| (a * 7 + took) / 8));
        }
        while self.owed.front().is_some_and(|t| now > *t + RETURN) {
            self.owed.pop_front();
        }
        self.owed.extend(std::iter::repeat_n(now, outcomes));
    }
}

impl Group {
    /// Hands a write to the writer for its next commit (`ahead`: an intent claimed ahead
    /// of its request's turn, which may wait longer for company).
    pub fn push(&self, write: GroupedWrite, ahead: bool) {
        let mut c = lock(&self.company);
        if write.durable {
            c.owed.pop_front();
        }
        c.waiting.push(Waiting {
            write,
            since: Instant::now(),
            ahead,
        });
        let asleep = c.asleep;
        drop(c);
        if asleep {
            self.changed.notify_one();
        }
    }

    /// The journal is closing: the writer commits what is left and ends.
    pub fn close(&self) {
        lock(&self.company).closed = true;
        self.changed.notify_one();
    }

    /// The writer's loop: commits the outcomes waiting at once, the intents once their
    /// wait for company is over (`alone`: never wait, a shared journal), until the
    /// journal closes. A journal left half-written by a panic takes nothing more: the
    /// writes are dropped unrun, and their callers told so.
    pub fn serve(&self, journal: &Mutex<Journal>, alone: bool) {
        let mut c = lock(&self.company);
        loop {
            if c.waiting.is_empty() {
                if c.closed {
                    return;
                }
                c.asleep = true;
                c = self.changed.wait(c).unwrap_or_else(PoisonError::into_inner);
                c.asleep = false;
                continue;
            }
            let now = Instant::now();
            let wait = if alone || c.closed {
                None
            } else {
                c.wait_for_company(now)
            };
            if let Some(until) = wait
                && c.waiting.iter().all(|w| w.write.durable)
            {
                // Only intents, still waiting for company.
                c.asleep = true;
                c = self
                    .changed
                    .wait_timeout(c, until.saturating_duration_since(now))
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
                c.asleep = false;
                continue;
            }
            // Everything, or the outcomes only (the intents go on waiting).
            let writes: Vec<GroupedWrite> = if wait.is_none() {
                std::mem::take(&mut c.waiting)
                    .into_iter()
                    .map(|w| w.write)
                    .collect()
            } else {
                let (outcomes, left) = std::mem::take(&mut c.waiting)
                    .into_iter()
                    .partition(|w| !w.write.durable);
                c.waiting = left;
                outcomes.into_iter().map(|w| w.write).collect()
            };
            drop(c);
            let outcomes = writes.iter().filter(|w| !w.durable).count();
            let synced = commit(journal, writes);
            c = lock(&self.company);
            c.told(outcomes, synced);
        }
    }

    /// A request is on its way (its intent committed); the answer ends it.
    pub fn sending(&self) -> Sending<'_> {
        let mut c = lock(&self.company);
        let id = c.next;
        c.next += 1;
        c.sending.insert(id, Instant::now());
        Sending { group: self, id }
    }
}

/// Commits `writes` together; how long the disk took, for an intents' commit. A write
/// that panics poisons the journal: its callers and every later one are told it stopped
/// half-way (their answers are dropped unsent), and the writer goes on serving them so.
fn commit(journal: &Mutex<Journal>, writes: Vec<GroupedWrite>) -> Option<Duration> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut j = journal.lock().ok()?;
        j.commit_together(writes)
    }))
    .unwrap_or(None)
}

/// A request on its way (see [`Group::sending`]); dropped when answered (or given up).
pub(super) struct Sending<'a> {
    group: &'a Group,
    id: u64,
}

impl Drop for Sending<'_> {
    fn drop(&mut self) {
        let mut c = lock(&self.group.company);
        if let Some(sent) = c.sending.remove(&self.id) {
            let took = sent.elapsed();
            c.answer = Some(c.answer.map_or(took, |a| (a * 7 + took) / 8));
        }
        // The writer is woken only when intents wait for company: an answer matters
        // to nothing else.
        let waits = c.asleep && c.waiting.iter().any(|w| w.write.durable);
        drop(c);
        if waits {
            self.group.changed.notify_one();
        }
    }
}
