//! The command line's arguments (clap), and its help text with the exit codes.

use crate::api::Currency;
use crate::export::Dialect;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// What follows the exit codes in the help (those come from [`super::exit::Exit`]).
pub(crate) const SETTINGS_HELP: &str = "Every create, void and \
export is written to the journal first (see `journal --help`; INVOICE_DESK_JOURNAL moves its file).

Settings come from the active profile (or --profile), each overridable by INVOICE_DESK_BASE_URL, \
INVOICE_DESK_AUTH_URL, INVOICE_DESK_AUDIENCE, INVOICE_DESK_CLIENT_ID, INVOICE_DESK_CLIENT_SECRET, \
INVOICE_DESK_API_KEY, INVOICE_DESK_API_KEY_HEADER, INVOICE_DESK_ACCOUNT_KEY, \
INVOICE_DESK_TOKEN_BODY (json or form, as --form-body), INVOICE_DESK_CURRENCIES (the codes \
create --currency may use, e.g. CLP,CLF,USD). With an API key and no \
client id, the API-key mode is used. INVOICE_DESK_TIMEOUT sets the time limit of one request in \
seconds (default 30); INVOICE_DESK_MAX_INVOICES caps one listing (default 2000000). INVOICE_DESK_CONFIG_DIR moves the profiles file \
(and the support log, to its logs folder); INVOICE_DESK_LOG_DIR chooses the support log's folder (empty: no log); \
INVOICE_DESK_KEYRING=none keeps the OS keyring out (secrets then come from the environment).";

/// invoice-desk: with no command, opens the desktop app.
#[derive(Parser, Debug)]
#[command(name = "invoice-desk", version, about = "Issue, look up, void and export invoices (CLP/CLF).", after_help = format!("{}\n\n{SETTINGS_HELP}", super::exit::Exit::help()))]
pub struct Cli {
    /// The command; none opens the desktop app.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Use this profile instead of the active one.
    #[arg(long, global = true)]
    pub profile: Option<String>,
    /// Print invoices as JSON on stdout.
    #[arg(long, global = true)]
    pub json: bool,
    /// The language of messages: en or es (default: the system's). Machine output
    /// (--json, CSV, exit codes) is the same in both.
    #[arg(long, global = true, value_enum)]
    pub lang: Option<LangArg>,
}

/// A language for `--lang`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    /// English.
    En,
    /// Spanish.
    Es,
}

