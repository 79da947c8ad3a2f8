//! The headless command line, on the same API layer as the app. Messages and errors go to
//! stderr; results to stdout.
//!
//! Exit codes: 0 success; 2 bad usage or input refused before sending; 3 authentication
//! failed (token endpoint or 401/403); 4 the service answered with an error; 5 network
//! failure or timeout; 6 outcome unknown (create/void sent, no answer).

mod settings;

use crate::api::{
    ApiError, Client, Currency, CurrencyChoice, ErrorKind, Invoice, NewInvoice, TokenState, money,
};
use crate::export::Dialect;
use crate::profile::{Profile, ProfileAuth, Profiles};
use crate::text::{escape_controls, escape_json_for_terminal};
use clap::{Args, Parser, Subcommand, ValueEnum};
use secrecy::SecretString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

pub use settings::config_dir;

const EXIT_HELP: &str = "Exit codes: 0 success; 2 bad usage or input refused before sending; 3 authentication failed \
(token endpoint or 401/403); 4 the service answered with an error; 5 network failure or timeout; \
6 outcome unknown: check before retrying (a create/void was sent and no answer came, or it was \
answered with success but the answer could not be read).

Settings come from the active profile (or --profile), each overridable by INVOICE_DESK_BASE_URL, \
INVOICE_DESK_AUTH_URL, INVOICE_DESK_AUDIENCE, INVOICE_DESK_CLIENT_ID, INVOICE_DESK_CLIENT_SECRET, \
INVOICE_DESK_API_KEY, INVOICE_DESK_API_KEY_HEADER, INVOICE_DESK_ACCOUNT_KEY, \
INVOICE_DESK_TOKEN_BODY (json or form, as --form-body). With an API key and no \
client id, the API-key mode is used. INVOICE_DESK_TIMEOUT sets the time limit of one request in \
seconds (default 30); INVOICE_DESK_MAX_INVOICES caps one listing (default 2000000). INVOICE_DESK_CONFIG_DIR moves the profiles file; \
INVOICE_DESK_KEYRING=none keeps the OS keyring out (secrets then come from the environment).";

/// invoice-desk: with no command, opens the desktop app.
#[derive(Parser, Debug)]
#[command(name = "invoice-desk", version, about = "Issue, look up, void and export invoices (CLP/CLF).", after_help = EXIT_HELP)]
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
    /// Export a customer's invoices to a CSV file.
    Export {
        /// Customer id.
        customer: String,
        /// The file to write (replaced only when the export succeeds).
        #[arg(long)]
        out: PathBuf,
        /// CSV flavour.
        #[arg(long, value_enum, default_value_t = DialectArg::Standard)]
        dialect: DialectArg,
    },
    /// Run the built-in sandbox: a local copy of the service and its token issuer.
    Sandbox(SandboxArgs),
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
    #[arg(long, default_value = "x-api-key")]
    pub api_key_header: String,
    /// Account key (x-account-key).
    #[arg(long, default_value = "")]
    pub account_key: String,
    /// The account's currency, for display.
    #[arg(long, value_enum)]
    pub account_currency: Option<CurrencyArg>,
}

/// CLP or CLF.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum CurrencyArg {
    /// Chilean peso.
    #[value(name = "CLP", alias = "clp")]
    Clp,
    /// Unidad de Fomento.
    #[value(name = "CLF", alias = "clf")]
    Clf,
}

impl From<CurrencyArg> for Currency {
    fn from(c: CurrencyArg) -> Currency {
        match c {
            CurrencyArg::Clp => Currency::Clp,
            CurrencyArg::Clf => Currency::Clf,
        }
    }
}

/// `create` arguments.
#[derive(Args, Debug)]
pub struct CreateArgs {
    /// Customer id.
    #[arg(long)]
    pub customer: String,
    /// Amount (es-CL like 1.234.567 or 12,3456, or plain 1234567 / 12.3456).
    #[arg(long, allow_hyphen_values = true)]
    pub amount: String,
    /// Currency; omitted means the account's currency (currency_code not sent).
    #[arg(long, value_enum)]
    pub currency: Option<CurrencyArg>,
    /// Product id.
    #[arg(long)]
    pub product: Option<String>,
    /// Due date, YYYY-MM-DD.
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
    /// Excel in Spanish (Chile): semicolon, comma decimal, BOM, CRLF.
    ExcelEs,
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
}

