//! CSV export: golden files for both dialects, a round trip through the csv reader,
//! formula injection, CLF exactness, and an interrupted export that leaves the old file.
//! Regenerate the golden files with `UPDATE_GOLDEN=1 cargo test --test csv_export`
//! (then read them).

use invoice_desk::api::Invoice;
use invoice_desk::export::{self, Dialect};
use serde_json::json;
use std::sync::atomic::AtomicBool;

fn rows() -> Vec<Invoice> {
    [
        json!({"id": "in_1", "customer": "cus_1", "due_date": "2026-01-31", "amount": 1234567, "currency_code": "CLP",
               "is_paid": false, "is_void": false, "invoice_external_id": "ERP-1", "product_id": "prod_a",
               "metadata": {"centro": "Ñuñoa"}, "nota": "José, \"el jefe\""}),
        json!({"id": "in_2", "customer": "cus_1", "due_date": "2026-02-28", "amount": 12.3, "currency_code": "CLF",
               "is_paid": true, "is_void": false, "invoice_external_id": "=HYPERLINK(\"http://x\")"}),
        json!({"id": "in_3", "customer": "cus_1", "amount": "-1500", "currency_code": "CLP", "is_void": true,
               "invoice_external_id": "+56 9 1234", "zona": "@SUM(A1)", "linea": "a\nb"}),
        json!({"id": "in_4", "customer": "-cus", "amount": 0.0001, "currency_code": "CLF", "invoice_external_id": "\tTAB"}),
    ]
    .into_iter()
    .map(|v| Invoice::from_value(v).unwrap())
    .collect()
}

fn render(d: Dialect) -> Vec<u8> {
    let rows = rows();
    let mut out = Vec::new();
    export::write(&mut out, rows.iter(), d, &AtomicBool::new(false)).unwrap();
    out
}

fn golden(name: &str, bytes: &[u8]) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, bytes).unwrap();
    }
    let want = std::fs::read(&path)
        .unwrap_or_else(|_| panic!("missing {}; run with UPDATE_GOLDEN=1", path.display()));
    assert_eq!(
        String::from_utf8_lossy(bytes),
        String::from_utf8_lossy(&want),
        "{name} differs from the golden file"
    );
}

#[test]
fn standard_matches_golden() {
    golden("standard.csv", &render(Dialect::Standard));
}

#[test]
fn excel_es_matches_golden() {
    let bytes = render(Dialect::ExcelEs);
    assert!(bytes.starts_with(&[0xEF, 0xBB, 0xBF]), "UTF-8 BOM");
    golden("excel-es.csv", &bytes);
}

#[test]
fn round_trip_through_the_csv_reader() {
    for d in [Dialect::Standard, Dialect::ExcelEs] {
        let bytes = render(d);
        let body = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes);
        let mut r = csv::ReaderBuilder::new()
            .delimiter(if d == Dialect::Standard { b',' } else { b';' })
            .from_reader(body);
        let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
        // The standard CSV keeps the stable English names programs read; the one for
        // Excel in Spanish titles the same columns in the clerk's words.
        let fixed: Vec<&str> = match d {
            Dialect::Standard => export::fixed_columns(),
            Dialect::ExcelEs => vec![
                "Id",
                "Cliente",
                "Vencimiento",
                "Monto",
                "Moneda",
                "Estado",
                "Pagada",
                "Anulada",
                "Referencia externa",
            ],
        };
        assert_eq!(
            header[..9].iter().map(String::as_str).collect::<Vec<_>>(),
            fixed
        );
        let metadata = match d {
            Dialect::Standard => "metadata",
            Dialect::ExcelEs => "Metadatos",
        };
        assert!(header.contains(&"nota".to_string()) && header.contains(&metadata.to_string()));
        let recs: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        assert_eq!(recs.len(), 4);
        let named = |name: &str| -> String {
            match (d, name) {
                (Dialect::ExcelEs, "metadata") => "Metadatos".into(),
                (Dialect::ExcelEs, "amount") => "Monto".into(),
                (Dialect::ExcelEs, "status") => "Estado".into(),
                _ => name.into(),
            }
        };
        let col = |name: &str| header.iter().position(|h| *h == named(name)).unwrap();
        assert_eq!(&recs[0][col("nota")], "José, \"el jefe\"");
        assert_eq!(&recs[0][col("metadata")], r#"{"centro":"Ñuñoa"}"#);
        assert_eq!(&recs[2][col("linea")], "a\nb");
        let amount = |i: usize| recs[i][col("amount")].to_string();
        match d {
            Dialect::Standard => assert_eq!(
                [amount(0), amount(1), amount(2), amount(3)],
                ["1234567", "12.3000", "-1500", "0.0001"]
            ),
            Dialect::ExcelEs => assert_eq!(
                [amount(0), amount(1), amount(2), amount(3)],
                ["1234567", "12,3000", "-1500", "0,0001"]
            ),
        }
        let status: Vec<String> = recs.iter().map(|r| r[col("status")].to_string()).collect();
        for s in &status {
            let words: &[&str] = match d {
                Dialect::Standard => &["open", "paid", "void", "unknown"],
                Dialect::ExcelEs => &["Abierta", "Pagada", "Anulada", "Estado desconocido"],
            };
            assert!(words.contains(&s.as_str()), "{d:?}: {s}");
        }
    }
}

