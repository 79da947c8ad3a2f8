//! A customer's invoices as an Excel workbook: a sheet of typed cells (amounts as
//! numbers in the currency's format, dates as dates, flags as booleans, the status and
//! days overdue) and a summary sheet (aging and monthly totals). Texts come from the
//! Fluent files in the language in use (the CLI's is English).
//!
//! Excel keeps numbers as doubles and shows 15 significant digits: an amount with more
//! is written as text, exactly, in a marked cell, and counted in [`Written::as_text`].

use super::{Source, column_sources, guard_text, typed_columns};
use crate::api::model::{KNOWN_FIELDS, Known, value_text};
use crate::api::{Currency, Invoice};
use crate::receivables::aging::{Aging, Bucket, Monthly, Standing, StatusKind, Total, due_day};
use crate::tr_in;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use rust_xlsxwriter::{Color, ExcelDateTime, Format, FormatAlign, Workbook, Worksheet, XlsxError};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// What the workbook is about.
#[derive(Clone, Debug)]
pub struct About<'a> {
    /// The customer's id.
    pub customer: &'a str,
    /// Its name, when the directory knows it (a last column, and the summary).
    pub customer_name: Option<&'a str>,
    /// The day overdue days and aging are counted on.
    pub today: NaiveDate,
    /// The language the workbook is written in (the app's, or the CLI user's).
    pub lang: crate::i18n::Lang,
}

/// What was written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Invoices (rows of the invoices sheet).
    pub rows: u64,
    /// Amounts written as text because a double cannot hold them exactly.
    pub as_text: u64,
    /// Texts longer than a cell holds (32,767 characters), written cut and marked.
    pub cut: u64,
}

/// The fill of a marked cell (cut text, or an amount kept as text).
pub(crate) const MARKED: u32 = 0xFFF2CC;

/// The longest text a cell holds, in UTF-16 units (Excel's limit).
const MAX_CELL_TEXT: usize = 32_767;

/// A text as a cell can hold it: whole, or cut to Excel's limit with "…" at the end
/// (true when cut).
pub(crate) fn fit(s: &str) -> (std::borrow::Cow<'_, str>, bool) {
    // A byte count within the limit is within it in UTF-16 units too.
    if s.len() <= MAX_CELL_TEXT {
        return (std::borrow::Cow::Borrowed(s), false);
    }
    let (mut units, mut end) = (0, 0);
    for (i, c) in s.char_indices() {
        if units + c.len_utf16() > MAX_CELL_TEXT - 1 {
            break;
        }
        units += c.len_utf16();
        end = i + c.len_utf8();
    }
    if end == s.len() {
        return (std::borrow::Cow::Borrowed(s), false);
    }
    (std::borrow::Cow::Owned(format!("{}…", &s[..end])), true)
}

/// Writes a text from the service (guarded against formulas), cut to what a cell holds;
/// a cut cell is marked and counted in `cut`.
fn put_text(
    ws: &mut Worksheet,
    f: &Formats,
    (r, c): (u32, u16),
    text: &str,
    cut: &mut u64,
) -> Result<(), XlsxError> {
    let guarded = guard_text(text);
    let (t, was_cut) = fit(&guarded);
    if was_cut {
        *cut += 1;
        ws.write_string_with_format(r, c, t, &f.as_text)?;
    } else {
        ws.write_string(r, c, t)?;
    }
    Ok(())
}

/// The most invoices a sheet holds (Excel's last row, less the header).
pub const MAX_ROWS: usize = 1_048_575;

/// Most significant digits Excel keeps exactly.
const EXCEL_DIGITS: u32 = 15;

/// The amount as a double when that double shows back as exactly the same decimal in
/// Excel (at most 15 significant digits); `None` otherwise.
pub fn exact_double(a: Decimal) -> Option<f64> {
    let n = a.normalize();
    let digits = n
        .mantissa()
        .unsigned_abs()
        .checked_ilog10()
        .map_or(1, |d| d + 1);
    if digits > EXCEL_DIGITS {
        return None;
    }
    // The nearest double to a decimal of at most 15 digits reads back as that decimal.
    n.to_string().parse::<f64>().ok()
}

