//! `invoice-desk bulk FILE`: a billing run from a spreadsheet. Every row is checked
//! before anything is sent; the sending (journal first, never twice, one pause for
//! everybody on a 429) is `bulk::run`'s. Ctrl-C stops sending: requests in flight
//! finish and are journaled, the report says which rows were not sent.

use super::{BulkArgs, CliError};
use crate::api::Client;
use crate::api::client::AbortOnDrop;
use crate::bulk::Plan;
use crate::bulk::run::{AllowSimilar, Control, Counts, Held, Runner, Status};
use crate::export::report::{self, Line};
use crate::journal::SharedJournal;
use crate::text::escape_controls;
use crate::tr;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where a run's report goes, checked before anything is read or sent: a report that
/// cannot be written stops the run now, never after the rows are sent.
pub(super) fn report_target(
    report: Option<&std::path::Path>,
) -> Result<Option<std::path::PathBuf>, CliError> {
    report
        .map(|out| {
            crate::fsutil::check_destination(out).map_err(|e| {
                CliError::usage(tr!(
                    "cli-report-unwritable",
                    path = out.display(),
                    why = crate::i18n::destination_error(&e)
                ))
            })
        })
        .transpose()
}

pub(super) async fn bulk_command(a: BulkArgs, profile: Option<&str>) -> Result<(), CliError> {
    let report_target = report_target(a.report.as_deref())?;
    let resolved = super::settings::resolve(profile)?;
    // The token is fetched while the journal is opened and the file read and checked:
    // after them, a run's first row waited for it (50 ms of a 7 s run at C = 64, #51).
    // Only for a run that will not ask the clerk first (`--yes`): a dry run, or one
    // waiting for an answer, asks the service nothing yet.
    let client = (a.yes && !a.dry_run).then(|| Client::new(resolved.config.clone()));
    let _token_ahead = match &client {
        Some(Ok(c)) => {
            let c = c.clone();
            Some(AbortOnDrop(tokio::spawn(async move {
                c.fetch_token_ahead().await
            })))
        }
        _ => None,
    };
    let journal = super::journal_open::journal_before_sending()?;
    let (plan, file_id) = plan_file(&a, &resolved, &journal)?;
    // The directory's names for the report, read now while the journal is ours; a
    // directory that cannot be read leaves them out, not the report.
    let names = journal
        .customer_names(&plan.customer_ids())
        .unwrap_or_default();
    say_problems(&plan);
    if !plan.problems.is_empty() && !a.skip_invalid {
        return Err(CliError::usage(tr!(
            "cli-problems",
            count = plan.problems.len(),
            path = a.file.display()
        )));
    }
    say!("{}", summary(&plan));
    if a.dry_run {
        for r in plan.rows.iter().take(5) {
            let body = r.invoice.to_json().unwrap_or_default();
            say!(
                "{}",
                tr!(
                    "cli-row",
                    row = r.row,
                    what = crate::text::escape_json_for_terminal(&body.to_string())
                )
            );
        }
        say!("{}", tr!("cli-dry-run"));
        return Ok(());
    }
    if plan.rows.is_empty() {
        say!("{}", tr!("cli-nothing-to-send"));
        return write_report(
            report_target.as_deref(),
            a.report.as_deref(),
            &plan,
            &names,
            &[],
        );
    }
    confirm(&a)?;
    let control = Arc::new(Control::default());
    let mut runner = Runner {
        base_url: resolved.config.base_url.clone(),
        profile_account: resolved.config.account_key.clone(),
        client: match client {
            Some(c) => c,
            None => Client::new(resolved.config),
        }
        .map_err(CliError::from)?,
        journal: SharedJournal::new(journal),
        profile: resolved.profile_name.clone(),
        control: control.clone(),
        allow_similar: if a.allow_similar {
            AllowSimilar::All
        } else {
            AllowSimilar::default()
        },
        four_eyes: Default::default(),
    };
    let file_name = a.file.file_name().map(|n| n.to_string_lossy().into_owned());
    runner.four_eyes = super::approvals_cmd::run_clearance(&runner, &plan.rows, file_name).await?;
    let from = From {
        file: Some(&a.file),
        file_id: &file_id,
    };
    let (counts, mut results) = send(&runner, from, usize::from(a.concurrency), &plan).await;
    results.sort_by_key(|r| r.0);
    say_results(&counts, &plan, &results);
    write_report(
        report_target.as_deref(),
        a.report.as_deref(),
        &plan,
        &names,
        &results,
    )?;
    exit_for(&counts, &control)
}