impl LangArg {
    /// The language chosen, or the system's.
    pub fn or_os(chosen: Option<LangArg>) -> crate::i18n::Lang {
        match chosen {
            Some(LangArg::En) => crate::i18n::Lang::En,
            Some(LangArg::Es) => crate::i18n::Lang::Es,
            None => crate::i18n::Lang::from_os(),
        }
    }
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Manage profiles (secrets go to the OS keyring, read from stdin or a prompt).
    #[command(subcommand)]
    Profile(ProfileCommand),
    /// Fetch a token and print its expiry (checks the credentials).
    Token,
    /// Create an invoice. Without --currency, the account's currency applies.
    Create(CreateArgs),
    /// Show an invoice.
    Get {
        /// Invoice id.
        id: String,
    },
    /// Void an invoice (asks for confirmation unless --yes).
    Void {
        /// Invoice id.
        id: String,
        /// Do not ask; required when stdin is not a terminal.
        #[arg(long)]
        yes: bool,
    },
    /// List a customer's invoices.
    List {
        /// Customer id.
        customer: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Table)]
        format: ListFormat,
    },
    /// Export a customer's invoices to a CSV file or an Excel workbook.
    Export {
        /// Customer id.
        customer: String,
        /// The file to write (replaced only when the export succeeds). A name ending in
        /// .xlsx makes a workbook unless --format says otherwise.
        #[arg(long)]
        out: PathBuf,
        /// csv or xlsx (an Excel workbook: typed cells, a summary sheet with the aging
        /// and the monthly totals). Default: from --out's extension, else csv.
        #[arg(long, value_enum)]
        format: Option<ExportFormat>,
        /// CSV flavour (CSV only).
        #[arg(long, value_enum, default_value_t = DialectArg::Standard)]
        dialect: DialectArg,
        /// The day overdue days and the aging are counted on (workbook only), YYYY-MM-DD.
        /// Default: today.
        #[arg(long, value_parser = parse_day)]
        as_of: Option<chrono::NaiveDate>,
    },
    /// A customer's statement of account as a PDF: what is owed on a day, per currency
    /// and days overdue, each open invoice with its payment link and QR code, in the
    /// language of --lang. The sender's details come from `profile sender`.
    Statement {
        /// Customer id.
        customer: String,
        /// The PDF to write (replaced only when it is complete).
        #[arg(long)]
        out: PathBuf,
        /// The day overdue days are counted on, YYYY-MM-DD. Default: today.
        #[arg(long, value_parser = parse_day)]
        as_of: Option<chrono::NaiveDate>,
        /// List paid and void invoices too (what is owed is the same).
        #[arg(long)]
        all: bool,
        /// Under the UF owed, its pesos on the day's UF value (`uf show`), said as a
        /// reference; without a value for the day, UF alone and a warning.
        #[arg(long)]
        uf_pesos: bool,
    },
    /// A month's statements in one run: one PDF per customer who owes something
    /// (estado-de-cuenta-<customer>-<date>.pdf, never overwriting), and a summary CSV
    /// of every customer (those who owe nothing get no PDF). Journaled.
    Statements {
        /// A file of customer ids, one per line (or the first column of a CSV).
        #[arg(
            long,
            conflicts_with = "all_known",
            required_unless_present = "all_known"
        )]
        customers: Option<PathBuf>,
        /// Every customer the directory knows (imported, or seen in the journal).
        #[arg(long)]
        all_known: bool,
        /// The folder to write into (made if missing).
        #[arg(long)]
        out: PathBuf,
        /// The day overdue days are counted on, YYYY-MM-DD. Default: today.
        #[arg(long, value_parser = parse_day)]
        as_of: Option<chrono::NaiveDate>,
        /// List paid and void invoices too.
        #[arg(long)]
        all: bool,
        /// The summary CSV's flavour, as for export (its titles are in --lang's language).
        /// Default: excel-es for a Spanish clerk (Excel in Chile reads it), else standard.
        #[arg(long, value_enum)]
        dialect: Option<DialectArg>,
        /// Under the UF owed, its pesos on the day's UF value, as for `statement`.
        #[arg(long)]
        uf_pesos: bool,
    },
    /// Receivables across customers: what each customer owes on a day, per currency
    /// and days overdue (al día, 1–30, 31–60, 61–90, más de 90), the oldest overdue
    /// days and the last invoice; totals per currency. Every customer the directory
    /// knows (imported, or seen in the journal), or those of --customers. A customer
    /// whose invoices could not be listed is said as such (exit 4), never as owing
    /// nothing. With --json, an array; with --out FILE.csv, one row per customer and
    /// currency.
    Receivables {
        /// A file of customer ids, one per line (or the first column of a CSV).
        #[arg(long)]
        customers: Option<PathBuf>,
        /// The day overdue days are counted on, YYYY-MM-DD. Default: today.
        #[arg(long, value_parser = parse_day)]
        as_of: Option<chrono::NaiveDate>,
        /// Only customers with something overdue.
        #[arg(long)]
        only_overdue: bool,
        /// Only customers with something overdue more than this many days.
        #[arg(long)]
        older_than: Option<u32>,
        /// Write the table to this CSV file (replaced only when complete).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Run the built-in sandbox: a local copy of the service and its token issuer.
    Sandbox(SandboxArgs),
    /// Check this computer: keyring (a test secret written, read, deleted), folders,
    /// certificate store, version. Exit 0 when all is well, 1 otherwise.
    Doctor,
    /// The journal of every create, void and export made on this computer (the app's
    /// and the command line's): list it (the default), export it, verify it, resolve
    /// the outcomes still unknown. Its file: INVOICE_DESK_JOURNAL, else journal.sqlite3
    /// in the data folder.
    Journal(JournalArgs),
    /// Issue the invoices of a spreadsheet (a monthly billing run): every row checked
    /// first, sent at a safe pace, journaled, never issued twice (running the same file
    /// again skips what it already issued). Exit 0 every row created or already there;
    /// 2 invalid input (nothing sent); 4 some rows refused; 6 some rows still unknown.
    Bulk(BulkArgs),
    /// Contracts: repeating invoices (a rent in UF a month, a plan in pesos a quarter),
    /// kept in the journal (a desk shares them), each period issued once however often
    /// it is run, on however many computers. `contracts run` issues a period's: exit
    /// codes as `bulk`.
    #[command(subcommand)]
    Contracts(super::contracts_args::ContractsCommand),
    /// Requests for another clerk's approval on the desk's shared journal (its owner's
    /// `journal policy`): list them (the default), approve or reject a colleague's. A
    /// void, create or run the policy holds asks first and exits 7 until another clerk
    /// approves it; then the same command carries it out, once.
    Approvals(super::approvals_cmd::ApprovalsArgs),
    /// The customer directory (in the journal's file): import it from a spreadsheet,
    /// look customers up by name, RUT or id.
    #[command(subcommand)]
    Customers(CustomersCommand),
    /// E-mail customers their statements, invoices and reminders through the profile's
    /// mail server (`profile mail`), each once: journaled like a create. Exit 0 all
    /// sent or sent before; 2 bad settings or input (nothing sent); 4 some refused or
    /// not sent; 5 the mail server could not be used; 6 some outcomes unknown.
    #[command(subcommand)]
    Email(EmailCommand),
    /// The UF's value in pesos (published by the Banco Central, served by the CMF's API
    /// with a free key: `uf key`): a day's value, kept in the journal so each day is
    /// fetched once (on a desk, once for everyone); or a file of values imported for a
    /// computer without that access. Exit 0 a value; 2 no key or a bad file; 3 the key
    /// refused; 4 no value that day; 5 the CMF unreachable.
    #[command(subcommand)]
    Uf(UfCommand),
    /// Find invoices by id, reference, RUT, customer name or amount ("1.341.000",
    /// "UF 23,193") in what this computer and the desk know: the journal (every create
    /// and void), the customer directory and every listing read (kept in a search index
    /// beside the journal); an invoice id nothing here knows is asked of the service.
    /// Exit 0 something found; 1 nothing found.
    Find {
        /// What to find.
        text: String,
        /// Ask the service nothing (only what this computer and the desk know).
        #[arg(long)]
        local: bool,
    },
}

