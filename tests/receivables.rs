//! `invoice-desk receivables`: the whole book against the sandbox, every amount checked
//! against the customers' own listings; a customer whose listing fails is said as such.

mod cli_env;

use cli_env::{Env, exits, text};
use invoice_desk::receivables::aging::Standing;
use rust_decimal::Decimal;
use std::collections::BTreeMap;

const AS_OF: &str = "2026-11-24";

/// What `customer` owes per currency, from its own listing.
fn owed(e: &Env, customer: &str) -> (BTreeMap<String, Decimal>, Option<u32>) {
    let out = e
        .oauth()
        .args(["list", customer, "--format", "json"])
        .output()
        .unwrap();
    exits(&out, 0);
    let invoices: Vec<invoice_desk::api::Invoice> = serde_json::from_slice(&out.stdout).unwrap();
    let day = chrono::NaiveDate::parse_from_str(AS_OF, "%Y-%m-%d").unwrap();
    let mut by = BTreeMap::new();
    let mut oldest = None;
    for i in &invoices {
        let s = Standing::of(i, day);
        if s.bucket().is_some() {
            *by.entry(i.currency_code.clone().unwrap())
                .or_insert(Decimal::ZERO) += i.amount.unwrap();
        }
        if let Standing::Overdue(d) = s {
            oldest = Some(oldest.map_or(d, |o: u32| o.max(d)));
        }
    }
    (by, oldest)
}

/// The sandbox's customers in the directory, as a clerk imports them.
fn imported(e: &Env) -> Vec<(String, String)> {
    let customers: Vec<(String, String)> =
        e.s.customers()
            .into_iter()
            .filter(|c| c.2 > 0)
            .map(|c| (c.0, c.1))
            .collect();
    let file = e.dir.path().join("directorio.csv");
    let mut body = String::from("id,nombre\n");
    for (id, name) in &customers {
        body.push_str(&format!("{id},\"{name}\"\n"));
    }
    std::fs::write(&file, body).unwrap();
    let out = e
        .oauth()
        .args(["customers", "import"])
        .arg(&file)
        .output()
        .unwrap();
    exits(&out, 0);
    customers
}

#[test]
fn every_known_customer_is_listed_with_exact_amounts_per_currency() {
    let e = Env::new(0);
    let customers = imported(&e);
    let out = e
        .oauth()
        .args(["receivables", "--as-of", AS_OF, "--json"])
        .output()
        .unwrap();
    exits(&out, 0);
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows.len(), customers.len());
    for (id, name) in &customers {
        let row = rows.iter().find(|r| r["customer"] == id.as_str()).unwrap();
        assert_eq!(row["name"], name.as_str());
        let (by, oldest) = owed(&e, id);
        for (code, sum) in &by {
            let got: Decimal = row["owed"][code]["owed"].as_str().unwrap().parse().unwrap();
            assert_eq!(got, *sum, "{id} {code}");
        }
        assert_eq!(
            row["owed"].as_object().unwrap().len(),
            by.len(),
            "{id}: {row}"
        );
        assert_eq!(row["oldest_overdue_days"].as_u64(), oldest.map(u64::from));
    }
    // The text table, in Spanish: amounts as the app writes them, totals per currency.
    let out = e
        .oauth()
        .args(["--lang", "es", "receivables", "--as-of", AS_OF])
        .output()
        .unwrap();
    exits(&out, 0);
    let said = text(&out.stdout);
    let (by, _) = owed(&e, &customers[0].0);
    for (code, sum) in &by {
        assert!(
            said.contains(&invoice_desk::api::money::format_amount(*sum, Some(code))),
            "{said}"
        );
    }
    assert!(
        said.contains("Total CLP: $") && said.contains("Total CLF: UF "),
        "{said}"
    );
}

