//! The commands that talk to the service: token, create, get, void, list, export.

use super::output::{ListSink, print_invoice};
use super::{Command, Failure, ListFormat, settings, write_failure};
use crate::api::{Client, CurrencyChoice, NewInvoice, TokenState, money};
use crate::journal::{
    self, Action, Blocked, Guard, Intent, Outcome, Settled, SharedJournal, Similar,
};
use crate::text::escape_controls;
use crate::tr;
use std::io::{IsTerminal, Write};

pub(super) async fn service_command(
    cmd: Command,
    profile: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let resolved = settings::resolve(profile)?;
    let base_url = resolved.config.base_url.clone();
    let profile_account = resolved.config.account_key.clone();
    let client = Client::new(resolved.config).map_err(Failure::from)?;
    match cmd {
        Command::Token => {
            let report = client.check_connection().await?;
            match report.token {
                TokenState::Valid {
                    expires_at: Some(t),
                } => {
                    let left = (t - chrono::Utc::now()).num_minutes();
                    say!(
                        "{}",
                        tr!(
                            "cli-token-valid-until",
                            until = crate::i18n::moment(&t.to_rfc3339()),
                            minutes = left
                        )
                    );
                }
                TokenState::Valid { expires_at: None } => {
                    say!("{}", tr!("cli-token-valid"))
                }
                TokenState::NotUsed => {
                    say!("{}", tr!("cli-token-api-key"))
                }
                other => say!("{}", tr!("cli-token-state", state = format!("{other:?}"))),
            }
            Ok(())
        }
        Command::Create(a) => {
            let currency = match a.currency {
                Some(c) if !resolved.currencies.contains(&c) => {
                    let offered: Vec<&str> = resolved.currencies.iter().map(|c| c.code()).collect();
                    return Err(Failure::usage(tr!(
                        "cli-currency-not-offered",
                        code = c.code(),
                        offered = offered.join(", "),
                        list = offered.join(",")
                    )));
                }
                Some(c) => CurrencyChoice::Code(c),
                None => CurrencyChoice::AccountDefault,
            };
            let reading = currency.currency().or(resolved.account_currency);
            let amount = money::parse_amount_input(&a.amount, reading)
                .map_err(|e| Failure::usage(crate::i18n::amount_error(&e)))?;
            let (extra, metadata) = crate::input::parse_assignments(
                a.fields.iter().map(String::as_str),
            )
            .map_err(|e| {
                Failure::usage(tr!(
                    "cli-field-problem",
                    why = crate::i18n::assignment_error(&e)
                ))
            })?;
            let reference = a
                .external_id
                .clone()
                .unwrap_or_else(crate::input::fresh_reference);
            let inv = NewInvoice {
                customer: a.customer.clone(),
                amount,
                currency,
                product_id: a.product.clone(),
                due_date: a
                    .due
                    .as_deref()
                    .map(|d| {
                        crate::input::parse_date(d, crate::input::DateOrder::DayFirst)
                            .map(|d| d.format("%Y-%m-%d").to_string())
                            .map_err(|e| {
                                Failure::usage(tr!(
                                    "cli-due-problem",
                                    why = crate::i18n::date_error(&e)
                                ))
                            })
                    })
                    .transpose()?,
                invoice_external_id: Some(reference.clone()).filter(|r| !r.is_empty()),
                metadata,
                extra,
            };
            // Checked before anything is journaled: an oversized reference or field is
            // refused here (exit 2), not written down and then refused.
            inv.to_json()?;
            let journal = open_journal()?;
            let account = a.account_key.as_deref().or(profile_account.as_deref());
            let record = Intent::for_create(&resolved.profile_name, &base_url, account, &inv);
            if let Some(r) = a.external_id.as_deref().filter(|r| !r.trim().is_empty()) {
                already_at_service(&journal, &client, &a.customer, r).await?;
            }
            let guard = Guard {
                similar: Similar {
                    allow: a.allow_similar,
                    ..Similar::default()
                },
                ..Guard::default()
            };
            let sent = journal::write_ahead(
                &journal,
                Action::Create,
                record,
                guard,
                client.create_invoice(&inv, a.account_key.as_deref()),
                |c| Some(c.id.clone()),
            )
            .await
            .map_err(blocked)?;
            warn_unrecorded(&sent);
            match sent.result {
                Ok(created) => {
                    print_invoice(&created, json);
                    Ok(())
                }
                Err(e) if e.is_outcome_unknown() => Err(Failure {
                    code: 6,
                    message: format!(
                        "{}\n{}\n{}",
                        crate::i18n::error_text(&e),
                        tr!("cli-to-check"),
                        tr!("cli-unknown-create-ref", reference = reference)
                    ),
                }),
                Err(e) => Err(e.into()),
            }
        }
        Command::Get { id } => {
            print_invoice(&client.get_invoice(&id).await?, json);
            Ok(())
        }
        Command::Void { id, yes } => {
            crate::api::checked_invoice_id(&id)?;
            if !yes {
                if !std::io::stdin().is_terminal() {
                    return Err(Failure::usage(tr!(
                        "cli-not-a-terminal",
                        what = tr!("cli-what-void")
                    )));
                }
                let inv = client.get_invoice(&id).await?;
                note_part!(
                    "{} {} ",
                    tr!(
                        "cli-void-confirm",
                        id = escape_controls(&inv.id),
                        customer = escape_controls(inv.customer.as_deref().unwrap_or("?")),
                        amount = escape_controls(&crate::i18n::amount_text(&inv))
                    ),
                    tr!("cli-yes-no")
                );
                let _ = std::io::stderr().flush();
                let mut answer = String::new();
                std::io::stdin()
                    .read_line(&mut answer)
                    .map_err(|e| Failure::usage(tr!("cli-could-not-read-answer", why = e)))?;
                if !super::said_yes(&answer) {
                    return Err(Failure::usage(tr!("cli-not-voided")));
                }
            }
            let journal = open_journal()?;
            let record = Intent::for_void(
                &resolved.profile_name,
                &base_url,
                profile_account.as_deref(),
                &id,
                None,
            );
            let sent = journal::write_ahead(
                &journal,
                Action::Void,
                record,
                Guard::default(),
                client.void_invoice(&id),
                |v| Some(v.id.clone()),
            )
            .await
            .map_err(blocked)?;
            warn_unrecorded(&sent);
            match sent.result {
                Ok(v) => {
                    print_invoice(&v, json);
                    Ok(())
                }
                Err(e) if e.is_outcome_unknown() => Err(Failure {
                    code: 6,
                    message: format!(
                        "{}\n{}\n{}",
                        crate::i18n::error_text(&e),
                        tr!("cli-to-check"),
                        tr!("cli-unknown-void")
                    ),
                }),
                Err(e) => Err(e.into()),
            }
        }
        Command::List { customer, format } => {
            let format = if json { ListFormat::Json } else { format };
            // Rows go to a temporary file as pages arrive (memory does not grow with the
            // listing) and to stdout only when the listing is complete.
            let mut sink = ListSink::new(format).map_err(write_failure)?;
            let mut failed = None;
            client
                .list_customer_invoices(&customer, |page, _| {
                    for inv in &page {
                        if let Err(e) = sink.push(inv) {
                            failed = Some(e);
                            return std::ops::ControlFlow::Break(());
                        }
                    }
                    std::ops::ControlFlow::Continue(())
                })
                .await
                .map_err(|e| match failed.take() {
                    Some(io) => write_failure(io),
                    None => Failure::from(e),
                })?;
            let n = sink
                .finish(&mut std::io::stdout().lock())
                .map_err(write_failure)?;
            note!("{}", tr!("cli-invoices", count = n));
            Ok(())
        }
        Command::Export {
            customer,
            out,
            format,
            dialect,
            as_of,
        } => {
            let format = super::args::ExportFormat::for_path(format, &out);
            // Checked before the first request: a bad path fails now, not after the
            // whole download.
            let target = crate::fsutil::check_destination(&out).map_err(|e| Failure {
                code: 2,
                message: tr!(
                    "cli-cannot-export-to",
                    path = out.display(),
                    why = crate::i18n::destination_error(&e)
                ),
            })?;
            let mut journal = journal_before_sending()?;
            let record = Intent::for_export(
                &resolved.profile_name,
                &base_url,
                &customer,
                out.file_name().map(|f| f.to_string_lossy().into_owned()),
            );
            let seq = journal
                .record_intent(Action::Export, &record)
                .map_err(not_sent)?;
            // The customer's name from the directory, when known: a last CSV column.
            let name = journal
                .customer_names(&[customer.as_str()])
                .ok()
                .and_then(|mut names| names.remove(&customer));
            let mut settle = |s: Settled| {
                if let Err(e) = journal.record_outcome(seq, &s) {
                    note!(
                        "{}",
                        tr!(
                            "cli-export-not-recorded",
                            why = crate::i18n::journal_error(&e)
                        )
                    );
                }
            };
            let progress = std::io::stderr().is_terminal();
            // CSV is written as it arrives, to the temporary file that replaces the
            // destination at the end; a workbook needs every row at the end (its header
            // and summary), so it holds them, up to Excel's row limit.
            let mut sink = match format {
                super::args::ExportFormat::Csv => Sink::Csv(
                    crate::export::StreamingCsv::to_file(dialect.into(), &target)
                        .map(|c| Box::new(c.with_customer_name(name.clone())))
                        .map_err(|e| {
                            settle(refused("WriteFailed"));
                            Failure {
                                code: 1,
                                message: tr!("cli-export-could-not-start", why = e),
                            }
                        })?,
                ),
                super::args::ExportFormat::Xlsx => Sink::Workbook(Vec::new()),
            };
            let mut spooled = Ok(());
            let listed = client
                .list_customer_rows(&customer, |page, p| {
                    if let Err(e) = sink.take(page) {
                        spooled = Err(e);
                        return std::ops::ControlFlow::Break(());
                    }
                    if progress {
                        note_part!(
                            "\r{}",
                            tr!("cli-export-progress", items = p.items, pages = p.pages)
                        );
                    }
                    std::ops::ControlFlow::Continue(())
                })
                .await;
            // The spool's own error (a full disk, too many fields) comes first: it is
            // why the listing was stopped.
            match (listed, spooled) {
                (_, Err(io)) => {
                    settle(refused("WriteFailed"));
                    return Err(Failure {
                        code: 4,
                        message: format!(
                            "{}\n{}",
                            tr!("cli-export-failed", why = io),
                            tr!("cli-not-changed", path = out.display())
                        ),
                    });
                }
                (Err(e), Ok(_)) => {
                    settle(Settled::from_error(&e));
                    let mut f = Failure::from(e);
                    f.message.push('\n');
                    f.message
                        .push_str(&tr!("cli-not-changed", path = out.display()));
                    return Err(f);
                }
                (Ok(_), Ok(())) => {}
            }
            if progress {
                note!();
            }
            let never = std::sync::atomic::AtomicBool::new(false);
            let mut notes = (0, 0);
            let written = match sink {
                Sink::Csv(csv) => csv.finish_file(&never),
                Sink::Workbook(rows) => {
                    let about = crate::export::xlsx::About {
                        customer: &customer,
                        customer_name: name.as_deref(),
                        today: as_of.unwrap_or_else(|| chrono::Local::now().date_naive()),
                        lang: crate::i18n::current(),
                    };
                    crate::export::xlsx::write_file(&target, rows.iter(), &about, &never).map(|w| {
                        notes = (w.as_text, w.cut);
                        w.rows
                    })
                }
            };
            let n = written.map_err(|e| {
                settle(refused("WriteFailed"));
                Failure {
                    code: 1,
                    message: tr!("cli-write-failed", path = out.display(), why = e),
                }
            })?;
            settle(Settled {
                rows: Some(n),
                ..Settled::done(None)
            });
            note!("{}", tr!("cli-exported", count = n, path = out.display()));
            let (as_text, cut) = notes;
            if as_text > 0 {
                note!("{}", tr!("cli-xlsx-as-text", count = as_text));
            }
            if cut > 0 {
                note!("{}", tr!("cli-xlsx-cut", count = cut));
            }
            Ok(())
        }
        Command::Statement {
            customer,
            out,
            as_of,
            all,
        } => {
            let ctx = statement_ctx(
                &client,
                &resolved.profile_name,
                &resolved.sender,
                &base_url,
                as_of,
                all,
            );
            super::statement_cmd::one(&ctx, &customer, &out).await
        }
        Command::Statements {
            customers,
            all_known,
            out,
            as_of,
            all,
            dialect,
        } => {
            let ctx = statement_ctx(
                &client,
                &resolved.profile_name,
                &resolved.sender,
                &base_url,
                as_of,
                all,
            );
            super::statement_cmd::many(&ctx, customers.as_deref(), all_known, &out, dialect.into())
                .await
        }
        Command::Receivables {
            customers,
            as_of,
            only_overdue,
            older_than,
            out,
        } => {
            let ask = super::receivables_cmd::Ask {
                customers: customers.as_deref(),
                as_of: as_of.unwrap_or_else(|| chrono::Local::now().date_naive()),
                only: crate::receivables::Only {
                    overdue: only_overdue,
                    older_than,
                },
                out: out.as_deref(),
                json,
            };
            super::receivables_cmd::run(&client, &ask).await
        }
        Command::Profile(_)
        | Command::Sandbox(_)
        | Command::Doctor
        | Command::Journal(_)
        | Command::Customers(_)
        | Command::Email(_)
        | Command::Bulk(_) => Ok(()),
    }
}

