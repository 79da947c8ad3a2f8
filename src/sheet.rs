//! Reading a spreadsheet the clerk made into rows of text: CSV (comma or semicolon,
//! detected; UTF-8 with or without a BOM, else Windows-1252) or Excel `.xlsx` (the first
//! sheet, or a named one). Numbers in Excel cells are written back as their shortest
//! exact text (a cell 12.3456 reads "12.3456"), never rounded to a format; date cells as
//! the day, ISO.
//!
//! Every file is hostile until checked: it must be a regular file of at most
//! [`Limits::file_bytes`]; a workbook's zip is checked part by part (how many, how large
//! once uncompressed — actually, not as declared —, how long a tag or a text, how many
//! shared texts it declares) before the Excel reader sees it; rows, columns, cells and a
//! cell's length are counted as the file is read, and the first limit passed stops the
//! reading with a [`SheetError`] that names it. Rows are handed over as they are read
//! ([`read_each`]) or kept compactly ([`Rows`]); the file is read once, and its digest
//! comes from the same bytes.

use sha2::Digest;
use std::io::{BufRead, Read};
use std::path::Path;

/// How much of a file is read. A real month (a few thousand rows, a dozen columns) fits
/// with room to spare; an attack stops at the first limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Size on disk.
    pub file_bytes: u64,
    /// Rows, the header included.
    pub rows: usize,
    /// Columns of one row.
    pub columns: usize,
    /// Cells in all (each row counted as wide as its last cell).
    pub cells: usize,
    /// Characters in one cell (Excel's own limit).
    pub cell_chars: usize,
    /// A workbook's parts once uncompressed, together.
    pub uncompressed: u64,
    /// Parts in a workbook's zip.
    pub parts: usize,
}

/// The limits every spreadsheet is read under.
pub const LIMITS: Limits = Limits {
    file_bytes: 100 * 1024 * 1024,
    rows: 200_001,
    columns: 200,
    cells: 4_000_000,
    cell_chars: 32_767,
    uncompressed: 256 * 1024 * 1024,
    parts: 10_000,
};

/// Why a spreadsheet was not read. `Display` is English (the CLI); the app says it in the
/// clerk's language (`i18n::sheet_error`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SheetError {
    /// It could not be opened or read (the system's reason).
    Unreadable(String),
    /// A folder, a pipe, a device: not a file to read.
    NotAFile,
    /// Larger than [`Limits::file_bytes`].
    TooLarge(u64),
    /// More rows than [`Limits::rows`] (the header included).
    TooManyRows(usize),
    /// A row wider than [`Limits::columns`].
    TooManyColumns {
        /// The row (as the spreadsheet numbers it).
        row: usize,
        /// The limit.
        limit: usize,
    },
    /// More cells than [`Limits::cells`].
    TooManyCells(usize),
    /// A cell longer than [`Limits::cell_chars`].
    CellTooLong {
        /// The row.
        row: usize,
        /// The column (1-based).
        column: usize,
        /// The limit.
        limit: usize,
    },
    /// A quote opened in this row is never closed (CSV).
    UnclosedQuote(usize),
    /// A workbook whose parts, uncompressed, pass [`Limits::uncompressed`] (a zip bomb).
    Uncompressed(u64),
    /// A workbook of more than [`Limits::parts`] parts.
    TooManyParts(usize),
    /// Not an `.xlsx` workbook (or a damaged one; the reader's words).
    NotAWorkbook(String),
    /// The workbook has no sheet of that name.
    NoSuchSheet(String),
    /// The workbook has no sheet.
    NoSheet,
    /// A sheet was named for a CSV file.
    SheetOfCsv,
}