/// `uf` subcommands.
#[derive(Subcommand, Debug)]
pub enum UfCommand {
    /// A day's value (today by default), and an amount in UF in pesos on it.
    Show {
        /// The day, YYYY-MM-DD.
        #[arg(long, value_parser = parse_day)]
        date: Option<chrono::NaiveDate>,
        /// An amount in UF to show in pesos ("23,193").
        #[arg(long)]
        amount: Option<String>,
    },
    /// Keep the values of a file: the CMF's answer saved (.json), a table with Fecha
    /// and Valor columns (CSV or Excel, as the Banco Central's download), or the SII's
    /// table of a year (a Día column and one per month). Kept under the file's name
    /// beside the CMF's values (the CMF's used first); a day that breaks continuity
    /// with the days around it (more than 0.5 %) refuses the whole file, nothing kept.
    Import {
        /// The file.
        file: PathBuf,
        /// The year of the SII's table when the file's name does not say it.
        #[arg(long)]
        year: Option<i32>,
    },
    /// Read the kept values again from the CMF, month by month (by default this month
    /// and the last): each the CMF contradicts is replaced (a file's value is kept
    /// beside the CMF's, which is used) and recorded in the journal; every difference is
    /// said. Exit 0 all agree; 4 some did not (now corrected); 5 the CMF unreachable.
    Check {
        /// The first day, YYYY-MM-DD.
        #[arg(long, value_parser = parse_day)]
        from: Option<chrono::NaiveDate>,
        /// The last day, YYYY-MM-DD.
        #[arg(long, value_parser = parse_day)]
        to: Option<chrono::NaiveDate>,
    },
    /// Keep the CMF API's key in the keyring (asked, or the first line of stdin); with
    /// --address, read the UF from another address than the CMF's.
    Key {
        /// The API's address (default https://api.cmfchile.cl/api-sbifv3/recursos_api).
        #[arg(long)]
        address: Option<String>,
    },
}

