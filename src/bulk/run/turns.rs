//! Whose turn it is to send: the run's concurrency, fewer while the service is slow, and
//! a shared run's rows dealt out in parts.

use super::*;

/// Whose turn it is to send: at most the run's concurrency of requests at once, fewer
/// while the service answers slowly ([`crate::bulk::pace`]). Each worker claims its next row
/// while they are on their way, so a claim's sync and its wait for company cost no row
/// any time (#51).
#[derive(Clone)]
pub(super) struct Turns {
    pub(super) permits: Arc<tokio::sync::Semaphore>,
    pub(super) concurrency: usize,
    /// How long a claim made ahead may wait for its turn and still be sent
    /// ([`journal::claim_ahead_limit`]); `None`: a row is claimed when it can go.
    pub(super) ahead: Option<Duration>,
    pub(super) pace: Arc<Mutex<Paced>>,
    /// Where the clerk is told how many go at once ([`Control::slowed`]).
    pub(super) control: Arc<Control>,
}

/// The pace, and the turns to take out of use as they come back: the semaphore holds
/// `limit + owed` permits.
pub(super) struct Paced {
    pub(super) pace: crate::bulk::pace::Pace,
    pub(super) owed: usize,
}

/// A request's turn: given back when its answer is in, or taken out of use when the
/// run now sends fewer at once.
pub(super) struct Turn {
    pub(super) permit: Option<tokio::sync::OwnedSemaphorePermit>,
    pub(super) pace: Arc<Mutex<Paced>>,
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
    pub(super) fn new(concurrency: usize, control: Arc<Control>) -> Turns {
        Turns {
            control,
            permits: Arc::new(tokio::sync::Semaphore::new(concurrency)),
            concurrency,
            ahead: journal::claim_ahead_limit(),
            pace: Arc::new(Mutex::new(Paced {
                pace: crate::bulk::pace::Pace::new(concurrency),
                owed: 0,
            })),
        }
    }

    /// Rows on their way at once: the requests, and as many claimed ahead.
    pub(super) fn depth(&self) -> usize {
        match self.ahead {
            Some(_) => self.concurrency * 2,
            None => self.concurrency,
        }
    }

    /// Waits for a request's turn (`None` only if the semaphore were closed; it never is).
    pub(super) async fn take(&self) -> Option<Turn> {
        let permit = self.permits.clone().acquire_owned().await.ok()?;
        Some(Turn {
            permit: Some(permit),
            pace: self.pace.clone(),
        })
    }

    /// `request`, its answer's time (from when it goes) told to [`Turns::answered`]: it
    /// sets how many go at once.
    pub(super) async fn timed<T, E>(
        &self,
        request: impl std::future::Future<Output = Result<T, E>>,
    ) -> Result<T, E> {
        let began = std::time::Instant::now();
        let answer = request.await;
        if answer.is_ok() {
            self.answered(began.elapsed());
        }
        answer
    }

    /// A create answered (successfully) in `took`: fewer or more may go at once.
    pub(super) fn answered(&self, took: Duration) {
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
pub(super) enum Whose {
    /// Issued through this journal, as that invoice.
    Here,
    /// Certainly not issued through this journal.
    Elsewhere,
    /// Not certain yet (on its way here, or the journal could not be read).
    NotYet,
}

/// What a row's task came to. Its panic is the run's, as when it ran on the run's own
/// task; a task stopped otherwise (the runtime shutting down) leaves the row unknown.
pub(super) async fn row_result(mut task: AbortOnDrop<Status>) -> Status {
    match (&mut task.0).await {
        Ok(status) => status,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => Status::Unknown(Unsure::Sent(ApiError::new(ErrorKind::Cancelled))),
    }
}

/// Why a claimed row's request did not go when its turn came (its claim was given back).
pub(super) enum NotNow {
    /// The run is paused, waiting out a 429, or stopped.
    Held,
    /// It waited longer than a claim made ahead may ([`Turns::ahead`]).
    Stale,
}

/// How many rows of a shared run make one part, taken by one clerk at a time (see
/// [`Runner::run`]).
pub(super) const PART_ROWS: usize = 16;

/// The number that names part `part` of a run whose rows give `seed` (see
/// [`Runner::parts_seed`]) on the desk's journal.
pub(super) fn part_key(seed: &[u8; 32], part: usize) -> i64 {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(seed);
    h.update((part as u64).to_le_bytes());
    let d = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&d[..8]);
    i64::from_le_bytes(first)
}
