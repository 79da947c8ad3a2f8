//! `invoice-desk bulk FILE`: a billing run from a spreadsheet. Every row is checked
//! before anything is sent; the sending (journal first, never twice, one pause for
//! everybody on a 429) is `bulk::run`'s. Ctrl-C stops sending: requests in flight
//! finish and are journaled, the report says which rows were not sent.

use super::{BulkArgs, Failure};
use crate::api::Client;
use crate::bulk::Plan;
use crate::bulk::run::{AllowSimilar, Control, Counts, Held, Runner, Status};
use crate::export::report::{self, Line};
use crate::journal::SharedJournal;
use crate::text::escape_controls;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Exit code when Ctrl-C stopped the run (as a shell reports SIGINT).
const EXIT_INTERRUPTED: u8 = 130;

pub(super) async fn bulk_command(a: BulkArgs, profile: Option<&str>) -> Result<(), Failure> {
    let usage = |m: String| Failure {
        code: 2,
        message: m,
    };
    // Checked before the file is read: a report that cannot be written stops now,
    // never after the rows are sent.
    let report_target = match &a.report {
        None => None,
        Some(out) => Some(
            crate::fsutil::check_destination(out)
                .map_err(|e| usage(format!("Cannot write the report to {}: {e}", out.display())))?,
        ),
    };
    let resolved = super::settings::resolve(profile)?;
    let base_url = resolved.config.base_url.clone();
    let profile_account = resolved.config.account_key.clone();
    let journal = super::service::journal_before_sending()?;
    // The file is read once, its rows going straight into the plan (nothing else of it
    // is kept); the legacy references need its digest, known only at the end, so rows
    // are planned with a placeholder and given it after.
    let (plan, file_id) = {
        let resolve = |text: &str| crate::bulk::resolve_customer(&journal, text);
        let input = crate::bulk::PlanInput {
            file_id: crate::bulk::DIGEST_LATER,
            currencies: &resolved.currencies,
            reading: resolved.account_currency,
            resolve: &resolve,
            mapping: None,
            ignore_unknown_columns: a.ignore_columns,
        };
        let mut planner: Option<crate::bulk::Planner<'_>> = None;
        let read = crate::sheet::read_each(
            &a.file,
            a.sheet.as_deref(),
            &crate::sheet::LIMITS,
            |n, row| {
                match planner.as_mut() {
                    None => planner = Some(crate::bulk::Planner::new(&row, &input)),
                    Some(p) => p.push(n, &row),
                }
                Ok(())
            },
        );
        let file_id = read.map_err(|e| usage(format!("Cannot read {}: {e}.", a.file.display())))?;
        let mut plan = planner
            .map(crate::bulk::Planner::finish)
            .unwrap_or_default();
        plan.set_digest(&file_id);
        (plan, file_id)
    };
    // The directory's names for the report, read now while the journal is ours; a
    // directory that cannot be read leaves them out, not the report.
    let names = journal
        .customer_names(&plan.customer_ids())
        .unwrap_or_default();
    for p in &plan.problems {
        note!("{p}");
    }
    if !plan.problems.is_empty() && !a.skip_invalid {
        return Err(usage(format!(
            "{} problems in {}: nothing was sent (--skip-invalid sends the valid rows).",
            plan.problems.len(),
            a.file.display()
        )));
    }
    say!("{}", summary(&plan));
    if a.dry_run {
        for r in plan.rows.iter().take(5) {
            let body = r.invoice.to_json().unwrap_or_default();
            say!(
                "row {}: {}",
                r.row,
                crate::text::escape_json_for_terminal(&body.to_string())
            );
        }
        say!("Dry run: nothing was sent.");
        return Ok(());
    }
    if plan.rows.is_empty() {
        say!("Nothing to send.");
        return write_report(report_target.as_deref(), &a, &plan, &names, &[]);
    }
    if !a.yes {
        if !std::io::stdin().is_terminal() {
            return Err(usage(
                "Refusing to send without --yes: stdin is not a terminal, so nobody can confirm."
                    .into(),
            ));
        }
        note_part!("Send them? [y/N] ");
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
    let control = Arc::new(Control::default());
    let runner = Runner {
        client,
        journal: SharedJournal::new(journal),
        base_url,
        profile: resolved.profile_name.clone(),
        profile_account,
        control: control.clone(),
        allow_similar: if a.allow_similar {
            AllowSimilar::All
        } else {
            AllowSimilar::default()
        },
    };
    let total = plan.rows.len();
    let ctrl_c = {
        let control = control.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                note!(
                    "\nStopping: the requests on their way finish and are journaled; nothing more is sent."
                );
                control.cancel();
            }
        })
    };
    // A 429's wait is said as it begins, with when sending resumes.
    let waits = {
        let control = control.clone();
        tokio::spawn(async move {
            let mut said = None;
            loop {
                let until = control.waiting_until();
                if let Some(t) = until
                    && said != Some(t)
                {
                    note!(
                        "\nThe service asked to wait (429); sending resumes at {} (Ctrl-C stops).",
                        t.with_timezone(&chrono::Local).format("%H:%M:%S")
                    );
                    said = Some(t);
                }
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        })
    };
    let started = Instant::now();
    let progress = std::io::stderr().is_terminal();
    let mut results: Vec<(usize, String, Status)> = Vec::with_capacity(total);
    let mut last_shown = Instant::now();
    let counts = runner
        .run_file(
            &a.file,
            &file_id,
            None,
            plan.rows.clone(),
            usize::from(a.concurrency),
            |i, status| {
                let row = &plan.rows[i];
                let reference = row.invoice.invoice_external_id.clone().unwrap_or_default();
                results.push((row.row, reference, status));
                let done = results.len();
                if progress && (last_shown.elapsed() > Duration::from_millis(250) || done == total)
                {
                    last_shown = Instant::now();
                    if let Some((rate, left)) =
                        crate::bulk::run::pace(done, total, started.elapsed())
                    {
                        note_part!(
                            "\r{done} of {total} rows ({rate:.0}/s, about {} s left)…   ",
                            left.as_secs()
                        );
                    }
                }
            },
        )
        .await;
    ctrl_c.abort();
    waits.abort();
    if progress {
        note!();
    }
    results.sort_by_key(|r| r.0);
    say!("{}", outcome_line(&counts, plan.invalid_rows.len()));
    if counts.found_at_service > 0 {
        say!(
            "{} found already issued at the service (not in this journal): not sent again.",
            counts.found_at_service
        );
    }
    if let Some(until) = counts.waiting_until {
        say!(
            "{} rows wait for confirmation until {}: an earlier request for them may still be at work at the service. Run the same file again after that to settle them.",
            counts.waiting,
            until.with_timezone(&chrono::Local).format("%H:%M:%S")
        );
    }
    for (row, reference, status) in &results {
        // Rows not sent because the run stopped are said once, below (the report lists
        // each with its reason).
        if matches!(status, Status::NotSent(Held::Journal(_) | Held::Cancelled)) {
            continue;
        }
        if let Some(why) = error_text(status) {
            note!(
                "row {row} ({}): {} — {}",
                escape_controls(reference),
                status.word(),
                escape_controls(&why)
            );
        }
    }
    write_report(report_target.as_deref(), &a, &plan, &names, &results)?;
    if let Some(e) = control.journal_failure() {
        return Err(Failure {
            code: 1,
            message: format!(
                "Stopped: {e}. Nothing is sent that the journal cannot record; the rows above say what became of each. Run the same file again once the journal can be written."
            ),
        });
    }
    if counts.cancelled > 0 {
        return Err(Failure {
            code: EXIT_INTERRUPTED,
            message: "Stopped: some rows were not sent. Run the same file again to send them (rows already issued are skipped).".into(),
        });
    }
    if counts.unknown > 0 {
        return Err(Failure {
            code: 6,
            message: "Some rows' outcome is unknown: run the same file again (it checks them first, and sends nothing twice) or `invoice-desk journal resolve`.".into(),
        });
    }
    if counts.refused > 0 || counts.not_sent > 0 {
        return Err(Failure {
            code: 4,
            message: "Some rows were refused or not sent (see above).".into(),
        });
    }
    if counts.similar > 0 {
        return Err(Failure {
            code: 2,
            message: format!(
                "{} rows look like invoices already issued and were not sent (see above). If they really are other invoices, run the same file again with --allow-similar.",
                counts.similar
            ),
        });
    }
    Ok(())
}

