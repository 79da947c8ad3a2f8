//! Group commit: writes of concurrent tasks (a billing run's workers) that meet in time
//! go into one transaction and one sync of the disk. Whichever task takes the journal's
//! lock commits everything waiting then, and tells each writer only after the commit,
//! so every intent is on disk before its request can be sent.
//!
//! An outcome never waits (it needs no sync of its own: the next intent's commit or the
//! close carries it). An intent waits a little for company: for answers expected soon
//! (their workers' next intents follow at once) and for writers told by a recent commit
//! that have not come back yet. The wait is at most an eighth of an answer's time, four
//! syncs of the disk and [`GATHER`]: on a fast disk it is a fraction of a millisecond, on
//! a slow one it saves many syncs. An intent claimed ahead of its request's turn (a
//! billing run's) costs no row any time by waiting: it waits up to half an answer's time
//! and [`GATHER_AHEAD`]. Nothing in flight, nothing to wait for: a lone create never
//! waits.

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

/// The writes waiting for the journal, and what is known of the requests on their way.
#[derive(Default)]
pub(super) struct Group {
    /// The writes waiting, each with the number [`Group::push`] gave it.
    waiting: Mutex<Vec<(u64, GroupedWrite)>>,
    pushed: std::sync::atomic::AtomicU64,
    company: Mutex<Company>,
    /// Told of requests, answers and writes waiting: what the leader waits on.
    changed: Condvar,
    /// Told when a commit takes the writes waiting: what the other writers wait on.
    taken: Condvar,
}

#[derive(Default)]
struct Company {
    /// Requests sent after their intent's commit, not answered yet: when each was sent.
    sending: HashMap<u64, Instant>,
    next: u64,
    /// How long an answer takes (a moving average).
    answer: Option<Duration>,
    /// How long a durable commit takes (a moving average): waiting for company is worth
    /// only a few of them.
    sync: Option<Duration>,
    /// A writer is waiting for company ([`Group::gather`]).
    leading: bool,
    /// Outcomes committed lately whose writers have not come back with an intent yet
    /// (a billing run's worker goes on to its next row at once): when each was told.
    owed: VecDeque<Instant>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing here is left half-changed by a panic.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Group {
    /// Adds a write for the next commit; its number, for [`Group::is_waiting`].
    pub fn push(&self, w: GroupedWrite) -> u64 {
        let durable = w.durable;
        let id = self
            .pushed
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        lock(&self.waiting).push((id, w));
        if durable {
            lock(&self.company).owed.pop_front();
        }
        self.changed.notify_all();
        id
    }

    /// Whether write `id` still waits (no commit has taken it along yet).
    pub fn is_waiting(&self, id: u64) -> bool {
        lock(&self.waiting).iter().any(|(i, _)| *i == id)
    }

    /// Takes the writes waiting: every one, or (for a writer of an outcome) the outcomes
    /// only, which need no company: intents are left to the writer that waits for it.
    pub fn take(&self, outcomes_only: bool) -> Vec<GroupedWrite> {
        let mut waiting = lock(&self.waiting);
        let taken = if outcomes_only {
            let (outcomes, intents) = std::mem::take(&mut *waiting)
                .into_iter()
                .partition(|(_, w)| !w.durable);
            *waiting = intents;
            outcomes
        } else {
            std::mem::take(&mut *waiting)
        };
        drop(waiting);
        // Writers waiting for company whose writes went along stop waiting.
        if !taken.is_empty() {
            let _c = lock(&self.company);
            self.taken.notify_all();
            self.changed.notify_all();
        }
        taken.into_iter().map(|(_, w)| w).collect()
    }

    /// A commit of `outcomes` outcomes (and intents when `synced` says how long the
    /// disk took) is done and its writers told.
    pub fn told(&self, outcomes: usize, synced: Option<Duration>) {
        let now = Instant::now();
        let mut c = lock(&self.company);
        if let Some(took) = synced {
            c.sync = Some(c.sync.map_or(took, |a| (a * 7 + took) / 8));
        }
        while c.owed.front().is_some_and(|t| now > *t + RETURN) {
            c.owed.pop_front();
        }
        c.owed.extend(std::iter::repeat_n(now, outcomes));
    }

    /// A request is on its way (its intent committed); the answer ends it.
    pub fn sending(&self) -> Sending<'_> {
        let mut c = lock(&self.company);
        let id = c.next;
        c.next += 1;
        c.sending.insert(id, Instant::now());
        Sending { group: self, id }
    }

    /// Write `id` (durable) waits a little for company (see the module's words), or
    /// until a commit takes it along. Called before taking the journal's lock: writers it
    /// waits for may need the journal for a read first.
    ///
    /// One writer at a time watches for company (the leader, woken by every request
    /// and answer); the others only wait to be taken along, or for their own time to
    /// run out. (With every writer woken by every event, 64 workers made 46 futex calls
    /// a row.)
    pub fn gather(&self, id: u64, ahead: bool) {
        let start = Instant::now();
        let mut c = lock(&self.company);
        // At most an eighth of an answer's time (the run's pace), and a few syncs of the
        // disk (on a fast disk a lone commit costs less than waiting). Claimed ahead of
        // its turn, half an answer's time: its request waits for an answer anyway.
        let gather = match (c.answer, c.sync) {
            (Some(a), _) if ahead => (a / 2).min(GATHER_AHEAD),
            (Some(a), Some(s)) => (a / 8).min(s * SYNCS).min(GATHER),
            _ => Duration::ZERO,
        };
        let deadline = start + gather;
        while c.leading {
            let now = Instant::now();
            if now >= deadline || !self.is_waiting(id) {
                return;
            }
            c = self
                .taken
                .wait_timeout(c, deadline - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        c.leading = true;
        let mut c = self.lead(c, id, gather, deadline);
        c.leading = false;
    }

    /// The leader's wait (see [`Group::gather`]).
    fn lead<'a>(
        &'a self,
        mut c: MutexGuard<'a, Company>,
        id: u64,
        gather: Duration,
        deadline: Instant,
    ) -> MutexGuard<'a, Company> {
        loop {
            let now = Instant::now();
            if now >= deadline || !self.is_waiting(id) {
                return c;
            }
            let due = c.answer.is_some_and(|answer| {
                c.sending.values().any(|sent| {
                    let expected = *sent + answer;
                    expected + gather >= now && expected <= deadline
                })
            });
            let returning = c
                .owed
                .iter()
                .map(|t| *t + RETURN.min(gather))
                .filter(|until| now < *until)
                .min();
            if !due && returning.is_none() {
                return c;
            }
            let wake = match returning {
                Some(until) if !due => until.min(deadline),
                _ => deadline,
            };
            c = self
                .changed
                .wait_timeout(c, wake - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
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
        drop(c);
        self.group.changed.notify_all();
    }
}
