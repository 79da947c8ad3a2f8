//! The journal: every create and void written down before it is sent and its outcome
//! after, every export, in one SQLite file shared by the app and the CLI.
//!
//! Rows are only ever added. An intent is one row; its outcome is another row pointing
//! at it (an unknown outcome settled later by `resolve` is a third), so nothing is
//! updated and each row can carry a hash over its content and the previous row's hash:
//! `verify` recomputes the chain and names the first row that does not match.
//!
//! Never in the journal: secrets, tokens, an account key (only its last 4 characters).

pub mod approvals;
mod calendar;
mod claims;
mod clock;
mod contract_events;
pub use clock::Moment;
mod csv_out;
mod db;
mod directory;
mod error;
mod flow;
mod group;
pub mod identity;
mod pg;
mod push;
mod runs;
mod schema;
mod store;
pub mod uf;

pub use calendar::{DEFAULT_ZONE, LocalZone};
pub use claims::{Claimed, DoneBy, Guard, Similar};
pub use contract_events::{ContractEventRow, MAX_CONTRACT_EVENT};
pub use csv_out::{CSV_HEADER, each_entry, export_csv};
pub use directory::{Customer, ImportError, ImportWhy, MAX_NAME, fold, fold_text, read_import};
pub use flow::{
    BUSY_RETRY, Blocked, Checked, Claim, Journaled, SharedJournal, Write, away_patience,
    busy_again, check, check_and_record, claim_ahead_limit, in_flight_window, local_minute,
    missing_at_service, resolve, same_service, write_ahead, write_ahead_gated,
};
pub use pg::BUSY_PATIENCE;
pub use push::Pushed;
pub use runs::{BulkRunRecord, ENVIRONMENT_PROFILE};
pub use store::{Broken, Journal, JournalError, Trouble, clerk_name, is_damage, shared_password};
pub use uf::{UfCorrection, UfKept, UfOffered, UfPut};

use serde::Serialize;

/// What was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// An invoice created.
    Create,
    /// An invoice voided.
    Void,
    /// A customer's invoices exported to a file.
    Export,
    /// An e-mail to a customer (a statement, an invoice, a reminder).
    Email,
}

impl Action {
    /// The name stored and shown (`create`, `void`, `export`).
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Create => "create",
            Action::Void => "void",
            Action::Export => "export",
            Action::Email => "email",
        }
    }

    /// From [`Action::as_str`].
    pub fn parse(s: &str) -> Option<Action> {
        [Action::Create, Action::Void, Action::Export, Action::Email]
            .into_iter()
            .find(|a| a.as_str() == s)
    }
}

/// How it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Done (created, voided, written).
    Done,
    /// Refused by the service (or failed before anything changed).
    Refused,
    /// Nobody knows yet: no answer came, or the program stopped before it did. To check.
    Unknown,
}

impl Outcome {
    /// The name stored and shown (`done`, `refused`, `unknown`).
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Done => "done",
            Outcome::Refused => "refused",
            Outcome::Unknown => "unknown",
        }
    }

    /// From [`Outcome::as_str`].
    pub fn parse(s: &str) -> Option<Outcome> {
        [Outcome::Done, Outcome::Refused, Outcome::Unknown]
            .into_iter()
            .find(|o| o.as_str() == s)
    }
}

/// What is about to be sent (or written), recorded first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Intent {
    /// The profile's name.
    pub profile: String,
    /// The service's base URL.
    pub base_url: String,
    /// Customer id.
    pub customer: Option<String>,
    /// The amount as exact text (`12.3456`).
    pub amount: Option<String>,
    /// The currency sent; `None`: left out (the account's currency).
    pub currency_code: Option<String>,
    /// The last 4 characters of the account key, never more.
    pub account_last4: Option<String>,
    /// The external reference (creates).
    pub external_id: Option<String>,
    /// The invoice id (voids).
    pub invoice_id: Option<String>,
    /// The file's name (exports; the name only, not the folder).
    pub file_name: Option<String>,
    /// The rows of the billing or contracts run a create is one of (on a shared
    /// journal: the desk's policy may hold runs over a size), or an export's rows.
    pub rows: Option<u64>,
    /// Where its reference (create) or invoice id (void) is claimed: the service identity
    /// ([`identity::create_scope`], [`identity::void_scope`]); empty for exports.
    pub service: String,
    /// The due date sent (creates), ISO.
    pub due_date: Option<String>,
    /// A decision the clerk took for it ("similar-to:in_…": issued although it looked like
    /// an earlier invoice; "resend-after-check:…": sent again after a check found nothing).
    pub decision: Option<String>,
}

