//! An Excel workbook read under limits: its zip checked part by part before calamine
//! sees it (parts, sizes once uncompressed, tags, texts, shared strings declared), then
//! its cells as text (numbers as their shortest exact text, dates as ISO days).

use super::*;

/// Checks a workbook's zip before the Excel reader sees it (that reader trusts the sizes
/// and counts a file declares): how many parts (from the zip's own directory record),
/// how large each is once really uncompressed (read to the end, never trusting the
/// declared size), how long any XML tag or text is, and how many shared texts the
/// workbook declares and holds.
pub(super) fn check_workbook(bytes: &[u8], limits: &Limits) -> Result<(), SheetError> {
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
pub(super) fn declared_parts(bytes: &[u8]) -> Option<u64> {
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
pub(super) struct XmlScan {
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
pub(super) fn declared_count(head: &[u8]) -> Option<u64> {
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

pub(super) fn read_xlsx(
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