/// What `statement` and `statements` need: the service, the profile, the day.
fn statement_ctx<'a>(
    client: &'a Client,
    profile: &'a str,
    sender: &'a crate::profile::Sender,
    base_url: &'a str,
    as_of: Option<chrono::NaiveDate>,
    all: bool,
) -> super::statement_cmd::Ctx<'a> {
    super::statement_cmd::Ctx {
        client,
        profile,
        base_url,
        sender,
        as_of: as_of.unwrap_or_else(|| chrono::Local::now().date_naive()),
        all,
    }
}

/// Where an export's rows go while the listing arrives.
enum Sink {
    /// CSV, spooled to a temporary file.
    Csv(Box<crate::export::StreamingCsv>),
    /// A workbook's rows, held (at most Excel's row limit).
    Workbook(Vec<crate::api::Invoice>),
}

impl Sink {
    fn take(&mut self, page: crate::api::Rows<'_>) -> std::io::Result<()> {
        use crate::api::Rows;
        match (self, page) {
            // Rows written straight from the answer's text.
            (Sink::Csv(csv), Rows::Plain(page)) => page.iter().try_for_each(|inv| csv.push(inv)),
            // The page goes on to be decoded into (see `Invoice::recycle_page`). This must
            // stay on the thread that decodes the next page: the spare store is per thread,
            // so a page given back on another thread is never reused (only memory held).
            (Sink::Csv(csv), Rows::Decoded(page)) => {
                page.iter().try_for_each(|inv| csv.push(inv))?;
                crate::api::Invoice::recycle_page(page);
                Ok(())
            }
            (Sink::Workbook(rows), page) => {
                if rows.len() + page.len() > crate::export::xlsx::MAX_ROWS {
                    return Err(std::io::Error::other(tr!(
                        "cli-too-many-for-excel",
                        max = crate::export::xlsx::MAX_ROWS
                    )));
                }
                rows.extend(page.into_invoices());
                Ok(())
            }
        }
    }
}

