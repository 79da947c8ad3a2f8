//! `invoice-desk contracts …`: repeating invoices kept in the journal (see
//! `crate::contracts`), and a period's run on the billing runs' machinery.

use super::journal_open::{failure, not_sent};
use super::{CliError, ContractsCommand, ContractsRunArgs};
use crate::api::Client;
use crate::bulk::run::{AllowSimilar, Control, Runner};
use crate::contracts::{Contract, Event, Period, import};
use crate::journal::{Journal, SharedJournal};
use crate::text::escape_controls;
use crate::tr;
use std::collections::HashSet;
use std::sync::Arc;

pub(super) async fn contracts_command(
    c: ContractsCommand,
    profile: Option<&str>,
    json: bool,
) -> Result<(), CliError> {
    match c {
        ContractsCommand::Import { file, sheet } => import_file(&file, sheet.as_deref(), profile),
        ContractsCommand::List => list(json),
        ContractsCommand::Show { id } => show(&id),
        ContractsCommand::Change {
            id,
            from,
            amount,
            day,
            due_days,
            description,
        } => change(&id, from, amount, day, due_days, description),
        ContractsCommand::End { id, after } => {
            note_event(&id, Event::End { after: Some(after) }, |p| {
                tr!("cli-ct-what-end", period = p)
            })
        }
        ContractsCommand::Pause { id, from } => note_event(&id, Event::Pause { from }, |p| {
            tr!("cli-ct-what-pause", period = p)
        }),
        ContractsCommand::Resume { id, from } => note_event(&id, Event::Resume { from }, |p| {
            tr!("cli-ct-what-resume", period = p)
        }),
        ContractsCommand::Run(a) => run(a, profile).await,
    }
}

/// The contracts the journal keeps.
fn kept(journal: &Journal) -> Result<Vec<Contract>, CliError> {
    crate::contracts::contracts_in(journal).map_err(failure)
}

fn import_file(
    file: &std::path::Path,
    sheet: Option<&str>,
    profile: Option<&str>,
) -> Result<(), CliError> {
    let resolved = super::settings::resolve(profile)?;
    let mut journal = super::journal_open::open()?;
    let rows = crate::sheet::read_rows(file, sheet)
        .map_err(|e| {
            CliError::usage(tr!(
                "cli-cannot-read",
                path = file.display(),
                why = crate::i18n::sheet_error(&e)
            ))
        })?
        .rows;
    let refused = |problems: Vec<import::ImportError>| {
        for p in &problems {
            note!("{}", crate::i18n::contract_problem(p));
        }
        CliError::usage(tr!(
            "cli-ct-problems",
            count = problems.len(),
            path = file.display()
        ))
    };
    let (add, same) = match import::import_rows(&mut journal, &rows, &resolved.currencies) {
        Ok(done) => done,
        Err(import::NotKept::Rows(p)) => return Err(refused(p)),
        Err(import::NotKept::Journal(e)) => return Err(failure(e)),
    };
    say!("{}", tr!("cli-ct-imported", added = add.len(), same = same));
    Ok(())
}

/// The desk's current period (its clock, its time zone).
fn current_period(journal: &Journal) -> Result<Period, CliError> {
    Ok(Period::of_day(journal.today().map_err(failure)?))
}

fn amount_of(amount: rust_decimal::Decimal, code: &str) -> String {
    crate::api::money::format_amount(amount, Some(code))
}