/// The Excel number format of a currency: `$#,##0` (CLP), `"UF "#,##0.0000` (CLF), the
/// prefix and the minor units for the others; `None` for a code we do not know.
pub fn currency_format(code: Option<&str>) -> Option<String> {
    let c = Currency::from_code(code?)?;
    let decimals = c.minor_units() as usize;
    let number = if decimals == 0 {
        "#,##0".to_string()
    } else {
        format!("#,##0.{}", "0".repeat(decimals))
    };
    Some(match c.prefix() {
        "$" => format!("${number}"),
        p => format!("\"{}\"{number}", p.replace('"', "")),
    })
}

fn err(e: XlsxError) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

/// One column of the invoices sheet.
#[derive(Clone, Debug)]
enum Col<'h> {
    Typed(Source),
    DaysOverdue,
    Extra(&'h str),
    CustomerName,
}

/// The formats, made once.
struct Formats {
    bold: Format,
    header: Format,
    date: Format,
    /// A moment (the service's `created_at`), in this computer's time zone.
    moment: Format,
    month: Format,
    as_text: Format,
    by_currency: BTreeMap<String, Format>,
    plain_number: Format,
    /// The workbook's language (its words and date format).
    lang: crate::i18n::Lang,
}

impl Formats {
    fn new(lang: crate::i18n::Lang) -> Formats {
        let (date, moment) = match lang {
            crate::i18n::Lang::Es => ("dd-mm-yyyy", "dd-mm-yyyy hh:mm"),
            crate::i18n::Lang::En => ("yyyy-mm-dd", "yyyy-mm-dd hh:mm"),
        };
        Formats {
            lang,
            bold: Format::new().set_bold(),
            header: Format::new()
                .set_bold()
                .set_background_color(Color::RGB(0xDDE4EE)),
            date: Format::new()
                .set_num_format(date)
                .set_align(FormatAlign::Left),
            moment: Format::new()
                .set_num_format(moment)
                .set_align(FormatAlign::Left),
            month: Format::new()
                .set_num_format("mm-yyyy")
                .set_align(FormatAlign::Left),
            // A marked cell: an exact amount Excel could not hold as a number.
            as_text: Format::new()
                .set_background_color(Color::RGB(MARKED))
                .set_align(FormatAlign::Right),
            by_currency: BTreeMap::new(),
            plain_number: Format::new().set_num_format("#,##0.##########"),
        }
    }

    fn amount(&mut self, code: Option<&str>) -> &Format {
        let key = code.unwrap_or("");
        if !self.by_currency.contains_key(key) {
            let f = match currency_format(code) {
                Some(f) => Format::new().set_num_format(f),
                None => self.plain_number.clone(),
            };
            self.by_currency.insert(key.to_string(), f);
        }
        &self.by_currency[key]
    }
}

/// Writes an amount: a number in the currency's format, or exact text in a marked
/// cell. Returns true when it went as text.
fn put_amount(
    ws: &mut Worksheet,
    f: &mut Formats,
    (r, c): (u32, u16),
    a: Decimal,
    code: Option<&str>,
) -> Result<bool, XlsxError> {
    match exact_double(a) {
        Some(x) => {
            ws.write_number_with_format(r, c, x, f.amount(code))?;
            Ok(false)
        }
        None => {
            let text = super::amount_cell(a, code, super::Dialect::Standard);
            ws.write_string_with_format(r, c, text, &f.as_text)?;
            Ok(true)
        }
    }
}

fn put_total(
    ws: &mut Worksheet,
    f: &mut Formats,
    at: (u32, u16),
    t: Total,
    code: &str,
) -> Result<bool, XlsxError> {
    match t.value() {
        Some(v) => put_amount(ws, f, at, v, Some(code)),
        None => {
            let words = tr_in!(f.lang, "xl-too-large");
            ws.write_string_with_format(at.0, at.1, words, &f.as_text)?;
            Ok(true)
        }
    }
}

