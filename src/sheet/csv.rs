//! A CSV file read under limits: its delimiter found, its text decoded (UTF-8 with or
//! without a BOM, else Windows-1252), its bytes watched as they arrive (`CsvGuard`).

use super::*;

pub(super) fn read_csv(
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
    // `::csv` is the csv crate (this module shares its name).
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(guard);
    let mut record = ::csv::ByteRecord::new();
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
pub(super) enum Quoting {
    FieldStart,
    Unquoted,
    Quoted,
    QuoteInQuoted,
}

/// The bytes of a CSV file on their way to the parser: hashed (the digest is of what was
/// parsed), and watched so that no field, row or quote can make the parser hold more than
/// the limits allow — the parser buffers a whole field before it hands a row over, so an
/// unclosed quote or a 50 MB cell is stopped here, while it grows.
pub(super) struct CsvGuard<R> {
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