impl std::fmt::Display for SheetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mb = |b: u64| b / (1024 * 1024);
        match self {
            SheetError::Unreadable(why) => write!(f, "it cannot be read ({why})"),
            SheetError::NotAFile => write!(f, "it is not a file (a folder, a pipe or a device)"),
            SheetError::TooLarge(l) => write!(
                f,
                "it is larger than {} MB, the most a spreadsheet may be",
                mb(*l)
            ),
            SheetError::TooManyRows(l) => write!(
                f,
                "it has more than {} rows, the most a file may have",
                l - 1
            ),
            SheetError::TooManyColumns { row, limit } => {
                write!(
                    f,
                    "row {row} has more than {limit} columns, the most a file may have"
                )
            }
            SheetError::TooManyCells(l) => {
                write!(f, "it has more than {l} cells, the most a file may have")
            }
            SheetError::CellTooLong { row: 0, limit, .. } => write!(
                f,
                "a text in the workbook is longer than {limit} characters, the most a cell may hold"
            ),
            SheetError::CellTooLong { row, column, limit } => write!(
                f,
                "row {row}, column {column}: a cell is longer than {limit} characters, the most a cell may hold"
            ),
            SheetError::UnclosedQuote(row) => {
                write!(f, "row {row}: a quote (\") opened there is never closed")
            }
            SheetError::Uncompressed(l) => write!(
                f,
                "the workbook uncompresses to more than {} MB, the most accepted (it may be a zip bomb)",
                mb(*l)
            ),
            SheetError::TooManyParts(l) => write!(f, "the workbook has more than {l} parts"),
            SheetError::NotAWorkbook(why) => write!(
                f,
                "it is not an Excel .xlsx workbook, or it is damaged ({why})"
            ),
            SheetError::NoSuchSheet(s) => write!(
                f,
                "the workbook has no sheet named \"{}\"",
                crate::text::escape_controls(s)
            ),
            SheetError::NoSheet => write!(f, "the workbook has no sheet"),
            SheetError::SheetOfCsv => {
                write!(f, "a sheet can be named only for an Excel (.xlsx) file")
            }
        }
    }
}

impl std::error::Error for SheetError {}

/// One row: its cells' text in one string, with where each cell ends, and which cells
/// were numbers in the workbook (a number cell is a number, not text typed the Chilean
/// way: `23.193` there is twenty-three point one nine three).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    text: Box<str>,
    ends: Box<[u32]>,
    numbers: Box<[u16]>,
}

impl Row {
    /// A row of these cells.
    pub fn of<S: AsRef<str>>(cells: impl IntoIterator<Item = S>) -> Row {
        let mut text = String::new();
        let mut ends = Vec::new();
        for c in cells {
            text.push_str(c.as_ref());
            ends.push(u32::try_from(text.len()).unwrap_or(u32::MAX));
        }
        Row {
            text: text.into_boxed_str(),
            ends: ends.into_boxed_slice(),
            numbers: Box::default(),
        }
    }

    /// A row of these cells, the cells at `numbers` (0-based) being number cells.
    pub fn with_numbers<S: AsRef<str>>(
        cells: impl IntoIterator<Item = S>,
        numbers: Vec<u16>,
    ) -> Row {
        Row {
            numbers: numbers.into_boxed_slice(),
            ..Row::of(cells)
        }
    }

    /// True when cell `i` was a number cell in a workbook.
    pub fn is_number(&self, i: usize) -> bool {
        self.numbers.iter().any(|&n| usize::from(n) == i)
    }

    /// How many cells.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True without cells.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Cell `i` (0-based).
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)? as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        self.text.get(start..end)
    }

    /// The cells.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// True when every cell is blank.
    pub fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }

    /// The cells as owned text.
    pub fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }
}

/// A spreadsheet's rows, the header first, kept compactly.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rows {
    rows: Vec<Row>,
}

impl Rows {
    /// How many rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True without rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Row `i` (0-based: the header is 0).
    pub fn get(&self, i: usize) -> Option<&Row> {
        self.rows.get(i)
    }

    /// The rows.
    pub fn iter(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter()
    }

    /// The header's cells (none when there are no rows).
    pub fn header(&self) -> Vec<String> {
        self.rows.first().map(Row::to_vec).unwrap_or_default()
    }

    /// Adds a row.
    pub fn push(&mut self, row: Row) {
        self.rows.push(row);
    }
}

impl<S: AsRef<str>> FromIterator<Vec<S>> for Rows {
    fn from_iter<I: IntoIterator<Item = Vec<S>>>(iter: I) -> Rows {
        Rows {
            rows: iter.into_iter().map(Row::of).collect(),
        }
    }
}

/// A file read: its rows, and the digest of its bytes (`bulk::file_id`'s).
pub struct Sheet {
    /// The rows, the header first.
    pub rows: Rows,
    /// The first 10 hex digits of the file's SHA-256.
    pub digest: String,
}

/// Reads the whole file into [`Rows`] (the app keeps them to show), under [`LIMITS`].
pub fn read_rows(path: &Path, sheet: Option<&str>) -> Result<Sheet, SheetError> {
    let mut rows = Rows::default();
    let digest = read_each(path, sheet, &LIMITS, |_, row| {
        rows.push(row);
        Ok(())
    })?;
    Ok(Sheet { rows, digest })
}

