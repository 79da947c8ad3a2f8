//! The headless command line, on the same API layer as the app. Messages and errors go to
//! stderr; results to stdout.
//!
//! Exit codes: [`exit::Exit`], their only list.

/// `println!` for the CLI's results: a reader that went away (`… | head`) ends the
/// output quietly instead of a "Broken pipe" panic. (SIGPIPE stays ignored: a broken
/// connection to the service must be an error the program handles, not its death.)
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `eprintln!` as [`say!`] does `println!` (a closed stderr is no reason to panic).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` as [`note!`] does `eprintln!`.
macro_rules! note_part {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// `print!` as [`say!`] does `println!`.
macro_rules! say_part {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

mod approvals_cmd;
mod args;
mod at_service;
mod bulk_cmd;
mod contracts_args;
mod contracts_cmd;
mod create_cmd;
mod email_cmd;
pub mod exit;
mod export_cmd;
mod find_cmd;
pub mod help;
mod journal_cmd;
mod journal_open;
mod output;
mod profile_cmd;
mod receivables_cmd;
mod service;
mod settings;
mod statement_cmd;
mod uf_cmd;

pub use args::*;
pub use contracts_args::*;
use profile_cmd::profile_command;

use crate::api::{ApiError, ErrorKind};
use crate::text::escape_controls;
use crate::tr;
use std::io::Write;
use std::process::ExitCode;

pub use exit::Exit;

pub use settings::config_dir;

/// A failure with its exit code and the message for stderr.
#[derive(Debug)]
pub struct CliError {
    /// Exit code.
    pub code: Exit,
    /// What to print.
    pub message: String,
}

impl CliError {
    fn usage(m: impl Into<String>) -> CliError {
        CliError {
            code: Exit::Usage,
            message: m.into(),
        }
    }
}

/// The exit code for an API error.
pub fn exit_code(e: &ApiError) -> Exit {
    match e.kind {
        ErrorKind::InvalidInput(_) | ErrorKind::InsecureUrl(_) => Exit::Usage,
        ErrorKind::OutcomeUnknown(_) | ErrorKind::DoneUnreadable(_) => Exit::Unknown,
        ErrorKind::Timeout
        | ErrorKind::Connection
        | ErrorKind::ConnectionLost
        | ErrorKind::CertificateUntrusted { .. }
        | ErrorKind::TokenEndpointUnreachable
        | ErrorKind::TokenEndpointTimeout { .. } => Exit::Network,
        _ if e.is_auth() => Exit::Auth,
        _ => Exit::Refused,
    }
}

impl From<crate::profile::ProfileError> for CliError {
    fn from(e: crate::profile::ProfileError) -> CliError {
        let code = match e {
            crate::profile::ProfileError::KeyringRead(_) => Exit::Auth,
            _ => Exit::Usage,
        };
        CliError {
            code,
            message: crate::i18n::profile_error(&e),
        }
    }
}

impl From<ApiError> for CliError {
    fn from(e: ApiError) -> CliError {
        // The clerk's words, as the app says them; the engineer's details after.
        let mut message = crate::i18n::error_text(&e);
        let details = crate::i18n::error_details(&e);
        if e.status.is_some() || e.cause.is_some() {
            message.push_str(&format!("\n{}\n{details}", tr!("cli-details")));
        }
        CliError {
            code: exit_code(&e),
            message,
        }
    }
}

/// Runs a command (not `None`, which is the app). Returns the process exit code.
pub fn run(cli: Cli) -> ExitCode {
    let Some(command) = cli.command else {
        return ExitCode::from(Exit::Usage.code());
    };
    // One language for the whole run: a command line serves one person.
    crate::i18n::set(LangArg::or_os(cli.lang));
    let rt = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            note!("{}", tr!("cli-could-not-start", why = e));
            return ExitCode::from(Exit::Failed.code());
        }
    };
    let result = match command {
        Command::Sandbox(args) => return run_sandbox(&rt, args),
        Command::Doctor => return doctor(),
        Command::Profile(p) => profile_command(p),
        Command::Customers(c) => journal_cmd::customers_command(c, cli.json),
        Command::Uf(u) => rt.block_on(uf_cmd::uf_command(u)),
        Command::Find { text, local } => rt.block_on(find_cmd::find(
            &text,
            local,
            cli.profile.as_deref(),
            cli.json,
        )),
        Command::Email(e) => rt.block_on(email_cmd::email_command(e, cli.profile.as_deref())),
        Command::Bulk(b) => rt.block_on(bulk_cmd::bulk_command(b, cli.profile.as_deref())),
        Command::Contracts(c) => rt.block_on(contracts_cmd::contracts_command(
            c,
            cli.profile.as_deref(),
            cli.json,
        )),
        Command::Approvals(a) => rt.block_on(approvals_cmd::approvals_command(a, cli.json)),
        Command::Journal(j) => rt.block_on(journal_cmd::journal_command(
            j,
            cli.profile.as_deref(),
            cli.json,
        )),
        other => rt.block_on(service::run(other, cli.profile.as_deref(), cli.json)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            // Our own line breaks stay; anything else that could steer the terminal
            // (from the service, or from input echoed back) is shown escaped.
            if !f.message.is_empty() {
                let lines: Vec<_> = f.message.lines().map(escape_controls).collect();
                note!("{}", lines.join("\n"));
                // Its first line, the words: the details below it may repeat what the
                // service sent.
                tracing::warn!(code = f.code.code(), said = %lines[0], "stopped");
            }
            ExitCode::from(f.code.code())
        }
    }
}

/// A flag Ctrl+C sets (a run stops before its next customer), and the task that
/// watches for it (aborted when the run ends).
fn stop_on_ctrl_c() -> (
    std::sync::Arc<std::sync::atomic::AtomicBool>,
    tokio::task::JoinHandle<()>,
) {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    let watch = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    });
    (stop, watch)
}

/// `invoice-desk doctor`: the self-check, in the run's language.
fn doctor() -> ExitCode {
    let profiles = settings::profiles_path().ok();
    let data = crate::profile::Profiles::default_data_path();
    let report = crate::doctor::run(
        &settings::secret_store(),
        profiles.as_deref(),
        data.as_deref(),
    );
    say!("{}", report.text());
    if report.all_well() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(Exit::Failed.code())
    }
}

/// Where a file asked for will be written, checked before any work (a bad path fails
/// now, exit 2, not after a download).
fn destination(out: &std::path::Path) -> Result<std::path::PathBuf, CliError> {
    crate::fsutil::check_destination(out).map_err(|e| CliError {
        code: Exit::Usage,
        message: tr!(
            "cli-cannot-export-to",
            path = out.display(),
            why = crate::i18n::destination_error(&e)
        ),
    })
}

fn write_failure(e: std::io::Error) -> CliError {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        // Whoever read the output stopped reading (`… | head`): nothing to say.
        return CliError {
            code: Exit::PipeClosed,
            message: String::new(),
        };
    }
    CliError {
        code: Exit::Failed,
        message: tr!("cli-cannot-write-output", why = crate::i18n::io_words(&e)),
    }
}

/// A yes to a `[y/N]` question, in either language ("y", "yes", "s", "sí").
fn said_yes(answer: &str) -> bool {
    matches!(
        answer.trim().to_lowercase().as_str(),
        "y" | "yes" | "s" | "si" | "sí"
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
        extra_customers: a.extra_customers,
        invoices_each: a.invoices_each,
        data_file: a.data,
        token_lifetime: std::time::Duration::from_secs(a.token_lifetime.max(1)),
        latency: std::time::Duration::from_millis(a.latency_ms),
        currencies: a.currencies.clone(),
        finish_abandoned: a.finish_abandoned,
        ..Default::default()
    };
    rt.block_on(async {
        let port = cfg.port;
        match crate::sandbox::Sandbox::start(cfg).await {
            Ok(sandbox) => {
                say!("{}", sandbox.describe());
                say!("{}", tr!("cli-sandbox-stop"));
                let _ = std::io::stdout().flush();
                let _ = tokio::signal::ctrl_c().await;
                sandbox.stop().await;
                ExitCode::SUCCESS
            }
            Err(e) => {
                note!("{}", tr!("cli-sandbox-failed", why = e));
                if e.kind() == std::io::ErrorKind::AddrInUse {
                    note!("{}", tr!("cli-sandbox-port-in-use", port = port));
                }
                ExitCode::from(Exit::Failed.code())
            }
        }
    })
}

#[cfg(not(feature = "sandbox"))]
fn run_sandbox(_rt: &tokio::runtime::Runtime, _a: SandboxArgs) -> ExitCode {
    note!("{}", tr!("cli-no-sandbox"));
    ExitCode::from(Exit::Usage.code())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes() {
        assert_eq!(
            exit_code(&ApiError::invalid(crate::api::InputError::NoCustomer)),
            Exit::Usage
        );
        assert_eq!(
            exit_code(&ApiError::new(ErrorKind::Unauthorized)),
            Exit::Auth
        );
        assert_eq!(
            exit_code(&ApiError::new(ErrorKind::CredentialsRejected {
                description: None
            })),
            Exit::Auth
        );
        assert_eq!(
            exit_code(&ApiError::new(ErrorKind::NotFound(
                crate::api::Resource::Other
            ))),
            Exit::Refused
        );
        assert_eq!(exit_code(&ApiError::new(ErrorKind::Timeout)), Exit::Network);
        assert_eq!(
            exit_code(&ApiError::new(ErrorKind::OutcomeUnknown(
                crate::api::Action::Create
            ))),
            Exit::Unknown
        );
        assert_eq!(
            exit_code(&ApiError::new(ErrorKind::DoneUnreadable(
                crate::api::Action::Void
            ))),
            Exit::Unknown
        );
    }

    /// #67: the exit codes have one list; docs/cli.md says each as it is.
    #[test]
    fn every_exit_code_is_in_the_help_and_the_docs() {
        let help = Exit::help();
        // Wrapped as a paragraph is: compared word by word.
        let docs = include_str!("../../docs/cli.md")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for e in Exit::ALL {
            assert!(
                help.contains(&format!("{} {}", e.code(), e.meaning())),
                "{help}"
            );
            assert!(
                docs.contains(&format!("{} {}", e.code(), e.meaning())),
                "docs/cli.md lacks exit code {}: {}",
                e.code(),
                e.meaning()
            );
        }
    }

    #[test]
    fn the_cli_definition_is_valid() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
