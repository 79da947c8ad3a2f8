//! The profile's service, opened once for a command, and what the commands that write
//! there share: a journal's refusal in words, the reference looked for at the service
//! before it is claimed, an outcome that could not be recorded.

use super::CliError;
use crate::api::{Client, Currency};
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
    pub(super) fn open(profile: Option<&str>) -> Result<Service, CliError> {
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

    /// What `statement` and `statements` need: the service, the profile, the day, and
    /// (asked for with `--uf-pesos`) the UF's value that day — without one, a warning
    /// and UF alone.
    pub(super) async fn statement_ctx(
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

/// Why a create or void was not sent, with its exit code: 1 for the journal, 2 for a
/// reference or void already done, on its way, or a look-alike.
pub(super) fn blocked(b: Blocked) -> CliError {
    match b {
        Blocked::Journal(e) => super::journal_open::not_sent(e),
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

/// The journal's creates of `reference`.
pub(super) fn reference_filter(reference: &str) -> journal::Filter {
    journal::Filter {
        reference: Some(reference.to_string()),
        action: Some(Action::Create),
        ..journal::Filter::default()
    }
}

/// A reference this journal has never seen (`seen`: its creates the journal has, counted
/// by [`reference_filter`]) may still be at the service (issued from another computer, or
/// recorded in another journal): looked for in the customer's invoices before it is
/// claimed. Found: refused (exit 2), naming the invoice.
pub(super) async fn already_at_service(
    journal: &SharedJournal,
    client: &Client,
    customer: &str,
    reference: &str,
    seen: u64,
) -> Result<(), CliError> {
    let filter = reference_filter(reference);
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