/// A field the table does not know, as sent: a boolean as one; `created_at` as a date
/// and time of this computer's (the service sends UTC); anything else as text.
fn put_extra(
    ws: &mut Worksheet,
    f: &Formats,
    at: (u32, u16),
    name: &str,
    v: Option<&serde_json::Value>,
    cut: &mut u64,
) -> Result<(), XlsxError> {
    match v {
        Some(serde_json::Value::Bool(b)) => {
            ws.write_boolean(at.0, at.1, *b)?;
        }
        Some(serde_json::Value::Null) | None => {}
        Some(v) => match v
            .as_str()
            .filter(|_| name == "created_at")
            .and_then(excel_moment)
        {
            Some(dt) => {
                ws.write_datetime_with_format(at.0, at.1, &dt, &f.moment)?;
            }
            None => put_text(ws, f, at, &value_text(v), cut)?,
        },
    }
    Ok(())
}

/// An RFC 3339 moment as an Excel date and time in this computer's time zone, when it
/// is one Excel can hold (1900 to 9999).
fn excel_moment(t: &str) -> Option<ExcelDateTime> {
    use chrono::{Datelike, Timelike};
    let local = chrono::DateTime::parse_from_rfc3339(t)
        .ok()?
        .with_timezone(&chrono::Local)
        .naive_local();
    let year = u16::try_from(local.year())
        .ok()
        .filter(|y| (1900..=9999).contains(y))?;
    ExcelDateTime::from_ymd(year, local.month() as u8, local.day() as u8)
        .and_then(|d| d.and_hms(local.hour() as u16, local.minute() as u8, local.second()))
        .ok()
}

fn put_day(
    ws: &mut Worksheet,
    f: &Formats,
    (r, c): (u32, u16),
    d: NaiveDate,
) -> Result<(), XlsxError> {
    use chrono::Datelike;
    match u16::try_from(d.year()) {
        Ok(y) if (1900..=9999).contains(&y) => {
            let dt = ExcelDateTime::from_ymd(y, d.month() as u8, d.day() as u8)?;
            ws.write_datetime_with_format(r, c, &dt, &f.date)?;
        }
        // Excel has no dates before 1900: the day as text.
        _ => {
            ws.write_string(r, c, d.format("%Y-%m-%d").to_string())?;
        }
    }
    Ok(())
}

/// Writes the workbook of `rows` (two passes: the header needs every field name) to
/// `target` through a temporary file renamed at the end. Stops with `Interrupted` when
/// `cancel` is set.
pub fn write_file<'a, I>(
    target: &Path,
    rows: I,
    about: &About<'_>,
    cancel: &AtomicBool,
) -> std::io::Result<Written>
where
    I: Iterator<Item = &'a Invoice> + Clone,
{
    let mut written = Written::default();
    crate::fsutil::write_user_file(target, |w| {
        written = write(w, rows, about, cancel)?;
        Ok(())
    })?;
    Ok(written)
}

/// Writes the workbook to `out`.
pub fn write<'a, W, I>(
    out: W,
    rows: I,
    about: &About<'_>,
    cancel: &AtomicBool,
) -> std::io::Result<Written>
where
    W: std::io::Write + Send,
    I: Iterator<Item = &'a Invoice> + Clone,
{
    let header = super::columns(rows.clone());
    write_rows(out, &header, rows.map(Ok), about, cancel)
}

