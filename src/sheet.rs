//! Reading a spreadsheet the clerk made into rows of text: CSV (comma or semicolon,
//! detected; UTF-8 with or without a BOM, else Windows-1252) or Excel `.xlsx` (the first
//! sheet, or a named one). Numbers in Excel cells are written back as their shortest
//! exact text (a cell 12.3456 reads "12.3456"), never rounded to a format; date cells as
//! the day, ISO.

use std::path::Path;

/// The rows of the file, the header first.
pub fn read_rows(path: &Path, sheet: Option<&str>) -> Result<Vec<Vec<String>>, String> {
    let is_xlsx = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"));
    if is_xlsx {
        return read_xlsx(path, sheet);
    }
    if sheet.is_some() {
        return Err("a sheet can be named only for an Excel (.xlsx) file".into());
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let text = decode_text(&bytes);
    let text = text.trim_start_matches('\u{feff}');
    let first_line = text.lines().next().unwrap_or("");
    let delimiter = if first_line.matches(';').count() > first_line.matches(',').count() {
        b';'
    } else {
        b','
    };
    csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.map(|r| r.iter().map(str::to_string).collect()))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())
}

fn read_xlsx(path: &Path, sheet: Option<&str>) -> Result<Vec<Vec<String>>, String> {
    use calamine::{Data, Reader, Xlsx, open_workbook};
    let mut book: Xlsx<_> = open_workbook(path).map_err(|e: calamine::XlsxError| e.to_string())?;
    let name = match sheet {
        Some(s) => book
            .sheet_names()
            .into_iter()
            .find(|n| n == s)
            .ok_or_else(|| format!("the workbook has no sheet named \"{s}\""))?,
        None => book
            .sheet_names()
            .first()
            .cloned()
            .ok_or("the workbook has no sheet")?,
    };
    let range = book.worksheet_range(&name).map_err(|e| e.to_string())?;
    Ok(range
        .rows()
        .map(|r| {
            r.iter()
                .map(|c| match c {
                    // Rust writes the shortest text that reads back as the same number.
                    Data::Float(f) => format!("{f}"),
                    // A date cell is a day number with a date format: read as the day
                    // (ISO), not as the number.
                    Data::DateTime(d) if d.is_datetime() => {
                        let (y, m, day, h, min, sec, ms) = d.to_ymd_hms_milli();
                        if (h, min, sec, ms) == (0, 0, 0, 0) {
                            format!("{y:04}-{m:02}-{day:02}")
                        } else {
                            format!("{y:04}-{m:02}-{day:02} {h:02}:{min:02}:{sec:02}")
                        }
                    }
                    other => other.to_string(),
                })
                .collect()
        })
        .collect())
}

/// UTF-8 when it is; otherwise Windows-1252 (what Excel on Windows saves as "CSV").
pub fn decode_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| windows_1252(b)).collect(),
    }
}

fn windows_1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    match b {
        0x80..=0x9f => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(read_rows(&p, None).unwrap(), [["a", "b"], ["1,5", "2"]]);
        std::fs::write(&p, "a,b\n\"1,5\",2\n").unwrap();
        assert_eq!(read_rows(&p, None).unwrap(), [["a", "b"], ["1,5", "2"]]);
        assert!(read_rows(&p, Some("Hoja1")).is_err());
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
        book.save(&p).unwrap();
        let rows = read_rows(&p, Some("Enero")).unwrap();
        assert_eq!(rows[1], ["cus_a", "12.3456", "CLF", "2026-12-31"]);
        assert_eq!(rows[2], ["cus_b", "$1.234.567", "", "5-1-2027"]);
        assert_eq!(rows[3][1], "1234567");
        assert!(read_rows(&p, Some("Febrero")).is_err());
    }
}
