//! The search box at 100,000 indexed invoices (#50: an answer in ≤ 50 ms): one customer's
//! 100,000 invoices as the sandbox lists them, plus 1,000 created through the journal,
//! searched by id, reference, part of a reference, amount, customer name and a text that
//! matches nothing. Each query is one `search::find` as the app runs it (the journal's
//! catch-up, the index, the directory's names). Five series, the queries alternating;
//! median and range per query, with the machine's load.
//! Run: `cargo bench --bench search`.

use invoice_desk::journal::{Action, Customer, Intent, Journal, Settled};
use invoice_desk::sandbox::data::{BIG_CUSTOMER, Data, ORG_OAUTH};
use invoice_desk::search::{self, Seen, index::Index};
use std::time::Instant;

const N: usize = 100_000;
const URL: &str = "https://api.example.cl";

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let mut journal = Journal::open(&dir.path().join("journal.sqlite3")).unwrap();
    journal
        .import_customers(&[Customer {
            id: BIG_CUSTOMER.into(),
            name: Some("Distribuidora Grande del Sur S.A.".into()),
            rut: Some("76.123.456-0".into()),
            ..Customer::default()
        }])
        .unwrap();
    for n in 0..1_000 {
        let seq = journal
            .record_intent(
                Action::Create,
                &Intent {
                    profile: "p".into(),
                    base_url: URL.into(),
                    customer: Some(format!("cus_{}", n % 50)),
                    amount: Some(format!("{}", 10_000 + n)),
                    external_id: Some(format!("FAC-2026-{n:05}")),
                    service: format!("{URL}#bench"),
                    ..Intent::default()
                },
            )
            .unwrap();
        journal
            .record_outcome(seq, &Settled::done(Some(format!("in_bench{n:05}"))))
            .unwrap();
    }
    // The big customer's listing, as the app keeps it after Customer invoices.
    let data = Data::seeded(1, N);
    let mut seen = Vec::with_capacity(N);
    let mut start = Some(0);
    let at = chrono::Utc::now();
    while let Some(pos) = start {
        let mut out = b"{\"items\":[".to_vec();
        start = data.write_page(BIG_CUSTOMER, ORG_OAUTH, pos, 1000, &mut out);
        out.extend_from_slice(b"],\"next_cursor\":\"x\"}");
        let page = invoice_desk::api::Page::from_slice(&out).unwrap();
        seen.extend(page.items.iter().map(|i| Seen::of_invoice(i, at)));
    }
    let some = seen[N / 2].clone();
    let path = dir.path().join("search.sqlite3");
    let t = Instant::now();
    let mut index = Index::open(&path).unwrap();
    index.put(&search::service_of(URL), &seen).unwrap();
    let service = search::service_of(URL);
    // The first search reads the journal's 1,000 creates into the index.
    search::find(&journal, &mut index, &service, "warm").unwrap();
    println!(
        "index of {} invoices made in {:.2} s ({} MB on disk)",
        index.len().unwrap(),
        t.elapsed().as_secs_f64(),
        std::fs::metadata(&path)
            .map(|m| m.len() / 1_000_000)
            .unwrap_or(0)
    );
    let amount = some
        .amount
        .map(|a| invoice_desk::api::money::format_amount(a, some.currency.as_deref()))
        .unwrap_or_default();
    let queries: Vec<(&str, String)> = vec![
        ("invoice id", some.id.clone()),
        ("reference", "FAC-2026-00421".into()),
        ("part of a reference", "2026-004".into()),
        ("amount", amount),
        ("customer name", "grande del sur".into()),
        ("RUT", "76123456-0".into()),
        ("nothing", "zzzz no such thing".into()),
    ];
    let series = 5;
    let rounds = 20;
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); queries.len()];
    for _ in 0..series {
        for _ in 0..rounds {
            for (q, (_, text)) in queries.iter().enumerate() {
                let t = Instant::now();
                let a = search::find(&journal, &mut index, &service, text).unwrap();
                times[q].push(t.elapsed().as_secs_f64() * 1000.0);
                std::hint::black_box(a);
            }
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "search::find at {} indexed invoices, {series} series × {rounds} rounds, queries alternating; load {}",
        index.len().unwrap(),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    for (q, (name, text)) in queries.iter().enumerate() {
        let mut t = times[q].clone();
        t.sort_by(f64::total_cmp);
        let a = search::find(&journal, &mut index, &service, text).unwrap();
        println!(
            "  {name:<22} {:>7.2} ms median  ({:.2}–{:.2})  {} found{}",
            t[t.len() / 2],
            t[0],
            t[t.len() - 1],
            a.invoices.len() + a.customers.len(),
            if a.more { ", more" } else { "" }
        );
    }
}
