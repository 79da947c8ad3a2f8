//! Finding any invoice from one box: an invoice id, a reference, a RUT, a customer's
//! name or an amount ("1.341.000", "UF 23,193"), answered from what this computer or the
//! desk knows — the journal (every create and void, read into the index as it grows),
//! the customer directory, and every listing read — kept in the index (`index.rs`).
//! The service itself is asked for an invoice id by the caller (the CLI's `find`, the
//! app's Lookup), which then keeps its answer here too.

mod bound;
mod grams;
pub mod index;

use crate::api::model::{Invoice, InvoiceStatus};
use crate::api::money::{self, Currency};
use crate::journal::{Action, Customer, Filter, Journal, JournalError, Outcome, identity};
use chrono::{DateTime, NaiveDate, Utc};
use index::{Index, IndexError, Way};
use rust_decimal::Decimal;

/// The most characters of a search kept.
pub const MAX_QUERY: usize = 200;

/// How many invoices an answer shows at most.
pub const SHOWN: usize = 50;

/// The most invoices of one listing kept for the search (its first ones): what a
/// listing holds for the index is bounded whatever the service sends (an endless
/// listing must not grow the process; a customer past it is searched by what the
/// journal and Lookup keep).
pub const KEPT_PER_LISTING: usize = 20_000;

/// Where an invoice stands, as last seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Issued, not paid, not void.
    Open,
    /// Paid.
    Paid,
    /// Void.
    Void,
    /// Created by this desk (the journal); not seen in a listing since.
    Issued,
    /// The service did not say.
    Unknown,
}

impl Status {
    /// Its word in the index.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Paid => "paid",
            Status::Void => "void",
            Status::Issued => "issued",
            Status::Unknown => "unknown",
        }
    }

    /// From its word; anything else is unknown.
    pub fn parse(text: &str) -> Status {
        match text {
            "open" => Status::Open,
            "paid" => Status::Paid,
            "void" => Status::Void,
            "issued" => Status::Issued,
            _ => Status::Unknown,
        }
    }
}

impl From<InvoiceStatus> for Status {
    fn from(s: InvoiceStatus) -> Status {
        match s {
            InvoiceStatus::Open => Status::Open,
            InvoiceStatus::Paid => Status::Paid,
            InvoiceStatus::Void => Status::Void,
            InvoiceStatus::Unknown => Status::Unknown,
        }
    }
}

/// Who said what is kept of an invoice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The service: a listing, or one invoice looked up.
    Listing,
    /// The journal: this desk created or voided it.
    Journal,
}

/// What was seen of one invoice, and when.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    /// Its id.
    pub id: String,
    /// Its customer's id.
    pub customer: Option<String>,
    /// Its reference.
    pub reference: Option<String>,
    /// Its amount.
    pub amount: Option<Decimal>,
    /// Its currency's code; `None`: not said (the account's).
    pub currency: Option<String>,
    /// Where it stood.
    pub status: Status,
    /// Its due day.
    pub due: Option<NaiveDate>,
    /// When it was seen.
    pub at: DateTime<Utc>,
    /// Who said it.
    pub from: Source,
}

impl Seen {
    /// An invoice as the service sent it (a listing or a lookup) at `at`.
    pub fn of_invoice(inv: &Invoice, at: DateTime<Utc>) -> Seen {
        Seen {
            id: inv.id.clone(),
            customer: inv.customer.clone(),
            reference: inv.invoice_external_id.clone(),
            amount: inv.amount,
            currency: inv.currency_code.clone(),
            status: inv.status().into(),
            due: inv
                .due_date
                .as_deref()
                .and_then(|d| d.get(..10))
                .and_then(|d| d.parse().ok()),
            at,
            from: Source::Listing,
        }
    }

    /// Adds a listing's page to what is kept of it for the search, up to
    /// [`KEPT_PER_LISTING`] invoices in all.
    pub fn keep_page(seen: &mut Vec<Seen>, page: &[Invoice], at: DateTime<Utc>) {
        let room = KEPT_PER_LISTING.saturating_sub(seen.len());
        seen.extend(page.iter().take(room).map(|i| Seen::of_invoice(i, at)));
    }
}