/// A failure with its exit code and the message for stderr.
#[derive(Debug)]
pub struct Failure {
    /// Exit code.
    pub code: u8,
    /// What to print.
    pub message: String,
}

impl Failure {
    fn usage(m: impl Into<String>) -> Failure {
        Failure {
            code: 2,
            message: m.into(),
        }
    }
}

/// The exit code for an API error.
pub fn exit_code(e: &ApiError) -> u8 {
    match e.kind {
        ErrorKind::InvalidInput(_) | ErrorKind::InsecureUrl(_) => 2,
        ErrorKind::OutcomeUnknown(_) | ErrorKind::DoneUnreadable(_) => 6,
        ErrorKind::Timeout
        | ErrorKind::Connection
        | ErrorKind::ConnectionLost
        | ErrorKind::CertificateUntrusted { .. }
        | ErrorKind::TokenEndpointUnreachable
        | ErrorKind::TokenEndpointTimeout { .. } => 5,
        _ if e.is_auth() => 3,
        _ => 4,
    }
}

impl From<crate::profile::ProfileError> for Failure {
    fn from(e: crate::profile::ProfileError) -> Failure {
        let code = match e {
            crate::profile::ProfileError::KeyringRead(_) => 3,
            _ => 2,
        };
        Failure {
            code,
            message: e.to_string(),
        }
    }
}

impl From<ApiError> for Failure {
    fn from(e: ApiError) -> Failure {
        let mut message = e.to_string();
        let details = e.details();
        if e.status.is_some() || e.cause.is_some() {
            message.push_str(&format!("\nDetails:\n{details}"));
        }
        Failure {
            code: exit_code(&e),
            message,
        }
    }
}

/// Runs a command (not `None`, which is the app). Returns the process exit code.
pub fn run(cli: Cli) -> ExitCode {
    let Some(command) = cli.command else {
        return ExitCode::from(2);
    };
    let rt = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("Could not start: {e}");
            return ExitCode::from(1);
        }
    };
    let result = match command {
        Command::Sandbox(args) => return run_sandbox(&rt, args),
        Command::Profile(p) => profile_command(p),
        other => rt.block_on(service_command(other, cli.profile.as_deref(), cli.json)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            // Our own line breaks stay; anything else that could steer the terminal
            // (from the service, or from input echoed back) is shown escaped.
            let lines: Vec<_> = f.message.lines().map(escape_controls).collect();
            eprintln!("{}", lines.join("\n"));
            ExitCode::from(f.code)
        }
    }
}

fn write_failure(e: std::io::Error) -> Failure {
    Failure {
        code: 1,
        message: format!("Could not write the output: {e}"),
    }
}

