//! What the views ask for. Panels and the top bar read state and push a [`Command`];
//! the app's one `handle` changes state and starts background work (`ui/app/handle.rs`).

use crate::api::NewInvoice;
use crate::profile::Profile;
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The panels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tab {
    /// Profiles and credentials.
    #[default]
    Credentials,
    /// Issue an invoice.
    Create,
    /// Look up and void.
    Lookup,
    /// A customer's invoices.
    Customers,
    /// The journal: what was issued, voided and exported here.
    Activity,
    /// A billing run from a spreadsheet.
    Bulk,
    /// What every customer owes (Cartera).
    Receivables,
    /// Contracts: repeating invoices, a period's run.
    Contracts,
}

/// Light, dark, or as the operating system says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ThemeChoice {
    /// Follow the operating system.
    #[default]
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl ThemeChoice {
    /// egui's preference for it.
    pub fn preference(self) -> egui::ThemePreference {
        match self {
            ThemeChoice::System => egui::ThemePreference::System,
            ThemeChoice::Light => egui::ThemePreference::Light,
            ThemeChoice::Dark => egui::ThemePreference::Dark,
        }
    }
}

/// Something a view asks the app to do: one variant per area, each area's own enum
/// handled whole by its handler (an exhaustive match: a new command that nobody
/// carries out does not compile).
pub enum Command {
    /// Profiles, their secrets, the CMF key and the UF's file, the sandbox (`app/profiles.rs`).
    Profiles(ProfilesCommand),
    /// The shared journal's setting and the directory it brings (`app/desk.rs`).
    Desk(DeskCommand),
    /// New invoice (`app/issue.rs`).
    Issue(Box<IssueCommand>),
    /// Look up and void (`app/lookup.rs`).
    Lookup(LookupCommand),
    /// Customer invoices and the directory (`app/customers.rs`).
    Customers(CustomersCommand),
    /// Cartera (`app/receivables.rs`).
    Receivables(ReceivablesCommand),
    /// The search box (`app/search.rs`).
    Search(SearchCommand),
    /// The window: tabs, Activity, theme, language, diagnostics, quitting (`app/handle.rs`).
    Window(WindowCommand),
    /// Something for the Bulk issue panel.
    Bulk(BulkCommand),
    /// Something for the Contracts panel (`ui/contracts.rs`).
    Contracts(ContractsCommand),
}

/// Contracts (`ui/contracts.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContractsCommand {
    /// Read the contracts the journal keeps.
    Refresh,
    /// Keep the contracts of the file typed.
    Import,
    /// Plan the period typed.
    Preview,
    /// Ask before issuing the plan.
    Ask,
    /// Issue the plan (asked first).
    Issue,
    /// Stop sending (what is on its way finishes and is journaled).
    Stop,
    /// Keep the contract written in the panel (checked as an import is).
    Save,
    /// Change the contract chosen from the period typed.
    Apply(ContractChange),
}

/// What the panel changes of a kept contract, from a period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContractChange {
    /// Its amount.
    Amount,
    /// Paused.
    Pause,
    /// Billed again.
    Resume,
    /// Ended after the period.
    End,
}

impl Command {
    /// New invoice's command (boxed: an invoice is large, and commands are many and
    /// small).
    pub fn issue(c: IssueCommand) -> Command {
        Command::Issue(Box::new(c))
    }
}

/// Profiles, their secrets, the CMF key and the UF's file, the sandbox (`app/profiles.rs`).
pub enum ProfilesCommand {
    /// Make this profile the active one and connect.
    Activate(String),
    /// Save a profile (and its secret, if one was typed).
    SaveProfile {
        /// The name before editing, for an existing profile.
        previous: Option<String>,
        /// The profile (boxed: it is large, and commands are many and small).
        profile: Box<Profile>,
        /// A newly typed secret.
        secret: Option<SecretString>,
        /// A newly typed password for the mail server.
        mail_password: Option<SecretString>,
    },
    /// Delete a profile and its secret.
    DeleteProfile(String),
    /// Read the UF's value from this address from now on, with this CMF key (kept in the
    /// keyring; `None`: the one kept).
    SaveUfKey {
        /// The CMF API's address.
        address: String,
        /// A newly typed key.
        key: Option<SecretString>,
    },
    /// Pick a file of UF values (a dialog), then keep its values as `ImportUfFile`.
    ChooseUfFile,
    /// Keep the values of this file of UF values in the journal (all or nothing).
    ImportUfFile(std::path::PathBuf),
    /// Fetch a token / make a harmless call with the active profile.
    TestConnection,
    /// Create the sandbox profile, start the sandbox, connect.
    TrySandbox,
}

