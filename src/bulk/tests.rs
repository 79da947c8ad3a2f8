//! The billing sheet's reading and checking, row by row and column by column.

use super::*;

fn rows(lines: &[&[&str]]) -> Rows {
    lines.iter().map(|l| l.to_vec()).collect()
}

fn by_id(text: &str) -> Result<String, Why> {
    match text {
        "Distribuidora" => Ok("cus_big".into()),
        t if t.starts_with("cus_") => Ok(t.into()),
        t => Err(Why::CustomerNotFound(t.into())),
    }
}

fn plan_of(file: &Rows, reading: Option<Currency>, ignore: bool) -> Plan {
    plan(
        file,
        &PlanInput {
            file_id: "abc",
            currencies: &Currency::DEFAULT_OFFERED,
            reading,
            resolve: &by_id,
            mapping: None,
            ignore_unknown_columns: ignore,
        },
    )
}

#[test]
fn headers_in_spanish_amounts_in_the_files_style_and_totals_per_currency() {
    let file = rows(&[
        &[
            "Cliente",
            "Monto",
            "Moneda",
            "Vencimiento",
            "Referencia",
            "metadata.centro",
        ],
        &["cus_a", "$1.234.567", "", "31-12-2026", "ERP-1", "Ñuñoa"],
        &["Distribuidora", "12,3456", "CLF", "", "", ""],
        &["cus_b", "12.3456", "clf", "2026-12-31", "", ""],
        &["", "", "", "", "", ""],
    ]);
    let p = plan_of(&file, Some(Currency::CLP), false);
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    assert_eq!(p.rows.len(), 3);
    assert_eq!(p.rows[0].invoice.amount.to_string(), "1234567");
    assert_eq!(p.rows[0].invoice.due_date.as_deref(), Some("2026-12-31"));
    assert_eq!(
        p.rows[0].invoice.metadata.as_ref().unwrap()["centro"],
        "Ñuñoa"
    );
    assert_eq!(p.rows[1].invoice.customer, "cus_big");
    // A row without a reference gets one from what it issues; the one older
    // versions gave it (from the file's digest and the row) is kept beside it.
    let made = p.rows[1].invoice.invoice_external_id.as_deref().unwrap();
    assert!(made.starts_with("BULK-") && made.ends_with("-1"), "{made}");
    assert_eq!(made, format!("BULK-{}-1", content_key(&p.rows[1].invoice)));
    assert_eq!(p.rows[1].legacy_reference.as_deref(), Some("BULK-abc-3"));
    assert_eq!(
        p.rows[0].invoice.invoice_external_id.as_deref(),
        Some("ERP-1")
    );
    assert_eq!(p.rows[0].legacy_reference, None);
    assert_eq!(p.rows[2].invoice.amount.to_string(), "12.3456");
    let totals = p.totals();
    assert_eq!(totals[""], (1, Decimal::from(1_234_567)));
    assert_eq!(totals["CLF"], (2, "24.6912".parse().unwrap()));
    assert_eq!(p.customers(), 3);
}

#[test]
fn every_problem_is_named_by_row_and_column() {
    let file = rows(&[
        &[
            "customer",
            "amount",
            "currency_code",
            "due_date",
            "external_id",
        ],
        &["Nadie", "1000", "", "", "R-1"],
        &["cus_a", "0", "", "", "R-2"],
        &["cus_a", "1.000,5", "", "31-02-2026", "R-3"],
        &["cus_a", "10", "USD", "", "R-1"],
        &["cus_a", "12.345", "CLF", "", "R-5"],
    ]);
    let p = plan_of(&file, Some(Currency::CLP), false);
    let text: Vec<String> = p.problems.iter().map(crate::i18n::bulk_problem).collect();
    assert_eq!(p.rows.len(), 0, "{text:#?}");
    assert_eq!(p.invalid_rows, [2, 3, 4, 5, 6]);
    let said = |row: usize, field: &str| -> Vec<&str> {
        p.problems
            .iter()
            .zip(&text)
            .filter(|(p, _)| p.row == row && crate::i18n::bulk_problem(p).starts_with(field))
            .map(|(_, t)| t.as_str())
            .collect()
    };
    assert_eq!(
        said(2, "customer:"),
        ["customer: No customer \"Nadie\" in the customer directory."]
    );
    assert_eq!(
        said(3, "amount:"),
        ["amount: The amount must be greater than zero."]
    );
    assert!(said(4, "due_date:")[0].contains("February 2026 has no day 31"));
    assert!(said(5, "currency_code:")[0].contains("\"USD\" is not one"));
    assert_eq!(
        said(5, "external_id:"),
        ["external_id: The reference R-1 is already in row 2."]
    );
    // Both readings told apart in English (the decimal one with its point).
    assert!(
        said(6, "amount:")[0].contains("\"12.345\" is ambiguous: it could be 12,345 or 12.345."),
        "{text:#?}"
    );
}