/// `bulk` arguments.
#[derive(Args, Debug)]
pub struct BulkArgs {
    /// The file: CSV (comma or semicolon; UTF-8 or Windows-1252) or Excel .xlsx. Columns
    /// by header, Spanish or English: customer|cliente (an id, or a name or RUT from the
    /// customer directory), amount|monto, currency_code|currency|moneda (empty: the
    /// account's), due_date|vencimiento, product_id|producto,
    /// invoice_external_id|external_id|referencia (empty: one made from what the row
    /// issues, so the same month in any format or order is the same run),
    /// account_key|cuenta, metadata.NAME.
    pub file: PathBuf,
    /// Check and show what would be sent; send nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask; required when stdin is not a terminal.
    #[arg(long)]
    pub yes: bool,
    /// Requests at once (1 to 64).
    #[arg(long, default_value_t = 4, value_parser = super::contracts_args::concurrency)]
    pub concurrency: u8,
    /// Send the valid rows even when some rows are invalid (those are reported).
    #[arg(long)]
    pub skip_invalid: bool,
    /// The Excel sheet (default: the first).
    #[arg(long)]
    pub sheet: Option<String>,
    /// Leave out columns the header does not name (otherwise they stop the run).
    #[arg(long)]
    pub ignore_columns: bool,
    /// Write a CSV report: row, invoice_external_id, status (created, refused, unknown,
    /// skipped_existing, possible_duplicate, skipped_invalid, not_sent), invoice_id, error.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Issue rows that look like an invoice already issued (same customer, amount,
    /// currency and due date); without it they are skipped and reported.
    #[arg(long)]
    pub allow_similar: bool,
}

/// `customers` subcommands.
#[derive(Subcommand, Debug)]
pub enum CustomersCommand {
    /// Import (add or replace) customers from a CSV or XLSX file with a header naming
    /// the columns: id|cliente|customer, name|nombre|razón social, rut, notes|notas.
    /// Every RUT's check digit is checked; any problem and nothing is imported (exit 2).
    Import {
        /// The file.
        file: PathBuf,
    },
    /// List the customers whose name, RUT or id contains TEXT (all without it).
    Find {
        /// What to look for.
        text: Option<String>,
    },
    /// Show or set where a customer's statements, invoices and reminders are e-mailed
    /// (up to 10 addresses; each is checked, and any that is not one changes nothing).
    Contacts {
        /// Customer id.
        customer: String,
        /// The addresses (replacing those kept); none: show them.
        emails: Vec<String>,
        /// Remove every address (the customer gets no e-mail).
        #[arg(long, conflicts_with = "emails")]
        clear: bool,
    },
}

/// `email` subcommands.
#[derive(Subcommand, Debug)]
pub enum EmailCommand {
    /// E-mail a month's statements of account, the PDF attached, to every customer
    /// who owes something and has an address in the directory (`customers contacts`,
    /// or the directory file's email|correo column). Each e-mail is claimed in the
    /// journal before it is sent: a second run, another clerk, or a run after a crash
    /// never sends one twice (an e-mail whose answer never came is said, not resent).
    /// With --reminders, a reminder instead (30, 60 or 90 days overdue) to those whose
    /// oldest unpaid invoice is at least 30 days overdue.
    Statements(EmailStatementsArgs),
    /// E-mail one invoice, its PDF attached, to its customer's addresses.
    Invoice {
        /// Invoice id.
        id: String,
        /// Send it although it was sent before (or may have been).
        #[arg(long)]
        again: bool,
        /// Show what would be sent; send nothing.
        #[arg(long)]
        preview: bool,
    },
    /// Print an e-mail's template in --lang's language (statement, invoice,
    /// reminder-30, reminder-60, reminder-90); with --write, into the templates folder,
    /// where an edited copy is used instead of the built-in one. Placeholders:
    /// {customer} {organization} {date} {owed} {invoice} {amount} {due} {days} {contact}.
    Template {
        /// Which.
        kind: String,
        /// Write it to the templates folder (not over a file there).
        #[arg(long)]
        write: bool,
    },
}

