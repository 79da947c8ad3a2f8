//! The streamed CSV writer: rows written as they arrive (a listing's pages), under a
//! header that may still grow; at the end the file is put in place, rewritten under the
//! final header only when a row brought a new column.

use super::*;

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
            body: RowWriter {
                // Only a file that is to replace the user's is put on the disk (a spool
                // is read back and removed).
                write_back: replacing.is_some().then(|| (dialect.bom().len() as u64, 0)),
                ..RowWriter::new(file, dialect)
            },
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
pub(super) struct RowWriter {
    /// The CSV not yet written to the file; it ends with the record being made.
    buf: String,
    file: std::fs::File,
    delimiter: u8,
    /// Where the record being made begins in `buf`, and how many fields it has.
    record_start: usize,
    fields: usize,
    /// A cell being quoted.
    scratch: String,
    /// For a file that replaces the user's: bytes written, and up to where the system was
    /// asked to start writing them to the disk (see [`WRITEBACK_STEP`]).
    write_back: Option<(u64, u64)>,
}

/// How much a file that replaces the user's is written before the system is asked to put
/// it on the disk (`fsutil::start_writeback`): the final sync then waits for at most about
/// this much.
const WRITEBACK_STEP: u64 = 4 * 1024 * 1024;

/// Whether the cell at the end of `text`, from `start`, holds the delimiter, a quote or a
/// line break: what makes the csv crate quote it. (memchr's scans: a byte-by-byte loop was
/// most of the writer's work.)
pub(super) fn needs_quotes(text: &[u8], start: usize, delimiter: u8) -> bool {
    let cell = &text[start..];
    memchr::memchr3(b'"', b'\r', b'\n', cell).is_some() || memchr::memchr(delimiter, cell).is_some()
}

/// How much CSV [`RowWriter`] holds before it writes to its file.
pub(super) const ROWS_BUFFER: usize = 256 * 1024;

impl RowWriter {
    fn new(file: std::fs::File, dialect: Dialect) -> RowWriter {
        RowWriter {
            buf: String::with_capacity(ROWS_BUFFER + 4096),
            file,
            delimiter: dialect.delimiter(),
            record_start: 0,
            fields: 0,
            scratch: String::new(),
            write_back: None,
        }
    }

    /// Writes the buffer to the file (it is then empty).
    fn flush_buf(&mut self) -> std::io::Result<()> {
        self.file.write_all(self.buf.as_bytes())?;
        if let Some((written, asked)) = &mut self.write_back {
            *written += self.buf.len() as u64;
            if *written - *asked >= WRITEBACK_STEP {
                crate::fsutil::start_writeback(&self.file, *asked, *written - *asked);
                *asked = *written;
            }
        }
        self.buf.clear();
        Ok(())
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
            self.flush_buf()?;
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
        self.flush_buf()?;
        Ok(self.file)
    }
}

/// The rows of a [`StreamingCsv`], as written: what reading them back needs.
pub(super) struct Spooled {
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
