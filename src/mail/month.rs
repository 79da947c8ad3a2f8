//! A month's e-mail run — each customer's statement (or reminder), once — the one loop
//! the app (Cartera's "Enviar por correo") and the CLI (`email statements`) both run:
//! the customer's directory entry, the document made from its listing, the journal's
//! claim and the send, and what came of it counted in one [`Tally`]. Each caller says
//! each customer's turn its own way (the CLI a line as it goes, the app a summary).

use super::documents::{Desk, NotMade};
use super::{Again, Draft, Outbox, Sent};
use crate::journal::{Entry, JournalError};
use crate::profile::mail::TemplateError;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a month's run does besides the customers.
pub struct Month<'a> {
    /// The service the customers' invoices are listed from.
    pub client: &'a crate::api::Client,
    /// How documents are made (sender, templates, the UF's line).
    pub desk: &'a Desk,
    /// The day the statements are made on; its month is the e-mails'.
    pub as_of: chrono::NaiveDate,
    /// Every invoice, not only what is owed.
    pub all: bool,
    /// Reminders (30/60/90 days) instead of statements.
    pub reminders: bool,
    /// Which e-mails sent before are sent again.
    pub again: Again,
    /// Make each e-mail and say to whom it would go, send nothing.
    pub preview: bool,
}

/// One customer's turn.
pub enum Turn {
    /// No e-mail for this customer (why).
    NotMade(NotMade),
    /// Previewed: the e-mail, and whoever holds its key already (sent before, in doubt).
    Previewed {
        /// The e-mail as it would go.
        draft: Draft,
        /// The journal's entry of an earlier send, if any.
        holder: Option<Entry>,
    },
    /// Handed to the outbox: the e-mail and what came of it.
    Sent {
        /// The e-mail.
        draft: Draft,
        /// What came of it.
        sent: Sent,
    },
}

/// How the run ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every customer had a turn.
    Whole,
    /// Stopped by the clerk before customer `done` (0-based) had a turn.
    Stopped {
        /// Customers that had their turn.
        done: usize,
    },
    /// The mail server cannot be used (TLS, login): nothing else is sent.
    Setup(String),
}

/// Why the run could not go on (nothing after it was sent).
#[derive(Debug)]
pub enum MonthError {
    /// The journal could not be read or written (its claim is what makes "once").
    Journal(JournalError),
    /// The clerk's template cannot be used (the same for every customer).
    Template(TemplateError),
}

/// How many customers' e-mails are made ahead of the one being sent: their listings
/// and PDFs (on the blocking pool) overlap the send, which goes one at a time, in order
/// (#71: the run took ×2.27 the time to make the same statements to files).
const MADE_AHEAD: usize = 4;

/// Runs `ids` in order: for each, `each(n, who, turn)` with the customer's name as shown
/// (controls escaped). `stop` ends the run before the next customer. The next customers'
/// e-mails are made while one is sent; nothing is claimed or sent but in turn, and what
/// was made past a stop or a setup failure is dropped, unsent.
pub async fn run(
    month: &Month<'_>,
    outbox: &mut Outbox<'_>,
    ids: &[String],
    stop: &AtomicBool,
    mut each: impl FnMut(usize, &str, &Turn),
) -> Result<Ended, MonthError> {
    use futures_util::StreamExt;
    let journal = outbox.journal().clone();
    let mut made = futures_util::stream::iter(ids.iter().cloned())
        .map(move |id: String| made_for(month, journal.clone(), id))
        .buffered(MADE_AHEAD);
    let mut n = 0;
    while let Some(next) = made.next().await {
        if stop.load(Ordering::SeqCst) {
            return Ok(Ended::Stopped { done: n });
        }
        let (who, made) = next?;
        let turn = match made {
            Err(NotMade::Template(t)) => return Err(MonthError::Template(t)),
            Err(why) => Turn::NotMade(why),
            Ok(draft) if month.preview => {
                let (_, holder) = outbox
                    .key_for(&draft, month.again)
                    .await
                    .map_err(MonthError::Journal)?;
                Turn::Previewed { draft, holder }
            }
            Ok(draft) => {
                let sent = outbox
                    .send(&draft, month.again)
                    .await
                    .map_err(MonthError::Journal)?;
                Turn::Sent { draft, sent }
            }
        };
        each(n, &who, &turn);
        if let Turn::Sent { sent, .. } = &turn
            && let Some(why) = setup_why(sent)
        {
            return Ok(Ended::Setup(why.to_string()));
        }
        n += 1;
    }
    Ok(Ended::Whole)
}

/// Customer `id`'s e-mail as made for `month`, with its name as shown.
async fn made_for(
    month: &Month<'_>,
    journal: crate::journal::SharedJournal,
    id: String,
) -> Result<(String, Result<Draft, NotMade>), MonthError> {
    let wanted = id.clone();
    let known = journal
        .run(move |j| j.customer_or_id(&wanted))
        .await
        .map_err(MonthError::Journal)?;
    let who = crate::text::escape_controls(known.name.as_deref().unwrap_or(&id)).into_owned();
    let made = month
        .desk
        .statement_listed(month.client, known, month.as_of, month.all, month.reminders)
        .await;
    Ok((who, made))
}

/// Why the mail server cannot be used, when `sent` says so (also when an address sent
/// again alone found it so): the run ends there.
pub fn setup_why(sent: &Sent) -> Option<&str> {
    match sent {
        Sent::Setup { why } => Some(why),
        Sent::AgainTo { results, .. } => results.iter().find_map(|(_, r)| setup_why(r)),
        _ => None,
    }
}