#[test]
fn formula_injection_is_neutralised_but_amounts_stay_numbers() {
    let text = String::from_utf8(render(Dialect::Standard)).unwrap();
    assert!(text.contains("\"'=HYPERLINK(\"\"http://x\"\")\""));
    assert!(text.contains("'+56 9 1234"));
    assert!(text.contains("'@SUM(A1)"));
    assert!(text.contains("'-cus"));
    assert!(text.contains("'\tTAB"));
    assert!(
        text.contains(",-1500,"),
        "a negative amount is still a number"
    );
}

/// A streamed export to a file that stops before it is finished (a listing that failed,
/// a full disk) or is cancelled leaves the old file and no temporary file.
#[test]
fn an_unfinished_streamed_export_leaves_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("facturas.csv");
    std::fs::write(&path, "old contents").unwrap();
    let only_old = || {
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old contents");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    };
    for (i, bring) in [false, true].into_iter().enumerate() {
        let mut s = export::StreamingCsv::to_file(Dialect::ExcelEs, &path).unwrap();
        for r in rows() {
            s.push(&r).unwrap();
        }
        if bring {
            // A row with a new column: finishing would write the file again.
            let odd = Invoice::from_value(json!({"id": "in_9", "zona": "sur"})).unwrap();
            s.push(&odd).unwrap();
        }
        if i == 0 {
            drop(s);
        } else {
            let err = s.finish_file(&AtomicBool::new(true)).unwrap_err();
            assert_eq!(err.kind(), std::io::ErrorKind::Interrupted);
        }
        only_old();
    }
}

#[test]
fn an_interrupted_export_leaves_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("facturas.csv");
    std::fs::write(&path, "old contents").unwrap();
    let many: Vec<Invoice> = (0..5000)
        .map(|i| {
            Invoice::from_value(
                json!({"id": format!("in_{i}"), "amount": i, "currency_code": "CLP"}),
            )
            .unwrap()
        })
        .collect();
    let cancelled = AtomicBool::new(true);
    let err =
        export::write_file(&path, many.iter(), Dialect::Standard, &cancelled, None).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::Interrupted);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old contents");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
    let n = export::write_file(
        &path,
        many.iter(),
        Dialect::Standard,
        &AtomicBool::new(false),
        None,
    )
    .unwrap();
    assert_eq!(n, 5000);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap().lines().count(),
        5001
    );
}

/// The streamed export (rows spooled to a temporary file, header written at the end)
/// gives the same bytes as the in-memory one, in both dialects, golden files included.
#[test]
fn the_streamed_export_is_byte_identical() {
    let mut all = rows();
    // Fields that collide with the optional columns' names, and unreadable amounts.
    for v in [
        json!({"id": "in_5", "amount": "1e40", "currency_code": "CLP", "product_id": 7, "zeta": [1, 2]}),
        json!({"id": "in_6", "amount": "12.5.5", "currency_code": "CLF", "status": "PAID", "link_payment": "https://p"}),
    ] {
        all.push(Invoice::from_value(v).unwrap());
    }
    for d in [Dialect::Standard, Dialect::ExcelEs] {
        let mut whole = Vec::new();
        export::write(&mut whole, all.iter(), d, &AtomicBool::new(false)).unwrap();
        let mut streamed = export::StreamingCsv::new(d).unwrap();
        for r in &all {
            streamed.push(r).unwrap();
        }
        let mut out = Vec::new();
        assert_eq!(
            streamed.finish(&mut out, &AtomicBool::new(false)).unwrap(),
            all.len() as u64
        );
        assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&whole),
            "{d:?}"
        );
    }
    let mut streamed = export::StreamingCsv::new(Dialect::Standard).unwrap();
    for r in rows() {
        streamed.push(&r).unwrap();
    }
    let mut out = Vec::new();
    streamed.finish(&mut out, &AtomicBool::new(false)).unwrap();
    golden("standard.csv", &out);
}