/// The shared journal's setting and the directory it brings (`app/desk.rs`).
pub enum DeskCommand {
    /// Open the shared journal at this address as the app would, and say what was found.
    TestJournal {
        /// A PostgreSQL address, without its password.
        address: String,
        /// A newly typed password (else the one kept in the keyring).
        password: Option<SecretString>,
    },
    /// Use this journal from now on (after it opens): the desk's shared one at
    /// `address`, or this computer's file when it is empty; with the clerk's name.
    SaveJournal {
        /// A PostgreSQL address, or empty.
        address: String,
        /// A newly typed password, kept in the keyring.
        password: Option<SecretString>,
        /// The clerk's name written beside the computer's account (may be empty).
        clerk: String,
    },
    /// Bring the customer directory of the journal used before into the shared journal
    /// just switched to.
    BringDirectory,
    /// Copy what this computer's own journal recorded into the shared journal in use
    /// (`journal push`), each entry once.
    PushEntries,
}

/// New invoice (`app/issue.rs`).
pub enum IssueCommand {
    /// Check the journal's unknown outcomes against the service ("Check now").
    CheckJournal,
    /// Issue this invoice (never resent: the panel locks until the outcome is known);
    /// `allow_similar`: the clerk was shown the earlier invoice it looks like and said to
    /// issue it anyway (journaled).
    CreateInvoice {
        /// The invoice.
        invoice: NewInvoice,
        /// Issue it although it looks like an earlier invoice.
        allow_similar: bool,
        /// Issue it although the journal has its reference as issued as this invoice
        /// (empty: without an id), which the service was found not to have.
        reissue_missing: Option<String>,
    },
    /// The clerk checked a create without a reference and says it was not created: the
    /// decision is journaled and the form unlocked.
    ClerkCheckedNotCreated(NewInvoice),
    /// Look for an invoice whose creation had an unknown outcome, by its reference.
    CheckCreated(NewInvoice),
}

/// Look up and void (`app/lookup.rs`).
pub enum LookupCommand {
    /// Print the invoice on screen in Lookup (its PDF, opened in the system's viewer).
    PrintInvoice,
    /// Make the e-mail of the invoice on screen in Lookup, to show it before it is sent.
    PrepareInvoiceEmail,
    /// Send the e-mail Lookup shows.
    SendInvoiceEmail,
    /// Look this invoice up in the Lookup panel (and show that panel).
    OpenInLookup {
        /// The invoice.
        id: String,
        /// Opened from the customer list (Lookup then offers the way back).
        from_list: bool,
    },
    /// Look up the id in the Lookup panel's field.
    LookUp,
    /// Read the invoice again to learn whether a void whose answer was lost went through.
    RecheckVoid(String),
    /// Void this invoice (after the clerk confirmed).
    Void(String),
}

/// Customer invoices and the directory (`app/customers.rs`).
pub enum CustomersCommand {
    /// Make the loaded customer's statement of account (PDF) and open it in the
    /// system's viewer (to print, save or send).
    StatementPdf,
    /// Make the statement e-mail of the customer on screen in Customer invoices.
    PrepareStatementEmail,
    /// Send the statement e-mail Customer invoices shows.
    SendStatementEmail,
    /// Show this customer's invoices in the Customer invoices panel.
    OpenCustomer(String),
    /// Look for customers in the directory whose name, RUT or id contains this text.
    SuggestCustomers(String),
    /// Look up the directory's names of these customer ids (to show names, not ids).
    WantNames(Vec<String>),
    /// Import the customer directory from a CSV or XLSX file (open dialog).
    ImportCustomers,
    /// Import the customer directory from this file (a typed path: no dialog appeared).
    ImportCustomersFrom(PathBuf),
    /// Go to the customer list and export it (Ctrl/Cmd+E).
    ExportShortcut,
    /// Load the customer in the Customers panel's field.
    LoadCustomer,
    /// Stop loading the customer list.
    CancelLoad,
    /// Stop the export under way (what was written is thrown away; an existing file
    /// stays as it was).
    CancelExport,
    /// Sort or filter the customer list again (its settings changed).
    RefreshCustomerView,
    /// Export the customer list (a workbook or CSV, as chosen; a typed path's `.xlsx` or
    /// `.csv` decides): to this file, or through the save dialog.
    ExportCsv(Option<PathBuf>),
    /// Show only one aging bucket of one currency; `None`: all again.
    CustomerBucket(Option<(String, crate::receivables::aging::Bucket)>),
}