/// `email statements` arguments.
#[derive(Args, Debug)]
pub struct EmailStatementsArgs {
    /// A file of customer ids, one per line (or the first column of a CSV).
    #[arg(long, conflicts_with_all = ["all_known", "customer"])]
    pub customers: Option<PathBuf>,
    /// Every customer the directory knows.
    #[arg(long, conflicts_with = "customer")]
    pub all_known: bool,
    /// This customer (repeatable).
    #[arg(long)]
    pub customer: Vec<String>,
    /// The day overdue days are counted on, YYYY-MM-DD (default: today). Its month is
    /// the e-mail's: one statement (or reminder) per customer and month.
    #[arg(long, value_parser = parse_day)]
    pub as_of: Option<chrono::NaiveDate>,
    /// List paid and void invoices too.
    #[arg(long)]
    pub all: bool,
    /// Reminders (30, 60 or 90 days overdue) instead of statements.
    #[arg(long)]
    pub reminders: bool,
    /// Send again what may have been sent this month (no answer came: its outcome in
    /// doubt); what the server took for sure is not sent again (see --again-all).
    #[arg(long)]
    pub again: bool,
    /// With --again: send again what was sent for sure too (every customer's e-mail of
    /// the month once more).
    #[arg(long, requires = "again")]
    pub again_all: bool,
    /// A line under the UF owed with its pesos on the day's value (as `statement
    /// --uf-pesos`).
    #[arg(long)]
    pub uf_pesos: bool,
    /// Show what would be sent to whom; send nothing.
    #[arg(long)]
    pub preview: bool,
}

/// `journal`: a subcommand, or the list's options.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, after_help = JOURNAL_HELP)]
pub struct JournalArgs {
    /// What to do (default: list).
    #[command(subcommand)]
    pub command: Option<JournalCommand>,
    /// The list's options, when no subcommand is given.
    #[command(flatten)]
    pub filter: JournalFilter,
}

pub(crate) const JOURNAL_HELP: &str = "Exit codes (see invoice-desk --help): `journal verify`: 0 the chain is intact, 8 an entry was changed or removed (the first one is named); `journal resolve`: 0 nothing left to check, 6 some outcomes are still unknown.

--json prints one object per line: seq, time (RFC 3339, UTC), user, profile, base_url, action, customer, amount, currency_code (absent: the account's currency), account_last4, external_id, invoice_id, outcome (done, refused, unknown), error_kind, error_code, file_name, rows, settled_time, checked, and on a shared journal db_user (the database role that wrote it, as its server knows it) and, for a row copied by `journal push`, copied_time (the time its own journal gave it).";

/// `journal` subcommands.
#[derive(Subcommand, Debug)]
pub enum JournalCommand {
    /// List entries, oldest first (also the default).
    List(JournalFilter),
    /// Write entries to a CSV file.
    Export {
        /// The CSV file to write.
        #[arg(long)]
        out: PathBuf,
        /// Which entries.
        #[command(flatten)]
        filter: JournalFilter,
    },
    /// Walk the hash chain: exit 0 when intact, 8 naming the first broken entry.
    Verify,
    /// Prepare a desk's shared journal (PostgreSQL), run once by the database's owner:
    /// creates its tables and lets the clerks' role add entries and read them, never
    /// change or remove them. The password comes from INVOICE_DESK_JOURNAL_PASSWORD.
    Init {
        /// The database's address, postgres://owner@host/database (no password in it).
        url: String,
        /// The clerks' database role, given what it may do (else the statements are
        /// printed for the owner to run).
        #[arg(long)]
        clerks: Option<String>,
        /// The desk's time zone (IANA name; America/Santiago unless set): the server's
        /// clock in it decides the month of every clerk's e-mails and "today".
        #[arg(long)]
        time_zone: Option<String>,
    },
    /// The desk's four eyes on its shared journal: which voids, runs and invoices need
    /// another clerk's approval. Shown to anyone; changed by the database's owner, with
    /// its address (the password from INVOICE_DESK_JOURNAL_PASSWORD).
    Policy {
        /// The database's address as its owner, postgres://owner@host/database (to
        /// change the policy; without it, the journal's policy is shown).
        url: Option<String>,
        /// Every void needs another clerk's approval.
        #[arg(long)]
        approve_voids: bool,
        /// A billing or contracts run of more rows than this needs one.
        #[arg(long, value_name = "ROWS", value_parser = clap::value_parser!(u64).range(1..))]
        approve_runs_over: Option<u64>,
        /// An invoice of more than this amount in this currency needs one (one left to
        /// the account's currency too).
        #[arg(long, num_args = 2, value_names = ["AMOUNT", "CURRENCY"])]
        approve_amount_over: Option<Vec<String>>,
        /// Hours a request stands before it expires (24 unless set).
        #[arg(long, value_name = "HOURS", value_parser = clap::value_parser!(u32).range(1..=720))]
        approval_hours: Option<u32>,
        /// Nothing needs an approval any more.
        #[arg(long, conflicts_with_all = ["approve_voids", "approve_runs_over", "approve_amount_over"])]
        off: bool,
    },
    /// Copy this computer's journal into the desk's shared journal (PostgreSQL): every
    /// entry with who wrote it and when, and the references it claimed. Running it
    /// again copies nothing twice.
    Push {
        /// The shared journal, postgres://clerk@host/database (the password from
        /// INVOICE_DESK_JOURNAL_PASSWORD).
        #[arg(long)]
        to: String,
        /// The local journal to copy (default: this computer's, or INVOICE_DESK_JOURNAL
        /// when it names a file).
        #[arg(long)]
        from: Option<PathBuf>,
    },
    /// Ask the service what became of each entry whose outcome is unknown (a create by
    /// its reference among the customer's invoices, a void by reading the invoice) and
    /// record it. Exit 6 when some are still unknown.
    Resolve {
        /// Accepted for older scripts: every unknown entry is checked; one not found is
        /// settled as not created only once its request cannot still be at work.
        #[arg(long, hide = true)]
        include_recent: bool,
    },
}

/// Which journal entries.
#[derive(Args, Debug, Default, Clone)]
pub struct JournalFilter {
    /// Only entries recorded on or after this day (YYYY-MM-DD, local time).
    #[arg(long, value_parser = iso_day)]
    pub since: Option<chrono::NaiveDate>,
    /// Only this action.
    #[arg(long, value_enum)]
    pub action: Option<JournalAction>,
    /// Only this outcome.
    #[arg(long, value_enum)]
    pub outcome: Option<JournalOutcome>,
}

/// `--action`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum JournalAction {
    /// Creates.
    Create,
    /// Voids.
    Void,
    /// Exports.
    Export,
    /// E-mails to customers.
    Email,
}

