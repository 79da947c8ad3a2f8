//! A search's answer in the reader's words: each invoice found with its customer,
//! amount, status, due day, and where that was seen and when.

use crate::search::{Hit, SearchError, Source, Status};
use crate::text::escape_controls;
use crate::tr;

/// Where an invoice stands, as last seen, on `today`: an open one past its due day is
/// "Vencida · N días", as Lookup and the customer's table say it.
pub fn search_status(hit: &Hit, today: chrono::NaiveDate) -> String {
    if hit.status == Status::Open
        && let Some(days) = crate::receivables::aging::days_overdue(hit.due, today)
    {
        return tr!("overdue-days", days = days);
    }
    match hit.status {
        Status::Open => tr!("status-open"),
        Status::Paid => tr!("status-paid"),
        Status::Void => tr!("status-void"),
        Status::Issued => tr!("search-status-issued"),
        Status::Unknown => tr!("status-unknown"),
    }
}

/// Where what is shown was seen, and when: "en el servicio, 26-11-2026 12:03".
pub fn search_source(hit: &Hit) -> String {
    let (from, at) = hit.freshest();
    let when = at
        .map(|t| super::moment(&t.to_rfc3339()))
        .unwrap_or_default();
    match from {
        Source::Listing => tr!("search-from-service", when = when),
        Source::Journal => tr!("search-from-journal", when = when),
    }
}

/// Its customer: the directory's name with the id, or the id alone.
pub fn search_customer(hit: &Hit) -> String {
    match (&hit.customer_name, &hit.customer) {
        (Some(n), Some(id)) => format!("{} ({})", escape_controls(n), escape_controls(id)),
        (None, Some(id)) => escape_controls(id).into_owned(),
        _ => tr!("search-no-customer"),
    }
}

/// Its amount as the clerk writes it (`$1.341.000`, `UF 23,1930`).
pub fn search_amount(hit: &Hit) -> String {
    match hit.amount {
        Some(a) => crate::api::money::format_amount(a, hit.currency.as_deref()),
        None => "—".into(),
    }
}

/// Its due day: "vence 31-12-2026", or nothing.
pub fn search_due(hit: &Hit) -> String {
    hit.due
        .map(|d| tr!("search-due", date = super::date(&d.to_string())))
        .unwrap_or_default()
}

/// One line for the command line: id, customer, amount, status on `today`, due, where
/// seen.
pub fn search_line(hit: &Hit, today: chrono::NaiveDate) -> String {
    let mut parts = vec![
        escape_controls(&hit.id).into_owned(),
        search_customer(hit),
        search_amount(hit),
        search_status(hit, today),
    ];
    let due = search_due(hit);
    if !due.is_empty() {
        parts.push(due);
    }
    parts.push(search_source(hit));
    parts.join(" · ")
}

/// Why the search could not be made.
pub fn search_error(e: &SearchError) -> String {
    match e {
        SearchError::Journal(e) => super::journal_unreadable(e),
        SearchError::Index(crate::search::index::IndexError::Sql(e)) => tr!(
            "search-index-unusable",
            why = escape_controls(&e.to_string())
        ),
        SearchError::Index(crate::search::index::IndexError::NotAnIndex(path)) => tr!(
            "search-index-not-ours",
            path = escape_controls(&path.display().to_string())
        ),
        SearchError::Index(crate::search::index::IndexError::Newer(path)) => tr!(
            "search-index-newer",
            path = escape_controls(&path.display().to_string())
        ),
    }
}
