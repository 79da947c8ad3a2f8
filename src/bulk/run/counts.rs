//! A run's counts, for progress and its summary, and its pace.

use super::*;

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