fn profile_command(cmd: ProfileCommand) -> Result<(), Failure> {
    let path = settings::profiles_path()?;
    let mut profiles = Profiles::load(&path)?;
    match cmd {
        ProfileCommand::List => {
            if profiles.profiles.is_empty() {
                eprintln!("No profiles. Add one with `invoice-desk profile add`.");
            }
            for p in &profiles.profiles {
                let active = if profiles.active.as_deref() == Some(&p.name) {
                    "* "
                } else {
                    "  "
                };
                let mode = match p.auth {
                    ProfileAuth::OAuth { .. } => "oauth",
                    ProfileAuth::ApiKey { .. } => "api-key",
                };
                println!("{active}{}\t{mode}\t{}", p.name, p.base_url);
            }
            Ok(())
        }
        ProfileCommand::Show { name } => {
            let p = match name {
                Some(n) => profiles
                    .get(&n)
                    .ok_or_else(|| Failure::usage(format!("There is no profile named \"{n}\".")))?,
                None => profiles
                    .active_profile()
                    .ok_or_else(|| Failure::usage("There is no active profile."))?,
            };
            print!(
                "{}",
                toml::to_string_pretty(p).map_err(|e| Failure::usage(e.to_string()))?
            );
            Ok(())
        }
        ProfileCommand::Use { name } => {
            if profiles.get(&name).is_none() {
                return Err(Failure::usage(format!(
                    "There is no profile named \"{name}\"."
                )));
            }
            profiles.active = Some(name.clone());
            profiles.save(&path)?;
            eprintln!("\"{name}\" is now the active profile.");
            Ok(())
        }
        ProfileCommand::Remove { name } => {
            let Some(kind) = profiles.get(&name).map(|p| p.auth.secret_kind()) else {
                return Err(Failure::usage(format!(
                    "There is no profile named \"{name}\"."
                )));
            };
            profiles.remove(&name);
            profiles.save(&path)?;
            settings::secret_store().delete(&name, kind);
            eprintln!("Removed the profile \"{name}\" and its stored secret.");
            Ok(())
        }
        ProfileCommand::Add(a) => {
            let auth = match a.mode {
                Mode::Oauth => ProfileAuth::OAuth {
                    auth_url: a
                        .auth_url
                        .clone()
                        .ok_or_else(|| Failure::usage("--auth-url is required for OAuth."))?,
                    audience: a
                        .audience
                        .clone()
                        .ok_or_else(|| Failure::usage("--audience is required for OAuth."))?,
                    client_id: a
                        .client_id
                        .clone()
                        .ok_or_else(|| Failure::usage("--client-id is required for OAuth."))?,
                    body_style: if a.form_body {
                        crate::api::TokenBodyStyle::Form
                    } else {
                        crate::api::TokenBodyStyle::Json
                    },
                },
                Mode::ApiKey => ProfileAuth::ApiKey {
                    header: a.api_key_header.clone(),
                },
            };
            let profile = Profile {
                name: a.name.clone(),
                base_url: a.base_url.clone(),
                auth,
                account_key: a.account_key.clone(),
                account_currency: a.account_currency.map(Currency::from),
                sandbox: false,
            };
            profile.validate()?;
            let what = match a.mode {
                Mode::Oauth => "client secret",
                Mode::ApiKey => "API key",
            };
            let secret = read_secret(what)?;
            let previous = profiles.get(&a.name).map(|p| p.name.clone());
            profiles.upsert(previous.as_deref(), profile.clone())?;
            profiles.save(&path)?;
            match settings::secret_store().set(&a.name, profile.auth.secret_kind(), &secret) {
                crate::profile::StoreStatus::Keyring(name) => eprintln!(
                    "Saved \"{}\"; the {what} is in the keyring ({name}).",
                    a.name
                ),
                crate::profile::StoreStatus::SessionOnly(why) => eprintln!(
                    "Saved \"{}\", but the {what} could NOT be stored: no keyring is available ({why}). \
                     Set it in the environment of the job instead (INVOICE_DESK_{}).",
                    a.name,
                    if a.mode == Mode::Oauth {
                        "CLIENT_SECRET"
                    } else {
                        "API_KEY"
                    }
                ),
            }
            Ok(())
        }
    }
}

/// Reads a secret from a hidden prompt (terminal) or the first line of stdin.
fn read_secret(what: &str) -> Result<SecretString, Failure> {
    let text = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(format!("{what}: "))
            .map_err(|e| Failure::usage(format!("Could not read the {what}: {e}")))?
    } else {
        let mut line = String::new();
        std::io::stdin()
            .read_line(&mut line)
            .map_err(|e| Failure::usage(format!("Could not read the {what}: {e}")))?;
        line
    };
    let text = text.trim_end_matches(['\r', '\n']).to_string();
    if text.trim().is_empty() {
        return Err(Failure::usage(format!("No {what} was given on stdin.")));
    }
    Ok(SecretString::from(text))
}

