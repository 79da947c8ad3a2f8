//! The journal as CSV (the CLI's `journal export` and the app's Activity panel), and
//! reading it a page at a time.

use super::{Entry, Filter, Journal, JournalError};
use crate::text::guard_text;
use std::path::Path;

/// Calls `each` on every entry matching `f`, oldest first, reading a page at a time (the
/// journal may be large). Stops at `each`'s first error. Returns how many were seen.
pub fn each_entry<E: From<JournalError>>(
    j: &Journal,
    f: &Filter,
    mut each: impl FnMut(&Entry) -> Result<(), E>,
) -> Result<u64, E> {
    const PAGE: u64 = 5000;
    let mut offset = 0;
    loop {
        let page = j.list(f, false, offset, PAGE)?;
        for e in &page {
            each(e)?;
        }
        offset += page.len() as u64;
        if (page.len() as u64) < PAGE {
            return Ok(offset);
        }
    }
}

/// The CSV's columns.
pub const CSV_HEADER: [&str; 21] = [
    "seq",
    "time",
    "user",
    "profile",
    "base_url",
    "action",
    "customer",
    "amount",
    "currency_code",
    "account_last4",
    "external_id",
    "invoice_id",
    "outcome",
    "error_kind",
    "error_code",
    "file_name",
    "rows",
    "settled_time",
    "checked",
    "due_date",
    "decision",
];

/// Writes the entries matching `f` to `target` (a path checked with
/// [`crate::fsutil::check_destination`]) as CSV, RFC 4180, through a temporary file
/// renamed at the end; text cells are guarded against formulas. Returns the rows written.
pub fn export_csv(j: &Journal, f: &Filter, target: &Path) -> std::io::Result<u64> {
    let mut n = 0;
    crate::fsutil::write_user_file(target, |w| {
        let mut csv = csv::Writer::from_writer(w);
        csv.write_record(CSV_HEADER)?;
        n = each_entry(j, f, |e| -> std::io::Result<()> {
            let text = |s: &str| guard_text(s).into_owned();
            let opt = |s: &Option<String>| text(s.as_deref().unwrap_or(""));
            csv.write_record([
                e.seq.to_string(),
                e.time.clone(),
                text(&e.user),
                text(&e.profile),
                text(&e.base_url),
                e.action.as_str().into(),
                opt(&e.customer),
                opt(&e.amount),
                opt(&e.currency_code),
                opt(&e.account_last4),
                opt(&e.external_id),
                opt(&e.invoice_id),
                e.outcome.as_str().into(),
                opt(&e.error_kind),
                opt(&e.error_code),
                opt(&e.file_name),
                e.rows.map(|r| r.to_string()).unwrap_or_default(),
                e.settled_time.clone().unwrap_or_default(),
                e.checked.to_string(),
                opt(&e.due_date),
                opt(&e.decision),
            ])?;
            Ok(())
        })?;
        csv.flush()
    })?;
    Ok(n)
}

impl From<JournalError> for std::io::Error {
    fn from(e: JournalError) -> std::io::Error {
        std::io::Error::other(e.to_string())
    }
}