/// The journal, for a create or void.
fn open_journal() -> Result<SharedJournal, Failure> {
    journal_before_sending().map(SharedJournal::new)
}

/// The journal, before anything is sent or written (create, void, export, bulk): when
/// it cannot be opened, the failure says that nothing was sent.
pub(super) fn journal_before_sending() -> Result<journal::Journal, Failure> {
    super::settings::journal_choice()?.open().map_err(not_sent)
}

fn not_sent(e: journal::JournalError) -> Failure {
    super::journal_cmd::journal_failure(crate::i18n::journal_not_sent(&e), &e)
}

/// Why a create or void was not sent, with its exit code: 1 for the journal, 2 for a
/// reference or void already done, on its way, or a look-alike.
fn blocked(b: Blocked) -> Failure {
    match b {
        Blocked::Journal(e) => not_sent(e),
        Blocked::LooksLike(_) => Failure::usage(format!(
            "{}\n{}",
            tr!("cli-not-sent", why = blocked_text(&b)),
            tr!("cli-allow-similar")
        )),
        Blocked::Pending(_) => Failure::usage(format!(
            "{}\n{}",
            tr!("cli-not-sent", why = blocked_text(&b)),
            tr!("cli-see-resolve")
        )),
        Blocked::Done(_) => Failure::usage(tr!("cli-not-sent", why = blocked_text(&b))),
    }
}