async fn service_command(cmd: Command, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let resolved = settings::resolve(profile)?;
    let client = Client::new(resolved.config).map_err(Failure::from)?;
    match cmd {
        Command::Token => {
            let report = client.check_connection().await?;
            match report.token {
                TokenState::Valid {
                    expires_at: Some(t),
                } => {
                    let left = (t - chrono::Utc::now()).num_minutes();
                    println!(
                        "Token valid until {} (in {left} minutes).",
                        t.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M")
                    );
                }
                TokenState::Valid { expires_at: None } => {
                    println!("Token valid (the provider did not say for how long).")
                }
                TokenState::NotUsed => println!(
                    "This profile uses an API key: there is no token. The key was accepted."
                ),
                other => println!("Token state: {other:?}"),
            }
            Ok(())
        }
        Command::Create(a) => {
            let currency = match a.currency {
                Some(c) => CurrencyChoice::Code(c.into()),
                None => CurrencyChoice::AccountDefault,
            };
            let reading = currency.currency().or(resolved.account_currency);
            let amount = money::parse_amount_input(&a.amount, reading)
                .map_err(|e| Failure::usage(e.to_string()))?;
            let (extra, metadata) =
                crate::input::parse_assignments(a.fields.iter().map(String::as_str))
                    .map_err(|e| Failure::usage(format!("--field {e}")))?;
            let reference = a
                .external_id
                .clone()
                .unwrap_or_else(crate::input::fresh_reference);
            let inv = NewInvoice {
                customer: a.customer.clone(),
                amount,
                currency,
                product_id: a.product.clone(),
                due_date: a.due.clone(),
                invoice_external_id: Some(reference.clone()).filter(|r| !r.is_empty()),
                metadata,
                extra,
            };
            match client.create_invoice(&inv, a.account_key.as_deref()).await {
                Ok(created) => {
                    print_invoice(&created, json);
                    Ok(())
                }
                Err(e) if e.is_outcome_unknown() => Err(Failure {
                    code: 6,
                    message: format!(
                        "{e}\nTo check: invoice-desk list {} --format json | grep '{reference}'\n(the external reference is {reference}; do not create it again before checking)",
                        a.customer
                    ),
                }),
                Err(e) => Err(e.into()),
            }
        }
        Command::Get { id } => {
            print_invoice(&client.get_invoice(&id).await?, json);
            Ok(())
        }
        Command::Void { id, yes } => {
            if !yes {
                if !std::io::stdin().is_terminal() {
                    return Err(Failure::usage(
                        "Refusing to void without --yes: stdin is not a terminal, so nobody can confirm.",
                    ));
                }
                let inv = client.get_invoice(&id).await?;
                eprint!(
                    "Void invoice {} of customer {} for {}? This cannot be undone. [y/N] ",
                    escape_controls(&inv.id),
                    escape_controls(inv.customer.as_deref().unwrap_or("?")),
                    escape_controls(&inv.amount_display())
                );
                let _ = std::io::stderr().flush();
                let mut answer = String::new();
                std::io::stdin()
                    .read_line(&mut answer)
                    .map_err(|e| Failure::usage(e.to_string()))?;
                if !matches!(answer.trim(), "y" | "Y" | "yes" | "s" | "si" | "sí") {
                    return Err(Failure::usage("Not voided."));
                }
            }
            match client.void_invoice(&id).await {
                Ok(v) => {
                    print_invoice(&v, json);
                    Ok(())
                }
                Err(e) if e.is_outcome_unknown() => Err(Failure {
                    code: 6,
                    message: format!(
                        "{e}\nTo check: invoice-desk get {id}   (look at is_void; do not void again before checking)"
                    ),
                }),
                Err(e) => Err(e.into()),
            }
        }
        Command::List { customer, format } => {
            let format = if json { ListFormat::Json } else { format };
            // Rows go to a temporary file as pages arrive (memory does not grow with the
            // listing) and to stdout only when the listing is complete.
            let mut sink = ListSink::new(format).map_err(write_failure)?;
            let mut failed = None;
            client
                .list_customer_invoices(&customer, |page, _| {
                    for inv in &page {
                        if let Err(e) = sink.push(inv) {
                            failed = Some(e);
                            return std::ops::ControlFlow::Break(());
                        }
                    }
                    std::ops::ControlFlow::Continue(())
                })
                .await
                .map_err(|e| match failed.take() {
                    Some(io) => write_failure(io),
                    None => Failure::from(e),
                })?;
            let n = sink
                .finish(&mut std::io::stdout().lock())
                .map_err(write_failure)?;
            eprintln!("{n} invoices.");
            Ok(())
        }
        Command::Export {
            customer,
            out,
            dialect,
        } => {
            // Checked before the first request: a bad path fails now, not after the
            // whole download.
            let target = crate::fsutil::check_destination(&out).map_err(|e| Failure {
                code: 2,
                message: format!("Cannot export to {}: {e}", out.display()),
            })?;
            let progress = std::io::stderr().is_terminal();
            let mut csv =
                crate::export::StreamingCsv::new(dialect.into()).map_err(|e| Failure {
                    code: 1,
                    message: format!("Could not start the export: {e}"),
                })?;
            let mut failed = None;
            client
                .list_customer_invoices(&customer, |page, p| {
                    for inv in &page {
                        if let Err(e) = csv.push(inv) {
                            failed = Some(e);
                            return std::ops::ControlFlow::Break(());
                        }
                    }
                    if progress {
                        eprint!("\r{} invoices ({} pages)…", p.items, p.pages);
                    }
                    std::ops::ControlFlow::Continue(())
                })
                .await
                .map_err(|e| match failed.take() {
                    Some(io) => Failure {
                        code: 4,
                        message: format!(
                            "Could not export: {io}. {} was not changed.",
                            out.display()
                        ),
                    },
                    None => {
                        let mut f = Failure::from(e);
                        f.message
                            .push_str(&format!("\n{} was not changed.", out.display()));
                        f
                    }
                })?;
            if progress {
                eprintln!();
            }
            let mut n = 0;
            crate::fsutil::write_user_file(&target, |w| {
                n = csv.finish(w, &std::sync::atomic::AtomicBool::new(false))?;
                Ok(())
            })
            .map_err(|e| Failure {
                code: 1,
                message: format!(
                    "Could not write {}: {e}. Any existing file was left as it was.",
                    out.display()
                ),
            })?;
            eprintln!("Exported {n} invoices to {}.", out.display());
            Ok(())
        }
        Command::Profile(_) | Command::Sandbox(_) => Ok(()),
    }
}