/// Reads `path` under `limits`, handing each row to `each` as it is read (its number,
/// 1-based from the first row read, which is the header), and returns the file's digest.
/// `each`'s error stops the reading.
pub fn read_each(
    path: &Path,
    sheet: Option<&str>,
    limits: &Limits,
    mut each: impl FnMut(usize, Row) -> Result<(), SheetError>,
) -> Result<String, SheetError> {
    let file = open_regular(path, limits)?;
    let is_xlsx = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"));
    let mut counter = Counter::new(limits);
    if is_xlsx {
        let mut bytes = Vec::new();
        file.take(limits.file_bytes + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| SheetError::Unreadable(e.to_string()))?;
        if bytes.len() as u64 > limits.file_bytes {
            return Err(SheetError::TooLarge(limits.file_bytes));
        }
        let digest = digest_of(sha2::Sha256::digest(&bytes).as_slice());
        check_workbook(&bytes, limits)?;
        read_xlsx(&bytes, sheet, &mut counter, &mut each)?;
        return Ok(digest);
    }
    if sheet.is_some() {
        return Err(SheetError::SheetOfCsv);
    }
    read_csv(file, limits, &mut counter, &mut each)
}

fn digest_of(hash: &[u8]) -> String {
    hash.iter().take(5).map(|b| format!("{b:02x}")).collect()
}

/// Opens `path` if it is a regular file within the size limit (a pipe would block, a
/// device never ends: refused before a byte is read).
fn open_regular(path: &Path, limits: &Limits) -> Result<std::fs::File, SheetError> {
    let unreadable = |e: std::io::Error| SheetError::Unreadable(e.to_string());
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(SheetError::NotAFile);
    }
    if meta.len() > limits.file_bytes {
        return Err(SheetError::TooLarge(limits.file_bytes));
    }
    let file = std::fs::File::open(path).map_err(unreadable)?;
    // The name may have been pointed elsewhere in between: what was opened decides.
    let meta = file.metadata().map_err(unreadable)?;
    if !meta.is_file() {
        return Err(SheetError::NotAFile);
    }
    if meta.len() > limits.file_bytes {
        return Err(SheetError::TooLarge(limits.file_bytes));
    }
    Ok(file)
}

/// Rows, cells and cell lengths, counted as rows are read.
struct Counter {
    limits: Limits,
    rows: usize,
    cells: usize,
}

impl Counter {
    fn new(limits: &Limits) -> Counter {
        Counter {
            limits: *limits,
            rows: 0,
            cells: 0,
        }
    }

    /// Checks one more row of these cells; its number.
    fn row<S: AsRef<str>>(&mut self, cells: &[S]) -> Result<usize, SheetError> {
        self.rows += 1;
        let row = self.rows;
        if row > self.limits.rows {
            return Err(SheetError::TooManyRows(self.limits.rows));
        }
        if cells.len() > self.limits.columns {
            return Err(SheetError::TooManyColumns {
                row,
                limit: self.limits.columns,
            });
        }
        self.cells += cells.len();
        if self.cells > self.limits.cells {
            return Err(SheetError::TooManyCells(self.limits.cells));
        }
        for (c, cell) in cells.iter().enumerate() {
            let cell = cell.as_ref();
            // Bytes first (cheap): only a long cell is counted in characters.
            if cell.len() > self.limits.cell_chars && cell.chars().count() > self.limits.cell_chars
            {
                return Err(SheetError::CellTooLong {
                    row,
                    column: c + 1,
                    limit: self.limits.cell_chars,
                });
            }
        }
        Ok(row)
    }
}

// ---- CSV ----

