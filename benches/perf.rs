//! Benchmarks with 100,000 invoices: CSV export, decoding listing pages (against
//! serde_json into plain structs, the practical limit), and sorting/filtering the view.
//! Run: `cargo bench --bench perf` (`-- per_invoice` for the export's stages, per invoice;
//! `-- answer_to_csv` for the whole of it).

use criterion::{Criterion, criterion_group, criterion_main};
use invoice_desk::api::{Invoice, Page};
use invoice_desk::export::{self, Dialect};
use invoice_desk::sandbox::data::{BIG_CUSTOMER, Data, ORG_OAUTH};
use invoice_desk::ui::customers::{Rows, Settings, SortKey, View};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

const N: usize = 100_000;

/// 100 pages of 1000 invoices, as the sandbox sends them.
fn pages_json() -> Vec<Vec<u8>> {
    let data = Data::seeded(1, N);
    let mut pages = Vec::new();
    let mut start = Some(0);
    while let Some(pos) = start {
        let mut out = b"{\"items\":[".to_vec();
        start = data.write_page(BIG_CUSTOMER, ORG_OAUTH, pos, 1000, &mut out);
        out.extend_from_slice(b"],\"next_cursor\":\"x\"}");
        pages.push(out);
    }
    pages
}

fn invoices(pages: &[Vec<u8>]) -> Vec<Invoice> {
    pages
        .iter()
        .flat_map(|p| Page::from_slice(p).unwrap().items)
        .collect()
}

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct SerdeInvoice {
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
struct SerdePage {
    items: Vec<SerdeInvoice>,
    next_cursor: Option<String>,
}

/// Times `work` (a run over all N invoices) and reports one invoice's share.
fn per_invoice(b: &mut criterion::Bencher<'_>, work: impl Fn()) {
    b.iter_custom(|iters| {
        let t = std::time::Instant::now();
        for _ in 0..iters {
            work();
        }
        t.elapsed() / N as u32
    })
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
            export::write_file(
                &path,
                all.iter(),
                Dialect::ExcelEs,
                &AtomicBool::new(false),
                None,
            )
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
                n += serde_json::from_slice::<SerdePage>(black_box(p))
                    .unwrap()
                    .items
                    .len();
            }
            n
        })
    });
    g.finish();

    // The same paths, reported per invoice (the time shown is one invoice's share of a
    // run over all 100,000): what the CLI's export costs in each stage.
    let mut g = c.benchmark_group("per_invoice");
    g.sample_size(10);
    let data = Data::seeded(1, N);
    g.bench_function("sandbox_serve", |b| {
        per_invoice(b, || {
            let mut out = Vec::with_capacity(450_000);
            let mut start = Some(0);
            while let Some(pos) = start {
                out.clear();
                start = data.write_page(BIG_CUSTOMER, ORG_OAUTH, pos, 1000, &mut out);
                black_box(&out);
            }
        })
    });
    g.bench_function("decode", |b| {
        per_invoice(b, || {
            for p in &pages {
                black_box(Page::from_slice(black_box(p)).unwrap());
            }
        })
    });
    // The answers' text, as the client hands it on.
    let texts: Vec<&str> = pages
        .iter()
        .map(|p| std::str::from_utf8(p).unwrap())
        .collect();
    // What the fetching task reads of each page before the next is asked for (its
    // paging, the invoices passed over): a second pass over every page's text.
    g.bench_function("paging_pass", |b| {
        per_invoice(b, || {
            for t in &texts {
                black_box(invoice_desk::api::model::Paging::from_text(black_box(t)).unwrap());
            }
        })
    });
    g.bench_function("csv_streamed_export", |b| {
        per_invoice(b, || {
            let mut csv = export::StreamingCsv::new(Dialect::Standard).unwrap();
            for inv in &all {
                csv.push(inv).unwrap();
            }
            csv.finish(std::io::sink(), &AtomicBool::new(false))
                .unwrap();
        })
    });
    // The CLI's export from the answers' text to the CSV.
    g.bench_function("answer_to_csv", |b| {
        per_invoice(b, || {
            let mut csv = export::StreamingCsv::new(Dialect::Standard).unwrap();
            for t in &texts {
                let page = Page::from_text(black_box(t)).unwrap().items;
                for inv in &page {
                    csv.push(inv).unwrap();
                }
            }
            csv.finish(std::io::sink(), &AtomicBool::new(false))
                .unwrap();
        })
    });
    g.finish();

    let mut g = c.benchmark_group("100k");
    g.sample_size(10);
    let mut rows = Rows::default();
    for chunk in all.chunks(1000) {
        rows.push_page(chunk.to_vec());
    }
    let mut view = View::default();
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    let settings = |text: &str, hide_void: bool| Settings {
        text: text.into(),
        hide_void,
        filter: Default::default(),
        today,
    };
    let (plain, hiding, text) = (
        settings("", false),
        settings("", true),
        settings("erp-2025", false),
    );
    g.bench_function("view_sort_by_amount", |b| {
        b.iter(|| view.rebuild(&rows, SortKey::Amount, true, &plain))
    });
    g.bench_function("view_sort_by_due_date_desc", |b| {
        b.iter(|| view.rebuild(&rows, SortKey::Due, false, &hiding))
    });
    g.bench_function("view_filter_text", |b| {
        b.iter(|| view.rebuild(&rows, SortKey::Received, true, &text))
    });
    let overdue = Settings {
        filter: invoice_desk::receivables::aging::Filter {
            status: Some(invoice_desk::receivables::aging::StatusKind::Overdue),
            amount_min: Some(rust_decimal::Decimal::from(1_000_000)),
            ..Default::default()
        },
        ..plain.clone()
    };
    g.bench_function("view_filter_overdue_over_a_million_by_status", |b| {
        b.iter(|| view.rebuild(&rows, SortKey::Status, true, &overdue))
    });
    g.finish();
}

