//! E-mail to customers: a statement, an invoice or a reminder, with its PDF attached,
//! through the desk's SMTP server (lettre; STARTTLS or implicit TLS with rustls).
//!
//! Each e-mail is a write, journaled like a create: `outbox.rs` claims its key (kind,
//! customer, document or month) in the journal right before the message's content is
//! handed to the server, so a second run, a second clerk or a resume after a crash
//! never sends it again; an e-mail whose end was sent and whose answer never came is
//! "unknown" and said, never resent unless the clerk asks (`again`).
//!
//! The settings are a profile's (`profile::mail`: server, port, security, user, from,
//! reply-to, the desk's copy, the rate). compose.rs (the texts from the templates, the message),
//! smtp.rs (one delivery, step by step, read by stage), outbox.rs (the journal's claim
//! around it, retries of temporary refusals, the rate).

pub mod compose;
pub mod documents;
pub mod month;
pub mod outbox;
pub mod smtp;

pub use crate::profile::mail::{Checked, MailError, Security, Settings};
pub use compose::{Attachment, Draft, Kind, Texts, key_words_in};
pub use outbox::{Again, Outbox, Sent};
pub use smtp::{Delivery, Mailer};

pub use crate::address::{MAX_RECIPIENTS, parse_address, parse_addresses};