impl Seen {
    /// An invoice Cartera kept (one owed) of `customer`, listed at `at`.
    pub fn of_line(customer: &str, line: &crate::receivables::Line, at: DateTime<Utc>) -> Seen {
        use crate::receivables::aging::Standing;
        Seen {
            id: line.id.clone(),
            customer: Some(customer.to_string()),
            reference: line.reference.clone(),
            amount: line.value,
            currency: line.currency.clone(),
            status: match line.standing {
                Standing::Open | Standing::Overdue(_) => Status::Open,
                Standing::Paid => Status::Paid,
                Standing::Void => Status::Void,
                Standing::Unknown => Status::Unknown,
            },
            due: line.due,
            at,
            from: Source::Listing,
        }
    }
}

/// One invoice found.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// Its id.
    pub id: String,
    /// Its customer's id.
    pub customer: Option<String>,
    /// Its customer's name, when the directory knows it.
    pub customer_name: Option<String>,
    /// Its reference.
    pub reference: Option<String>,
    /// Its amount.
    pub amount: Option<Decimal>,
    /// Its currency's code (`None`: the account's, not said).
    pub currency: Option<String>,
    /// Where it stood when last seen.
    pub status: Status,
    /// Its due day.
    pub due: Option<NaiveDate>,
    /// When the service last showed it (a listing or a lookup).
    pub listed: Option<DateTime<Utc>>,
    /// When the journal last said something of it.
    pub journaled: Option<DateTime<Utc>>,
}