fn list(json: bool) -> Result<(), CliError> {
    let journal = super::journal_open::open()?;
    let contracts = kept(&journal)?;
    let now = current_period(&journal)?;
    if contracts.is_empty() && !json {
        say!("{}", tr!("cli-ct-none"));
        return Ok(());
    }
    let ids: Vec<&str> = contracts.iter().map(|c| c.customer.as_str()).collect();
    let names = journal.customer_names(&ids).unwrap_or_default();
    if !json {
        let header = tr!("cli-ct-header");
        let h: Vec<&str> = header
            .split('|')
            .chain(std::iter::repeat(""))
            .take(8)
            .collect();
        say!(
            "{:16}  {:28}  {:10}  {:>16}  {:24}  {:7}  {:7}  {}",
            h[0],
            h[1],
            h[2],
            h[3],
            h[4],
            h[5],
            h[6],
            h[7]
        );
    }
    for c in &contracts {
        let t = c.terms_at(now.max(c.start));
        if json {
            let line = serde_json::json!({
                "id": c.id,
                "customer": c.customer,
                "every": c.every.code(),
                "start": c.start.to_string(),
                "end": c.end.map(|e| e.to_string()),
                "amount": t.amount.to_string(),
                "currency_code": t.currency,
                "bill_in": t.bill_in.code(),
                "day": t.day,
                "due_days": t.due_days,
                "reference": c.reference,
                "paused": c.is_paused(now),
            });
            say!(
                "{}",
                crate::text::escape_json_for_terminal(&line.to_string())
            );
            continue;
        }
        let who = names
            .get(&c.customer)
            .map_or_else(|| c.customer.clone(), |n| format!("{n} · {}", c.customer));
        say!(
            "{:16}  {:28}  {:10}  {:>16}  {:24}  {:7}  {:7}  {}",
            escape_controls(&c.id),
            escape_controls(&who),
            crate::i18n::every_word(c.every),
            amount_of(t.amount, &t.currency),
            crate::i18n::bill_in_word(t.bill_in, &t.currency),
            c.start.to_string(),
            c.end.map(|e| e.to_string()).unwrap_or_default(),
            crate::i18n::contract_state(c, now)
        );
    }
    Ok(())
}

/// The contract `id`, or why not.
fn one(journal: &Journal, id: &str) -> Result<Contract, CliError> {
    kept(journal)?
        .into_iter()
        .find(|c| c.id == id)
        .ok_or_else(|| CliError::usage(tr!("cli-ct-no-such", id = escape_controls(id))))
}

fn show(id: &str) -> Result<(), CliError> {
    let journal = super::journal_open::open()?;
    let c = one(&journal, id)?;
    let now = current_period(&journal)?;
    let name = journal
        .customer_names(&[c.customer.as_str()])
        .unwrap_or_default()
        .remove(&c.customer);
    say!(
        "{}",
        tr!(
            "cli-ct-show-head",
            id = escape_controls(&c.id),
            customer = escape_controls(
                &name.map_or_else(|| c.customer.clone(), |n| format!("{n} · {}", c.customer))
            ),
            every = crate::i18n::every_word(c.every),
            start = c.start.to_string(),
            end = c.end.map_or(String::new(), |e| tr!(
                "cli-ct-show-end",
                period = e.to_string()
            )),
            reference = escape_controls(&c.reference),
            state = crate::i18n::contract_state(&c, now)
        )
    );
    for (from, t) in &c.versions {
        say!(
            "  {}",
            tr!(
                "cli-ct-show-terms",
                period = from.to_string(),
                amount = amount_of(t.amount, &t.currency),
                bill_in = crate::i18n::bill_in_word(t.bill_in, &t.currency),
                day = t.day,
                due_days = t.due_days,
                description = t
                    .description
                    .as_deref()
                    .map_or(String::new(), |d| format!(" · {}", escape_controls(d)))
            )
        );
    }
    for (from, until) in &c.pauses {
        say!(
            "  {}",
            tr!(
                "cli-ct-show-pause",
                from = from.to_string(),
                until = until.map_or(String::new(), |u| tr!(
                    "cli-ct-show-until",
                    period = u.to_string()
                ))
            )
        );
    }
    for k in &c.history {
        let what = crate::i18n::contract_event(&k.event);
        say!(
            "  {}",
            tr!(
                "cli-ct-show-event",
                time = crate::i18n::moment(&k.time),
                who = crate::i18n::writer_of(&k.user, k.db_user.as_deref()),
                what = what
            )
        );
    }
    Ok(())
}

