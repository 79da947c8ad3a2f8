//! Billing runs and spreadsheets: a row's problem, its outcome, a file that cannot be
//! read, a look-alike, the directory's import.

use super::*;
use crate::tr;

/// A problem with a customer directory file, in the clerk's language.
pub fn import_problem(p: &crate::journal::ImportError) -> String {
    use crate::journal::ImportWhy;
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    let cell = |what: String| {
        tr!(
            "dir-problem-cell",
            row = p.row,
            column = esc(&p.column),
            what = what
        )
    };
    match &p.why {
        ImportWhy::NoIdColumn => tr!("dir-no-id-column"),
        ImportWhy::Unreadable(e) => tr!("dir-unreadable-why", why = sheet_error(e)),
        ImportWhy::NoId => cell(tr!("dir-no-id")),
        ImportWhy::BadRut(r) => cell(tr!("dir-bad-rut", rut = esc(r))),
        ImportWhy::WrongCheckDigit(r, d) => {
            cell(tr!("dir-check-digit", rut = esc(r), digit = d.to_string()))
        }
        ImportWhy::Duplicate(id) => cell(tr!("dir-duplicate", id = esc(id))),
        ImportWhy::BadEmail(e) => cell(tr!("dir-bad-email", email = esc(e))),
        ImportWhy::NameNotOneLine(n) => cell(tr!("dir-name-not-one-line", name = esc(n))),
        ImportWhy::NameTooLong(n) => cell(tr!(
            "dir-name-too-long",
            count = *n,
            max = crate::journal::MAX_NAME
        )),
    }
}

/// Why a spreadsheet was not read, in the clerk's language (the limit named).
pub fn sheet_error(e: &crate::sheet::SheetError) -> String {
    use crate::sheet::SheetError;
    // Grouped by the message (each language its own separator).
    let thousands = |n: usize| n;
    match e {
        SheetError::Unreadable(_) => tr!("sheet-unreadable"),
        SheetError::NotAFile => tr!("sheet-not-a-file"),
        SheetError::TooLarge(l) => tr!("sheet-too-large", mb = l / (1024 * 1024)),
        SheetError::TooManyRows(l) => tr!("sheet-too-many-rows", limit = thousands(l - 1)),
        SheetError::TooManyColumns { row, limit } => {
            tr!("sheet-too-many-columns", row = row, limit = limit)
        }
        SheetError::TooManyCells(l) => tr!("sheet-too-many-cells", limit = thousands(*l)),
        SheetError::CellTooLong { row: 0, limit, .. } => {
            tr!("sheet-text-too-long", limit = thousands(*limit))
        }
        SheetError::CellTooLong { row, column, limit } => tr!(
            "sheet-cell-too-long",
            row = row,
            column = column,
            limit = thousands(*limit)
        ),
        SheetError::UnclosedQuote(row) => tr!("sheet-unclosed-quote", row = row),
        SheetError::Uncompressed(l) => tr!("sheet-uncompressed", mb = l / (1024 * 1024)),
        SheetError::TooManyParts(l) => tr!("sheet-too-many-parts", limit = thousands(*l)),
        SheetError::NotAWorkbook(_) => tr!("sheet-not-a-workbook"),
        SheetError::NoSuchSheet(s) => tr!(
            "sheet-no-such-sheet",
            name = crate::text::escape_controls(s)
        ),
        SheetError::NoSheet => tr!("sheet-no-sheet"),
        SheetError::SheetOfCsv => tr!("sheet-of-csv"),
    }
}

/// A billing-run field's name in the clerk's language.
pub fn bulk_field(f: crate::bulk::Field) -> String {
    use crate::bulk::Field;
    match f {
        Field::Customer => tr!("bulk-field-customer"),
        Field::Amount => tr!("bulk-field-amount"),
        Field::Currency => tr!("bulk-field-currency"),
        Field::Due => tr!("bulk-field-due"),
        Field::Product => tr!("bulk-field-product"),
        Field::Reference => tr!("bulk-field-reference"),
        Field::Account => tr!("bulk-field-account"),
        Field::Metadata => tr!("bulk-field-metadata"),
    }
}

/// Why a billing-run row (or the header) cannot be sent, in the clerk's language.
pub fn bulk_why(w: &crate::bulk::Why) -> String {
    use crate::bulk::Why;
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    match w {
        Why::UnknownColumns(c) => {
            let c: Vec<String> = c.iter().map(|c| esc(c)).collect();
            tr!("bulk-why-unknown-columns", columns = c.join(", "))
        }
        Why::NoCustomerColumn => tr!("bulk-why-no-customer-column"),
        Why::NoAmountColumn => tr!("bulk-why-no-amount-column"),
        Why::TwiceMapped(f) => tr!("bulk-why-twice", field = bulk_field(*f)),
        Why::CustomerEmpty => tr!("bulk-why-customer-empty"),
        Why::CustomerNotFound(t) => tr!("bulk-why-customer-not-found", text = esc(t)),
        Why::DirectoryEmpty(t) => tr!("bulk-why-directory-empty", text = esc(t)),
        Why::CustomerAmbiguous(t, n) => {
            tr!("bulk-why-customer-ambiguous", text = esc(t), count = n)
        }
        Why::DirectoryUnreadable(_) => tr!("bulk-why-directory"),
        Why::AmountEmpty => tr!("bulk-why-amount-empty"),
        Why::Amount(e) => amount_error(e),
        Why::Currency { text, offered } => tr!(
            "bulk-why-currency",
            text = esc(text),
            offered = offered.join(", ")
        ),
        Why::Date(e) => date_error(e),
        Why::DuplicateReference {
            reference,
            first_row,
        } => tr!(
            "bulk-why-duplicate",
            reference = esc(reference),
            row = first_row
        ),
        Why::Invoice(e) => error_text(e),
    }
}