#[test]
fn an_unreadable_amount_takes_the_dialects_decimal_separator() {
    let inv =
        Invoice::from_value(json!({"id": "in_9", "amount": "1e40.5", "currency_code": "CLP"}))
            .unwrap();
    let big = Invoice::from_value(
        serde_json::from_str(
            r#"{"id": "in_8", "amount": 123456789012345678901234567890.5, "currency_code": "CLP"}"#,
        )
        .unwrap(),
    )
    .unwrap();
    assert!(big.amount.is_none(), "too large for exact arithmetic");
    let mut out = Vec::new();
    export::write(
        &mut out,
        [&inv, &big].into_iter(),
        Dialect::ExcelEs,
        &AtomicBool::new(false),
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains(";123456789012345678901234567890,5;"),
        "{text}"
    );
}

#[test]
fn too_many_distinct_fields_stop_a_streamed_export() {
    let mut streamed = export::StreamingCsv::new(Dialect::Standard).unwrap();
    let mut failed = false;
    for i in 0..=export::MAX_EXTRA_COLUMNS {
        let inv =
            Invoice::from_value(json!({"id": format!("in_{i}"), format!("f{i}"): 1})).unwrap();
        if streamed.push(&inv).is_err() {
            failed = true;
            break;
        }
    }
    assert!(
        failed,
        "a service inventing field names cannot grow the header forever"
    );
}

/// The streamed export of `rows`, with the customer's name and control characters
/// escaped or not. Made both ways (spooled, then written to any writer; straight to the
/// file it replaces), which must give the same bytes and leave no temporary file.
fn streamed(rows: &[Invoice], d: Dialect, name: Option<&str>, escape: bool) -> Vec<u8> {
    let start = |s: export::StreamingCsv| {
        let mut s = s
            .with_customer_name(name.map(str::to_string))
            .escaping_controls(escape);
        for r in rows {
            s.push(r).unwrap();
        }
        s
    };
    let mut out = Vec::new();
    let s = start(export::StreamingCsv::new(d).unwrap());
    assert_eq!(
        s.finish(&mut out, &AtomicBool::new(false)).unwrap(),
        rows.len() as u64
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("facturas.csv");
    std::fs::write(&path, "old contents").unwrap();
    let s = start(export::StreamingCsv::to_file(d, &path).unwrap());
    assert_eq!(
        s.finish_file(&AtomicBool::new(false)).unwrap(),
        rows.len() as u64
    );
    assert_eq!(
        String::from_utf8_lossy(&std::fs::read(&path).unwrap()),
        String::from_utf8_lossy(&out),
        "written to the file it replaces"
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
    out
}

fn records(csv_bytes: &[u8], d: Dialect) -> Vec<Vec<String>> {
    let text = String::from_utf8(csv_bytes.to_vec()).unwrap();
    let text = text.trim_start_matches('\u{feff}');
    csv::ReaderBuilder::new()
        .has_headers(false)
        .delimiter(if d == Dialect::Standard { b',' } else { b';' })
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// Control characters in cells, in a field's name and in the customer's name are escaped
/// for a terminal, whether the rows all have the same fields or not.
#[test]
fn a_streamed_export_for_a_terminal_escapes_every_cell() {
    let same = vec![
        Invoice::from_value(
            json!({"id": "in_1\u{1b}[2J", "customer": "cus\u{7}", "nota\u{8}": "a\u{0}b"}),
        )
        .unwrap(),
        Invoice::from_value(json!({"id": "in_2", "nota\u{8}": "c\u{1b}d", "amount": 5})).unwrap(),
    ];
    let mut mixed = same.clone();
    mixed.push(Invoice::from_value(json!({"id": "in_3", "otra": "x\u{9b}y"})).unwrap());
    for rows in [&same, &mixed] {
        let whole = {
            let mut out = Vec::new();
            export::write_named(
                &mut out,
                rows.iter(),
                Dialect::Standard,
                &AtomicBool::new(false),
                Some("Zoë\u{7}"),
            )
            .unwrap();
            records(&out, Dialect::Standard)
        };
        let shown = records(
            &streamed(rows, Dialect::Standard, Some("Zoë\u{7}"), true),
            Dialect::Standard,
        );
        let escaped: Vec<Vec<String>> = whole
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| invoice_desk::text::escape_controls(c).into_owned())
                    .collect()
            })
            .collect();
        assert_eq!(shown, escaped);
        assert!(
            shown
                .iter()
                .flatten()
                .all(|c| !c.chars().any(char::is_control))
        );
    }
}

