//! `invoice-desk receivables`: every customer's receivables on a day, a few customers
//! listed at a time.

use super::CliError;
use crate::api::Client;
use crate::receivables::aging::{Bucket, Total};
use crate::receivables::{Only, Row, cells, totals};
use crate::tr;
use std::io::IsTerminal;
use std::path::Path;

/// What was asked.
pub(super) struct Ask<'a> {
    pub customers: Option<&'a Path>,
    pub as_of: chrono::NaiveDate,
    pub only: Only,
    pub out: Option<&'a Path>,
    pub json: bool,
}

/// Customers listed at once (the service's rate limits are shared by the desk).
const AT_ONCE: usize = 8;

fn money(t: Option<Total>, code: &str) -> String {
    match t {
        Some(t) => match t.value() {
            Some(v) => crate::api::money::format_amount(v, Some(code)),
            None => tr!("cli-receivables-too-large"),
        },
        None => String::new(),
    }
}

/// Runs it.
pub(super) async fn run(client: &Client, ask: &Ask<'_>) -> Result<(), CliError> {
    let target = match ask.out {
        Some(out) => {
            let ext = out.extension().map(|e| e.to_string_lossy().to_lowercase());
            if !matches!(ext.as_deref(), Some("csv" | "xlsx")) {
                return Err(CliError::usage(tr!("cli-receivables-csv-only")));
            }
            Some(super::destination(out)?)
        }
        None => None,
    };
    let journal = super::journal_open::open()?;
    let known = journal
        .known_customers(super::statement_cmd::MAX_CUSTOMERS as u64)
        .map_err(super::journal_open::not_recorded)?;
    let ids: Vec<String> = match ask.customers {
        Some(file) => super::statement_cmd::read_ids(file)?,
        None => known.iter().map(|c| c.id.clone()).collect(),
    };
    if ids.is_empty() {
        return Err(CliError::usage(tr!("cli-receivables-none")));
    }
    let directory: std::collections::HashMap<&str, &crate::journal::Customer> =
        known.iter().map(|c| (c.id.as_str(), c)).collect();
    let progress = std::io::stderr().is_terminal();
    let total = ids.len();
    let mut rows: Vec<Row> = Vec::with_capacity(total);
    // A workbook also lists every invoice owed: only then are they kept.
    let workbook = target
        .as_ref()
        .and_then(|t| t.extension())
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"));
    // Each listing is folded as its pages come: what is owed, and (for a workbook) a
    // line per invoice owed, never every invoice the service sends.
    let keep = if workbook {
        crate::receivables::Keep::Owed
    } else {
        crate::receivables::Keep::Nothing
    };
    let mut owed: Vec<(String, Vec<crate::receivables::Line>)> = Vec::new();
    use futures_util::StreamExt;
    let as_of = ask.as_of;
    let mut work = futures_util::stream::iter(ids.iter().cloned())
        .map(|id| async move {
            let listed = crate::receivables::listed(client, &id, as_of, keep, |_| true).await;
            (id, listed)
        })
        .buffered(AT_ONCE);
    while let Some((id, listed)) = work.next().await {
        let entry = directory.get(id.as_str());
        let summary = match listed {
            Ok(l) if l.too_many => Err(crate::pdf::PdfError::TooMany.words()),
            Ok(l) => {
                if workbook && !l.lines.is_empty() {
                    owed.push((id.clone(), l.lines));
                }
                Ok(l.summary)
            }
            Err(e) => Err(crate::i18n::error_text(&e)),
        };
        rows.push(Row {
            name: entry.and_then(|c| c.name.clone()),
            rut: entry.and_then(|c| c.rut.clone()),
            summary,
            customer: id,
        });
        if progress {
            note_part!(
                "\r{}   ",
                tr!("cli-receivables-progress", done = rows.len(), total = total)
            );
        }
    }
    if progress {
        note!();
    }
    let failed = rows.iter().filter(|r| r.summary.is_err()).count();
    let shown: Vec<&Row> = rows.iter().filter(|r| ask.only.keeps(r)).collect();
    if let Some(target) = target {
        let written = if workbook {
            let kept: std::collections::HashSet<&str> =
                shown.iter().map(|r| r.customer.as_str()).collect();
            owed.retain(|(c, _)| kept.contains(c.as_str()));
            crate::export::xlsx::write_receivables(&target, &shown, &owed, crate::i18n::current())
        } else {
            let csv = table_csv(&shown);
            crate::fsutil::write_user_file(&target, |w| {
                std::io::Write::write_all(w, csv.as_bytes())
            })
        };
        written.map_err(|e| CliError {
            code: super::Exit::Failed,
            message: tr!(
                "cli-write-failed",
                path = target.display(),
                why = crate::i18n::io_words(&e)
            ),
        })?;
        note!(
            "{}",
            tr!(
                "cli-receivables-written",
                count = shown.len(),
                path = target.display()
            )
        );
    } else if ask.json {
        say!("{}", crate::text::escape_json_for_terminal(&json(&shown)));
    } else {
        say!("{}", table_text(&shown, &rows));
    }
    if failed > 0 {
        return Err(CliError {
            code: super::Exit::Refused,
            message: tr!("cli-receivables-failed", count = failed),
        });
    }
    Ok(())
}