fn print_invoice(inv: &Invoice, json: bool) {
    if json {
        let text = serde_json::to_string_pretty(&inv.to_json()).unwrap_or_default();
        println!("{}", escape_json_for_terminal(&text));
        return;
    }
    let e = |s: &str| escape_controls(s).into_owned();
    println!("Invoice {}  [{}]", e(&inv.id), inv.status().as_str());
    println!("  amount:    {}", e(&inv.amount_display()));
    match &inv.currency_code {
        Some(c) => println!("  currency:  {}", e(c)),
        None => println!("  currency:  (missing from the service's answer)"),
    }
    for (k, v) in inv.fields() {
        if !matches!(k.as_str(), "id" | "amount" | "currency_code") {
            println!("  {}: {}", e(&k), e(&v));
        }
    }
}

/// Where `list` puts rows until the listing is complete: a temporary file (or, for CSV,
/// the streamed export), so memory does not grow with the listing and nothing is
/// printed when it fails half way.
enum ListSink {
    Csv(crate::export::StreamingCsv),
    Text {
        format: ListFormat,
        spool: std::io::BufWriter<std::fs::File>,
        rows: u64,
    },
}

impl ListSink {
    fn new(format: ListFormat) -> std::io::Result<ListSink> {
        Ok(match format {
            // `list` is for reading (control characters escaped); `export` writes the
            // exact data to a file.
            ListFormat::Csv => ListSink::Csv(
                crate::export::StreamingCsv::new(Dialect::Standard)?.escaping_controls(true),
            ),
            other => ListSink::Text {
                format: other,
                spool: std::io::BufWriter::new(tempfile::tempfile()?),
                rows: 0,
            },
        })
    }

    fn push(&mut self, inv: &Invoice) -> std::io::Result<()> {
        match self {
            ListSink::Csv(csv) => csv.push(inv),
            ListSink::Text {
                format,
                spool,
                rows,
            } => {
                if *format == ListFormat::Json {
                    // Pretty-printed as one array, as serde_json would print it whole.
                    let text = serde_json::to_string_pretty(&inv.to_json())
                        .map_err(std::io::Error::other)?;
                    let text = escape_json_for_terminal(&text);
                    spool.write_all(if *rows == 0 { b"\n" } else { b",\n" })?;
                    for (i, line) in text.lines().enumerate() {
                        if i > 0 {
                            spool.write_all(b"\n")?;
                        }
                        spool.write_all(b"  ")?;
                        spool.write_all(line.as_bytes())?;
                    }
                } else {
                    table_row(spool, inv)?;
                }
                *rows += 1;
                Ok(())
            }
        }
    }