/// Writes the workbook of `rows` under `header` (every field name they have) to `out`,
/// in one pass: rows may come from a spool on disk ([`Spool`]), each read as written.
pub fn write_rows<W, I, B>(
    out: W,
    header: &[String],
    rows: I,
    about: &About<'_>,
    cancel: &AtomicBool,
) -> std::io::Result<Written>
where
    W: std::io::Write + Send,
    I: Iterator<Item = std::io::Result<B>>,
    B: std::borrow::Borrow<Invoice>,
{
    let cols = sheet_columns(header, about)?;
    let mut written = Written::default();
    let mut book = Workbook::new();
    // Compressing the sheet's XML is much of the work at 100,000 rows: level 3 of 9
    // (benches/workbook.sh) takes about 0.3 s less than the default 6 for a file 13 %
    // larger (9.4 MB against 8.3 MB); level 1 is no faster and 37 % larger.
    book.set_zip_compression_level(3);
    let lang = about.lang;
    let mut f = Formats::new(lang);
    let mut aging = Aging::default();
    let mut monthly = Monthly::default();
    {
        let ws = book.add_worksheet_with_constant_memory().map_err(err)?;
        ws.set_name(tr_in!(lang, "xl-sheet-invoices"))
            .map_err(err)?;
        header_row(ws, &cols, lang, &f)?;
        // The words once, not a Fluent lookup per row.
        let words: Vec<(StatusKind, String)> = [
            StatusKind::Open,
            StatusKind::Overdue,
            StatusKind::Paid,
            StatusKind::Void,
            StatusKind::Unknown,
        ]
        .into_iter()
        .map(|k| (k, crate::i18n::status_kind_in(lang, k)))
        .collect();
        let word = |k: StatusKind| {
            words
                .iter()
                .find(|(w, _)| *w == k)
                .map_or("", |(_, t)| t.as_str())
        };
        let mut r = 0u32;
        for inv in rows {
            let inv = inv?;
            let inv = inv.borrow();
            super::check_cancel(u64::from(r), cancel)?;
            r = r
                .checked_add(1)
                .ok_or_else(|| std::io::Error::other("too many rows"))?;
            if r as usize > MAX_ROWS {
                return Err(std::io::Error::other(
                    "more invoices than an Excel sheet holds (1,048,575)",
                ));
            }
            let due = due_day(inv);
            let standing = Standing::of_due(inv, about.today, due);
            aging.add(inv, standing);
            monthly.add(inv, standing, due);
            for (c, col) in cols.iter().enumerate() {
                let at = (r, c as u16);
                let i = match col {
                    Col::Typed(Source::Known(i)) => *i,
                    Col::Typed(Source::Status) => {
                        ws.write_string(at.0, at.1, word(standing.kind()))
                            .map_err(err)?;
                        continue;
                    }
                    Col::DaysOverdue => {
                        if let Standing::Overdue(d) = standing {
                            ws.write_number(at.0, at.1, f64::from(d)).map_err(err)?;
                        }
                        continue;
                    }
                    Col::Extra(name) => {
                        let v = inv.extra.get(*name);
                        put_extra(ws, &f, at, name, v, &mut written.cut).map_err(err)?;
                        continue;
                    }
                    Col::CustomerName => {
                        if let Some(n) = about.customer_name {
                            put_text(ws, &f, at, n, &mut written.cut).map_err(err)?;
                        }
                        continue;
                    }
                };
                match inv.known(i) {
                    None => {}
                    // The due date, already read above for the standing.
                    Some(Known::Text(s)) if KNOWN_FIELDS[i].name == "due_date" => match due {
                        Some(d) => put_day(ws, &f, at, d).map_err(err)?,
                        None => put_text(ws, &f, at, s, &mut written.cut).map_err(err)?,
                    },
                    // The currency as a clerk names it ("UF", not "CLF").
                    Some(Known::Text(s)) if KNOWN_FIELDS[i].name == "currency_code" => {
                        let label = crate::i18n::currency_label_in(lang, s);
                        put_text(ws, &f, at, &label, &mut written.cut).map_err(err)?;
                    }
                    Some(Known::Text(s)) => {
                        put_text(ws, &f, at, s, &mut written.cut).map_err(err)?;
                    }
                    Some(Known::Flag(b)) => {
                        ws.write_boolean(at.0, at.1, b).map_err(err)?;
                    }
                    Some(Known::Amount(a)) => {
                        let code = inv.currency_code.as_deref();
                        let as_text = put_amount(ws, &mut f, at, a, code).map_err(err)?;
                        written.as_text += u64::from(as_text);
                    }
                    Some(Known::Unreadable(raw)) => {
                        let guarded = guard_text(raw);
                        let (t, _) = fit(&guarded);
                        ws.write_string_with_format(at.0, at.1, t, &f.as_text)
                            .map_err(err)?;
                        written.as_text += 1;
                    }
                    Some(Known::Json(v)) => {
                        put_text(ws, &f, at, &value_text(v), &mut written.cut).map_err(err)?;
                    }
                }
            }
        }
        written.rows = u64::from(r);
        ws.set_freeze_panes(1, 0).map_err(err)?;
        let last_col = u16::try_from(cols.len().saturating_sub(1)).unwrap_or(u16::MAX);
        ws.autofilter(0, 0, r, last_col).map_err(err)?;
    }
    summary(&mut book, &mut f, about, &aging, &monthly, written).map_err(err)?;
    book.save_to_writer(out).map_err(err)?;
    Ok(written)
}