/// What an outcome copies from its intent's row: its profile, service and action.
#[derive(Clone, Debug)]
pub struct OutcomeOf {
    profile: String,
    base_url: String,
    action: Action,
}

impl Intent {
    /// What an outcome of this intent, claimed for `action`, copies from its row (as
    /// [`store::Journal::claim`] writes it).
    pub fn outcome_of(&self, action: Action) -> OutcomeOf {
        OutcomeOf {
            profile: self.profile.clone(),
            base_url: identity::canonical_url(&self.base_url),
            action,
        }
    }

    /// What the journal records of creating `invoice` through the service at `base_url`
    /// with the account `account_key` (a row's own key, else the profile's).
    pub fn for_create(
        profile: &str,
        base_url: &str,
        account_key: Option<&str>,
        invoice: &crate::api::NewInvoice,
    ) -> Intent {
        Intent {
            profile: profile.to_string(),
            base_url: identity::canonical_url(base_url),
            customer: Some(invoice.customer.clone()),
            // Stored without trailing zeros: one amount, one text (look-alikes match it).
            amount: Some(invoice.amount.normalize().to_string()),
            currency_code: invoice.currency.currency().map(|c| c.code().to_string()),
            account_last4: account_key.and_then(Intent::last4),
            external_id: invoice.invoice_external_id.clone(),
            service: identity::create_scope(base_url, account_key),
            due_date: invoice.due_date.clone(),
            ..Intent::default()
        }
    }

    /// A void's intent with what the service said of the invoice (its customer, amount
    /// and currency): shown in the journal and to a colleague asked to approve it.
    pub fn seen_as(mut self, invoice: &crate::api::Invoice) -> Intent {
        if invoice.customer.is_some() {
            self.customer = invoice.customer.clone();
        }
        if let Some(a) = invoice.amount {
            self.amount = Some(a.normalize().to_string());
            self.currency_code = invoice.currency_code.clone();
        }
        self
    }

    /// What the journal records of voiding invoice `id` (of `customer`, when known).
    pub fn for_void(
        profile: &str,
        base_url: &str,
        account_key: Option<&str>,
        id: &str,
        customer: Option<String>,
    ) -> Intent {
        Intent {
            profile: profile.to_string(),
            base_url: identity::canonical_url(base_url),
            customer,
            account_last4: account_key.and_then(Intent::last4),
            invoice_id: Some(id.to_string()),
            service: identity::void_scope(base_url),
            ..Intent::default()
        }
    }

    /// What the journal records of an export of `customer`'s invoices to `file_name`.
    pub fn for_export(
        profile: &str,
        base_url: &str,
        customer: &str,
        file_name: Option<String>,
    ) -> Intent {
        Intent {
            profile: profile.to_string(),
            base_url: identity::canonical_url(base_url),
            customer: Some(customer.to_string()),
            file_name,
            ..Intent::default()
        }
    }

    /// The account key's last 4 characters, for [`Intent::account_last4`]. A key of 8
    /// characters or fewer keeps none (4 would be half of it).
    pub fn last4(key: &str) -> Option<String> {
        let chars: Vec<char> = key.trim().chars().collect();
        (chars.len() > 8).then(|| chars[chars.len() - 4..].iter().collect())
    }
}

/// What came of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    /// Done, refused or unknown.
    pub outcome: Outcome,
    /// The invoice created or voided (when known).
    pub invoice_id: Option<String>,
    /// The kind of error (`Validation`, `NotFound`, `OutcomeUnknown`).
    pub error_kind: Option<String>,
    /// The service's error code (`TK20400`).
    pub error_code: Option<String>,
    /// Rows written (exports).
    pub rows: Option<u64>,
    /// Found by `resolve` checking the service, not from the answer.
    pub checked: bool,
}

impl Settled {
    /// Done; `invoice_id` when there is one.
    pub fn done(invoice_id: Option<String>) -> Settled {
        Settled {
            outcome: Outcome::Done,
            invoice_id,
            error_kind: None,
            error_code: None,
            rows: None,
            checked: false,
        }
    }

    /// From an API error: unknown when the request may have taken effect, refused
    /// otherwise.
    pub fn from_error(e: &crate::api::ApiError) -> Settled {
        let debug = format!("{:?}", e.kind);
        // The variant's name only: no ids or texts from the service.
        let kind: String = debug
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        Settled {
            outcome: if e.is_outcome_unknown() {
                Outcome::Unknown
            } else {
                Outcome::Refused
            },
            invoice_id: None,
            error_kind: Some(kind),
            error_code: e
                .service_code
                .as_deref()
                .map(|c| crate::text::escape_controls(c).chars().take(40).collect()),
            rows: None,
            checked: false,
        }
    }
}

