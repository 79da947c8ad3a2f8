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
//! a slow one it saves many syncs. Nothing in flight, nothing to wait for: a lone create
//! never waits.

use super::store::GroupedWrite;
use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The longest a durable commit waits for company.
const GATHER: Duration = Duration::from_millis(10);
/// How many syncs of the disk a commit may wait for company.
const SYNCS: u32 = 4;
/// How long writers told by the last commit are waited for (they come back at once with
/// their next intent, or not at all).
const RETURN: Duration = Duration::from_millis(5);

/// The writes waiting for the journal, and what is known of the requests on their way.
#[derive(Default)]
pub(super) struct Group {
    waiting: Mutex<Vec<GroupedWrite>>,
    company: Mutex<Company>,
    changed: Condvar,
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
    /// Outcomes committed lately whose writers have not come back with an intent yet
    /// (a billing run's worker goes on to its next row at once): when each was told.
    owed: VecDeque<Instant>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing here is left half-changed by a panic.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Group {
    /// Adds a write for the next commit.
    pub fn push(&self, w: GroupedWrite) {
        let durable = w.durable;
        lock(&self.waiting).push(w);
        if durable {
            lock(&self.company).owed.pop_front();
        }
        self.changed.notify_all();
    }

    /// Takes the writes waiting: every one, or (for a writer of an outcome) the outcomes
    /// only, which need no company: intents are left to the writer that waits for it.
    pub fn take(&self, outcomes_only: bool) -> Vec<GroupedWrite> {
        let mut waiting = lock(&self.waiting);
        if outcomes_only {
            let (outcomes, intents) = std::mem::take(&mut *waiting)
                .into_iter()
                .partition(|w| !w.durable);
            *waiting = intents;
            outcomes
        } else {
            std::mem::take(&mut *waiting)
        }
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

    /// When a write waiting must be durable, waits a little for company (see the
    /// module's words). Called before taking the journal's lock: writers it waits for may
    /// need the journal for a read first.
    pub fn gather(&self) {
        if !lock(&self.waiting).iter().any(|w| w.durable) {
            return;
        }
        let start = Instant::now();
        let mut c = lock(&self.company);
        // At most an eighth of an answer's time (the run's pace), and a few syncs of the
        // disk (on a fast disk a lone commit costs less than waiting).
        let gather = match (c.answer, c.sync) {
            (Some(a), Some(s)) => (a / 8).min(s * SYNCS).min(GATHER),
            _ => Duration::ZERO,
        };
        let deadline = start + gather;
        loop {
            let now = Instant::now();
            if now >= deadline {
                return;
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
                return;
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