/// A table of the summary sheet: its title in bold at row `r`, its column titles under
/// it. Returns the row its first line goes in.
fn table_start(
    ws: &mut Worksheet,
    f: &Formats,
    r: u32,
    title: String,
    columns: &[String],
) -> Result<u32, XlsxError> {
    ws.write_string_with_format(r, 0, title, &f.bold)?;
    for (c, t) in columns.iter().enumerate() {
        ws.write_string_with_format(r + 1, c as u16, t, &f.header)?;
    }
    Ok(r + 2)
}

/// The summary sheet: who and when, the aging table, the monthly totals.
fn summary(
    book: &mut Workbook,
    f: &mut Formats,
    about: &About<'_>,
    aging: &Aging,
    monthly: &Monthly,
    written: Written,
) -> Result<(), XlsxError> {
    let lang = about.lang;
    let ws = book.add_worksheet();
    ws.set_name(tr_in!(lang, "xl-sheet-summary"))?;
    for (c, w) in [14.0, 18.0, 18.0, 18.0, 18.0].into_iter().enumerate() {
        ws.set_column_width(c as u16, w)?;
    }
    ws.write_string_with_format(0, 0, tr_in!(lang, "xl-customer"), &f.bold)?;
    let who = match about.customer_name {
        Some(n) => format!("{} ({})", about.customer, n),
        None => about.customer.to_string(),
    };
    let mut cut = 0;
    put_text(ws, f, (0, 1), &who, &mut cut)?;
    ws.write_string_with_format(1, 0, tr_in!(lang, "xl-as-of"), &f.bold)?;
    put_day(ws, f, (1, 1), about.today)?;
    // Notes on what Excel could not hold, then a blank line.
    let mut r = 2u32;
    for (count, note) in [
        (
            written.as_text,
            tr_in!(lang, "xl-as-text-note", count = written.as_text),
        ),
        (
            written.cut,
            tr_in!(lang, "xl-cut-note", count = written.cut),
        ),
    ] {
        if count > 0 {
            ws.write_string_with_format(r, 0, note, &f.as_text)?;
            r += 1;
        }
    }
    r += 1;
    let titles = [
        tr_in!(lang, "col-currency"),
        tr_in!(lang, "xl-bucket"),
        tr_in!(lang, "xl-count"),
        tr_in!(lang, "xl-total"),
    ];
    r = table_start(ws, f, r, tr_in!(lang, "xl-aging"), &titles)?;
    if aging.is_empty() {
        ws.write_string(r, 0, tr_in!(lang, "xl-nothing-owed"))?;
        r += 1;
    }
    for (code, cells) in &aging.by_currency {
        for b in Bucket::ALL {
            let cell = cells[b.index()];
            put_text(
                ws,
                f,
                (r, 0),
                &crate::i18n::currency_label_in(lang, code),
                &mut cut,
            )?;
            ws.write_string(r, 1, crate::i18n::bucket_in(lang, b))?;
            ws.write_number(r, 2, cell.count as f64)?;
            put_total(ws, f, (r, 3), cell.total, code)?;
            r += 1;
        }
    }
    r += 1;
    let titles = [
        tr_in!(lang, "xl-month"),
        tr_in!(lang, "col-currency"),
        tr_in!(lang, "chart-invoiced"),
        tr_in!(lang, "chart-paid"),
        tr_in!(lang, "chart-open"),
    ];
    r = table_start(ws, f, r, tr_in!(lang, "xl-monthly"), &titles)?;
    for (code, months) in &monthly.by_currency {
        for (&(y, m), t) in months {
            match u16::try_from(y) {
                Ok(y) if (1900..=9999).contains(&y) => {
                    let dt = ExcelDateTime::from_ymd(y, m as u8, 1)?;
                    ws.write_datetime_with_format(r, 0, &dt, &f.month)?;
                }
                _ => {
                    ws.write_string(r, 0, format!("{y:04}-{m:02}"))?;
                }
            }
            put_text(
                ws,
                f,
                (r, 1),
                &crate::i18n::currency_label_in(lang, code),
                &mut cut,
            )?;
            put_total(ws, f, (r, 2), t.invoiced, code)?;
            put_total(ws, f, (r, 3), t.paid, code)?;
            put_total(ws, f, (r, 4), t.open, code)?;
            r += 1;
        }
    }
    Ok(())
}