/// One line per customer (each currency owed in turn), then the totals.
fn table_text(shown: &[&Row], all: &[Row]) -> String {
    let esc = |t: &str| crate::text::escape_controls(t).into_owned();
    let mut out = String::new();
    out.push_str(&format!(
        "{:<18} {:<30} {:>28} {:>10} {:>12}\n",
        tr!("cli-receivables-customer"),
        tr!("cli-receivables-name"),
        tr!("cli-receivables-owed"),
        tr!("cli-receivables-oldest"),
        tr!("cli-receivables-last")
    ));
    for r in shown {
        let name: String = esc(r.name.as_deref().unwrap_or(""))
            .chars()
            .take(30)
            .collect();
        match &r.summary {
            Err(why) => out.push_str(&format!(
                "{:<18} {:<30} {}\n",
                esc(&r.customer),
                name,
                tr!("cli-receivables-not-listed", why = why)
            )),
            Ok(s) => {
                let owed: Vec<String> = s.owed.iter().map(|(c, t)| money(Some(*t), c)).collect();
                let owed = if owed.is_empty() {
                    tr!("cli-receivables-nothing")
                } else {
                    owed.join(" · ")
                };
                out.push_str(&format!(
                    "{:<18} {:<30} {:>28} {:>10} {:>12}\n",
                    esc(&r.customer),
                    name,
                    owed,
                    s.oldest_overdue.map(|d| d.to_string()).unwrap_or_default(),
                    s.last_invoice
                        .map(|d| crate::i18n::date(&d.format("%Y-%m-%d").to_string()))
                        .unwrap_or_default()
                ));
            }
        }
    }
    for (code, t) in totals(all) {
        let buckets: Vec<String> = Bucket::ALL
            .iter()
            .map(|b| {
                format!(
                    "{} {}",
                    crate::i18n::bucket(*b),
                    money(Some(t[b.index()]), &code)
                )
            })
            .collect();
        out.push_str(&format!(
            "{}: {} ({})\n",
            tr!("cli-receivables-total", currency = code.clone()),
            money(Some(t[5]), &code),
            buckets.join(", ")
        ));
    }
    out
}

/// One CSV row per customer and currency owed (one row for a customer owing nothing,
/// or whose invoices could not be listed — its problem said).
fn table_csv(shown: &[&Row]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "customer",
        "name",
        "rut",
        "currency",
        "current",
        "days_1_30",
        "days_31_60",
        "days_61_90",
        "over_90",
        "owed",
        "oldest_overdue_days",
        "last_invoice",
        "problem",
    ]);
    let guard = |t: &str| crate::text::guard_text(t).into_owned();
    let plain = |t: Option<Total>| {
        t.and_then(|t| t.value())
            .map(|v| v.to_string())
            .unwrap_or_default()
    };
    for r in shown {
        let id = guard(&r.customer);
        let name = guard(r.name.as_deref().unwrap_or(""));
        let rut = guard(r.rut.as_deref().unwrap_or(""));
        match &r.summary {
            Err(why) => {
                let _ = w.write_record([
                    id.as_str(),
                    &name,
                    &rut,
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    &guard(why),
                ]);
            }
            Ok(s) => {
                let oldest = s.oldest_overdue.map(|d| d.to_string()).unwrap_or_default();
                let last = s
                    .last_invoice
                    .map(|d| d.format("%Y-%m-%d").to_string())
                    .unwrap_or_default();
                if s.owed.is_empty() {
                    let _ = w.write_record([
                        id.as_str(),
                        &name,
                        &rut,
                        "",
                        "",
                        "",
                        "",
                        "",
                        "",
                        "0",
                        &oldest,
                        &last,
                        "",
                    ]);
                }
                for (code, owed) in &s.owed {
                    let c = cells(s, code);
                    let _ = w.write_record([
                        id.as_str(),
                        &name,
                        &rut,
                        code,
                        &plain(c[0]),
                        &plain(c[1]),
                        &plain(c[2]),
                        &plain(c[3]),
                        &plain(c[4]),
                        &plain(Some(*owed)),
                        &oldest,
                        &last,
                        "",
                    ]);
                }
            }
        }
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// The rows as JSON: amounts as exact decimal strings, per currency.
fn json(shown: &[&Row]) -> String {
    let plain = |t: Option<Total>| t.and_then(|t| t.value()).map(|v| v.to_string());
    let v: Vec<serde_json::Value> = shown
        .iter()
        .map(|r| match &r.summary {
            Err(why) => serde_json::json!({
                "customer": r.customer, "name": r.name, "rut": r.rut, "problem": why,
            }),
            Ok(s) => {
                let by: serde_json::Map<String, serde_json::Value> = s
                    .owed
                    .iter()
                    .map(|(code, owed)| {
                        let c = cells(s, code);
                        (
                            code.clone(),
                            serde_json::json!({
                                "current": plain(c[0]), "days_1_30": plain(c[1]),
                                "days_31_60": plain(c[2]), "days_61_90": plain(c[3]),
                                "over_90": plain(c[4]), "owed": plain(Some(*owed)),
                            }),
                        )
                    })
                    .collect();
                serde_json::json!({
                    "customer": r.customer, "name": r.name, "rut": r.rut,
                    "invoices": s.invoices, "owed": by,
                    "oldest_overdue_days": s.oldest_overdue,
                    "last_invoice": s.last_invoice.map(|d| d.format("%Y-%m-%d").to_string()),
                })
            }
        })
        .collect();
    serde_json::to_string_pretty(&v).unwrap_or_default()
}
