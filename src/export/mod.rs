//! CSV export of invoices, streamed, exact, safe to open in a spreadsheet.
//!
//! Columns: `id, customer, due_date, amount, currency_code, status, is_paid, is_void,
//! invoice_external_id`, then `product_id, link_payment, metadata, service_status` when
//! any row has them, then every other field seen, sorted by name. Nested values are
//! compact JSON.

use crate::api::{Currency, Invoice, model::value_text};
use rust_decimal::Decimal;
use std::collections::BTreeSet;
use std::io::Write;
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

/// The fixed columns, always present, in this order.
pub const FIXED_COLUMNS: [&str; 9] = [
    "id",
    "customer",
    "due_date",
    "amount",
    "currency_code",
    "status",
    "is_paid",
    "is_void",
    "invoice_external_id",
];

const OPTIONAL_COLUMNS: [&str; 4] = ["product_id", "link_payment", "metadata", "service_status"];

/// The most distinct extra fields a streamed export accepts: a service that invents a
/// new field name for every invoice cannot make the header (held in memory) grow without
/// end.
pub const MAX_EXTRA_COLUMNS: usize = 1000;

/// The columns a set of rows needs, learnt row by row.
#[derive(Clone, Debug, Default)]
pub struct ColumnSet {
    optional: [bool; 4],
    extra: BTreeSet<String>,
}

impl ColumnSet {
    /// Notes the fields of one row.
    pub fn add(&mut self, r: &Invoice) {
        self.optional[0] |= r.product_id.is_some();
        self.optional[1] |= r.link_payment.is_some();
        self.optional[2] |= r.metadata.is_some();
        self.optional[3] |= r.status_text.is_some();
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
        let mut out: Vec<String> = FIXED_COLUMNS.iter().map(|s| s.to_string()).collect();
        out.extend(
            OPTIONAL_COLUMNS
                .iter()
                .zip(self.optional)
                .filter(|(_, present)| *present)
                .map(|(c, _)| c.to_string()),
        );
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

fn cell(inv: &Invoice, column: &str, dialect: Dialect) -> String {
    let text = |v: &Option<String>| {
        v.as_deref()
            .map(|s| guard_text(s).into_owned())
            .unwrap_or_default()
    };
    let flag = |b: Option<bool>| b.map(|b| b.to_string()).unwrap_or_default();
    match column {
        "id" => guard_text(&inv.id).into_owned(),
        "customer" => text(&inv.customer),
        "due_date" => text(&inv.due_date),
        "amount" => match (inv.amount, &inv.amount_unreadable) {
            (Some(a), _) => amount_cell(a, inv.currency_code.as_deref(), dialect),
            (None, Some(raw)) => unreadable_amount_cell(raw, dialect),
            (None, None) => String::new(),
        },
        "currency_code" => text(&inv.currency_code),
        "status" => inv.status().as_str().to_string(),
        "is_paid" => flag(inv.is_paid),
        "is_void" => flag(inv.is_void),
        "invoice_external_id" => text(&inv.invoice_external_id),
        "product_id" => text(&inv.product_id),
        "link_payment" => text(&inv.link_payment),
        "metadata" => inv
            .metadata
            .as_ref()
            .map(|m| guard_text(&value_text(m)).into_owned())
            .unwrap_or_default(),
        "service_status" => text(&inv.status_text),
        other => inv
            .extra
            .get(other)
            .map(|v| guard_text(&value_text(v)).into_owned())
            .unwrap_or_default(),
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
    let header = columns(rows.clone());
    let mut out = out;
    if dialect == Dialect::ExcelEs {
        out.write_all("\u{feff}".as_bytes())?;
    }
    let mut w = csv_writer(out, dialect);
    w.write_record(&header)?;
    let mut n = 0u64;
    let mut record: Vec<String> = Vec::with_capacity(header.len());
    for inv in rows {
        if n.is_multiple_of(1024) && cancel.load(Ordering::Relaxed) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Interrupted,
                "export cancelled",
            ));
        }
        record.clear();
        record.extend(header.iter().map(|c| cell(inv, c, dialect)));
        w.write_record(&record)?;
        n += 1;
    }
    w.flush()?;
    Ok(n)
}