/// The sheet's columns for the CSV's `header`: the known fields typed (with the days
/// overdue beside the status), every other field as text, the customer's name last.
fn sheet_columns<'h>(header: &'h [String], about: &About<'_>) -> std::io::Result<Vec<Col<'h>>> {
    let sources = column_sources(header);
    // As the CSV: a service that invents a field per invoice cannot make the sheet
    // grow sideways without end (Excel stops at 16,384 columns).
    if sources.iter().filter(|s| s.is_err()).count() > super::MAX_EXTRA_COLUMNS {
        return Err(std::io::Error::other(format!(
            "the invoices have more than {} different fields",
            super::MAX_EXTRA_COLUMNS
        )));
    }
    let mut cols: Vec<Col> = Vec::with_capacity(header.len() + 2);
    for s in &sources {
        match s {
            Ok(i) => {
                let source = typed_columns()[*i].2;
                cols.push(Col::Typed(source));
                if source == Source::Status {
                    cols.push(Col::DaysOverdue);
                }
            }
            Err(name) => cols.push(Col::Extra(name)),
        }
    }
    if about.customer_name.is_some() {
        cols.push(Col::CustomerName);
    }
    Ok(cols)
}

/// The sheet's first row: each column's title in the clerk's language, and its width.
fn header_row(
    ws: &mut rust_xlsxwriter::Worksheet,
    cols: &[Col<'_>],
    lang: crate::i18n::Lang,
    f: &Formats,
) -> std::io::Result<()> {
    for (c, col) in cols.iter().enumerate() {
        let c = c as u16;
        let (title, width) = match col {
            Col::Typed(Source::Status) => (tr_in!(lang, "col-status"), 12.0),
            Col::Typed(Source::Known(i)) => {
                let name = KNOWN_FIELDS[*i].name;
                let width = match name {
                    "id" => 20.0,
                    "due_date" => 12.0,
                    "amount" => 16.0,
                    "currency_code" | "is_paid" | "is_void" => 9.0,
                    "invoice_external_id" | "link_payment" => 24.0,
                    _ => 16.0,
                };
                (crate::i18n::field_name_in(lang, name), width)
            }
            Col::DaysOverdue => (tr_in!(lang, "xl-days-overdue"), 10.0),
            Col::Extra("created_at") => (tr_in!(lang, "field-created-at"), 16.0),
            Col::Extra(name) => (fit(&guard_text(name)).0.into_owned(), 16.0),
            Col::CustomerName => (tr_in!(lang, "xl-customer-name"), 24.0),
        };
        ws.set_column_width(c, width).map_err(err)?;
        ws.write_string_with_format(0, c, title, &f.header)
            .map_err(err)?;
    }
    Ok(())
}

/// The whole book as a workbook: a sheet of receivables (one row per customer and
/// currency owed, the aging buckets, the oldest overdue days, the last invoice; a
/// customer that could not be listed with its problem) and a sheet of every invoice
/// owed (customer, id, reference, due day, days overdue, amount). Amounts are numbers
/// in their currency's format (exact text when Excel could not hold them).
pub fn write_receivables(
    target: &Path,
    rows: &[&crate::receivables::Row],
    owed: &[(String, Vec<crate::receivables::Line>)],
    lang: crate::i18n::Lang,
) -> std::io::Result<()> {
    crate::fsutil::write_user_file(target, |w| {
        receivables_book(w, rows, owed, lang).map_err(err)
    })
}

/// [`write_receivables`]'s workbook, in memory (for a file written never over another:
/// `fsutil::write_new`).
pub fn receivables_bytes(
    rows: &[&crate::receivables::Row],
    owed: &[(String, Vec<crate::receivables::Line>)],
    lang: crate::i18n::Lang,
) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    receivables_book(&mut out, rows, owed, lang).map_err(err)?;
    Ok(out)
}

