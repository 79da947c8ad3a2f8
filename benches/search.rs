//! The search box at 100,000 indexed invoices (#50: an answer in ≤ 50 ms): one customer's
//! 100,000 invoices as the sandbox lists them, plus 1,000 created through the journal,
//! searched by id, reference, part of a reference, amount, customer name and a text that
//! matches nothing. Each query is one `search::find` as the app runs it (the journal's
//! catch-up, the index, the directory's names). Five series, the queries alternating;
//! median and range per query, with the machine's load.
//! Then the same customer's listing of 20,000 kept again (as a listing read anew does),
//! timed against decoding those 20,000 (#71: keeping costs at most ×3 the listing).
//! Run: `cargo bench --bench search` (`SEARCH_N=1000000` for a million).

use invoice_desk::journal::{Action, Customer, Intent, Journal, Settled};
use invoice_desk::sandbox::data::{BIG_CUSTOMER, Data, ORG_OAUTH};
use invoice_desk::search::{self, Seen, index::Index};
use std::time::Instant;

/// How many invoices the big customer has (`SEARCH_N`, else 100,000).
fn n() -> usize {
    std::env::var("SEARCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}
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
    // The big customer's listing, as the app keeps it after Customer invoices.
    let n = n();
    let data = Data::seeded(1, n);
    let mut seen = Vec::with_capacity(n);
    let mut start = Some(0);
    let at = chrono::Utc::now();
    while let Some(pos) = start {
        let mut out = b"{\"items\":[".to_vec();
        start = data.write_page(BIG_CUSTOMER, ORG_OAUTH, pos, 1000, &mut out);
        out.extend_from_slice(b"],\"next_cursor\":\"x\"}");
        let page = invoice_desk::api::Page::from_slice(&out).unwrap();
        seen.extend(page.items.iter().map(|i| Seen::of_invoice(i, at)));
    }
    let some = seen[n / 2].clone();
    let path = dir.path().join("search.sqlite3");
    let t = Instant::now();
    let mut index = Index::open(&path).unwrap();
    index.put(&search::service_of(URL), &seen).unwrap();
    let mut made = t.elapsed();
    let service = search::service_of(URL);
    // The desk's 1,000 creates, after the listing was read (at 1,000,000 the index is at
    // its bound: what was seen longest ago is forgotten, and these are found).
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
    // The first search reads the journal's 1,000 creates into the index.
    let t = Instant::now();
    search::find(&journal, &mut index, &service, "warm").unwrap();
    made += t.elapsed();
    let on_disk = |p: &std::path::Path| {
        ["", "-wal"]
            .iter()
            .filter_map(|x| std::fs::metadata(format!("{}{x}", p.display())).ok())
            .map(|m| m.len())
            .sum::<u64>()
    };
    let len = index.len().unwrap();
    println!(
        "index of {len} invoices made in {:.2} s ({} MB on disk, {} B an invoice)",
        made.as_secs_f64(),
        on_disk(&path) / 1_000_000,
        on_disk(&path) / len.max(1)
    );
    // A listing of 20,000 read again: decoded (the listing's own work), then kept.
    let mut pages = Vec::new();
    let mut start = Some(0);
    while let Some(pos) = start.filter(|p| *p < 20_000) {
        let mut out = b"{\"items\":[".to_vec();
        start = data.write_page(BIG_CUSTOMER, ORG_OAUTH, pos, 1000, &mut out);
        out.extend_from_slice(b"],\"next_cursor\":\"x\"}");
        pages.push(out);
    }
    // Read again the same day (nothing new: only looked up), then on each of the days
    // after (when it was seen is written anew, the day being kept), alternating.
    let (mut decode, mut keep, mut keep_later) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..10 {
        // Rounds 0, 2, 4…: the same day as the round before; 1, 3, 5…: a day later.
        let at = chrono::Utc::now()
            + chrono::Duration::hours(25 * ((round + 1) / 2))
            + chrono::Duration::minutes(round);
        let t = Instant::now();
        let mut again = Vec::with_capacity(20_000);
        for p in &pages {
            let page = invoice_desk::api::Page::from_slice(p).unwrap();
            again.extend(page.items.iter().map(|i| Seen::of_invoice(i, at)));
        }
        decode.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        index.put(&service, &again).unwrap();
        if round % 2 == 0 {
            keep.push(t.elapsed().as_secs_f64());
        } else {
            keep_later.push(t.elapsed().as_secs_f64());
        }
    }
    let mid = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[0], v[v.len() - 1])
    };
    plans(&path, &service, "2026-004");
    // SEARCH_KEEP=file: a copy of the index to look into (sqlite3's dbstat: what its
    // bytes are), in place of the file of that name.
    if let Ok(keep) = std::env::var("SEARCH_KEEP") {
        let _ = std::fs::remove_file(&keep);
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute("VACUUM INTO ?1", [&keep]).unwrap();
    }
    let (d, dl, dh) = mid(&mut decode);
    let (k, kl, kh) = mid(&mut keep);
    let (l, ll, lh) = mid(&mut keep_later);
    println!(
        "a listing of 20,000 read again: decoded in {d:.3} s ({dl:.3}–{dh:.3}); kept the same day in {k:.3} s ({kl:.3}–{kh:.3}): ×{:.2}; a day later (when seen written anew) {l:.3} s ({ll:.3}–{lh:.3}): ×{:.2}; 5 of each, alternating",
        k / d,
        l / d
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

/// The text query as it was (`service = ?`) and as it is (`+service = ?`), on the same
/// file, alternating: what the planner's choice costs at this size (#71).
fn plans(path: &std::path::Path, service: &str, text: &str) {
    let conn = rusqlite::Connection::open(path).unwrap();
    let service: i64 = conn
        .query_row("SELECT n FROM services WHERE url = ?1", [service], |r| {
            r.get(0)
        })
        .unwrap();
    let sql = |plus: &str| {
        format!(
            "SELECT id FROM invoices WHERE rowid IN
               (SELECT rowid FROM invoices_text WHERE invoices_text MATCH ?2)
             AND {plus}service = ?1 ORDER BY due DESC, rowid DESC LIMIT 50"
        )
    };
    // Every trigram of the text, as the index's query asks for them.
    let chars: Vec<char> = text.chars().collect();
    let phrase = chars
        .windows(3)
        .map(|w| format!("\"{}\"", w.iter().collect::<String>()))
        .collect::<Vec<_>>()
        .join(" AND ");
    let mut times = [Vec::new(), Vec::new()];
    for _ in 0..5 {
        for (k, plus) in ["", "+"].iter().enumerate() {
            let mut stmt = conn.prepare_cached(&sql(plus)).unwrap();
            let t = Instant::now();
            let n = stmt
                .query_map(rusqlite::params![service, phrase], |r| {
                    r.get::<_, String>(0)
                })
                .unwrap()
                .count();
            times[k].push(t.elapsed().as_secs_f64() * 1000.0);
            std::hint::black_box(n);
        }
    }
    for (k, name) in ["service = ?", "+service = ?"].iter().enumerate() {
        let t = &mut times[k];
        t.sort_by(f64::total_cmp);
        println!(
            "  text query with {name:<13} {:>8.2} ms median ({:.2}–{:.2}), 5 alternating",
            t[2], t[0], t[4]
        );
    }
}