/// Cartera (`app/receivables.rs`).
pub enum ReceivablesCommand {
    /// List what every customer the directory knows owes (the Cartera panel).
    ReviewReceivables,
    /// Stop that listing (what was listed stays).
    StopReceivables,
    /// Make the statements of the customers the Cartera panel shows, into its folder.
    StatementsForShown,
    /// Stop that run before its next customer.
    StopStatements,
    /// Write the book the Cartera panel shows (and every invoice those customers owe)
    /// as an Excel workbook into its folder.
    ReceivablesWorkbook,
    /// E-mail the customers Cartera shows who owe something their statement (or
    /// reminder) of the month.
    EmailShown,
    /// Stop those e-mails before the next customer.
    StopEmail,
    /// Shows the e-mail the first customer of the month's run would get.
    EmailSample,
}

/// The search box (`app/search.rs`).
pub enum SearchCommand {
    /// Search what this computer and the desk know for this text (the top bar's box).
    Search(String),
    /// Put the keyboard in the search box (Ctrl/Cmd+F).
    FocusSearch,
}

/// The window: tabs, Activity, theme, language, diagnostics, quitting (`app/handle.rs`).
pub enum WindowCommand {
    /// Read the Activity panel's entries again (its filters changed, or the journal).
    ActivityRefresh,
    /// Read this page of the Activity panel's entries.
    ActivityPage(u64),
    /// Export the Activity panel's entries to CSV (save dialog).
    ActivityExport,
    /// Approve (or reject, with the note typed beside it) a colleague's request.
    DecideApproval {
        /// The request's number.
        id: i64,
        /// Approve; else reject.
        approve: bool,
    },
    /// Open a link in the browser or a folder in the file manager.
    OpenExternal(super::external::External),
    /// Switch panel.
    Show(Tab),
    /// Switch panel and put the keyboard focus in its first field (Ctrl/Cmd+N, +F).
    Focus(Tab),
    /// Send the current panel's form (Ctrl/Cmd+Enter).
    SubmitCurrent,
    /// Light, dark or system theme.
    SetTheme(ThemeChoice),
    /// The UI language.
    SetLanguage(crate::i18n::Lang),
    /// Run the self-check and show its report (Help → Diagnostics).
    Diagnostics,
    /// Close the diagnostics window.
    CloseDiagnostics,
    /// The clerk asked to close the window (or Ctrl/Cmd+Q): closes, or asks first when
    /// something is on its way.
    Quit,
    /// Close without asking again (the clerk confirmed), or stay (`false`).
    ConfirmQuit(bool),
}

/// What the panel asks the app for (through `Command::Bulk`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BulkCommand {
    /// Choose a file with the open dialog, then read it.
    Choose,
    /// Read and check the file whose path is typed.
    Read,
    /// Check the rows again with this column mapping (the clerk changed a column's use).
    Remap(Vec<crate::bulk::ColumnUse>),
    /// Send the valid rows (the clerk confirmed).
    Start,
    /// Hold the rows not yet sent.
    Pause,
    /// Let them go again.
    Resume,
    /// Send nothing more (requests in flight finish and are recorded).
    Cancel,
    /// Save the results beside the file: Excel (`true`) or CSV.
    Save(bool),
    /// Open an interrupted run's file to resume it.
    OpenInterrupted(i64),
    /// Ask before forgetting an interrupted run.
    AskForget(i64),
    /// Keep it after all (the question's No).
    KeepInterrupted,
    /// Forget an interrupted run.
    Forget(i64),
}