fn read_csv(
    file: std::fs::File,
    limits: &Limits,
    counter: &mut Counter,
    each: &mut impl FnMut(usize, Row) -> Result<(), SheetError>,
) -> Result<String, SheetError> {
    let mut input = std::io::BufReader::with_capacity(64 * 1024, file);
    // The delimiter from the start of the first line (as far as the buffer reaches).
    let head = input
        .fill_buf()
        .map_err(|e| SheetError::Unreadable(e.to_string()))?;
    let first_line = head.split(|b| *b == b'\n').next().unwrap_or(&[]);
    let count = |c: u8| first_line.iter().filter(|b| **b == c).count();
    let delimiter = if count(b';') > count(b',') {
        b';'
    } else {
        b','
    };
    let guard = CsvGuard::new(input, delimiter, limits);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(guard);
    let mut record = csv::ByteRecord::new();
    let mut first = true;
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                return Err(reader
                    .get_mut()
                    .stopped
                    .take()
                    .unwrap_or_else(|| SheetError::Unreadable(e.to_string())));
            }
        }
        let guard = reader.get_ref();
        if guard.eof && guard.in_quotes {
            return Err(SheetError::UnclosedQuote(guard.quote_row));
        }
        let mut cells: Vec<String> = record.iter().map(decode_text).collect();
        if first {
            first = false;
            if let Some(c) = cells.first_mut()
                && let Some(rest) = c.strip_prefix('\u{feff}')
            {
                *c = rest.to_string();
            }
        }
        let n = counter.row(&cells)?;
        each(n, Row::of(&cells))?;
    }
    let guard = reader.into_inner();
    if guard.in_quotes {
        return Err(SheetError::UnclosedQuote(guard.quote_row));
    }
    Ok(digest_of(guard.hash.finalize().as_slice()))
}

/// Where a CSV reader is in its input, as csv's own reader sees quotes: only at the
/// start of a field does a quote open a quoted field; inside it `""` is a quote.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quoting {
    FieldStart,
    Unquoted,
    Quoted,
    QuoteInQuoted,
}

/// The bytes of a CSV file on their way to the parser: hashed (the digest is of what was
/// parsed), and watched so that no field, row or quote can make the parser hold more than
/// the limits allow — the parser buffers a whole field before it hands a row over, so an
/// unclosed quote or a 50 MB cell is stopped here, while it grows.
struct CsvGuard<R> {
    inner: R,
    hash: sha2::Sha256,
    delimiter: u8,
    state: Quoting,
    /// Bytes of the field being read.
    field_bytes: usize,
    /// Fields of the record being read.
    fields: usize,
    /// Records begun (1-based: the row being read).
    row: usize,
    quote_row: usize,
    in_quotes: bool,
    eof: bool,
    max_field_bytes: usize,
    max_fields: usize,
    max_rows: usize,
    /// Why reading was stopped (the parser only sees an I/O error).
    stopped: Option<SheetError>,
}

impl<R> CsvGuard<R> {
    fn new(inner: R, delimiter: u8, limits: &Limits) -> CsvGuard<R> {
        CsvGuard {
            inner,
            hash: sha2::Sha256::new(),
            delimiter,
            state: Quoting::FieldStart,
            field_bytes: 0,
            fields: 1,
            row: 1,
            quote_row: 0,
            in_quotes: false,
            eof: false,
            // A character is at most 4 bytes in UTF-8 (a cell is counted in characters
            // once read).
            max_field_bytes: limits.cell_chars * 4,
            max_fields: limits.columns,
            max_rows: limits.rows,
            stopped: None,
        }
    }

    fn watch(&mut self, bytes: &[u8]) -> Result<(), SheetError> {
        for &b in bytes {
            let end_of_field = |s: &mut Self| {
                s.field_bytes = 0;
                s.fields += 1;
                if s.fields > s.max_fields {
                    return Err(SheetError::TooManyColumns {
                        row: s.row,
                        limit: s.max_fields,
                    });
                }
                Ok(Quoting::FieldStart)
            };
            let end_of_record = |s: &mut Self| {
                // "\r\n" and blank lines end no new row worth counting twice: a row is
                // counted when its first byte comes.
                s.field_bytes = 0;
                if s.fields > 1 || s.state != Quoting::FieldStart {
                    s.row += 1;
                    s.fields = 1;
                }
                if s.row > s.max_rows + 1 {
                    return Err(SheetError::TooManyRows(s.max_rows));
                }
                Ok(Quoting::FieldStart)
            };
            self.state = match (self.state, b) {
                (Quoting::Quoted, b'"') => Quoting::QuoteInQuoted,
                (Quoting::Quoted, _) => Quoting::Quoted,
                (Quoting::QuoteInQuoted, b'"') => Quoting::Quoted,
                (Quoting::FieldStart, b'"') => {
                    self.quote_row = self.row;
                    Quoting::Quoted
                }
                (_, b'\n' | b'\r') => end_of_record(self)?,
                (_, d) if d == self.delimiter => end_of_field(self)?,
                _ => Quoting::Unquoted,
            };
            self.in_quotes = self.state == Quoting::Quoted;
            self.field_bytes += 1;
            if self.field_bytes > self.max_field_bytes {
                return Err(if self.in_quotes {
                    SheetError::UnclosedQuote(self.quote_row)
                } else {
                    SheetError::CellTooLong {
                        row: self.row,
                        column: self.fields,
                        limit: self.max_field_bytes / 4,
                    }
                });
            }
        }
        Ok(())
    }
}

