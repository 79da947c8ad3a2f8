//! `invoice-desk find TEXT`: any invoice from one line — an id, a reference, a RUT, a
//! customer's name or an amount — from the journal, the directory and the listings read
//! (the search index), and for an id nothing here knows, the service.

use super::{CliError, settings};
use crate::search::{self, Seen};
use crate::text::escape_controls;
use crate::tr;

fn search_failure(e: &search::SearchError) -> CliError {
    CliError {
        code: super::Exit::Failed,
        message: crate::i18n::search_error(e),
    }
}

pub(super) async fn find(
    text: &str,
    local: bool,
    profile: Option<&str>,
    json: bool,
) -> Result<(), CliError> {
    let resolved = settings::resolve(profile)?;
    let profile_name = resolved.profile_name.clone();
    let service = search::service_of(&resolved.config.base_url);
    let journal = super::journal_open::journal_before_sending()?;
    let mut index =
        search::index::open_at(search::index::place_for(Some(journal.path())).as_deref())
            .map_err(|e| search_failure(&e.into()))?;
    let mut answer =
        search::find(&journal, &mut index, &service, text).map_err(|e| search_failure(&e))?;
    let mut not_asked = None;
    if answer.ask_service && !local {
        let client = crate::api::Client::new(resolved.config).map_err(CliError::from)?;
        match client.get_invoice(&answer.text).await {
            Ok(inv) => {
                index
                    .put(&service, &[Seen::of_invoice(&inv, chrono::Utc::now())])
                    .map_err(|e| search_failure(&e.into()))?;
                answer = search::find(&journal, &mut index, &service, text)
                    .map_err(|e| search_failure(&e))?;
            }
            Err(e) if matches!(e.kind, crate::api::ErrorKind::NotFound(_)) => {}
            Err(e) => not_asked = Some(e),
        }
    }
    if json {
        say!("{}", to_json(&answer));
    } else {
        for c in &answer.customers {
            say!(
                "{}",
                tr!("search-customer", name = escape_controls(&c.line()))
            );
        }
        let today = chrono::Local::now().date_naive();
        for hit in &answer.invoices {
            say!("{}", crate::i18n::search_line(hit, today));
        }
        if answer.more {
            note!("{}", tr!("search-more"));
        }
    }
    let found = !answer.invoices.is_empty() || !answer.customers.is_empty();
    match not_asked {
        // Nothing here, and the service could not be asked: that is the answer.
        Some(e) if !found => Err(CliError::from(e)),
        Some(e) => {
            note!(
                "{}",
                tr!("cli-find-not-asked", why = crate::i18n::error_text(&e))
            );
            Ok(())
        }
        None if !found => Err(CliError {
            code: super::Exit::Failed,
            message: tr!(
                "search-none",
                text = escape_controls(&answer.text),
                profile = escape_controls(&profile_name)
            ),
        }),
        None => Ok(()),
    }
}

/// The answer for programs: every field as kept, times in UTC.
fn to_json(a: &search::Answer) -> serde_json::Value {
    let invoices: Vec<serde_json::Value> = a
        .invoices
        .iter()
        .map(|h| {
            let (from, at) = h.freshest();
            serde_json::json!({
                "id": h.id,
                "customer": h.customer,
                "customer_name": h.customer_name,
                "reference": h.reference,
                "amount": h.amount.map(|d| d.to_string()),
                "currency_code": h.currency,
                "status": h.status.as_str(),
                "due_date": h.due.map(|d| d.to_string()),
                "seen_in": match from {
                    search::Source::Listing => "service",
                    search::Source::Journal => "journal",
                },
                "seen_at": at.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
            })
        })
        .collect();
    serde_json::json!({
        "query": a.text,
        "customers": a.customers,
        "invoices": invoices,
        "more": a.more,
    })
}
