//! CSV export of invoices, streamed, exact, safe to open in a spreadsheet.
//!
//! Columns (from the table of known fields, `api::model::KNOWN_FIELDS`): `id, customer,
//! due_date, amount, currency_code, status, is_paid, is_void, invoice_external_id`, then
//! `product_id, link_payment, metadata, service_status` when any row has them, then every
//! other field seen, sorted by name. Nested values are compact JSON.

mod cells;
mod columns;
pub mod report;
mod streamed;
pub mod xlsx;

use crate::api::model::{FIRST_OPTIONAL_COLUMN, KNOWN_FIELDS, Known, value_text};
use crate::api::{Currency, Invoice, Other};
use rust_decimal::Decimal;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::text::guard_text;
pub use cells::amount_cell;
use cells::*;
use columns::*;
pub use columns::{ColumnSet, MAX_EXTRA_COLUMNS, columns, fixed_columns};
pub use streamed::StreamingCsv;

/// A CSV flavour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// RFC 4180: comma, dot decimal, UTF-8 without BOM, CRLF. For other systems.
    #[default]
    Standard,
    /// Excel set to Spanish (Chile): semicolon, comma decimal, UTF-8 with BOM, CRLF.
    ExcelEs,
}

impl Dialect {
    /// The name used on the command line and in settings.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Standard => "standard",
            Dialect::ExcelEs => "excel-es",
        }
    }

    /// Parses `standard` or `excel-es`.
    pub fn from_name(s: &str) -> Option<Dialect> {
        match s.trim() {
            "standard" => Some(Dialect::Standard),
            "excel-es" => Some(Dialect::ExcelEs),
            _ => None,
        }
    }

    fn delimiter(self) -> u8 {
        match self {
            Dialect::Standard => b',',
            Dialect::ExcelEs => b';',
        }
    }

    /// What a file starts with: Excel's byte order mark, or nothing.
    pub fn bom(self) -> &'static str {
        match self {
            Dialect::Standard => "",
            Dialect::ExcelEs => "\u{feff}",
        }
    }
}

/// What a file name asks for: `Some(true)` a workbook (`.xlsx`), `Some(false)` CSV
/// (`.csv`), `None` when its extension says neither.
pub fn workbook_by_name(path: &Path) -> Option<bool> {
    let ext = path.extension()?;
    if ext.eq_ignore_ascii_case("xlsx") {
        Some(true)
    } else if ext.eq_ignore_ascii_case("csv") {
        Some(false)
    } else {
        None
    }
}

/// The CSV writer with the dialect's BOM and the header already written.
fn start_csv<W: Write>(
    mut out: W,
    dialect: Dialect,
    header: &[String],
    with_name: bool,
) -> std::io::Result<csv::Writer<W>> {
    put_bom(&mut out, dialect)?;
    let mut w = csv_writer(out, dialect);
    put_head(&mut w, header, with_name, dialect)?;
    Ok(w)
}

/// Writes the dialect's BOM, if it has one.
fn put_bom<W: Write>(out: &mut W, dialect: Dialect) -> std::io::Result<()> {
    out.write_all(dialect.bom().as_bytes())
}

/// Writes the header record.
fn put_head<W: Write>(
    w: &mut csv::Writer<W>,
    header: &[String],
    with_name: bool,
    dialect: Dialect,
) -> std::io::Result<()> {
    w.write_record(head_cells(header, with_name, dialect))?;
    Ok(())
}

/// The header's cells: the columns, then the customer's name column when asked.
fn head_cells(header: &[String], with_name: bool, dialect: Dialect) -> Vec<String> {
    let name = with_name.then(|| match dialect {
        Dialect::Standard => CUSTOMER_NAME_COLUMN.to_string(),
        Dialect::ExcelEs => crate::i18n::text_in(crate::i18n::Lang::Es, "xl-customer-name"),
    });
    header.iter().cloned().chain(name).collect()
}

/// `Interrupted` when the export was cancelled (looked at every 1024 rows).
fn check_cancel(row: u64, cancel: &AtomicBool) -> std::io::Result<()> {
    if row.is_multiple_of(1024) && cancel.load(Ordering::Relaxed) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "export cancelled",
        ));
    }
    Ok(())
}

/// Writes the rows as CSV to `out`, streaming (two passes over `rows`: the header needs
/// every field name). Stops with `Interrupted` when `cancel` is set. Returns the rows
/// written.
pub fn write<'a, W, I>(
    out: W,
    rows: I,
    dialect: Dialect,
    cancel: &AtomicBool,
) -> std::io::Result<u64>
where
    W: Write,
    I: Iterator<Item = &'a Invoice> + Clone,
{
    write_named(out, rows, dialect, cancel, None)
}

/// The column added at the end when the customer's name is known (from the directory).
pub const CUSTOMER_NAME_COLUMN: &str = "customer_name";

/// [`write`], with the customer's name (when known) in a last column
/// [`CUSTOMER_NAME_COLUMN`] on every row.
pub fn write_named<'a, W, I>(
    out: W,
    rows: I,
    dialect: Dialect,
    cancel: &AtomicBool,
    customer_name: Option<&str>,
) -> std::io::Result<u64>
where
    W: Write,
    I: Iterator<Item = &'a Invoice> + Clone,
{
    let header = columns(rows.clone());
    let sources = column_sources(&header);
    let mut w = start_csv(
        out,
        dialect,
        &titles(&header, dialect),
        customer_name.is_some(),
    )?;
    let name = customer_name.map(|n| guard_text(n).into_owned());
    let mut n = 0u64;
    let mut record: Vec<String> = Vec::with_capacity(header.len());
    for inv in rows {
        check_cancel(n, cancel)?;
        record.clear();
        record.extend(sources.iter().map(|source| {
            let mut cell = String::new();
            push_column_cell(inv, *source, dialect, &mut cell);
            cell
        }));
        record.extend(name.clone());
        w.write_record(&record)?;
        n += 1;
    }
    w.flush()?;
    Ok(n)
}

/// Writes the rows to `path`, a file the user chose and [`crate::fsutil::check_destination`]
/// resolved: through a temporary file renamed at the end (a failed or cancelled export
/// leaves any existing file as it was), keeping an existing file's permissions, creating
/// no folder.
pub fn write_file<'a, I>(
    path: &Path,
    rows: I,
    dialect: Dialect,
    cancel: &AtomicBool,
    customer_name: Option<&str>,
) -> std::io::Result<u64>
where
    I: Iterator<Item = &'a Invoice> + Clone,
{
    let mut n = 0;
    crate::fsutil::write_user_file(path, |w| {
        n = write_named(w, rows, dialect, cancel, customer_name)?;
        Ok(())
    })?;
    Ok(n)
}

/// A CSV writer's settings for `dialect` (the exports', and the statements' summary).
pub fn csv_builder(dialect: Dialect) -> csv::WriterBuilder {
    let mut b = csv::WriterBuilder::new();
    b.delimiter(dialect.delimiter())
        .terminator(csv::Terminator::CRLF)
        .quote_style(csv::QuoteStyle::Necessary);
    b
}

fn csv_writer<W: Write>(out: W, dialect: Dialect) -> csv::Writer<W> {
    csv_builder(dialect).from_writer(out)
}