/// One frame of the real app with 100,000 invoices in the customer table, scrolled to the
/// middle: egui_kittest steps the app (layout and tessellation, no GPU).
fn table_frame(c: &mut Criterion) {
    use egui::accesskit::Role;
    use egui_kittest::kittest::Queryable;
    use invoice_desk::profile::{Profiles, SecretKind, SecretStore};
    use invoice_desk::sandbox::{Sandbox, SandboxConfig};
    use invoice_desk::ui::{AppDeps, InvoiceDeskApp};

    let rt = tokio::runtime::Runtime::new().unwrap();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig {
            big_customer_invoices: N,
            ..Default::default()
        }))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("profiles.toml");
    let mut ps = Profiles::default();
    ps.upsert(None, s.profile("Bench")).unwrap();
    ps.save(&path).unwrap();
    let store = SecretStore::session_only("bench");
    store.set(
        "Bench",
        SecretKind::ClientSecret,
        &secrecy::SecretString::from(s.credentials.client_secret.clone()),
    );
    let mut deps = AppDeps::for_tests(rt.handle().clone(), store);
    deps.profiles_path = Some(path);
    let mut h = egui_kittest::Harness::builder()
        .with_size([1100.0, 720.0])
        .build_eframe(move |cc| InvoiceDeskApp::new(cc, deps));
    let wait = |h: &mut egui_kittest::Harness<'_, InvoiceDeskApp>,
                done: &dyn Fn(&InvoiceDeskApp) -> bool| {
        let t = std::time::Instant::now();
        while !done(h.state()) {
            assert!(t.elapsed().as_secs() < 120, "timed out");
            h.step();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    };
    let steps = |h: &mut egui_kittest::Harness<'_, InvoiceDeskApp>| (0..3).for_each(|_| h.step());
    wait(&mut h, &|a| a.session().is_some());
    steps(&mut h);
    h.get_by_role_and_label(Role::Button, "Customer invoices")
        .click();
    steps(&mut h);
    h.get_by_role_and_label(Role::TextInput, "Customer id")
        .focus();
    steps(&mut h);
    h.get_by_role_and_label(Role::TextInput, "Customer id")
        .type_text(BIG_CUSTOMER);
    steps(&mut h);
    h.get_by_role_and_label(Role::Button, "Load invoices")
        .click();
    steps(&mut h);
    wait(&mut h, &|a| a.customer_rows().0.len() == N);
    h.hover_at(egui::pos2(500.0, 500.0));
    for _ in 0..40 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Page,
            delta: egui::vec2(0.0, -40.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    for _ in 0..10 {
        h.step();
    }
    let mut g = c.benchmark_group("ui");
    g.bench_function("table_frame_100k_scrolled", |b| b.iter(|| h.step()));
    g.finish();
    drop(h);
    drop(s);
}

criterion_group!(perf, benches, table_frame);
criterion_main!(perf);
