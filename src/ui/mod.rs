//! The desktop app (eframe, glow renderer). It knows nothing of HTTP: it calls the API
//! layer, on the tokio runtime, never on the UI thread.

pub mod activity;
pub mod app;
pub mod approvals;
pub mod bulk;
mod clock;
pub mod command;
pub mod contracts;
pub mod create;
pub mod credentials;
pub mod customers;
pub mod external;
pub mod journal;
pub mod lookup;
pub mod mailing;
pub mod receivables;
pub mod search;
pub mod session;
pub mod shared_journal;
pub mod task;
pub mod uf_setting;
pub mod widgets;

pub use app::{AppDeps, InvoiceDeskApp, Tab};
pub use clock::Clock;

/// What the app asks of every panel between frames: take what its tasks finished into
/// its state (shown or not). `drain_finished` polls them all in one loop.
pub trait Panel {
    /// Takes finished work.
    fn poll(&mut self);

    /// Whether the service answered one of its requests since last asked (an invoice
    /// issued, one looked up): the profile's connection is then known to work.
    fn service_answered(&mut self) -> bool {
        false
    }
}

/// With `INVOICE_DESK_TRACE=1`, timings (never data or secrets) go to stderr: when the
/// first frame was drawn and how long a listing took. For the measurement script.
pub fn trace_enabled() -> bool {
    crate::logfile::tracing_to_stderr()
}

/// One timing line (see [`trace_enabled`]): an event of the log's own channel, which
/// `logfile` sends to stderr, never to the support log.
macro_rules! trace_line {
    ($($t:tt)*) => {
        if $crate::ui::trace_enabled() {
            tracing::info!(target: $crate::logfile::TRACE, "invoice-desk trace: {}", format_args!($($t)*));
        }
    };
}
pub(crate) use trace_line;

/// Milliseconds since the Unix epoch, for trace lines.
pub fn unix_ms() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
}

/// Opens the app window and runs until it is closed. `rt` must outlive the window.
pub fn run(rt: &tokio::runtime::Runtime) -> eframe::Result<()> {
    // poll-promise and the panels spawn on this runtime.
    let _guard = rt.enter();
    let deps = AppDeps {
        runtime: rt.handle().clone(),
        profiles_path: crate::profile::Profiles::default_path(),
        secrets: std::sync::Arc::new(tokio::sync::OnceCell::new()),
        sandbox_data: crate::profile::Profiles::default_data_path(),
        journal: crate::journal::default_path(),
        journal_fixed: crate::journal::chosen_by_environment(),
        language: None,
        clock: Clock::default(),
        opener: None,
        // INVOICE_DESK_DOCUMENTS chooses another folder for the documents opened.
        documents: std::env::var_os("INVOICE_DESK_DOCUMENTS")
            .filter(|d| !d.is_empty())
            .map(std::path::PathBuf::from),
    };
    // The first start opens maximized, so a large screen is used; afterwards the size
    // the clerk left is restored (eframe keeps it in app.ron).
    let first_start =
        eframe::storage_dir("invoice-desk").is_none_or(|d| !d.join("app.ron").exists());
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: egui::ViewportBuilder::default()
            .with_title("invoice-desk")
            .with_inner_size([1100.0, 720.0])
            .with_maximized(first_start)
            .with_min_inner_size([720.0, 480.0])
            .with_app_id("invoice-desk")
            .with_icon(std::sync::Arc::new(
                eframe::icon_data::from_png_bytes(include_bytes!("../../assets/icon.png"))
                    .unwrap_or_default(),
            )),
        ..Default::default()
    };
    eframe::run_native(
        "invoice-desk",
        options,
        Box::new(move |cc| Ok(Box::new(InvoiceDeskApp::new(cc, deps)))),
    )
}