/// A billing-run problem as the status column says it: the column, then why.
pub fn bulk_problem(p: &crate::bulk::RowError) -> String {
    if p.column.is_empty() {
        bulk_why(&p.why)
    } else {
        tr!(
            "bulk-problem-cell",
            column = crate::text::escape_controls(&p.column),
            what = bulk_why(&p.why)
        )
    }
}

/// What became of a billing-run row: its status word and, when it was not issued,
/// why, in the clerk's language.
pub fn bulk_status(s: &crate::bulk::run::Status) -> (String, Option<String>) {
    use crate::bulk::run::{Held, Status, Unsure};
    match s {
        Status::Created(_) => (tr!("bulk-st-created"), None),
        Status::SkippedExisting(e) => (
            match &e.by {
                _ if e.at_service => tr!("bulk-st-existing-service"),
                Some(by) => tr!("bulk-st-existing-by", who = super::journal::writer_by(by)),
                None => tr!("bulk-st-existing"),
            },
            e.confirmed_by
                .as_ref()
                .map(|who| tr!("bulk-confirmed-by", who = super::journal::writer_by(who))),
        ),
        Status::Refused(e) => (tr!("bulk-st-refused"), Some(error_text(e))),
        Status::Unknown(u) => (
            tr!("bulk-st-unknown"),
            Some(match u {
                Unsure::Sent(_) => tr!("bulk-unsure-sent"),
                Unsure::Earlier => tr!("bulk-unsure-earlier"),
                Unsure::Waiting(until) => tr!("bulk-unsure-waiting", time = clock(*until)),
                Unsure::NotRecorded(..) => tr!("bulk-unsure-not-recorded"),
                Unsure::Elsewhere(e) => {
                    tr!("bulk-unsure-elsewhere", who = super::journal::writer(e))
                }
            }),
        ),
        Status::PossibleDuplicate(e) => (
            tr!("bulk-st-similar"),
            Some(looks_like(
                e.id.as_deref(),
                e.time.as_deref(),
                e.at_service,
                e.due,
            )),
        ),
        Status::NotSent(h) => (
            tr!("bulk-st-not-sent"),
            match h {
                Held::Cancelled => None,
                Held::Journal(e) => Some(journal_not_sent(e)),
                Held::RateLimited => Some(tr!("bulk-rate-limited")),
                Held::WaitTooLong(d) => Some(tr!(
                    "bulk-wait-too-long",
                    minutes = d.as_secs().div_ceil(60)
                )),
                Held::Unchecked(e) => Some(tr!("bulk-unchecked", why = error_text(e))),
                Held::Elsewhere(f) => Some(tr!(
                    "bulk-issued-elsewhere",
                    invoice = crate::text::escape_controls(&f.invoice).into_owned(),
                    reference = crate::text::escape_controls(&f.reference).into_owned()
                )),
            },
        ),
        Status::SkippedInvalid => (tr!("bulk-st-invalid"), None),
    }
}

/// "Parece repetida: in_… emitida el 24-11-2026" (found in the journal or the service).
pub fn looks_like(id: Option<&str>, time: Option<&str>, at_service: bool, due: bool) -> String {
    let id = crate::text::escape_controls(id.unwrap_or("?")).into_owned();
    let when = time.map(day).unwrap_or_default();
    let alike = if due {
        tr!("looks-like-due")
    } else {
        tr!("looks-like-same-day")
    };
    if at_service {
        tr!("looks-like-service", id = id, date = when, alike = alike)
    } else {
        tr!("looks-like", id = id, date = when, alike = alike)
    }
}

/// What a run waits for while requests may still be on their way: whose computer (a
/// colleague's that stopped answering, named), how many rows and for how long at most.
/// No time left for the run is said beside it: it cannot be known while it waits.
pub fn in_flight_wait(w: &crate::bulk::run::InFlightWait, now: std::time::Instant) -> String {
    let secs = w.until.saturating_duration_since(now).as_secs();
    if w.holders.is_empty() {
        return tr!("bulk-waiting-in-flight", rows = w.rows, secs = secs);
    }
    let who: Vec<String> = w.holders.iter().map(super::journal::writer_by).collect();
    tr!(
        "bulk-waiting-for",
        who = who.join(", "),
        count = w.holders.len(),
        rows = w.rows,
        secs = secs
    )
}

/// What a run came to: "Terminado: 3 emitidas, 1 ya emitidas antes, …".
pub fn run_finished(counts: &crate::bulk::run::Counts) -> String {
    tr!(
        "bulk-finished",
        created = counts.created,
        existing = counts.existing,
        refused = counts.refused,
        unknown = counts.unknown,
        similar = counts.similar,
        notsent = counts.not_sent
    )
}
