//! An e-mail sent once: its key is claimed in the journal (one transaction, the claims'
//! unique key) when the server is ready for the content and before any of it is sent,
//! and its outcome journaled with the server's answer. What the server held before the
//! content (sender, recipients) is nothing: a crash there leaves no claim, and the next
//! run sends it. A crash or a lost connection after the content leaves the claim held
//! with no known outcome: said, never resent unless the clerk asks (`again`).

use super::compose::Draft;
use super::smtp::{Delivery, Envelope2, Mailer};
use crate::journal::{
    Action, Claimed, Entry, Guard, Intent, JournalError, Outcome, Settled, SharedJournal, identity,
};
use std::time::Duration;

/// What came of one e-mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sent {
    /// The server took it.
    Sent {
        /// The journal's intent.
        seq: i64,
        /// The server's answer.
        reply: String,
        /// Addresses it refused (address, answer); it went to the others.
        refused: Vec<(String, String)>,
    },
    /// Sent before (the entry says who and when): not sent again.
    Already(Entry),
    /// Sent before and nobody knows whether the server took it: not sent again.
    Unknown(Entry),
    /// Being sent right now by another run or clerk (claimed moments ago, its program
    /// still connected to the shared journal): not sent here.
    OnItsWay(Entry),
    /// Sent before (the entry), but some addresses refused it then: sent again to each
    /// of those alone (what came of each), never to the addresses that took it.
    AgainTo {
        /// The e-mail's entry.
        before: Entry,
        /// Each refused address, and what came of sending it again.
        results: Vec<(String, Sent)>,
    },
    /// The customer has no e-mail address: nothing sent.
    NoAddress,
    /// Refused for good (5xx, or every address): nothing sent.
    Refused {
        /// The server's answer.
        reply: String,
        /// Addresses refused one by one.
        refused: Vec<(String, String)>,
    },
    /// Refused for now, after every attempt: nothing sent; a later run tries again.
    Later {
        /// The server's last answer.
        reply: String,
    },
    /// The server could not be used (TLS, login, no STARTTLS): nothing sent, and nothing
    /// else will be: the run stops.
    Setup {
        /// What went wrong.
        why: String,
    },
    /// The content was sent and no answer came: journaled as unknown.
    Lost {
        /// The journal's intent.
        seq: i64,
        /// What went wrong.
        why: String,
    },
}

/// Beyond a content step, how long a claim's sender may take to write its outcome.
const IN_FLIGHT_MARGIN: Duration = Duration::from_secs(30);

/// The longest server answer journaled.
const ANSWER_CHARS: usize = 120;

/// How many explicit resends one key may have had (a bound on a loop, not a policy).
const MAX_AGAIN: usize = 1000;

/// Which e-mails sent before are sent again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Again {
    /// None: each e-mail once.
    No,
    /// Those whose outcome is in doubt (sent, and no answer came): a month's run asked
    /// again sends only those, never what the server took.
    InDoubt,
    /// Every one sent before too (the clerk asked for this e-mail, or `--again-all`).
    All,
}

impl Again {
    /// Whether an earlier send held by `h` is gone past (sent again under a key of its
    /// own). A refused one never is: its claim is taken over as it is.
    fn passes(self, h: &Entry) -> bool {
        match self {
            Again::No => false,
            Again::InDoubt => h.outcome == Outcome::Unknown,
            Again::All => h.outcome != Outcome::Refused,
        }
    }
}

/// Sends drafts through one mailer, each claimed in one journal (the CLI's or the app's
/// handle: reads and writes run off the async threads).
pub struct Outbox<'a> {
    journal: SharedJournal,
    mailer: &'a Mailer,
    profile: String,
    base_url: String,
    next_start: Option<tokio::time::Instant>,
    /// Attempts when the server says "later" (4xx, or lost before the content).
    pub attempts: u32,
    /// The first wait between attempts (doubled each time).
    pub backoff: Duration,
    /// Since when the journal's server has not answered, while an e-mail waits for it
    /// (nothing is sent meanwhile): the front end says so.
    down: std::sync::Arc<std::sync::Mutex<Option<chrono::DateTime<chrono::Utc>>>>,
    /// The desk's four eyes on a run's e-mails (a shared journal): the run's size on
    /// each e-mail's intent, and the approval they carry out.
    pub four_eyes: crate::journal::approvals::FourEyes,
}

