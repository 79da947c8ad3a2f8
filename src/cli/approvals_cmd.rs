//! `approvals` and `journal policy`: the desk's four eyes from the command line, and
//! [`clearance`], which every void, create and run the policy holds goes through first.

use super::journal_open::{failure, not_sent, open};
use super::{CliError, Exit};
use crate::journal::approvals::{Item, Policy, PolicyChange, Request, State, Summary, What, Which};
use crate::journal::{self, SharedJournal};
use crate::text::escape_controls;
use crate::tr;
use clap::{Args, Subcommand};

/// `approvals`.
#[derive(Args, Debug)]
pub struct ApprovalsArgs {
    /// What to do (list, the default).
    #[command(subcommand)]
    pub action: Option<ApprovalsCommand>,
}

/// `approvals` subcommands.
#[derive(Subcommand, Debug)]
pub enum ApprovalsCommand {
    /// List the requests, newest first (also the default): what each would do, who
    /// asked, where it stands.
    List {
        /// Only those waiting for your decision.
        #[arg(long)]
        pending: bool,
    },
    /// Approve a colleague's request: who asked may then carry it out, once, until it
    /// expires.
    Approve {
        /// The request's number.
        id: i64,
        /// A note kept with the approval.
        #[arg(long)]
        note: Option<String>,
    },
    /// Reject a colleague's request, saying why: nothing of it is sent.
    Reject {
        /// The request's number.
        id: i64,
        /// Why (required).
        #[arg(long)]
        note: String,
    },
}

/// The longest note kept with a decision (the server's limit too).
const MAX_NOTE: usize = 2000;

/// `approvals [list [--pending] | approve N [--note …] | reject N --note …]`.
pub async fn approvals_command(a: ApprovalsArgs, json: bool) -> Result<(), CliError> {
    let mut journal = open()?;
    if !journal.is_shared() {
        return Err(CliError::usage(tr!("cli-ap-local")));
    }
    if !journal.keeps_approvals().map_err(failure)? {
        return Err(CliError::usage(tr!("cli-ap-older-layout")));
    }
    match a
        .action
        .unwrap_or(ApprovalsCommand::List { pending: false })
    {
        ApprovalsCommand::List { pending } => {
            let which = if pending { Which::ForMe } else { Which::All };
            let list = journal.approval_requests(which).map_err(failure)?;
            if json {
                for r in &list {
                    say!("{}", serde_json::to_string(r).unwrap_or_default());
                }
            } else if list.is_empty() {
                let none = if pending {
                    tr!("cli-ap-none-for-me")
                } else {
                    tr!("cli-ap-none")
                };
                say!("{none}");
            } else {
                for r in &list {
                    say!("{}", crate::i18n::approval_line(r));
                }
            }
            Ok(())
        }
        ApprovalsCommand::Approve { id, note } => decide(&mut journal, id, true, note),
        ApprovalsCommand::Reject { id, note } => decide(&mut journal, id, false, Some(note)),
    }
}

/// Approves or rejects request `id`, after saying in words why the server would not.
fn decide(
    journal: &mut journal::Journal,
    id: i64,
    approve: bool,
    note: Option<String>,
) -> Result<(), CliError> {
    let note = note.map(|n| n.trim().to_string()).filter(|n| !n.is_empty());
    if note.as_ref().is_some_and(|n| n.chars().count() > MAX_NOTE) {
        return Err(CliError::usage(tr!("cli-ap-note-too-long", max = MAX_NOTE)));
    }
    if !approve && note.is_none() {
        return Err(CliError::usage(tr!("cli-ap-reject-needs-note")));
    }
    let request = one(journal, id)?;
    if request.mine {
        return Err(CliError::usage(tr!("cli-ap-own", id = id)));
    }
    if request.state != State::Pending {
        return Err(CliError::usage(tr!(
            "cli-ap-already",
            id = id,
            state = crate::i18n::approval_state(&request)
        )));
    }
    journal
        .decide_approval(id, approve, note.as_deref())
        .map_err(failure)?;
    let what = crate::i18n::approval_what(request.what, &request.summary);
    if approve {
        say!(
            "{}",
            tr!(
                "cli-ap-approved",
                id = id,
                what = what,
                who = crate::i18n::writer_by(&request.by),
                until = crate::i18n::moment(&request.expires)
            )
        );
    } else {
        say!("{}", tr!("cli-ap-rejected", id = id, what = what));
    }
    Ok(())
}

/// Request `id`, or a usage error naming it when there is none.
fn one(journal: &journal::Journal, id: i64) -> Result<Request, CliError> {
    journal
        .approval_requests(Which::One(id))
        .map_err(failure)?
        .into_iter()
        .next()
        .ok_or_else(|| CliError::usage(tr!("cli-ap-not-found", id = id)))
}

/// What the policy asks before `items` are sent as `what` at `service`: the approved
/// request's number to carry out, or — asked now, or still waiting, or rejected — why
/// nothing is sent (exit 7), with the request's number.
pub(super) async fn clearance(
    journal: &SharedJournal,
    what: What,
    service: &str,
    items: Vec<Item>,
    summary: Summary,
) -> Result<i64, CliError> {
    use crate::journal::approvals::{FourEyesError, ask};
    match ask(journal, what, service.to_string(), items, summary).await {
        Ok(request) => {
            say_carrying_out(&request);
            Ok(request.id)
        }
        Err(FourEyesError::Journal(e)) => Err(not_sent(e)),
        Err(FourEyesError::NotApproved(r)) => Err(not_approved(&r)),
    }
}

