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

/// A document made, written and handed to the system's viewer: its file, and whether
/// the viewer opened it (why not).
pub type Shown = Result<(PathBuf, Result<(), String>), String>;

/// Writes `pdf` as a new file named `name` (never over another) in the app's temporary
/// folder and opens it with `opener`, from which the clerk prints, saves or sends it.
/// `failed` words a write that did not happen.
pub fn show_pdf(
    name: &str,
    pdf: &[u8],
    opener: &Opener,
    failed: impl Fn(std::io::Error) -> String,
) -> Shown {
    let dir = std::env::temp_dir().join("invoice-desk");
    std::fs::create_dir_all(&dir).map_err(&failed)?;
    let path = crate::fsutil::write_new(&dir, name.trim_end_matches(".pdf"), "pdf", pdf)
        .map_err(&failed)?;
    let opened = opener(&External::File(path.clone()));
    Ok((path, opened))
}
