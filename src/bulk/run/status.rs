//! What became of one row of a run: sent, issued before, held by a colleague, not sent,
//! unsure — each with what the clerk needs to decide.

use super::*;

/// What became of one row.
#[derive(Clone, Debug)]
pub enum Status {
    /// Issued now: the invoice's id.
    Created(String),
    /// The service refused it.
    Refused(ApiError),
    /// Sent (now or earlier), but whether it was issued cannot be told yet.
    Unknown(Unsure),
    /// Issued already: by an earlier run (the journal says so), or found at the service.
    SkippedExisting(Existing),
    /// It looks like an invoice already issued: not sent unless the clerk says so.
    PossibleDuplicate(Earlier),
    /// Not valid: not sent.
    SkippedInvalid,
    /// Not sent, and why.
    NotSent(Held),
}

/// An invoice found already issued for a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Existing {
    /// Its id, when known.
    pub id: Option<String>,
    /// When it was issued (RFC 3339, or the service's `created_at`), when known.
    pub time: Option<String>,
    /// Found in the service's listing (not in this journal).
    pub at_service: bool,
    /// Issued by someone else on the journal (a colleague on the shared journal, or
    /// another process): who.
    pub by: Option<journal::WrittenBy>,
    /// This run's request got no answer (a computer that froze and woke) and a
    /// colleague found it issued at the service meanwhile: who.
    pub confirmed_by: Option<journal::WrittenBy>,
}

/// The earlier invoice a row looks like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Earlier {
    /// Its id (else its reference), when known.
    pub id: Option<String>,
    /// When it was issued, when known (RFC 3339 or the service's `created_at`).
    pub time: Option<String>,
    /// Found at the service (not in this journal).
    pub at_service: bool,
    /// It has a due date (alike by it); without one, alike by the day it was issued.
    pub due: bool,
}

/// Why a row was not sent.
#[derive(Clone, Debug)]
pub enum Held {
    /// The run was stopped before its turn.
    Cancelled,
    /// The journal could not record its intent (nothing can be sent without it).
    Journal(JournalError),
    /// The service kept answering 429.
    RateLimited,
    /// The service asked to wait longer than a run waits ([`MAX_RATE_WAIT`]).
    WaitTooLong(Duration),
    /// The service's listing of its customer could not be read, so whether it is already
    /// issued could not be told.
    Unchecked(ApiError),
    /// The run stopped: another computer, with a journal of its own, is issuing the same
    /// file right now (this invoice carries one of the file's references, and this
    /// journal did not issue it).
    Elsewhere(Foreign),
}

/// An invoice of the run's file that another computer issued while the run went on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Foreign {
    /// The reference it carries.
    pub reference: String,
    /// The invoice.
    pub invoice: String,
}

/// Why a row's outcome is not known.
#[derive(Clone, Debug)]
pub enum Unsure {
    /// This run's request got no answer that says.
    Sent(ApiError),
    /// An earlier request's outcome is unknown and the service could not be asked now.
    Earlier,
    /// An earlier request (maybe another process's, maybe still on its way) is not at
    /// the service yet; nothing can be concluded before this time (UTC).
    Waiting(chrono::DateTime<chrono::Utc>),
    /// Sent and answered (the invoice, when one was created), but the journal could not
    /// record the outcome: it shows "to check" until checked.
    NotRecorded(Option<String>, JournalError),
    /// Another worker holds it right now (a colleague on the shared journal, or
    /// another run of the same file): settled after the other rows.
    Elsewhere(Box<Entry>),
}

impl Status {
    /// The report's word for it.
    pub fn word(&self) -> &'static str {
        match self {
            Status::Created(_) => "created",
            Status::Refused(_) => "refused",
            Status::Unknown(_) => "unknown",
            Status::SkippedExisting(_) => "skipped_existing",
            Status::PossibleDuplicate(_) => "possible_duplicate",
            Status::SkippedInvalid => "skipped_invalid",
            Status::NotSent(_) => "not_sent",
        }
    }

    /// The invoice's id, when there is one.
    pub fn invoice_id(&self) -> Option<&str> {
        match self {
            Status::Created(id) => Some(id),
            Status::SkippedExisting(e) => e.id.as_deref(),
            _ => None,
        }
    }
}

crate::engineers_text!(Held);

crate::engineers_text!(Unsure);

crate::engineers_text!(Earlier);
