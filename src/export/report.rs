//! A billing run's results, one line per row of the file: CSV ([`CSV_HEADER`], for
//! programs and the CLI's `--report`) or Excel (for people: the caller's words for
//! headers and statuses). Each line names the row's customer and amount, so it can be
//! matched back to the file.
//! Text cells are guarded against formula injection in both.

use crate::bulk::run::Status;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One row of the results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The row as the spreadsheet numbers it.
    pub row: usize,
    /// Its reference ("" when the row was not valid enough to have one).
    pub reference: String,
    /// The status word (`created`, `refused`, …) or, in Excel, the caller's words.
    pub status: String,
    /// The invoice's id, when there is one.
    pub invoice_id: String,
    /// What went wrong, in words.
    pub error: String,
    /// The row's customer id (so a row can be matched back), when the row read.
    pub customer: String,
    /// The customer's name from the directory, when known.
    pub customer_name: String,
    /// The amount, exact (`1341000`, `33.0956`), when the row read.
    pub amount: String,
    /// The currency code sent ("" for the account's).
    pub currency: String,
}

impl Line {
    /// The line of a settled row; `error` is the caller's words for what went wrong.
    pub fn of(row: usize, reference: &str, status: &Status, error: String) -> Line {
        Line {
            row,
            reference: reference.to_string(),
            status: status.word().to_string(),
            invoice_id: status.invoice_id().unwrap_or_default().to_string(),
            error,
            ..Line::default()
        }
    }

    /// This line with what its row issues: customer (and name), amount, currency.
    pub fn about(mut self, invoice: &crate::api::NewInvoice, name: Option<&str>) -> Line {
        self.customer = invoice.customer.clone();
        self.customer_name = name.unwrap_or("").to_string();
        self.amount = invoice.amount.normalize().to_string();
        self.currency = invoice
            .currency
            .currency()
            .map(|c| c.code().to_string())
            .unwrap_or_default();
        self
    }
}

/// The CSV header (the last four columns came later: readers by name keep working).
pub const CSV_HEADER: [&str; 9] = [
    "row",
    "invoice_external_id",
    "status",
    "invoice_id",
    "error",
    "customer",
    "customer_name",
    "amount",
    "currency_code",
];

/// Writes the results as CSV to `target` (resolved by `fsutil::check_destination`).
pub fn write_csv(target: &Path, lines: &[Line]) -> std::io::Result<()> {
    crate::fsutil::write_user_file(target, |w| {
        let mut csv = csv::Writer::from_writer(w);
        csv.write_record(CSV_HEADER)?;
        for l in lines {
            csv.write_record([
                l.row.to_string().as_str(),
                &crate::text::guard_text(&l.reference),
                &l.status,
                // The service's id: as hostile as any text it sends.
                &crate::text::guard_text(&l.invoice_id),
                &crate::text::guard_text(&l.error),
                &crate::text::guard_text(&l.customer),
                &crate::text::guard_text(&l.customer_name),
                &l.amount,
                &l.currency,
            ])?;
        }
        csv.flush()
    })
}

/// Writes the results as an Excel workbook to `target`: one sheet named `sheet`, the
/// `header` frozen and filterable, the row number a number, everything else text.
pub fn write_xlsx(
    target: &Path,
    sheet: &str,
    header: [&str; 9],
    lines: &[Line],
) -> std::io::Result<()> {
    use rust_xlsxwriter::{Format, Workbook};
    let err = |e: rust_xlsxwriter::XlsxError| std::io::Error::other(e.to_string());
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    ws.set_name(sheet).map_err(err)?;
    let bold = Format::new().set_bold();
    // A text longer than a cell holds is cut, ends in "…" and is marked, as the
    // workbook export does (the CSV keeps it whole).
    let marked =
        Format::new().set_background_color(rust_xlsxwriter::Color::RGB(super::xlsx::MARKED));
    for (c, h) in header.iter().enumerate() {
        ws.write_string_with_format(0, c as u16, *h, &bold)
            .map_err(err)?;
    }
    for (i, l) in lines.iter().enumerate() {
        let r = u32::try_from(i + 1).map_err(std::io::Error::other)?;
        ws.write_number(r, 0, l.row as f64).map_err(err)?;
        // write_string never makes a formula; the guard keeps the text the same as
        // the CSV's and safe if the cell is edited.
        for (c, text) in [
            &l.reference,
            &l.status,
            &l.invoice_id,
            &l.error,
            &l.customer,
            &l.customer_name,
        ]
        .into_iter()
        .enumerate()
        {
            if !text.is_empty() {
                let guarded = crate::text::guard_text(text);
                let (fitted, cut) = super::xlsx::fit(&guarded);
                if cut {
                    ws.write_string_with_format(r, c as u16 + 1, fitted, &marked)
                } else {
                    ws.write_string(r, c as u16 + 1, fitted)
                }
                .map_err(err)?;
            }
        }
    }
    // The amount as a number when a double holds it exactly, else as text; the code.
    for (i, l) in lines.iter().enumerate() {
        let r = u32::try_from(i + 1).map_err(std::io::Error::other)?;
        if let Ok(a) = l.amount.parse::<rust_decimal::Decimal>() {
            match super::xlsx::exact_double(a) {
                Some(f) => ws.write_number(r, 7, f).map_err(err)?,
                None => ws.write_string(r, 7, &l.amount).map_err(err)?,
            };
        }
        if !l.currency.is_empty() {
            ws.write_string(r, 8, &l.currency).map_err(err)?;
        }
    }
    ws.set_freeze_panes(1, 0).map_err(err)?;
    let last = u32::try_from(lines.len()).unwrap_or(u32::MAX);
    ws.autofilter(0, 0, last, 8).map_err(err)?;
    for (c, width) in [8.0, 28.0, 16.0, 24.0, 60.0, 18.0, 32.0, 14.0, 10.0]
        .into_iter()
        .enumerate()
    {
        ws.set_column_width(c as u16, width).map_err(err)?;
    }
    let bytes = book.save_to_buffer().map_err(err)?;
    crate::fsutil::write_user_file(target, |w| w.write_all(&bytes))
}

