//! A month's statements in one run, for the CLI's `statements` and the Cartera panel:
//! a few customers listed at a time, one PDF per customer who owes something (never
//! over an existing file), and a summary of every customer. Stops between customers.

use super::{Statement, file_name, listed_statement_pdf};
use crate::api::Client;
use crate::i18n::Lang;
use crate::receivables::{Keep, Listing};
use chrono::NaiveDate;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Customers listed at once.
const AT_ONCE: usize = 4;

/// A customer to make a statement for, as the directory knows them.
#[derive(Clone, Debug, Default)]
pub struct Customer {
    /// The customer's id.
    pub id: String,
    /// Name, when known.
    pub name: Option<String>,
    /// RUT, when known.
    pub rut: Option<String>,
}

/// One customer's part of a run.
#[derive(Clone, Debug)]
pub struct Done {
    /// The customer's id.
    pub customer: String,
    /// Name, when known.
    pub name: Option<String>,
    /// The PDF written, when the customer owes something.
    pub file: Option<PathBuf>,
    /// What is owed per currency (`None`: more than a decimal holds).
    pub owed: Vec<(String, Option<rust_decimal::Decimal>)>,
    /// The oldest overdue days.
    pub oldest: Option<u32>,
    /// The workbook of every invoice, beside a statement too long to print whole.
    pub workbook: Option<PathBuf>,
    /// Why it has no statement: its invoices could not be listed, or the PDF made or
    /// written (in the clerk's words).
    pub failed: Option<String>,
}

/// What a run needs.
pub struct Batch<'a> {
    /// The service.
    pub client: &'a Client,
    /// Who the statements are from.
    pub sender: &'a crate::profile::Sender,
    /// The day overdue days count to.
    pub as_of: NaiveDate,
    /// Paid and void invoices too.
    pub all: bool,
    /// The statements' language.
    pub lang: Lang,
    /// The folder written into (it must exist).
    pub out: &'a Path,
    /// The summary's CSV flavour (as exports are written).
    pub dialect: crate::export::Dialect,
    /// The UF's value of the day, for each statement's line in pesos (`None`: UF alone).
    pub uf: Option<crate::uf::UfDay>,
}

/// Makes and writes each customer's statement; `progress` hears how many are done.
/// Stops before the next customer once `stop` is set.
pub async fn run(
    b: &Batch<'_>,
    customers: Vec<Customer>,
    stop: &AtomicBool,
    mut progress: impl FnMut(usize),
) -> Vec<Done> {
    use futures_util::StreamExt;
    let mut done = Vec::with_capacity(customers.len());
    let client = b.client;
    let mut work = futures_util::stream::iter(customers)
        .map(|c| async move {
            let go = || !stop.load(Ordering::SeqCst);
            let listed =
                crate::receivables::listed(client, &c.id, b.as_of, Keep::of(b.all), |_| go()).await;
            (c, listed)
        })
        .buffered(AT_ONCE);
    while let Some((c, listed)) = work.next().await {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let mut row = Done {
            customer: c.id.clone(),
            name: c.name.clone(),
            file: None,
            owed: Vec::new(),
            oldest: None,
            failed: None,
            workbook: None,
        };
        match listed {
            Err(e) => row.failed = Some(crate::i18n::error_text(&e)),
            Ok(listed) => match make(b.sender, b.as_of, b.lang, b.uf, c, listed).await {
                Err(super::PdfError::Logo(p)) => {
                    row.failed = Some(crate::i18n::sender_problem(&p));
                }
                Err(e) => row.failed = Some(e.words()),
                Ok(made) => {
                    let id = &row.customer;
                    row.owed = made
                        .plan
                        .owed
                        .iter()
                        .map(|(c, t)| (c.clone(), t.value()))
                        .collect();
                    row.oldest = made.plan.oldest_overdue;
                    if !made.plan.aging.is_empty() {
                        let name = file_name(b.lang, id, row.name.as_deref(), b.as_of);
                        match crate::fsutil::write_new(
                            b.out,
                            name.trim_end_matches(".pdf"),
                            "pdf",
                            &made.pdf,
                        ) {
                            Ok(p) => row.file = Some(p),
                            Err(e) => row.failed = Some(e.to_string()),
                        }
                        // A statement too long to print whole: its workbook beside it,
                        // under the PDF's own name.
                        if let (Some(pdf), Some(book)) = (&row.file, &made.workbook) {
                            let stem = pdf
                                .file_stem()
                                .map(|s| s.to_string_lossy().into_owned())
                                .unwrap_or_default();
                            match crate::fsutil::write_new(b.out, &stem, "xlsx", book) {
                                Ok(p) => row.workbook = Some(p),
                                Err(e) => row.failed = Some(e.to_string()),
                            }
                        }
                    }
                }
            },
        }
        done.push(row);
        progress(done.len());
    }
    done
}

