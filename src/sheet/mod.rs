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

mod csv;
mod xlsx;

pub use csv::decode_text;
use csv::read_csv;
use sha2::Digest;
use std::io::{BufRead, Read};
use std::path::Path;
pub use xlsx::excel_number;
use xlsx::{check_workbook, read_xlsx};

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

/// Why a spreadsheet was not read, said in the clerk's language by `i18n::sheet_error`
/// (`Display` is for engineers).
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

crate::engineers_text!(SheetError);

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

#[cfg(test)]
mod tests {
    use super::csv::*;
    use super::xlsx::*;
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