/// One action with its latest outcome, as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// The intent's sequence number.
    pub seq: i64,
    /// When it was recorded (RFC 3339, UTC).
    pub time: String,
    /// The operating-system user.
    pub user: String,
    /// The profile.
    pub profile: String,
    /// The service's base URL.
    pub base_url: String,
    /// create, void or export.
    pub action: Action,
    /// Customer id.
    pub customer: Option<String>,
    /// Amount, exact text.
    pub amount: Option<String>,
    /// Currency sent; absent: the account's currency.
    pub currency_code: Option<String>,
    /// Last 4 characters of the account key.
    pub account_last4: Option<String>,
    /// External reference.
    pub external_id: Option<String>,
    /// Invoice id (the one voided, or the one created once known).
    pub invoice_id: Option<String>,
    /// done, refused or unknown (unknown also while no outcome was recorded).
    pub outcome: Outcome,
    /// The error's kind.
    pub error_kind: Option<String>,
    /// The service's error code.
    pub error_code: Option<String>,
    /// File name (exports).
    pub file_name: Option<String>,
    /// Rows written (exports).
    pub rows: Option<u64>,
    /// When the outcome was recorded.
    pub settled_time: Option<String>,
    /// The outcome was found by checking the service (`resolve`).
    pub checked: bool,
    /// The due date sent (creates; absent in entries written before it was recorded).
    pub due_date: Option<String>,
    /// The clerk's decision, when one was taken (see [`Intent::decision`]).
    pub decision: Option<String>,
    /// The service identity its claim was made under (absent in older entries).
    #[serde(skip)]
    pub service: Option<String>,
    /// The database role that wrote it, as the shared journal's server knows it (never
    /// what a computer says of itself); absent in a file and in rows before layout 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub db_user: Option<String>,
    /// Copied into the shared journal by `journal push`: the time its own journal
    /// recorded, as that computer says (its `time` is when it was copied, on the
    /// server's clock, and `db_user` who copied it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copied_time: Option<String>,
    /// Who recorded its latest outcome (its computer's word, and the role a shared
    /// journal's server stamped): a colleague who checked it, after a computer froze.
    #[serde(skip)]
    pub settled_by: Option<WrittenBy>,
}

/// Who wrote an entry: what its computer said ("Ana Pérez (ana@PC-CAJA-2)"), the
/// database role the shared journal's server stamped, and for a row copied by `journal
/// push` the time its own journal gave it (`i18n::writer_by` says it, the role first).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WrittenBy {
    /// As its computer named it.
    pub user: String,
    /// The database role, the server's word (a shared journal's rows).
    pub db_user: Option<String>,
    /// Copied from another journal: the time it says it was recorded.
    pub copied_time: Option<String>,
}

impl Entry {
    /// Who wrote it.
    pub fn written_by(&self) -> WrittenBy {
        WrittenBy {
            user: self.user.clone(),
            db_user: self.db_user.clone(),
            copied_time: self.copied_time.clone(),
        }
    }

    /// Who recorded its outcome, when that was not who wrote it (a colleague who
    /// checked it at the service).
    pub fn settled_by_another(&self) -> Option<&WrittenBy> {
        self.settled_by
            .as_ref()
            .filter(|s| s.user != self.user || s.db_user != self.db_user)
    }
}

/// Which entries to list.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Recorded on or after this day (local time).
    pub since: Option<chrono::NaiveDate>,
    /// Recorded on or before this day (local time).
    pub until: Option<chrono::NaiveDate>,
    /// Only this action.
    pub action: Option<Action>,
    /// Only this outcome.
    pub outcome: Option<Outcome>,
    /// Text found in the customer, invoice id, reference or who wrote the entry.
    pub text: Option<String>,
    /// Exactly this external reference.
    pub reference: Option<String>,
    /// Only the intent with this sequence number.
    pub seq: Option<i64>,
    /// Only what this clerk did (exactly as the journal names them).
    pub user: Option<String>,
    /// Only intents written, or given an outcome, after this sequence number (what the
    /// search index has not read yet).
    pub changed_after: Option<i64>,
}

/// The journal's file: `INVOICE_DESK_JOURNAL`, else `journal.sqlite3` in the platform's
/// data folder.
pub fn default_path() -> Option<std::path::PathBuf> {
    chosen_path(None)
}