#[test]
fn unknown_or_missing_columns_stop_everything() {
    let file = rows(&[&["cliente", "monto", "color"], &["cus_a", "1000", "rojo"]]);
    let p = plan_of(&file, None, false);
    assert_eq!(
        crate::i18n::bulk_problem(&p.problems[0]),
        "Columns not recognised: color. Choose a field for them, or \"Not used\"."
    );
    let p = plan_of(&file, None, true);
    assert_eq!(p.rows.len(), 1);
    let p = plan_of(&rows(&[&["monto"], &["5"]]), None, false);
    assert!(matches!(p.problems[0].why, Why::NoCustomerColumn));
}
#[test]
fn a_changed_mapping_reads_unknown_columns_and_refuses_a_field_twice() {
    let file = rows(&[
        &["Cliente", "Importe", "Centro de costo", "Notas"],
        &["cus_a", "1.500", "Ñuñoa", "x"],
    ]);
    let detected = detect_all(&file.header());
    assert_eq!(
        detected,
        [
            ColumnUse::Field(Field::Customer),
            ColumnUse::Unrecognised,
            ColumnUse::Unrecognised,
            ColumnUse::Unrecognised
        ]
    );
    let with = |mapping: &[ColumnUse]| {
        plan(
            &file,
            &PlanInput {
                file_id: "f",
                currencies: &Currency::DEFAULT_OFFERED,
                reading: Some(Currency::CLP),
                resolve: &by_id,
                mapping: Some(mapping),
                ignore_unknown_columns: false,
            },
        )
    };
    let p = with(&detected);
    assert!(matches!(&p.problems[0].why, Why::UnknownColumns(c) if c.len() == 3));
    let mapped = [
        ColumnUse::Field(Field::Customer),
        ColumnUse::Field(Field::Amount),
        ColumnUse::Field(Field::Metadata),
        ColumnUse::Ignore,
    ];
    let p = with(&mapped);
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    assert_eq!(p.rows[0].invoice.amount, Decimal::from(1500));
    assert_eq!(
        p.rows[0].invoice.metadata.as_ref().unwrap()["Centro de costo"],
        "Ñuñoa"
    );
    let twice = [
        ColumnUse::Field(Field::Customer),
        ColumnUse::Field(Field::Amount),
        ColumnUse::Field(Field::Amount),
        ColumnUse::Ignore,
    ];
    let p = with(&twice);
    assert!(matches!(p.problems[0].why, Why::TwiceMapped(Field::Amount)));
    assert!(p.header_refused() && p.rows.is_empty());
}

/// A month's rows as (customer, amount in cents of a peso … written plainly, due
/// day, product, centre): identical rows on purpose (few values to pick from).
fn month() -> impl proptest::strategy::Strategy<Value = Vec<(u8, u16, u8, u8, u8)>> {
    proptest::collection::vec((0u8..3, 1u16..4, 0u8..3, 0u8..2, 0u8..2), 1..25)
}

/// The file for `rows` in one of several layouts: header words, column order, an
/// extra ignored column, amounts with or without thousands dots.
fn layout(rows: &[(u8, u16, u8, u8, u8)], variant: u8, order: &[usize]) -> Rows {
    let headers: [&[&str]; 2] = [
        &[
            "cliente",
            "monto",
            "vencimiento",
            "producto",
            "metadata.centro",
        ],
        &[
            "customer",
            "amount",
            "fecha de vencimiento",
            "product",
            "metadata.centro",
        ],
    ];
    let mut out = vec![
        headers[(variant % 2) as usize]
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>(),
    ];
    if variant >= 2 {
        out[0].push("notas".into());
    }
    for &i in order {
        let (c, a, d, p, m) = rows[i];
        let amount = u32::from(a) * 1500;
        let amount = if variant % 2 == 1 {
            amount.to_string()
        } else {
            crate::api::money::format_amount(Decimal::from(amount), Some("CLP"))
        };
        let mut line = vec![
            format!("cus_{c}"),
            amount,
            if d == 0 {
                String::new()
            } else {
                format!("{:02}-12-2026", d * 10)
            },
            if p == 0 {
                String::new()
            } else {
                "prod_a".into()
            },
            if m == 0 {
                String::new()
            } else {
                "Ñuñoa".into()
            },
        ];
        if variant >= 2 {
            line.push(format!("nota {i}"));
        }
        out.push(line);
    }
    out.into_iter().collect()
}

fn references(file: &Rows) -> Vec<(String, String)> {
    let p = plan(
        file,
        &PlanInput {
            file_id: "f",
            currencies: &Currency::DEFAULT_OFFERED,
            reading: Some(Currency::CLP),
            resolve: &by_id,
            mapping: None,
            ignore_unknown_columns: true,
        },
    );
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    let mut v: Vec<(String, String)> = p
        .rows
        .iter()
        .map(|r| {
            let mut inv = r.invoice.clone();
            let reference = inv.invoice_external_id.take().unwrap();
            // What is invoiced: metadata is not part of it (rows alike but for their
            // metadata are told apart by their order, as identical rows are).
            inv.metadata = None;
            (reference, inv.to_json().unwrap().to_string())
        })
        .collect();
    v.sort();
    v
}

proptest::proptest! {
    #[test]
    fn row_references_follow_the_content_not_the_file(
        rows in month(),
        variant in 0u8..4,
        seed in proptest::prelude::any::<u64>(),
    ) {
        let straight: Vec<usize> = (0..rows.len()).collect();
        let mut shuffled = straight.clone();
        // A re-sorted copy: any order of the same rows.
        let mut x = seed | 1;
        for i in (1..shuffled.len()).rev() {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            shuffled.swap(i, (x % (i as u64 + 1)) as usize);
        }
        let first = references(&layout(&rows, 0, &straight));
        let again = references(&layout(&rows, variant, &shuffled));
        // The same references for the same invoices, whatever the layout and order.
        proptest::prop_assert_eq!(&first, &again);
        // Distinct for distinct rows, identical rows included (by occurrence).
        let mut refs: Vec<&String> = first.iter().map(|(r, _)| r).collect();
        refs.dedup();
        proptest::prop_assert_eq!(refs.len(), rows.len());
    }
}
