//! `statement` (one customer's statement of account as a PDF) and `statements` (a
//! month's, one PDF per customer who owes something, and a summary CSV).

use super::CliError;
use super::journal_open::journal_before_sending;
use crate::api::Client;
use crate::journal::{Action, Intent, Settled};
use crate::pdf::Made;
use crate::tr;
use std::io::IsTerminal;
use std::path::Path;

/// What both commands need.
pub(super) struct Ctx<'a> {
    pub client: &'a Client,
    pub profile: &'a str,
    pub base_url: &'a str,
    pub sender: &'a crate::profile::Sender,
    pub as_of: chrono::NaiveDate,
    pub all: bool,
    /// The UF's value that day, for the line in pesos (`--uf-pesos`).
    pub uf: Option<crate::uf::UfDay>,
}

/// The most customers one `statements` run takes (a customers file is bounded too).
pub(super) const MAX_CUSTOMERS: usize = 100_000;
/// The largest customers file read.
const MAX_LIST_BYTES: u64 = 10 * 1024 * 1024;

fn pdf_failure(e: crate::pdf::PdfError) -> CliError {
    match e {
        crate::pdf::PdfError::Logo(p) => CliError::usage(crate::i18n::sender_problem(&p)),
        other => CliError {
            code: super::Exit::Failed,
            message: tr!("cli-statement-failed", why = other.words()),
        },
    }
}

/// `invoice-desk statement CUSTOMER --out FILE.pdf`.
pub(super) async fn one(ctx: &Ctx<'_>, customer: &str, out: &Path) -> Result<(), CliError> {
    let target = super::destination(out)?;
    // A logo that cannot be used (decoded whole: a corrupt one too) is said before the
    // service is asked anything.
    ctx.sender
        .check_logo()
        .map_err(|e| CliError::usage(crate::i18n::sender_problem(&e)))?;
    let mut journal = journal_before_sending()?;
    let seq = journal
        .record_intent(
            Action::Export,
            &Intent::for_export(
                ctx.profile,
                ctx.base_url,
                customer,
                out.file_name().map(|f| f.to_string_lossy().into_owned()),
            ),
        )
        .map_err(super::journal_open::not_recorded)?;
    let known = journal.customer(customer).ok().flatten();
    let settle = |journal: &mut crate::journal::Journal, s: Settled| {
        super::journal_open::settle_export(journal, seq, &s)
    };
    // A long listing says how far it got (on a terminal): a big customer's takes a
    // while before anything is drawn.
    // Ctrl+C stops it there: nothing is written.
    let progress = std::io::stderr().is_terminal();
    let keep = crate::receivables::Keep::of(ctx.all);
    let (stop, ctrl_c) = super::stop_on_ctrl_c();
    let listed = crate::receivables::listed(ctx.client, customer, ctx.as_of, keep, |n| {
        if progress {
            note_part!("\r{}   ", tr!("cli-statement-listing", count = n));
        }
        !stop.load(std::sync::atomic::Ordering::SeqCst)
    })
    .await;
    ctrl_c.abort();
    if progress {
        note!();
    }
    let listed = match listed {
        Ok(l) if l.stopped => {
            settle(&mut journal, refused("Cancelled"));
            return Err(CliError {
                code: super::Exit::Interrupted,
                message: tr!("cli-statement-stopped"),
            });
        }
        Ok(l) => l,
        Err(e) => {
            settle(&mut journal, Settled::from_error(&e));
            return Err(CliError::from(e));
        }
    };
    let whom = crate::pdf::batch::Customer {
        id: customer.to_string(),
        name: known.as_ref().and_then(|c| c.name.clone()),
        rut: known.and_then(|c| c.rut),
    };
    let lang = crate::i18n::current();
    let made = match crate::pdf::batch::make(ctx.sender, ctx.as_of, lang, ctx.uf, whom, listed)
        .await
        .map_err(pdf_failure)
    {
        Ok(m) => m,
        Err(f) => {
            settle(&mut journal, refused("PdfFailed"));
            return Err(f);
        }
    };
    if let Err(e) =
        crate::fsutil::write_user_file(&target, |w| std::io::Write::write_all(w, &made.pdf))
    {
        settle(&mut journal, refused("WriteFailed"));
        return Err(CliError {
            code: super::Exit::Failed,
            message: tr!(
                "cli-write-failed",
                path = out.display(),
                why = crate::i18n::io_words(&e)
            ),
        });
    }
    // Too long to print whole: every invoice in a workbook beside it, same name.
    let book = match &made.workbook {
        Some(bytes) => {
            let path = out.with_extension("xlsx");
            let written = crate::fsutil::check_destination(&path)
                .map_err(|e| std::io::Error::other(crate::i18n::destination_error(&e)))
                .and_then(|t| {
                    crate::fsutil::write_user_file(&t, |w| std::io::Write::write_all(w, bytes))
                });
            if let Err(e) = written {
                settle(&mut journal, refused("WriteFailed"));
                return Err(CliError {
                    code: super::Exit::Failed,
                    message: tr!(
                        "cli-write-failed",
                        path = path.display(),
                        why = crate::i18n::io_words(&e)
                    ),
                });
            }
            Some(path)
        }
        None => None,
    };
    settle(
        &mut journal,
        Settled {
            rows: Some(made.plan.lines.len() as u64),
            ..Settled::done(None)
        },
    );
    say!(
        "{}",
        tr!(
            "cli-statement-written",
            path = out.display(),
            invoices = made.plan.lines.len(),
            pages = made.pages
        )
    );
    if let Some(path) = book {
        say!(
            "{}",
            tr!(
                "cli-statement-workbook",
                path = path.display(),
                shown = made.plan.shown,
                invoices = made.plan.lines.len()
            )
        );
    }
    say!("{}", owed_words(&made));
    Ok(())
}