/// `--outcome`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum JournalOutcome {
    /// Done.
    Done,
    /// Refused.
    Refused,
    /// Unknown: to check.
    Unknown,
}

/// `--per-minute`: 1 to 100,000, or `server` (the server's pace).
fn per_minute(s: &str) -> Result<u32, String> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("server") || s.eq_ignore_ascii_case("servidor") {
        return Ok(crate::profile::mail::SERVER_PACE);
    }
    match s.parse::<u32>() {
        Ok(n) if (1..=crate::profile::mail::MAX_PER_MINUTE).contains(&n) => Ok(n),
        _ => Err(crate::tr!(
            "cli-bad-per-minute",
            max = crate::profile::mail::MAX_PER_MINUTE
        )),
    }
}

fn iso_day(s: &str) -> Result<chrono::NaiveDate, String> {
    chrono::NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d")
        .map_err(|_| crate::tr!("cli-arg-not-a-day"))
}

/// `profile` subcommands.
#[derive(Subcommand, Debug)]
pub enum ProfileCommand {
    /// Add or replace a profile; the secret is read from stdin (or a hidden prompt).
    Add(ProfileAddArgs),
    /// List profiles.
    List,
    /// Show a profile (never its secret).
    Show {
        /// Profile name (default: the active one).
        name: Option<String>,
    },
    /// Remove a profile and its stored secret.
    Remove {
        /// Profile name.
        name: String,
    },
    /// Make a profile the active one.
    Use {
        /// Profile name.
        name: String,
    },
    /// Set who statements of account are from (only the options given change).
    Sender(SenderArgs),
    /// Set the mail server customers' e-mails go through (only the options given
    /// change). With --user, its password is read (a hidden prompt, the first line of
    /// stdin, or INVOICE_DESK_SMTP_PASSWORD) and kept in the keyring, never in a file.
    Mail(MailArgs),
}

