//! The headless command line, on the same API layer as the app. Messages and errors go to
//! stderr; results to stdout.
//!
//! Exit codes: 0 success; 2 bad usage or input refused before sending; 3 authentication
//! failed (token endpoint or 401/403); 4 the service answered with an error; 5 network
//! failure or timeout; 6 outcome unknown (create/void sent, no answer); 8 `journal
//! verify` found a changed or removed entry.

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

mod args;
mod bulk_cmd;
mod create_cmd;
mod email_cmd;
mod export_cmd;
mod find_cmd;
mod journal_cmd;
mod output;
mod profile_cmd;
mod receivables_cmd;
mod service;
mod settings;
mod statement_cmd;
mod uf_cmd;

pub use args::*;
use profile_cmd::profile_command;

use crate::api::{ApiError, ErrorKind};
use crate::text::escape_controls;
use crate::tr;
use std::io::Write;
use std::process::ExitCode;

pub use settings::config_dir;

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
            message: crate::i18n::profile_error(&e),
        }
    }
}

impl From<ApiError> for Failure {
    fn from(e: ApiError) -> Failure {
        // The clerk's words, as the app says them; the engineer's details after.
        let mut message = crate::i18n::error_text(&e);
        let details = crate::i18n::error_details(&e);
        if e.status.is_some() || e.cause.is_some() {
            message.push_str(&format!("\n{}\n{details}", tr!("cli-details")));
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
    // One language for the whole run: a command line serves one person.
    crate::i18n::set(LangArg::or_os(cli.lang));
    let rt = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            note!("{}", tr!("cli-could-not-start", why = e));
            return ExitCode::from(1);
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
                tracing::warn!(code = f.code, said = %lines[0], "stopped");
            }
            ExitCode::from(f.code)
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
        ExitCode::from(1)
    }
}

/// Where a file asked for will be written, checked before any work (a bad path fails
/// now, exit 2, not after a download).
fn destination(out: &std::path::Path) -> Result<std::path::PathBuf, Failure> {
    crate::fsutil::check_destination(out).map_err(|e| Failure {
        code: 2,
        message: tr!(
            "cli-cannot-export-to",
            path = out.display(),
            why = crate::i18n::destination_error(&e)
        ),
    })
}

fn write_failure(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        // Whoever read the output stopped reading (`… | head`): nothing to say.
        return Failure {
            code: EXIT_PIPE_CLOSED,
            message: String::new(),
        };
    }
    Failure {
        code: 1,
        message: tr!("cli-cannot-write-output", why = e),
    }
}

/// A yes to a `[y/N]` question, in either language ("y", "yes", "s", "sí").
fn said_yes(answer: &str) -> bool {
    matches!(
        answer.trim().to_lowercase().as_str(),
        "y" | "yes" | "s" | "si" | "sí"
    )
}

/// Exit code when the output's reader went away (as a shell reports SIGPIPE).
const EXIT_PIPE_CLOSED: u8 = 141;

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
                ExitCode::from(1)
            }
        }
    })
}

#[cfg(not(feature = "sandbox"))]
fn run_sandbox(_rt: &tokio::runtime::Runtime, _a: SandboxArgs) -> ExitCode {
    note!("{}", tr!("cli-no-sandbox"));
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