/// Writes the rows to `path` through a temporary file renamed at the end: a failed or
/// cancelled export leaves any existing file as it was.
pub fn write_file<'a, I>(
    path: &Path,
    rows: I,
    dialect: Dialect,
    cancel: &AtomicBool,
) -> std::io::Result<u64>
where
    I: Iterator<Item = &'a Invoice> + Clone,
{
    let mut n = 0;
    crate::fsutil::write_atomic_with(path, |w| {
        n = write(w, rows, dialect, cancel)?;
        Ok(())
    })?;
    Ok(n)
}

/// The columns whose cells come from an invoice's typed fields, in the order a streamed
/// row stores them (any other column is an extra field).
const TYPED_COLUMNS: [&str; 13] = [
    "id",
    "customer",
    "due_date",
    "amount",
    "currency_code",
    "status",
    "is_paid",
    "is_void",
    "invoice_external_id",
    "product_id",
    "link_payment",
    "metadata",
    "service_status",
];

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
        })
    }

    /// Escapes control characters in every cell: for CSV shown on a terminal.
    pub fn escaping_controls(mut self, yes: bool) -> StreamingCsv {
        self.escape = yes;
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
        for (i, column) in TYPED_COLUMNS.iter().enumerate() {
            let present = match i {
                9 => inv.product_id.is_some(),
                10 => inv.link_payment.is_some(),
                11 => inv.metadata.is_some(),
                12 => inv.status_text.is_some(),
                _ => true,
            };
            if present {
                put_text(w, &cell(inv, column, self.dialect), self.escape)?;
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
        let mut out = out;
        if self.dialect == Dialect::ExcelEs {
            out.write_all("\u{feff}".as_bytes())?;
        }
        let mut w = csv_writer(out, self.dialect);
        w.write_record(&header)?;
        // Where each header column's cell comes from: a typed slot, or an extra field
        // (by its name as stored, escaped like the header when escaping).
        let sources: Vec<Result<usize, &str>> = header
            .iter()
            .map(|c| TYPED_COLUMNS.iter().position(|t| t == c).ok_or(c.as_str()))
            .collect();
        let mut typed: Vec<Option<String>> = vec![None; TYPED_COLUMNS.len()];
        let mut extra: Vec<(String, String)> = Vec::new();
        let mut buf = Vec::new();
        for n in 0..self.rows {
            if n.is_multiple_of(1024) && cancel.load(Ordering::Relaxed) {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::Interrupted,
                    "export cancelled",
                ));
            }
            for slot in typed.iter_mut() {
                *slot = get_text(&mut input, &mut buf)?;
            }
            let mut count = [0u8; 4];
            input.read_exact(&mut count)?;
            extra.clear();
            for _ in 0..u32::from_le_bytes(count) {
                let k = get_text(&mut input, &mut buf)?.unwrap_or_default();
                let v = get_text(&mut input, &mut buf)?.unwrap_or_default();
                extra.push((k, v));
            }
            w.write_record(sources.iter().map(|source| {
                match source {
                    Ok(i) => typed[*i].as_deref().unwrap_or(""),
                    Err(name) => extra
                        .iter()
                        .find(|(k, _)| k == name)
                        .map_or("", |(_, v)| v.as_str()),
                }
            }))?;
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

fn get_text(r: &mut impl std::io::Read, buf: &mut Vec<u8>) -> std::io::Result<Option<String>> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_le_bytes(len);
    if len == u32::MAX {
        return Ok(None);
    }
    buf.resize(len as usize, 0);
    r.read_exact(buf)?;
    String::from_utf8(std::mem::take(buf))
        .map(Some)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}
