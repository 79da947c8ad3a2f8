//! The workbook as Excel and LibreOffice read it: cells, types, sizes, summaries.

use super::*;
use calamine::{Data, Reader, Xlsx, open_workbook};
use std::str::FromStr;

fn inv(v: serde_json::Value) -> Invoice {
    Invoice::from_value(v).unwrap()
}

#[test]
fn exact_doubles_stop_at_15_digits() {
    for ok in [
        "0",
        "1",
        "123456789012345",
        "0.0001",
        "1234567890.1234",
        "-12.5",
    ] {
        let d = Decimal::from_str(ok).unwrap();
        let x = exact_double(d).unwrap();
        assert_eq!(
            Decimal::from_str(&x.to_string()).unwrap(),
            d.normalize(),
            "{ok}"
        );
    }
    for no in [
        "1234567890123456",
        "12345678901.23456",
        "0.1234567890123456",
    ] {
        assert_eq!(exact_double(Decimal::from_str(no).unwrap()), None, "{no}");
    }
}

#[test]
fn formats_of_the_currencies() {
    assert_eq!(currency_format(Some("CLP")).unwrap(), "$#,##0");
    assert_eq!(currency_format(Some("CLF")).unwrap(), "\"UF \"#,##0.0000");
    assert_eq!(currency_format(Some("XYZ")), None);
}

