//! Sending one row's request and settling what came back: a holder on its way, a late
//! answer, the journal out of reach.

use super::*;

impl Runner {
    /// Whether a claim's holder may still have its request on its way (another worker is
    /// at it): its intent is younger than the in-flight window, by the journal's clock
    /// that cannot step ([`journal::Journal::age`]).
    pub(super) async fn on_its_way(&self, holder: &Entry) -> bool {
        let seq = holder.seq;
        self.journal
            .run(move |j| j.age(seq))
            .await
            .is_ok_and(|age| age < journal::in_flight_window(&self.client))
    }

    /// A row whose reference the journal's entry `e` issued (by whom, when not us).
    pub(super) fn existing(&self, e: &Entry) -> Status {
        Status::SkippedExisting(Existing {
            id: e.invoice_id.clone(),
            time: Some(e.time.clone()),
            at_service: false,
            by: self.other(e),
            confirmed_by: None,
        })
    }

    /// Who issued `e`, when it was not this journal's own writer (a colleague, another
    /// process under another name).
    pub(super) fn other(&self, e: &Entry) -> Option<journal::WrittenBy> {
        (e.user != self.journal.who()).then(|| e.written_by())
    }

    /// A create this run sent that got no answer: before it is left to review, what
    /// the journal knows of it now (a colleague may have checked it at the service
    /// while this computer was frozen), then what the service says.
    pub(super) async fn no_answer(&self, seq: i64, err: ApiError) -> Status {
        let unsure = |err| Status::Unknown(Unsure::Sent(err));
        let Ok(Some(entry)) = self.journal.run(move |j| j.entry(seq)).await else {
            return unsure(err);
        };
        match entry.outcome {
            Outcome::Done => {
                return Status::SkippedExisting(Existing {
                    id: entry.invoice_id.clone(),
                    time: entry.settled_time.clone(),
                    at_service: false,
                    by: None,
                    confirmed_by: entry.settled_by_another().cloned(),
                });
            }
            Outcome::Unknown => {}
            // Checked by a colleague and found not created: a later run sends it.
            _ => return unsure(err),
        }
        match journal::check_and_record(&self.journal, &self.client, &entry).await {
            Ok(journal::Checked::Settled(s)) if s.outcome == Outcome::Done => {
                s.invoice_id.map_or_else(|| unsure(err), Status::Created)
            }
            _ => unsure(err),
        }
    }

    /// Waits until the entry another worker holds is settled in the journal, the run is
    /// cancelled, or its in-flight window has passed.
    pub(super) async fn until_settled(&self, holder: &Entry) {
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
        let _waiting = self
            .control
            .wait_in_flight(Instant::now() + left, self.other(holder));
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
pub(super) const LATE_TRIES: u32 = 10;

/// How often a row waiting for the journal's server tries again.
pub(super) const JOURNAL_RETRY: Duration = Duration::from_secs(1);

impl Runner {
    /// Writes an outcome the journal refused once, again, for a while; the last error
    /// when it never could.
    pub(super) async fn record_late(
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
    pub(super) fn waits_for_journal(&self, e: &JournalError) -> bool {
        e.trouble() == journal::Trouble::Unreachable
            && !self.control.is_cancelled()
            && self.control.journal_away(journal::away_patience())
    }

    /// Settles an entry of this journal still "to check" for `row`, found at the service
    /// as invoice `id`; returns this journal's entry of it (that one, now done as `id`, or
    /// one already done as `id`), if any.
    pub(super) async fn settle_found(&self, row: &BulkRow, id: Option<String>) -> Option<Entry> {
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