impl<R: Read> Read for CsvGuard<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.stopped.is_some() {
            return Err(std::io::Error::other("stopped"));
        }
        let n = self.inner.read(buf)?;
        if n == 0 {
            self.eof = true;
        }
        self.hash.update(&buf[..n]);
        if let Err(e) = self.watch(&buf[..n]) {
            self.stopped = Some(e);
            return Err(std::io::Error::other("stopped"));
        }
        Ok(n)
    }
}

/// UTF-8 when it is; otherwise Windows-1252 (what Excel on Windows saves as "CSV"), as
/// the WHATWG Encoding Standard reads it (every byte is a character; no error).
pub fn decode_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    }
}

// ---- XLSX ----

/// Checks a workbook's zip before the Excel reader sees it (that reader trusts the sizes
/// and counts a file declares): how many parts (from the zip's own directory record),
/// how large each is once really uncompressed (read to the end, never trusting the
/// declared size), how long any XML tag or text is, and how many shared texts the
/// workbook declares and holds.
fn check_workbook(bytes: &[u8], limits: &Limits) -> Result<(), SheetError> {
    let bad = |why: String| SheetError::NotAWorkbook(why);
    if !bytes.starts_with(b"PK\x03\x04") {
        // An older .xls, a password-protected workbook (an OLE file), or anything else.
        return Err(bad("not a zip file".into()));
    }
    let declared = declared_parts(bytes).ok_or_else(|| bad("no zip directory".into()))?;
    if declared > limits.parts as u64 {
        return Err(SheetError::TooManyParts(limits.parts));
    }
    let mut zip =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| bad(e.to_string()))?;
    if zip.len() > limits.parts {
        return Err(SheetError::TooManyParts(limits.parts));
    }
    let mut total: u64 = 0;
    let mut buf = vec![0u8; 64 * 1024];
    for i in 0..zip.len() {
        let mut part = zip.by_index(i).map_err(|e| bad(e.to_string()))?;
        if part.size() > limits.uncompressed {
            return Err(SheetError::Uncompressed(limits.uncompressed));
        }
        let name = part
            .name()
            .map(|n| n.to_ascii_lowercase())
            .unwrap_or_default();
        let xml = name.ends_with(".xml") || name.ends_with(".rels");
        let shared = name.ends_with("sharedstrings.xml");
        let mut scan = XmlScan::new(limits, shared);
        loop {
            let n = match part.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => return Err(bad(e.to_string())),
            };
            total += n as u64;
            if total > limits.uncompressed {
                return Err(SheetError::Uncompressed(limits.uncompressed));
            }
            if xml {
                scan.feed(&buf[..n])?;
            }
        }
    }
    Ok(())
}

/// The number of parts the zip's end-of-directory record declares (zip64 too).
fn declared_parts(bytes: &[u8]) -> Option<u64> {
    let tail_start = bytes.len().saturating_sub(65_557);
    let tail = &bytes[tail_start..];
    let at = tail.windows(4).rposition(|w| w == b"PK\x05\x06")?;
    let eocd = tail.get(at..at + 22)?;
    let count = u64::from(u16::from_le_bytes([eocd[10], eocd[11]]));
    if count != 0xffff {
        return Some(count);
    }
    // Zip64: the locator just before points at the zip64 record.
    let locator = tail.get(at.checked_sub(20)?..at)?;
    if &locator[..4] != b"PK\x06\x07" {
        return None;
    }
    let offset = u64::from_le_bytes(locator[8..16].try_into().ok()?) as usize;
    let record = bytes.get(offset..offset.checked_add(56)?)?;
    if &record[..4] != b"PK\x06\x06" {
        return None;
    }
    Some(u64::from_le_bytes(record[32..40].try_into().ok()?))
}

