//! The journal as every command opens it, and its failures in words: "nothing was
//! sent" before a write, "not recorded" after one. The `journal` command itself is in
//! journal_cmd.rs.

use super::CliError;
use crate::journal::{self, Journal};
use crate::tr;

/// Opens the journal for a command; its failure is exit 1.
pub(super) fn open() -> Result<Journal, CliError> {
    super::settings::journal_choice()?.open().map_err(failure)
}

/// A journal that could not record an export or a run's start: nothing was done.
pub(super) fn not_recorded(e: journal::JournalError) -> CliError {
    journal_failure(crate::i18n::journal_not_sent(&e), &e)
}

pub(super) fn failure(e: journal::JournalError) -> CliError {
    journal_failure(crate::i18n::journal_error(&e), &e)
}

/// A journal failure (exit 1): `lead` in the clerk's words, then where the journal is
/// and SQLite's reason (for whoever looks after the computer).
pub(super) fn journal_failure(lead: String, e: &journal::JournalError) -> CliError {
    CliError {
        code: super::Exit::Failed,
        message: format!(
            "{lead}\n{}\n{} {}",
            tr!("cli-journal-where", path = e.path().display()),
            tr!("cli-details"),
            e.reason()
        ),
    }
}

/// The journal, for a create or void.
pub(super) fn open_journal() -> Result<crate::journal::SharedJournal, CliError> {
    journal_before_sending().map(crate::journal::SharedJournal::new)
}

/// [`open_journal`] while `client` fetches its token, with `first` (the command's first
/// reads) run on it there: a shared journal's connection (its server's greeting, the
/// password's exchange, the layout), a rehearsal of the claim (the server's first call of
/// the journal's functions) and those reads overlap the token's round trip to the
/// service instead of each waiting for the server after it (#71: the desk's journal
/// added 15–19 ms to one create).
pub(super) async fn open_journal_warming<T: Send + 'static>(
    client: &crate::api::Client,
    first: impl FnOnce(&crate::journal::Journal) -> T + Send + 'static,
) -> Result<(crate::journal::SharedJournal, T), CliError> {
    let opening = tokio::task::spawn_blocking(move || {
        let journal = journal_before_sending()?;
        journal.rehearse_claim();
        let read = first(&journal);
        Ok((crate::journal::SharedJournal::new(journal), read))
    });
    let (journal, ()) = tokio::join!(opening, client.fetch_token_ahead());
    journal.unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
}

/// The journal, before anything is sent or written (create, void, export, bulk): when
/// it cannot be opened, the failure says that nothing was sent.
pub(super) fn journal_before_sending() -> Result<crate::journal::Journal, CliError> {
    super::settings::journal_choice()?.open().map_err(not_sent)
}

/// A journal that could not be opened or written: nothing was sent.
pub(super) fn not_sent(e: crate::journal::JournalError) -> CliError {
    journal_failure(crate::i18n::journal_not_sent(&e), &e)
}

/// Records what came of an export (or a statement written): a journal that refuses is
/// said, and what was written stays written.
pub(super) fn settle_export(
    journal: &mut crate::journal::Journal,
    seq: i64,
    settled: &crate::journal::Settled,
) {
    if let Err(e) = journal.record_outcome(seq, settled) {
        note!(
            "{}",
            crate::tr!(
                "cli-export-not-recorded",
                why = crate::i18n::journal_error(&e)
            )
        );
    }
}
