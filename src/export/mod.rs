//! CSV export of invoices, streamed, exact, safe to open in a spreadsheet.
//!
//! Columns (from the table of known fields, `api::model::KNOWN_FIELDS`): `id, customer,
//! due_date, amount, currency_code, status, is_paid, is_void, invoice_external_id`, then
//! `product_id, link_payment, metadata, service_status` when any row has them, then every
//! other field seen, sorted by name. Nested values are compact JSON.

pub mod xlsx;

use crate::api::model::{FIRST_OPTIONAL_COLUMN, KNOWN_FIELDS, Known, value_text};
use crate::api::{Currency, Invoice};
use rust_decimal::Decimal;
use std::collections::BTreeSet;
use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

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
}

/// Where a column's cells come from: a known field (its index in
/// [`KNOWN_FIELDS`]), or the status derived from several of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Known(usize),
    Status,
}

/// The column of the derived status, and its position.
const STATUS_COLUMN: (&str, u8) = ("status", 5);

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

/// The columns that come from known fields and the derived status, in CSV order (from
/// the table of known fields: positions 0–8 always written, 9 on when any row has them).
fn typed_columns() -> &'static [(&'static str, u8, Source)] {
    static COLUMNS: std::sync::OnceLock<Vec<(&'static str, u8, Source)>> =
        std::sync::OnceLock::new();
    COLUMNS.get_or_init(|| {
        let mut v: Vec<_> = KNOWN_FIELDS
            .iter()
            .enumerate()
            .filter_map(|(i, f)| f.csv.map(|(name, pos)| (name, pos, Source::Known(i))))
            .collect();
        v.push((STATUS_COLUMN.0, STATUS_COLUMN.1, Source::Status));
        v.sort_by_key(|c| c.1);
        v
    })
}

/// The fixed columns, always present, in this order.
pub fn fixed_columns() -> Vec<&'static str> {
    typed_columns()
        .iter()
        .filter(|c| c.1 < FIRST_OPTIONAL_COLUMN)
        .map(|c| c.0)
        .collect()
}

/// The most distinct extra fields a streamed export accepts: a service that invents a
/// new field name for every invoice cannot make the header (held in memory) grow without
/// end.
pub const MAX_EXTRA_COLUMNS: usize = 1000;

/// The columns a set of rows needs, learnt row by row.
#[derive(Clone, Debug, Default)]
pub struct ColumnSet {
    /// Positions of the optional columns some row has.
    optional: BTreeSet<u8>,
    extra: BTreeSet<String>,
}

impl ColumnSet {
    /// Notes the fields of one row.
    pub fn add(&mut self, r: &Invoice) {
        for (_, pos, source) in typed_columns() {
            if *pos >= FIRST_OPTIONAL_COLUMN
                && let Source::Known(i) = source
                && !self.optional.contains(pos)
                && r.known(*i).is_some()
            {
                self.optional.insert(*pos);
            }
        }
        for k in r.extra.keys() {
            if !self.extra.contains(k.as_str()) {
                self.extra.insert(k.clone());
            }
        }
    }

    /// How many distinct extra fields were seen.
    pub fn extra_count(&self) -> usize {
        self.extra.len()
    }

    /// The header: fixed columns, known optional ones present, then the rest, sorted.
    pub fn columns(&self) -> Vec<String> {
        let mut out: Vec<String> = typed_columns()
            .iter()
            .filter(|(_, pos, _)| *pos < FIRST_OPTIONAL_COLUMN || self.optional.contains(pos))
            .map(|(name, _, _)| name.to_string())
            .collect();
        let extra: Vec<String> = self
            .extra
            .iter()
            .filter(|k| !out.iter().any(|c| c == *k))
            .cloned()
            .collect();
        out.extend(extra);
        out
    }
}

/// The header for these rows: fixed columns, known optional ones present, then the rest.
pub fn columns<'a>(rows: impl Iterator<Item = &'a Invoice>) -> Vec<String> {
    let mut set = ColumnSet::default();
    for r in rows {
        set.add(r);
    }
    set.columns()
}

/// Neutralises a text cell that a spreadsheet would run as a formula (CWE-1236).
pub fn guard_text(s: &str) -> std::borrow::Cow<'_, str> {
    match s.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => std::borrow::Cow::Owned(format!("'{s}")),
        _ => std::borrow::Cow::Borrowed(s),
    }
}

/// An amount cell: exact digits, at least the currency's decimals, the dialect's decimal
/// separator, no thousands separator (so it stays a number).
pub fn amount_cell(amount: Decimal, currency: Option<&str>, dialect: Dialect) -> String {
    let minor = currency
        .and_then(Currency::from_code)
        .map_or(0, Currency::minor_units);
    let mut d = amount.normalize();
    if d.scale() < minor {
        d.rescale(minor);
    }
    let text = d.to_string();
    match dialect {
        Dialect::Standard => text,
        Dialect::ExcelEs => text.replace('.', ","),
    }
}

