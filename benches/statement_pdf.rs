//! What making statements of account costs, without the network: `statement-pdf N M`
//! makes one statement of N owed invoices (each with a payment link and QR code) 21
//! times and prints the median, then M such statements (as `statements` would for M
//! customers) on two threads and prints the total. Used by benches/statements.sh.

use invoice_desk::pdf::{Statement, statement_pdf};
use std::time::Instant;

fn invoices(n: usize, customer: usize) -> Vec<invoice_desk::api::Invoice> {
    let v: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let clf = i % 3 == 0;
            serde_json::json!({
                "id": format!("in_{customer:04}_{i:06}"),
                "customer": format!("cus_{customer:04}"),
                "amount": if clf { serde_json::json!(format!("{}.{:04}", 10 + i % 90, i % 10_000)) } else { serde_json::json!(1000 * (1 + i % 5000)) },
                "currency_code": if clf { "CLF" } else { "CLP" },
                "due_date": format!("2026-{:02}-{:02}", 1 + i % 12, 1 + i % 28),
                "is_paid": false,
                "is_void": false,
                "invoice_external_id": format!("ERP-2026-{i:06}"),
                "link_payment": if std::env::var_os("NO_LINKS").is_some() { serde_json::Value::Null } else { serde_json::json!(format!("https://pay.example.cl/in_{customer:04}_{i:06}")) },
            })
        })
        .collect();
    serde_json::from_value(serde_json::Value::Array(v)).unwrap()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let m: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let sender = invoice_desk::profile::Sender {
        organization: "Servicios Ñandú SpA".into(),
        rut: "76.123.456-0".into(),
        payment_text: "Banco Estado, cuenta corriente 123-456-7.".into(),
        ..Default::default()
    };
    let as_of = chrono::NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
    let make = |customer: usize, list: &[invoice_desk::api::Invoice]| {
        let c = format!("cus_{customer:04}");
        statement_pdf(
            &Statement {
                lang: invoice_desk::i18n::Lang::Es,
                sender: &sender,
                customer: &c,
                name: Some("Comercial Ñuñoa Ltda."),
                rut: None,
                as_of,
                uf: None,
            },
            list,
            false,
        )
        .unwrap()
    };
    let list = invoices(n, 0);
    let mut took = Vec::new();
    let mut size = 0;
    let mut pages = 0;
    // STATEMENT_RUNS=1 makes one (for a memory profile).
    let runs: usize = std::env::var("STATEMENT_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(21);
    for _ in 0..runs {
        let t = Instant::now();
        let made = make(0, &list);
        took.push(t.elapsed().as_secs_f64() * 1000.0);
        size = made.pdf.len();
        pages = made.pages;
    }
    took.sort_by(f64::total_cmp);
    println!(
        "one statement of {n} invoices: median {:.1} ms ({pages} pages, {} KB)",
        took[took.len() / 2],
        size / 1024
    );
    if m > 0 {
        let lists: Vec<_> = (0..m).map(|c| invoices(n, c)).collect();
        let t = Instant::now();
        std::thread::scope(|s| {
            for half in lists.chunks(m.div_ceil(2)) {
                s.spawn(|| {
                    for (i, l) in half.iter().enumerate() {
                        std::hint::black_box(make(i, l));
                    }
                });
            }
        });
        println!(
            "{m} statements of {n} invoices on two threads: {:.2} s",
            t.elapsed().as_secs_f64()
        );
    }
}
