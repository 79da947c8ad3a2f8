//! The support log: what the program did and what went wrong, one file a day
//! (`invoice-desk.YYYY-MM-DD.log`, the last 14 kept) in a folder only this user can open,
//! for "Details" and for whoever helps a clerk. Never a secret: a request is logged by its
//! method, path and status (no query, header or body), an error by its kind's name, a
//! command line by its command's name.
//!
//! The folder: `INVOICE_DESK_LOG_DIR` (empty: no log); else `logs` in the folder that
//! `INVOICE_DESK_CONFIG_DIR` names (where the tests put everything); else `logs` in the
//! platform's data folder.

use std::path::PathBuf;

/// Keeps the log's writer thread until the program ends (then the last lines are
/// written).
#[must_use = "the log stops when this is dropped"]
pub struct Log {
    _writer: Option<tracing_appender::non_blocking::WorkerGuard>,
}

/// Where the log goes, if anywhere.
pub fn folder() -> Option<PathBuf> {
    match std::env::var_os("INVOICE_DESK_LOG_DIR") {
        Some(d) if d.is_empty() => None,
        Some(d) => Some(PathBuf::from(d)),
        None => match std::env::var_os("INVOICE_DESK_CONFIG_DIR") {
            Some(d) if !d.is_empty() => Some(PathBuf::from(d).join("logs")),
            _ => directories::ProjectDirs::from("cl", "invoice-desk", "invoice-desk")
                .map(|d| d.data_dir().join("logs")),
        },
    }
}

/// The target of timing lines (`INVOICE_DESK_TRACE=1`, for the measurement scripts):
/// they go to stderr as they are, never into the support log.
pub const TRACE: &str = "invoice_desk::trace";

/// Whether timing lines are wanted (`INVOICE_DESK_TRACE=1`).
pub fn tracing_to_stderr() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("INVOICE_DESK_TRACE").is_some_and(|v| v == "1"))
}

/// Starts the log for this process (`what`: "app" or the command's name). A log that
/// cannot start (no folder, a read-only disk) is no log: the program works on.
pub fn start(what: &str) -> Log {
    use tracing_subscriber::Layer as _;
    use tracing_subscriber::layer::SubscriberExt as _;
    let file = folder()
        .filter(|dir| private_folder(dir).is_ok())
        .and_then(|dir| {
            tracing_appender::rolling::Builder::new()
                .rotation(tracing_appender::rolling::Rotation::DAILY)
                .filename_prefix("invoice-desk")
                .filename_suffix("log")
                .max_log_files(14)
                .build(&dir)
                .ok()
        })
        .map(tracing_appender::non_blocking);
    let (writer, guard) = file.unzip();
    let to_file = writer.map(|w| {
        tracing_subscriber::fmt::layer()
            .with_writer(w)
            .with_ansi(false)
            .with_target(false)
            .with_filter(tracing_subscriber::filter::filter_fn(|m| {
                m.target() != TRACE && *m.level() <= tracing::Level::INFO
            }))
    });
    let to_stderr = tracing_to_stderr().then(|| {
        tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .without_time()
            .with_level(false)
            .with_target(false)
            .with_filter(tracing_subscriber::filter::filter_fn(|m| {
                m.target() == TRACE
            }))
    });
    let subscriber = tracing_subscriber::registry().with(to_file).with(to_stderr);
    if tracing::subscriber::set_global_default(subscriber).is_err() {
        return Log { _writer: None };
    }
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        os = std::env::consts::OS,
        what,
        "started"
    );
    Log { _writer: guard }
}

/// The log's folder, made if need be, that only this user can open (the log names
/// customers and invoices).
fn private_folder(dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}