/// Adds `event` to contract `id` (which must be kept) and says it.
fn note_event(id: &str, event: Event, said: impl Fn(String) -> String) -> Result<(), CliError> {
    let mut journal = super::journal_open::open()?;
    let c = one(&journal, id)?;
    let period = match &event {
        Event::End { after: Some(p) } | Event::Pause { from: p } | Event::Resume { from: p } => {
            p.to_string()
        }
        Event::Change { from, .. } => from.to_string(),
        _ => String::new(),
    };
    crate::contracts::keep(&mut journal, &[(c.id.clone(), event)]).map_err(failure)?;
    say!(
        "{}",
        tr!(
            "cli-ct-noted",
            id = escape_controls(&c.id),
            what = said(period)
        )
    );
    Ok(())
}

fn change(
    id: &str,
    from: Period,
    amount: Option<String>,
    day: Option<u32>,
    due_days: Option<u32>,
    description: Option<String>,
) -> Result<(), CliError> {
    if amount.is_none() && day.is_none() && due_days.is_none() && description.is_none() {
        return Err(CliError::usage(tr!("cli-ct-nothing-to-change")));
    }
    let journal = super::journal_open::open()?;
    let c = one(&journal, id)?;
    drop(journal);
    let mut terms = c.terms_at(from).clone();
    if let Some(text) = amount {
        terms.amount = crate::bulk::read_amount(text.trim(), false, terms.currency())
            .map_err(|w| CliError::usage(crate::i18n::bulk_why(&w)))?;
    }
    if let Some(d) = day {
        if !(1..=31).contains(&d) {
            return Err(CliError::usage(tr!("ct-why-day", text = d.to_string())));
        }
        terms.day = d;
    }
    if let Some(d) = due_days {
        if d > 365 {
            return Err(CliError::usage(tr!(
                "ct-why-due-days",
                text = d.to_string()
            )));
        }
        terms.due_days = d;
    }
    if let Some(d) = description {
        terms.description = Some(d.trim().to_string()).filter(|d| !d.is_empty());
    }
    note_event(id, Event::Change { from, terms }, |p| {
        tr!("cli-ct-what-change", period = p)
    })
}

