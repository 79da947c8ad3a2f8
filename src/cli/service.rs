//! The commands that talk to the service, each in its own function (as ripgrep hands
//! each mode to its own): `run` opens the profile's service once and dispatches; create
//! and void are in `create_cmd.rs`, list and export in `export_cmd.rs`, statements in
//! `statement_cmd.rs`, receivables in `receivables_cmd.rs`. Here: the service itself,
//! `token`, `get`, and what create and void share (a journal's refusal in words).

use super::output::print_invoice;
use super::{CliError, Command};
use crate::api::{Client, Currency, TokenState};
use crate::journal::{self, Action, Blocked, Outcome, Settled, SharedJournal};
use crate::text::escape_controls;
use crate::tr;

/// The profile's service, opened once for a command.
pub(super) struct Service {
    /// The client.
    pub client: Client,
    /// The profile's name, as journaled.
    pub profile_name: String,
    /// The service's address (journaled with each write).
    pub base_url: String,
    /// The profile's account key (`x-account-key`), if any.
    pub account: Option<String>,
    /// The account's currency, if known.
    pub account_currency: Option<Currency>,
    /// The currencies `create --currency` may use.
    pub currencies: Vec<Currency>,
    /// Who statements of account are from.
    pub sender: crate::profile::Sender,
}

impl Service {
    /// The profile's (or the environment's) service.
    fn open(profile: Option<&str>) -> Result<Service, CliError> {
        let resolved = super::settings::resolve(profile)?;
        Ok(Service {
            base_url: resolved.config.base_url.clone(),
            account: resolved.config.account_key.clone(),
            client: Client::new(resolved.config).map_err(CliError::from)?,
            profile_name: resolved.profile_name,
            account_currency: resolved.account_currency,
            currencies: resolved.currencies,
            sender: resolved.sender,
        })
    }

    /// What `statement` and `statements` need: the service, the profile, the day.
    /// What `statement` and `statements` need: the service, the profile, the day, and
    /// (asked for with `--uf-pesos`) the UF's value that day — without one, a warning
    /// and UF alone.
    async fn statement_ctx(
        &self,
        as_of: Option<chrono::NaiveDate>,
        all: bool,
        uf_pesos: bool,
    ) -> super::statement_cmd::Ctx<'_> {
        let as_of = as_of.unwrap_or_else(|| chrono::Local::now().date_naive());
        let uf = if uf_pesos {
            super::uf_cmd::value_or_warning(as_of).await
        } else {
            None
        };
        super::statement_cmd::Ctx {
            client: &self.client,
            profile: &self.profile_name,
            base_url: &self.base_url,
            sender: &self.sender,
            as_of,
            all,
            uf,
        }
    }
}

/// Runs a command that talks to the service: each to its own function.
pub(super) async fn run(cmd: Command, profile: Option<&str>, json: bool) -> Result<(), CliError> {
    let svc = Service::open(profile)?;
    match cmd {
        Command::Token => token(&svc).await,
        Command::Create(a) => super::create_cmd::create(&svc, a, json).await,
        Command::Get { id } => get(&svc, &id, json).await,
        Command::Void { id, yes } => super::create_cmd::void(&svc, &id, yes, json).await,
        Command::List { customer, format } => {
            super::export_cmd::list(&svc, &customer, format, json).await
        }
        Command::Export {
            customer,
            out,
            format,
            dialect,
            as_of,
        } => {
            let ask = super::export_cmd::Export {
                customer,
                out,
                format,
                dialect,
                as_of,
            };
            super::export_cmd::export(&svc, ask).await
        }
        Command::Statement {
            customer,
            out,
            as_of,
            all,
            uf_pesos,
        } => {
            let ctx = svc.statement_ctx(as_of, all, uf_pesos).await;
            super::statement_cmd::one(&ctx, &customer, &out).await
        }
        Command::Statements {
            customers,
            all_known,
            out,
            as_of,
            all,
            dialect,
            uf_pesos,
        } => {
            let ctx = svc.statement_ctx(as_of, all, uf_pesos).await;
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
            super::receivables_cmd::run(&svc.client, &ask).await
        }
        // Dispatched by `cli::run` before the service is opened.
        Command::Profile(_)
        | Command::Sandbox(_)
        | Command::Doctor
        | Command::Journal(_)
        | Command::Customers(_)
        | Command::Email(_)
        | Command::Uf(_)
        | Command::Find { .. }
        | Command::Bulk(_) => Ok(()),
    }
}

/// `invoice-desk token`: whether the profile's credentials get a token, and until when.
async fn token(svc: &Service) -> Result<(), CliError> {
    let report = svc.client.check_connection().await?;
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

/// `invoice-desk get ID`.
async fn get(svc: &Service, id: &str, json: bool) -> Result<(), CliError> {
    print_invoice(&svc.client.get_invoice(id).await?, json);
    Ok(())
}

/// Why a create or void was not sent, with its exit code: 1 for the journal, 2 for a
/// reference or void already done, on its way, or a look-alike.
pub(super) fn blocked(b: Blocked) -> CliError {
    match b {
        Blocked::Journal(e) => super::journal_cmd::not_sent(e),
        Blocked::LooksLike(_) => CliError::usage(format!(
            "{}\n{}",
            tr!("cli-not-sent", why = blocked_text(&b)),
            tr!("cli-allow-similar")
        )),
        Blocked::Pending(_) => CliError::usage(format!(
            "{}\n{}",
            tr!("cli-not-sent", why = blocked_text(&b)),
            tr!("cli-see-resolve")
        )),
        Blocked::Done(_) => CliError::usage(tr!("cli-not-sent", why = blocked_text(&b))),
    }
}

/// A reference this journal has never seen may still be at the service (issued from
/// another computer, or recorded in another journal): looked for in the customer's
/// invoices before it is claimed. Found: refused (exit 2), naming the invoice.
pub(super) async fn already_at_service(
    journal: &SharedJournal,
    client: &Client,
    customer: &str,
    reference: &str,
) -> Result<(), CliError> {
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
            .map_err(super::journal_cmd::not_sent)?
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
        Ok(Some(inv)) => Err(CliError::usage(tr!(
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
            let mut f = CliError::from(e);
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

pub(super) fn refused(kind: &str) -> Settled {
    Settled {
        outcome: Outcome::Refused,
        error_kind: Some(kind.into()),
        ..Settled::done(None)
    }
}

pub(super) fn warn_unrecorded<T>(sent: &journal::Journaled<T>) {
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
            who = crate::i18n::writer(e),
            id = esc(e.invoice_id.as_deref()),
            when = crate::i18n::moment(&e.time)
        ),
        Blocked::Done(e) => tr!(
            "cli-blocked-issued",
            who = crate::i18n::writer(e),
            reference = esc(e.external_id.as_deref()),
            id = esc(e.invoice_id.as_deref()),
            when = crate::i18n::moment(&e.time)
        ),
        Blocked::Pending(e) if e.action == Action::Void => tr!(
            "cli-blocked-pending-void",
            who = crate::i18n::writer(e),
            id = esc(e.invoice_id.as_deref()),
            when = crate::i18n::moment(&e.time)
        ),
        Blocked::Pending(e) => tr!(
            "cli-blocked-pending",
            who = crate::i18n::writer(e),
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