/// What a run came to, customer by customer: the app's summary and the CLI's last line
/// and exit code are both read from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// E-mails the server took now (an address sent again alone counts as one).
    pub sent: usize,
    /// Sent before (this month), or being sent right now by someone else.
    pub before: usize,
    /// Customers owing nothing (or nothing 30 days overdue, for reminders).
    pub nothing_owed: usize,
    /// E-mails previewed, not sent.
    pub previewed: usize,
    /// Customers without an address (named).
    pub no_address: Vec<String>,
    /// Customers whose e-mail the server refused for good ("who (answer)").
    pub refused: Vec<String>,
    /// Addresses refused while the others took the e-mail ("who: address (answer)"), each
    /// tried again, alone, by a later run.
    pub refused_addresses: Vec<String>,
    /// Customers whose e-mail could not be made or was put off ("who (why)").
    pub failed: Vec<String>,
    /// Sent and never answered: may have arrived (named).
    pub unknown: Vec<String>,
}

impl Tally {
    /// Counts customer `who`'s turn.
    pub fn count(&mut self, who: &str, turn: &Turn) {
        match turn {
            Turn::NotMade(NotMade::NoAddress) => self.no_address.push(who.to_string()),
            Turn::NotMade(NotMade::NothingOwed) => self.nothing_owed += 1,
            Turn::NotMade(why) => self.failed.push(format!("{who} ({})", why.why_words())),
            Turn::Previewed { .. } => self.previewed += 1,
            Turn::Sent { sent, .. } => self.count_sent(who, sent),
        }
    }

    fn count_sent(&mut self, who: &str, sent: &Sent) {
        let safe = |t: &str| crate::text::escape_controls(t).into_owned();
        match sent {
            Sent::Sent { refused, .. } => {
                self.sent += 1;
                for (a, r) in refused {
                    self.refused_addresses
                        .push(format!("{who}: {} ({})", safe(a), safe(r)));
                }
            }
            Sent::Already(_) | Sent::OnItsWay(_) => self.before += 1,
            Sent::AgainTo { results, .. } => {
                self.before += 1;
                for (address, r) in results {
                    match r {
                        Sent::Sent { .. } => self.sent += 1,
                        Sent::Refused { reply, .. } | Sent::Later { reply } => self
                            .refused_addresses
                            .push(format!("{who}: {} ({})", safe(address), safe(reply))),
                        other => self.count_sent(&format!("{who}: {}", safe(address)), other),
                    }
                }
            }
            Sent::Unknown(_) | Sent::Lost { .. } => self.unknown.push(who.to_string()),
            Sent::NoAddress => self.no_address.push(who.to_string()),
            Sent::Refused { reply, .. } => self.refused.push(format!("{who} ({})", safe(reply))),
            Sent::Later { reply } => self.failed.push(format!("{who} ({})", safe(reply))),
            // Said by whoever ran it: the run ends there.
            Sent::Setup { .. } => {}
        }
    }

    /// Customers and addresses that did not get their e-mail now and will not unless
    /// someone acts (refused, put off, not made, an address refused).
    pub fn not_sent(&self) -> usize {
        self.refused.len() + self.failed.len() + self.refused_addresses.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(sent: Sent) -> Turn {
        Turn::Sent {
            draft: Draft {
                kind: crate::mail::Kind::Statement,
                customer: "cus_1".into(),
                document: "2026-11".into(),
                to: vec![],
                texts: crate::mail::Texts {
                    subject: String::new(),
                    body: String::new(),
                },
                attachments: vec![],
                again_to: None,
            },
            sent,
        }
    }

    /// The app's summary and the CLI's exit code read the same counts: one test of them.
    #[test]
    fn every_turn_is_counted_once_where_both_callers_read_it() {
        let mut t = Tally::default();
        t.count(
            "Ana",
            &sent(Sent::Sent {
                seq: 1,
                reply: "250 ok".into(),
                refused: vec![("malo@x.cl".into(), "550 no\r\n".into())],
            }),
        );
        t.count("Beto", &Turn::NotMade(NotMade::NoAddress));
        t.count("Carla", &Turn::NotMade(NotMade::NothingOwed));
        t.count("Dora", &Turn::NotMade(NotMade::TooLarge { mb: 30 }));
        t.count(
            "Eva",
            &sent(Sent::Refused {
                reply: "554 no".into(),
                refused: vec![],
            }),
        );
        t.count(
            "Fito",
            &sent(Sent::Later {
                reply: "451 luego".into(),
            }),
        );
        t.count(
            "Gabi",
            &sent(Sent::Lost {
                seq: 2,
                why: "timeout".into(),
            }),
        );
        t.count("Hugo", &sent(Sent::Setup { why: "TLS".into() }));
        assert_eq!(t.sent, 1);
        assert_eq!(t.nothing_owed, 1);
        assert_eq!(t.no_address, ["Beto"]);
        // The server's answer with its controls escaped.
        assert_eq!(t.refused_addresses, ["Ana: malo@x.cl (550 no\\r\\n)"]);
        assert_eq!(t.refused, ["Eva (554 no)"]);
        assert_eq!(t.failed.len(), 2);
        assert!(t.failed[0].starts_with("Dora (") && t.failed[1] == "Fito (451 luego)");
        assert_eq!(t.unknown, ["Gabi"]);
        assert_eq!(t.not_sent(), 4);
        assert_eq!(setup_why(&Sent::Setup { why: "TLS".into() }), Some("TLS"));
    }
}