mod streamed_props {
    use super::*;
    use proptest::prelude::*;

    fn cell() -> impl Strategy<Value = serde_json::Value> {
        prop_oneof![
            "[a-z ,;\"\\n\\r=-]{0,6}".prop_map(serde_json::Value::String),
            any::<i32>().prop_map(serde_json::Value::from),
            Just(serde_json::Value::Null),
            Just(json!({"k": [1, "a,b"]})),
        ]
    }

    /// One invoice with some of the optional known fields and some other fields.
    fn invoice() -> impl Strategy<Value = Invoice> {
        (
            0u32..100_000,
            prop::collection::vec(
                (
                    prop::sample::select(vec![
                        "product_id",
                        "link_payment",
                        "metadata",
                        "status",
                        "zona",
                        "nota",
                        "b",
                        "ñandú",
                        "amount",
                        "currency_code",
                    ]),
                    cell(),
                ),
                0..5,
            ),
        )
            .prop_map(|(n, fields)| {
                let mut m = serde_json::Map::new();
                m.insert("id".into(), json!(format!("in_{n}")));
                for (k, v) in fields {
                    m.insert(k.to_string(), v);
                }
                Invoice::from_value(serde_json::Value::Object(m)).unwrap()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Rows with the same fields, and rows that bring new columns as they come: the
        /// streamed bytes are the in-memory export's, in both dialects, with or without
        /// the customer's name.
        #[test]
        fn the_streamed_export_matches_the_in_memory_one(
            first in prop::collection::vec(invoice(), 1..20),
            repeat in 0usize..30,
            name in prop_oneof![Just(None), Just(Some("Comercial \"Ñuñoa\"; Ltda.")), Just(Some("=1+1"))],
        ) {
            // Repeating the first row makes long runs of rows with the same fields.
            let mut rows = first.clone();
            rows.extend(std::iter::repeat_n(first[0].clone(), repeat));
            for d in [Dialect::Standard, Dialect::ExcelEs] {
                let mut whole = Vec::new();
                export::write_named(&mut whole, rows.iter(), d, &AtomicBool::new(false), name)
                    .unwrap();
                let ours = streamed(&rows, d, name, false);
                prop_assert_eq!(
                    String::from_utf8_lossy(&ours),
                    String::from_utf8_lossy(&whole),
                    "{:?}", d
                );
            }
        }
    }
}

/// Empty metadata is written as the JSON it is, like any other object.
#[test]
fn empty_metadata_is_written_as_json() {
    let rows: Vec<Invoice> = [
        json!({"id": "in_1", "metadata": {}, "extra": []}),
        json!({"id": "in_2", "metadata": {"a": 1}, "extra": {}}),
    ]
    .into_iter()
    .map(|v| Invoice::from_value(v).unwrap())
    .collect();
    let out = streamed(&rows, Dialect::Standard, None, false);
    let recs = records(&out, Dialect::Standard);
    let col = |name: &str| recs[0].iter().position(|h| h == name).unwrap();
    assert_eq!(recs[1][col("metadata")], "{}");
    assert_eq!(recs[1][col("extra")], "[]");
    assert_eq!(recs[2][col("metadata")], "{\"a\":1}");
    assert_eq!(recs[2][col("extra")], "{}");
}

/// An export long enough for the file that replaces the user's to be handed to the disk
/// part by part as it is written (every 4 MiB, `fsutil::start_writeback`): the file put in
/// place is still, byte for byte, the export written to a writer.
#[test]
fn a_long_export_to_a_file_is_written_whole() {
    let rows: Vec<Invoice> = (0..80_000)
        .map(|i| {
            Invoice::from_value(json!({
                "id": format!("in_{i:06}"),
                "customer": "cus_big",
                "amount": i * 1000 + 7,
                "currency_code": "CLP",
                "is_paid": i % 3 == 0,
                "link_payment": format!("https://pay.example.invalid/in_{i:06}/a;b,\"c\""),
                "metadata": {"centro_costo": "Ñuñoa"},
                "created_at": "2024-06-15T12:00:00Z",
            }))
            .unwrap()
        })
        .collect();
    for d in [Dialect::Standard, Dialect::ExcelEs] {
        let out = streamed(&rows, d, Some("Cliente Grande"), false);
        // Past several steps of 4 MiB.
        assert!(out.len() > 12 * 1024 * 1024, "{}", out.len());
        assert_eq!(records(&out, d).len(), rows.len() + 1);
    }
}
