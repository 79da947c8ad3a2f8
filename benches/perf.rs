//! Benchmarks with 100,000 invoices: CSV export, decoding listing pages (against
//! serde_json into plain structs, the practical limit), and sorting/filtering the view.
//! Run: `cargo bench --bench perf`.

use criterion::{Criterion, criterion_group, criterion_main};
use invoice_desk::api::{Invoice, Page};
use invoice_desk::export::{self, Dialect};
use invoice_desk::sandbox::data::{BIG_CUSTOMER, Data};
use invoice_desk::ui::customers::{Rows, SortKey, View};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

const N: usize = 100_000;

/// 100 pages of 1000 invoices, as the sandbox sends them.
fn pages_json() -> Vec<Vec<u8>> {
    let data = Data::seeded(1, N);
    let idx = &data.by_customer[BIG_CUSTOMER];
    idx.chunks(1000)
        .map(|chunk| {
            let items: Vec<_> = chunk.iter().map(|&i| data.invoices[i].to_json()).collect();
            serde_json::to_vec(&serde_json::json!({"items": items, "next_cursor": "x"})).unwrap()
        })
        .collect()
}

fn invoices(pages: &[Vec<u8>]) -> Vec<Invoice> {
    pages
        .iter()
        .flat_map(|p| Page::from_slice(p).unwrap().items)
        .collect()
}

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct PlainInvoice {
    id: String,
    customer: String,
    product_id: Option<String>,
    due_date: Option<String>,
    amount: f64,
    currency_code: String,
    is_paid: bool,
    is_void: bool,
    link_payment: String,
    invoice_external_id: Option<String>,
    metadata: serde_json::Value,
    created_at: String,
}

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct PlainPage {
    items: Vec<PlainInvoice>,
    next_cursor: Option<String>,
}

fn benches(c: &mut Criterion) {
    let pages = pages_json();
    let all = invoices(&pages);
    assert_eq!(all.len(), N);

    let mut g = c.benchmark_group("100k");
    g.sample_size(10);
    g.bench_function("csv_export_standard", |b| {
        b.iter(|| {
            export::write(
                std::io::sink(),
                all.iter(),
                Dialect::Standard,
                &AtomicBool::new(false),
            )
            .unwrap()
        })
    });
    g.bench_function("csv_export_excel_es_to_file", |b| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        b.iter(|| {
            export::write_file(&path, all.iter(), Dialect::ExcelEs, &AtomicBool::new(false))
                .unwrap()
        })
    });
    g.bench_function("decode_pages_tolerant", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &pages {
                n += Page::from_slice(black_box(p)).unwrap().items.len();
            }
            n
        })
    });
    g.bench_function("decode_pages_serde_plain_structs", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &pages {
                n += serde_json::from_slice::<PlainPage>(black_box(p))
                    .unwrap()
                    .items
                    .len();
            }
            n
        })
    });
    let mut rows = Rows::default();
    for chunk in all.chunks(1000) {
        rows.push_page(chunk.to_vec());
    }
    let mut view = View::default();
    g.bench_function("view_sort_by_amount", |b| {
        b.iter(|| view.rebuild(&rows, SortKey::Amount, true, "", false))
    });
    g.bench_function("view_sort_by_due_date_desc", |b| {
        b.iter(|| view.rebuild(&rows, SortKey::Due, false, "", true))
    });
    g.bench_function("view_filter_text", |b| {
        b.iter(|| view.rebuild(&rows, SortKey::Received, true, "erp-2025", false))
    });
    g.finish();
}

criterion_group!(perf, benches);
criterion_main!(perf);