#[test]
fn the_workbook_reads_back_exactly() {
    let rows = [
        inv(
            serde_json::json!({"id": "in_1", "customer": "cus_1", "due_date": "2026-09-01",
            "amount": 1234567, "currency_code": "CLP", "is_paid": false, "is_void": false,
            "invoice_external_id": "=HYPERLINK(\"http://x\")", "centro": "@SUM(A1)",
            "urgent": true}),
        ),
        inv(
            serde_json::json!({"id": "in_2", "customer": "cus_1", "due_date": "2026-11-30",
            "amount": "12.3456", "currency_code": "CLF", "is_paid": true, "is_void": false,
            "created_at": "2026-11-20T15:04:05Z"}),
        ),
        inv(
            serde_json::json!({"id": "in_3", "customer": "cus_1", "due_date": "not a day",
            "amount": "1234567890123456789", "currency_code": "CLP", "is_paid": false,
            "is_void": false}),
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.xlsx");
    let about = About {
        customer: "cus_1",
        customer_name: Some("+Comercial Andes"),
        today: NaiveDate::from_ymd_opt(2026, 11, 23).unwrap(),
        lang: crate::i18n::Lang::En,
    };
    let w = write_file(&path, rows.iter(), &about, &AtomicBool::new(false)).unwrap();
    assert_eq!(
        w,
        Written {
            rows: 3,
            as_text: 1,
            cut: 0
        }
    );
    let mut book: Xlsx<_> = open_workbook(&path).unwrap();
    assert_eq!(book.sheet_names(), vec!["Invoices", "Summary"]);
    let range = book.worksheet_range("Invoices").unwrap();
    let header: Vec<String> = range
        .rows()
        .next()
        .unwrap()
        .iter()
        .map(|c| c.to_string())
        .collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{name} in {header:?}"))
    };
    let cell = |r: usize, name: &str| range.get((r, col(name))).cloned().unwrap_or(Data::Empty);
    assert_eq!(cell(1, "Amount"), Data::Float(1234567.0));
    let Data::Float(uf) = cell(2, "Amount") else {
        panic!("{:?}", cell(2, "Amount"))
    };
    assert_eq!(
        Decimal::from_str(&uf.to_string()).unwrap(),
        Decimal::from_str("12.3456").unwrap()
    );
    // Too many digits for a double: exact text.
    assert_eq!(
        cell(3, "Amount"),
        Data::String("1234567890123456789".into())
    );
    let Data::DateTime(due) = cell(1, "Due date") else {
        panic!("{:?}", cell(1, "Due date"))
    };
    // Excel's day number: days since 1899-12-30.
    let epoch = NaiveDate::from_ymd_opt(1899, 12, 30).unwrap();
    let want = (NaiveDate::from_ymd_opt(2026, 9, 1).unwrap() - epoch).num_days();
    assert_eq!(due.as_f64(), want as f64);
    assert_eq!(cell(3, "Due date"), Data::String("not a day".into()));
    assert_eq!(cell(1, "Paid"), Data::Bool(false));
    assert_eq!(cell(2, "Paid"), Data::Bool(true));
    assert_eq!(cell(1, "urgent"), Data::Bool(true));
    check_currency_and_created(&cell, epoch);
    assert_eq!(cell(1, "Status"), Data::String("Overdue".into()));
    assert_eq!(cell(1, "Days overdue"), Data::Float(83.0));
    assert_eq!(cell(2, "Status"), Data::String("Paid".into()));
    assert_eq!(cell(2, "Days overdue"), Data::Empty);
    // Injection payloads are text, never formulas.
    assert_eq!(
        cell(1, "External reference"),
        Data::String("'=HYPERLINK(\"http://x\")".into())
    );
    assert_eq!(cell(1, "centro"), Data::String("'@SUM(A1)".into()));
    assert_eq!(
        cell(1, "Customer name"),
        Data::String("'+Comercial Andes".into())
    );
    assert!(book.worksheet_formula("Invoices").unwrap().is_empty());
    assert!(book.worksheet_formula("Summary").unwrap().is_empty());
    let summary = book.worksheet_range("Summary").unwrap();
    let lines: Vec<Vec<Data>> = summary.rows().map(|r| r.to_vec()).collect();
    let find = |a: &str, b: &str| {
        lines
            .iter()
            .find(|l| {
                l.first() == Some(&Data::String(a.into()))
                    && l.get(1) == Some(&Data::String(b.into()))
            })
            .cloned()
            .unwrap_or_else(|| panic!("{a} {b} in {lines:?}"))
    };
    let clp_61 = find("CLP", "61–90 days");
    assert_eq!(clp_61[2], Data::Float(1.0));
    assert_eq!(clp_61[3], Data::Float(1234567.0));
    // Not past due (no readable due date): current.
    let clp_now = find("CLP", "Current");
    assert_eq!(clp_now[3], Data::String("1234567890123456789".into()));
    // A paid invoice is not owed: no aging lines for UF.
    assert!(
        !lines
            .iter()
            .any(|l| l.first() == Some(&Data::String("UF".into()))
                && l.get(1) == Some(&Data::String("Current".into())))
    );
    let uf_month = lines
        .iter()
        // The currency as a clerk reads it.
        .find(|l| l.get(1) == Some(&Data::String("UF".into())))
        .unwrap();
    assert_eq!(
        uf_month[2..],
        [Data::Float(12.3456), Data::Float(12.3456), Data::Float(0.0)]
    );
    assert!(
        lines[2][0]
            .to_string()
            .starts_with("1 amount is written as text")
    );
    let styles = std::fs::read(&path).unwrap();
    let text = zip_text(&styles, "xl/styles.xml");
    assert!(text.contains("formatCode=\"$#,##0\""), "{text}");
    assert!(
        text.contains("formatCode=\"&quot;UF &quot;#,##0.0000\""),
        "{text}"
    );
}

/// #68: the currency as a clerk says it, and when it was created as a date and time of
/// this computer (the service's UTC text read).
fn check_currency_and_created(cell: &dyn Fn(usize, &str) -> Data, epoch: NaiveDate) {
    assert_eq!(cell(2, "Currency"), Data::String("UF".into()));
    let Data::DateTime(created) = cell(2, "Created") else {
        panic!("{:?}", cell(2, "Created"))
    };
    let local = chrono::DateTime::parse_from_rfc3339("2026-11-20T15:04:05Z")
        .unwrap()
        .with_timezone(&chrono::Local)
        .naive_local();
    let days = (local - epoch.and_hms_opt(0, 0, 0).unwrap()).num_seconds() as f64 / 86_400.0;
    assert!((created.as_f64() - days).abs() < 1e-6, "{created:?} {days}");
    assert_eq!(cell(1, "Created"), Data::Empty);
}

#[test]
fn texts_longer_than_a_cell_are_cut_and_said() {
    // 40,000 characters, some of them two UTF-16 units long.
    let long = format!("{}{}", "x".repeat(32_000), "😀".repeat(8_000));
    let rows = [inv(
        serde_json::json!({"id": "in_1", "nota": long, "amount": 5,
        "currency_code": "CLP"}),
    )];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.xlsx");
    let about = About {
        customer: "cus_1",
        customer_name: None,
        today: NaiveDate::from_ymd_opt(2026, 11, 23).unwrap(),
        lang: crate::i18n::Lang::En,
    };
    let w = write_file(&path, rows.iter(), &about, &AtomicBool::new(false)).unwrap();
    assert_eq!(w.cut, 1);
    let mut book: Xlsx<_> = open_workbook(&path).unwrap();
    let range = book.worksheet_range("Invoices").unwrap();
    let header: Vec<String> = range
        .rows()
        .next()
        .unwrap()
        .iter()
        .map(|c| c.to_string())
        .collect();
    let col = header.iter().position(|h| h == "nota").unwrap();
    let Data::String(cell) = range.get((1, col)).unwrap() else {
        panic!()
    };
    assert!(cell.ends_with('…'));
    assert!(cell.encode_utf16().count() <= MAX_CELL_TEXT);
    assert!(long.starts_with(cell.trim_end_matches('…')));
    let summary = book.worksheet_range("Summary").unwrap();
    assert!(summary.rows().any(|r| {
        r[0].to_string()
            .starts_with("1 text is longer than an Excel cell")
    }));
    // A service that invents a field per invoice is refused, not written sideways.
    let many: Vec<Invoice> = (0..1002)
        .map(|i| inv(serde_json::json!({"id": format!("in_{i}"), format!("f{i}"): 1})))
        .collect();
    let e = write_file(&path, many.iter(), &about, &AtomicBool::new(false)).unwrap_err();
    assert!(
        e.to_string().contains("more than 1000 different fields"),
        "{e}"
    );
}

/// One file of the workbook's zip, as text.
fn zip_text(bytes: &[u8], name: &str) -> String {
    use std::io::Read;
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut s = String::new();
    z.by_name(name).unwrap().read_to_string(&mut s).unwrap();
    s
}