/// A usage failure (exit 2).
/// Reads the file once, its rows going straight into the plan (nothing else of it is
/// kept); its digest, known only at the end, is given to the rows after.
fn plan_file(
    a: &BulkArgs,
    resolved: &super::settings::Resolved,
    journal: &crate::journal::Journal,
) -> Result<(Plan, String), CliError> {
    let resolve = |text: &str| crate::bulk::resolve_customer(journal, text);
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
    let file_id = read.map_err(|e| {
        CliError::usage(tr!(
            "cli-cannot-read",
            path = a.file.display(),
            why = crate::i18n::sheet_error(&e)
        ))
    })?;
    let mut plan = planner
        .map(crate::bulk::Planner::finish)
        .unwrap_or_default();
    plan.set_digest(&file_id);
    Ok((plan, file_id))
}

/// Each row's problem, in the app's words with the row, and the CLI's own way out for
/// columns it does not know.
fn say_problems(plan: &Plan) {
    for p in &plan.problems {
        // The app's words, with the row (the app shows it in its table) and the CLI's
        // own way out for columns it does not know.
        let what = match &p.why {
            crate::bulk::Why::UnknownColumns(c) => tr!(
                "cli-unknown-columns",
                columns = c
                    .iter()
                    .map(|c| escape_controls(c).into_owned())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            why => crate::i18n::bulk_why(why),
        };
        if p.column.is_empty() {
            note!("{}", tr!("cli-row", row = p.row, what = what));
        } else {
            note!(
                "{}",
                tr!(
                    "cli-row-cell",
                    row = p.row,
                    column = escape_controls(&p.column),
                    what = what
                )
            );
        }
    }
}

/// Asks before sending, unless `--yes` (and refuses without a terminal to ask on).
fn confirm(a: &BulkArgs) -> Result<(), CliError> {
    if !a.yes {
        if !std::io::stdin().is_terminal() {
            return Err(CliError::usage(tr!(
                "cli-not-a-terminal",
                what = tr!("cli-what-send")
            )));
        }
        note_part!("{} {} ", tr!("cli-send-them"), tr!("cli-yes-no"));
        let _ = std::io::stderr().flush();
        let mut answer = String::new();
        std::io::stdin()
            .read_line(&mut answer)
            .map_err(|e| CliError::usage(tr!("cli-could-not-read-answer", why = e)))?;
        if !super::said_yes(&answer) {
            return Err(CliError::usage(tr!("cli-nothing-sent")));
        }
    }
    Ok(())
}

/// What each row became, in the file's order of arrival.
pub(super) type Results = Vec<(usize, String, Status)>;

/// Where a run's rows come from: a file (its run kept in the journal, offered again if
/// cut short), or none (a contracts run: its rows are made again from the contracts).
pub(super) struct From<'a> {
    /// The file.
    pub file: Option<&'a std::path::Path>,
    /// Its digest.
    pub file_id: &'a str,
}

/// `now` when it has just begun (it was `None` when last looked at, `said` says so): a
/// wait or a slowdown is said once, as it begins.
fn newly<T>(said: &mut bool, now: Option<T>) -> Option<T> {
    let was = std::mem::replace(said, now.is_some());
    now.filter(|_| !was)
}

