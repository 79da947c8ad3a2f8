//! What can go wrong with a journal, below both stores (SQLite and PostgreSQL): the
//! kind of trouble and the error carrying it (`i18n::journal_error` says them).

use std::path::{Path, PathBuf};

/// What kind of trouble a store met: each is said with what to do (`i18n::journal_trouble`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trouble {
    /// Another program holds the file (locked longer than the wait).
    Busy,
    /// The disk (or the user's quota) is full.
    DiskFull,
    /// The file or its folder cannot be written (permissions, a read-only disk).
    ReadOnly,
    /// The file is damaged or not a journal.
    Corrupt,
    /// The shared journal's server cannot be reached (down, or the network is).
    Unreachable,
    /// The shared journal's server showed a certificate this computer does not trust.
    Untrusted,
    /// The shared journal's server refused the user or password.
    Denied,
    /// The shared journal's server has no database of that name.
    NoDatabase,
    /// The shared journal came back without rows this computer had written there (its
    /// server failed over to a standby that did not have them yet): nothing more is
    /// written on this connection's word; a new run asks the service first.
    Rewound,
    /// The desk's policy wants another clerk's approval of this void or create, and
    /// the server found none that holds (not approved, rejected, expired, or for other
    /// content): nothing was claimed or sent.
    NeedsApproval,
    /// The server did not take an approval's decision (the request is the clerk's own,
    /// expired, already decided, or does not exist).
    ApprovalRefused,
    /// Anything else (the reason says what).
    Other,
}

impl Trouble {
    /// The kind of a SQLite error, from its code (never its text).
    pub fn of(e: &rusqlite::Error) -> Trouble {
        use rusqlite::ErrorCode as C;
        match e.sqlite_error_code() {
            Some(C::DatabaseBusy | C::DatabaseLocked) => Trouble::Busy,
            Some(C::DiskFull) => Trouble::DiskFull,
            Some(C::ReadOnly | C::PermissionDenied) => Trouble::ReadOnly,
            Some(C::DatabaseCorrupt | C::NotADatabase) => Trouble::Corrupt,
            _ => Trouble::Other,
        }
    }
}

/// What went wrong with the journal.
#[derive(Clone, Debug)]
pub enum JournalError {
    /// It could not be opened or prepared.
    Open {
        /// The file.
        path: PathBuf,
        /// The reason.
        why: String,
        /// Its kind.
        trouble: Trouble,
    },
    /// A newer invoice-desk made it; this one does not know its layout.
    TooNew {
        /// The file.
        path: PathBuf,
        /// Its layout version.
        found: i64,
        /// The newest this program knows.
        known: i64,
    },
    /// Writing failed (read-only file, full disk, locked too long).
    Write {
        /// The file.
        path: PathBuf,
        /// The reason.
        why: String,
        /// Its kind.
        trouble: Trouble,
    },
    /// The file is damaged (truncated, overwritten, not a database any more).
    Damaged {
        /// The file.
        path: PathBuf,
        /// What SQLite found.
        why: String,
    },
    /// The desk's shared journal was made before what is asked of it (its layout is
    /// older: contracts need layout 7), and only its owner can bring it up to date.
    OlderLayout {
        /// Its address.
        path: PathBuf,
        /// Its layout version.
        found: i64,
    },
    /// Reading failed.
    Read {
        /// The file.
        path: PathBuf,
        /// The reason.
        why: String,
        /// Its kind.
        trouble: Trouble,
    },
}

crate::engineers_text!(JournalError);

impl std::error::Error for JournalError {}

impl JournalError {
    /// The kind of trouble, for words and decisions (a busy file is waited for).
    pub fn trouble(&self) -> Trouble {
        match self {
            JournalError::Open { trouble, .. }
            | JournalError::Write { trouble, .. }
            | JournalError::Read { trouble, .. } => *trouble,
            JournalError::Damaged { .. } => Trouble::Corrupt,
            JournalError::TooNew { .. } | JournalError::OlderLayout { .. } => Trouble::Other,
        }
    }

    /// The file it is about.
    pub fn path(&self) -> &Path {
        match self {
            JournalError::Open { path, .. }
            | JournalError::Write { path, .. }
            | JournalError::Read { path, .. }
            | JournalError::Damaged { path, .. }
            | JournalError::TooNew { path, .. }
            | JournalError::OlderLayout { path, .. } => path,
        }
    }

    /// The reason as SQLite or the system gave it (an engineer's detail).
    pub fn reason(&self) -> String {
        match self {
            JournalError::Open { why, .. }
            | JournalError::Write { why, .. }
            | JournalError::Read { why, .. }
            | JournalError::Damaged { why, .. } => why.clone(),
            JournalError::TooNew { found, known, .. } => format!("layout {found} > {known}"),
            JournalError::OlderLayout { found, .. } => format!("layout {found} < 7"),
        }
    }

    /// A write error with a reason of our own (not SQLite's).
    pub(super) fn write_said(path: &Path, why: impl Into<String>) -> JournalError {
        JournalError::Write {
            path: path.to_path_buf(),
            why: why.into(),
            trouble: Trouble::Other,
        }
    }
}