/// "Owed: $1.234.567 · UF 12,3456; the oldest 45 days overdue." (or nothing owed).
fn owed_words(made: &Made) -> String {
    let owed: Vec<String> = made
        .plan
        .owed
        .iter()
        .filter_map(|(code, t)| {
            t.value()
                .map(|v| crate::api::money::format_amount(v, Some(code)))
        })
        .collect();
    if owed.is_empty() {
        return tr!("cli-statement-nothing-owed");
    }
    match made.plan.oldest_overdue {
        Some(days) => tr!(
            "cli-statement-owed-overdue",
            owed = owed.join(" · "),
            days = days
        ),
        None => tr!("cli-statement-owed", owed = owed.join(" · ")),
    }
}

fn refused(kind: &str) -> Settled {
    Settled {
        outcome: crate::journal::Outcome::Refused,
        error_kind: Some(kind.into()),
        ..Settled::done(None)
    }
}

/// The customer ids of a file: one per line, or the first cell of each CSV row (comma,
/// semicolon or tab); blank lines, `#` comments and a header naming the column skipped;
/// each id once, in order.
pub(super) fn read_ids(path: &Path) -> Result<Vec<String>, CliError> {
    use std::io::Read;
    let bad =
        |why: String| CliError::usage(tr!("cli-customers-file", path = path.display(), why = why));
    let file = std::fs::File::open(path).map_err(|e| bad(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_LIST_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(e.to_string()))?;
    if bytes.len() as u64 > MAX_LIST_BYTES {
        return Err(bad(tr!(
            "cli-customers-too-large",
            mb = MAX_LIST_BYTES / 1024 / 1024
        )));
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut seen = std::collections::HashSet::new();
    let mut ids = Vec::new();
    for (i, line) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let cell = line
            .split([',', ';', '\t'])
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches('"')
            .trim();
        if cell.is_empty() || cell.starts_with('#') {
            continue;
        }
        let folded = crate::journal::fold(cell);
        if i == 0
            && ["cliente", "customer", "id", "customer id", "id cliente"].contains(&folded.as_str())
        {
            continue;
        }
        if crate::api::checked_customer_id(cell).is_err() {
            return Err(bad(tr!(
                "cli-customers-bad-id",
                line = i + 1,
                id = crate::text::escape_controls(cell)
            )));
        }
        if seen.insert(cell.to_string()) {
            ids.push(cell.to_string());
        }
        if ids.len() > MAX_CUSTOMERS {
            return Err(bad(tr!("cli-customers-too-many", max = MAX_CUSTOMERS)));
        }
    }
    if ids.is_empty() {
        return Err(bad(tr!("cli-customers-none")));
    }
    Ok(ids)
}

/// `invoice-desk statements --customers FILE|--all-known --out FOLDER`.
pub(super) async fn many(
    ctx: &Ctx<'_>,
    customers: Option<&Path>,
    all_known: bool,
    out: &Path,
    dialect: crate::export::Dialect,
) -> Result<(), CliError> {
    ctx.sender
        .check_logo()
        .map_err(|e| CliError::usage(crate::i18n::sender_problem(&e)))?;
    let mut journal = journal_before_sending()?;
    let ids: Vec<String> = match customers {
        Some(file) => read_ids(file)?,
        None if all_known => journal
            .known_customers(MAX_CUSTOMERS as u64)
            .map_err(super::journal_open::not_recorded)?
            .into_iter()
            .map(|c| c.id)
            .collect(),
        None => return Err(CliError::usage(tr!("cli-customers-none"))),
    };
    if ids.is_empty() {
        return Err(CliError::usage(tr!("cli-customers-none")));
    }
    std::fs::create_dir_all(out).map_err(|e| CliError {
        code: super::Exit::Usage,
        message: tr!(
            "cli-cannot-export-to",
            path = out.display(),
            why = crate::i18n::io_words(&e)
        ),
    })?;
    let lang = crate::i18n::current();
    // The run is journaled: who, for how many, where.
    let seq = journal
        .record_intent(
            Action::Export,
            &Intent {
                customer: None,
                ..Intent::for_export(
                    ctx.profile,
                    ctx.base_url,
                    "",
                    // The same in every language: the journal is read by all.
                    Some(format!("{} ({})", out.display(), ids.len())),
                )
            },
        )
        .map_err(super::journal_open::not_recorded)?;
    let (stop, ctrl_c) = super::stop_on_ctrl_c();
    let progress = std::io::stderr().is_terminal();
    let total = ids.len();
    let customers: Vec<crate::pdf::batch::Customer> = ids
        .iter()
        .map(|id| {
            let known = journal.customer(id).ok().flatten();
            crate::pdf::batch::Customer {
                id: id.clone(),
                name: known.as_ref().and_then(|c| c.name.clone()),
                rut: known.and_then(|c| c.rut),
            }
        })
        .collect();
    let batch = crate::pdf::batch::Batch {
        client: ctx.client,
        sender: ctx.sender,
        as_of: ctx.as_of,
        all: ctx.all,
        lang,
        out,
        dialect,
        uf: ctx.uf,
    };
    let done = crate::pdf::batch::run(&batch, customers, &stop, |n| {
        if progress {
            note_part!(
                "\r{}   ",
                tr!("cli-statements-progress", done = n, total = total)
            );
        }
    })
    .await;
    ctrl_c.abort();
    if progress {
        note!();
    }
    let stopped = done.len() < total;
    let written = crate::pdf::batch::write_summary(&batch, &done);
    let pdfs = done.iter().filter(|d| d.file.is_some()).count();
    let failed = done.iter().filter(|d| d.failed.is_some()).count();
    let settled = match (&written, failed) {
        (Err(_), _) => refused("WriteFailed"),
        _ => Settled {
            rows: Some(pdfs as u64),
            ..Settled::done(None)
        },
    };
    super::journal_open::settle_export(&mut journal, seq, &settled);
    let summary_path = written.map_err(|e| CliError {
        code: super::Exit::Failed,
        message: tr!(
            "cli-write-failed",
            path = out.display(),
            why = crate::i18n::io_words(&e)
        ),
    })?;
    say!(
        "{}",
        tr!(
            "cli-statements-done",
            pdfs = pdfs,
            nothing = done.len() - pdfs - failed,
            failed = failed,
            summary = summary_path.display()
        )
    );
    for d in done.iter().filter(|d| d.failed.is_some()) {
        note!(
            "{}",
            tr!(
                "cli-statements-customer-failed",
                customer = crate::text::escape_controls(&d.customer),
                why = d.failed.clone().unwrap_or_default()
            )
        );
    }
    if stopped {
        return Err(CliError {
            code: super::Exit::Failed,
            message: tr!("cli-statements-stopped", done = done.len(), total = total),
        });
    }
    if failed > 0 {
        return Err(CliError {
            code: super::Exit::Refused,
            message: String::new(),
        });
    }
    Ok(())
}