async fn run(a: ContractsRunArgs, profile: Option<&str>) -> Result<(), CliError> {
    let report_target = super::bulk_cmd::report_target(a.report.as_deref())?;
    let resolved = super::settings::resolve(profile)?;
    let journal = super::journal_open::journal_before_sending()?;
    let contracts = kept(&journal)?;
    let today = journal.today().map_err(not_sent)?;
    let through = a.period.unwrap_or(Period::of_day(today));
    let scope = crate::journal::identity::create_scope(
        &resolved.config.base_url,
        resolved.config.account_key.as_deref(),
    );
    let shared = SharedJournal::new(journal);
    // The UF of the day, read before the plan (kept in the journal, else from the CMF),
    // only when a contract bills in pesos at it.
    let needs_uf = contracts.iter().any(|c| {
        c.versions
            .iter()
            .any(|(_, t)| t.currency() == Some(crate::api::Currency::CLF))
    });
    let uf_value = if needs_uf {
        match crate::uf::value_on(&shared, super::uf_cmd::source, today).await {
            Ok(found) => Ok(found.uf.value),
            Err(e) => {
                let why = crate::i18n::uf_error(&e, today);
                let pesos = contracts.iter().any(|c| {
                    c.versions
                        .iter()
                        .any(|(_, t)| t.bill_in == crate::contracts::BillIn::PesosAtUf)
                });
                if pesos {
                    note!(
                        "{}",
                        tr!(
                            "cli-ct-no-uf",
                            day = crate::i18n::date(&today.to_string()),
                            why = why.clone()
                        )
                    );
                }
                Err(why)
            }
        }
    } else {
        Err(String::new())
    };
    let currencies = resolved.currencies.clone();
    // Made where the journal is read, off the async threads.
    let (plan, names) = shared
        .run(move |j| {
            Ok(crate::contracts::plan_on(
                j,
                &contracts,
                through,
                today,
                &currencies,
                &scope,
                uf_value,
            ))
        })
        .await
        .map_err(not_sent)?;
    say_plan(&plan, through, &names);
    let rows = crate::bulk::Plan {
        rows: plan.rows(),
        ..Default::default()
    };
    if !a.yes || rows.rows.is_empty() {
        if !rows.rows.is_empty() {
            say!("{}", tr!("cli-ct-plan-only"));
        }
        return super::bulk_cmd::write_report(
            report_target.as_deref(),
            a.report.as_deref(),
            &rows,
            &names,
            &[],
        );
    }
    let control = Arc::new(Control::default());
    let mut runner = Runner {
        base_url: resolved.config.base_url.clone(),
        profile_account: resolved.config.account_key.clone(),
        client: Client::new(resolved.config).map_err(CliError::from)?,
        journal: shared,
        profile: resolved.profile_name.clone(),
        control: control.clone(),
        // A contract's period is told apart by its reference, never by its look: two
        // offices rented at the same rent by one customer are two invoices.
        allow_similar: AllowSimilar::All,
        four_eyes: Default::default(),
    };
    runner.four_eyes = super::approvals_cmd::run_clearance(&runner, &rows.rows, None).await?;
    let from = super::bulk_cmd::From {
        file: None,
        file_id: "",
    };
    let (counts, mut results) =
        super::bulk_cmd::send(&runner, from, usize::from(a.concurrency), &rows).await;
    results.sort_by_key(|r| r.0);
    super::bulk_cmd::say_results(&counts, &rows, &results);
    super::bulk_cmd::write_report(
        report_target.as_deref(),
        a.report.as_deref(),
        &rows,
        &names,
        &results,
    )?;
    super::bulk_cmd::exit_for(&counts, &control)
}

/// The plan: each invoice (a missed period said as such, pesos with their UF), what is
/// skipped and why, the totals.
fn say_plan(
    plan: &crate::contracts::Plan,
    through: Period,
    names: &std::collections::HashMap<String, String>,
) {
    for d in &plan.due {
        let customer = names.get(&d.invoice.customer).map_or_else(
            || d.invoice.customer.clone(),
            |n| format!("{n} · {}", d.invoice.customer),
        );
        let code = d
            .invoice
            .currency
            .currency()
            .map_or("CLP", |c| c.code())
            .to_string();
        let mut line = tr!(
            "cli-ct-due",
            contract = escape_controls(&d.contract),
            period = d.period.to_string(),
            customer = escape_controls(&customer),
            amount = amount_of(d.invoice.amount, &code),
            due = crate::i18n::date(&d.due.to_string()),
            reference = escape_controls(&d.reference)
        );
        if let Some(p) = &d.pesos {
            line.push_str(&tr!(
                "cli-ct-due-pesos",
                uf = crate::api::money::format_amount(d.amount, Some("CLF"))
                    .trim_start_matches("UF ")
                    .to_string(),
                value = crate::i18n::peso_value(p.value),
                day = crate::i18n::date(&p.day.to_string())
            ));
        }
        if d.catch_up {
            line.push_str(&tr!("cli-ct-due-catch-up"));
        }
        say!("{line}");
    }
    for (id, s) in &plan.skipped {
        note!("{}", crate::i18n::contract_skip(id, s));
    }
    if plan.billed > 0 {
        say!("{}", tr!("cli-ct-billed-before", count = plan.billed));
    }
    if plan.due.is_empty() {
        say!("{}", tr!("cli-ct-plan-empty", period = through.to_string()));
        return;
    }
    let contracts: HashSet<&str> = plan.due.iter().map(|d| d.contract.as_str()).collect();
    say!(
        "{}",
        tr!(
            "cli-ct-plan",
            period = through.to_string(),
            count = plan.due.len(),
            contracts = contracts.len(),
            totals = format!(": {}", crate::i18n::plan_totals(plan))
        )
    );
}