/// Where the results of `input` go, beside it: `enero.xlsx` →
/// `enero-<suffix>-2026-11-23-1405.csv` (never an existing file's name).
pub fn beside(input: &Path, suffix: &str, ext: &str, now: chrono::NaiveDateTime) -> PathBuf {
    let stem = input
        .file_stem()
        .map_or("bulk".into(), |s| s.to_string_lossy().into_owned());
    let dir = input.parent().unwrap_or(Path::new(""));
    let stamp = now.format("%Y-%m-%d-%H%M");
    let mut path = dir.join(format!("{stem}-{suffix}-{stamp}.{ext}"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{stem}-{suffix}-{stamp}-{n}.{ext}"));
        n += 1;
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines() -> Vec<Line> {
        vec![
            Line {
                row: 2,
                reference: "=HYPERLINK(\"x\")".into(),
                status: "created".into(),
                invoice_id: "in_1".into(),
                customer: "cus_a".into(),
                customer_name: "Comercial Ñuñoa".into(),
                amount: "1341000".into(),
                currency: "CLP".into(),
                ..Line::default()
            },
            Line {
                row: 3,
                reference: "R-3".into(),
                status: "refused".into(),
                error: "-bad".into(),
                ..Line::default()
            },
        ]
    }

    #[test]
    fn csv_and_excel_results_read_back_with_formulas_as_text() {
        let dir = tempfile::tempdir().unwrap();
        let csv_path = dir.path().join("r.csv");
        write_csv(&csv_path, &lines()).unwrap();
        let text = std::fs::read_to_string(&csv_path).unwrap();
        assert_eq!(
            text,
            "row,invoice_external_id,status,invoice_id,error,customer,customer_name,amount,currency_code\n\
             2,\"'=HYPERLINK(\"\"x\"\")\",created,in_1,,cus_a,Comercial Ñuñoa,1341000,CLP\n\
             3,R-3,refused,,'-bad,,,,\n"
        );
        let x = dir.path().join("r.xlsx");
        write_xlsx(&x, "Resultados", CSV_HEADER, &lines()).unwrap();
        use calamine::{Data, Reader, Xlsx, open_workbook};
        let mut book: Xlsx<_> = open_workbook(&x).unwrap();
        assert_eq!(book.sheet_names(), ["Resultados"]);
        let range = book.worksheet_range("Resultados").unwrap();
        assert_eq!(range.get((1, 0)), Some(&Data::Float(2.0)));
        assert_eq!(
            range.get((1, 1)),
            Some(&Data::String("'=HYPERLINK(\"x\")".into()))
        );
        assert_eq!(range.get((2, 4)), Some(&Data::String("'-bad".into())));
        assert_eq!(range.get((0, 2)), Some(&Data::String("status".into())));
        assert_eq!(
            range.get((1, 6)),
            Some(&Data::String("Comercial Ñuñoa".into()))
        );
        assert_eq!(range.get((1, 7)), Some(&Data::Float(1_341_000.0)));
        assert!(book.worksheet_formula("Resultados").unwrap().is_empty());
    }

    #[test]
    fn results_go_beside_the_input_and_never_over_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("enero.xlsx");
        let at = chrono::NaiveDate::from_ymd_opt(2026, 11, 23)
            .unwrap()
            .and_hms_opt(14, 5, 0)
            .unwrap();
        let first = beside(&input, "resultados", "csv", at);
        assert_eq!(
            first,
            dir.path().join("enero-resultados-2026-11-23-1405.csv")
        );
        std::fs::write(&first, "x").unwrap();
        let second = beside(&input, "resultados", "csv", at);
        assert_eq!(
            second,
            dir.path().join("enero-resultados-2026-11-23-1405-2.csv")
        );
    }
}
