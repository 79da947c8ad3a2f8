//! The journal: its trouble in words that say what to do, who wrote an entry.

use crate::tr;

/// What kind of journal trouble this is, as a sentence of its own (none for the
/// kinds with no advice to give).
pub fn journal_trouble(t: crate::journal::Trouble) -> Option<String> {
    use crate::journal::Trouble;
    match t {
        Trouble::Busy => Some(tr!("journal-busy")),
        Trouble::DiskFull => Some(tr!("journal-disk-full")),
        Trouble::ReadOnly => Some(tr!("journal-read-only")),
        Trouble::Corrupt => Some(tr!("journal-corrupt")),
        Trouble::Unreachable => Some(tr!("journal-unreachable")),
        Trouble::Untrusted => Some(tr!("journal-untrusted")),
        Trouble::Denied => Some(tr!("journal-denied")),
        Trouble::NoDatabase => Some(tr!("journal-no-database")),
        Trouble::Rewound => Some(tr!("journal-rewound")),
        Trouble::NeedsApproval => Some(tr!("journal-needs-approval")),
        Trouble::ApprovalRefused => Some(tr!("journal-approval-refused")),
        Trouble::Other => None,
    }
}

pub(super) fn with_trouble(said: String, e: &crate::journal::JournalError) -> String {
    match journal_trouble(e.trouble()) {
        Some(t) => format!("{said} {t}"),
        None => said,
    }
}

/// Who wrote a journal entry, as a clerk reads it: "ana" or, on a shared journal,
/// "ana en PC-CAJA-2", after the clerk's name when one was given.
pub fn who(user: &str) -> String {
    // A clerk's display name comes first: "Ana Pérez (ana@PC-CAJA-2)".
    if let Some((name, account)) = user
        .strip_suffix(')')
        .and_then(|u| u.rsplit_once(" ("))
        .filter(|(name, _)| !name.is_empty())
    {
        return format!("{} ({})", crate::text::escape_controls(name), who(account));
    }
    let user = crate::text::escape_controls(user);
    if matches!(user.as_ref(), "" | "?") || user.starts_with("?@") {
        return tr!("who-unknown");
    }
    match user.split_once('@') {
        Some((name, host)) if !name.is_empty() && !host.is_empty() => {
            tr!("who-on", user = name, host = host)
        }
        _ => user.into_owned(),
    }
}

/// Who wrote entry `e`, as a clerk reads it. On a shared journal the writer is the
/// database role the server knows ("rol beto"), and what the computer said of itself
/// stands beside it, never instead of it: "rol beto · Ana Pérez (ana en PC-CAJA-2)".
/// A row copied by `journal push` says so, with the time its own journal gave it (its
/// `time` is the server's, when it was copied; its role, who copied it).
pub fn writer(e: &crate::journal::Entry) -> String {
    writer_parts(&e.user, e.db_user.as_deref(), e.copied_time.as_deref())
}

/// [`writer`] of who wrote a row.
pub fn writer_by(w: &crate::journal::WrittenBy) -> String {
    writer_parts(&w.user, w.db_user.as_deref(), w.copied_time.as_deref())
}

/// [`writer`] of a row written by `user` (as its computer said), stamped `role` by the
/// server, copied by `journal push` from a journal that recorded it at `copied`.
pub fn writer_parts(user: &str, role: Option<&str>, copied: Option<&str>) -> String {
    let who = writer_of(user, role);
    match copied {
        Some(t) => tr!("who-copied", who = who, when = super::moment(t)),
        None => who,
    }
}

/// [`writer`] of a row written by `user` (as its computer said), as database role
/// `role` when the server stamped one.
pub fn writer_of(user: &str, role: Option<&str>) -> String {
    match role.filter(|r| !r.is_empty()) {
        Some(role) => tr!(
            "who-role",
            role = crate::text::escape_controls(role).into_owned(),
            said = who(user)
        ),
        None => who(user),
    }
}

/// "Nothing was sent: the journal … cannot be written. The disk is full: …"
pub fn journal_not_sent(e: &crate::journal::JournalError) -> String {
    with_trouble(tr!("journal-not-sent"), e)
}

/// What is wrong with the journal, whatever was being done: "cannot be opened / read /
/// written", "is damaged", "is newer", and what kind of trouble it is.
pub fn journal_error(e: &crate::journal::JournalError) -> String {
    use crate::journal::JournalError as J;
    match e {
        J::Open { .. } => with_trouble(tr!("journal-cannot-open"), e),
        J::Read { .. } => with_trouble(tr!("journal-unreadable"), e),
        J::Write { .. } => with_trouble(tr!("journal-cannot-write"), e),
        J::Damaged { .. } => tr!("journal-damaged"),
        J::TooNew { .. } => tr!("journal-too-new"),
        J::OlderLayout { .. } => tr!("journal-older-layout"),
    }
}

/// "The journal cannot be read." and what kind of trouble it is.
pub fn journal_unreadable(e: &crate::journal::JournalError) -> String {
    with_trouble(tr!("journal-unreadable"), e)
}

/// The action in the clerk's words.
pub fn action_word(a: crate::journal::Action) -> String {
    match a {
        crate::journal::Action::Create => tr!("act-create"),
        crate::journal::Action::Void => tr!("act-void"),
        crate::journal::Action::Export => tr!("act-export-action"),
        crate::journal::Action::Email => tr!("act-email-action"),
    }
}

/// The outcome in the clerk's words.
pub fn outcome_word(o: crate::journal::Outcome) -> String {
    match o {
        crate::journal::Outcome::Done => tr!("act-done"),
        crate::journal::Outcome::Refused => tr!("act-refused"),
        crate::journal::Outcome::Unknown => tr!("act-unknown"),
    }
}

/// What a journal error's details say under "Detalles" (for whoever looks after the
/// computer): where the journal is and what its database said — never the error's
/// debug text.
pub fn journal_details(e: &crate::journal::JournalError) -> String {
    format!(
        "{}\n{}",
        tr!("journal-details-where", path = e.path().display()),
        crate::text::escape_controls(&e.reason())
    )
}