/// Sends the plan's rows: progress on a terminal, a 429's wait said as it begins, Ctrl-C
/// stops sending (requests in flight finish and are journaled).
pub(super) async fn send(
    runner: &Runner,
    from: From<'_>,
    concurrency: usize,
    plan: &Plan,
) -> (Counts, Results) {
    let control = runner.control.clone();
    let total = plan.rows.len();
    let ctrl_c = {
        let control = control.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                note!("\n{}", tr!("cli-stopping"));
                control.cancel();
            }
        })
    };
    // A 429's wait is said as it begins, with when sending resumes; reading the
    // service's listings first and waiting out a cut-short run's requests, as they
    // begin, with how many and for how long (a frozen count says nothing).
    let waits = {
        let control = control.clone();
        tokio::spawn(async move {
            let mut said = None;
            let (mut said_checking, mut said_in_flight, mut said_slowed) = (false, false, false);
            let mut said_down = false;
            loop {
                if let Some((_, of)) = control.checking()
                    && !said_checking
                {
                    note!("{}", tr!("cli-checking", of = of));
                    said_checking = true;
                }
                if let Some(w) = newly(&mut said_in_flight, control.in_flight_wait()) {
                    note!("\n{}", crate::i18n::in_flight_wait(&w, Instant::now()));
                }
                // Said when the run first sends fewer at once, and again only after it
                // was back at its concurrency.
                if let Some(now) = newly(&mut said_slowed, control.slowed()) {
                    note!("\n{}", tr!("cli-slowed", now = now));
                }
                // The journal's server gone (a restart, a failover): said as the wait
                // begins, and when it answers again.
                let was_down = said_down;
                if let Some(since) = newly(&mut said_down, control.journal_down_since()) {
                    note!("\n{}", super::output::journal_down(since));
                } else if was_down && !said_down {
                    note!("\n{}", tr!("cli-journal-back"));
                }
                let until = control.waiting_until();
                if let Some(t) = until
                    && said != Some(t)
                {
                    note!(
                        "\n{}",
                        tr!(
                            "cli-waiting-429",
                            time = t.with_timezone(&chrono::Local).format("%H:%M:%S")
                        )
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
    let mut by_others = 0usize;
    let each = |i: usize, status: Status| {
        let row = &plan.rows[i];
        let reference = row.invoice.invoice_external_id.clone().unwrap_or_default();
        if let Status::SkippedExisting(e) = &status
            && e.by.is_some()
        {
            by_others += 1;
        }
        results.push((row.row, reference, status));
        let done = results.len();
        if progress && (last_shown.elapsed() > Duration::from_millis(250) || done == total) {
            last_shown = Instant::now();
            // The pace counts from when rows could be sent (listings read).
            let since = control.sending_since().unwrap_or(started);
            // No time left is said while the run waits on requests in flight.
            if let Some((rate, left)) = crate::bulk::run::pace(done, total, since.elapsed())
                .filter(|_| control.in_flight_wait().is_none())
            {
                // The whole run's progress: rows colleagues issue count too.
                let others = if by_others > 0 {
                    format!(" {}", tr!("cli-run-progress-others", count = by_others))
                } else {
                    String::new()
                };
                note_part!(
                    "\r{}{others}   ",
                    tr!(
                        "cli-run-progress",
                        done = done,
                        total = total,
                        rate = format!("{rate:.0}"),
                        left = left.as_secs()
                    )
                );
            }
        }
    };
    let counts = match from.file {
        Some(file) => {
            runner
                .run_file(
                    file,
                    from.file_id,
                    None,
                    plan.rows.clone(),
                    concurrency,
                    each,
                )
                .await
        }
        None => {
            let mut counts = Counts::default();
            let mut each = each;
            runner
                .run(plan.rows.clone(), concurrency, |i, status| {
                    if matches!(&status, Status::SkippedExisting(e) if e.at_service) {
                        counts.found_at_service += 1;
                    }
                    counts.add(&status);
                    each(i, status);
                })
                .await;
            counts
        }
    };
    ctrl_c.abort();
    waits.abort();
    if progress {
        note!();
    }
    (counts, results)
}

/// The run's counts, and each row that was not issued with why.
pub(super) fn say_results(counts: &Counts, plan: &Plan, results: &Results) {
    say!("{}", outcome_line(counts, plan.invalid_rows.len()));
    if counts.found_at_service > 0 {
        say!(
            "{}",
            tr!("cli-found-at-service", count = counts.found_at_service)
        );
    }
    if let Some(until) = counts.waiting_until {
        say!(
            "{}",
            tr!(
                "cli-rows-waiting",
                count = counts.waiting,
                time = until.with_timezone(&chrono::Local).format("%H:%M:%S")
            )
        );
    }
    for (row, reference, status) in results {
        // Rows not sent because the run stopped are said once, below (the report lists
        // each with its reason).
        if matches!(
            status,
            Status::NotSent(Held::Journal(_) | Held::Cancelled | Held::Elsewhere(_))
        ) {
            continue;
        }
        if let (word, Some(why)) = crate::i18n::bulk_status(status) {
            note!(
                "{}",
                tr!(
                    "cli-row-outcome",
                    row = row,
                    reference = escape_controls(reference),
                    status = word,
                    why = escape_controls(&why)
                )
            );
        }
    }
}

/// The exit code the run ends with, and its words: the journal or a colleague stopped
/// it first, then Ctrl-C, unknown outcomes, refusals, look-alikes held back.
pub(super) fn exit_for(counts: &Counts, control: &Control) -> Result<(), CliError> {
    if let Some(found) = control.issued_elsewhere() {
        return Err(CliError {
            code: super::Exit::Failed,
            message: tr!(
                "cli-run-elsewhere",
                invoice = escape_controls(&found.invoice),
                reference = escape_controls(&found.reference)
            ),
        });
    }
    if let Some(e) = control.journal_failure() {
        return Err(CliError {
            code: super::Exit::Failed,
            message: tr!(
                "cli-run-journal-stopped",
                why = crate::i18n::journal_error(&e)
            ),
        });
    }
    if counts.cancelled > 0 {
        return Err(CliError {
            code: super::Exit::Interrupted,
            message: tr!("cli-run-cancelled"),
        });
    }
    if counts.unknown > 0 {
        return Err(CliError {
            code: super::Exit::Unknown,
            message: tr!("cli-run-unknown"),
        });
    }
    if counts.refused > 0 || counts.not_sent > 0 {
        return Err(CliError {
            code: super::Exit::Refused,
            message: tr!("cli-run-refused"),
        });
    }
    if counts.similar > 0 {
        return Err(CliError {
            code: super::Exit::Usage,
            message: tr!("cli-run-similar", count = counts.similar),
        });
    }
    Ok(())
}

/// The run's counts in one line.
fn outcome_line(counts: &Counts, invalid: usize) -> String {
    let mut line = tr!(
        "cli-run-counts",
        created = counts.created,
        existing = counts.existing,
        refused = counts.refused,
        unknown = counts.unknown
    );
    if counts.by_others > 0 {
        line.push_str(&tr!("cli-run-by-others", count = counts.by_others));
    }
    if counts.similar > 0 {
        line.push_str(&tr!("cli-run-similar-skipped", count = counts.similar));
    }
    if counts.not_sent > 0 {
        line.push_str(&tr!("cli-run-not-sent", count = counts.not_sent));
    }
    if invalid > 0 {
        line.push_str(&tr!("cli-run-invalid", count = invalid));
    }
    line.push('.');
    line
}

fn summary(plan: &Plan) -> String {
    if plan.rows.is_empty() {
        return tr!("cli-plan-empty");
    }
    let totals: Vec<String> = plan
        .totals()
        .iter()
        .map(|(code, (n, sum))| {
            if code.is_empty() {
                tr!("cli-plan-in-account", count = n, sum = sum)
            } else {
                tr!(
                    "cli-plan-in",
                    count = n,
                    code = code,
                    sum = crate::api::money::format_amount(*sum, Some(code))
                )
            }
        })
        .collect();
    tr!(
        "cli-plan",
        count = plan.rows.len(),
        customers = plan.customers(),
        totals = totals.join("; ")
    )
}

pub(super) fn write_report(
    target: Option<&std::path::Path>,
    report: Option<&std::path::Path>,
    plan: &Plan,
    names: &std::collections::HashMap<String, String>,
    results: &[(usize, String, Status)],
) -> Result<(), CliError> {
    let (Some(target), Some(out)) = (target, report) else {
        return Ok(());
    };
    let by_row: std::collections::HashMap<usize, &crate::api::NewInvoice> =
        plan.rows.iter().map(|r| (r.row, &r.invoice)).collect();
    let mut lines: Vec<Line> = results
        .iter()
        .map(|(row, reference, s)| {
            // What went wrong in the clerk's words, as the app's report says it.
            let why = crate::i18n::bulk_status(s).1.unwrap_or_default();
            let line = Line::of(*row, reference, s, why);
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
        invalid
            .entry(p.row)
            .or_default()
            .push(crate::i18n::bulk_problem(p));
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
    written.map_err(|e| CliError {
        code: super::Exit::Failed,
        message: tr!(
            "cli-report-failed",
            path = out.display(),
            why = crate::i18n::io_words(&e)
        ),
    })?;
    note!("{}", tr!("cli-report-written", path = out.display()));
    Ok(())
}