/// A pass over an XML part's bytes: no tag or text longer than a cell could need, and in
/// the shared texts, no more of them (declared or present) than cells allowed.
struct XmlScan {
    in_tag: bool,
    run: usize,
    max_tag: usize,
    max_text: usize,
    shared: bool,
    /// The start of the part, for the `<sst uniqueCount=…>` declaration.
    head: Vec<u8>,
    head_checked: bool,
    /// `<si` seen (a shared text each), and how far a `<si` match has come.
    items: usize,
    matched: usize,
    max_items: usize,
}

impl XmlScan {
    fn new(limits: &Limits, shared: bool) -> XmlScan {
        XmlScan {
            in_tag: false,
            run: 0,
            max_tag: 64 * 1024,
            // A character may be written as an entity (`&#x1F600;`, 10 bytes).
            max_text: limits.cell_chars * 10,
            shared,
            head: Vec::new(),
            head_checked: !shared,
            items: 0,
            matched: 0,
            max_items: limits.cells,
        }
    }

    fn feed(&mut self, bytes: &[u8]) -> Result<(), SheetError> {
        if !self.head_checked {
            self.head
                .extend_from_slice(&bytes[..bytes.len().min(4096 - self.head.len().min(4096))]);
            if self.head.len() >= 4096 || self.head.windows(4).any(|w| w == b"<si>" || w == b"<si ")
            {
                self.head_checked = true;
                if let Some(n) = declared_count(&self.head)
                    && n > self.max_items as u64
                {
                    return Err(SheetError::TooManyCells(self.max_items));
                }
            }
        }
        for &b in bytes {
            match b {
                b'<' => {
                    if !self.in_tag && self.run > self.max_text {
                        return Err(SheetError::CellTooLong {
                            row: 0,
                            column: 0,
                            limit: self.max_text / 10,
                        });
                    }
                    self.in_tag = true;
                    self.run = 0;
                }
                b'>' => {
                    self.in_tag = false;
                    self.run = 0;
                }
                _ => self.run += 1,
            }
            if self.in_tag && self.run > self.max_tag {
                return Err(SheetError::NotAWorkbook("a tag longer than 64 KB".into()));
            }
            if !self.in_tag && self.run > self.max_text {
                return Err(SheetError::CellTooLong {
                    row: 0,
                    column: 0,
                    limit: self.max_text / 10,
                });
            }
            if self.shared {
                const SI: &[u8] = b"<si";
                if b == SI[self.matched] {
                    self.matched += 1;
                    if self.matched == SI.len() {
                        self.matched = 0;
                        self.items += 1;
                        if self.items > self.max_items {
                            return Err(SheetError::TooManyCells(self.max_items));
                        }
                    }
                } else {
                    self.matched = usize::from(b == b'<');
                }
            }
        }
        Ok(())
    }
}

/// `uniqueCount` (else `count`) of the `<sst>` tag at the start of a shared-texts part.
fn declared_count(head: &[u8]) -> Option<u64> {
    let text = String::from_utf8_lossy(head);
    let sst = &text[text.find("<sst")?..];
    let tag = &sst[..sst.find('>').unwrap_or(sst.len())];
    ["uniqueCount=\"", "count=\""].iter().find_map(|attr| {
        let at = tag.find(attr)? + attr.len();
        let digits: String = tag[at..].chars().take_while(char::is_ascii_digit).collect();
        // More digits than a u64 holds is more than any limit.
        Some(digits.parse::<u64>().unwrap_or(u64::MAX))
    })
}

