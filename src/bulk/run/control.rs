//! Pause, resume and cancel of a run, shared by its workers and whoever drives it; a
//! 429's pause for every worker.

use super::*;

/// The pause between two listings read while a run on a local journal goes on (see
/// [`Runner::watch_for_others`]).
pub(super) const WATCH_PAUSE: Duration = Duration::from_millis(100);

/// Pause, resume and cancel, shared by the workers and whoever drives the run.
#[derive(Debug, Default)]
pub struct Control {
    pub(super) paused: AtomicBool,
    pub(super) cancelled: AtomicBool,
    /// Every worker waits until then (a 429 said so), and when that is on the clock.
    pub(super) rate_pause: Mutex<Option<(Instant, chrono::DateTime<chrono::Utc>)>>,
    /// The journal failed: the run stopped for this.
    pub(super) journal_failure: Mutex<Option<JournalError>>,
    /// The journal's server has not answered since then (a restart, a failover): rows
    /// wait for it, sending nothing, until it answers or `journal::away_patience` passes.
    pub(super) journal_down: Mutex<Option<(Instant, chrono::DateTime<chrono::Utc>)>>,
    /// Another computer is issuing the same file: the run stopped for this.
    pub(super) elsewhere: Mutex<Option<Foreign>>,
    /// Rows past the gate and not yet settled (sent or about to be).
    pub(super) working: std::sync::atomic::AtomicUsize,
    /// While the service's listings are read before sending: customers read, and in all.
    pub(super) checking: Mutex<Option<(usize, usize)>>,
    /// When the first row could be sent (the listings read): the pace counts from there.
    pub(super) sending_since: Mutex<Option<Instant>>,
    /// Rows waiting out another request's in-flight window (a run cut short, whose
    /// requests may still be on their way), and when the last window ends.
    pub(super) in_flight: Mutex<Waits>,
    /// While the service answers slowly: how many requests go at once now (0: as many
    /// as the run's concurrency).
    pub(super) at_once: std::sync::atomic::AtomicUsize,
}

/// The rows waiting out in-flight windows, when the last ends, and whose claims they
/// wait on (one each, colleagues only: a run of this computer's own is not named).
#[derive(Debug, Default)]
pub(super) struct Waits {
    rows: usize,
    until: Option<Instant>,
    holders: Vec<journal::WrittenBy>,
}

/// What the run waits for, said while it lasts: how many rows, until when at most, and
/// the colleagues whose computers hold them (none: a run of this computer's own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InFlightWait {
    /// Rows waiting.
    pub rows: usize,
    /// When the last window ends.
    pub until: Instant,
    /// Colleagues whose claims the rows wait on, each once.
    pub holders: Vec<journal::WrittenBy>,
}

/// A row waiting out an in-flight window: counted in [`Control::in_flight`] until
/// dropped.
pub(super) struct InFlight<'a>(&'a Control, Option<journal::WrittenBy>);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if let Ok(mut w) = self.0.in_flight.lock() {
            w.rows = w.rows.saturating_sub(1);
            if w.rows == 0 {
                w.until = None;
            }
            if let Some(who) = &self.1
                && let Some(at) = w.holders.iter().position(|h| h == who)
            {
                w.holders.swap_remove(at);
            }
        }
    }
}

/// Keeps `why` as the reason a run stopped, unless one was kept already (the first
/// reason is the one said).
pub(super) fn first_reason<T>(slot: &Mutex<Option<T>>, why: T) {
    if let Ok(mut f) = slot.lock()
        && f.is_none()
    {
        *f = Some(why);
    }
}

/// A row past the gate: counted in [`Control::working`] until dropped.
pub(super) struct Working<'a>(&'a std::sync::atomic::AtomicUsize);

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

    pub(super) fn start_working(&self) -> Working<'_> {
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
    pub fn in_flight_wait(&self) -> Option<InFlightWait> {
        let w = self.in_flight.lock().ok()?;
        let until = w.until.filter(|_| w.rows > 0)?;
        let mut holders = Vec::new();
        for h in &w.holders {
            if !holders.contains(h) {
                holders.push(h.clone());
            }
        }
        Some(InFlightWait {
            rows: w.rows,
            until,
            holders,
        })
    }

    pub(super) fn set_checking(&self, c: Option<(usize, usize)>) {
        if let Ok(mut s) = self.checking.lock() {
            *s = c;
        }
        if c.is_none()
            && let Ok(mut s) = self.sending_since.lock()
        {
            s.get_or_insert_with(Instant::now);
        }
    }

    /// Counts a row waiting until `until` at most on a claim `holder` made (a
    /// colleague; `None`: this computer's own run).
    pub(super) fn wait_in_flight(
        &self,
        until: Instant,
        holder: Option<journal::WrittenBy>,
    ) -> InFlight<'_> {
        if let Ok(mut w) = self.in_flight.lock() {
            w.rows += 1;
            w.until = Some(w.until.map_or(until, |u| u.max(until)));
            if let Some(h) = &holder {
                w.holders.push(h.clone());
            }
        }
        InFlight(self, holder)
    }

    /// Whether a request may go now: not paused, not waiting out a 429, not stopped.
    pub(super) fn may_send(&self) -> bool {
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
    pub(super) fn journal_away(&self, patience: Duration) -> bool {
        let Ok(mut down) = self.journal_down.lock() else {
            return false;
        };
        let (since, _) = down.get_or_insert_with(|| (Instant::now(), chrono::Utc::now()));
        since.elapsed() < patience
    }

    /// The journal answered again.
    pub(super) fn journal_back(&self) {
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
    pub(super) fn held(&self) -> Held {
        if let Some(f) = self.issued_elsewhere() {
            return Held::Elsewhere(f);
        }
        match self.journal_failure() {
            Some(e) => Held::Journal(e),
            None => Held::Cancelled,
        }
    }

    pub(super) fn rate_limited(&self, wait: Duration) {
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
    pub(super) async fn turn(&self) -> bool {
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