/// A reference this journal has never seen may still be at the service (issued from
/// another computer, or recorded in another journal): looked for in the customer's
/// invoices before it is claimed. Found: refused (exit 2), naming the invoice.
async fn already_at_service(
    journal: &SharedJournal,
    client: &Client,
    customer: &str,
    reference: &str,
) -> Result<(), Failure> {
    let filter = journal::Filter {
        reference: Some(reference.to_string()),
        action: Some(Action::Create),
        ..journal::Filter::default()
    };
    let seen = {
        let filter = filter.clone();
        journal
            .run(move |j| j.count(&filter))
            .await
            .map_err(not_sent)?
    };
    if seen > 0 {
        // The journal's claim decides (done, on its way, or free after a refusal).
        return Ok(());
    }
    let found = client.find_by_reference(customer, reference).await;
    if matches!(found, Ok(Some(_))) {
        // Issued meanwhile by a colleague on the shared journal: its claim names who.
        let recorded = journal.run(move |j| j.count(&filter)).await;
        if recorded.is_ok_and(|n| n > 0) {
            return Ok(());
        }
    }
    match found {
        Ok(Some(inv)) => Err(Failure::usage(tr!(
            "cli-at-service",
            reference = escape_controls(reference),
            id = escape_controls(&inv.id),
            created = inv
                .created_at()
                .map(|t| tr!("cli-created-on", when = crate::i18n::moment(t)))
                .unwrap_or_default()
        ))),
        // A customer the service does not know has no invoices: the create will say so.
        Err(e) if !matches!(e.kind, crate::api::ErrorKind::NotFound(_)) => {
            let mut f = Failure::from(e);
            f.message = format!(
                "{}\n{}",
                tr!(
                    "cli-at-service-unchecked",
                    reference = escape_controls(reference)
                ),
                f.message
            );
            Err(f)
        }
        _ => Ok(()),
    }
}