/// `profile mail` arguments.
#[derive(Args, Debug)]
pub struct MailArgs {
    /// Profile name (default: the active one).
    pub name: Option<String>,
    /// The server's host name (smtp.example.cl).
    #[arg(long)]
    pub server: Option<String>,
    /// Its port (default: 587 for starttls, 465 for tls).
    #[arg(long)]
    pub port: Option<u16>,
    /// starttls (port 587), tls (465), or none (only to a server on this computer).
    #[arg(long, value_enum)]
    pub security: Option<SecurityArg>,
    /// The login (an empty value: no login).
    #[arg(long)]
    pub user: Option<String>,
    /// Who the e-mails are from: "Cobranzas ACME <cobranzas@acme.cl>".
    #[arg(long)]
    pub from: Option<String>,
    /// Where customers' answers go (empty: to --from).
    #[arg(long)]
    pub reply_to: Option<String>,
    /// The desk's blind copy of every e-mail (empty: none).
    #[arg(long)]
    pub copy_to: Option<String>,
    /// At most this many e-mails a minute, up to 100000, or `server`: as fast as the
    /// server takes them (a desk's own relay). 30 unless set.
    #[arg(long, value_name = "N|server", value_parser = per_minute)]
    pub per_minute: Option<u32>,
    /// A certificate authority (PEM) to trust besides the system's, for a desk's own
    /// server (empty: none).
    #[arg(long)]
    pub ca_file: Option<PathBuf>,
}

/// `--security`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SecurityArg {
    /// STARTTLS.
    Starttls,
    /// TLS from the start.
    Tls,
    /// None (this computer only).
    None,
}

/// `profile sender` arguments.
#[derive(Args, Debug)]
pub struct SenderArgs {
    /// Profile name (default: the active one).
    pub name: Option<String>,
    /// The organization's name.
    #[arg(long)]
    pub organization: Option<String>,
    /// Its RUT (the check digit is verified).
    #[arg(long)]
    pub rut: Option<String>,
    /// Its address.
    #[arg(long)]
    pub address: Option<String>,
    /// A contact e-mail.
    #[arg(long)]
    pub email: Option<String>,
    /// A contact phone.
    #[arg(long)]
    pub phone: Option<String>,
    /// A PNG or JPEG logo of at most 1 MB (an empty value takes it away).
    #[arg(long)]
    pub logo: Option<std::path::PathBuf>,
    /// How to pay (bank, account), printed at the end of each statement.
    #[arg(long)]
    pub payment_text: Option<String>,
}

/// Authentication mode of a new profile.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum Mode {
    /// OAuth 2.0 client credentials.
    Oauth,
    /// API key.
    ApiKey,
}

/// `profile add` arguments.
#[derive(Args, Debug)]
pub struct ProfileAddArgs {
    /// Profile name.
    pub name: String,
    /// Authentication mode.
    #[arg(long, value_enum, default_value_t = Mode::Oauth)]
    pub mode: Mode,
    /// The service's base URL.
    #[arg(long)]
    pub base_url: String,
    /// The identity provider's URL (OAuth).
    #[arg(long)]
    pub auth_url: Option<String>,
    /// Audience (OAuth).
    #[arg(long)]
    pub audience: Option<String>,
    /// Client id (OAuth).
    #[arg(long)]
    pub client_id: Option<String>,
    /// Send the token request form-encoded (OAuth).
    #[arg(long)]
    pub form_body: bool,
    /// API-key header name.
    #[arg(long, default_value = crate::api::auth::DEFAULT_API_KEY_HEADER)]
    pub api_key_header: String,
    /// Account key (x-account-key).
    #[arg(long, default_value = "")]
    pub account_key: String,
    /// The account's currency, for display (an ISO 4217 code).
    #[arg(long, value_parser = currency_code)]
    pub account_currency: Option<Currency>,
    /// The currencies offered besides the account's (ISO 4217 codes, comma-separated);
    /// default CLP,CLF.
    #[arg(long, value_delimiter = ',', value_parser = currency_code)]
    pub currencies: Vec<Currency>,
}

/// Reads an ISO 4217 code for clap (`CLP`, `usd`).
fn currency_code(text: &str) -> Result<Currency, String> {
    Currency::from_code(text).ok_or_else(|| crate::tr!("cli-arg-not-a-currency"))
}

