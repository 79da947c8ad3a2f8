//! `create` and `void`: each claimed in the journal before it is sent, and said in the
//! clerk's words when the journal holds it back.

use super::CliError;
use super::args::CreateArgs;
use super::at_service::{Service, already_at_service, blocked, reference_filter, warn_unrecorded};
use super::journal_open::open_journal_warming;
use super::output::print_invoice;
use crate::api::{CurrencyChoice, NewInvoice, money};
use crate::journal::approvals::one_request;
use crate::journal::{self, Action, Guard, Intent, Similar};
use crate::text::escape_controls;
use crate::tr;
use std::io::{IsTerminal, Write};

/// `invoice-desk create`.
pub(super) async fn create(svc: &Service, a: CreateArgs, json: bool) -> Result<(), CliError> {
    let currency = match a.currency {
        Some(c) if !svc.currencies.contains(&c) => {
            let offered: Vec<&str> = svc.currencies.iter().map(|c| c.code()).collect();
            return Err(CliError::usage(tr!(
                "cli-currency-not-offered",
                code = c.code(),
                offered = offered.join(", "),
                list = offered.join(",")
            )));
        }
        Some(c) => CurrencyChoice::Code(c),
        None => CurrencyChoice::AccountDefault,
    };
    let reading = currency.currency().or(svc.account_currency);
    let amount = money::parse_amount_input(&a.amount, reading)
        .map_err(|e| CliError::usage(crate::i18n::amount_error(&e)))?;
    let (extra, metadata) = crate::input::parse_assignments(a.fields.iter().map(String::as_str))
        .map_err(|e| {
            CliError::usage(tr!(
                "cli-field-problem",
                why = crate::i18n::assignment_error(&e)
            ))
        })?;
    let reference = a
        .external_id
        .clone()
        .unwrap_or_else(crate::input::fresh_reference);
    let mut inv = NewInvoice {
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
                        CliError::usage(tr!("cli-due-problem", why = crate::i18n::date_error(&e)))
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
    // The journal's reads a create begins with, made while the token is fetched: the
    // customer the text names, the reference's entries, the desk's policy.
    let given = a.external_id.clone().filter(|r| !r.trim().is_empty());
    let (journal, (named, seen, policy)) = {
        let text = a.customer.clone();
        let given = given.clone();
        open_journal_warming(&svc.client, move |j| {
            (
                crate::bulk::resolve_customer(j, &text),
                given.map(|r| j.count(&reference_filter(&r))),
                j.policy(),
            )
        })
        .await?
    };
    // A name or RUT the directory knows stands for its customer, as in the app; a text
    // that is no id and names no one (or several) is refused here, never sent (#68).
    inv.customer = named.map_err(|why| CliError::usage(crate::i18n::bulk_why(&why)))?;
    let customer = inv.customer.clone();
    let account = a.account_key.as_deref().or(svc.account.as_deref());
    let record = Intent::for_create(&svc.profile_name, &svc.base_url, account, &inv);
    if let (Some(r), Some(seen)) = (given.as_deref(), seen) {
        let seen = seen.map_err(super::journal_open::not_sent)?;
        already_at_service(&journal, &svc.client, &customer, r, seen).await?;
    }
    let mut guard = Guard {
        similar: Similar {
            allow: a.allow_similar,
            ..Similar::default()
        },
        ..Guard::default()
    };
    if let Some(policy) = policy.map_err(super::journal_open::not_sent)?
        && let Some((what, item, summary)) = one_request(&policy, Action::Create, &record)
    {
        // Its approval names it by its reference: one the clerk gives, which the same
        // command gives again (a reference made up here would be new each time).
        if a.external_id.as_deref().is_none_or(|r| r.trim().is_empty()) {
            return Err(CliError::usage(tr!("cli-ap-needs-reference")));
        }
        guard.approval = Some(
            super::approvals_cmd::clearance(&journal, what, &record.service, vec![item], summary)
                .await?,
        );
    }
    let send = |guard: Guard| {
        journal::write_ahead(
            &journal,
            Action::Create,
            record.clone(),
            guard,
            svc.client.create_invoice(&inv, a.account_key.as_deref()),
            |c| Some(c.id.clone()),
        )
    };
    let sent = match send(guard.clone()).await {
        // The journal has it as issued: the service is asked once whether that invoice
        // exists (a row recorded by a role that lied, or a lost database, must not
        // block a reference for good).
        Err(journal::Blocked::Done(e)) if e.action == Action::Create => {
            match journal::missing_at_service(&svc.client, &e, &customer, &reference).await {
                Some(id) if a.reissue_missing => {
                    guard.missing = Some(id);
                    send(guard).await.map_err(blocked)?
                }
                Some(_) => {
                    return Err(CliError::usage(format!(
                        "{}\n{}",
                        tr!("cli-not-sent", why = missing_text(&e)),
                        tr!("cli-reissue-missing")
                    )));
                }
                None => return Err(blocked(journal::Blocked::Done(e))),
            }
        }
        other => other.map_err(blocked)?,
    };
    answered(
        sent,
        json,
        tr!("cli-unknown-create-ref", reference = reference),
    )
}

/// "The journal says R was issued as in_… by … on …, but the service has no such
/// invoice."
fn missing_text(e: &journal::Entry) -> String {
    let esc = |s: Option<&str>| escape_controls(s.unwrap_or("?")).into_owned();
    tr!(
        "cli-blocked-issued-missing",
        who = crate::i18n::writer(e),
        reference = esc(e.external_id.as_deref()),
        id = esc(e.invoice_id.as_deref()),
        when = crate::i18n::moment(&e.time)
    )
}

/// `invoice-desk void ID`: asks first on a terminal (unless `--yes`).
pub(super) async fn void(svc: &Service, id: &str, yes: bool, json: bool) -> Result<(), CliError> {
    crate::api::checked_invoice_id(id)?;
    let mut seen = None;
    if !yes {
        if !std::io::stdin().is_terminal() {
            return Err(CliError::usage(tr!(
                "cli-not-a-terminal",
                what = tr!("cli-what-void")
            )));
        }
        let inv = seen.insert(svc.client.get_invoice(id).await?);
        note_part!(
            "{} {} ",
            tr!(
                "cli-void-confirm",
                id = escape_controls(&inv.id),
                customer = escape_controls(inv.customer.as_deref().unwrap_or("?")),
                amount = escape_controls(&crate::i18n::amount_text(inv))
            ),
            tr!("cli-yes-no")
        );
        let _ = std::io::stderr().flush();
        let mut answer = String::new();
        std::io::stdin()
            .read_line(&mut answer)
            .map_err(|e| CliError::usage(tr!("cli-could-not-read-answer", why = e)))?;
        if !super::said_yes(&answer) {
            return Err(CliError::usage(tr!("cli-not-voided")));
        }
    }
    let (journal, policy) = open_journal_warming(&svc.client, |j| j.policy()).await?;
    let policy = policy.map_err(super::journal_open::not_sent)?;
    let mut record = Intent::for_void(
        &svc.profile_name,
        &svc.base_url,
        svc.account.as_deref(),
        id,
        None,
    );
    let mut guard = Guard::default();
    if let Some(inv) = &seen {
        record = record.seen_as(inv);
    } else if policy.as_ref().is_some_and(|p| p.voids) {
        // A colleague asked to approve it is shown whose invoice it is and for how much.
        record = record.seen_as(&svc.client.get_invoice(id).await?);
    }
    if let Some(policy) = policy
        && let Some((what, item, summary)) = one_request(&policy, Action::Void, &record)
    {
        guard.approval = Some(
            super::approvals_cmd::clearance(&journal, what, &record.service, vec![item], summary)
                .await?,
        );
    }
    let sent = journal::write_ahead(
        &journal,
        Action::Void,
        record,
        guard,
        svc.client.void_invoice(id),
        |v| Some(v.id.clone()),
    )
    .await
    .map_err(blocked)?;
    answered(
        sent,
        json,
        tr!("cli-unknown-void", id = escape_controls(id)),
    )
}

/// What came of a create or void the journal let through: the invoice printed, or an
/// answer that never came said with how to check it (`unknown`; exit 6), or the
/// service's refusal.
fn answered(
    sent: journal::Journaled<crate::api::Invoice>,
    json: bool,
    unknown: String,
) -> Result<(), CliError> {
    warn_unrecorded(&sent);
    match sent.result {
        Ok(inv) => {
            print_invoice(&inv, json);
            Ok(())
        }
        Err(e) if e.is_outcome_unknown() => Err(CliError {
            code: super::Exit::Unknown,
            message: format!(
                "{}\n{}\n{}",
                crate::i18n::error_text(&e),
                tr!("cli-to-check"),
                unknown
            ),
        }),
        Err(e) => Err(e.into()),
    }
}
