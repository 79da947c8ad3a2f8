//! CSV export of invoices, streamed, exact, safe to open in a spreadsheet.
//!
//! Columns (from the table of known fields, `api::model::KNOWN_FIELDS`): `id, customer,
//! due_date, amount, currency_code, status, is_paid, is_void, invoice_external_id`, then
//! `product_id, link_payment, metadata, service_status` when any row has them, then every
//! other field seen, sorted by name. Nested values are compact JSON.

pub mod report;
pub mod xlsx;

use crate::api::model::{FIRST_OPTIONAL_COLUMN, KNOWN_FIELDS, Known, value_text};
use crate::api::{Currency, Invoice};
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

    /// What a file starts with: Excel's byte order mark, or nothing.
    fn bom(self) -> &'static str {
        match self {
            Dialect::Standard => "",
            Dialect::ExcelEs => "\u{feff}",
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

/// A column that only some rows bring: an optional known one (its position) or another
/// field (its name).
#[derive(Clone, Debug)]
enum Brought {
    Optional(u8),
    Extra(String),
}

/// The columns a set of rows needs, learnt row by row.
#[derive(Clone, Debug, Default)]
pub struct ColumnSet {
    /// Positions of the optional columns some row has, as bits.
    optional: u32,
    extra: BTreeSet<String>,
    /// The optional and extra columns above, in the order rows first brought them.
    brought: Vec<Brought>,
}

impl ColumnSet {
    /// Notes the fields of one row; true when it brought a column not seen before.
    pub fn add(&mut self, r: &Invoice) -> bool {
        let before = self.brought.len();
        for (_, pos, source) in typed_columns() {
            if *pos >= FIRST_OPTIONAL_COLUMN
                && let Source::Known(i) = source
                && self.optional & (1 << pos) == 0
                && r.known(*i).is_some()
            {
                self.optional |= 1 << pos;
                self.brought.push(Brought::Optional(*pos));
            }
        }
        for k in r.extra.keys() {
            if !self.extra.contains(k.as_str()) {
                self.extra.insert(k.clone());
                self.brought.push(Brought::Extra(k.clone()));
            }
        }
        self.brought.len() > before
    }

    /// How many optional and extra columns were seen: with [`ColumnSet::first`], what the
    /// set was at a given moment.
    fn seen(&self) -> usize {
        self.brought.len()
    }

    /// The set as it was when it held its first `n` optional and extra columns.
    fn first(&self, n: usize) -> ColumnSet {
        let mut set = ColumnSet::default();
        for b in &self.brought[..n.min(self.brought.len())] {
            match b {
                Brought::Optional(pos) => set.optional |= 1 << pos,
                Brought::Extra(k) => {
                    set.extra.insert(k.clone());
                }
            }
            set.brought.push(b.clone());
        }
        set
    }

    /// How many distinct extra fields were seen.
    pub fn extra_count(&self) -> usize {
        self.extra.len()
    }

    /// The header: fixed columns, known optional ones present, then the rest, sorted.
    pub fn columns(&self) -> Vec<String> {
        let mut out: Vec<String> = typed_columns()
            .iter()
            .filter(|(_, pos, _)| *pos < FIRST_OPTIONAL_COLUMN || self.optional & (1 << pos) != 0)
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

pub use crate::text::guard_text;

/// An amount cell: exact digits, at least the currency's decimals, the dialect's decimal
/// separator, no thousands separator (so it stays a number).
pub fn amount_cell(amount: Decimal, currency: Option<&str>, dialect: Dialect) -> String {
    let mut out = String::new();
    push_amount_cell(amount, currency, dialect, &mut out);
    out
}

/// [`amount_cell`], appended to `out` (no allocation of its own: the export calls it for
/// every row).
fn push_amount_cell(amount: Decimal, currency: Option<&str>, dialect: Dialect, out: &mut String) {
    let minor = currency
        .and_then(Currency::from_code)
        .map_or(0, Currency::minor_units);
    let mut d = amount.normalize();
    if d.scale() < minor {
        d.rescale(minor);
    }
    let point = match dialect {
        Dialect::Standard => '.',
        Dialect::ExcelEs => ',',
    };
    crate::api::money::push_plain(d, point, out);
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

/// The header as the dialect titles it: the stable English names for programs; for
/// Excel in Spanish the words a clerk reads ("Vencimiento", "Estado"), the service's
/// other fields keeping their names. Cells are matched to columns by the names, never
/// by these titles.
fn titles(header: &[String], dialect: Dialect) -> Vec<String> {
    if dialect == Dialect::Standard {
        return header.to_vec();
    }
    let es = |key: &str| crate::i18n::text_in(crate::i18n::Lang::Es, key);
    header
        .iter()
        .map(|h| {
            if h == STATUS_COLUMN.0 {
                return es("col-status");
            }
            match typed_columns().iter().find(|t| t.0 == h) {
                Some((_, _, Source::Known(i))) => es(&format!(
                    "field-{}",
                    KNOWN_FIELDS[*i].name.replace('_', "-")
                )),
                _ => h.clone(),
            }
        })
        .collect()
}

/// The words of a dialect's status and yes/no cells, looked up once (not per row).
struct CellWords {
    open: String,
    paid: String,
    void: String,
    unknown: String,
    yes: String,
    no: String,
}

fn spanish_words() -> &'static CellWords {
    static WORDS: std::sync::OnceLock<CellWords> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        let es = |key: &str| crate::i18n::text_in(crate::i18n::Lang::Es, key);
        CellWords {
            open: es("status-open"),
            paid: es("status-paid"),
            void: es("status-void"),
            unknown: es("status-unknown"),
            yes: es("yes"),
            no: es("no"),
        }
    })
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

/// The cell of a header column, appended to `out`: a typed column (its index in
/// [`typed_columns`], as [`column_sources`] gives it) or another field by name. Both CSV
/// writers fill their rows through this. True when the cell is one that never needs
/// quotes or escapes (empty, an amount, a flag, a status, `{}`): the streamed writer does
/// not look into it.
fn push_column_cell(
    inv: &Invoice,
    source: Result<usize, &str>,
    dialect: Dialect,
    out: &mut String,
) -> bool {
    match source {
        Ok(i) => push_typed_cell(inv, typed_columns()[i].2, dialect, out),
        Err(name) => inv.extra.get(name).is_none_or(|v| push_value_cell(v, out)),
    }
}

/// The cell of a column that comes from the known fields, appended to `out` (no
/// allocation for the common cells). True as [`push_column_cell`] says.
fn push_typed_cell(inv: &Invoice, source: Source, dialect: Dialect, out: &mut String) -> bool {
    let i = match source {
        Source::Status => {
            let status = inv.status();
            out.push_str(match dialect {
                Dialect::Standard => status.as_str(),
                Dialect::ExcelEs => {
                    use crate::api::InvoiceStatus as S;
                    let w = spanish_words();
                    match status {
                        S::Open => &w.open,
                        S::Paid => &w.paid,
                        S::Void => &w.void,
                        S::Unknown => &w.unknown,
                    }
                }
            });
            return true;
        }
        Source::Known(i) => i,
    };
    match inv.known(i) {
        None => return true,
        Some(Known::Text(s)) => out.push_str(&guard_text(s)),
        Some(Known::Flag(b)) => {
            out.push_str(match (dialect, b) {
                (Dialect::Standard, true) => "true",
                (Dialect::Standard, false) => "false",
                (Dialect::ExcelEs, true) => &spanish_words().yes,
                (Dialect::ExcelEs, false) => &spanish_words().no,
            });
            return true;
        }
        // Digits, a sign and the dialect's decimal point, never its delimiter.
        Some(Known::Amount(a)) => {
            push_amount_cell(a, inv.currency_code.as_deref(), dialect, out);
            return true;
        }
        Some(Known::Unreadable(raw)) => out.push_str(&unreadable_amount_cell(raw, dialect)),
        Some(Known::Json(v)) => return push_value_cell(v, out),
    }
    false
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

/// A CSV export that does not hold the rows: each row goes, in its final CSV form, to a
/// file as it arrives. Memory stays the same whatever the number of rows; the output is
/// byte for byte what [`write`] gives.
///
/// The rows are written under the header known when they come. While no row brings a
/// new column (the usual listing: every invoice has the same fields), that is the final
/// header; otherwise each run of rows is read back and its cells are put in the final
/// columns. Two ways to use it:
/// - [`StreamingCsv::new`] and [`StreamingCsv::finish`]: the rows go to an unnamed
///   temporary file, and `finish` writes the header (which needs every field name) and
///   then copies the rows to any writer.
/// - [`StreamingCsv::to_file`] and [`StreamingCsv::finish_file`]: the header known at
///   the first row and the rows go straight to the temporary file that replaces the
///   destination, so the usual listing is written once, never copied; only when a later
///   row brought a column is it rewritten under the final header.
pub struct StreamingCsv {
    dialect: Dialect,
    escape: bool,
    columns: ColumnSet,
    body: RowWriter,
    /// Runs of rows written under one header: how many rows, and how many optional and
    /// extra columns were known when the run began.
    runs: Vec<(u64, usize)>,
    /// The current run's columns and where their cells come from.
    header: Vec<String>,
    sources: Vec<Result<usize, usize>>,
    rows: u64,
    /// The customer's name, for a last column (when known).
    customer_name: Option<String>,
    /// With [`StreamingCsv::to_file`], the file being replaced, whose temporary file the
    /// body writes to, the header first. Boxed, as `body` is.
    replacing: Option<Box<crate::fsutil::Replacement>>,
}

impl StreamingCsv {
    /// A new export in this dialect.
    pub fn new(dialect: Dialect) -> std::io::Result<StreamingCsv> {
        Ok(StreamingCsv::writing_to(
            dialect,
            tempfile::tempfile()?,
            None,
        ))
    }

    /// A new export in this dialect that replaces `target`, a file the user chose and
    /// [`crate::fsutil::check_destination`] resolved (as [`write_file`] does; see
    /// [`StreamingCsv::finish_file`]). Dropped unfinished, it leaves `target` as it was.
    pub fn to_file(dialect: Dialect, target: &Path) -> std::io::Result<StreamingCsv> {
        let (replacing, mut file) = crate::fsutil::Replacement::user_file(target)?;
        put_bom(&mut file, dialect)?;
        Ok(StreamingCsv::writing_to(
            dialect,
            file,
            Some(Box::new(replacing)),
        ))
    }

    fn writing_to(
        dialect: Dialect,
        file: std::fs::File,
        replacing: Option<Box<crate::fsutil::Replacement>>,
    ) -> StreamingCsv {
        StreamingCsv {
            dialect,
            escape: false,
            columns: ColumnSet::default(),
            body: RowWriter::new(file, dialect),
            runs: Vec::new(),
            header: Vec::new(),
            sources: Vec::new(),
            rows: 0,
            customer_name: None,
            replacing,
        }
    }

    /// The header as written: in the dialect's words, control characters escaped when
    /// asked.
    fn shown(&self, header: &[String]) -> Vec<String> {
        titles(header, self.dialect)
            .iter()
            .map(|h| cell_text(h, self.escape).into_owned())
            .collect()
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
        if self.columns.add(inv) || self.runs.is_empty() {
            if self.columns.extra_count() > MAX_EXTRA_COLUMNS {
                return Err(std::io::Error::other(format!(
                    "the invoices have more than {MAX_EXTRA_COLUMNS} different fields"
                )));
            }
            self.header = self.columns.columns();
            self.sources = column_sources(&self.header)
                .into_iter()
                .enumerate()
                .map(|(j, s)| s.map_err(|_| j))
                .collect();
            if self.runs.is_empty() && self.replacing.is_some() {
                let shown = self.shown(&self.header);
                self.body
                    .head(&shown, self.customer_name.is_some(), self.dialect)?;
            }
            self.runs.push((0, self.columns.seen()));
        }
        for source in &self.sources {
            // The cell is made where it is written, then quoted (rarely) in place.
            let start = self.body.begin_field();
            let source = source.map_err(|j| self.header[j].as_str());
            if !push_column_cell(inv, source, self.dialect, &mut self.body.buf) {
                self.body.end_field(start, self.escape);
            }
        }
        if let Some(name) = &self.customer_name {
            self.body.field(name, self.escape);
        }
        self.body.end_record()?;
        if let Some(run) = self.runs.last_mut() {
            run.0 += 1;
        }
        self.rows += 1;
        Ok(())
    }

    /// Writes the whole CSV to `out`. Returns the rows written. For an export made by
    /// [`StreamingCsv::new`].
    pub fn finish<W: Write>(self, out: W, cancel: &AtomicBool) -> std::io::Result<u64> {
        if self.replacing.is_some() {
            return Err(std::io::Error::other(
                "an export to a file is finished by finish_file",
            ));
        }
        let header = self.columns.columns();
        let mut w = start_csv(
            out,
            self.dialect,
            &self.shown(&header),
            self.customer_name.is_some(),
        )?;
        let (rows, mut file, _) = self.into_body()?;
        if rows.runs.len() <= 1 {
            // Every row was written under the final header: copied as it is.
            check_cancel(0, cancel)?;
            let mut out = w.into_inner().map_err(|e| e.into_error())?;
            std::io::copy(&mut file, &mut out)?;
            out.flush()?;
            return Ok(rows.count);
        }
        rows.copy_runs(file, false, &mut w, &header, cancel)
    }

    /// Puts the CSV in place of the file given to [`StreamingCsv::to_file`]. Returns the
    /// rows written. Rows written under the final header (the usual listing) are
    /// already where they belong; otherwise the file is written again under it.
    pub fn finish_file(mut self, cancel: &AtomicBool) -> std::io::Result<u64> {
        let header = self.columns.columns();
        let shown = self.shown(&header);
        if self.runs.is_empty() {
            // No row: the header alone.
            self.body
                .head(&shown, self.customer_name.is_some(), self.dialect)?;
        }
        check_cancel(0, cancel)?;
        let (rows, mut file, replacing) = self.into_body()?;
        let Some(replacing) = replacing else {
            return Err(std::io::Error::other(
                "an export to a writer is finished by finish",
            ));
        };
        if rows.runs.len() <= 1 {
            replacing.finish(file)?;
            return Ok(rows.count);
        }
        // Read back past the BOM and the first run's header, into a second temporary
        // file; the first is removed when `replacing` is dropped.
        use std::io::Seek;
        file.seek(std::io::SeekFrom::Start(rows.dialect.bom().len() as u64))?;
        let mut n = 0;
        crate::fsutil::write_user_file(replacing.target(), |out| {
            let mut w = start_csv(out, rows.dialect, &shown, rows.customer_name)?;
            n = rows.copy_runs(file, true, &mut w, &header, cancel)?;
            Ok(())
        })?;
        Ok(n)
    }

    /// What reading the rows back needs, the body's file at its start, and the file
    /// being replaced (when there is one).
    fn into_body(
        self,
    ) -> std::io::Result<(
        Spooled,
        std::fs::File,
        Option<Box<crate::fsutil::Replacement>>,
    )> {
        use std::io::Seek;
        let mut file = self.body.into_file()?;
        file.seek(std::io::SeekFrom::Start(0))?;
        let rows = Spooled {
            dialect: self.dialect,
            columns: self.columns,
            runs: self.runs,
            count: self.rows,
            customer_name: self.customer_name.is_some(),
        };
        Ok((rows, file, self.replacing))
    }
}

/// The rows of a [`StreamingCsv`] as CSV, byte for byte as [`csv_builder`]'s writer puts
/// them (a test compares the two), into a buffer written to the file every 256 KiB. The
/// csv crate copies every cell byte by byte through its quoting state machine (about a
/// sixth of the export's CPU); here a cell is made in place and only a cell that needs
/// quotes is copied again. Records may differ in length (runs of rows under different
/// headers).
struct RowWriter {
    /// The CSV not yet written to the file; it ends with the record being made.
    buf: String,
    file: std::fs::File,
    delimiter: u8,
    /// Where the record being made begins in `buf`, and how many fields it has.
    record_start: usize,
    fields: usize,
    /// A cell being quoted.
    scratch: String,
}

/// Whether the cell at the end of `text`, from `start`, holds the delimiter, a quote or a
/// line break: what makes the csv crate quote it. Eight bytes at a time, a byte-by-byte
/// scan being most of the writer's work: a word holds byte `b` when `w ^ b…b` has a zero
/// byte, which the high bits of `(x - 0x01…01) & !x` tell exactly.
fn needs_quotes(text: &[u8], start: usize, delimiter: u8) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    let holds = |w: u64| {
        let zero = |b: u8| {
            let x = w ^ (ONES * u64::from(b));
            x.wrapping_sub(ONES) & !x
        };
        (zero(b'"') | zero(b'\r') | zero(b'\n') | zero(delimiter)) & HIGHS != 0
    };
    let mut words = text[start..].chunks_exact(8);
    for w in &mut words {
        if holds(u64::from_le_bytes(w.try_into().expect("eight bytes"))) {
            return true;
        }
    }
    let rest = words.remainder().len();
    if rest == 0 {
        return false;
    }
    // The last bytes: the word that ends the text with the bytes before the cell shifted
    // out, or (at the very start) built byte by byte; zeros are never looked for.
    let end = text.len();
    let last = match end.checked_sub(8) {
        Some(from) => {
            u64::from_le_bytes(text[from..].try_into().expect("eight bytes")) >> (8 * (8 - rest))
        }
        None => text[end - rest..]
            .iter()
            .rev()
            .fold(0u64, |w, &b| (w << 8) | u64::from(b)),
    };
    holds(last)
}

/// How much CSV [`RowWriter`] holds before it writes to its file.
const ROWS_BUFFER: usize = 256 * 1024;

impl RowWriter {
    fn new(file: std::fs::File, dialect: Dialect) -> RowWriter {
        RowWriter {
            buf: String::with_capacity(ROWS_BUFFER + 4096),
            file,
            delimiter: dialect.delimiter(),
            record_start: 0,
            fields: 0,
            scratch: String::new(),
        }
    }

    /// Starts a field (after a delimiter unless it is the record's first): its text is
    /// appended to `buf`, then [`RowWriter::end_field`] is given what this returns.
    fn begin_field(&mut self) -> usize {
        if self.fields > 0 {
            self.buf.push(char::from(self.delimiter));
        }
        self.fields += 1;
        self.buf.len()
    }

    /// Ends the field whose text begins at `start` in `buf`: control characters escaped
    /// when `escape`, then quoted (its quotes doubled) when it holds the delimiter, a
    /// quote or a line break, as the csv crate's `QuoteStyle::Necessary` does.
    fn end_field(&mut self, start: usize, escape: bool) {
        if escape && let std::borrow::Cow::Owned(safe) = cell_text(&self.buf[start..], true) {
            self.buf.truncate(start);
            self.buf.push_str(&safe);
        }
        if needs_quotes(self.buf.as_bytes(), start, self.delimiter) {
            let cell = &mut self.scratch;
            cell.clear();
            cell.push_str(&self.buf[start..]);
            self.buf.truncate(start);
            self.buf.push('"');
            let mut rest = cell.as_str();
            while let Some(q) = rest.find('"') {
                // The quote, and another: doubled.
                self.buf.push_str(&rest[..=q]);
                self.buf.push('"');
                rest = &rest[q + 1..];
            }
            self.buf.push_str(rest);
            self.buf.push('"');
        }
    }

    /// A whole field.
    fn field(&mut self, text: &str, escape: bool) {
        let start = self.begin_field();
        self.buf.push_str(text);
        self.end_field(start, escape);
    }

    /// Ends the record, and writes the buffer to the file when it is full.
    fn end_record(&mut self) -> std::io::Result<()> {
        // As the csv crate does: a record with no text at all is one empty quoted field
        // (so that it is not read as no record).
        if self.buf.len() == self.record_start {
            self.buf.push_str("\"\"");
        }
        self.buf.push_str("\r\n");
        self.fields = 0;
        if self.buf.len() >= ROWS_BUFFER {
            self.file.write_all(self.buf.as_bytes())?;
            self.buf.clear();
        }
        self.record_start = self.buf.len();
        Ok(())
    }

    /// The header record (already escaped when asked), with the customer's name column.
    fn head(
        &mut self,
        header: &[String],
        with_name: bool,
        dialect: Dialect,
    ) -> std::io::Result<()> {
        for h in head_cells(header, with_name, dialect) {
            self.field(&h, false);
        }
        self.end_record()
    }

    /// The file, with everything written to it.
    fn into_file(mut self) -> std::io::Result<std::fs::File> {
        self.file.write_all(self.buf.as_bytes())?;
        Ok(self.file)
    }
}

/// The rows of a [`StreamingCsv`], as written: what reading them back needs.
struct Spooled {
    dialect: Dialect,
    columns: ColumnSet,
    runs: Vec<(u64, usize)>,
    count: u64,
    customer_name: bool,
}

impl Spooled {
    /// Puts each run's cells in the final `header`'s columns, from the rows in `file`
    /// (after the first run's header when `headed`). Returns the rows written.
    fn copy_runs<W: Write>(
        &self,
        file: std::fs::File,
        headed: bool,
        w: &mut csv::Writer<W>,
        header: &[String],
        cancel: &AtomicBool,
    ) -> std::io::Result<u64> {
        let mut body = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(self.dialect.delimiter())
            .from_reader(std::io::BufReader::with_capacity(256 * 1024, file));
        if headed && !body.read_byte_record(&mut csv::ByteRecord::new())? {
            return Err(std::io::Error::other("the written rows have no header"));
        }
        let mut record = csv::ByteRecord::new();
        let mut n = 0u64;
        for &(rows, seen) in &self.runs {
            // Where each final column is in this run's rows (None: the run had no such
            // column yet, its cells are empty).
            let run_header = self.columns.first(seen).columns();
            let at: std::collections::HashMap<&str, usize> = run_header
                .iter()
                .enumerate()
                .map(|(j, h)| (h.as_str(), j))
                .collect();
            let place: Vec<Option<usize>> =
                header.iter().map(|h| at.get(h.as_str()).copied()).collect();
            for _ in 0..rows {
                check_cancel(n, cancel)?;
                if !body.read_byte_record(&mut record)? {
                    return Err(std::io::Error::other("the spooled rows ended early"));
                }
                let cells = place
                    .iter()
                    .map(|p| p.and_then(|j| record.get(j)).unwrap_or(b""));
                let name = self
                    .customer_name
                    .then(|| record.get(run_header.len()).unwrap_or(b""));
                w.write_record(cells.chain(name))?;
                n += 1;
            }
        }
        w.flush()?;
        Ok(self.count)
    }
}

/// A field's value as a cell: text as itself, null empty, anything else compact JSON;
/// guarded against formulas. True for `{}`, which never needs quotes.
fn push_value_cell(v: &serde_json::Value, out: &mut String) -> bool {
    match v {
        serde_json::Value::String(s) => out.push_str(&guard_text(s)),
        // Most invoices' metadata: written without making a String of it.
        serde_json::Value::Object(m) if m.is_empty() => {
            out.push_str("{}");
            return true;
        }
        other => out.push_str(&guard_text(&value_text(other))),
    }
    false
}

fn cell_text(s: &str, escape: bool) -> std::borrow::Cow<'_, str> {
    if escape {
        crate::text::escape_controls(s)
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

fn csv_builder(dialect: Dialect) -> csv::WriterBuilder {
    let mut b = csv::WriterBuilder::new();
    b.delimiter(dialect.delimiter())
        .terminator(csv::Terminator::CRLF)
        .quote_style(csv::QuoteStyle::Necessary);
    b
}

fn csv_writer<W: Write>(out: W, dialect: Dialect) -> csv::Writer<W> {
    csv_builder(dialect).from_writer(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The rows as the csv crate writes them, with the streamed export's settings.
    fn by_the_csv_crate(records: &[Vec<String>], dialect: Dialect, escape: bool) -> Vec<u8> {
        let mut w = csv_builder(dialect).flexible(true).from_writer(Vec::new());
        for r in records {
            w.write_record(r.iter().map(|f| cell_text(f, escape).into_owned()))
                .unwrap();
        }
        w.into_inner().unwrap()
    }

    fn by_the_row_writer(records: &[Vec<String>], dialect: Dialect, escape: bool) -> Vec<u8> {
        use std::io::{Read, Seek};
        let mut w = RowWriter::new(tempfile::tempfile().unwrap(), dialect);
        for r in records {
            for f in r {
                w.field(f, escape);
            }
            w.end_record().unwrap();
        }
        let mut file = w.into_file().unwrap();
        file.seek(std::io::SeekFrom::Start(0)).unwrap();
        let mut out = Vec::new();
        file.read_to_end(&mut out).unwrap();
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]
        /// Any cells (delimiters, quotes, line breaks, controls, empty records and empty
        /// single cells included), in both dialects, escaped or not: the same bytes.
        #[test]
        fn rows_are_written_as_the_csv_crate_writes_them(
            records in prop::collection::vec(
                prop::collection::vec("[a,;\"\r\n\t\u{1b}ñ \\\\]{0,5}", 0..4),
                0..6,
            ),
            escape in any::<bool>(),
        ) {
            for d in [Dialect::Standard, Dialect::ExcelEs] {
                let ours = by_the_row_writer(&records, d, escape);
                let theirs = by_the_csv_crate(&records, d, escape);
                prop_assert_eq!(
                    String::from_utf8_lossy(&ours),
                    String::from_utf8_lossy(&theirs),
                    "{:?}", d
                );
            }
        }
    }

    /// Each byte that makes a cell quoted is found at any place in cells of any length,
    /// and no other byte is taken for one.
    #[test]
    fn every_byte_that_needs_quotes_is_found_anywhere() {
        for d in [Dialect::Standard, Dialect::ExcelEs] {
            let delimiter = d.delimiter();
            // After text that needs quotes (which is not looked at), or at the start.
            for before in ["", "a", "\"\r\n;,\"\"\"\"\""] {
                for len in 1..20 {
                    for at in 0..len {
                        for b in 0..=255u8 {
                            let mut text = before.as_bytes().to_vec();
                            text.extend(std::iter::repeat_n(b'a', len));
                            text[before.len() + at] = b;
                            let special = matches!(b, b'"' | b'\r' | b'\n') || b == delimiter;
                            assert_eq!(
                                needs_quotes(&text, before.len(), delimiter),
                                special,
                                "{text:?}"
                            );
                        }
                    }
                }
                assert!(!needs_quotes(before.as_bytes(), before.len(), delimiter));
            }
        }
    }

    /// Past its buffer, the writer's rows reach the file whole and in order.
    #[test]
    fn rows_past_the_buffer_are_all_written() {
        let records: Vec<Vec<String>> = (0..40_000)
            .map(|i| vec![format!("in_{i}"), "a;b,\"c\"".to_string(), String::new()])
            .collect();
        for d in [Dialect::Standard, Dialect::ExcelEs] {
            let ours = by_the_row_writer(&records, d, false);
            assert!(ours.len() > 2 * ROWS_BUFFER);
            assert!(ours == by_the_csv_crate(&records, d, false), "{d:?}");
        }
    }
}