fn receivables_book<W: std::io::Write + Send>(
    out: W,
    rows: &[&crate::receivables::Row],
    owed: &[(String, Vec<crate::receivables::Line>)],
    lang: crate::i18n::Lang,
) -> Result<(), XlsxError> {
    use crate::receivables::aging::Bucket;
    let mut book = Workbook::new();
    let mut f = Formats::new(lang);
    let ws = book.add_worksheet();
    ws.set_name(tr_in!(lang, "xl-sheet-receivables"))?;
    let mut head = vec![
        tr_in!(lang, "rv-col-customer"),
        tr_in!(lang, "xl-col-name"),
        tr_in!(lang, "rv-col-rut"),
        tr_in!(lang, "xl-col-currency"),
    ];
    head.extend(Bucket::ALL.iter().map(|b| crate::i18n::bucket_in(lang, *b)));
    head.extend([
        tr_in!(lang, "xl-col-owed"),
        tr_in!(lang, "rv-col-oldest"),
        tr_in!(lang, "rv-col-last"),
        tr_in!(lang, "xl-col-problem"),
    ]);
    for (c, h) in head.iter().enumerate() {
        ws.write_string_with_format(0, c as u16, h, &f.header)?;
        ws.set_column_width(c as u16, if c < 2 { 28 } else { 15 })?;
    }
    let mut r: u32 = 0;
    for row in rows {
        let text = |t: Option<&str>| guard_text(t.unwrap_or("")).into_owned();
        let start = |ws: &mut Worksheet, r: u32| -> Result<(), XlsxError> {
            ws.write_string(r, 0, text(Some(&row.customer)))?;
            ws.write_string(r, 1, text(row.name.as_deref()))?;
            ws.write_string(r, 2, text(row.rut.as_deref()))?;
            Ok(())
        };
        match &row.summary {
            Err(why) => {
                r += 1;
                start(ws, r)?;
                ws.write_string(r, 12, text(Some(why)))?;
            }
            Ok(s) if s.owed.is_empty() => {
                r += 1;
                start(ws, r)?;
                ws.write_number(r, 9, 0.0)?;
                if let Some(d) = s.last_invoice {
                    put_day(ws, &f, (r, 11), d)?;
                }
            }
            Ok(s) => {
                for (code, total) in &s.owed {
                    r += 1;
                    start(ws, r)?;
                    ws.write_string(r, 3, crate::i18n::currency_label_in(lang, code))?;
                    for (i, cell) in crate::receivables::cells(s, code).iter().enumerate() {
                        if let Some(t) = cell {
                            put_total(ws, &mut f, (r, 4 + i as u16), *t, code)?;
                        }
                    }
                    put_total(ws, &mut f, (r, 9), *total, code)?;
                    if let Some(d) = s.oldest_overdue {
                        ws.write_number(r, 10, f64::from(d))?;
                    }
                    if let Some(d) = s.last_invoice {
                        put_day(ws, &f, (r, 11), d)?;
                    }
                }
            }
        }
    }
    ws.set_freeze_panes(1, 0)?;
    ws.autofilter(0, 0, r, 12)?;
    // Every invoice owed, one per row.
    let ws = book.add_worksheet();
    ws.set_name(tr_in!(lang, "xl-sheet-owed"))?;
    let rows = owed
        .iter()
        .flat_map(|(c, lines)| lines.iter().map(move |l| (Some(c.as_str()), l)));
    lines_table(ws, &mut f, 0, true, rows)?;
    book.save_to_writer(out)?;
    Ok(())
}