/// One customer's statement, made off the async threads (a long one takes a moment).
pub async fn make(
    sender: &crate::profile::Sender,
    as_of: NaiveDate,
    lang: Lang,
    uf: Option<crate::uf::UfDay>,
    c: Customer,
    listed: Listing,
) -> Result<super::Made, super::PdfError> {
    let sender = sender.clone();
    tokio::task::spawn_blocking(move || {
        listed_statement_pdf(
            &Statement {
                lang,
                sender: &sender,
                customer: &c.id,
                name: c.name.as_deref(),
                rut: c.rut.as_deref(),
                as_of,
                uf: uf.as_ref(),
            },
            listed,
        )
    })
    .await
    .map_err(|e| super::PdfError::Render(e.to_string()))?
}

/// Writes the run's summary beside its PDFs (`resumen-<date>.csv`, never over another).
pub fn write_summary(b: &Batch<'_>, done: &[Done]) -> std::io::Result<PathBuf> {
    let stem = format!(
        "{}-{}",
        crate::tr_in!(b.lang, "st-summary-stem"),
        b.as_of.format("%Y-%m-%d")
    );
    crate::fsutil::write_new(
        b.out,
        &stem,
        "csv",
        summary_csv(done, b.lang, b.dialect).as_bytes(),
    )
}

/// The run's summary: one row per customer and currency owed (one row for a customer
/// who owes nothing, or whose invoices could not be listed — said as such, never as
/// owing nothing), its titles in the statements' language, written in `dialect` as
/// exports are (Excel in Spanish: semicolons, decimal commas, a byte order mark).
pub fn summary_csv(done: &[Done], lang: Lang, dialect: crate::export::Dialect) -> String {
    let mut w = crate::export::csv_builder(dialect).from_writer(Vec::new());
    let titles = [
        crate::tr_in!(lang, "st-sum-customer"),
        crate::tr_in!(lang, "st-sum-name"),
        crate::tr_in!(lang, "st-sum-file"),
        crate::tr_in!(lang, "st-sum-currency"),
        crate::tr_in!(lang, "st-sum-owed"),
        crate::tr_in!(lang, "st-sum-oldest"),
        crate::tr_in!(lang, "st-sum-problem"),
        crate::tr_in!(lang, "st-sum-workbook"),
    ];
    let _ = w.write_record(&titles);
    let guard = |t: &str| crate::text::guard_text(t).into_owned();
    for d in done {
        let file = d
            .file
            .as_ref()
            .and_then(|f| f.file_name())
            .map(|f| guard(&f.to_string_lossy()))
            .unwrap_or_default();
        let book = d
            .workbook
            .as_ref()
            .and_then(|f| f.file_name())
            .map(|f| guard(&f.to_string_lossy()))
            .unwrap_or_default();
        let oldest = d.oldest.map(|n| n.to_string()).unwrap_or_default();
        let name = guard(d.name.as_deref().unwrap_or(""));
        let problem = guard(d.failed.as_deref().unwrap_or(""));
        if d.owed.is_empty() {
            let _ = w.write_record([
                guard(&d.customer).as_str(),
                &name,
                &file,
                "",
                if d.failed.is_some() { "" } else { "0" },
                &oldest,
                &problem,
                &book,
            ]);
        }
        for (currency, owed) in &d.owed {
            let owed = owed
                .map(|v| crate::export::amount_cell(v, Some(currency), dialect))
                .unwrap_or_default();
            let _ = w.write_record([
                guard(&d.customer).as_str(),
                &name,
                &file,
                currency,
                &owed,
                &oldest,
                &problem,
                &book,
            ]);
        }
    }
    let body = String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default();
    format!("{}{body}", dialect.bom())
}
