//! `invoice-desk bulk FILE`: a billing run from a spreadsheet. Every row is checked
//! before anything is sent; each row's intent is journaled before it is sent; a row the
//! journal already has as created is skipped, and one whose outcome is unknown is first
//! looked for at the service (by its reference) and never resent while that cannot be
//! told. A 429 pauses every worker for the time the service asks.

use super::{BulkArgs, Failure};
use crate::api::{Client, ErrorKind};
use crate::bulk::{BulkRow, Plan};
use crate::journal::{self, Action, Filter, Intent, Journal, Outcome, SharedJournal};
use crate::text::escape_controls;
use futures_util::StreamExt;
use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What became of one row.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Status {
    Created(String),
    Refused(String),
    Unknown(String),
    SkippedExisting(Option<String>),
    SkippedInvalid(String),
}

impl Status {
    fn word(&self) -> &'static str {
        match self {
            Status::Created(_) => "created",
            Status::Refused(_) => "refused",
            Status::Unknown(_) => "unknown",
            Status::SkippedExisting(_) => "skipped_existing",
            Status::SkippedInvalid(_) => "skipped_invalid",
        }
    }
}

/// Most attempts for one row refused with 429 (each after the pause the service asked).
const MAX_RATE_LIMITED: u32 = 8;

pub(super) async fn bulk_command(a: BulkArgs, profile: Option<&str>) -> Result<(), Failure> {
    let usage = |m: String| Failure {
        code: 2,
        message: m,
    };
    let bytes = std::fs::read(&a.file)
        .map_err(|e| usage(format!("Cannot read {}: {e}", a.file.display())))?;
    let rows = crate::sheet::read_rows(&a.file, a.sheet.as_deref())
        .map_err(|e| usage(format!("Cannot read {}: {e}", a.file.display())))?;
    // The file's digest names the references of rows without one: the same file run
    // again finds what it already issued.
    let file_id: String = {
        use sha2::Digest;
        sha2::Sha256::digest(&bytes)
            .iter()
            .take(5)
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let resolved = super::settings::resolve(profile)?;
    let base_url = resolved.config.base_url.clone();
    let profile_account = resolved.config.account_key.clone();
    let journal = super::service::journal_before_sending()?;
    let plan = {
        let resolve = |text: &str| resolve_customer(&journal, text);
        crate::bulk::plan(
            &rows,
            &file_id,
            &resolved.currencies,
            resolved.account_currency,
            &resolve,
            a.ignore_columns,
        )
    };
    for p in &plan.problems {
        eprintln!("{p}");
    }
    if !plan.problems.is_empty() && !a.skip_invalid {
        return Err(usage(format!(
            "{} problems in {}: nothing was sent (--skip-invalid sends the valid rows).",
            plan.problems.len(),
            a.file.display()
        )));
    }
    println!("{}", summary(&plan));
    if a.dry_run {
        for r in plan.rows.iter().take(5) {
            let body = r.invoice.to_json().unwrap_or_default();
            println!(
                "row {}: {}",
                r.row,
                crate::text::escape_json_for_terminal(&body.to_string())
            );
        }
        println!("Dry run: nothing was sent.");
        return Ok(());
    }
    if plan.rows.is_empty() {
        println!("Nothing to send.");
        return write_report(&a, &plan, &[]);
    }
    if !a.yes {
        if !std::io::stdin().is_terminal() {
            return Err(usage(
                "Refusing to send without --yes: stdin is not a terminal, so nobody can confirm."
                    .into(),
            ));
        }
        eprint!("Send them? [y/N] ");
        let _ = std::io::stderr().flush();
        let mut answer = String::new();
        std::io::stdin()
            .read_line(&mut answer)
            .map_err(|e| usage(e.to_string()))?;
        if !matches!(answer.trim(), "y" | "Y" | "yes" | "s" | "si" | "sí") {
            return Err(usage("Nothing was sent.".into()));
        }
    }
    let client = Client::new(resolved.config).map_err(Failure::from)?;
    let shared = SharedJournal::new(journal);
    let run = Run {
        client,
        journal: shared,
        base_url,
        profile: resolved.profile_name,
        profile_account,
        pause_until: Arc::new(Mutex::new(None)),
    };
    let total = plan.rows.len();
    let started = Instant::now();
    let progress = std::io::stderr().is_terminal();
    let mut done = 0usize;
    let mut results: Vec<(usize, String, Status)> = Vec::with_capacity(total);
    let mut stream = futures_util::stream::iter(plan.rows.iter().cloned())
        .map(|row| {
            let run = run.clone();
            async move {
                let reference = row.invoice.invoice_external_id.clone().unwrap_or_default();
                (row.row, reference, run.one(row).await)
            }
        })
        .buffer_unordered(usize::from(a.concurrency));
    let mut last_shown = Instant::now();
    while let Some(r) = stream.next().await {
        done += 1;
        results.push(r);
        if progress && (last_shown.elapsed() > Duration::from_millis(250) || done == total) {
            last_shown = Instant::now();
            let secs = started.elapsed().as_secs_f64().max(0.001);
            let rate = done as f64 / secs;
            let left = (total - done) as f64 / rate.max(0.001);
            eprint!("\r{done} of {total} rows ({rate:.0}/s, about {left:.0} s left)…   ");
        }
    }
    if progress {
        eprintln!();
    }
    results.sort_by_key(|r| r.0);
    let count = |w: &str| results.iter().filter(|r| r.2.word() == w).count();
    println!(
        "{} created, {} already issued, {} refused, {} unknown{}.",
        count("created"),
        count("skipped_existing"),
        count("refused"),
        count("unknown"),
        if plan.invalid_rows.is_empty() {
            String::new()
        } else {
            format!(", {} invalid rows skipped", plan.invalid_rows.len())
        }
    );
    for (row, reference, status) in &results {
        match status {
            Status::Refused(why) | Status::Unknown(why) => eprintln!(
                "row {row} ({}): {} — {}",
                escape_controls(reference),
                status.word(),
                escape_controls(why)
            ),
            _ => {}
        }
    }
    write_report(&a, &plan, &results)?;
    if count("unknown") > 0 {
        return Err(Failure {
            code: 6,
            message: "Some rows' outcome is unknown: run the same file again (it checks them first, and sends nothing twice) or `invoice-desk journal resolve`.".into(),
        });
    }
    if count("refused") > 0 {
        return Err(Failure {
            code: 4,
            message: "Some rows were refused by the service (see above).".into(),
        });
    }
    Ok(())
}

/// A customer cell: an id as written, or a name or RUT the directory knows (exactly one).
fn resolve_customer(journal: &Journal, text: &str) -> Result<String, String> {
    let found = journal
        .find_customers(text, 50)
        .map_err(|e| e.to_string())?;
    let wanted = journal::fold(text);
    let rut = crate::rut::Rut::parse(text).ok().map(|r| r.to_string());
    let exact: Vec<&journal::Customer> = found
        .iter()
        .filter(|c| {
            c.id == text
                || c.name
                    .as_deref()
                    .is_some_and(|n| journal::fold(n) == wanted)
                || (rut.is_some() && c.rut == rut)
        })
        .collect();
    match exact.as_slice() {
        [one] => Ok(one.id.clone()),
        [] if !text.contains(char::is_whitespace) && rut.is_none() => Ok(text.to_string()),
        [] => Err(format!("no customer \"{text}\" in the customer directory")),
        many => Err(format!(
            "\"{text}\" matches {} customers in the directory: write the id",
            many.len()
        )),
    }
}

fn summary(plan: &Plan) -> String {
    let totals: Vec<String> = plan
        .totals()
        .iter()
        .map(|(code, (n, sum))| {
            if code.is_empty() {
                format!("{n} in the account's currency: {sum}")
            } else {
                format!(
                    "{n} in {code}: {}",
                    crate::api::money::format_amount(*sum, Some(code))
                )
            }
        })
        .collect();
    format!(
        "{} invoices to {} customers ({}).",
        plan.rows.len(),
        plan.customers(),
        totals.join("; ")
    )
}

#[derive(Clone)]
struct Run {
    client: Client,
    journal: SharedJournal,
    base_url: String,
    profile: String,
    profile_account: Option<String>,
    /// Every worker waits until then (a 429 said so).
    pause_until: Arc<Mutex<Option<Instant>>>,
}

impl Run {
    async fn one(&self, row: BulkRow) -> Status {
        let reference = row.invoice.invoice_external_id.clone().unwrap_or_default();
        // Never twice: what the journal knows of this reference at this service.
        let filter = Filter {
            reference: Some(reference.clone()),
            base_url: Some(self.base_url.clone()),
            action: Some(Action::Create),
            ..Filter::default()
        };
        let known = self.journal.run(move |j| j.list(&filter, true, 0, 1)).await;
        match known {
            Err(e) => return Status::Unknown(format!("the journal cannot be read: {e}")),
            Ok(entries) => {
                if let Some(e) = entries.first() {
                    match e.outcome {
                        Outcome::Done => return Status::SkippedExisting(e.invoice_id.clone()),
                        Outcome::Refused => {}
                        Outcome::Unknown => match journal::check(&self.client, e).await {
                            None => {
                                return Status::Unknown(
                                    "an earlier run's outcome is unknown and the service could not be asked; not sent again".into(),
                                );
                            }
                            Some(found) => {
                                let seq = e.seq;
                                let settled = found.clone();
                                let _ = self
                                    .journal
                                    .run(move |j| j.record_outcome(seq, &settled))
                                    .await;
                                if found.outcome == Outcome::Done {
                                    return Status::SkippedExisting(found.invoice_id);
                                }
                            }
                        },
                    }
                }
            }
        }
        let account = row
            .account_key
            .as_deref()
            .or(self.profile_account.as_deref())
            .map(str::to_string);
        for _ in 0..MAX_RATE_LIMITED {
            self.wait_pause().await;
            let intent = Intent {
                profile: self.profile.clone(),
                base_url: self.base_url.clone(),
                customer: Some(row.invoice.customer.clone()),
                amount: Some(row.invoice.amount.to_string()),
                currency_code: row
                    .invoice
                    .currency
                    .currency()
                    .map(|c| c.code().to_string()),
                account_last4: account.as_deref().and_then(Intent::last4),
                external_id: Some(reference.clone()),
                ..Intent::default()
            };
            let send = self
                .client
                .create_invoice(&row.invoice, row.account_key.as_deref());
            let sent =
                match journal::write_ahead(&self.journal, Action::Create, intent, send, |c| {
                    Some(c.id.clone())
                })
                .await
                {
                    Ok(s) => s,
                    Err(e) => return Status::Refused(format!("nothing was sent: {e}")),
                };
            match sent.result {
                Ok(inv) => return Status::Created(inv.id),
                Err(e) => match e.kind {
                    ErrorKind::RateLimited { retry_after } => {
                        // Refused before any work: the row is sent again after the pause.
                        let wait = retry_after.unwrap_or(Duration::from_secs(1));
                        self.pause(wait);
                    }
                    _ if e.is_outcome_unknown() => {
                        return Status::Unknown(format!(
                            "{e} Run the same file again: it checks this row first."
                        ));
                    }
                    _ => return Status::Refused(e.to_string()),
                },
            }
        }
        Status::Refused("the service kept answering 429 (too many requests)".into())
    }

    fn pause(&self, wait: Duration) {
        if let Ok(mut until) = self.pause_until.lock() {
            let end = Instant::now() + wait;
            if until.is_none_or(|u| u < end) {
                *until = Some(end);
            }
        }
    }

    async fn wait_pause(&self) {
        loop {
            let until = self.pause_until.lock().ok().and_then(|u| *u);
            match until {
                Some(u) if u > Instant::now() => tokio::time::sleep_until(u.into()).await,
                _ => return,
            }
        }
    }
}

fn write_report(
    a: &BulkArgs,
    plan: &Plan,
    results: &[(usize, String, Status)],
) -> Result<(), Failure> {
    let Some(out) = &a.report else { return Ok(()) };
    let target = crate::fsutil::check_destination(out).map_err(|e| Failure {
        code: 2,
        message: format!("Cannot write the report to {}: {e}", out.display()),
    })?;
    let mut rows: Vec<(usize, String, Status)> = results.to_vec();
    for p in &plan.problems {
        if p.row > 1 && !rows.iter().any(|r| r.0 == p.row) {
            rows.push((p.row, String::new(), Status::SkippedInvalid(p.to_string())));
        }
    }
    rows.sort_by_key(|r| r.0);
    crate::fsutil::write_user_file(&target, |w| {
        let mut csv = csv::Writer::from_writer(w);
        csv.write_record([
            "row",
            "invoice_external_id",
            "status",
            "invoice_id",
            "error",
        ])?;
        for (row, reference, status) in &rows {
            let (id, error) = match status {
                Status::Created(id) => (id.clone(), String::new()),
                Status::SkippedExisting(id) => (id.clone().unwrap_or_default(), String::new()),
                Status::Refused(e) | Status::Unknown(e) | Status::SkippedInvalid(e) => {
                    (String::new(), e.clone())
                }
            };
            csv.write_record([
                row.to_string(),
                crate::export::guard_text(reference).into_owned(),
                status.word().to_string(),
                id,
                crate::export::guard_text(&error).into_owned(),
            ])?;
        }
        csv.flush()
    })
    .map_err(|e| Failure {
        code: 1,
        message: format!("Could not write the report {}: {e}", out.display()),
    })?;
    eprintln!("Report written to {}.", out.display());
    Ok(())
}