fn read_xlsx(
    bytes: &[u8],
    sheet: Option<&str>,
    counter: &mut Counter,
    each: &mut impl FnMut(usize, Row) -> Result<(), SheetError>,
) -> Result<(), SheetError> {
    use calamine::{DataRef, Reader, Xlsx};
    let bad = |e: calamine::XlsxError| SheetError::NotAWorkbook(e.to_string());
    let mut book: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes)).map_err(bad)?;
    let name = match sheet {
        Some(s) => book
            .sheet_names()
            .into_iter()
            .find(|n| n == s)
            .ok_or_else(|| SheetError::NoSuchSheet(s.to_string()))?,
        None => book
            .sheet_names()
            .first()
            .cloned()
            .ok_or(SheetError::NoSheet)?,
    };
    let mut cells = book.worksheet_cells_reader(&name).map_err(bad)?;
    let limits = counter.limits;
    // Rows are handed over from the first that holds a cell; a gap between rows is
    // blank rows, so rows keep the numbers the sheet gives them after the header.
    let mut first_row: Option<u32> = None;
    let mut current: Option<(u32, Vec<String>)> = None;
    let mut numbers: Vec<u16> = Vec::new();
    let mut flush = |row: Option<(u32, Vec<String>)>,
                     numbers: &mut Vec<u16>,
                     counter: &mut Counter|
     -> Result<(), SheetError> {
        if let Some((_, cells)) = row {
            let n = counter.row(&cells)?;
            each(n, Row::with_numbers(&cells, std::mem::take(numbers)))?;
        }
        Ok(())
    };
    while let Some(cell) = cells.next_cell().map_err(bad)? {
        let (r, c) = cell.get_position();
        if r as usize >= limits.rows {
            return Err(SheetError::TooManyRows(limits.rows));
        }
        if c as usize >= limits.columns {
            return Err(SheetError::TooManyColumns {
                row: r as usize + 1,
                limit: limits.columns,
            });
        }
        let mut number = false;
        let value = match cell.get_value() {
            DataRef::Empty => continue,
            DataRef::Float(f) => {
                number = true;
                excel_number(*f)
            }
            DataRef::Int(i) => {
                number = true;
                i.to_string()
            }
            // A date cell is a day number with a date format: read as the day (ISO),
            // not as the number.
            DataRef::DateTime(d) if d.is_datetime() => {
                let (y, m, day, h, min, sec, ms) = d.to_ymd_hms_milli();
                if (h, min, sec, ms) == (0, 0, 0, 0) {
                    format!("{y:04}-{m:02}-{day:02}")
                } else {
                    format!("{y:04}-{m:02}-{day:02} {h:02}:{min:02}:{sec:02}")
                }
            }
            other => calamine::Data::from(other.clone()).to_string(),
        };
        let first = *first_row.get_or_insert(r);
        if r < first || current.as_ref().is_some_and(|(cur, _)| r < *cur) {
            return Err(SheetError::NotAWorkbook("cells out of order".into()));
        }
        if current.as_ref().is_none_or(|(cur, _)| *cur != r) {
            let previous = current.take();
            let after = previous.as_ref().map_or(first, |(cur, _)| cur + 1);
            flush(previous, &mut numbers, counter)?;
            // Blank rows in between (counted like any row).
            for _ in after..r {
                flush(Some((0, Vec::new())), &mut Vec::new(), counter)?;
            }
            current = Some((r, Vec::new()));
        }
        if number {
            numbers.push(c as u16);
        }
        if let Some((_, row)) = current.as_mut() {
            let c = c as usize;
            if row.len() < c {
                row.resize(c, String::new());
            }
            if row.len() == c {
                row.push(value);
            } else {
                row[c] = value;
            }
        }
    }
    flush(current, &mut numbers, counter)
}