/// What the policy asks of a run of `rows` (from the file named `file`, or contracts):
/// see [`crate::bulk::run::Runner::four_eyes_for`]; not approved, why nothing is sent
/// (exit 7).
pub(super) async fn run_clearance(
    runner: &crate::bulk::run::Runner,
    rows: &[crate::bulk::BulkRow],
    file: Option<String>,
) -> Result<crate::bulk::run::FourEyes, CliError> {
    cleared(runner.four_eyes_for(rows, file).await)
}

/// What the policy asks of an e-mail run to `customers` in `as_of`'s month: see
/// [`crate::journal::approvals::mail_four_eyes`]; not approved, why nothing is sent
/// (exit 7).
pub(super) async fn mail_clearance(
    outbox: &crate::mail::outbox::Outbox<'_>,
    customers: &[String],
    as_of: chrono::NaiveDate,
) -> Result<crate::journal::approvals::FourEyes, CliError> {
    let scope = outbox.scope();
    cleared(
        crate::journal::approvals::mail_four_eyes(outbox.journal(), &scope, customers, as_of).await,
    )
}

/// A run's four eyes said: the approval carried out, or why nothing is sent (exit 7).
fn cleared(
    r: Result<
        (crate::journal::approvals::FourEyes, Option<Box<Request>>),
        crate::journal::approvals::FourEyesError,
    >,
) -> Result<crate::journal::approvals::FourEyes, CliError> {
    use crate::journal::approvals::FourEyesError;
    match r {
        Ok((eyes, approved)) => {
            if let Some(r) = approved {
                say_carrying_out(&r);
            }
            Ok(eyes)
        }
        Err(FourEyesError::Journal(e)) => Err(not_sent(e)),
        Err(FourEyesError::NotApproved(r)) => Err(not_approved(&r)),
    }
}

/// "Pedido 12, aprobado por …: se lleva a cabo."
fn say_carrying_out(r: &Request) {
    note!(
        "{}",
        tr!(
            "cli-ap-carrying-out",
            id = r.id,
            state = crate::i18n::approval_state(r)
        )
    );
}

/// Why nothing is sent: request `r` asked now and waiting, or rejected (exit 7).
fn not_approved(r: &Request) -> CliError {
    CliError {
        code: Exit::Approval,
        message: crate::i18n::not_approved(r, crate::i18n::AskedIn::Cli),
    }
}

/// `journal policy [URL] [--approve-voids] [--approve-runs-over N]
/// [--approve-amount-over AMOUNT CURRENCY] [--approval-hours H] [--off]`: with the
/// owner's address, changes it; then (or without one) says it.
pub(super) fn policy(url: Option<&str>, change: PolicyChange, json: bool) -> Result<(), CliError> {
    let policy = match url {
        Some(url) => {
            if !journal::is_database_url(url) {
                return Err(CliError::usage(tr!("cli-init-not-a-database")));
            }
            let password = super::settings::journal_password(url)?;
            journal::set_policy_shared(url, password.as_deref(), &change).map_err(failure)?
        }
        None if change.changes() => return Err(CliError::usage(tr!("cli-policy-owner"))),
        None => {
            let j = open()?;
            if !j.is_shared() {
                say!("{}", tr!("cli-ap-local"));
                return Ok(());
            }
            j.policy().map_err(failure)?.unwrap_or_default()
        }
    };
    if json {
        let v = serde_json::json!({
            "approve_voids": policy.voids,
            "approve_runs_over": policy.runs_over,
            "approve_amount_over": policy.amount_over.as_ref().map(|(a, c)| {
                serde_json::json!({"amount": a.to_string(), "currency": c})
            }),
            "approval_hours": policy.hours,
        });
        say!("{v}");
        return Ok(());
    }
    say!("{}", policy_words(&policy));
    Ok(())
}

/// The policy in words.
fn policy_words(p: &Policy) -> String {
    if !p.is_on() {
        return tr!("cli-policy-off");
    }
    let mut parts = Vec::new();
    if p.voids {
        parts.push(tr!("cli-policy-voids"));
    }
    if let Some(n) = p.runs_over {
        parts.push(tr!("cli-policy-runs", rows = n));
    }
    if let Some((amount, code)) = &p.amount_over {
        parts.push(tr!(
            "cli-policy-amount",
            amount = crate::api::money::format_amount(*amount, Some(code))
        ));
    }
    tr!("cli-policy-on", what = parts.join("; "), hours = p.hours)
}

/// `--approve-amount-over AMOUNT CURRENCY`, read.
pub(super) fn amount_over(
    v: Option<Vec<String>>,
) -> Result<Option<(rust_decimal::Decimal, String)>, CliError> {
    let Some(v) = v else { return Ok(None) };
    let (Some(amount), Some(code)) = (v.first(), v.get(1)) else {
        return Err(CliError::usage(tr!("cli-policy-bad-amount")));
    };
    let currency = crate::api::money::Currency::from_code(code.trim());
    let parsed = currency.map(|c| crate::api::money::parse_amount_input(amount, Some(c)));
    match (currency, parsed) {
        (Some(c), Some(Ok(a))) if a > rust_decimal::Decimal::ZERO => {
            Ok(Some((a, c.code().to_string())))
        }
        _ => Err(CliError::usage(tr!(
            "cli-policy-bad-amount-is",
            amount = escape_controls(amount),
            currency = escape_controls(code)
        ))),
    }
}