#[test]
fn a_customer_that_cannot_be_listed_is_said_as_such_never_as_owing_nothing() {
    let e = Env::new(0);
    let customers = imported(&e);
    let list = e.dir.path().join("clientes.txt");
    std::fs::write(&list, format!("{}\ncus_no_existe\n", customers[0].0)).unwrap();
    let out = e
        .oauth()
        .args([
            "--lang",
            "es",
            "receivables",
            "--as-of",
            AS_OF,
            "--customers",
        ])
        .arg(&list)
        .output()
        .unwrap();
    exits(&out, 4);
    let said = text(&out.stdout);
    let line = said.lines().find(|l| l.contains("cus_no_existe")).unwrap();
    assert!(line.contains("no se pudo consultar"), "{said}");
    assert!(!line.contains("nada adeudado"));
    assert!(
        text(&out.stderr).contains("1 cliente no se pudo consultar"),
        "{}",
        text(&out.stderr)
    );
    // In the CSV too: its problem, no amount.
    let csv = e.dir.path().join("cartera.csv");
    let out = e
        .oauth()
        .args(["receivables", "--as-of", AS_OF, "--customers"])
        .arg(&list)
        .arg("--out")
        .arg(&csv)
        .output()
        .unwrap();
    exits(&out, 4);
    let body = std::fs::read_to_string(&csv).unwrap();
    let row = body
        .lines()
        .find(|l| l.starts_with("cus_no_existe"))
        .unwrap();
    assert_eq!(
        row,
        "cus_no_existe,,,,,,,,,,,,There is no customer with id cus_no_existe."
    );
}

#[test]
fn the_filters_keep_only_what_is_overdue_long_enough() {
    let e = Env::new(0);
    let customers = imported(&e);
    let csv = e.dir.path().join("vencidas.csv");
    let out = e
        .oauth()
        .args([
            "receivables",
            "--as-of",
            AS_OF,
            "--older-than",
            "60",
            "--out",
        ])
        .arg(&csv)
        .output()
        .unwrap();
    exits(&out, 0);
    let body = std::fs::read_to_string(&csv).unwrap();
    assert!(body.starts_with("customer,name,rut,currency,current,days_1_30,days_31_60,days_61_90,over_90,owed,oldest_overdue_days,last_invoice,problem"));
    for (id, _) in &customers {
        let (_, oldest) = owed(&e, id);
        let listed = body.lines().any(|l| l.starts_with(id.as_str()));
        assert_eq!(listed, oldest.is_some_and(|d| d > 60), "{id}: {oldest:?}");
    }
    // Neither CSV nor a workbook: refused before anything is asked.
    let out = e
        .oauth()
        .args(["receivables", "--out", "cartera.pdf"])
        .output()
        .unwrap();
    exits(&out, 2);
}

/// The workbook: the receivables sheet has each customer's owed amounts as numbers, the
/// second sheet every invoice owed (read back with calamine).
#[test]
fn the_workbook_has_the_book_and_every_invoice_owed() {
    use calamine::{Data, Reader, Xlsx};
    let e = Env::new(0);
    let customers = imported(&e);
    let book = e.dir.path().join("cartera.xlsx");
    let out = e
        .oauth()
        .args(["receivables", "--as-of", AS_OF, "--out"])
        .arg(&book)
        .output()
        .unwrap();
    exits(&out, 0);
    let mut wb: Xlsx<_> = calamine::open_workbook(&book).unwrap();
    assert_eq!(wb.sheet_names(), ["Receivables", "Invoices owed"]);
    let sheet = wb.worksheet_range("Receivables").unwrap();
    let mut owed_invoices = 0;
    for (id, _) in &customers {
        let (by, _) = owed(&e, id);
        for (code, sum) in &by {
            let row = sheet
                .rows()
                // The currency as a clerk reads it: UF, not CLF.
                .find(|r| {
                    let shown = if code == "CLF" { "UF" } else { code.as_str() };
                    r[0] == Data::String(id.clone()) && r[3] == Data::String(shown.into())
                })
                .unwrap_or_else(|| panic!("{id} {code}"));
            let got = match &row[9] {
                Data::Float(f) => *f,
                other => panic!("{other:?}"),
            };
            let want: f64 = sum.to_string().parse().unwrap();
            assert!((got - want).abs() < 1e-6, "{id} {code}: {got} vs {want}");
        }
        let out = e
            .oauth()
            .args(["list", id, "--format", "json"])
            .output()
            .unwrap();
        let invoices: Vec<invoice_desk::api::Invoice> =
            serde_json::from_slice(&out.stdout).unwrap();
        let day = chrono::NaiveDate::parse_from_str(AS_OF, "%Y-%m-%d").unwrap();
        owed_invoices += invoices
            .iter()
            .filter(|i| Standing::of(i, day).bucket().is_some())
            .count();
    }
    let invoices = wb.worksheet_range("Invoices owed").unwrap();
    assert_eq!(invoices.rows().count() - 1, owed_invoices);
}