/// The run's counts in one line.
fn outcome_line(counts: &Counts, invalid: usize) -> String {
    let mut line = format!(
        "{} created, {} already issued, {} refused, {} unknown",
        counts.created, counts.existing, counts.refused, counts.unknown
    );
    if counts.similar > 0 {
        line.push_str(&format!(", {} possible duplicates skipped", counts.similar));
    }
    if counts.not_sent > 0 {
        line.push_str(&format!(", {} not sent", counts.not_sent));
    }
    if invalid > 0 {
        line.push_str(&format!(", {invalid} invalid rows skipped"));
    }
    line.push('.');
    line
}

/// What went wrong with a row, in English (the CLI's language).
fn error_text(s: &Status) -> Option<String> {
    match s {
        Status::Refused(e) => Some(e.to_string()),
        Status::Unknown(u) => Some(u.to_string()),
        Status::PossibleDuplicate(e) => Some(e.to_string()),
        Status::NotSent(
            h @ (Held::Journal(_) | Held::RateLimited | Held::Unchecked(_) | Held::WaitTooLong(_)),
        ) => Some(h.to_string()),
        _ => None,
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

fn write_report(
    target: Option<&std::path::Path>,
    a: &BulkArgs,
    plan: &Plan,
    names: &std::collections::HashMap<String, String>,
    results: &[(usize, String, Status)],
) -> Result<(), Failure> {
    let (Some(target), Some(out)) = (target, &a.report) else {
        return Ok(());
    };
    let by_row: std::collections::HashMap<usize, &crate::api::NewInvoice> =
        plan.rows.iter().map(|r| (r.row, &r.invoice)).collect();
    let mut lines: Vec<Line> = results
        .iter()
        .map(|(row, reference, s)| {
            let line = Line::of(*row, reference, s, error_text(s).unwrap_or_default());
            match by_row.get(row) {
                Some(inv) => line.about(inv, names.get(&inv.customer).map(String::as_str)),
                None => line,
            }
        })
        .collect();
    // One line per invalid row (with all its problems), found by row number: linear in
    // the rows, however many are invalid.
    let settled: std::collections::HashSet<usize> = lines.iter().map(|l| l.row).collect();
    let mut invalid: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
    for p in plan
        .problems
        .iter()
        .filter(|p| p.row > 1 && !settled.contains(&p.row))
    {
        invalid.entry(p.row).or_default().push(p.to_string());
    }
    for (row, why) in invalid {
        lines.push(Line::of(row, "", &Status::SkippedInvalid, why.join("; ")));
    }
    lines.sort_by_key(|l| l.row);
    let xlsx = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"));
    let written = if xlsx {
        report::write_xlsx(target, "Results", report::CSV_HEADER, &lines)
    } else {
        report::write_csv(target, &lines)
    };
    written.map_err(|e| Failure {
        code: 1,
        message: format!("Could not write the report {}: {e}", out.display()),
    })?;
    note!("Report written to {}.", out.display());
    Ok(())
}