/// A table of statement lines from row `top` (its titles there): the customer when
/// `with_customer`, then the invoice, the reference the clerk wrote, issued and due
/// days, days overdue, where it stands in words, the amount as a number in its
/// currency's format (exact text when Excel cannot hold it), the currency and the
/// payment link. Frozen titles and a filter. The last row written.
fn lines_table<'a>(
    ws: &mut Worksheet,
    f: &mut Formats,
    top: u32,
    with_customer: bool,
    rows: impl Iterator<Item = (Option<&'a str>, &'a crate::receivables::Line)>,
) -> Result<u32, XlsxError> {
    let lang = f.lang;
    let mut head = Vec::new();
    if with_customer {
        head.push(tr_in!(lang, "rv-col-customer"));
    }
    head.extend([
        tr_in!(lang, "st-col-invoice"),
        tr_in!(lang, "st-col-reference"),
        crate::i18n::field_name_in(lang, "created_at"),
        tr_in!(lang, "st-col-due"),
        tr_in!(lang, "xl-col-days-overdue"),
        tr_in!(lang, "st-col-status"),
        tr_in!(lang, "st-col-amount"),
        tr_in!(lang, "xl-col-currency"),
        crate::i18n::field_name_in(lang, "link_payment"),
    ]);
    let last_col = (head.len() - 1) as u16;
    for (c, h) in head.iter().enumerate() {
        ws.write_string_with_format(top, c as u16, h, &f.header)?;
        ws.set_column_width(c as u16, if c as u16 == last_col { 40 } else { 16 })?;
    }
    let first = u16::from(with_customer);
    let mut r = top;
    for (customer, l) in rows {
        r += 1;
        if let Some(c) = customer {
            ws.write_string(r, 0, guard_text(c).into_owned())?;
        }
        // The lines' texts are escaped already; guarded against formulas here.
        ws.write_string(r, first, guard_text(&l.id).into_owned())?;
        if let Some(x) = &l.reference {
            ws.write_string(r, first + 1, guard_text(x).into_owned())?;
        }
        if let Some(d) = l.issued {
            put_day(ws, f, (r, first + 2), d)?;
        }
        if let Some(d) = l.due {
            put_day(ws, f, (r, first + 3), d)?;
        }
        if let Standing::Overdue(d) = l.standing {
            ws.write_number(r, first + 4, f64::from(d))?;
        }
        ws.write_string(
            r,
            first + 5,
            crate::i18n::status_kind_in(lang, l.standing.kind()),
        )?;
        match l.value {
            Some(a) => {
                put_amount(ws, f, (r, first + 6), a, l.currency.as_deref())?;
            }
            None => {
                ws.write_string(r, first + 6, guard_text(&l.amount).into_owned())?;
            }
        }
        if let Some(c) = &l.currency {
            ws.write_string(r, first + 7, crate::i18n::currency_label_in(lang, c))?;
        }
        if let Some(u) = &l.link {
            ws.write_string(r, first + 8, guard_text(u).into_owned())?;
        }
    }
    ws.set_freeze_panes(top + 1, 0)?;
    ws.autofilter(top, 0, r, last_col)?;
    Ok(r)
}

/// A statement's workbook, sent with a statement too long to print whole: a title row
/// (the statement, the customer, the day) and every invoice it lists, oldest due first.
pub fn statement_book(
    lang: crate::i18n::Lang,
    title: &str,
    lines: &[crate::receivables::Line],
) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let mut f = Formats::new(lang);
    let ws = book.add_worksheet();
    ws.set_name(tr_in!(lang, "st-title"))?;
    ws.write_string_with_format(0, 0, guard_text(title).into_owned(), &f.bold)?;
    lines_table(ws, &mut f, 2, false, lines.iter().map(|l| (None, l)))?;
    book.save_to_buffer()
}

mod spool;
pub use spool::Spool;

#[cfg(test)]
mod tests;