/// An amount the service sent that is not a usable number: as sent, but a plain number
/// (too large for exact arithmetic, say) takes the dialect's decimal separator too.
fn unreadable_amount_cell(raw: &str, dialect: Dialect) -> String {
    let numeric = !raw.is_empty()
        && raw
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    if dialect == Dialect::ExcelEs && numeric {
        guard_text(&raw.replace('.', ",")).into_owned()
    } else {
        guard_text(raw).into_owned()
    }
}

/// Where each header column's cells come from: a typed column (its index in
/// [`typed_columns`]), or an extra field by name. Resolved once per export, not per cell.
fn column_sources(header: &[String]) -> Vec<Result<usize, &str>> {
    header
        .iter()
        .map(|c| {
            typed_columns()
                .iter()
                .position(|t| t.0 == c)
                .ok_or(c.as_str())
        })
        .collect()
}

/// The CSV writer with the dialect's BOM and the header already written.
fn start_csv<W: Write>(
    mut out: W,
    dialect: Dialect,
    header: &[String],
    with_name: bool,
) -> std::io::Result<csv::Writer<W>> {
    if dialect == Dialect::ExcelEs {
        out.write_all("\u{feff}".as_bytes())?;
    }
    let mut w = csv_writer(out, dialect);
    let name = with_name.then_some(CUSTOMER_NAME_COLUMN);
    w.write_record(header.iter().map(String::as_str).chain(name))?;
    Ok(w)
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

/// The cell of a column that comes from the known fields.
fn typed_cell(inv: &Invoice, source: Source, dialect: Dialect) -> String {
    let mut cell = String::new();
    push_typed_cell(inv, source, dialect, &mut cell);
    cell
}

/// [`typed_cell`], appended to `out` (no allocation for the common cells).
fn push_typed_cell(inv: &Invoice, source: Source, dialect: Dialect, out: &mut String) {
    let i = match source {
        Source::Status => return out.push_str(inv.status().as_str()),
        Source::Known(i) => i,
    };
    match inv.known(i) {
        None => {}
        Some(Known::Text(s)) => out.push_str(&guard_text(s)),
        Some(Known::Flag(b)) => out.push_str(if b { "true" } else { "false" }),
        Some(Known::Amount(a)) => {
            out.push_str(&amount_cell(a, inv.currency_code.as_deref(), dialect))
        }
        Some(Known::Unreadable(raw)) => out.push_str(&unreadable_amount_cell(raw, dialect)),
        Some(Known::Json(v)) => out.push_str(&guard_text(&value_text(v))),
    }
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
    let mut w = start_csv(out, dialect, &header, customer_name.is_some())?;
    let name = customer_name.map(|n| guard_text(n).into_owned());
    let mut n = 0u64;
    let mut record: Vec<String> = Vec::with_capacity(header.len());
    for inv in rows {
        check_cancel(n, cancel)?;
        record.clear();
        record.extend(sources.iter().map(|source| {
            match source {
                Ok(i) => typed_cell(inv, typed_columns()[*i].2, dialect),
                Err(name) => inv
                    .extra
                    .get(*name)
                    .map(|v| guard_text(&value_text(v)).into_owned())
                    .unwrap_or_default(),
            }
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

/// A CSV export that does not hold the rows: each row's cells go to an unnamed
/// temporary file as they arrive, and [`StreamingCsv::finish`] writes the header (which
/// needs every field name) and then the rows from that file. Memory stays the same
/// whatever the number of rows; the output is byte for byte what [`write`] gives.
pub struct StreamingCsv {
    dialect: Dialect,
    escape: bool,
    columns: ColumnSet,
    spool: std::io::BufWriter<std::fs::File>,
    rows: u64,
    /// One cell's text, reused from cell to cell.
    cell: String,
    /// The customer's name, for a last column (when known).
    customer_name: Option<String>,
}

impl StreamingCsv {
    /// A new export in this dialect.
    pub fn new(dialect: Dialect) -> std::io::Result<StreamingCsv> {
        Ok(StreamingCsv {
            dialect,
            escape: false,
            columns: ColumnSet::default(),
            spool: std::io::BufWriter::with_capacity(256 * 1024, tempfile::tempfile()?),
            rows: 0,
            cell: String::new(),
            customer_name: None,
        })
    }

    /// Escapes control characters in every cell: for CSV shown on a terminal.
    pub fn escaping_controls(mut self, yes: bool) -> StreamingCsv {
        self.escape = yes;
        self
    }

    /// Adds a last column with the customer's name (when known).
    pub fn with_customer_name(mut self, name: Option<String>) -> StreamingCsv {
        self.customer_name = name.map(|n| guard_text(&n).into_owned());
        self
    }

    /// Rows taken so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Takes one row. Fails when the rows have more than [`MAX_EXTRA_COLUMNS`] distinct
    /// extra fields.
    pub fn push(&mut self, inv: &Invoice) -> std::io::Result<()> {
        self.columns.add(inv);
        if self.columns.extra_count() > MAX_EXTRA_COLUMNS {
            return Err(std::io::Error::other(format!(
                "the invoices have more than {MAX_EXTRA_COLUMNS} different fields"
            )));
        }
        let w = &mut self.spool;
        for (_, pos, source) in typed_columns() {
            let present = match source {
                Source::Known(i) => *pos < FIRST_OPTIONAL_COLUMN || inv.known(*i).is_some(),
                Source::Status => true,
            };
            if present {
                self.cell.clear();
                push_typed_cell(inv, *source, self.dialect, &mut self.cell);
                put_text(w, &self.cell, self.escape)?;
            } else {
                w.write_all(&u32::MAX.to_le_bytes())?;
            }
        }
        w.write_all(&(inv.extra.len() as u32).to_le_bytes())?;
        for (k, v) in &inv.extra {
            put_text(w, k, self.escape)?;
            put_text(w, &guard_text(&value_text(v)), self.escape)?;
        }
        self.rows += 1;
        Ok(())
    }

    /// Writes the whole CSV to `out`. Returns the rows written.
    pub fn finish<W: Write>(self, out: W, cancel: &AtomicBool) -> std::io::Result<u64> {
        use std::io::{Read, Seek};
        let mut header = self.columns.columns();
        if self.escape {
            for h in header.iter_mut() {
                *h = crate::text::escape_controls(h).into_owned();
            }
        }
        let mut file = self.spool.into_inner().map_err(|e| e.into_error())?;
        file.seek(std::io::SeekFrom::Start(0))?;
        let mut input = std::io::BufReader::with_capacity(256 * 1024, file);
        let mut w = start_csv(out, self.dialect, &header, self.customer_name.is_some())?;
        let name = self.customer_name.as_deref().map(str::as_bytes);
        // Extra fields are found by their name as stored (escaped like the header).
        let sources = column_sources(&header);
        // One row's cells are read into one buffer and named by their place in it: no
        // allocation per cell. The texts were whole UTF-8 strings when spooled.
        let mut row = Vec::new();
        let mut typed: Vec<Option<Range<usize>>> = vec![None; typed_columns().len()];
        let mut extra: Vec<(Range<usize>, Range<usize>)> = Vec::new();
        for n in 0..self.rows {
            check_cancel(n, cancel)?;
            row.clear();
            for slot in typed.iter_mut() {
                *slot = get_text(&mut input, &mut row)?;
            }
            let mut count = [0u8; 4];
            input.read_exact(&mut count)?;
            extra.clear();
            for _ in 0..u32::from_le_bytes(count) {
                let k = get_text(&mut input, &mut row)?.unwrap_or_default();
                let v = get_text(&mut input, &mut row)?.unwrap_or_default();
                extra.push((k, v));
            }
            let row = &row;
            let cells = sources.iter().map(|source| match source {
                Ok(i) => typed[*i].clone().map_or(&b""[..], |r| &row[r]),
                Err(name) => extra
                    .iter()
                    .find(|(k, _)| &row[k.clone()] == name.as_bytes())
                    .map_or(&b""[..], |(_, v)| &row[v.clone()]),
            });
            w.write_record(cells.chain(name))?;
        }
        w.flush()?;
        Ok(self.rows)
    }
}

fn csv_writer<W: Write>(out: W, dialect: Dialect) -> csv::Writer<W> {
    csv::WriterBuilder::new()
        .delimiter(dialect.delimiter())
        .terminator(csv::Terminator::CRLF)
        .quote_style(csv::QuoteStyle::Necessary)
        .from_writer(out)
}

fn put_text(w: &mut impl Write, s: &str, escape: bool) -> std::io::Result<()> {
    let s = if escape {
        crate::text::escape_controls(s)
    } else {
        std::borrow::Cow::Borrowed(s)
    };
    let len = u32::try_from(s.len()).map_err(|_| std::io::Error::other("cell too large"))?;
    w.write_all(&len.to_le_bytes())?;
    w.write_all(s.as_bytes())
}

/// Reads one spooled text onto the end of `row`; where it is there (`None`: absent).
fn get_text(
    r: &mut impl std::io::Read,
    row: &mut Vec<u8>,
) -> std::io::Result<Option<Range<usize>>> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_le_bytes(len);
    if len == u32::MAX {
        return Ok(None);
    }
    let start = row.len();
    row.resize(start + len as usize, 0);
    r.read_exact(&mut row[start..])?;
    Ok(Some(start..row.len()))
}