impl<'a> Outbox<'a> {
    /// An outbox for the profile `profile` on the service at `base_url`.
    pub fn new(
        journal: SharedJournal,
        mailer: &'a Mailer,
        profile: &str,
        base_url: &str,
    ) -> Outbox<'a> {
        Outbox {
            journal,
            mailer,
            profile: profile.to_string(),
            base_url: base_url.to_string(),
            next_start: None,
            attempts: 3,
            backoff: Duration::from_secs(5),
            down: std::sync::Arc::default(),
            four_eyes: Default::default(),
        }
    }

    /// Since when the journal's server has not answered, while an e-mail waits for it;
    /// shared, for a front end to read while a send goes on.
    pub fn journal_down(
        &self,
    ) -> std::sync::Arc<std::sync::Mutex<Option<chrono::DateTime<chrono::Utc>>>> {
        self.down.clone()
    }

    /// Waits while the journal's server is out of reach (a restart, a failover), at
    /// most [`crate::journal::away_patience`]: an e-mail's claim is made while the mail
    /// server waits for the content, which cannot wait for minutes, so the journal is
    /// asked first. Nothing is sent meanwhile.
    async fn journal_answers(&self) -> Result<(), JournalError> {
        let began = std::time::Instant::now();
        let patience = crate::journal::away_patience();
        loop {
            match self.journal.run(|j| j.ping()).await {
                Ok(()) => {
                    if let Ok(mut d) = self.down.lock() {
                        *d = None;
                    }
                    return Ok(());
                }
                Err(e)
                    if e.trouble() == crate::journal::Trouble::Unreachable
                        && began.elapsed() < patience =>
                {
                    if let Ok(mut d) = self.down.lock() {
                        d.get_or_insert_with(chrono::Utc::now);
                    }
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The journal it claims in (for the caller's reads: the directory).
    pub fn journal(&self) -> &SharedJournal {
        &self.journal
    }

    /// Where its keys are claimed.
    pub fn scope(&self) -> String {
        identity::mail_scope(&self.base_url)
    }

    /// The key `draft` would be sent under now, and its holder: with `again`, past the
    /// earlier sends it names (each explicit resend is itself once: `…#again-<seq>`).
    pub async fn key_for(
        &self,
        draft: &Draft,
        again: Again,
    ) -> Result<(String, Option<Entry>), JournalError> {
        let scope = self.scope();
        let base = draft.key();
        self.journal
            .run(move |j| {
                let mut key = base.clone();
                for _ in 0..MAX_AGAIN {
                    match j.claim_holder(&scope, &key)? {
                        Some(h) if again.passes(&h) => {
                            key = format!("{base}#again-{}", h.seq);
                        }
                        other => return Ok((key, other)),
                    }
                }
                Ok((key, None))
            })
            .await
    }

    /// Sends `draft` once: not if it was sent (or may have been) under its key, unless
    /// `again`. A journal that cannot be written stops it before anything is sent.
    pub async fn send(&mut self, draft: &Draft, again: Again) -> Result<Sent, JournalError> {
        if draft.to.is_empty() {
            return Ok(Sent::NoAddress);
        }
        let (key, holder) = self.key_for(draft, again).await?;
        match holder {
            Some(h) if h.outcome == Outcome::Done => return self.again_to_refused(draft, h).await,
            Some(h) if h.outcome == Outcome::Unknown => return self.unsettled(h).await,
            _ => {}
        }
        let intent = Intent {
            profile: self.profile.clone(),
            base_url: identity::canonical_url(&self.base_url),
            customer: Some(draft.customer.clone()),
            invoice_id: (draft.kind == super::Kind::Invoice).then(|| draft.document.clone()),
            external_id: Some(key.clone()),
            file_name: draft.attachments.first().map(|a| a.name.clone()),
            service: self.scope(),
            decision: (key != draft.key()).then(|| format!("sent-again:{}", draft.key())),
            rows: self.four_eyes.run_rows,
            ..Intent::default()
        };
        let guard = Guard {
            approval: self.four_eyes.approval,
            ..Guard::default()
        };
        let id = message_id(&self.scope(), &key, self.mailer);
        let message = match draft.message(self.mailer.settings(), &id) {
            Ok(m) => m,
            // Made of checked parts: what lettre refuses is ours to fix, for every e-mail.
            Err(why) => return Ok(Sent::Setup { why }),
        };
        let bytes = message.formatted();
        let envelope = Envelope2 {
            to: &draft.to,
            copy_to: self.mailer.settings().copy_to.as_ref(),
            bytes: &bytes,
        };
        let mut wait = self.backoff;
        let mut last = String::new();
        for attempt in 0..self.attempts.max(1) {
            if attempt > 0 {
                tokio::time::sleep(wait).await;
                wait = wait.saturating_mul(2);
            }
            self.pace().await;
            self.journal_answers().await?;
            let mut claim: Option<Result<Claimed, JournalError>> = None;
            let journal = self.journal.clone();
            let delivery = self
                .mailer
                .deliver(&envelope, async |_taken: &[String]| {
                    // A colleague's open transaction on the same key (stalled until the
                    // server ends it) is waited out, as a billing run does.
                    let mut since = Some(std::time::Instant::now());
                    let c = loop {
                        let (i, g) = (intent.clone(), guard.clone());
                        let c = journal.run(move |j| j.claim(Action::Email, &i, &g)).await;
                        match c {
                            Err(e) if crate::journal::busy_again(&e, &mut since) => {
                                tokio::time::sleep(crate::journal::BUSY_RETRY).await;
                            }
                            c => break c,
                        }
                    };
                    let go = matches!(c, Ok(Claimed::Claimed(_)));
                    claim = Some(c);
                    go
                })
                .await;
            let seq = match &claim {
                Some(Ok(Claimed::Claimed(seq))) => Some(*seq),
                _ => None,
            };
            match delivery {
                Delivery::Accepted { reply, refused } => {
                    let seq = seq.expect("content is sent only once claimed");
                    self.settle(seq, Outcome::Done, None, &reply).await?;
                    // Each address refused while the others took it is journaled
                    // refused under a key of its own: a later run sends it there alone.
                    for (address, answer) in &refused {
                        // The key a later run looks for (also after a resend asked for:
                        // the e-mail's own key, never the resend's).
                        let for_one = Draft {
                            again_to: Some(address.clone()),
                            ..draft.clone()
                        };
                        let one = Intent {
                            external_id: Some(for_one.key()),
                            decision: None,
                            ..intent.clone()
                        };
                        self.refused(None, &one, "MailRefused", answer).await?;
                    }
                    return Ok(Sent::Sent {
                        seq,
                        reply,
                        refused,
                    });
                }
                Delivery::Unknown { why } => {
                    let seq = seq.expect("content is sent only once claimed");
                    self.settle(seq, Outcome::Unknown, Some("MailNoAnswer"), &why)
                        .await?;
                    return Ok(Sent::Lost { seq, why });
                }
                Delivery::NotClaimed => {
                    return match claim {
                        Some(Ok(Claimed::Done(e))) => Ok(Sent::Already(e)),
                        Some(Ok(Claimed::Pending(e) | Claimed::LooksLike(e))) => {
                            self.unsettled(e).await
                        }
                        Some(Err(e)) => Err(e),
                        // The claim said go, yet nothing was sent: nothing to journal.
                        _ => Ok(Sent::Later {
                            reply: crate::i18n::text("mail-why-not-handed-over"),
                        }),
                    };
                }
                Delivery::Refused { reply, refused } => {
                    // Journaled even when refused before the content (nothing sent):
                    // the clerk's record of what was tried.
                    self.refused(seq, &intent, "MailRefused", &reply).await?;
                    return Ok(Sent::Refused { reply, refused });
                }
                Delivery::Setup { why } => return Ok(Sent::Setup { why }),
                Delivery::Later { reply, after_claim } => {
                    if after_claim {
                        self.refused(seq, &intent, "MailDeferred", &reply).await?;
                    }
                    last = reply;
                }
            }
        }
        Ok(Sent::Later { reply: last })
    }

    /// An e-mail sent before (`before`): the addresses the server refused then (each
    /// journaled refused under `…#to:<address>`) and still the customer's get it again,
    /// each alone; the addresses that took it never get a second copy.
    async fn again_to_refused(
        &mut self,
        draft: &Draft,
        before: Entry,
    ) -> Result<Sent, JournalError> {
        if draft.again_to.is_some() {
            return Ok(Sent::Already(before));
        }
        let prefix = format!("{}{}", draft.whole_key(), super::compose::TO_ONE);
        let scope = self.scope();
        let held = self
            .journal
            .run(move |j| j.claims_beginning(&scope, &prefix))
            .await?;
        let refused: Vec<String> = held
            .into_iter()
            .filter(|(_, e)| e.outcome == Outcome::Refused)
            .filter_map(|(key, _)| {
                key.rsplit_once(super::compose::TO_ONE)
                    .map(|(_, a)| a.to_string())
            })
            .collect();
        let mut results = Vec::new();
        for to in &draft.to {
            let address = to.to_string();
            if !refused.contains(&address) {
                continue;
            }
            let one = Draft {
                to: vec![to.clone()],
                again_to: Some(address.clone()),
                ..draft.clone()
            };
            let sent = Box::pin(self.send(&one, Again::No)).await?;
            results.push((address, sent));
        }
        Ok(if results.is_empty() {
            Sent::Already(before)
        } else {
            Sent::AgainTo { before, results }
        })
    }

    /// A claim held with no outcome: on its way when it was made less than one content
    /// step (and a margin) ago on the journal's clock that cannot step — its sender is
    /// handing the content over or writing the answer — else unknown.
    async fn unsettled(&self, e: Entry) -> Result<Sent, JournalError> {
        let window = self.mailer.step_timeout + IN_FLIGHT_MARGIN;
        let seq = e.seq;
        // Whether its sender is connected, then what the entry says now: a sender that
        // recorded its outcome and ended between the claim and this look is found
        // settled, not taken for one that vanished.
        let (age, alive, now) = self
            .journal
            .run(move |j| Ok((j.age(seq)?, j.writer_alive(seq)?, j.entry(seq)?)))
            .await?;
        let now = now.unwrap_or(e);
        Ok(match (now.outcome, age.to_std()) {
            (Outcome::Done, _) => Sent::Already(now),
            // Refused meanwhile: nothing went; a later run takes the claim over.
            (Outcome::Refused, _) => Sent::Later {
                reply: now.error_code.clone().unwrap_or_default(),
            },
            // "Being sent right now" only when its sender is still connected: a claim
            // left by a program that was killed, or lost its answer, is in doubt from
            // that moment.
            (Outcome::Unknown, Ok(a)) if a < window && alive => Sent::OnItsWay(now),
            _ => Sent::Unknown(now),
        })
    }

    /// Waits for the rate: one e-mail every `60 s / per_minute`, on the monotonic clock
    /// (none at the server's pace).
    async fn pace(&mut self) {
        let per_minute = self.mailer.settings().per_minute;
        if per_minute == crate::profile::mail::SERVER_PACE {
            return;
        }
        let every = Duration::from_secs(60) / per_minute;
        if let Some(at) = self.next_start {
            tokio::time::sleep_until(at).await;
        }
        self.next_start = Some(tokio::time::Instant::now() + every);
    }

    async fn settle(
        &self,
        seq: i64,
        outcome: Outcome,
        kind: Option<&str>,
        answer: &str,
    ) -> Result<(), JournalError> {
        let settled = Settled {
            outcome,
            error_kind: kind.map(str::to_string),
            error_code: Some(answer.chars().take(ANSWER_CHARS).collect()),
            ..Settled::done(None)
        };
        self.journal
            .run(move |j| j.record_outcome(seq, &settled).map(|_| ()))
            .await
    }

    /// A refusal journaled: on the claim when there is one, else on a claim made now and
    /// settled at once (nothing was sent).
    async fn refused(
        &self,
        seq: Option<i64>,
        intent: &Intent,
        kind: &str,
        answer: &str,
    ) -> Result<(), JournalError> {
        let seq = match seq {
            Some(s) => s,
            None => {
                let i = intent.clone();
                match self
                    .journal
                    .run(move |j| j.claim(Action::Email, &i, &Guard::default()))
                    .await?
                {
                    Claimed::Claimed(s) => s,
                    // Someone else holds it now: theirs to journal.
                    _ => return Ok(()),
                }
            }
        };
        self.settle(seq, Outcome::Refused, Some(kind), answer).await
    }
}

/// The message's id: one per claimed key (a receiving system sees a resend as another
/// message only when the clerk asked for one), at the sender's domain.
fn message_id(scope: &str, key: &str, mailer: &Mailer) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(format!("{scope}\n{key}").as_bytes());
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!(
        "<{hex}.invoice-desk@{}>",
        mailer.settings().from.email.domain()
    )
}