fn refused(kind: &str) -> Settled {
    Settled {
        outcome: Outcome::Refused,
        error_kind: Some(kind.into()),
        ..Settled::done(None)
    }
}

fn warn_unrecorded<T>(sent: &journal::Journaled<T>) {
    if let Some(e) = &sent.outcome_not_recorded {
        note!(
            "{}",
            tr!(
                "cli-outcome-not-recorded",
                why = crate::i18n::journal_error(e)
            )
        );
    }
}

/// Why a create or void was held back, in the clerk's words.
fn blocked_text(b: &Blocked) -> String {
    let esc = |s: Option<&str>| escape_controls(s.unwrap_or("?")).into_owned();
    match b {
        Blocked::Journal(e) => crate::i18n::journal_error(e),
        Blocked::Done(e) if e.action == Action::Void => tr!(
            "cli-blocked-voided",
            who = crate::i18n::who(&e.user),
            id = esc(e.invoice_id.as_deref()),
            when = crate::i18n::moment(&e.time)
        ),
        Blocked::Done(e) => tr!(
            "cli-blocked-issued",
            who = crate::i18n::who(&e.user),
            reference = esc(e.external_id.as_deref()),
            id = esc(e.invoice_id.as_deref()),
            when = crate::i18n::moment(&e.time)
        ),
        Blocked::Pending(e) if e.action == Action::Void => tr!(
            "cli-blocked-pending-void",
            who = crate::i18n::who(&e.user),
            id = esc(e.invoice_id.as_deref()),
            when = crate::i18n::moment(&e.time)
        ),
        Blocked::Pending(e) => tr!(
            "cli-blocked-pending",
            who = crate::i18n::who(&e.user),
            reference = esc(e.external_id.as_deref()),
            when = crate::i18n::moment(&e.time)
        ),
        Blocked::LooksLike(e) => tr!(
            "cli-blocked-similar",
            id = e
                .invoice_id
                .as_deref()
                .map(|i| escape_controls(i).into_owned())
                .unwrap_or_else(|| tr!("cli-not-known-yet")),
            reference = e
                .external_id
                .as_deref()
                .map(|r| escape_controls(r).into_owned())
                .unwrap_or_else(|| tr!("cli-none")),
            customer = esc(e.customer.as_deref()),
            amount = e.amount.as_deref().unwrap_or("?"),
            due = e
                .due_date
                .as_deref()
                .map(|d| tr!("cli-blocked-due", date = crate::i18n::date(d)))
                .unwrap_or_default(),
            when = crate::i18n::moment(&e.time)
        ),
    }
}