/// `create` arguments.
#[derive(Args, Debug)]
pub struct CreateArgs {
    /// Customer: its id, or a name or RUT the directory knows (exactly one customer).
    #[arg(long)]
    pub customer: String,
    /// Amount (es-CL like 1.234.567 or 12,3456, or plain 1234567 / 12.3456).
    #[arg(long, allow_hyphen_values = true)]
    pub amount: String,
    /// Currency (an ISO 4217 code among the profile's, INVOICE_DESK_CURRENCIES'
    /// or CLP,CLF); omitted means the account's currency (currency_code not sent).
    #[arg(long, value_parser = currency_code)]
    pub currency: Option<Currency>,
    /// Product id.
    #[arg(long)]
    pub product: Option<String>,
    /// Due date: YYYY-MM-DD, or DD-MM-YYYY / DD/MM/YYYY as written in Chile; sent as
    /// YYYY-MM-DD. The day must exist.
    #[arg(long)]
    pub due: Option<String>,
    /// Your own reference (default: a fresh unique one, printed, to check an unknown outcome).
    #[arg(long)]
    pub external_id: Option<String>,
    /// Extra field, KEY=VALUE (repeatable; metadata.KEY=VALUE for metadata).
    #[arg(long = "field")]
    pub fields: Vec<String>,
    /// Account key for this call (overrides the profile's).
    #[arg(long)]
    pub account_key: Option<String>,
    /// Issue it even if it looks like an invoice already issued (same customer, amount,
    /// currency and due date; without a due date, the same day).
    #[arg(long)]
    pub allow_similar: bool,
    /// Issue it although the journal has the reference as issued, when the service has
    /// no such invoice and no invoice of that reference (asked first; the decision is
    /// journaled). An invoice the service has is never issued again.
    #[arg(long)]
    pub reissue_missing: bool,
}

/// `list` output formats.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ListFormat {
    /// A text table.
    Table,
    /// A JSON array.
    Json,
    /// CSV (standard dialect).
    Csv,
}

/// CSV dialect argument.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum DialectArg {
    /// RFC 4180: comma, dot decimal, UTF-8, no BOM.
    Standard,
    /// Excel in Spanish (Chile): semicolon, comma decimal, BOM, CRLF, Spanish titles
    /// and status words.
    ExcelEs,
}

/// The file an export writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// CSV (see --dialect).
    Csv,
    /// An Excel workbook.
    Xlsx,
}

impl ExportFormat {
    /// The format asked for, else the one `out`'s extension names (`.xlsx`), else CSV.
    pub fn for_path(asked: Option<ExportFormat>, out: &std::path::Path) -> ExportFormat {
        asked.unwrap_or(match crate::export::workbook_by_name(out) {
            Some(true) => ExportFormat::Xlsx,
            _ => ExportFormat::Csv,
        })
    }
}

/// A day written `YYYY-MM-DD`.
fn parse_day(s: &str) -> Result<chrono::NaiveDate, String> {
    crate::receivables::aging::parse_iso_day(s.trim())
        .ok_or_else(|| crate::tr!("cli-arg-not-a-day"))
}

impl From<DialectArg> for Dialect {
    fn from(d: DialectArg) -> Dialect {
        match d {
            DialectArg::Standard => Dialect::Standard,
            DialectArg::ExcelEs => Dialect::ExcelEs,
        }
    }
}

/// `sandbox` arguments.
#[derive(Args, Debug)]
pub struct SandboxArgs {
    /// Port of the invoice API (0: any free port).
    #[arg(long, default_value_t = 8787)]
    pub port: u16,
    /// A separate port for the token issuer (default: same as the API).
    #[arg(long)]
    pub auth_port: Option<u16>,
    /// Seed of the generated data.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Invoices of the big customer cus_big (0: none).
    #[arg(long, default_value_t = 0)]
    pub big_customer: usize,
    /// More customers (cus_m00000…), for a book of many customers.
    #[arg(long, default_value_t = 0)]
    pub extra_customers: usize,
    /// Invoices each of those extra customers has.
    #[arg(long, default_value_t = 200)]
    pub invoices_each: usize,
    /// Keep the data in this JSON file (loaded if it exists).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Lifetime of issued tokens, in seconds.
    #[arg(long, default_value_t = 3600)]
    pub token_lifetime: u64,
    /// Latency added to every request, in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub latency_ms: u64,
    /// Address to listen on (loopback unless told otherwise).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// The currency codes it accepts in currency_code (like the service: CLP,CLF).
    #[arg(long, value_delimiter = ',', value_parser = currency_code, default_value = "CLP,CLF")]
    pub currencies: Vec<Currency>,
    /// Carry out a create or void even when its client went away before the answer (as a
    /// real service does); without it such a request is dropped with its connection.
    #[arg(long)]
    pub finish_abandoned: bool,
}
