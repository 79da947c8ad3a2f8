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

/// The header for these rows: fixed columns, known optional ones present, then the rest.
pub fn columns<'a>(rows: impl Iterator<Item = &'a Invoice>) -> Vec<String> {
    let mut optional = [false; 4];
    let mut extra: BTreeSet<&'a str> = BTreeSet::new();
    for r in rows {
        optional[0] |= r.product_id.is_some();
        optional[1] |= r.link_payment.is_some();
        optional[2] |= r.metadata.is_some();
        optional[3] |= r.status_text.is_some();
        extra.extend(r.extra.keys().map(String::as_str));
    }
    let mut out: Vec<String> = FIXED_COLUMNS.iter().map(|s| s.to_string()).collect();
    out.extend(
        OPTIONAL_COLUMNS
            .iter()
            .zip(optional)
            .filter(|(_, present)| *present)
            .map(|(c, _)| c.to_string()),
    );
    out.extend(
        extra
            .into_iter()
            .filter(|k| !out.iter().any(|c| c == k))
            .map(str::to_string)
            .collect::<Vec<_>>(),
    );
    out
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
            (None, Some(raw)) => guard_text(raw).into_owned(),
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
    let mut w = csv::WriterBuilder::new()
        .delimiter(dialect.delimiter())
        .terminator(csv::Terminator::CRLF)
        .quote_style(csv::QuoteStyle::Necessary)
        .from_writer(out);
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