    fn finish(self, out: &mut impl Write) -> std::io::Result<u64> {
        use std::io::Seek;
        match self {
            ListSink::Csv(csv) => csv.finish(out, &std::sync::atomic::AtomicBool::new(false)),
            ListSink::Text {
                format,
                spool,
                rows,
            } => {
                let mut file = spool.into_inner().map_err(|e| e.into_error())?;
                file.seek(std::io::SeekFrom::Start(0))?;
                if format == ListFormat::Json {
                    out.write_all(b"[")?;
                    std::io::copy(&mut file, out)?;
                    out.write_all(if rows == 0 { b"]\n" } else { b"\n]\n" })?;
                } else {
                    writeln!(
                        out,
                        "{:<22} {:<10} {:>18} {:<4} {:<7} EXTERNAL REFERENCE",
                        "ID", "DUE", "AMOUNT", "CUR", "STATUS"
                    )?;
                    std::io::copy(&mut file, out)?;
                }
                out.flush()?;
                Ok(rows)
            }
        }
    }
}

fn table_row(out: &mut impl Write, i: &Invoice) -> std::io::Result<()> {
    let e = |s: &str| escape_controls(s).into_owned();
    writeln!(
        out,
        "{:<22} {:<10} {:>18} {:<4} {:<7} {}",
        e(&i.id),
        e(i.due_date.as_deref().unwrap_or("-")),
        e(&i.amount_display()),
        e(i.currency_code.as_deref().unwrap_or("?")),
        i.status().as_str(),
        e(i.invoice_external_id.as_deref().unwrap_or(""))
    )
}

#[cfg(feature = "sandbox")]
fn run_sandbox(rt: &tokio::runtime::Runtime, a: SandboxArgs) -> ExitCode {
    let cfg = crate::sandbox::SandboxConfig {
        bind: a.bind,
        port: a.port,
        auth_port: a.auth_port,
        seed: a.seed,
        big_customer_invoices: a.big_customer,
        data_file: a.data,
        token_lifetime: std::time::Duration::from_secs(a.token_lifetime.max(1)),
        latency: std::time::Duration::from_millis(a.latency_ms),
        ..Default::default()
    };
    rt.block_on(async {
        let port = cfg.port;
        match crate::sandbox::Sandbox::start(cfg).await {
            Ok(sandbox) => {
                println!("{}", sandbox.describe());
                println!("Press Ctrl+C to stop.");
                let _ = std::io::stdout().flush();
                let _ = tokio::signal::ctrl_c().await;
                sandbox.stop().await;
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("The sandbox could not start: {e}");
                if e.kind() == std::io::ErrorKind::AddrInUse {
                    eprintln!(
                        "Port {port} is in use: choose another with --port (0 picks a free one)."
                    );
                }
                ExitCode::from(1)
            }
        }
    })
}

#[cfg(not(feature = "sandbox"))]
fn run_sandbox(_rt: &tokio::runtime::Runtime, _a: SandboxArgs) -> ExitCode {
    eprintln!("This build has no built-in sandbox.");
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes() {
        assert_eq!(
            exit_code(&ApiError::invalid(crate::api::InputProblem::NoCustomer)),
            2
        );
        assert_eq!(exit_code(&ApiError::new(ErrorKind::Unauthorized)), 3);
        assert_eq!(
            exit_code(&ApiError::new(ErrorKind::CredentialsRejected {
                description: None
            })),
            3
        );
        assert_eq!(
            exit_code(&ApiError::new(ErrorKind::NotFound(
                crate::api::Resource::Other
            ))),
            4
        );
        assert_eq!(exit_code(&ApiError::new(ErrorKind::Timeout)), 5);
        assert_eq!(
            exit_code(&ApiError::new(ErrorKind::OutcomeUnknown(
                crate::api::Action::Create
            ))),
            6
        );
        assert_eq!(
            exit_code(&ApiError::new(ErrorKind::DoneUnreadable(
                crate::api::Action::Void
            ))),
            6
        );
    }

    #[test]
    fn the_cli_definition_is_valid() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