impl Hit {
    /// Where what is shown comes from, and when it was so: the newer of the two.
    pub fn freshest(&self) -> (Source, Option<DateTime<Utc>>) {
        match (self.listed, self.journaled) {
            (Some(l), Some(j)) if j > l => (Source::Journal, Some(j)),
            (Some(l), _) => (Source::Listing, Some(l)),
            (None, j) => (Source::Journal, j),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// What was searched, as kept (trimmed, bounded).
    pub text: String,
    /// Customers whose name, RUT or id matches.
    pub customers: Vec<Customer>,
    /// Invoices, the best first.
    pub invoices: Vec<Hit>,
    /// More invoices matched than are shown.
    pub more: bool,
    /// The text could be an invoice id none of the invoices found has: the service may
    /// know it.
    pub ask_service: bool,
}

/// Why a search could not be made.
#[derive(Debug)]
pub enum SearchError {
    /// The index (a cache, in the data folder).
    Index(IndexError),
    /// The journal (its directory, or its entries).
    Journal(JournalError),
}

impl From<IndexError> for SearchError {
    fn from(e: IndexError) -> Self {
        SearchError::Index(e)
    }
}

impl From<JournalError> for SearchError {
    fn from(e: JournalError) -> Self {
        SearchError::Journal(e)
    }
}

/// The service an index's rows belong to: the base URL as the journal compares it.
pub fn service_of(base_url: &str) -> String {
    identity::canonical_url(base_url)
}

/// The amounts `text` may mean, with the currency it names (if it names one): "1.341.000"
/// is pesos, "UF 23,193" is UF, and "23.193" either 23.193 or 23,193.
pub fn amounts_in(text: &str) -> Vec<(Option<Currency>, Decimal)> {
    let upper = text.trim().to_ascii_uppercase();
    let named = if upper.starts_with("UF") || upper.ends_with("UF") || upper.contains("CLF") {
        Some(Currency::CLF)
    } else if upper.starts_with('$') || upper.contains("CLP") {
        Some(Currency::CLP)
    } else {
        None
    };
    let mut found: Vec<(Option<Currency>, Decimal)> = Vec::new();
    let mut add = |d: Decimal| {
        let d = d.normalize();
        if d > Decimal::ZERO && !found.iter().any(|(_, f)| *f == d) {
            found.push((named, d));
        }
    };
    for c in [Some(Currency::CLP), Some(Currency::CLF)] {
        if named.is_some() && named != c {
            continue;
        }
        match money::parse_amount_input(text, c) {
            Ok(d) => add(d),
            Err(money::AmountError::Ambiguous { a, b, .. }) => {
                for t in [a, b] {
                    if let Ok(d) = money::parse_amount_input(&t.replace('.', ""), c) {
                        add(d)
                    }
                }
            }
            Err(_) => {}
        }
    }
    found
}

/// Whether `text` could be an invoice id: one word of letters, digits, `_` and `-`,
/// with letters and a digit or `_` (`in_8f3a`; a name like "nunoa" is not one, nor an
/// amount).
pub fn could_be_id(text: &str) -> bool {
    (3..=128).contains(&text.len())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && text.chars().any(|c| c.is_ascii_alphabetic())
        && text.chars().any(|c| c.is_ascii_digit() || c == '_')
}

/// Reads what the journal wrote since the index last read it: each invoice created or
/// voided (the journal names the service each was sent to).
pub fn catch_up(journal: &Journal, index: &mut Index) -> Result<(), SearchError> {
    const PAGE: u64 = 5_000;
    let (last, first) = journal.last_seq()?;
    // Which journal: its place and its first entry (another file at the same place is
    // another journal, read whole).
    let place = format!("{}#{first}", journal.path().to_string_lossy());
    let read = index.journal_read_to(&place)?;
    if last == read {
        return Ok(());
    }
    let after = if last < read { 0 } else { read };
    let filter = Filter {
        changed_after: Some(after),
        outcome: Some(Outcome::Done),
        ..Filter::default()
    };
    let mut offset = 0;
    loop {
        let entries = journal.list(&filter, false, offset, PAGE)?;
        let mut by_service: Vec<(String, Vec<Seen>)> = Vec::new();
        for e in &entries {
            let status = match e.action {
                Action::Create => Status::Issued,
                Action::Void => Status::Void,
                _ => continue,
            };
            let Some(id) = e.invoice_id.clone() else {
                continue;
            };
            let at = e
                .settled_time
                .as_deref()
                .unwrap_or(&e.time)
                .parse::<DateTime<Utc>>()
                .unwrap_or_default();
            let create = e.action == Action::Create;
            let seen = Seen {
                id,
                customer: e.customer.clone().filter(|_| create),
                reference: e.external_id.clone().filter(|_| create),
                amount: e
                    .amount
                    .as_deref()
                    .filter(|_| create)
                    .and_then(money::parse_plain_decimal),
                currency: e.currency_code.clone().filter(|_| create),
                status,
                due: e
                    .due_date
                    .as_deref()
                    .filter(|_| create)
                    .and_then(|d| d.parse().ok()),
                at,
                from: Source::Journal,
            };
            let service = service_of(&e.base_url);
            match by_service.iter_mut().find(|(s, _)| *s == service) {
                Some((_, list)) => list.push(seen),
                None => by_service.push((service, vec![seen])),
            }
        }
        for (service, seen) in by_service {
            index.put(&service, &seen)?;
        }
        if (entries.len() as u64) < PAGE {
            break;
        }
        offset += PAGE;
    }
    index.set_journal_read_to(&place, last)?;
    Ok(())
}

/// Searches what is known of the invoices at `service` (see [`service_of`]) for `text`:
/// the journal is read into the index first, the directory names the customers.
pub fn find(
    journal: &Journal,
    index: &mut Index,
    service: &str,
    text: &str,
) -> Result<Answer, SearchError> {
    let text: String = text.trim().chars().take(MAX_QUERY).collect();
    let mut answer = Answer {
        text: text.clone(),
        ..Answer::default()
    };
    if text.is_empty() {
        return Ok(answer);
    }
    catch_up(journal, index)?;
    let amounts = amounts_in(&text);
    let mut ways = vec![Way::Id(text.clone()), Way::Reference(text.clone())];
    for (currency, amount) in &amounts {
        ways.push(Way::Amount(*currency, *amount));
    }
    if text.chars().count() >= 3 {
        ways.push(Way::Text(text.clone()));
    }
    // A name or RUT names customers; an amount's digits would only find RUTs by chance.
    let is_rut = crate::rut::Rut::parse(&text).is_ok();
    if (amounts.is_empty() || is_rut) && text.chars().count() >= 2 {
        answer.customers = journal.find_customers(&text, 10)?;
        for c in answer.customers.iter().take(5) {
            ways.push(Way::Customer(c.id.clone()));
        }
    }
    let mut hits = index.find(service, &ways, SHOWN + 1)?;
    answer.more = hits.len() > SHOWN;
    hits.truncate(SHOWN);
    let ids: Vec<&str> = hits.iter().filter_map(|h| h.customer.as_deref()).collect();
    let names = journal.customer_names(&ids)?;
    for h in &mut hits {
        h.customer_name = h.customer.as_ref().and_then(|c| names.get(c)).cloned();
    }
    // A text that names customers is a name, not an id.
    answer.ask_service =
        could_be_id(&text) && answer.customers.is_empty() && !hits.iter().any(|h| h.id == text);
    answer.invoices = hits;
    Ok(answer)
}

/// [`find`] in the index at `place` (in memory when there is none): what the app runs
/// on the journal's thread.
pub fn find_at(
    journal: &Journal,
    place: Option<&std::path::Path>,
    service: &str,
    text: &str,
) -> Result<Answer, SearchError> {
    let mut index = index::open_at(place)?;
    find(journal, &mut index, service, text)
}

/// Keeps a customer's listing (or a looked-up invoice) in the index at `place`: what the
/// app and the CLI read is found later. A failure is only logged: the listing was read.
pub fn keep_listed(place: Option<&std::path::Path>, base_url: &str, seen: &[Seen]) {
    let Some(path) = place else {
        return;
    };
    let result = Index::open(path).and_then(|mut index| index.put(&service_of(base_url), seen));
    match result {
        Err(IndexError::Sql(e)) => {
            tracing::warn!(kind = ?e.sqlite_error_code(), "search index not written");
        }
        Err(IndexError::NotAnIndex(_)) => {
            tracing::warn!("search index not written: its file is another database");
        }
        Err(IndexError::Newer(_)) => {
            tracing::warn!("search index not written: a newer build laid it out");
        }
        Ok(()) => {}
    }
}

/// [`keep_listed`] on a thread of its own, not waited for: what the clerk asked for (a
/// listing, an invoice, Cartera's review) is shown and ends without waiting on the index.
/// The thread runs at a lower priority where the system allows it: keeping 20,000 new
/// invoices takes about a second of CPU, which the clerk's frames and requests need more
/// (#51; benches/desktop.sh showed no change either way, the index being written after
/// the listing's last picture).
pub fn keep_listed_in_background(
    place: Option<std::path::PathBuf>,
    base_url: String,
    seen: Vec<Seen>,
) {
    if place.is_none() || seen.is_empty() {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("search-index".into())
        .spawn(move || {
            lower_this_threads_priority();
            keep_listed(place.as_deref(), &base_url, &seen)
        });
    if let Err(e) = spawned {
        tracing::warn!(error = %e, "search index not written: no thread");
    }
}

/// Nice 10 for the calling thread (on Linux a thread has its own nice value; a thread
/// of its own, since a thread cannot be given its priority back). Elsewhere the thread
/// keeps the normal priority.
fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    if let Err(e) =
        rustix::process::setpriority_process(Some(rustix::thread::gettid()), BACKGROUND_NICE)
    {
        tracing::debug!(error = %e, "search index thread keeps its priority");
    }
}

/// The background index's nice value: under a full load it still gets about a tenth of
/// what a normal thread does (CFS weights 110 against 1024), so it ends.
#[cfg(target_os = "linux")]
const BACKGROUND_NICE: i32 = 10;

#[cfg(test)]
mod tests;
