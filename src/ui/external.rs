//! Opening something outside the app — a payment link in the browser, a folder in the
//! file manager — off the UI thread, and saying so when it cannot be opened (the link is
//! then copied, the folder's path shown): no button stays silent.

use std::path::PathBuf;
use std::sync::Arc;

/// Something to open outside the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum External {
    /// A web address, in the system's browser.
    Link(String),
    /// A folder, in the system's file manager.
    Folder(PathBuf),
    /// A file (a statement's PDF), in the system's viewer for it.
    File(PathBuf),
}

/// Opens an [`External`]; `Err` says why it could not.
pub type Opener = Arc<dyn Fn(&External) -> Result<(), String> + Send + Sync>;

/// The system's way: the browser for a link, the file manager for a folder.
pub fn system_opener() -> Opener {
    Arc::new(|what: &External| match what {
        External::Link(url) => webbrowser::open(url).map_err(|e| e.to_string()),
        External::Folder(dir) | External::File(dir) => {
            #[cfg(target_os = "windows")]
            let program = "explorer";
            #[cfg(target_os = "macos")]
            let program = "open";
            #[cfg(not(any(target_os = "windows", target_os = "macos")))]
            let program = "xdg-open";
            match std::process::Command::new(program).arg(dir).status() {
                // Explorer answers 1 even when it opened the folder.
                Ok(s) if s.success() || cfg!(target_os = "windows") => Ok(()),
                Ok(s) => Err(format!("{program} ended with {s}")),
                Err(e) => Err(format!("{program}: {e}")),
            }
        }
    })
}