/// A number cell as text: the double Excel stores, to the 15 significant digits Excel
/// itself keeps and shows (`23.193`, not `23.193000000000001`; `1595.9`, not
/// `1595.8999999999999`), without trailing zeros; plain digits, never an exponent.
pub fn excel_number(f: f64) -> String {
    if !f.is_finite() {
        return f.to_string();
    }
    let rounded = format!("{f:.14e}");
    rust_decimal::Decimal::from_scientific(&rounded)
        .map(|d| d.normalize().to_string())
        // Beyond what a decimal holds (|f| > 7.9e28): Rust's own shortest text.
        .unwrap_or_else(|_| format!("{f}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(p: &Path, sheet: Option<&str>) -> Vec<Vec<String>> {
        read_rows(p, sheet)
            .unwrap()
            .rows
            .iter()
            .map(Row::to_vec)
            .collect()
    }

    #[test]
    fn windows_1252_text_is_read() {
        // "Ñuñoa;€" as Excel for Windows saves it.
        assert_eq!(
            decode_text(&[0xd1, b'u', 0xf1, b'o', b'a', b';', 0x80]),
            "Ñuñoa;€"
        );
        assert_eq!(decode_text("ñ".as_bytes()), "ñ");
    }

    #[test]
    fn semicolons_or_commas_and_a_bom() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.csv");
        std::fs::write(&p, "\u{feff}a;b\n1,5;2\n").unwrap();
        assert_eq!(rows(&p, None), [["a", "b"], ["1,5", "2"]]);
        std::fs::write(&p, "a,b\n\"1,5\",2\r\n\"x \"\"y\"\"\",\"multi\nline\"\n").unwrap();
        assert_eq!(
            rows(&p, None),
            [["a", "b"], ["1,5", "2"], ["x \"y\"", "multi\nline"]]
        );
        assert_eq!(
            read_rows(&p, Some("Hoja1")).err(),
            Some(SheetError::SheetOfCsv)
        );
        // The digest is of the file's bytes.
        let bytes = std::fs::read(&p).unwrap();
        assert_eq!(
            read_rows(&p, None).unwrap().digest,
            crate::bulk::file_id(&bytes)
        );
    }

    #[test]
    fn csv_limits_stop_the_reading_and_name_the_row() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.csv");
        let small = Limits {
            rows: 3,
            columns: 3,
            cells: 100,
            cell_chars: 10,
            ..LIMITS
        };
        let read = |body: &str| {
            std::fs::write(&p, body).unwrap();
            read_each(&p, None, &small, |_, _| Ok(())).err()
        };
        assert_eq!(read("a,b\n1,2\n3,4\n"), None);
        assert_eq!(
            read("a,b\n1,2\n3,4\n5,6\n"),
            Some(SheetError::TooManyRows(3))
        );
        assert_eq!(
            read("a,b,c,d\n"),
            Some(SheetError::TooManyColumns { row: 1, limit: 3 })
        );
        assert!(matches!(
            read("a,b\n1,\"2\n3,4\n5,6\n7,8,9\n"),
            Some(SheetError::UnclosedQuote(2))
        ));
        assert!(matches!(
            read(&format!("a,b\n1,{}\n", "x".repeat(11))),
            Some(SheetError::CellTooLong {
                row: 2,
                column: 2,
                ..
            })
        ));
        // A stray quote inside an unquoted field is text, as the parser reads it.
        assert_eq!(read("a,b\n1,2\"3\n"), None);
    }

    #[test]
    fn special_files_are_refused_before_they_are_opened() {
        #[cfg(unix)]
        {
            let dev = read_rows(Path::new("/dev/zero"), None).err();
            assert_eq!(dev, Some(SheetError::NotAFile));
        }
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            read_rows(dir.path(), None).err(),
            Some(SheetError::NotAFile)
        );
    }

    #[test]
    fn an_excel_file_with_number_text_and_date_cells_reads_exactly() {
        use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("facturas.xlsx");
        let mut book = Workbook::new();
        let ws = book.add_worksheet();
        ws.set_name("Enero").unwrap();
        for (c, h) in ["cliente", "monto", "moneda", "vencimiento"]
            .iter()
            .enumerate()
        {
            ws.write_string(0, c as u16, *h).unwrap();
        }
        let date = Format::new().set_num_format("dd-mm-yyyy");
        ws.write_string(1, 0, "cus_a").unwrap();
        ws.write_number(1, 1, 12.3456).unwrap();
        ws.write_string(1, 2, "CLF").unwrap();
        let day = ExcelDateTime::from_ymd(2026, 12, 31).unwrap();
        ws.write_datetime_with_format(1, 3, &day, &date).unwrap();
        ws.write_string(2, 0, "cus_b").unwrap();
        ws.write_string(2, 1, "$1.234.567").unwrap();
        ws.write_number(3, 1, 1234567.0).unwrap();
        ws.write_string(2, 3, "5-1-2027").unwrap();
        // A gap: row 6 is read as row 6.
        ws.write_string(5, 0, "cus_c").unwrap();
        book.save(&p).unwrap();
        let rows = rows(&p, Some("Enero"));
        assert_eq!(rows[1], ["cus_a", "12.3456", "CLF", "2026-12-31"]);
        assert_eq!(rows[2], ["cus_b", "$1.234.567", "", "5-1-2027"]);
        assert_eq!(rows[3], ["", "1234567"]);
        assert!(rows[4].is_empty());
        assert_eq!(rows[5], ["cus_c"]);
        assert_eq!(
            read_rows(&p, Some("Febrero")).err(),
            Some(SheetError::NoSuchSheet("Febrero".into()))
        );
    }

    #[test]
    fn a_declared_count_is_read_from_the_shared_texts_tag() {
        assert_eq!(
            declared_count(
                br#"<?xml?><sst xmlns="x" count="9" uniqueCount="4000000000000000000">"#
            ),
            Some(4_000_000_000_000_000_000)
        );
        assert_eq!(declared_count(br#"<sst count="12">"#), Some(12));
        assert_eq!(
            declared_count(br#"<sst uniqueCount="99999999999999999999999">"#),
            Some(u64::MAX)
        );
        assert_eq!(declared_count(b"<sst>"), None);
    }
}