/// Where the journal is: `INVOICE_DESK_JOURNAL` when it is set (a script's or a test's
/// word wins), else the desk's shared journal chosen in the settings (`shared`), else
/// this computer's file. The app and the CLI both ask here, so on one computer they
/// never keep two journals.
pub fn chosen_path(shared: Option<&str>) -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("INVOICE_DESK_JOURNAL").filter(|p| !p.is_empty()) {
        return Some(p.into());
    }
    if let Some(url) = shared.map(str::trim).filter(|u| !u.is_empty()) {
        return Some(url.into());
    }
    default_file()
}

/// Whether `INVOICE_DESK_JOURNAL` chooses the journal (the settings then cannot).
pub fn chosen_by_environment() -> bool {
    std::env::var_os("INVOICE_DESK_JOURNAL").is_some_and(|p| !p.is_empty())
}

/// The practice journal (the built-in sandbox's profile): a file of its own in a folder
/// of its own beside this computer's journal file `local` (its search index beside it),
/// so nothing made in practice — invoices, the sandbox's customers, its UF values — is
/// ever seen by a real profile, nor sent into a desk's shared journal. `None` when the
/// journal is kept in memory (`local` none: tests).
pub fn practice_file(local: Option<&std::path::Path>) -> Option<std::path::PathBuf> {
    let local = local?;
    let file = if is_database_url(&local.to_string_lossy()) {
        default_file()?
    } else {
        local.to_path_buf()
    };
    Some(file.parent()?.join("practice").join("journal.sqlite3"))
}

/// This computer's own journal file, in the platform's data folder.
pub fn default_file() -> Option<std::path::PathBuf> {
    directories::ProjectDirs::from("cl", "invoice-desk", "invoice-desk")
        .map(|d| d.data_dir().join("journal.sqlite3"))
}

/// The operating-system user running this program.
pub fn os_user() -> String {
    ["USER", "USERNAME", "LOGNAME"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|u| !u.is_empty()))
        // A service or a bare container sets none of them: the system still knows.
        .or_else(|| whoami::username().ok().filter(|u| !u.is_empty()))
        .unwrap_or_else(|| "?".into())
}

/// The search index's file name (a cache kept beside the journal, `search::index`): a
/// journal is never given it.
pub const INDEX_FILE: &str = "search.sqlite3";

/// Whether `text` names a shared journal (a PostgreSQL address) rather than a file.
pub fn is_database_url(text: &str) -> bool {
    pg::is_database_url(text)
}

/// A shared journal's address as it may be shown and kept: any password in it taken out.
pub fn without_password(url: &str) -> String {
    pg::without_password(url)
}

/// The statements that let the role `clerks` add to a shared journal and read it,
/// never change or remove its entries.
pub fn shared_grants(clerks: &str) -> String {
    pg::grants(clerks)
}

/// Prepares the shared journal at `url` as its owner: its tables, and when `clerks` is
/// given, that role's rights ([`shared_grants`]). Returns the statements applied.
pub fn init_shared(
    url: &str,
    password: Option<&str>,
    clerks: Option<&str>,
    time_zone: Option<&str>,
) -> Result<String, JournalError> {
    let (pg, shown) = store::connect_shared(
        url,
        password,
        &format!("{}@{}", os_user(), host_name()),
        |e, shown| store::shared_open_error(shown)(e),
    )?;
    if let Some(zone) = time_zone {
        calendar::set_desk_zone(&pg, zone).map_err(store::shared_open_error(&shown))?;
    }
    let Some(role) = clerks else {
        return Ok(String::new());
    };
    let grants = pg::grants(role);
    pg.batch(&grants)
        .map_err(store::shared_open_error(&shown))?;
    Ok(grants)
}

/// Changes the desk's four-eyes policy of the shared journal at `url` as its owner (its
/// layout brought up to date first), and returns it as it now stands.
pub fn set_policy_shared(
    url: &str,
    password: Option<&str>,
    change: &approvals::PolicyChange,
) -> Result<approvals::Policy, JournalError> {
    let (pg, shown) = store::connect_shared(
        url,
        password,
        &format!("{}@{}", os_user(), host_name()),
        |e, shown| store::shared_open_error(shown)(e),
    )?;
    approvals::set_policy_in(&pg, change).map_err(store::shared_open_error(&shown))?;
    approvals::policy_in(&pg).map_err(store::shared_open_error(&shown))
}

/// This computer's name (who wrote an entry, on a shared journal).
pub fn host_name() -> String {
    whoami::hostname()
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "?".into())
}

#[cfg(test)]
mod tests;
